"""The word (BM25) index of each namespace: the same rows as SQLite's FTS5 under every filter
it narrows, kept in step with commits, rollbacks and deletions, rebuilt by a writer when
stale, passed over (FTS5 ranks) by a reader that it does not hold the commit of."""
from __future__ import annotations

import random
import shutil
from datetime import timedelta

import pytest

from memory import mirrored_index, sqlite_faiss, word_index
from memory.records import MemoryRecord, RecordFilter
from memory.sqlite_faiss import MemoryDatabase
from memory.word_index import WordQuery
from tests.conftest import T0

WORDS = ["keys", "wallet", "bread", "milk", "tom", "saturday", "bus", "rain", "door", "lamp", "cup", "shoe"]


def _rec(text, minute, ns="me", kind="utterance", video="v1", store="event"):
    return MemoryRecord(store, kind, ns, text, T0 + timedelta(minutes=minute),
                        T0 + timedelta(minutes=minute, seconds=30), video_id=video)


@pytest.fixture
def db(tmp_path, embedder):
    database = MemoryDatabase(tmp_path, embedder)
    yield database
    database.close()


def _fill(db, n=240, seed=3):
    rng = random.Random(seed)
    db.stores["event"].add([_rec(" ".join(rng.sample(WORDS, 3)) + f" note {i}", rng.randint(0, 120),
                                 ns=rng.choice(["me", "you"]), kind=rng.choice(["utterance", "text"]))
                            for i in range(n)])


def _lexical(store, text, flt, k):
    return [(r.id, s) for r, s in store.search_lexical(text, flt, k)]


def _fts_only(monkeypatch):
    monkeypatch.setattr(sqlite_faiss.SqliteFaissStore, "_search_words", lambda self, *a: None)


def _word_index_answers(monkeypatch) -> list:
    """Record what each `_search_words` returned (None: FTS5 ranked instead)."""
    seen, real = [], sqlite_faiss.SqliteFaissStore._search_words
    monkeypatch.setattr(sqlite_faiss.SqliteFaissStore, "_search_words",
                        lambda self, *a: seen.append(real(self, *a)) or seen[-1])
    return seen


@pytest.mark.parametrize("flt", [
    RecordFilter(namespace="me"),
    RecordFilter(namespace="you", kinds=("text",)),
    RecordFilter(namespace="me", before=T0 + timedelta(minutes=50)),
    RecordFilter(namespace="me", kinds=("utterance",), not_before=T0 + timedelta(minutes=30),
                 before=T0 + timedelta(minutes=70)),
    RecordFilter(namespace="you", overlaps=(T0 + timedelta(minutes=10), T0 + timedelta(minutes=20))),
])
def test_the_word_index_finds_the_rows_fts5_finds_under_each_filter(db, monkeypatch, flt):
    _fill(db)
    store = db.stores["event"]
    answers = _word_index_answers(monkeypatch)
    expected = {r.id for r in store.query(flt) if {"tom", "keys"} & set(r.text.split())}
    found = _lexical(store, "tom keys", flt, 500)
    assert answers and answers[-1] is not None  # the word index ranked, not FTS5
    assert {i for i, _ in found} == expected and expected
    scores = [s for _, s in found]
    assert scores == sorted(scores, reverse=True)
    _fts_only(monkeypatch)
    assert {i for i, _ in _lexical(store, "tom keys", flt, 500)} == expected


@pytest.mark.parametrize("flt", [
    RecordFilter(namespace="me", mentions=(("keys",),)),
    RecordFilter(namespace="you", kinds=("text",), mentions=(("tom", "bus"), ("milk",))),
    # a cut inside rows: a text sighting under way is kept, an utterance is not
    RecordFilter(namespace="me", mentions=(("keys",), ("door",)), before=T0 + timedelta(minutes=60, seconds=15)),
    RecordFilter(namespace="me", kinds=("utterance",), mentions=(("rain",),), not_before=T0 + timedelta(minutes=30),
                 before=T0 + timedelta(minutes=90)),
])
def test_the_newest_rows_holding_words_come_from_the_word_index_as_sql_finds_them(db, monkeypatch, flt):
    """A tool's "the latest moments mentioning X" is read newest first from the word index,
    then exactly filtered in SQL: the same rows as SQL sorting every match."""
    _fill(db, n=600)
    store = db.stores["event"]
    seen, real = [], sqlite_faiss.SqliteFaissStore._newest_mentioning
    monkeypatch.setattr(sqlite_faiss.SqliteFaissStore, "_newest_mentioning",
                        lambda self, *a: seen.append(real(self, *a)) or seen[-1])
    for limit in (1, 7, 40):
        found = [(r.id, r.wall_end) for r in store.query(flt, limit=limit, newest_first=True)]
        assert seen[-1] is not None and len(found) == min(limit, len(store.query(flt)))
        monkeypatch.setattr(sqlite_faiss.SqliteFaissStore, "_newest_mentioning", lambda self, *a: None)
        assert found == [(r.id, r.wall_end) for r in store.query(flt, limit=limit, newest_first=True)]
        monkeypatch.setattr(sqlite_faiss.SqliteFaissStore, "_newest_mentioning",
                            lambda self, *a: seen.append(real(self, *a)) or seen[-1])


def test_a_row_holding_more_of_the_rarer_words_ranks_first(db, monkeypatch):
    store = db.stores["event"]
    store.add([_rec(f"the lamp by the door {i}", i) for i in range(40)]
              + [_rec("the spare keys are under the lamp", 41), _rec("keys", 42, ns="you")])
    answers = _word_index_answers(monkeypatch)
    [(best, _)] = store.search_lexical("where are the keys for the lamp", RecordFilter(namespace="me"), 1)
    assert answers[-1] is not None and best.text == "the spare keys are under the lamp"


def test_a_filter_that_keeps_few_of_the_best_rows_falls_back_to_fts5(db, monkeypatch):
    """Equal attrs are applied to the index's best rows: when none of them pass, FTS5 ranks."""
    store = db.stores["event"]
    store.add([_rec(f"keys on the hook {i}", i) for i in range(200)])
    odd = MemoryRecord("event", "utterance", "me", "keys in the car", T0 + timedelta(minutes=300),
                       T0 + timedelta(minutes=301), video_id="v2", attrs={"speaker_name": "Ann"})
    store.add([odd])
    answers = _word_index_answers(monkeypatch)
    found = store.search_lexical("keys", RecordFilter(namespace="me", attrs=(("speaker_name", "Ann"),)), 3)
    assert answers == [None] and [r.text for r, _ in found] == ["keys in the car"]


def test_commits_rollbacks_and_deletions_reach_the_word_index(db, monkeypatch):
    store = db.stores["event"]
    store.add([_rec("umbrella by the door", 0), _rec("umbrella in the car", 1, video="v2")])
    with pytest.raises(RuntimeError), db.batch():
        store.add([_rec("umbrella on the train", 2, video="v3")])
        raise RuntimeError("the ingest failed")
    answers = _word_index_answers(monkeypatch)
    flt = RecordFilter(namespace="me")
    assert {r.text for r, _ in store.search_lexical("umbrella", flt, 10)} == {"umbrella by the door", "umbrella in the car"}
    assert store.words("me").documents(db.generation()) == 2
    store.delete(RecordFilter(video_ids=("v2",)))
    assert [r.text for r, _ in store.search_lexical("umbrella", flt, 10)] == ["umbrella by the door"]
    assert store.words("me").documents(db.generation()) == 1
    assert all(a is not None for a in answers) and len(answers) == 2


def test_a_reader_another_commit_passed_ranks_with_fts5_and_the_next_writer_rebuilds(tmp_path, embedder, monkeypatch):
    first = MemoryDatabase(tmp_path, embedder)
    first.stores["event"].add([_rec("the wifi password is BLUEFOX", 0)])
    first.close()
    [folder] = tmp_path.glob("event.*.words")
    stamp = folder.with_name(folder.name + ".generation")
    stamp.write_text("0")  # as if a writer crashed between its commit and the word index's
    again = MemoryDatabase(tmp_path, embedder)
    store = again.stores["event"]
    answers = _word_index_answers(monkeypatch)
    assert [r.text for r, _ in store.search_lexical("wifi password", RecordFilter(namespace="me"), 3)] == [
        "the wifi password is BLUEFOX"]
    assert answers == [None]  # FTS5 answered; the reader did not rebuild
    assert stamp.read_text() == "0"
    store.add([_rec("the wifi router is in the hall", 1)])  # a writer: rebuilds, then takes its batch
    assert int(stamp.read_text()) == again.generation()
    found = store.search_lexical("wifi", RecordFilter(namespace="me"), 3)
    assert answers[-1] is not None and len(found) == 2
    other = MemoryDatabase(tmp_path, embedder)  # another process's view of the same folder
    other.stores["event"].add([_rec("wifi again", 2)])
    assert len(store.search_lexical("wifi", RecordFilter(namespace="me"), 5)) == 3 and answers[-1] is not None
    other.close()
    again.close()


@pytest.mark.parametrize("torn", ["every file", "segments"])
def test_an_unreadable_word_index_is_passed_by_then_rebuilt_from_sqlite(tmp_path, embedder, torn):
    db = MemoryDatabase(tmp_path, embedder)
    db.stores["event"].add([_rec("dentist on tuesday", 0)])
    db.close()
    [folder] = tmp_path.glob("event.*.words")
    for f in folder.iterdir():
        if f.is_file() and (torn == "every file" or f.suffix != ".json"):
            f.write_bytes(b"torn")
    again = MemoryDatabase(tmp_path, embedder)
    store = again.stores["event"]
    assert [r.text for r, _ in store.search_lexical("dentist", RecordFilter(namespace="me"), 5)] == ["dentist on tuesday"]
    assert store.words("me").documents(again.generation()) is None  # FTS5 ranked; the reader left the files
    store.add([_rec("dentist moved to friday", 1)])
    assert {r.text for r, _ in store.search_lexical("dentist", RecordFilter(namespace="me"), 5)} == {
        "dentist on tuesday", "dentist moved to friday"}
    assert store.words("me").documents(again.generation()) == 2
    again.close()


def test_a_memory_from_before_word_indexes_catches_up_in_one_batch(tmp_path, embedder, monkeypatch):
    db = MemoryDatabase(tmp_path, embedder)
    db.stores["event"].add([_rec("the bakery closes at six", 0), _rec("bakery", 1, ns="you")])
    db.stores["entity"].add([_rec("a loaf of bread", 2, kind="sighting", store="entity")])
    db.close()
    for made in tmp_path.glob("*.words*"):  # as a memory written before there were word indexes
        shutil.rmtree(made) if made.is_dir() else made.unlink()
    again = MemoryDatabase(tmp_path, embedder)
    answers = _word_index_answers(monkeypatch)
    assert len(again.stores["event"].search_lexical("bakery", RecordFilter(namespace="me"), 3)) == 1
    assert answers == [None]  # FTS5, until the indexes are built
    assert sorted(again.catch_up_word_indexes()) == ["entity/me", "event/me", "event/you"]
    generation = again.generation()
    assert again.catch_up_word_indexes() == [] and again.generation() == generation  # nothing missing: no commit
    assert len(again.stores["event"].search_lexical("bakery", RecordFilter(namespace="you"), 3)) == 1
    assert answers[-1] is not None
    again.close()


def test_a_common_word_is_scored_only_where_a_rarer_one_is_and_the_top_stays_exact(db, monkeypatch):
    """A word held by a quarter of the rows ("read") is left out of the search when rows
    holding a rarer word ("station") reach a k-th score that "read" alone cannot: the same
    top k as searching every row holding either. Where the rarer word's rows are long (low
    BM25) and short rows holding only "read" rank among the best, every row is searched."""
    rng = random.Random(5)
    filler = [f"w{i}" for i in range(300)]
    rows = []
    for ns, padding in (("me", 0), ("you", 60)):  # "you": the station rows are long
        for i in range(1_600):
            words = ["read"] if i % 4 == 0 else []
            if i % 80 in (0, 1):  # 2.5 % of the rows, half of them with "read"
                words += ["station", *rng.sample(filler, padding)]
            rows.append(_rec(" ".join([*words, *rng.sample(filler, 3)]), i % 600, ns=ns))
    store = db.stores["event"]
    store.add(rows)
    answers, real = [], word_index._top_among_rarer
    spy = lambda *a: answers.append(real(*a)) or answers[-1]  # noqa: E731
    monkeypatch.setattr(word_index, "_top_among_rarer", spy)
    late = T0 + timedelta(minutes=400)
    for ns, kept in (("me", True), ("you", False)):
        words = store.words(ns)
        for query in (WordQuery(("read", "station")), WordQuery(("station", "read"), ("utterance",), late)):
            for k in (5, 20):
                found = words.search(query, k)
                assert len(found) == k and (answers[-1] is not None) is kept
                monkeypatch.setattr(word_index, "_top_among_rarer", lambda *a: None)
                assert found == words.search(query, k)  # every row searched: the same ids and scores
                monkeypatch.setattr(word_index, "_top_among_rarer", spy)
        best = store.get([i for i, _ in words.search(WordQuery(("read", "station")), 20)])
        assert all("station" in r.text.split() for r in best) is kept


def _calls(monkeypatch, cls, name) -> list:
    """Record each call of cls.name (its first argument's path), still running it."""
    seen, real = [], getattr(cls, name)

    def spy(self, *a, **k):
        seen.append(self.path.name)
        return real(self, *a, **k)
    monkeypatch.setattr(cls, name, spy)
    return seen


def test_a_commit_to_another_namespace_leaves_this_ones_indexes_current(tmp_path, embedder, monkeypatch):
    """Each commit names the indexes whose rows it changed: another wearer's commit, from
    another process, leaves this wearer's word and vector indexes current. They are read as
    they are on disk, where a stamp of the last commit alone sent questions to FTS5 and the
    next writer rebuilt them from every row."""
    first = MemoryDatabase(tmp_path, embedder)
    first.stores["event"].add([_rec("the wifi password is BLUEFOX", 0)])
    first.close()
    other = MemoryDatabase(tmp_path, embedder)  # another process, writing another wearer
    other.stores["event"].add([_rec("lunch with Sam at noon", 1, ns="you")])
    other.close()
    rebuilt = _calls(monkeypatch, word_index.MirroredWordIndex, "_rebuild")
    caught_up = _calls(monkeypatch, mirrored_index.MirroredIndex, "_caught_up")
    again = MemoryDatabase(tmp_path, embedder)
    store = again.stores["event"]
    answers = _word_index_answers(monkeypatch)
    me = RecordFilter(namespace="me")
    assert [r.text for r, _ in store.search_lexical("wifi password", me, 3)] == ["the wifi password is BLUEFOX"]
    assert answers[-1] is not None  # the word index ranked, not FTS5
    assert store.search_dense("the wifi password", me, 1)[0][0].text == "the wifi password is BLUEFOX"
    store.add([_rec("the wifi router is in the hall", 2)])  # a writer takes the index as it is
    assert len(store.search_lexical("wifi", me, 5)) == 2 and answers[-1] is not None
    assert rebuilt == [] and caught_up == []
    again.close()


def test_rows_another_process_committed_are_never_missed_by_an_index_it_did_not_write(tmp_path, embedder,
                                                                                      monkeypatch):
    """A writer that committed rows but not yet its index (a crash, or still writing) leaves
    the index behind its commit: a reader ranks with FTS5 and still finds the new rows."""
    reader = MemoryDatabase(tmp_path, embedder)
    reader.stores["event"].add([_rec("the dentist is on tuesday", 0)])
    store = reader.stores["event"]
    me = RecordFilter(namespace="me")
    answers = _word_index_answers(monkeypatch)
    assert len(store.search_lexical("dentist", me, 5)) == 1 and answers[-1] is not None
    writer = MemoryDatabase(tmp_path, embedder)
    words = writer.stores["event"].words("me")
    words.flush = lambda: None  # its commit lands; its word index is never written
    writer.stores["event"].add([_rec("the dentist moved to friday", 1)])
    assert {r.text for r, _ in store.search_lexical("dentist", me, 5)} == {
        "the dentist is on tuesday", "the dentist moved to friday"}
    assert answers[-1] is None  # FTS5: the index on disk does not hold the commit
    writer.close()
    reader.close()

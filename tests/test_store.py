"""The SQLite + FAISS record store: persistence, filters, strict time cut, deletion."""
from __future__ import annotations

import random
import sqlite3
from datetime import timedelta

import numpy as np
import pytest

from memory import bm25, lexical_ranking, migrations, mirrored_index, sqlite_faiss
from memory.page_cache import read_through
from memory.records import MemoryRecord, RecordFilter
from memory.schema import COLUMNS, RECORDS, VECTORS
from memory.sqlite_faiss import MemoryDatabase
from memory.word_index import MirroredWordIndex
from tests.conftest import T0
from tests.memory_checks import indexed_ids
from tests.store_conformance import StoreConformance


def _rec(text, minute, ns="me", video="v1", kind="utterance", **attrs):
    return MemoryRecord("event", kind, ns, text, T0 + timedelta(minutes=minute),
                        T0 + timedelta(minutes=minute, seconds=30), video_id=video, attrs=attrs)


@pytest.fixture
def db(tmp_path, embedder):
    database = MemoryDatabase(tmp_path, embedder)
    yield database
    database.close()


def test_records_survive_close_and_reopen(tmp_path, embedder):
    db = MemoryDatabase(tmp_path, embedder)
    ids = db.stores["event"].add([_rec("buy oat milk and eggs", 0), _rec("dentist at four thirty", 1)])
    db.close()
    again = MemoryDatabase(tmp_path, embedder)
    store = again.stores["event"]
    assert [r.id for r in store.query(RecordFilter())] == ids
    assert len(indexed_ids(store)) == 2
    hit, score = store.search_dense("groceries to buy", RecordFilter(), 1)[0]
    assert hit.text == "buy oat milk and eggs" and score > 0.2
    again.close()


def test_missing_or_corrupt_faiss_file_is_rebuilt_from_sqlite(tmp_path, embedder):
    db = MemoryDatabase(tmp_path, embedder)
    db.stores["event"].add([_rec("the keys are in the hallway", 0)])
    db.close()
    [segment_file] = tmp_path.glob("event.*.faiss/*.seg")
    segment_file.write_bytes(b"not a faiss index")
    again = MemoryDatabase(tmp_path, embedder)
    assert again.stores["event"].search_dense("where are my keys", RecordFilter(), 1)[0][0].text.startswith("the keys")
    again.close()


def test_time_cut_is_strict_on_record_end(db):
    store = db.stores["event"]
    store.add([_rec("early", 0), _rec("late", 5)])
    end_of_early = T0 + timedelta(seconds=30)
    assert [r.text for r in store.query(RecordFilter(before=end_of_early))] == []
    assert [r.text for r in store.query(RecordFilter(before=end_of_early + timedelta(microseconds=1)))] == ["early"]
    assert [r.text for r, _ in store.search_lexical("late early", RecordFilter(before=T0 + timedelta(minutes=5)), 5)] == ["early"]
    assert [r.text for r, _ in store.search_dense("late", RecordFilter(before=T0 + timedelta(minutes=5)), 5)] == ["early"]


def test_a_sighting_that_goes_on_past_the_question_is_shown_as_seen_until_then(db):
    """Text read on keyframes from 0 s to 8 s was read at 5 s: shown, cut to its keyframes
    before 5 s, by every way of reading the store; an utterance still going on is not."""
    store = db.stores["event"]
    seen = MemoryRecord("event", "text", "me", 'Read "BLUEFOX42"', T0, T0 + timedelta(seconds=8),
                        video_id="v1", start=0.0, end=8.0, keyframes=[0.0, 2.0, 4.0, 6.0, 8.0])
    talking = _rec("the wifi password is BLUEFOX42", 0)  # 0-30 s
    store.add([seen, talking])
    at = RecordFilter(before=T0 + timedelta(seconds=5))
    found = [*store.query(at), *(r for r, _ in store.search_dense("BLUEFOX42", at, 5)),
             *(r for r, _ in store.search_lexical("BLUEFOX42", at, 5))]
    assert [r.text for r in found] == ['Read "BLUEFOX42"'] * 3
    assert all(r.keyframes == [0.0, 2.0, 4.0] and r.end == 4.0 and r.wall_end == T0 + timedelta(seconds=4)
               for r in found)
    assert at.matches(seen) and not at.matches(talking)
    assert store.query(RecordFilter(before=T0)) == []  # not yet begun


def test_sql_filters_agree_with_reference_semantics(db):
    rng = random.Random(7)
    records = [
        _rec(f"record {i}", rng.randint(0, 60), ns=rng.choice(["a", "b"]), video=rng.choice(["v1", "v2"]),
             kind=rng.choice(["utterance", "text"]), speaker=rng.choice(["S1", "S2"]),
             room=rng.choice(["kitchen", "hall", "study"]), tags=rng.choice([[], ["red"], ["blue", "red"], ["blue"]]),
             acts=rng.choice([[], ["commitment"], ["request", "commitment"]]), speaker_name=rng.choice(["Tom", "Ana", None]))
        for i in range(40)
    ]
    store = db.stores["event"]
    stored = [r.with_id(i) for r, i in zip(records, store.add(records))]

    def agrees(flt: RecordFilter) -> None:
        expected = sorted(r.id for r in stored if flt.matches(r))
        assert sorted(r.id for r in store.query(flt)) == expected
        assert store.count(flt) == len(expected)
        first_seen = sorted((r for r in stored if flt.matches(r)), key=lambda r: (r.wall_start, r.id))
        pairs = list(dict.fromkeys((r.attrs["speaker"], r.attrs["room"]) for r in first_seen))
        assert store.distinct(("speaker", "room"), flt) == pairs
        firsts = [next(r for r in first_seen if (r.attrs["speaker"], r.attrs["room"]) == pair).id for pair in pairs]
        assert [r.id for r in store.first_of(("speaker", "room"), flt)] == firsts

    for trial in range(40):
        lo = T0 + timedelta(minutes=rng.randint(0, 60))
        agrees(RecordFilter(
            namespace=rng.choice([None, "a", "b"]), kinds=rng.choice([None, ("text",), ("utterance", "text")]),
            video_ids=rng.choice([None, ("v2",)]), before=rng.choice([None, lo]),
            overlaps=rng.choice([None, (lo, lo + timedelta(minutes=10))]),
            attrs=rng.choice([(), (("speaker", "S1"),)]),
            mentions=rng.choice([None, (("7",),), (("Record", "1"), ("12",)), (("-",),), (("missing",),)]),
            attrs_in=rng.choice([(), (("room", ("hall", "study")),), (("tags", ("red",)),), (("room", ()),),
                                 (("acts", ("commitment",)),), (("speaker_name", ("Tom", "Ana")),),
                                 (("acts", ("request",)), ("speaker_name", ("Tom",)))]),
            hours=rng.choice([None, (8.25, 8.5), (8.5, 24.0)]),
            after_id=rng.choice([None, None, stored[len(stored) // 2].id]),
        ))
        if trial == 20:  # deleted rows leave the tag index too
            store.delete(RecordFilter(video_ids=("v1",)))
            stored = [r for r in stored if r.video_id != "v1"]
    assert store.distinct(("no_such_key",), RecordFilter()) == []


def test_first_seen_kept_per_commit_follows_additions_and_deletions(db):
    """Kept from one commit to the next: a commit merges in the records it added (earlier
    ones too) from their ids alone, so a question after it groups nothing; a delete makes it
    read afresh; a rollback keeps it. Always as the reference says."""
    store, rng = db.stores["event"], random.Random(11)
    stored: list[MemoryRecord] = []
    flt = RecordFilter(namespace="me", kinds=("utterance",), before=T0 + timedelta(minutes=200))

    def add(n: int, video: str) -> None:
        records = [_rec(f"turn {len(stored) + i}", rng.randint(0, 120), video=video,
                        speaker=rng.choice(["S1", "S2", "S3", "S4"]), room=rng.choice(["hall", "den"]))
                   for i in range(n)]
        stored.extend(r.with_id(i) for r, i in zip(records, store.add(records)))

    def agrees() -> None:
        first = sorted((r for r in stored if flt.matches(r)), key=lambda r: (r.wall_start, r.id))
        pairs = list(dict.fromkeys((r.attrs["speaker"], r.attrs["room"]) for r in first))
        assert store.distinct(("speaker", "room"), flt) == pairs
        firsts = [next(r for r in first if (r.attrs["speaker"], r.attrs["room"]) == p).id for p in pairs]
        assert [r.id for r in store.first_of(("speaker", "room"), flt)] == firsts

    add(10, "v1")
    agrees()
    reads = []
    original = store._first_seen
    store._first_seen = lambda keys, flt: reads.append(flt.after_id) or original(keys, flt)
    for video in ("v2", "v3"):
        reads.clear()
        add(6, video)
        assert reads and all(after is not None for after in reads)  # the commit read only the rows it added
        reads.clear()
        agrees()
        assert reads == []  # and the questions after it group nothing
    with pytest.raises(RuntimeError), db.batch():  # rolled back: what was kept stays as it was
        store.add([_rec("turn gone", 0, video="v9", speaker="S9", room="hall")])
        raise RuntimeError
    agrees()
    store.add([_rec("elsewhere", 3, ns="other", video="v8", speaker="S1", room="hall")])
    db.stores["entity"].add([MemoryRecord("entity", "sighting", "me", "a cup", T0, T0, video_id="v8")])
    reads.clear()
    store.delete(RecordFilter(video_ids=("v8",)))  # another namespace's records
    db.stores["entity"].delete(RecordFilter(video_ids=("v8",)))  # another store's
    agrees()
    assert None not in reads  # neither delete concerns what is kept here
    store.delete(RecordFilter(video_ids=("v1",)))
    stored[:] = [r for r in stored if r.video_id != "v1"]
    agrees()
    assert reads[-1] is None  # read afresh after the delete


def test_first_seen_kept_outlives_a_restart_and_keeps_no_forgotten_name(tmp_path, embedder):
    """A restarted process starts from what the last commit kept, reading only the rows
    added since; deleting a thing's records leaves no trace of its name in what is kept."""
    flt = RecordFilter(namespace="me", kinds=("utterance",), before=T0 + timedelta(hours=3))
    first = MemoryDatabase(tmp_path, embedder)
    first.stores["event"].add([_rec("hi", 0, speaker="S1", room="hall"), _rec("yo", 5, video="v2", speaker="Zed", room="den")])
    assert first.stores["event"].distinct(("speaker", "room"), flt) == [("S1", "hall"), ("Zed", "den")]
    first.stores["event"].add([_rec("more", 9, video="v3", speaker="S1", room="den")])  # its commit writes them down
    first.close()
    db = MemoryDatabase(tmp_path, embedder)
    try:
        store, reads = db.stores["event"], []
        original = store._first_seen
        store._first_seen = lambda keys, flt: reads.append(flt.after_id) or original(keys, flt)
        assert store.distinct(("speaker", "room"), flt) == [("S1", "hall"), ("Zed", "den"), ("S1", "den")]
        assert reads and None not in reads  # nothing read afresh
        store.delete(RecordFilter(video_ids=("v2",)))
        assert not any("Zed" in row["seen"] for row in db.conn.execute("SELECT seen FROM first_seen_kept"))
        assert store.distinct(("speaker", "room"), flt) == [("S1", "hall"), ("S1", "den")]
    finally:
        db.close()


def test_tags_are_kept_for_a_database_from_before_them(tmp_path, embedder):
    database = MemoryDatabase(tmp_path, embedder)
    database.stores["event"].add([_rec("I will send it", 0, acts=["commitment"]), _rec("hello", 1, acts=[])])
    database.conn.execute("DELETE FROM record_tags")
    database.conn.execute("DELETE FROM meta WHERE key='tags_kept'")
    database.conn.commit()
    database.close()
    reopened = MemoryDatabase(tmp_path, embedder)
    try:
        found = reopened.stores["event"].query(RecordFilter(attrs_in=(("acts", ("commitment",)),)))
        assert [r.text for r in found] == ["I will send it"]
    finally:
        reopened.close()


# The records table as memlens wrote it before vectors had a table of their own.
_RECORDS_WITH_VECTORS_INLINE = """CREATE TABLE records (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    store TEXT NOT NULL, kind TEXT NOT NULL, namespace TEXT NOT NULL, text TEXT NOT NULL,
    video_id TEXT, start REAL NOT NULL, end REAL NOT NULL,
    wall_start TEXT NOT NULL, wall_end TEXT NOT NULL,
    keyframes TEXT NOT NULL, attrs TEXT NOT NULL, vector BLOB NOT NULL)"""


def _as_written_before_stop_12(conn: sqlite3.Connection) -> None:
    """A memory put back in the layout before record_vectors: each vector in its record's
    row, with that table's indexes and triggers, and tags without their record's end; the
    full-text index as it was."""
    schema = [r[0] for r in conn.execute("SELECT sql FROM sqlite_schema WHERE tbl_name='records' AND sql IS NOT NULL "
                                         "AND type IN ('index', 'trigger') AND name NOT IN ('records_vectors_ad', "
                                         "'records_tags_ai')")]
    tags = conn.execute("SELECT key, value, record_id FROM record_tags").fetchall()
    conn.execute("DROP TABLE record_tags")
    conn.execute("CREATE TABLE record_tags (key TEXT NOT NULL, value, record_id INTEGER NOT NULL, "
                 "PRIMARY KEY (key, value, record_id)) WITHOUT ROWID")
    conn.executemany("INSERT INTO record_tags VALUES (?, ?, ?)", tags)
    high = conn.execute("SELECT seq FROM sqlite_sequence WHERE name='records'").fetchone()[0]
    rows = conn.execute(f"SELECT {COLUMNS}, v.vector FROM records JOIN record_vectors v USING (id)").fetchall()
    conn.execute("DROP TABLE records")
    conn.execute("DROP TABLE record_vectors")
    conn.execute(_RECORDS_WITH_VECTORS_INLINE)
    conn.executemany(f"INSERT INTO records VALUES ({','.join('?' * 13)})", rows)
    conn.execute("UPDATE sqlite_sequence SET seq=? WHERE name='records'", (high,))
    for sql in schema:
        conn.execute(sql)
    conn.commit()


class _KilledOnSecondMove(sqlite3.Connection):
    """A connection whose process is killed as the migration moves its second chunk."""

    moves = 0

    def execute(self, sql, *args):
        if sql.startswith(f"DELETE FROM {migrations.RECORDS_WITH_VECTORS}"):
            type(self).moves += 1
            if self.moves == 2:
                raise KeyboardInterrupt
        return super().execute(sql, *args)


def test_a_memory_of_the_layout_before_is_moved_on_open_resumes_after_a_kill_and_loses_nothing(
        tmp_path, embedder):
    database = MemoryDatabase(tmp_path, embedder)
    store = database.stores["event"]
    topics = ["oat milk", "dentist", "car keys", "passport", "birthday cake", "train ticket", "umbrella",
              "library book", "gym bag", "plant watering", "rent payment"]
    ids = store.add([_rec(f"remember the {topic}", i, acts=["commitment"] if i % 3 == 0 else [])
                     for i, topic in enumerate(topics)])
    store.delete(RecordFilter(ids=(ids[-1],)))  # the ids handed out run past every row left
    kept = {r.id: r for r in store.query(RecordFilter())}
    vectors = dict(database.conn.execute("SELECT id, vector FROM record_vectors").fetchall())
    promised = [r.id for r in store.query(RecordFilter(attrs_in=(("acts", ("commitment",)),)))]
    generation = database.generation()
    _as_written_before_stop_12(database.conn)
    database.close()

    killed = sqlite3.connect(tmp_path / "memory.sqlite", factory=_KilledOnSecondMove)
    with pytest.raises(KeyboardInterrupt):
        migrations.move_vectors_out(killed, RECORDS, VECTORS, COLUMNS, chunk=4)
    moved = killed.execute("SELECT COUNT(*) FROM records").fetchone()[0]
    waiting = killed.execute(f"SELECT COUNT(*) FROM {migrations.RECORDS_WITH_VECTORS}").fetchone()[0]
    killed.close()
    assert moved and waiting and moved + waiting == len(kept)  # one chunk landed whole, the next not at all

    reopened = MemoryDatabase(tmp_path, embedder)
    try:
        store = reopened.stores["event"]
        assert "vector" not in migrations.columns(reopened.conn, "records")
        assert {r.id: r for r in store.query(RecordFilter())} == kept
        assert dict(reopened.conn.execute("SELECT id, vector FROM record_vectors").fetchall()) == vectors
        assert [r.id for r in store.query(RecordFilter(attrs_in=(("acts", ("commitment",)),)))] == promised
        assert "wall_end" in migrations.columns(reopened.conn, "record_tags")
        # no commit was counted: the word and vector indexes on disk are still the memory's
        assert reopened.generation() == generation and store.words("me").documents(generation) == len(kept)
        assert [r.text for r, _ in store.search_lexical("passport", RecordFilter(), 3)] == ["remember the passport"]
        assert store.search_dense("where are my car keys", RecordFilter(), 1)[0][0].text == "remember the car keys"
        [added] = store.add([_rec("remember the milk", 20)])
        assert added > ids[-1]
        store.delete(RecordFilter(ids=(added, ids[0])))
        assert reopened.conn.execute("SELECT COUNT(*) FROM record_vectors WHERE id IN (?, ?)",
                                     (added, ids[0])).fetchone()[0] == 0
    finally:
        reopened.close()


def test_a_delete_takes_its_records_tags_and_no_others(db):
    """Tags go with their record, found by its id (an index), not by scanning every tag."""
    store = db.stores["event"]
    kept, gone = store.add([_rec("I will send it", 0, acts=["commitment"], speaker_name="ann"),
                            _rec("I promise to call", 1, acts=["commitment"], speaker_name="ann")])
    store.delete(RecordFilter(ids=(gone,)))
    assert {r[0] for r in db.conn.execute("SELECT record_id FROM record_tags")} == {kept}
    assert [r.id for r in store.query(RecordFilter(attrs_in=(("acts", ("commitment",)),)))] == [kept]
    plan = " ".join(str(tuple(r)) for r in db.conn.execute(
        "EXPLAIN QUERY PLAN DELETE FROM record_tags WHERE record_id = ?", (gone,)))
    assert "record_tags_record" in plan


def test_words_in_most_rows_do_not_drown_a_lexical_query(db):
    """'the' is in every row: left out, the rare word ranks; a query of common words only
    still finds rows by them."""
    store = db.stores["event"]
    store.add([_rec(f"the note number {i} on the desk", i) for i in range(12)] + [_rec("the scissors", 13)])
    assert list(db.rare_words(["the", "scissors", "desk", "unicorn"])) == ["scissors"]
    assert [r.text for r, _ in store.search_lexical("the scissors", RecordFilter(), 1)] == ["the scissors"]
    assert len(store.search_lexical("the", RecordFilter(), 20)) == 13


def test_a_word_search_in_a_window_finds_the_same_whichever_side_leads(db, monkeypatch):
    """The word lists lead, or the window's rows do (each row's words matched): one answer."""
    rng = random.Random(3)
    words = ["keys", "wallet", "bread", "milk", "tom", "saturday", "bus", "rain", "door", "lamp", "cup", "shoe"]
    db.stores["event"].add([_rec(" ".join(rng.sample(words, 2)) + f" note {i}", rng.randint(0, 90)) for i in range(200)])
    flt = RecordFilter(namespace="me", kinds=("utterance",), not_before=T0 + timedelta(minutes=30),
                       before=T0 + timedelta(minutes=33))
    found, docs = {}, sum(db.rare_words(["tom", "keys"]).values())
    for leads_at in (1, 10**9):  # the window is always / never small enough to lead
        monkeypatch.setattr(lexical_ranking, "WINDOW_LEADS_AT", leads_at)
        assert db.stores["event"]._fewer_than(flt, docs // leads_at) == (leads_at == 1)
        found[leads_at] = [(r.id, round(s, 6)) for r, s in db.stores["event"].search_lexical("tom keys", flt, 50)]
    expected = {r.id for r in db.stores["event"].query(flt) if {"tom", "keys"} & set(r.text.split())}
    assert found[1] == found[10**9] and {i for i, _ in found[1]} == expected and expected


def test_a_word_search_read_from_the_scarce_words_first_ranks_as_the_full_search(db, monkeypatch):
    """Rows holding a scarce word are scored first and a frequent word's rows are skipped
    when they cannot reach the top: the same ids and scores as scoring every row, whether
    the shortcut holds (small k) or falls back (k past the scarce rows)."""
    rng = random.Random(5)
    filler = ["lamp", "cup", "shoe", "door", "rain", "bus", "milk", "tom"]
    texts = [" ".join((["read"] * rng.randint(1, 3) if rng.random() < 0.3 else []) + rng.sample(filler, rng.randint(1, 6))
                      + (["station"] * rng.randint(1, 2) if rng.random() < 0.06 else [])) for _ in range(400)]
    records = [_rec(text, rng.randint(0, 90), ns=rng.choice(["me", "you"]), kind=rng.choice(["utterance", "text"]))
               for text in texts]
    db.stores["event"].add(records)
    assert bm25.split_by_frequency(db.rare_words(["read", "station"])) == (
        {"station": db.rare_words(["station"])["station"]}, {"read": db.rare_words(["read"])["read"]})
    shortcut, ratio_used = [], bm25.FREQUENT_OVER_SCARCE
    real = sqlite_faiss.SqliteFaissStore._top_by_scarce_words
    monkeypatch.setattr(sqlite_faiss.SqliteFaissStore, "_top_by_scarce_words",
                        lambda self, *a: shortcut.append(real(self, *a)) or shortcut[-1])
    for flt in (RecordFilter(), RecordFilter(namespace="me", kinds=("text",)),
                RecordFilter(namespace="you", before=T0 + timedelta(minutes=40))):
        for k in (3, 10, 60):
            found = {}
            for ratio in (ratio_used, float("inf")):  # the shortcut tried / never
                monkeypatch.setattr(bm25, "FREQUENT_OVER_SCARCE", ratio)
                found[ratio] = [(r.id, round(s, 9)) for r, s in db.stores["event"].search_lexical("read station", flt, k)]
            scores = [s for _, s in found[float("inf")]]
            assert len(found) == 2 and scores == sorted(scores, reverse=True)
            assert sorted(found[ratio_used], key=lambda h: (-h[1], h[0])) == sorted(found[float("inf")], key=lambda h: (-h[1], h[0]))
    assert any(hits is not None for hits in shortcut) and any(hits is None for hits in shortcut)


def test_a_frequent_word_outranking_the_scarce_words_rows_is_not_skipped(db):
    """A scarce word only in long rows scores below short rows of a frequent word: those
    must still win, as a search scoring every row ranks them."""
    filler = "lamp cup shoe door rain bus milk tom".split()
    db.stores["event"].add([_rec("station " + " ".join(filler * 4), i % 60) for i in range(30)]
                           + [_rec("read read read", i % 60) for i in range(150)]
                           + [_rec(filler[i % 8], i % 60) for i in range(420)])
    assert bm25.split_by_frequency(db.rare_words(["read", "station"]))[1] == {"read": 150}
    assert {r.text for r, _ in db.stores["event"].search_lexical("read station", RecordFilter(), 10)} == {"read read read"}


@pytest.mark.parametrize("post_filter_share", [0.0, 2.0])  # every filter searched after / as ids
def test_dense_search_within_a_filter_is_exact_either_way(db, embedder, monkeypatch, post_filter_share):
    monkeypatch.setattr("memory.dense_ranking.POST_FILTER_SHARE", post_filter_share)
    rng = random.Random(3)
    words = ["keys", "milk", "dentist", "scissors", "train", "garden", "laptop", "coffee"]
    records = [_rec(f"{rng.choice(words)} {rng.choice(words)} {i}", rng.randint(0, 60), ns=rng.choice(["a", "b", "c"]),
                    kind=rng.choice(["utterance", "text"])) for i in range(60)]
    store = db.stores["event"]
    stored = [r.with_id(i) for r, i in zip(records, store.add(records))]
    vectors = embedder.embed([r.text for r in stored])
    for query in ["where are my keys", "buy coffee"]:
        q = embedder.embed([query])[0]
        for flt in [RecordFilter(), RecordFilter(namespace="a"), RecordFilter(namespace="b", kinds=("text",)),
                    RecordFilter(before=T0 + timedelta(minutes=20))]:
            ranked = sorted(((float(v @ q), r.id) for r, v in zip(stored, vectors) if flt.matches(r)), reverse=True)
            found = store.search_dense(query, flt, 5)
            assert [r.id for r, _ in found] == [i for _, i in ranked[:5]]


def test_a_search_asked_now_fetches_about_k_nearest_and_one_asked_in_the_past_fetches_more(db, embedder, monkeypatch):
    """Nothing in a namespace's index is after "now": its k nearest are the answer, with no
    row read to test them. Asked while the last records were still going on, about k are
    fetched and tested. A question asked in the past keeps few of the nearest: the rounds
    fetch more."""
    from memory.mirrored_index import MirroredIndex

    fetched = []
    searched = MirroredIndex.search
    monkeypatch.setattr(MirroredIndex, "search", lambda self, q, ids, k: fetched.append(k) or searched(self, q, ids, k))
    store = db.stores["event"]
    records = [_rec(f"keys and {w} {i}", i % 60) for i, w in enumerate(["milk", "train", "garden", "coffee"] * 50)]
    stored = [r.with_id(i) for r, i in zip(records, store.add(records))]
    q = embedder.embed(["where are my keys"])[0]
    vectors = embedder.embed([r.text for r in stored])
    tested = []
    within = type(store)._within
    monkeypatch.setattr(type(store), "_within", lambda self, flt, found: tested.append(found) or within(self, flt, found))
    for flt, first, rounds in ((RecordFilter(namespace="me", before=T0 + timedelta(hours=2)), 8, 1),
                               (RecordFilter(namespace="me", before=T0 + timedelta(minutes=59, seconds=15)), 11, 1),
                               (RecordFilter(namespace="me", before=T0 + timedelta(minutes=6)), 11, 2)):
        fetched.clear()
        tested.clear()
        exact = [i for _, i in sorted(((float(v @ q), r.id) for r, v in zip(stored, vectors) if flt.matches(r)),
                                      reverse=True)]
        assert [r.id for r, _ in store.search_dense("where are my keys", flt, 8)] == exact[:8]
        assert fetched[0] == first and len(fetched) >= rounds and (rounds == 1) == (len(fetched) == 1)
        assert bool(tested) == (first > 8)


@pytest.mark.parametrize("fetch_at_most", [10_000, 6])
def test_a_broad_filter_the_nearest_rarely_meet_is_not_listed(db, embedder, monkeypatch, fetch_at_most):
    """A filter keeping too many rows to list their ids is met from the nearest, fetched up
    to FETCH_AT_MOST: its hits are the first of the exact answer (all of it when the cap
    passes the index), never other rows, and never more than the nearest it fetched."""
    monkeypatch.setattr("memory.dense_ranking.LISTED_AT_MOST", 0)
    monkeypatch.setattr("memory.dense_ranking.FETCH_AT_MOST", fetch_at_most)
    listed = []
    monkeypatch.setattr(sqlite_faiss.SqliteFaissStore, "_candidate_ids",
                        lambda self, flt, limit=None: listed.append(limit) or np.array([1], dtype=np.int64))
    records = [_rec(f"keys on the hook {i}", i % 60) for i in range(300)] + \
              [_rec(f"a note about the keys, train timetable {i}", i % 60, kind="text") for i in range(100)]
    store = db.stores["event"]
    stored = [r.with_id(i) for r, i in zip(records, store.add(records))]
    q = embedder.embed(["where are my keys"])[0]
    flt = RecordFilter(namespace="me", kinds=("text",))
    vectors = embedder.embed([r.text for r in stored])
    exact = [i for _, i in sorted(((float(v @ q), r.id) for r, v in zip(stored, vectors) if flt.matches(r)), reverse=True)]
    found = [r.id for r, _ in store.search_dense("where are my keys", flt, 5)]
    assert listed == [1]  # asked whether the rows are few enough to list, told they are not
    assert found == exact[:len(found)]
    assert len(found) == 5 if fetch_at_most > len(stored) else len(found) < 5


def test_delete_removes_rows_text_index_and_vectors(db):
    store = db.stores["event"]
    store.add([_rec("scissors on the table", 0, video="v1"), _rec("scissors in the drawer", 1, video="v2")])
    assert store.delete(RecordFilter(video_ids=("v1",))) == 1
    assert len(indexed_ids(store)) == 1
    assert [r.text for r, _ in store.search_lexical("scissors", RecordFilter(), 5)] == ["scissors in the drawer"]
    assert [r.text for r, _ in store.search_dense("scissors", RecordFilter(), 5)] == ["scissors in the drawer"]


def test_lexical_query_with_fts_syntax_is_treated_as_words(db):
    db.stores["event"].add([_rec('note says "AND" NEAR the door', 0)])
    for hostile in ['"', "AND OR NOT", "NEAR(", "*", "door) OR (1=1", ""]:
        db.stores["event"].search_lexical(hostile, RecordFilter(), 5)  # must not raise
    assert db.stores["event"].search_lexical("door) OR (1=1", RecordFilter(), 5)


def test_namespaces_do_not_leak(db):
    db.stores["event"].add([_rec("alice secret", 0, ns="alice"), _rec("bob note", 0, ns="bob")])
    assert [r.text for r, _ in db.stores["event"].search_dense("secret", RecordFilter(namespace="bob"), 5)] == ["bob note"]


def test_store_rejects_records_for_another_store(db):
    with pytest.raises(ValueError):
        db.stores["entity"].add([_rec("wrong store", 0)])


def test_readers_see_the_last_commit_and_do_not_wait_for_a_writer(db):
    """A question asked while an ingest holds its write transaction is answered at once,
    from what was committed before it: not blocked, not shown half a batch."""
    import threading
    import time

    store = db.stores["event"]
    store.add([_rec("the keys are in the hallway", 0)])
    inside, release = threading.Event(), threading.Event()

    def long_write():
        with db.batch():
            store.add([_rec("the keys moved to the kitchen drawer", 5)])
            inside.set()
            release.wait(30)

    writer = threading.Thread(target=long_write)
    writer.start()
    assert inside.wait(30)
    seen, took = {}, {}

    def read():
        began = time.perf_counter()
        seen["query"] = [r.text for r in store.query(RecordFilter())]
        seen["dense"] = [r.text for r, _ in store.search_dense("keys", RecordFilter(), 5)]
        seen["lexical"] = [r.text for r, _ in store.search_lexical("keys", RecordFilter(), 5)]
        took["s"] = time.perf_counter() - began

    reader = threading.Thread(target=read)
    reader.start()
    reader.join(10)
    finished_while_writing = not reader.is_alive()
    release.set()
    writer.join(30)
    reader.join(30)
    assert finished_while_writing, "a read waited for the writer's transaction"
    assert seen == {k: ["the keys are in the hallway"] for k in ("query", "dense", "lexical")}
    assert len(store.query(RecordFilter())) == 2  # and the batch landed once it committed


def test_a_dense_search_during_replacements_always_sees_one_whole_commit(db):
    """A record replaced over and over (delete and add in one batch, as a re-ingest does) is
    found by every dense search running meanwhile: the rows a search selects and the index
    it searches come from the same commit."""
    import threading

    store = db.stores["event"]
    store.add([_rec("the wifi password is BLUEFOX42", 0)])
    stop, misses, searches = threading.Event(), [], []

    def replace_again_and_again():
        for _ in range(60):
            with db.batch():
                store.delete(RecordFilter(video_ids=("v1",)))
                store.add([_rec("the wifi password is BLUEFOX42", 0)])
        stop.set()

    def search_meanwhile():
        while not stop.is_set():
            hits = store.search_dense("wifi password", RecordFilter(), 3)
            searches.append(1)
            if not hits:
                misses.append(1)

    readers = [threading.Thread(target=search_meanwhile) for _ in range(3)]
    writer = threading.Thread(target=replace_again_and_again)
    for t in [*readers, writer]:
        t.start()
    for t in [writer, *readers]:
        t.join(120)
    assert len(searches) > 20 and not misses, f"{len(misses)} of {len(searches)} searches found nothing"


def test_a_view_sees_one_commit_across_threads_and_never_holds_up_a_commit(db):
    """A question's reads span many calls, some in LangGraph's worker threads: inside
    `pinned` every one of them sees the memory as it was when the question began, although a
    re-ingest replaces the record meanwhile (and commits without waiting for the question).
    Branches read in parallel, each on a transaction of its own, until a commit lands; those
    begun after it share the question's. The dense search then no longer matches the live
    index and reads the view's own vectors."""
    import contextvars
    import threading
    from concurrent.futures import ThreadPoolExecutor

    store = db.stores["event"]
    store.add([_rec("the wifi password is BLUEFOX42", 0)])

    def replace():
        with db.batch():
            store.delete(RecordFilter(video_ids=("v1",)))
            store.add([_rec("the wifi password changed to REDOWL7", 0)])

    def seen() -> dict[str, list[str]]:
        return {"query": [r.text for r in store.query(RecordFilter())],
                "dense": [r.text for r, _ in store.search_dense("wifi password", RecordFilter(), 3)],
                "lexical": [r.text for r, _ in store.search_lexical("wifi password", RecordFilter(), 3)]}

    old = {k: ["the wifi password is BLUEFOX42"] for k in ("query", "dense", "lexical")}
    with db.pinned():
        assert seen() == old
        with ThreadPoolExecutor(2) as pool:  # no commit yet: each branch reads that commit on its own connection
            assert [b.result() for b in [pool.submit(contextvars.copy_context().run, seen) for _ in range(2)]] == [old, old]
        assert len(db._view().connections()) > 1
        writer = threading.Thread(target=replace)
        writer.start()
        writer.join(30)
        assert not writer.is_alive(), "the commit waited for an open question"
        assert seen() == old
        with ThreadPoolExecutor(2) as pool:  # as LangGraph runs parallel tool branches
            branches = [pool.submit(contextvars.copy_context().run, seen) for _ in range(2)]
            assert [b.result() for b in branches] == [old, old]
    assert seen() == {k: ["the wifi password changed to REDOWL7"] for k in ("query", "dense", "lexical")}


def _at_once(n: int, read) -> list:
    """What `read` returns in each of n threads, run so that all reach `meet()` before any goes on."""
    import threading

    together = threading.Barrier(n)
    found: list = []
    threads = [threading.Thread(target=lambda: found.append(read(lambda: together.wait(30)))) for _ in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return found


def test_a_burst_of_concurrent_questions_leaves_a_bounded_number_of_connections_open(db):
    """Each question reads on a connection of its own; after a burst of 24 at once, at most
    IDLE_READERS stay open for the next ones and the rest are closed (no file left per
    question a server has ever answered at once)."""

    from memory.database import IDLE_READERS

    store = db.stores["event"]
    store.add([_rec("the wifi password is BLUEFOX42", 0)])
    before = len(db._readers)  # connections a thread reads on outside any question

    def question(meet) -> int:
        with db.pinned():
            meet()  # all 24 views open at once
            return len(store.query(RecordFilter()))

    assert _at_once(24, question) == [1] * 24
    assert len(db._readers) <= max(before, IDLE_READERS) and len(db._idle_readers) == IDLE_READERS
    with db.pinned():  # a kept connection serves the next question
        assert store.query(RecordFilter())[0].text == "the wifi password is BLUEFOX42"


def test_threads_that_read_and_end_leave_no_connection_open(db):
    """A server's threads come and go (a job's, a question's branches); reads outside a
    question borrow an idle connection, so open files follow the reads under way, not every
    thread that ever read."""
    import os
    import threading

    from memory.database import IDLE_READERS

    def open_on_memory() -> int:
        opened = 0
        for fd in os.listdir("/proc/self/fd"):
            try:
                opened += "memory.sqlite" in os.readlink(f"/proc/self/fd/{fd}")
            except OSError:  # the listing's own descriptor, closed by now
                continue
        return opened

    store = db.stores["event"]
    store.add([_rec("the wifi password is BLUEFOX42", 0)])
    store.query(RecordFilter())
    files_before = open_on_memory()
    for _ in range(30):
        reader = threading.Thread(target=lambda: store.query(RecordFilter()))
        reader.start()
        reader.join(30)
    assert len(db._readers) == 1  # one after another, they took turns on one connection
    assert open_on_memory() == files_before, (files_before, open_on_memory())

    def read(meet) -> int:
        meet()
        return len(store.query(RecordFilter()))

    assert _at_once(12, read) == [1] * 12 and len(db._readers) <= IDLE_READERS


def test_each_namespace_has_its_own_index_file_and_a_write_leaves_the_others_alone(tmp_path, db):
    store = db.stores["event"]
    store.add([_rec("alice buys oat milk", 0, ns="alice"), _rec("bob fixes the bike", 0, ns="bob")])
    files = {ns: m.path for ns, m in store.partitions().items()}
    assert set(files) == {"alice", "bob"} and len(set(files.values())) == 2
    assert all(p.exists() for p in files.values())
    bob_written = files["bob"].stat().st_mtime_ns
    store.add([_rec("alice calls the dentist", 1, ns="alice")])
    store.delete(RecordFilter(namespace="alice", video_ids=("v1",), kinds=("text",)))
    assert files["bob"].stat().st_mtime_ns == bob_written
    assert {ns: m.index.ntotal for ns, m in store.partitions().items()} == {"alice": 2, "bob": 1}
    # a search over every namespace merges their indexes by score
    assert [r.text for r, _ in store.search_dense("dentist appointment", RecordFilter(), 1)] == ["alice calls the dentist"]
    assert [r.namespace for r, _ in store.search_dense("bike", RecordFilter(), 3)][0] == "bob"


def test_load_reads_a_namespaces_indexes_before_its_first_search_and_footprint_says_what_it_holds(
        tmp_path, embedder, monkeypatch):
    """What a server reads at start (MemlensSystem.warm): after `load`, the namespace's
    searches read no index file; another namespace's first search still reads its own."""
    first = MemoryDatabase(tmp_path, embedder)
    first.stores["event"].add([_rec("alice buys oat milk", 0, ns="alice"), _rec("alice calls the dentist", 1, ns="alice")])
    first.stores["event"].add([_rec("bob fixes the bike", 2, ns="bob")])
    first.close()
    db = MemoryDatabase(tmp_path, embedder)  # a fresh process: nothing read yet
    try:
        store = db.stores["event"]
        (alice_bytes, alice_written), (bob_bytes, bob_written) = (store.index_footprint(n) for n in ("alice", "bob"))
        assert alice_bytes > 0 and bob_bytes > 0 and bob_written >= alice_written > 0
        assert store.index_footprint("nobody") == (0, 0.0) and db.stores["entity"].index_footprint("alice") == (0, 0.0)
        store.load("alice")

        def no_reading(*_):
            raise AssertionError("an index file read at question time")
        monkeypatch.setattr(mirrored_index, "read_segment", no_reading)
        monkeypatch.setattr(MirroredWordIndex, "_fresh_searcher", no_reading)
        assert [r.text for r, _ in store.search_dense("dentist", RecordFilter(namespace="alice"), 1)] == \
            ["alice calls the dentist"]
        assert [r.text for r, _ in store.search_lexical("oat milk", RecordFilter(namespace="alice"), 1)] == \
            ["alice buys oat milk"]
        with pytest.raises(AssertionError, match="read at question time"):
            store.search_dense("bike", RecordFilter(namespace="bob"), 1)
    finally:
        db.close()


def test_commits_append_segments_that_merge_in_tiers_into_an_inverted_file_and_stay_in_step(tmp_path, embedder, monkeypatch):
    """Each commit writes one new segment file and leaves the others as they were; a tier
    that fills merges into one segment, an inverted file (IVF, flat codes, so scores stay
    exact) past `APPROXIMATE_FROM`; deletes rewrite only the segments that lost vectors; the
    folder reads back as written and answers like exact search."""
    from memory import segments, vector_index

    monkeypatch.setattr(vector_index, "APPROXIMATE_FROM", 40)
    monkeypatch.setattr(segments, "MERGE_FACTOR", 3)
    monkeypatch.setattr(segments, "SMALLEST_TIER", 10)
    db = MemoryDatabase(tmp_path, embedder)
    store = db.stores["event"]
    words = ["keys", "milk", "dentist", "scissors", "train", "garden", "laptop", "coffee"]
    rng = random.Random(5)

    def commit(first: int, n: int) -> None:
        store.add([_rec(f"{rng.choice(words)} {rng.choice(words)} {i}", i % 50) for i in range(first, first + n)])

    def files() -> dict[str, int]:
        return {p.name: p.stat().st_mtime_ns for p in store.partition("me").path.glob("*.seg")}

    commit(0, 15)
    commit(15, 15)
    before = files()
    assert len(before) == 2 and store.partition("me").index.describe() == "Flat x2"
    commit(30, 15)  # a third segment of the tier: the three merge into one IVF segment
    assert store.partition("me").index.describe().startswith("IVF") and len(files()) == 1
    before = files()
    commit(45, 5)
    after = files()
    assert {k: after[k] for k in before} == before and len(after) == 2  # appended, nothing rewritten
    ids = sorted(r.id for r in store.query(RecordFilter()))
    store.delete(RecordFilter(ids=tuple(ids[-5:])))
    assert files() == before  # the last commit's segment lost all it held; the merged one is untouched
    store.delete(RecordFilter(ids=tuple(ids[:5])))
    assert len(files()) == 1 and not set(files()) & set(before)  # the merged segment, written anew
    db.close()
    again = MemoryDatabase(tmp_path, embedder)
    store = again.stores["event"]
    assert store.partition("me").index.describe().startswith("IVF") and store.partition("me").size() == 40
    assert indexed_ids(store) == sorted(r.id for r in store.query(RecordFilter()))
    stored = store.query(RecordFilter())
    vectors = embedder.embed([r.text for r in stored])
    q = embedder.embed(["where are my keys"])[0]
    for flt in [RecordFilter(), RecordFilter(before=T0 + timedelta(minutes=10))]:
        ranked = sorted(((float(v @ q), r.id) for r, v in zip(stored, vectors) if flt.matches(r)), reverse=True)
        assert [r.id for r, _ in store.search_dense("where are my keys", flt, 5)] == [i for _, i in ranked[:5]]
    again.close()


def test_newest_first_keeps_the_latest_and_a_store_knows_the_kinds_it_was_given(db):
    store = db.stores["event"]
    store.add([_rec(f"note {i}", i) for i in range(5)])
    assert [r.text for r in store.query(RecordFilter(), limit=2, newest_first=True)] == ["note 4", "note 3"]
    assert store.may_hold(("utterance", "text")) and not store.may_hold(("sighting",))
    assert not db.stores["entity"].may_hold(("utterance",))  # a search for turns can skip it


def test_the_newest_rows_read_from_the_time_indexes_are_the_newest_of_all(db, monkeypatch):
    """Newest first by start, from indexes ordered by end (the time indexes, a tag's): long
    records that started early and end late must neither crowd out nor be missed among the
    latest starts."""
    rng = random.Random(11)
    records = []
    for i in range(300):
        start = T0 + timedelta(minutes=rng.randint(0, 600))
        long = rng.random() < 0.1  # a stay of hours among minute-long turns
        end = start + timedelta(minutes=rng.randint(60, 500) if long else rng.randint(0, 3))
        records.append(MemoryRecord("event", rng.choice(["utterance", "text", "visit"]), rng.choice(["a", "b"]),
                                    f"record {i}", start, end, video_id="v1",
                                    attrs={"speaker_name": rng.choice(["Tom", "Ana", None]),
                                           "acts": rng.choice([[], ["commitment"], ["request", "commitment"]])}))
    store = db.stores["event"]
    stored = [r.with_id(i) for r, i in zip(records, store.add(records))]
    floors = []
    floor_of = store._newest_start_floor
    monkeypatch.setattr(store, "_newest_start_floor", lambda *a: floors.append(floor_of(*a)) or floors[-1])
    for _trial in range(60):
        flt = RecordFilter(namespace=rng.choice([None, "a", "b"]), kinds=rng.choice([None, ("text",), ("utterance", "visit")]),
                           before=rng.choice([None, T0 + timedelta(minutes=rng.randint(100, 700))]),
                           hours=rng.choice([None, None, (8.5, 12.0)]),
                           not_before=rng.choice([None, None, T0 + timedelta(minutes=rng.randint(0, 400))]),
                           attrs_in=rng.choice([(), (), (("speaker_name", ("Tom",)),), (("acts", ("request", "commitment")),),
                                                (("acts", ("commitment",)), ("speaker_name", ("Ana", "Tom")))]))
        n = rng.choice([1, 5, 40, 400])
        expected = sorted((r for r in stored if flt.matches(r)), key=lambda r: (r.wall_start, r.id), reverse=True)[:n]
        assert [r.id for r in store.query(flt, limit=n, newest_first=True)] == [r.id for r in expected], (flt, n, floors[-1:])
    assert sum(f is not None for f in floors) > 20  # many were read from a floor, not by sorting every row


def test_tally_groups_where_the_records_are_and_timeline_reads_one_attr_in_order(db):
    """Groups by attrs (and hour of day), leaving out records without the key; days, first
    start and last end, the earliest record's other attrs, the newest ids (capped); a
    timeline lists one attr's values in time order."""
    store = db.stores["event"]
    ids = store.add([
        _rec("a", 0, speaker="ann", mood="calm"), _rec("b", 5, speaker="bob"), _rec("c", 65, speaker="ann", mood="tense"),
        _rec("d", 24 * 60 + 1, speaker="ann"), _rec("e", 10), _rec("f", 12, speaker=""),
        _rec("g", 20, speaker="ann", ns="other"),
    ])
    tallies = {t.key: t for t in store.tally(("speaker",), RecordFilter(namespace="me"), earliest=("mood",), newest=2)}
    assert set(tallies) == {("ann",), ("bob",)}
    ann = tallies[("ann",)]
    assert ann.count == 3 and ann.days == (T0.date().isoformat(), (T0 + timedelta(days=1)).date().isoformat())
    assert ann.first == T0 and ann.last == T0 + timedelta(days=1, minutes=1, seconds=30)
    assert ann.earliest == ("calm",) and ann.newest == (ids[2], ids[3])
    by_hour = {t.key: t.count for t in store.tally(("speaker",), RecordFilter(namespace="me"), by_hour=True)}
    assert by_hour == {("ann", T0.hour): 2, ("ann", T0.hour + 1): 1, ("bob", T0.hour): 1}
    line = store.timeline("speaker", RecordFilter(namespace="me", before=T0 + timedelta(hours=2)))
    assert [(i, v) for i, _, _, v in line] == [(ids[0], "ann"), (ids[1], "bob"), (ids[5], ""), (ids[2], "ann")]
    assert line[0][1] == T0 and line[0][2] == T0 + timedelta(seconds=30)


def test_one_recordings_rows_of_a_kind_are_read_from_its_own_index(db):
    """A recording's stays (a tool reads them for each stay's end) come from the recording's
    index, not from the index of every stay the namespace holds with each row read to test
    its recording: at a year that read 190,000 rows for one day's 600."""
    store = db.stores["event"]
    store.add([_rec(f"stay {d}-{i}", 60 * d + i, video=f"day{d}", kind="visit", place="kitchen")
               for d in range(4) for i in range(3)] + [_rec("said hello", 5, video="day1")])
    flt = RecordFilter(namespace="me", kinds=("visit",), video_ids=("day1",), before=T0 + timedelta(days=2))
    where, params = store._sql(flt)
    plan = " ".join(r[3] for r in db.conn.execute(f"EXPLAIN QUERY PLAN SELECT id FROM records WHERE {where} "
                                                   "ORDER BY wall_start, id", params))
    assert "records_recording" in plan and "TEMP B-TREE" not in plan, plan
    assert [r.text for r in store.query(flt)] == ["stay 1-0", "stay 1-1", "stay 1-2"]


def test_a_things_sightings_since_a_time_are_read_from_its_index_by_start_and_none_is_missed(db):
    """"Did I take my medicine this morning?" reads the morning's sightings of the thing from
    its index by start (bounded by the longest sighting), not a year of them; a long
    sighting begun before the window and still going on in it is kept."""
    rng = random.Random(5)
    records = []
    for i in range(200):
        start = T0 + timedelta(minutes=rng.randint(0, 3000))
        end = start + timedelta(minutes=rng.choice([0, 1, 2, 240]))
        records.append(MemoryRecord("entity", "sighting", "me", f"sighting {i}", start, end, video_id="v1",
                                    attrs={"entity": rng.choice(["pill box", "mug"])}))
    store = db.stores["entity"]
    stored = [r.with_id(i) for r, i in zip(records, store.add(records))]
    for _trial in range(30):
        after = T0 + timedelta(minutes=rng.randint(0, 3000))
        flt = RecordFilter(namespace="me", kinds=("sighting",), attrs=(("entity", "pill box"),), not_before=after,
                           before=rng.choice([None, after + timedelta(minutes=rng.randint(1, 600))]))
        expected = sorted(r.id for r in stored if flt.matches(r))
        assert sorted(r.id for r in store.query(flt)) == expected
    where, params = store._sql(flt)
    plan = " ".join(r[3] for r in db.conn.execute(f"EXPLAIN QUERY PLAN SELECT id FROM records WHERE {where}", params))
    assert "records_entity_time" in plan and "wall_start>?" in plan.replace(" ", ""), plan


def test_a_places_newest_stays_are_read_from_its_own_index_newest_first(db):
    """"How many times did I go to the gym?" reads the gym's stays, newest first, from the
    place's index by kind and start, not every stay of a year tested for its place; the
    rows are those `RecordFilter.matches` keeps, in the same order as without the index."""
    rng = random.Random(7)
    store = db.stores["event"]
    records = [_rec(f"{kind} {i}", rng.randint(0, 5000), kind=kind, place=rng.choice(["gym", "kitchen", "office"]))
               for i, kind in enumerate(rng.choice(["visit", "utterance"]) for _ in range(300))]
    stored = [r.with_id(i) for r, i in zip(records, store.add(records))]
    for _trial in range(20):
        at = T0 + timedelta(minutes=rng.randint(0, 5000))
        flt = RecordFilter(namespace="me", kinds=("visit",), attrs=(("place", "gym"),), before=at,
                           not_before=rng.choice([None, at - timedelta(minutes=rng.randint(1, 2000))]))
        kept = sorted((r for r in stored if flt.matches(r)), key=lambda r: (r.wall_start, r.id))
        assert [r.id for r in store.query(flt)] == [r.id for r in kept]
        assert [r.id for r in store.query(flt, limit=5, newest_first=True)] == [r.id for r in kept[::-1][:5]]
    where, params = store._sql(flt)
    plan = " ".join(r[3] for r in db.conn.execute(f"EXPLAIN QUERY PLAN SELECT id FROM records WHERE {where} "
                                                   "ORDER BY wall_start DESC, id DESC LIMIT 5", params))
    assert "records_place_time" in plan and "TEMP B-TREE" not in plan, plan


def test_read_through_reads_every_file_under_a_folder_and_passes_over_what_is_gone(tmp_path):
    (tmp_path / "words" / "segment").mkdir(parents=True)
    (tmp_path / "words" / "meta.json").write_bytes(b"x" * 10)
    (tmp_path / "words" / "segment" / "postings").write_bytes(b"y" * (9 << 20))  # over one read's chunk
    assert read_through(tmp_path / "words") == 10 + (9 << 20)
    assert read_through(tmp_path / "words" / "meta.json") == 10
    assert read_through(tmp_path / "gone") == 0


class TestSqliteFaissStoreConformance(StoreConformance):
    """The SQLite + FAISS store answers as every store must (tests/store_conformance.py)."""

    @pytest.fixture
    def holding(self, tmp_path, embedder):
        database = MemoryDatabase(tmp_path, embedder)

        def holding(records):
            database.stores["event"].add(records)
            return database.stores["event"]
        yield holding
        database.close()

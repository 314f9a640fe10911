"""A Tantivy (BM25) index of the texts of some SQLite rows: the lexical ranking of a long memory.

SQLite's FTS5 scores every row holding a query's words before it can rank them, so a word
that a year of memory holds a million times costs a second. Tantivy ranks by block-max WAND,
skipping blocks of rows that cannot reach the top k, and stores its rows in segments that
are appended and merged, never rewritten whole.

It mirrors SQLite as memory.mirrored_index does for vectors: a batch's changes are staged
and applied after it commits, and a file stamp says which commit the index was written at;
it holds every later commit until one changes its rows (MemoryDatabase.unchanged_since). Only a
writer, inside its batch, rebuilds an index that is missing or stale; a reader whose commit
the index does not hold gets None and ranks with FTS5 instead, so an answer never waits for
a rebuild and never reads another commit's rows.
"""
from __future__ import annotations

import json
import logging
import math
import os
import shutil
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

import tantivy

from memory.mirrors import MirrorHost

log = logging.getLogger(__name__)

_ANALYZER = "memlens_words"
_EPOCH = datetime(1970, 1, 1)
_MICROSECOND = timedelta(microseconds=1)
_WRITER_HEAP = 64 * 2**20  # Tantivy's per-writer indexing memory (its floor is 15 MB a thread)
_REBUILD_HEAP = 256 * 2**20
_WRITER_WAIT_S = 120.0  # another process may be writing its commit into the same index
_BM25_K1_PLUS_1 = 2.2  # Tantivy's BM25 (k1 1.2): a word's score is below its idf times this


def micros(value: datetime) -> int:
    """A wall time as an integer Tantivy can range over (naive times, as the records hold them)."""
    return (value.replace(tzinfo=None) - _EPOCH) // _MICROSECOND


@dataclass(frozen=True)
class WordRow:
    id: int
    text: str
    kind: str
    wall_start: datetime
    wall_end: datetime


@dataclass(frozen=True)
class WordQuery:
    """Rows holding any of `words` (lower case, as the index splits text), or with `phrases`
    every word of one of them, of `kinds`, that began before `starts_before` and ended at or
    after `ends_from` (each when given)."""

    words: tuple[str, ...]
    kinds: tuple[str, ...] | None = None
    starts_before: datetime | None = None
    ends_from: datetime | None = None
    phrases: tuple[frozenset[str], ...] = ()


def _torn(error: BaseException) -> bool:
    """Whether Tantivy failed on files it could not read: an error, or a panic of its Rust code
    (pyo3's PanicException, which derives from BaseException and cannot be imported)."""
    return isinstance(error, (OSError, ValueError)) or type(error).__name__ == "PanicException"


def _schema() -> tantivy.Schema:
    builder = tantivy.SchemaBuilder()
    builder.add_integer_field("id", stored=False, indexed=True, fast=True)
    builder.add_text_field("text", tokenizer_name=_ANALYZER, index_option="freq")
    builder.add_text_field("kind", tokenizer_name="raw", index_option="basic")
    builder.add_integer_field("start", indexed=True, fast=True)
    builder.add_integer_field("end", indexed=True, fast=True)
    return builder.build()


def _top_among_rarer(searcher: tantivy.Searcher, schema: tantivy.Schema, words: Sequence[str], filters: list,
                     k: int) -> list | None:
    """The top k (score, address) of rows holding any of `words`, searched among the rows
    holding one of the rarer words only, the commoner scored where they also occur (MaxScore,
    Turtle & Flood 1995). Tantivy's block-max WAND cannot skip a word held by a quarter of a
    year's rows: thousands of short rows tie on its top score, and every block may hold one
    (at a year, "read station" took 31 ms, 9 ms this way). A common word is left out of the
    search only when the BM25 weight of all those left out is below the idf of the rarer
    words (a row of average length with one of them scores that), and the result stands
    only when its k-th score beats that weight, which no row holding only common words can
    reach: else None, and the caller searches every row."""
    held = {w: searcher.doc_freq("text", w) for w in words}
    idf = lambda w: _idf(max(searcher.num_docs, 1), held[w])  # noqa: E731
    commonest_first = sorted((w for w in words if held[w]), key=lambda w: -held[w])
    common: list[str] = []
    for at, word in enumerate(commonest_first[:-1]):
        if _BM25_K1_PLUS_1 * sum(idf(w) for w in [*common, word]) >= idf(commonest_first[at + 1]):
            break
        common.append(word)
    if not common:
        return None
    rarer = _any([_word(schema, w) for w in commonest_first if w not in common])
    found = searcher.search(tantivy.Query.boolean_query(
        [(tantivy.Occur.Must, rarer), *[(tantivy.Occur.Should, _word(schema, w)) for w in common], *filters]),
        limit=k, count=False).hits
    if len(found) < k:
        return None
    rows = _rows_scored(rarer, searcher, found[0][1])
    common_weight = _BM25_K1_PLUS_1 * sum(_idf(rows, held[w]) for w in common)
    return found if found[-1][0] > common_weight else None


def _idf(rows: int, holding: int) -> float:
    """Tantivy's BM25 idf of a word `holding` of `rows` rows hold."""
    return math.log1p((rows - holding + 0.5) / (holding + 0.5))


def _word(schema: tantivy.Schema, word: str) -> tantivy.Query:
    return tantivy.Query.term_query(schema, "text", word)


def _any(queries: Sequence[tantivy.Query]) -> tantivy.Query:
    return tantivy.Query.boolean_query([(tantivy.Occur.Should, q) for q in queries])


def _rows_scored(query: tantivy.Query, searcher: tantivy.Searcher, address) -> int:
    """The row count BM25's idf used (N): deleted rows still count until a merge drops them,
    so it may exceed `num_docs`; read from Tantivy's explanation of one hit."""
    def walk(node: dict) -> int | None:
        if node.get("description", "").startswith("N,"):
            return int(node["value"])
        return next((n for n in map(walk, node.get("details", [])) if n is not None), None)
    counted = walk(json.loads(query.explain(searcher, address).to_json()))
    return max(counted or 0, searcher.num_docs)


def _analyzer() -> tantivy.TextAnalyzer:
    """Words as FTS5's unicode61 tokenizer reads them: split at non-alphanumerics, lower
    case, accents removed."""
    return (tantivy.TextAnalyzerBuilder(tantivy.Tokenizer.simple()).filter(tantivy.Filter.lowercase())
            .filter(tantivy.Filter.ascii_fold()).build())


class MirroredWordIndex:
    """The word index of the rows `source` selects (an SQL query yielding
    `id, text, kind, wall_start, wall_end`)."""

    def __init__(self, db: MirrorHost, path: Path, source: str, params: Sequence = ()):
        self.db = db
        self.path = path
        self.generation_path = path.with_name(path.name + ".generation")
        self.source, self.params = source, tuple(params)
        self.schema = _schema()
        self._index: tantivy.Index | None = None
        self._searcher: tantivy.Searcher | None = None
        # The searcher holds the rows of every commit from `_written` (its stamp) to `_current`.
        self._written: int | None = None
        self._current: int | None = None
        self._staged: list[tuple[str, list]] = []  # ("add", rows) or ("remove", ids), until commit
        self._pending: tuple[int, list[tuple[str, list]]] | None = None  # committed, not yet written
        self._removed_since_scrub = False
        self.lock = threading.RLock()

    # -- the mirror lifecycle (MemoryDatabase.batch) -----------------------------------
    @property
    def index(self) -> tantivy.Index:
        """For the writer at the start of its batch: the index, rebuilt from SQLite when it
        does not hold the last commit (questions meanwhile rank with FTS5)."""
        with self.db.lock:
            generation = self.db.generation()
            with self.lock:
                stale = not self._holds(generation)
                if stale:
                    self._pass_by()
            if stale:
                self._rebuild(generation)
            return self._open()

    def stage_add(self, rows: Sequence[WordRow]) -> None:
        with self.lock:
            self._staged.append(("add", list(rows)))
        self.db.note_changed(self.path.name)

    def stage_remove(self, ids: Sequence[int]) -> None:
        with self.lock:
            self._staged.append(("remove", [int(i) for i in ids]))
        self.db.note_changed(self.path.name)

    def committed(self, before: int, after: int) -> None:
        """The batch moved the database from `before` to `after`: an index that held `before`
        takes the staged changes when `flush` writes them, or holds `after` too when the batch
        changed none of its rows; any other is rebuilt by the next writer."""
        with self.lock:
            staged, self._staged = self._staged, []
            if self._current != before:
                self._pending, self._current = None, None
            elif staged:
                self._pending = (after, staged)
            else:
                self._current = after

    def discard_staged(self) -> None:
        with self.lock:
            self._staged = []

    def flush(self) -> None:
        """Write the committed changes and stamp the index with their commit. Under the
        writer's lock, not the index's: questions go on meanwhile (FTS5 ranks for the new commit)."""
        with self.db.lock:
            with self.lock:
                if self._pending is None:
                    return
                after, changes = self._pending
            try:
                writer = self._writer(self._open(), _WRITER_HEAP, 1)
                for action, items in changes:
                    if action == "add":
                        for row in items:
                            writer.add_document(self._document(row))
                    elif items:
                        writer.delete_documents_by_query(tantivy.Query.term_set_query(self.schema, "id", items))
                        self._removed_since_scrub = True
                writer.commit()
                writer.wait_merging_threads()  # merges left running would be dropped with the writer
            except BaseException as error:
                if not _torn(error):
                    raise
                log.warning("word index %s not written (%s): the next writer rebuilds it", self.path, error)
                with self.lock:
                    self._pending = None
                    self._pass_by()
                return
            with self.lock:
                self._pending = None
                try:
                    self._stamp(after)
                except BaseException as error:  # another process rewrote the files while we reloaded
                    if not _torn(error):
                        raise
                    log.warning("word index %s not reloaded (%s): FTS5 ranks until it is", self.path, error)
                    self._pass_by()

    def scrub(self) -> None:
        """After a forget: rows deleted from a segment stay in its file until it is merged,
        so an index that lost rows is rebuilt from SQLite and the old segments are removed."""
        with self.db.lock:
            if self._removed_since_scrub:
                generation = self.db.generation()
                with self.lock:
                    self._pass_by()
                self._rebuild(generation)

    # -- reading -----------------------------------------------------------------------
    def search(self, query: WordQuery, k: int, newest: bool = False) -> list[tuple[int, float]] | None:
        """Top-k (row id, BM25) in the index of the caller's commit, or with `newest` the k
        that began last (newest first, score 0): the matches are ordered on the index's start
        column, never read from SQLite. None when the index does not hold that commit (the
        caller ranks with SQLite's FTS5 instead)."""
        with self.lock:  # a searcher stays whole while a commit loads the next: searched unlocked
            if not self._readable(self.db.generation()):
                return None
            searcher = self._searcher
        word = lambda w: _word(self.schema, w)  # noqa: E731
        matching = [tantivy.Query.boolean_query([(tantivy.Occur.Must, word(w)) for w in sorted(phrase)])
                    for phrase in query.phrases] or [word(w) for w in query.words]
        filters = []
        if query.kinds is not None:
            filters.append((tantivy.Occur.Must, tantivy.Query.term_set_query(self.schema, "kind", list(query.kinds))))
        if query.starts_before is not None:
            filters.append((tantivy.Occur.Must, tantivy.Query.range_query(
                self.schema, "start", tantivy.FieldType.Integer, None, micros(query.starts_before),
                include_upper=False)))
        if query.ends_from is not None:
            filters.append((tantivy.Occur.Must, tantivy.Query.range_query(
                self.schema, "end", tantivy.FieldType.Integer, micros(query.ends_from), None)))
        try:
            found = None
            if not newest and not query.phrases:
                found = _top_among_rarer(searcher, self.schema, query.words, filters, k)
            if found is None:
                everything = tantivy.Query.boolean_query([(tantivy.Occur.Must, _any(matching)), *filters])
                found = searcher.search(everything, limit=k, count=False,
                                        order_by_field="start" if newest else None).hits
            ids = searcher.fast_field_values("id", [address for _, address in found])
            if newest:
                found = [(0.0, address) for _, address in found]
        except BaseException as error:
            if not _torn(error):
                raise
            log.warning("word index %s unreadable (%s): FTS5 ranks until a writer rebuilds it", self.path, error)
            with self.lock:
                self._pass_by()
            return None
        return [(int(i), float(score)) for (score, _), i in zip(found, ids)]

    def documents(self, generation: int) -> int | None:
        """Rows the index holds as of `generation`, or None when it does not hold it."""
        with self.lock:
            return self._searcher.num_docs if self._readable(generation) else None

    def doc_freq(self, word: str) -> int:
        """Rows holding `word` in the index last read (call after `search` or `documents`)."""
        with self.lock:
            return self._searcher.doc_freq("text", word) if self._searcher is not None else 0

    # -- internals ---------------------------------------------------------------------
    def _readable(self, generation: int) -> bool:
        """Whether the searcher holds `generation`, reloading it when this process or another
        has written the index since. A reader never repairs: an index it cannot read is
        passed by until a writer rebuilds it."""
        return self._known(generation) or (self._pending is None and self._load(generation))

    def _holds(self, generation: int) -> bool:
        """Whether the index holds `generation`, its rows counted against SQLite's."""
        return self._known(generation) or self._load(generation, counted=True)

    def _known(self, generation: int) -> bool:
        return self._searcher is not None and self._written is not None and self._current is not None \
            and self._written <= generation <= self._current

    def _load(self, generation: int, counted: bool = False) -> bool:
        """Take the index on disk when it holds `generation`: written at or before it, its rows
        unchanged since (MemoryDatabase.unchanged_since). The searcher is reloaded only when
        the index was written again."""
        written = self._stamped()
        if not self.db.unchanged_since(self.path.name, written):
            return False
        same = written == self._written and self._searcher is not None and self._current is not None
        searcher = self._searcher if same else self._fresh_searcher()
        if searcher is None or self._stamped() != written:  # unreadable, or written again while it loaded
            return False
        if counted and searcher.num_docs != self.db.read(f"SELECT COUNT(*) FROM ({self.source})", self.params)[0][0]:
            return False
        self._current = max(self._current, generation) if same else generation
        self._searcher, self._written = searcher, written
        return True

    def _fresh_searcher(self) -> tantivy.Searcher | None:
        """A searcher of the last commit written to the folder; None when it cannot be read."""
        try:
            index = self._open()
            index.reload()
            return index.searcher()
        except BaseException as error:
            if not _torn(error):
                raise
            self._index = None
            return None

    def _open(self) -> tantivy.Index:
        """The folder's index (created empty where there is none); raises when it cannot be read."""
        if self._index is None:
            self.path.mkdir(parents=True, exist_ok=True)
            self._index = tantivy.Index(self.schema, path=str(self.path), reuse=True)
            self._index.register_tokenizer(_ANALYZER, _analyzer())
        return self._index

    def _writer(self, index: tantivy.Index, heap: int, threads: int) -> tantivy.IndexWriter:
        """Tantivy's one writer of a folder; waits while another process writes its commit."""
        deadline = time.monotonic() + _WRITER_WAIT_S
        while True:
            try:
                return index.writer(heap_size=heap, num_threads=threads)
            except ValueError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def _rebuild(self, generation: int) -> None:
        """Under the writer's lock, after `_pass_by`: every row again, into a new folder that
        then takes the old one's place, so nothing of a torn or forgotten segment is kept."""
        fresh = self.path.with_name(f"{self.path.name}.building-{os.getpid()}")
        old = self.path.with_name(f"{self.path.name}.old-{os.getpid()}")
        shutil.rmtree(fresh, ignore_errors=True)
        fresh.mkdir(parents=True)
        index = tantivy.Index(self.schema, path=str(fresh))
        index.register_tokenizer(_ANALYZER, _analyzer())
        writer = self._writer(index, _REBUILD_HEAP, 2)
        for row in self.db.conn.execute(self.source, self.params):  # streamed: a year is millions of rows
            writer.add_document(self._document(WordRow(row["id"], row["text"], row["kind"],
                                                       datetime.fromisoformat(row["wall_start"]),
                                                       datetime.fromisoformat(row["wall_end"]))))
        writer.commit()
        writer.wait_merging_threads()
        del writer, index
        with self.lock:
            shutil.rmtree(old, ignore_errors=True)
            if self.path.exists():
                os.rename(self.path, old)
            os.rename(fresh, self.path)
            self._index, self._removed_since_scrub = None, False
            self._stamp(generation)
        shutil.rmtree(old, ignore_errors=True)

    def _pass_by(self) -> None:
        """Under `lock`: readers rank with FTS5 until the index is stamped again (a crash
        mid-way leaves it unstamped: stale)."""
        self.generation_path.unlink(missing_ok=True)
        self._written = self._current = None

    def _stamp(self, generation: int) -> None:
        self.generation_path.write_text(str(generation))
        index = self._open()
        index.reload()
        self._searcher, self._written, self._current = index.searcher(), generation, generation

    def _stamped(self) -> int | None:
        try:
            return int(self.generation_path.read_text())
        except (OSError, ValueError):
            return None

    def _document(self, row: WordRow) -> tantivy.Document:
        return tantivy.Document(id=row.id, text=row.text, kind=row.kind, start=micros(row.wall_start),
                                end=micros(row.wall_end))

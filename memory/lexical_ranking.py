"""The lexical (BM25) ranking of a store: from the namespace's Tantivy word index where it
holds the question's commit and the filter is one it can narrow to, else from SQLite's FTS5,
reading the scarce words' rows first (memory.bm25)."""
from __future__ import annotations

import re
from dataclasses import replace
from datetime import datetime

from memory.bm25 import COMMON_SHARE, any_of, bm25_ceiling, split_by_frequency
from memory.dense_ranking import POST_FILTER_ROUNDS
from memory.language import STOP
from memory.records import MemoryRecord, RecordFilter, mention_groups
from memory.sqlite_store import SqliteStore
from memory.word_index import WordQuery

_WORD = re.compile(r"[A-Za-z0-9]+")
# A window this many times smaller than the rows holding the words is walked instead of their lists.
WINDOW_LEADS_AT = 50
# Rows beyond the asked number taken from a word index for the newest matches: a few that
# overlap t_q pass its time test there but not SQL's.
NEWEST_MARGIN = 32


def word_window(flt: RecordFilter) -> tuple[datetime | None, datetime | None]:
    """A filter's time window as a word index narrows to it: (starts before, ends from),
    a superset of the rows the filter keeps (a row ended before t_q also began before it)."""
    starts_before, ends_from = flt.before, flt.not_before
    if flt.overlaps is not None:
        starts_before = min(filter(None, (starts_before, flt.overlaps[1])))
        ends_from = max(filter(None, (ends_from, flt.overlaps[0])))
    return starts_before, ends_from


def lists_rows(flt: RecordFilter) -> bool:
    """Whether a filter names rows a word index cannot narrow to (only SQL can)."""
    return bool(flt.attrs_in) or any(x is not None for x in (flt.video_ids, flt.ids, flt.after_id, flt.mentions,
                                                             flt.hours))


class LexicalRanking(SqliteStore):
    """`search_lexical` and `rank_lexical`, and the newest rows holding some words (`query`
    with `mentions`), from the word index or FTS5."""

    def query(self, flt: RecordFilter, limit: int | None = None, newest_first: bool = False) -> list[MemoryRecord]:
        if limit is not None and newest_first and flt.mentions is not None:
            newest = self._newest_mentioning(flt, limit)
            if newest is not None:
                return newest
        return super().query(flt, limit, newest_first)

    def search_lexical(self, text: str, flt: RecordFilter, k: int) -> list[tuple[MemoryRecord, float]]:
        with self.db.pinned():
            return self.shown(self.rank_lexical(text, flt, k), flt)

    def rank_lexical(self, text: str, flt: RecordFilter, k: int) -> list[tuple[int, float]]:
        terms = list(dict.fromkeys(w.lower() for w in _WORD.findall(text)))
        if not terms:
            return []
        terms = [t for t in terms if t not in STOP] or terms
        where, params = self._sql(flt, alias="r")
        with self.db.pinned():  # the word index, the filter's rows and FTS5 from one commit
            found = self._search_words(terms, flt, k)
            if found is None:  # FTS5: exact for every filter and commit, slower on a long memory
                # a question without a rare word keeps all of its words: they are all it has
                rare = self.db.rare_words(terms)
                scarce, frequent = split_by_frequency(rare)
                found = self._top_by_scarce_words(scarce, frequent, flt, where, params, k) if frequent else None
            if found is None:
                match = any_of(rare or terms)
                rows = self.db.read(
                    f"SELECT r.id AS rid, -bm25(records_fts) AS score FROM records_fts {self._lexical_join(flt, rare)} "
                    f"records r ON r.id = records_fts.rowid WHERE records_fts MATCH ? AND {where} "
                    f"ORDER BY score DESC LIMIT ?", [match, *params, k])
                found = [(row["rid"], float(row["score"])) for row in rows]
        return found

    def _newest_mentioning(self, flt: RecordFilter, limit: int) -> list[MemoryRecord] | None:
        """The newest `limit` records holding `flt`'s words, taken newest first from the
        namespace's word index and only then read from SQLite: FTS5 hands over every row
        holding a word, and a word a year of memory holds 300,000 times takes a second to
        read and sort. None where SQL reads them all instead (see `_search_words`)."""
        rest = replace(flt, mentions=None)
        if flt.namespace is None or lists_rows(rest):
            return None
        phrases = tuple(mention_groups(flt.mentions))
        if not phrases:
            return []
        query = WordQuery((), flt.kinds, *word_window(flt), phrases=phrases)
        fetch = limit + NEWEST_MARGIN
        for _ in range(POST_FILTER_ROUNDS + 1):
            found = self.words(flt.namespace).search(query, fetch, newest=True)
            if found is None:
                return None
            rows = self.query(replace(rest, ids=tuple(i for i, _ in found)), limit, newest_first=True)
            if len(rows) >= limit or len(found) < fetch:
                break
            fetch *= 4  # rows the word index holds that the filter's exact time test drops
        return rows

    def _search_words(self, terms: list[str], flt: RecordFilter, k: int) -> list[tuple[int, float]] | None:
        """Top-k by BM25 from the namespace's word index, with the filter's kinds and time
        window applied inside it and the rest to the best rows, in rounds that fetch more, as
        a dense search does. None where FTS5 ranks instead: no namespace, a filter that
        lists rows (ids, tags, videos, hours, words), an index not holding the caller's
        commit, or a filter that keeps too few of the best rows."""
        if flt.namespace is None or lists_rows(flt):
            return None
        words = self.words(flt.namespace)
        documents = words.documents(self.db.generation())
        if documents is None:
            return None
        # a question without a rare word keeps all of its words: they are all it has
        rare = tuple(t for t in terms if 0 < words.doc_freq(t) <= COMMON_SHARE * documents)
        query = WordQuery(rare or tuple(terms), flt.kinds, *word_window(flt))
        if self._keeps_every_row(flt):
            return words.search(query, k)
        fetch = 4 * k
        for _ in range(POST_FILTER_ROUNDS + 1):
            found = words.search(query, fetch)
            if found is None:
                return None
            hits = self._within(flt, found)
            if len(hits) >= k or len(found) < fetch:
                return hits[:k]
            fetch *= 4
        return None

    def _lexical_join(self, flt: RecordFilter, docs: dict[str, int]) -> str:
        """SQLite cannot weigh a word match against an index range and may walk the window,
        matching each row's words (~50x a match read from the word's list): a window leads
        only when it is that much smaller than the rows holding the words."""
        return "JOIN" if docs and self._fewer_than(flt, sum(docs.values()) // WINDOW_LEADS_AT) else "CROSS JOIN"

    def _top_by_scarce_words(self, scarce: dict[str, int], frequent: dict[str, int], flt: RecordFilter,
                             where: str, params: list, k: int) -> list[tuple[int, float]] | None:
        """The exact BM25 top `k` of all the words, read from the rows that hold a scarce
        one, when those outscore any row holding only frequent words (MaxScore); None when
        they may not. FTS5 sums a score over every phrase of a query, so a row's score for
        all the words is its score for `scarce AND (all)` less its score for `scarce`; both
        visit only the scarce words' rows, where `all` alone visits every frequent one's."""
        any_scarce, any_word = any_of(scarce), any_of([*scarce, *frequent])
        rows = self.db.read(
            f"SELECT r.id AS rid, bm25(records_fts) AS doubled FROM records_fts {self._lexical_join(flt, scarce)} "
            f"records r ON r.id = records_fts.rowid WHERE records_fts MATCH ? AND {where}",
            [f"({any_scarce}) AND ({any_word})", *params])
        if len(rows) < k:
            return None
        once = dict(self.db.read("SELECT rowid, bm25(records_fts) FROM records_fts WHERE records_fts MATCH ?",
                                 [any_scarce]))
        found = sorted(((row["rid"], once[row["rid"]] - row["doubled"]) for row in rows), key=lambda hit: -hit[1])[:k]
        ceiling = sum(bm25_ceiling(docs, self.db.row_count()) for docs in frequent.values())
        return found if found[-1][1] > ceiling * (1 + 1e-9) else None

    def _fewer_than(self, flt: RecordFilter, n: int) -> bool:
        """Whether `flt` keeps fewer than `n` rows, counting no further than that."""
        if n <= 0:
            return False
        where, params = self._sql(flt)
        return self.db.read(f"SELECT COUNT(*) FROM (SELECT 1 FROM records WHERE {where} LIMIT ?)",
                            [*params, n])[0][0] < n

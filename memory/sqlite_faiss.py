"""SQLite (metadata, text, BM25 via FTS5) + FAISS (vectors) implementation of the record stores.

SQLite is the source of truth: it also keeps every vector (in a table of its own), so a FAISS
index file that is missing, stale or written by another embedder is rebuilt on open instead of
trusted.
All three stores share one database file; each keeps a FAISS index file per namespace, kept
in step with the commits by memory.mirrored_index.

This module puts the parts together: the database (memory.database), and each store's rows
(memory.sqlite_store) with its dense and lexical rankings and first-seen lists.
"""
from __future__ import annotations

from pathlib import Path

from memory.database import Database
from memory.dense_ranking import DenseRanking
from memory.embedding import TextEmbedder
from memory.first_seen import FirstSeenQueries
from memory.lexical_ranking import LexicalRanking
from memory.records import STORE_NAMES, StoreName


class SqliteFaissStore(FirstSeenQueries, DenseRanking, LexicalRanking):
    """A RecordStore over a shared MemoryDatabase; ids are SQLite rowids and FAISS ids."""


class MemoryDatabase(Database):
    """The database with its three stores, whose first-seen lists follow each batch."""

    def __init__(self, root: Path, embedder: TextEmbedder):
        super().__init__(root, embedder)
        self.stores: dict[StoreName, SqliteFaissStore] = {name: SqliteFaissStore(self, name) for name in STORE_NAMES}
        for store in self.stores.values():
            store.first_seen_kept.load()
        self._keep_durations()
        self._reembed_if_model_changed()

    def _reembed_if_model_changed(self) -> None:
        row = self.conn.execute("SELECT value FROM meta WHERE key='embedder'").fetchone()
        if row is not None and row["value"] == self.embedder.model_id:
            return
        rows = self.conn.execute("SELECT id, text FROM records").fetchall()
        vectors = self.embedder.embed([r["text"] for r in rows]) if rows else []
        with self.batch():
            self.conn.executemany("UPDATE record_vectors SET vector=? WHERE id=?",
                                  [(v.tobytes(), r["id"]) for v, r in zip(vectors, rows)])
            for store in self.stores.values():
                store.rebuild_index()
            self.conn.execute(
                "INSERT OR REPLACE INTO meta(key, value) VALUES ('embedder', ?)", (self.embedder.model_id,)
            )

    def catch_up_word_indexes(self) -> list[str]:
        """Build the word indexes this memory lacks (written before there were any, or left
        stale by a crash) in one batch, as "<store>/<namespace>"; until then those namespaces
        rank words with FTS5. No batch, so no new commit, when none is missing."""
        generation = self.generation()
        missing = [(store, namespace) for store in self.stores.values() for namespace in store.namespaces()
                   if store.words(namespace).documents(generation) is None]
        if missing:
            with self.batch():  # a writer's batch start rebuilds each index it finds stale
                pass
        return [f"{store.name}/{namespace}" for store, namespace in missing]

    def _before_commit(self, generation: int) -> None:
        for store in self.stores.values():
            store.stage_first_seen(generation)

    def _after_commit(self) -> None:
        for store in self.stores.values():
            store.first_seen_kept.committed()

    def _after_rollback(self) -> None:
        for store in self.stores.values():
            store.first_seen_kept.discard_staged()

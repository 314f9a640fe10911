"""The in-memory reference store answers as every store must (tests/store_conformance.py)."""
from __future__ import annotations

import pytest

from memory.in_memory_store import InMemoryStore
from tests.store_conformance import StoreConformance


class TestInMemoryStore(StoreConformance):
    @pytest.fixture
    def holding(self, embedder):
        def holding(records):
            store = InMemoryStore("event", embedder)
            store.add(records)
            return store
        return holding

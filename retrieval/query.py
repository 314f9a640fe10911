"""What a search asks for: the text, the namespace, the stores and the filters (the
question-time cut among them). Its own module so the rankings (retrieval.search, and the
keyframes' channel in retrieval.frames that search composes) share it without importing
each other."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from memory.records import RecordFilter, StoreName


@dataclass(frozen=True)
class SearchQuery:
    text: str
    namespace: str
    stores: tuple[StoreName, ...] = ("entity", "event")
    kinds: tuple[str, ...] | None = None
    before: datetime | None = None  # strict: records must end before this
    after: datetime | None = None
    video_ids: tuple[str, ...] | None = None
    attrs: tuple[tuple[str, object], ...] = ()
    k: int = 10

    def record_filter(self) -> RecordFilter:
        return RecordFilter(
            namespace=self.namespace, kinds=self.kinds, video_ids=self.video_ids,
            before=self.before, not_before=self.after, attrs=self.attrs,
        )

"""A RecordFilter as SQL on `records`, and the shapes of filter the stores plan their reads by."""
from __future__ import annotations

import re
from datetime import timedelta

from memory.records import SEEN_ON_KEYFRAMES, RecordFilter, mention_groups
from memory.schema import INDEXED_ATTRS, KIND_INDEXED_ATTRS, TAGGED_ATTRS, sql_time

_PLAIN_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def read_by_ids(flt: RecordFilter) -> bool:
    """Whether a filter's rows are found from ids (listed, past an id, holding words, tagged)."""
    return flt.ids is not None or flt.after_id is not None or flt.mentions is not None or any(
        key in TAGGED_ATTRS for key, _ in flt.attrs_in)


def by_indexed_attr(flt: RecordFilter) -> bool:
    return any(key in INDEXED_ATTRS for key, _ in flt.attrs)


def by_kind_indexed_attr(flt: RecordFilter) -> bool:
    return any(key in KIND_INDEXED_ATTRS for key, _ in flt.attrs)


# The share of a namespace's rows one recording holds, as SQLite's planner is told (it keeps
# no statistics here): told nothing, it read one recording's stays through the index of every
# stay the namespace holds (a year's 190,000, each row read to test its recording) instead
# of records_recording.
_ONE_RECORDING = 0.001


def where_clause(store: str, flt: RecordFilter, alias: str = "records", longest: float | None = None
                 ) -> tuple[str, list]:
    """Translate a RecordFilter to SQL; must agree with RecordFilter.matches. With ids, words or
    tags, the other columns are written `+col` so SQLite looks the ids up instead of scanning an index
    of the namespace for them; with a thing or place named (`INDEXED_ATTRS`), the time columns
    are, and the kind unless that index holds it, so that the attr's own index is read,
    newest first where asked. `longest` (seconds no matching record outlasts) bounds the end
    of a record the question time cuts, so the time index is read over the window only, and
    so does a window's start bound the start of a named thing's rows, read from its index by
    start.
    """
    by_id = read_by_ids(flt)
    scope = f"+{alias}" if by_id else alias
    col = f"+{alias}" if by_id or by_indexed_attr(flt) else alias
    kind = scope if by_kind_indexed_attr(flt) else col
    clauses, params = [f"{scope}.store = ?"], [store]
    if flt.namespace is not None:
        clauses.append(f"{scope}.namespace = ?"), params.append(flt.namespace)
    if flt.kinds is not None:
        clauses.append(f"{kind}.kind IN ({','.join('?' * len(flt.kinds))})"), params.extend(flt.kinds)
    if flt.video_ids is not None:  # a recording is a small part of a namespace: its own index is read
        clauses.append(f"likelihood({col}.video_id IN ({','.join('?' * len(flt.video_ids))}), {_ONE_RECORDING})")
        params.extend(flt.video_ids)
    if flt.before is not None:
        clauses.append(f"({col}.wall_end < ? OR ({col}.kind IN ({','.join('?' * len(SEEN_ON_KEYFRAMES))}) "
                       f"AND {col}.wall_start < ?))")
        params.extend([sql_time(flt.before), *SEEN_ON_KEYFRAMES, sql_time(flt.before)])
        if longest is not None and flt.ids is None:
            clauses.append(f"{col}.wall_end < ?"), params.append(sql_time(flt.before + timedelta(seconds=longest + 1)))
    if flt.not_before is not None:
        clauses.append(f"{col}.wall_end >= ?"), params.append(sql_time(flt.not_before))
        if longest is not None and flt.ids is None and by_indexed_attr(flt):  # the thing's index runs by start
            clauses.append(f"{alias}.wall_start >= ?"), params.append(sql_time(flt.not_before - timedelta(seconds=longest + 1)))
    if flt.overlaps is not None:
        clauses.append(f"{col}.wall_start < ? AND {col}.wall_end >= ?")
        params.extend([sql_time(flt.overlaps[1]), sql_time(flt.overlaps[0])])
        if longest is not None and flt.ids is None:
            clauses.append(f"{col}.wall_end < ?"), params.append(sql_time(flt.overlaps[1] + timedelta(seconds=longest + 1)))
    if flt.ids is not None:
        clauses.append(f"{alias}.id IN ({','.join('?' * len(flt.ids))})"), params.extend(flt.ids)
    if flt.after_id is not None:
        clauses.append(f"{alias}.id > ?"), params.append(flt.after_id)
    for key, value in flt.attrs:
        if _PLAIN_KEY.fullmatch(key):  # written out, so an index on the expression can serve it
            clauses.append(f"json_extract({alias}.attrs, '$.{key}') = ?"), params.append(value)
        else:
            clauses.append(f"json_extract({alias}.attrs, ?) = ?"), params.extend([f"$.{key}", value])
    if flt.hours is not None:  # wall_start is fixed-width ISO text: hours at 12, minutes at 15
        hour = (f"(CAST(substr({alias}.wall_start, 12, 2) AS INTEGER) + "
                f"CAST(substr({alias}.wall_start, 15, 2) AS INTEGER) / 60.0)")
        clauses.append(f"{hour} >= ? AND {hour} < ?")
        params.extend([float(flt.hours[0]), float(flt.hours[1])])
    for key, values in flt.attrs_in:
        if key in TAGGED_ATTRS:
            since = "" if flt.not_before is None else " AND wall_end >= ?"  # the tags' own time index
            clauses.append(f"{alias}.id IN (SELECT record_id FROM record_tags WHERE key = ? AND value IN "
                           f"({','.join('?' * len(values))}){since})")
            params.extend([key, *values, *(() if flt.not_before is None else (sql_time(flt.not_before),))])
        else:
            clauses.append(f"EXISTS (SELECT 1 FROM json_each({alias}.attrs, ?) WHERE value IN "
                           f"({','.join('?' * len(values))}))")
            params.extend([f"$.{key}", *values])
    if flt.mentions is not None:
        groups = mention_groups(flt.mentions)
        if not groups:
            clauses.append("0")
        else:
            clauses.append(f"{alias}.id IN (SELECT rowid FROM records_fts WHERE records_fts MATCH ?)")
            params.append(" OR ".join("(" + " AND ".join(f'"{w}"' for w in sorted(g)) + ")" for g in groups))
    return " AND ".join(clauses), params


def keeps_nearly_all(flt: RecordFilter) -> bool:
    """Whether a filter cuts a namespace's index at most at question time: asked now, it
    keeps every row, so fetching four times k for it only made coded segments re-rank
    (from SQLite) and the filter test read four times the rows. Asked in the past, a first
    fetch of about k falls short and the usual rounds follow."""
    return flt.kinds is None and not flt.attrs and not windowed(flt)


def windowed(flt: RecordFilter) -> bool:
    """Whether a filter narrows by more than namespace, kinds, equal attrs and question time."""
    return bool(flt.attrs_in) or any(x is not None for x in (flt.not_before, flt.overlaps, flt.video_ids, flt.ids,
                                                             flt.after_id, flt.mentions, flt.hours))

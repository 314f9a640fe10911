"""How lexical (BM25) ranking is tuned over FTS5: which words rank nothing, how far one word
can raise a score, and which words of a query are read first."""
from __future__ import annotations

import math
from collections.abc import Iterable

# A word in more than this share of all rows ("the", "i", "was") ranks nothing and makes
# BM25 visit most of the index, so a lexical query leaves it out.
COMMON_SHARE = 1 / 3
# FTS5's bm25() term-frequency saturation (its default k1)
BM25_K1 = 1.2
# A word in this many times as many rows as the rarer words of a query together is read
# last: the rows holding a rarer word are scored first, and usually outscore it alone.
FREQUENT_OVER_SCARCE = 3


def bm25_ceiling(docs: int, rows: int) -> float:
    """The most one word held by `docs` of `rows` can add to an FTS5 BM25 score: its idf
    times k1 + 1, which the term-frequency part approaches but never reaches."""
    idf = math.log((rows - docs + 0.5) / (docs + 0.5))
    return max(idf, 1e-6) * (BM25_K1 + 1)


def split_by_frequency(docs: dict[str, int]) -> tuple[dict[str, int], dict[str, int]]:
    """Words (with the rows holding each) split into scarce and frequent at the last word
    in `FREQUENT_OVER_SCARCE` times as many rows as all rarer words together, so a search
    can read the scarce words' rows first."""
    ordered = sorted(docs.items(), key=lambda item: item[1])
    for cut in range(len(ordered) - 1, 0, -1):
        if ordered[cut][1] > FREQUENT_OVER_SCARCE * sum(n for _, n in ordered[:cut]):
            return dict(ordered[:cut]), dict(ordered[cut:])
    return dict(ordered), {}


def any_of(words: Iterable[str]) -> str:
    """An FTS5 query matching rows that hold any of these words (each quoted: never syntax)."""
    return " OR ".join(f'"{w}"' for w in words)

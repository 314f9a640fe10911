"""The evidence an answer cites: the records it was read from first, then the other records
the agent looked at that are about what was asked.

A person checking an answer wants the line it came from, and beside it the other lines that
speak of the same thing: a list gathered across conversations ("what activities does she
do?") rests on several turns, and an answer read from one line is easier to trust, or to
correct, next to the others that mention it. A record is about the question when it holds
at least `RELATED_ALIGNMENT` of the question's content words (agent.reader's alignment,
the speaker's name counting) and is first-hand: captions and roll-ups restate the lines and
sightings they were written from, which are cited instead. The records an
answer rests on decide its sufficiency; the related ones are added after, for the reader
of the answer, and never change it.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence

from agent.reader import DERIVED, ROLL_UPS
from agent.state import RELATED, Evidence
from memory.records import MemoryRecord

CITED = 5  # the records an answer cites at most, its own first (more when its own are more)
CONSIDERED = 16  # the records looked at, best first, that are weighed for citing (each is parsed)
RELATED_ALIGNMENT = 0.5  # the share of the question's words a record must hold to be cited beside the answer
_SECOND_HAND = (*DERIVED, *ROLL_UPS)


def cited(support: Sequence[Evidence], looked_at: Sequence[Evidence],
          alignments: Callable[[Sequence[MemoryRecord]], Sequence[float]], limit: int = CITED) -> list[Evidence]:
    """`support` (what the answer rests on), then the best-aligned of the first `CONSIDERED`
    first-hand records of `looked_at` not among it, best first (ties in the order they were
    found), up to `limit`. `alignments` gives each record's share of the question's words, for
    all of them at once (the reader parses them in one batch)."""
    room = limit - len(support)
    if room <= 0:
        return list(support)
    own = {e.record.id for e in support}
    candidates = [e for e in looked_at if e.record.kind not in _SECOND_HAND
                  and not (e.record.id in own or own.add(e.record.id))][:CONSIDERED]
    scored = [(-share, order, e) for order, (e, share) in
              enumerate(zip(candidates, alignments([e.record for e in candidates]))) if share >= RELATED_ALIGNMENT]
    related = [Evidence(e.record, e.score, f"{RELATED} ({e.why})") for _, _, e in sorted(scored, key=lambda s: s[:2])]
    return [*support, *related[:room]]

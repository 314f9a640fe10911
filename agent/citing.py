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
of the answer, and never change it. A related line that asks something is cited with the
turn that answers it (another voice's next turn), which need hold only one of the question's
words ("What position are you playing for the team?" - "I'm a shooting guard for the team"; not
"Let's have dinner").
"""
from __future__ import annotations

from collections.abc import Callable, Sequence

from agent.reader import ROLL_UPS
from agent.reading import DERIVED
from agent.state import RELATED, Evidence
from agent.wanted import asks
from memory.records import MemoryRecord

CITED = 8  # the records an answer cites at most, its own first (more when its own are more)
CONSIDERED = 16  # the records looked at, best first, that are weighed for citing (each is parsed)
RELATED_ALIGNMENT = 0.5  # the share of the question's words a record must hold to be cited beside the answer
CLOSEST_ALIGNMENT = 0.34  # ... to be cited under an abstention, as the closest memory came
_SECOND_HAND = (*DERIVED, *ROLL_UPS)


def as_related(evidence: Evidence, why: str | None = None) -> Evidence:
    """The record cited beside an answer (or under an abstention), not as what it rests on."""
    return Evidence(evidence.record, evidence.score, f"{RELATED} ({why or evidence.why})")


def cited(support: Sequence[Evidence], looked_at: Sequence[Evidence],
          alignments: Callable[[Sequence[MemoryRecord]], Sequence[float]], limit: int = CITED,
          reply_to: Callable[[MemoryRecord], MemoryRecord | None] | None = None,
          bar: float = RELATED_ALIGNMENT) -> list[Evidence]:
    """`support` (what the answer rests on), then the best-aligned of the first `CONSIDERED`
    first-hand records of `looked_at` not among it, best first (ties in the order they were
    found), each line that asks followed by its reply (`reply_to`), up to `limit` passages. `alignments`
    gives each record's share of the question's words, for all of them at once (the reader
    parses them in one batch)."""
    room = limit - len(support)
    if room <= 0:
        return list(support)
    listed = {e.record.id for e in support}
    seen = set(listed)
    candidates = [e for e in looked_at if e.record.kind not in _SECOND_HAND
                  and not (e.record.id in seen or seen.add(e.record.id))][:CONSIDERED]
    scored = [(-share, order, e) for order, (e, share) in
              enumerate(zip(candidates, alignments([e.record for e in candidates]))) if share >= bar]
    related: list[Evidence] = []
    passages = 0  # a line that asks and its reply are one exchange, one of the `limit`
    for _, _, e in sorted(scored, key=lambda s: s[:2]):
        if passages >= room:
            break
        if e.record.id in listed:  # cited already as a reply
            continue
        related.append(as_related(e))
        listed.add(e.record.id)
        passages += 1
        reply = reply_to(e.record) if reply_to is not None and asks(e.record.attrs.get("said") or e.record.text) \
            else None
        if reply is not None and reply.id not in listed and alignments([reply])[0] > 0:  # "Let's have dinner"
            listed.add(reply.id)
            related.append(as_related(Evidence(reply, e.score, ""), "the reply to a line cited"))
    return [*support, *related]

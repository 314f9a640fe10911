"""A generated RefMem-style suite: weeks of chat between a person and a friend, with one
latent trait planted per dimension (eval.refmem.traits) and everyday talk around it, and
items in MC / SC / DA with evidence anchors, each asked in the generator's wording and in a
held-out one. Deterministic for a seed; a world of its own, so the video suites' worlds and
results stay as they were.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from eval.refmem.dataset import DIMENSIONS, LETTERS, Evidence, RefMemItem, Suite, write_suite
from eval.refmem.traits import TRAITS, Trait

PEOPLE = ("Maya", "Priya", "Leo", "Nadia", "Tomas", "Ines", "Kofi", "Hana", "Elena", "Ravi", "Zoe", "Malik")
FRIENDS = ("Jon", "Ana", "Dev", "Lucia", "Ben", "Mei", "Omar", "Sofie", "Yusuf", "Clara")
# Everyday exchanges: (friend, person). Nothing here bears on any trait.
SMALL_TALK = (
    ("did you catch the match last night?", "only the second half, what a mess"),
    ("the new bakery on Elm finally opened", "oh nice, is it any good?"),
    ("my landlord still hasn't fixed the heating", "that's awful, it's freezing this week"),
    ("are you watching that detective series?", "yes! episode four was wild"),
    ("I need a new phone, mine keeps dying", "mine's fine so far, touch wood"),
    ("what are you up to tonight?", "nothing much, laundry and a film probably"),
    ("it's meant to rain all weekend", "of course it is"),
    ("work was chaos today", "same here, mondays man"),
    ("just finished that book you lent me", "and?? what did you think of the ending?"),
    ("my sister's visiting next week", "oh fun, what are you going to do?"),
    ("the traffic on the ring road was insane", "I saw, there was an accident near the bridge"),
    ("I finally cleaned out the garage", "impressive, that's been on your list forever"),
    ("do you know a good dentist?", "mine is ok, I'll send you the number"),
    ("my cat knocked a glass off the table again", "cats are agents of chaos"),
    ("have you tried that new pizza place?", "not yet, is it worth it?"),
    ("how was the concert?", "loud and great, my ears are still ringing"),
    ("I think I'm getting a cold", "drink some tea and sleep, honestly"),
    ("the bus was packed this morning", "always is after half eight"),
    ("my neighbour is learning the trumpet", "oh no. at what hours??"),
    ("did you vote in the local thing?", "yeah, on the way to work"),
)
FRIEND_IMAGES = (
    "a photo of a golden retriever lying on a kitchen floor", "a photo of a birthday cake with candles",
    "a photo of a crowded football stadium at night", "a photo of a bookshelf full of paperbacks",
    "a photo of a red car parked on a street", "a photo of a child holding a kite in a park",
)


@dataclass(frozen=True)
class Size:
    contexts: int
    sessions: int


SIZES = {"smoke": Size(contexts=2, sessions=10), "full": Size(contexts=6, sessions=18)}


class _Thread:
    """The thread being written: its lines, and the image index of each shared image."""

    def __init__(self):
        self.lines: list[str] = []
        self.images = 0

    def turn(self, speaker: str, text: str, image: str | None = None) -> tuple[str, int | None]:
        line = f"{speaker}: {text}"
        self.lines.append(line)
        if image is None:
            return line, None
        self.lines.append(f"[Image #{self.images} {image}]")
        self.images += 1
        return line, self.images - 1


def _schedule(rng: random.Random, traits: list[Trait], sessions: int) -> dict[int, list[tuple[Trait, int]]]:
    """Which cue of which trait goes in which session: a trait's cues spread over the weeks
    in order, never two of one trait in one session."""
    plan: dict[int, list[tuple[Trait, int]]] = {s: [] for s in range(sessions)}
    for trait in traits:
        k = len(trait.cues)
        slots = sorted(rng.sample(range(sessions), k)) if trait.dimension != "TD" else [
            min(sessions - 1, int((j + rng.uniform(0.1, 0.9)) * sessions / k)) for j in range(k)]
        for j, s in enumerate(slots):
            plan[s].append((trait, j))
    return plan


def _context(rng: random.Random, context_id: str, sessions: int) -> tuple[str, list[RefMemItem]]:
    person, friend = rng.choice(PEOPLE), rng.choice(FRIENDS)
    traits = [rng.choice([t for t in TRAITS if t.dimension == d]) for d in DIMENSIONS]
    plan = _schedule(rng, traits, sessions)
    thread = _Thread()
    evidence: dict[str, tuple[list[str], list[int]]] = {t.key: ([], []) for t in traits}
    clock = datetime(2026, 2, 2, 19, 0) + timedelta(days=rng.randrange(0, 60))
    deck = rng.sample(SMALL_TALK, len(SMALL_TALK))
    for s in range(sessions):
        clock += timedelta(days=rng.randint(2, 4), minutes=rng.randint(-90, 90))
        thread.lines.append(f"## Session {s + 1} | {clock.isoformat(timespec='minutes')}")
        talk = [deck.pop() if deck else None for _ in range(rng.randint(3, 5))]
        if None in talk:  # the deck ran out: a new shuffle, so small talk repeats as seldom as it can
            deck[:] = rng.sample(SMALL_TALK, len(SMALL_TALK))
            talk = [t or deck.pop() for t in talk]
        cues = plan[s]
        rng.shuffle(cues)
        if plan[s] and any(t.dimension == "TD" for t, _ in plan[s]):  # a change is told in order within a session too
            cues.sort(key=lambda tc: tc[0].dimension != "TD")
        slots = sorted(rng.sample(range(len(talk) + len(cues)), len(cues)))
        c = 0
        for n in range(len(talk) + len(cues)):
            if c < len(cues) and n == slots[c]:
                trait, j = cues[c]
                cue = trait.cues[j]
                lines, images = evidence[trait.key]
                if cue.trigger:
                    lines.append(thread.turn(friend, cue.trigger)[0])
                line, index = thread.turn(person, cue.line.replace("{f}", friend), cue.image)
                lines.append(line)
                if index is not None:
                    images.append(index)
                c += 1
            else:
                ask, reply = talk[n - c]
                thread.turn(friend, ask, rng.choice(FRIEND_IMAGES) if rng.random() < 0.15 else None)
                thread.turn(person, reply)
    items = [item for trait in traits for item in _items(rng, context_id, trait, person, friend, evidence[trait.key])]
    return "\n".join(thread.lines) + "\n", items


def _items(rng: random.Random, context_id: str, trait: Trait, person: str, friend: str,
           evidence: tuple[list[str], list[int]]) -> list[RefMemItem]:
    lines, images = evidence
    anchors = Evidence(tuple(lines), tuple(images))
    out = []
    for phrasing, wording in (("template", trait.template), ("held-out", rng.choice(trait.held_out))):
        question = wording.replace("{p}", person).replace("{f}", friend)
        question = question[0].upper() + question[1:]
        base = f"{context_id}:{trait.dimension}"
        sc = [trait.correct, *trait.distractors]
        rng.shuffle(sc)
        out.append(RefMemItem(f"{base}:SC:{phrasing}", context_id, trait.dimension, "SC", question, tuple(sc),
                              (LETTERS[sc.index(trait.correct)],), anchors, phrasing))
        true = rng.sample(trait.mc_true, rng.randint(2, len(trait.mc_true)))
        mc = true + rng.sample(trait.mc_false, 4 - len(true)) if len(true) < 4 else true
        rng.shuffle(mc)
        out.append(RefMemItem(f"{base}:MC:{phrasing}", context_id, trait.dimension, "MC", question, tuple(mc),
                              tuple(sorted(LETTERS[mc.index(t)] for t in true)), anchors, phrasing))
        out.append(RefMemItem(f"{base}:DA:{phrasing}", context_id, trait.dimension, "DA", question, (),
                              trait.references, anchors, phrasing))
    return out


def generate_suite(root: str | Path, size: str = "smoke", seed: int = 0) -> Suite:
    """Write (or rewrite, identically) the suite for this size and seed under `root`."""
    if size not in SIZES:
        raise ValueError(f"unknown RefMem suite size {size!r} (known: {', '.join(SIZES)})")
    rng = random.Random(f"refmem:{size}:{seed}")
    threads, items = {}, []
    for n in range(SIZES[size].contexts):
        context_id = f"ctx{n + 1:02d}"
        threads[context_id], context_items = _context(rng, context_id, SIZES[size].sessions)
        items += context_items
    return write_suite(root, threads, items)

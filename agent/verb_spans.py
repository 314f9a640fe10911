"""Spans a question's verb governs in a line, beside its object: the clause it states ("what
did she realize?" -> "self-care is really important") and what a noun made of it is of ("what
does he collect?" -> "my sneaker collection"). English grammar read off spaCy's parse."""
from __future__ import annotations

from agent.wanted import LIGHT_VERBS

COMPLEMENT_WORDS = 14  # the most words a clause the question's verb states may have to be an answer
NOMINAL_STEM = 4  # the shortest verb whose nouns ("collect" -> "collection") are read for what they are of


def complements(doc, sent, verb: str | None) -> list:
    """What the question's verb states in a sentence when its object is a clause: "I'm
    starting to realize that self-care is really important" answers "what did she realize?"
    with "self-care is really important", not the whole line. The clause's "that" or "to"
    is left out; a clause longer than a line's worth of words is the line, not its answer."""
    if verb is None or verb in LIGHT_VERBS:
        return []
    out = []
    for tok in sent:
        if tok.lemma_.lower() != verb or tok.pos_ not in ("VERB", "AUX"):
            continue
        for child in tok.children:
            if child.dep_ not in ("ccomp", "xcomp") or child.i < tok.i:
                continue
            start, end = child.left_edge.i, min(child.right_edge.i + 1, sent.end)
            while start < end and (doc[start].dep_ in ("mark", "aux") and doc[start].head.i == child.i
                                   and doc[start].lower_ in ("that", "to", "if", "whether")):
                start += 1
            clause = doc[start:end]
            if 1 < len([t for t in clause if not t.is_punct]) <= COMPLEMENT_WORDS:
                out.append(clause)
    return out


def of_the_act(doc, chunks, verb: str | None) -> list:
    """What a noun made of the question's verb is of: "my sneaker collection", "a collection
    of stamps" for "what does he collect?" ("sneaker", "stamps"), "her dance performance" for
    "what did she perform?"."""
    if verb is None or len(verb) < NOMINAL_STEM:
        return []
    base = verb[:-1] if verb.endswith("e") else verb
    out = []
    for chunk in chunks:
        root = chunk.root
        if root.pos_ != "NOUN" or root.lemma_.lower() == verb or not root.lemma_.lower().startswith(base):
            continue
        before = [t for t in chunk if t.i < root.i and t.dep_ in ("compound", "amod") and t.head.i == root.i]
        if before:
            out.append(doc[before[0].i:root.i])
        of = next((c for c in root.children if c.dep_ == "prep" and c.lower_ == "of"), None)
        out += [doc[o.left_edge.i:o.right_edge.i + 1] for o in (of.children if of is not None else ()) if o.dep_ == "pobj"]
    return out

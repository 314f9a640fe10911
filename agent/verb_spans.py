"""Spans a question's grammar picks in a line, beside its verb's object: the clause the verb
states ("what did she realize?" -> "self-care is really important"), what a noun made of it is
of ("what does he collect?" -> "my sneaker collection"), the thing a line numbers as the
question does ("what was option two?" -> "to speak with a customer advocate, press two"),
and what a copula equates with the thing a question describes ("what was grandma's gift?"
-> "this necklace is ... a gift from my grandma"). English grammar read off spaCy's parse."""
from __future__ import annotations

from agent.verbs import WANTING
from agent.wanted import LIGHT_VERBS, Wanted, asks, token_stem
from memory.language import may_name_a_date, number_of

COMPLEMENT_WORDS = 14  # the most words a clause the question's verb states may have to be an answer
# Words of courtesy a reply opens with; a sentence of them is no answer ("Thanks, Maria!").
COURTESY = {"thanks", "thank", "congrats", "congratulations", "sorry", "cheers", "hey", "hi", "hello", "bye", "wow"}
# Words that acknowledge what was said without saying anything ("Yeah, totally!", "Cool, Gina!").
ACKNOWLEDGING = {"yeah", "yes", "yep", "yup", "sure", "ok", "okay", "cool", "nice", "great", "awesome", "totally",
                 "definitely", "absolutely", "right", "true", "agreed", "indeed", "oh", "ah", "aw", "haha", "get",
                 "know", "see", "agree"}
RESTATES = 0.6  # the share of the question's words a sentence that says nothing else holds to restate it
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


_DEFINING = {"be", "define", "mean"}  # "luck is ...", "luck is defined as ...", "luck means ..."


def defines(sent, stem: str) -> bool:
    """Whether a sentence says what a thing is: its main verb a copula or "define" / "mean",
    the thing its subject (not a clause inside it: "I've realised that luck is rare")."""
    root = sent.root
    return root.lemma_.lower() in _DEFINING and not asks(sent.text) and any(
        c.dep_ in ("nsubj", "nsubjpass") and token_stem(c) == stem for c in root.children)


def equated(sent, described: tuple[str, ...], chunks) -> list:
    """What a sentence says is the thing a question describes ("what is Nate's favorite
    book?", "what was grandma's gift?"): a copula's other side, when one side holds the
    description's noun or half its words and the other does not: "Harry Potter is my
    favorite book", "my favorite character is Aragorn", "this necklace is super special to
    me - a gift from my grandma", "it is one of my favorites" (a pronoun names nothing)."""
    if not described:
        return []
    roots = {c.root.i: c for c in chunks}
    out = []
    for be in sent:
        if be.lemma_ != "be":
            continue
        subjects = [c for c in be.children if c.dep_ == "nsubj"]
        stated = [c for c in be.children if c.dep_ in ("attr", "acomp", "oprd")]
        for one, other in ((s, c) for s in subjects for c in stated):
            for side, answer in ((one, other), (other, one)):
                if not _describes(side, described) or _describes(answer, described):
                    continue
                if answer.i in roots:
                    out.append(roots[answer.i])
                elif answer.pos_ == "PROPN":  # "... is Aragorn", parsed as an adjective's place
                    out.append(sent.doc[answer.left_edge.i:answer.i + 1])
    return out


def _describes(token, described: tuple[str, ...]) -> bool:
    stems = {token_stem(t) for t in token.subtree if not t.is_punct}
    return described[0] in stems or 2 * len(stems & set(described)) >= len(described)


def numbered_items(sent, number: int | None, chunks) -> list:
    """The things a sentence pairs with the number a question's noun carries: "For billing,
    press one" and "To speak with a customer advocate, press two" list a menu's options, so
    "what was option two?" is "customer advocate". Every noun chunk of a sentence that says
    the number, the number itself left out."""
    if number is None or not any(number_of(t.lower_) == number for t in sent):
        return []
    return [chunk for chunk in chunks if not any(number_of(t.lower_) == number for t in chunk)]


def courtesy(sent) -> bool:
    """Whether a sentence only thanks, greets, exclaims or acknowledges ("Thanks, Melanie!",
    "Yeah, I get it.", "Cool, Gina!", "Wow, Melanie!"): said before an answer, it is none."""
    said = [t for t in sent if not t.is_punct and t.pos_ not in ("PROPN", "PRON", "DET", "AUX", "PART", "CCONJ", "INTJ")]
    if not said:  # an exclamation to someone; a bare name ("Rob!") may answer who
        return any(t.pos_ == "INTJ" for t in sent)
    return all(t.lower_ in COURTESY or t.lemma_.lower() in ACKNOWLEDGING for t in said)


def verbless_phrase(doc, sent):
    """The noun phrase a verbless sentence is ("The Minnesota Wolves!"), without its
    determiners; None for a sentence with a verb."""
    if any(t.pos_ in ("VERB", "AUX", "INTJ") or t.lower_ in COURTESY for t in sent):  # "Thanks!", "Wow!" answer nothing
        return None
    chunk = next((c for c in sent.noun_chunks if c.root.dep_ == "ROOT"), None)
    return without_determiners(doc, chunk) if chunk is not None else None


def coordinated(doc, chunk, chunks):
    """A noun chunk with the chunks coordinated with it, as one span: "it stands for love, faith
    and strength" stands for all three, not "love". The chunk alone when none is, or when the
    span between them holds a verb (two clauses, not one list)."""
    roots = {c.root.i: c for c in chunks}
    members = [chunk, *(roots[t.i] for t in chunk.root.conjuncts if t.i in roots)]
    if len(members) == 1:
        return chunk
    span = doc[min(m.start for m in members):max(m.end for m in members)]
    return chunk if any(t.pos_ in ("VERB", "AUX") for t in span) else span


def without_determiners(doc, chunk):
    """A noun chunk without what leads it: "the", "her", "Ann's", a stray bracket."""
    start = chunk.start
    while start < chunk.end - 1 and (doc[start].pos_ in ("DET", "PRON", "PUNCT") or doc[start].dep_ in ("poss", "case")
                                     or doc[start].tag_ == "POS"):
        start += 1
    return doc[start:chunk.end]


def restating(want: Wanted, sent, own: float) -> bool:
    """Whether a sentence only says again what the question says: most of its words, and
    nothing beside them but a time, a name or a courtesy ("Just yesterday I joined a nearby
    church." for "why did Maria join a nearby church?"). What was asked is said beside it."""
    if own < RESTATES:
        return False
    new = {token_stem(t) for t in sent if not (t.is_punct or t.is_stop or t.pos_ in ("PROPN", "PRON", "INTJ", "NUM")
                                               or may_name_a_date(t.text) or t.lower_ in COURTESY
                                               or t.lemma_.lower() in LIGHT_VERBS or frames_an_aim(t))}
    return not new - want.meeting


def frames_an_aim(verb) -> bool:
    """A verb that only frames what its infinitive says ("I wanted to feel closer" says what
    "to feel closer" says)."""
    return verb.lemma_.lower() in ("want", "need", "try", "hope", "wish") and any(c.dep_ == "xcomp" for c in verb.children)


def beside(sent):
    """The sentence said right after this one, or else right before it, that states something
    (it neither asks nor only thanks); None when there is none. A sentence saying what was
    aimed at ("I wanted to feel closer ...") follows what was done for it: the one before first."""
    sents = list(sent.doc.sents)
    at = next(i for i, s in enumerate(sents) if s.start == sent.start)
    order = (at - 1, at + 1) if any(frames_an_aim(t) for t in sent) else (at + 1, at - 1)
    return next((sents[j] for j in order if 0 <= j < len(sents)
                 and not asks(sents[j].text) and not courtesy(sents[j])), None)


_DOERS = {"you", "i", "we"}  # who a request or a promise binds: the listener, the speaker, both
_INTENDING = {"want", "plan", "hope", "need", "decide", "promise", "intend", "try", "love", "like"}


def undertaken(doc, sent) -> list:
    """The acts a line asks for, promises or intends, what "what did he ask me to do?" and
    "what did I say I'd do?" want: a full verb with a modal and "you", "I" or "we" doing it
    ("could you call the plumber", "I'll pick them up after work"), wanted or planned by them
    ("I want to go camping"), or an order ("please buy eggs"), from the verb to the end of
    what it governs ("call the plumber tomorrow morning")."""
    out = []
    for tok in sent:
        if tok.pos_ != "VERB" or any(c.dep_ == "neg" for c in tok.children):
            continue
        subjects = [c for c in tok.children if c.dep_ == "nsubj"]  # "Nina, can you book it?": Nina is called
        subject = next((c for c in subjects if c.lower_ in _DOERS), subjects[0] if subjects else None)
        modal = any(c.dep_ == "aux" and c.tag_ == "MD" for c in tok.children)
        ordered = tok.dep_ == "ROOT" and tok.tag_ == "VB" and subject is None
        if tok.dep_ == "xcomp" and tok.head.lemma_.lower() in _INTENDING:  # "I want to go camping"
            subject, modal = next((c for c in tok.head.children if c.dep_ == "nsubj"), None), True
        if not (ordered or modal and subject is not None and subject.lower_ in _DOERS):
            continue
        end = min(tok.right_edge.i + 1, sent.end)
        while end > tok.i + 1 and doc[end - 1].is_punct:
            end -= 1
        if end - tok.i <= COMPLEMENT_WORDS:
            out.append(doc[tok.i:end])
    return out


def asks_the_act(want: Wanted, doc, sent) -> bool:
    """A request asks for the act asked about ("could you buy eggs?" for "what did he ask me
    to buy?"; any request for "what did he ask me to do?" or "what did Bob want from me?"):
    it says what was asked."""
    acts = undertaken(doc, sent)
    return bool(acts) and (want.kind == "act" or want.verb in WANTING
                           or any(a.root.lemma_.lower() == want.verb for a in acts))

"""Slots from a question's grammar: spaCy for entities, noun chunks and dependencies,
dateparser for dates, a table of day parts for the hours a meal or part of the day names.

Nothing here knows a question template: people are PERSON entities and proper nouns,
the wearer is the first person, places are prepositional objects of being / going
somewhere (or names memory already knows as places), objects are the remaining noun
chunks, times are DATE / TIME entities and day-part nouns with the preposition that
relates them ("after lunch") or a clause that anchors them ("the day Bob called").
"""
from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from datetime import datetime

from agent.parse_repairs import repaired
from agent.plan import WEARER, TimeSlot
from agent.question_time import DAY_PARTS, phrase, time_slot
from memory.language import ENGLISH_MODEL, english, looks_ahead, quoted

_DAY_PART_PREFIX = re.compile(rf"\b(pre|post)-(?=(?:{'|'.join(DAY_PARTS)})\b)", re.I)
_FIRST_PERSON = {"i", "me", "my", "mine", "myself", "we", "us", "our", "ours"}
# Entity types a name-like word cannot be a person's name under.
_NOT_PEOPLE = {"DATE", "TIME", "CARDINAL", "ORDINAL", "MONEY", "QUANTITY", "PERCENT", "GPE", "LOC", "FAC"}
# Nouns that name a stretch of time, never a place or a thing ("at the moment", "in a while").
_TEMPORAL_NOUNS = {"moment", "minute", "second", "hour", "while", "instant", "now"}
# Verbs whose object is a person ("tell Carol", "talk to Sam"): a proper noun there names someone.
_SOCIAL_VERBS = {"tell", "ask", "call", "text", "message", "email", "meet", "remind", "promise", "thank", "help",
                 "visit", "talk", "speak", "chat", "phone", "see", "bring", "give", "send", "show"}
_SAYING = {"say", "want", "mention", "suggest", "offer", "reply", "answer", "explain", "need"}
# Nouns that name kinds of place rather than a thing seen ("how many rooms", "every room it was in").
PLACE_KINDS = {"room", "place", "shop", "store", "location", "spot", "building", "stop"}
# Nouns that say something about a thing rather than name one ("the bottle's trail").
_RELATIONAL = {"trail", "path", "route", "location", "whereabouts", "history", "journey", "position", "state",
               "condition", "colour", "color", "movement", "track"}
# Nouns that hedge rather than name ("any idea where ...", "no clue what ...").
_HEDGES = {"idea", "clue", "chance", "notion"}
# Nouns that name the kind of answer wanted; "which locker" names its topic instead.
_ANSWER_KINDS = {"time", "day", "date", "colour", "color", "order", "kind", "type", "number", "name", "place", "one",
                 "way", "sort"}
_CONTENT_POS = {"NOUN", "PROPN", "ADJ", "NUM", "VERB"}
_DROP_POS = {"DET", "PRON", "PART", "PUNCT", "AUX", "CCONJ", "SCONJ", "INTJ", "SPACE"}


class SpacyPipeline:
    """Loads the English pipeline on first use (never at import). The last `cache_size`
    texts' parses are kept: the tools of many questions read the same remembered lines."""

    def __init__(self, model: str = ENGLISH_MODEL, cache_size: int = 4096):
        self.model = model
        self.cache_size = cache_size
        self._docs: OrderedDict[str, object] = OrderedDict()
        self._lock = threading.Lock()

    def __call__(self, text: str):
        with self._lock:
            doc = self._docs.get(text)
            if doc is not None:
                self._docs.move_to_end(text)
                return doc
        doc = repaired(english(self.model)(text))
        self._keep({text: doc})
        return doc

    def prefetch(self, texts: Iterable[str]) -> None:
        """Parse the texts not parsed yet in one batch: spaCy's `pipe` takes about half the
        time per text of one call each, and a reader parses a dozen records a question."""
        with self._lock:
            todo = [t for t in dict.fromkeys(texts) if t not in self._docs]
        if todo:
            self._keep({t: repaired(d) for t, d in zip(todo, english(self.model).pipe(todo))})

    def _keep(self, docs: dict[str, object]) -> None:
        with self._lock:
            self._docs.update(docs)
            while len(self._docs) > self.cache_size:
                self._docs.popitem(last=False)


@dataclass
class QuestionParse:
    text: str  # the question without a wake word
    wh: str | None  # the question word that decides the answer type ("where", "how long", ...)
    yes_no: bool
    people: list[str] = field(default_factory=list)
    speaker: str | None = None
    listener: str | None = None
    places: list[str] = field(default_factory=list)
    objects: list[str] = field(default_factory=list)
    topic: list[str] = field(default_factory=list)
    event: str = ""
    root_lemma: str = ""
    time: TimeSlot = field(default_factory=TimeSlot)
    money: bool = False
    every_place: bool = False  # "every room / all the places ...": a list of places is asked
    wearer_intends: bool = False  # "what did I say I'd bring": the wearer's own commitment or plan
    asked_of_wearer: bool = False  # "what did Alice want me to get": a request to the wearer
    talked_about: bool = False  # "Tom got back to me about ...": the main verb reports talk on a topic
    time_is_content: bool = False  # "which day was the note for?": a date written or said, not when it happened
    modifiers: list[str] = field(default_factory=list)  # nouns that qualify a thing ("pharmacy" receipt)
    asking: str = ""  # the question without the event its time is anchored on: what the intent is read from
    listed: list[str] = field(default_factory=list)  # coordinated items ("the gym, the cafe and the library")
    topic_nouns: list[str] = field(default_factory=list)  # what a "which X" asks about
    one_past_event: bool = False  # "what did Bob ask": simple past, one event, not a disposition
    existential: bool = False  # "was there a table?": whether something was there at all
    in_hand: str | None = None  # whose hand: "what was I holding?" (WEARER), "what did she pick up?" ("someone")
    what_was_at: bool = False  # "what was sitting on the desk?": a thing at a place, not the place's state
    ahead: bool = False  # "when is Tom coming?", "what will I need?": asked of what is still to come
    now: bool = False  # "is my mug in the kitchen?", "when's the review?": a present "be", how things stand
    choice: bool = False  # "was it full or empty?": the question offers the answers to choose from


# Words that open an address to the assistant rather than the question ("OK glasses, ...",
# "so, ...", "right, ..."): general English discourse markers.
_DISCOURSE = {"ok", "okay", "hey", "hi", "hello", "yo", "so", "well", "alright", "right", "um", "uh", "oh", "now",
              "listen", "quick", "question", "please"}


def _asks_in_hand(doc, root) -> str | None:
    """Whose hand the question asks about, if it asks what someone held: a verb of holding
    asked with "what" or "which" ("what was I holding", "what did she pick up"), drinking
    "out of" what, or a thing "in my hand". WEARER for the wearer's, else "someone"."""
    hand = next((t for t in doc if t.lemma_ == "hand" and t.dep_ == "pobj" and t.head.lower_ == "in"), None)
    if hand is not None:
        return WEARER if any(c.lower_ in _FIRST_PERSON for c in hand.children) else "someone"
    if root is None or not any(t.lower_ in ("what", "which") for t in doc):
        return None

    def holds(verb) -> bool:
        return verb.lemma_ in _IN_HAND_VERBS and (
            verb.lemma_ != "pick" or any(c.dep_ == "prt" and c.lower_ == "up" for c in verb.children)) or (
            verb.lemma_ in _FROM_HAND_VERBS and any(c.lower_ in ("out", "from") for c in verb.children))

    # the main verb, or a participle the parser hung elsewhere ("which bag was Bob carrying")
    verb = next((v for v in [root, *(t for t in doc if t.pos_ == "VERB")] if holds(v)), None)
    if verb is None:
        return None
    subject = next((c for v in (verb, root) for c in v.children if c.dep_ in ("nsubj", "nsubjpass")), None)
    return WEARER if subject is not None and subject.lower_ in _FIRST_PERSON else "someone"


def _present_be(doc) -> bool:
    """The question's main verb is "be" in the present: it asks how things stand now."""
    root = next((t for t in doc if t.dep_ == "ROOT"), None)
    return root is not None and root.lemma_ == "be" and root.tag_ in ("VBZ", "VBP")


def _simple_past(verb) -> bool:
    """The main verb in the simple past ("did Bob ask", "Bob asked"): a question about one
    event. A habit, a view or a change is asked in the present, the perfect or with a modal
    ("does he tend to", "has she come around", "would she"), which this leaves out."""
    if verb is None:
        return False
    auxes = [c for c in verb.children if c.dep_ in ("aux", "auxpass")]
    if any(a.tag_ == "MD" or a.lemma_ == "have" for a in auxes):
        return False
    return verb.tag_ == "VBD" or any(a.lemma_ == "do" and a.tag_ == "VBD" for a in auxes)


def _strip_wake(doc) -> int:
    """Index of the first token after a leading address ("Hey glasses, ...", "OK so, ...",
    "okay glasses, ..."): an interjection or discourse marker, then up to three words with
    no verb, then a comma."""
    if not len(doc) or not (doc[0].pos_ == "INTJ" or doc[0].lower_ in _DISCOURSE):
        return 0
    comma = next((t.i for t in doc[:5] if t.text == ","), None)
    if comma is None:
        return 1 if doc[0].pos_ == "INTJ" else 0
    between = doc[1:comma]
    return comma + 1 if not any(t.pos_ in ("VERB", "AUX") for t in between) else 0


def asked_degree(tok) -> bool:
    """Whether a token is the degree a "how" asks ("long" in "how long", "old" in "how old"):
    part of the question word, not a word of what is asked about."""
    return tok.i > 0 and tok.doc[tok.i - 1].lower_ == "how" and tok.pos_ in ("ADV", "ADJ")


def without_address(nlp: SpacyPipeline, text: str):
    """The parsed question without a leading address to the assistant: the parser reads the
    question alone better than after "ok glasses,"."""
    doc = nlp(text)
    start = _strip_wake(doc)
    return nlp(doc[start:].text) if start else doc


def _chunk_text(span) -> str:
    """A noun chunk without determiners and possessives: "my black scissors" -> "black scissors"."""
    words = [t.text for t in span if t.pos_ not in ("DET", "PRON") and t.dep_ != "poss" and t.tag_ != "POS"]
    return " ".join(words).strip().lower()


# Prepositions that put something somewhere ("a mug in the bathroom", "back to the garage").
_LOCATIVE = {"in", "at", "inside", "into", "to", "from", "near", "outside", "behind"}


def located_nouns(doc) -> list[str]:
    """The nouns a question puts something in, at or near ("was there a mug in the bathroom?"):
    those that may name a place memory never saw the wearer in; the caller asks WordNet which do.
    A kind of place ("which room") names the answer instead."""
    return [_chunk_text(c) for c in doc.noun_chunks if c.root.dep_ == "pobj" and c.root.head.lower_ in _LOCATIVE
            and c.root.pos_ == "NOUN" and _chunk_text(c) not in PLACE_KINDS and not any(t.tag_ == "WDT" for t in c)]


_WH_WORDS = {"where", "when", "who", "whom", "whose", "what", "which", "how"}
_LEADING_MARKS = {"after", "before", "once", "when", "while", "since", "until"}
# Verbs that frame an embedded question ("do you remember where ...", "remind me what ...").
_FRAMES = {"remember", "know", "recall", "remind", "tell", "wonder", "think", "guess", "say", "show"}
# Nouns that name the kind of answer in a question without a question word ("meeting time?").
_ANSWER_NOUNS = {"time": "what time", "day": "what day", "date": "what date", "order": "what order",
                 "condition": "what condition", "state": "what condition"}
# Nouns that ask for a count of what their "of" names ("the number of mugs", "a count of visits").
_COUNT_NOUNS = {"number", "count", "amount", "total", "tally"}
# Verbs whose object is in the subject's hand ("what was I holding", "what did she pick up"),
# and verbs whose "out of" / "from" names a thing in hand ("what was I drinking out of").
_IN_HAND_VERBS = {"hold", "carry", "grab", "grip", "clutch", "lift", "pick", "wield"}
_FROM_HAND_VERBS = {"drink", "eat", "sip", "pour"}
HOLDING_VERBS = frozenset(_IN_HAND_VERBS | _FROM_HAND_VERBS)  # with these, a named thing is around the held one
# Nouns that say how much of a thing there was ("lots of people", "a couple of cars"): the
# thing is what follows "of".
_QUANTITY_NOUNS = {"lot", "lots", "plenty", "bunch", "couple", "load", "loads", "handful", "few", "dozen", "ton",
                   "tons", "heap", "heaps", "crowd", "group", "pair"}


def _only_refers_back(root) -> bool:
    """A question that only points back at what was just said ("What was it?", "who was that?")."""
    words = [t for t in root.subtree if not t.is_punct]
    return root.lemma_ == "be" and len(words) <= 4 and any(t.lower_ in ("it", "that", "this", "they") for t in words) \
        and any(t.lower_ in _WH_WORDS for t in words)


def main_verb(doc):
    """The verb the question is about: the root, or the clause a framing verb embeds
    ("do you remember [the order I went ...]", "remind me [what I promised ...]")."""
    # Several sentences ("The library, I keep going back. How many visits is that?"): the one that asks.
    sentences = list(doc.sents)
    asking = [s for s in sentences if any(t.lower_ in _WH_WORDS for t in s)] or sentences
    root = asking[-1].root if asking else None
    told = [s for s in sentences if s.end <= asking[-1].start] if asking else []
    if root is not None and told and _only_refers_back(root):
        root = told[-1].root  # "Tom got back to me about the meeting. Who was it?": the statement holds the verb
    if root is None or root.lemma_ not in _FRAMES:
        return root, False
    subjects = [c for c in root.children if c.dep_ in ("nsubj", "nsubjpass")]
    if subjects and subjects[0].lower_ != "you":
        return root, False
    embedded = next((c for c in root.children if c.dep_ in ("ccomp", "xcomp", "advcl")), None)
    if embedded is None:
        obj = next((c for c in root.children if c.dep_ == "dobj" and c.lower_ not in _FIRST_PERSON), None)
        embedded = next((c for c in obj.subtree if c.dep_ in ("relcl", "acl") and c.pos_ in ("VERB", "AUX")), None) if obj else None
    return (embedded, True) if embedded is not None else (root, False)


def _wh(doc, indirect: bool, times: set[int] = frozenset()) -> tuple[str | None, bool]:
    toks = [t for t in doc if not t.is_punct]
    if not toks:
        return None, False
    lowers = [t.lower_ for t in toks]
    if any(w in ("what", "which") and nxt in ("condition", "state") for w, nxt in zip(lowers, lowers[1:])):
        return "what condition", False  # "where was the pan, and in what condition?": a state answers both
    for i, w in enumerate(lowers):
        nxt = lowers[i + 1] if i + 1 < len(lowers) else ""
        if w == "how" and nxt in ("many", "much", "long", "often"):
            return f"how {nxt}", False
        if w in ("what", "which") and nxt in ("time", "day", "date", "colour", "color", "place", "room", "order"):
            return f"{w} {nxt}", False
        if w in ("what", "which") and nxt == "shape":
            return "what condition", False
        if w in ("where", "when", "who", "whom", "whose", "what", "which", "why", "how"):
            return w, False
    noun = next((_ANSWER_NOUNS[t.lower_] for t in toks
                 if t.lower_ in _ANSWER_NOUNS and t.pos_ == "NOUN" and t.i not in times), None)
    polite = len(lowers) > 1 and lowers[0] in ("can", "could", "would", "will") and lowers[1] == "you"  # "can you trace ..."
    yes_no = not indirect and not polite and (toks[0].pos_ == "AUX" or toks[0].lemma_ in ("do", "be", "have"))
    return (noun, False) if noun and not yes_no else (None, yes_no)


_MONEY = {"spend", "cost", "pay", "price", "charge", "owe", "total", "bill", "dollar", "euro", "pound", "cent"}
_MODAL_FUTURE = {"will", "would", "'d", "'ll", "shall", "going", "gon", "have", "need", "must", "should", "supposed"}
_REQUEST_VERBS = {"ask", "want", "expect", "need", "request", "remind", "tell", "beg", "get"}


def _told_before(doc, comma: int | None) -> bool:
    """Whether a statement comes before the question, with only a comma between ("I need to
    get my laptop online, what's the code?"): a clause of its own (a subject and a verb no
    "after" or "when" subordinates), then a question word. Its words are context; the
    question after it says what is asked."""
    if comma is None or comma + 1 >= len(doc) or doc[comma + 1].lower_ not in _WH_WORDS:
        return False
    def subordinated(verb) -> bool:  # "after I saw Bob left": a mark on the verb or on a clause above it
        return any(c.dep_ == "mark" or (c.dep_ == "advmod" and c.lower_ in _LEADING_MARKS)
                   for v in (verb, *verb.ancestors) if v.i < comma for c in v.children)

    return any(t.pos_ in ("VERB", "AUX") and any(c.dep_ in ("nsubj", "nsubjpass") for c in t.children)
               and not subordinated(t) for t in doc[:comma])


# "is there somewhere I always go ...?", "is there anyone who ...?": the indefinite is what is asked
_INDEFINITE_ASKS = {"somewhere": "where", "anywhere": "where", "someplace": "where", "someone": "who",
                    "anyone": "who", "somebody": "who", "anybody": "who"}


def _indefinite_asks(doc, parse: QuestionParse) -> None:
    """"Is there somewhere I always end up after lunch?" asks where, not whether; "where all
    has it been?" asks every place (a list), as "every room" does."""
    if parse.yes_no and parse.existential:
        asked = next((t for t in doc if t.lower_ in _INDEFINITE_ASKS and t.dep_ in ("attr", "nsubj", "advmod")), None)
        if asked is not None:
            parse.wh, parse.yes_no = _INDEFINITE_ASKS[asked.lower_], False
    if parse.wh == "where" and any(t.lower_ == "all" and t.i > 0 and doc[t.i - 1].lower_ == "where" for t in doc):
        parse.every_place = True


def _speech_act_shape(doc) -> tuple[bool, bool]:
    """The grammar of a commitment ("what did I say I'd bring", "what do I have to do")
    and of a request ("what does Alice want me to pick up", "who asked me to call"), read
    in the sentence that asks (a statement before it is context)."""
    intends = asked = False
    for tok in doc:
        if tok.pos_ not in ("VERB", "AUX"):
            continue
        subject = next((c for c in tok.children if c.dep_ in ("nsubj", "nsubjpass")), None)
        first_person = subject is not None and subject.lower_ in ("i", "we")
        modals = [c for c in tok.children if c.dep_ in ("aux", "auxpass") and c.lower_ in _MODAL_FUTURE
                  and not (c.lower_ == "'d" and c.i > 0 and doc[c.i - 1].lower_ in _WH_WORDS)]  # where'd = where did
        if first_person and modals and tok.dep_ in ("ccomp", "xcomp", "relcl"):
            intends = True
        if first_person and tok.lemma_ in ("promise", "plan", "intend", "agree", "commit", "offer"):
            intends = True
        if first_person and (tok.lemma_ in ("have", "need") and any(c.dep_ == "xcomp" for c in tok.children)
                             or any(c.dep_ == "aux" and c.lower_ in ("should", "must") for c in tok.children)):
            intends = True  # "something I have to do", "what do I need to buy", "what should I pick up": mine to do
        if first_person and tok.lemma_ == "go" and tok.tag_ == "VBG" and any(c.dep_ == "xcomp" for c in tok.children):
            intends = True  # "what was I going to pick up"
        wearer_object = any(c.dep_ in ("dobj", "dative", "nsubj") and c.lower_ in ("me", "us") for c in tok.children) or \
            any(c.dep_ in ("xcomp", "ccomp") and any(g.dep_ == "nsubj" and g.lower_ in ("me", "us") for g in c.children)
                for c in tok.children)
        someone_else = subject is not None and subject.lower_ not in ("i", "we", "you")
        if tok.lemma_ in _REQUEST_VERBS and wearer_object and someone_else and \
                any(c.dep_ in ("xcomp", "ccomp") for c in tok.children):
            asked = True
    return intends, asked


_AT = {"on", "in", "under", "beneath", "underneath", "behind", "beside", "inside", "above", "near", "by", "against"}


def _asks_what_was_at(doc, root) -> bool:
    """Whether the question word is what stood somewhere ("what was sitting on the desk?",
    "what was in the box?"): the question is about a thing at that place, not the place."""
    if root is None or any(c.dep_ == "dobj" for c in root.children):
        return False
    subject = any(c.lower_ in ("what", "which") and c.dep_ in ("nsubj", "nsubjpass") for c in root.children)
    return subject and any(c.dep_ == "prep" and c.lower_ in _AT and any(g.dep_ == "pobj" for g in c.children)
                           for c in root.children)


def parse_question(nlp: SpacyPipeline, question: str, at: datetime | None,
                   known_places: Collection[str] = (), known_people: Collection[str] = ()) -> QuestionParse:
    # "post-lunch" / "pre-dinner" are "after lunch" / "before dinner" to the parser; "pre-season"
    # or "post-war" is a word of its own, not a time of day
    question = _DAY_PART_PREFIX.sub(lambda m: "after " if m[1].lower() == "post" else "before ", question)
    doc = without_address(nlp, question)
    # "after I left the office, where did I go?": a leading time clause often misleads the parser;
    # the same question with the clause last ("where did I go after I left the office?") does not.
    comma = next((t.i for t in doc if t.text == ","), None)
    told = _told_before(doc, comma)
    if told:  # "I need to get my laptop online, what's the code?": a statement, then the question
        doc = nlp(f"{doc[:comma].text}. {doc[comma + 1].text[:1].upper()}{doc[comma + 1:].text[1:]}")
    elif len(doc) and doc[0].lower_ in _LEADING_MARKS and comma is not None and comma + 1 < len(doc):
        doc = nlp(f"{doc[comma + 1:].text.rstrip('?. ')} {doc[:comma].text}?")
    verb, indirect = main_verb(doc)
    time, used, anchored = time_slot(doc, at)
    wh, yes_no = _wh(doc, indirect, used)
    # "... - which day?": the noun a question word asks for names the answer, not a topic
    used.update(t.i for t in doc if t.lower_ in _ANSWER_KINDS
                and any(c.lower_ in ("which", "what") and c.dep_ == "det" for c in t.children))
    places_known = {p.lower() for p in known_places}
    people_known = {p.lower() for p in known_people}
    root = verb
    if indirect:  # the framing verb ("remember", "remind") is not what the question is about
        used.update(t.i for t in doc if t.dep_ == "ROOT")
    parse = QuestionParse(text=doc.text, wh=wh, yes_no=yes_no, root_lemma=root.lemma_.lower() if root else "",
                          time=time, asking="".join(t.text_with_ws for t in doc if t.i not in anchored).strip(),
                          one_past_event=_simple_past(root),
                          existential=any(t.dep_ == "expl" and t.head == root for t in doc),
                          in_hand=_asks_in_hand(doc, root), what_was_at=_asks_what_was_at(doc, root),
                          ahead=looks_ahead(doc), now=_present_be(doc),
                          choice=any(t.dep_ == "cc" and t.lower_ == "or" for t in doc))
    people: list[str] = []
    titled = quoted(doc)  # "what is "Little Women" about?": a title names no one
    for ent in doc.ents:
        # a name that only modifies a noun names a thing: "the Harry Potter universe" asks about
        # a universe, "the Obama administration" about an administration, not about a person
        names_a_thing = ent.root.dep_ == "compound" and ent.root.head.pos_ == "NOUN"
        if ent.label_ == "PERSON" and ent.text.lower() not in places_known and ent.text[:1].isupper() \
                and not names_a_thing and ent.start not in titled:
            people.append(ent.text)
            used.update(range(ent.start, ent.end))
    for tok in doc:  # names NER missed: known speakers, or a proper noun that acts (subject)
        if tok.i in used or tok.i in titled or tok.text.lower() in places_known:
            continue
        governor = tok.head.head if tok.dep_ == "pobj" else tok.head
        acts_socially = tok.dep_ == "nsubj" or (tok.dep_ in ("dobj", "dative", "pobj") and governor.lemma_ in _SOCIAL_VERBS)
        capitalised = tok.text[:1].isupper() and not tok.text.isupper() and tok.i != tok.sent.start  # "TV" is no one
        # "Grace asked me ...": a bare capitalised subject of asking or saying is someone, even first in a sentence
        speaks = (tok.dep_ == "nsubj" and tok.text[:1].isupper() and tok.text != "I" and tok.tag_ in ("NN", "NNP")
                  and tok.head.lemma_ in _SOCIAL_VERBS | _SAYING and not any(c.dep_ in ("det", "poss") for c in tok.children))
        name_like = speaks or (tok.pos_ == "PROPN" and acts_socially and (capitalised or tok.dep_ != "nsubj")) or (
            capitalised and tok.pos_ in ("PROPN", "NOUN") and tok.dep_ in ("nsubj", "dobj", "dative", "pobj"))
        if tok.text.lower() in people_known or (tok.ent_type_ not in _NOT_PEOPLE and name_like):
            people.append(tok.text)
            used.add(tok.i)
    parse.people = list(dict.fromkeys(people))
    # speaker / listener: the subject and the addressee of the main verb
    for tok in doc:
        if tok.head.i == (root.i if root else -1):
            who = WEARER if tok.lower_ in _FIRST_PERSON else (tok.text if tok.text in parse.people else None)
            if who is None and tok.lower_ in ("he", "she", "they") and len(parse.people) == 1:
                who = parse.people[0]  # "Peter talked to me ... what did he say?"
            if tok.dep_ in ("nsubj", "nsubjpass") and who:
                parse.speaker = who
            elif tok.dep_ in ("dobj", "dative", "iobj") and who and tok.lower_ not in ("what", "who"):
                parse.listener = who
        if tok.dep_ == "pobj" and tok.head.lower_ in ("to", "with") and tok.head.head.i == (root.i if root else -1):
            who = WEARER if tok.lower_ in _FIRST_PERSON else (tok.text if tok.text in parse.people else None)
            if who:
                parse.listener = who
    # places and objects from noun chunks
    for chunk in doc.noun_chunks:
        if all(t.i in used for t in chunk) or chunk.root.pos_ == "PRON":
            continue
        if chunk.root.lower_ in ("what", "which", "who", "anything", "something", "anyone", "someone"):
            continue
        vague_time = chunk.root.lemma_ in ("point", "stage") and chunk.root.head.lower_ == "at" and any(
            t.lower_ in ("some", "one", "any", "that", "this") for t in chunk)  # "at some point"
        if chunk.root.lemma_ in _TEMPORAL_NOUNS or vague_time:
            used.update(t.i for t in chunk)
            continue
        if chunk.root.lemma_ in _COUNT_NOUNS and any(c.lower_ == "of" for c in chunk.root.children) \
                and parse.wh in (None, "what", "how much"):
            parse.wh = "how many"  # "tell me the number of mugs I've seen": a count is asked
            used.update(t.i for t in chunk)
            continue
        if chunk.root.lemma_ in _QUANTITY_NOUNS and any(c.lower_ == "of" for c in chunk.root.children):
            used.update(t.i for t in chunk)  # "lots of people": the people are the thing
            continue
        if chunk.root.lemma_ == "hand" and chunk.root.head.lower_ == "in" and parse.in_hand:
            used.update(t.i for t in chunk)  # "the cup in my hand": where it was, not a thing of its own
            continue
        if chunk.root.lemma_ == "way" and chunk.root.head.lower_ in ("on", "along", "by") and not any(
                c.dep_ == "prep" and c.lower_ == "of" for c in chunk.root.children):
            used.update(t.i for t in chunk)  # "on my way in", "along the way": en route, not a thing
            continue
        quantifier = next((t.lower_ for t in chunk if t.lower_ in ("every", "all", "each", "which", "what")), None)
        if chunk.root.lemma_ in PLACE_KINDS and wh != "how many" and _chunk_text(chunk) not in places_known:
            # "every room / the places my keys were in": a kind of place names the answer, not a thing
            parse.wh = "where" if parse.wh in (None, "what", "which") else parse.wh
            parse.every_place = quantifier in ("every", "all", "each") or chunk.root.tag_ == "NNS"
            used.update(t.i for t in chunk)
            continue
        known = chunk.root.lemma_ in places_known or _chunk_text(chunk) in places_known
        if not known and chunk.root.lemma_ in _HEDGES and any(t.lower_ in ("any", "no") for t in chunk):
            used.update(t.i for t in chunk)  # "any idea where ...": a frame around the question, not a thing
            continue
        if wh == "what" and chunk.root.lower_ in ("time", "day", "date") and chunk.root.dep_ != "pobj":
            parse.wh = f"what {chunk.root.lower_}"  # "what's the dentist time now?": a time is asked
            parse.topic_nouns += [t.lower_ for t in chunk if t.dep_ == "compound"]
            used.update(t.i for t in chunk)
            continue
        if wh and wh.split()[-1] == chunk.root.lower_ and chunk.root.lower_ in _ANSWER_KINDS:
            # "the order I went ...", "budget review time?": the noun the answer fills; its modifiers say of what
            parse.topic_nouns += [t.lower_ for t in chunk if t.dep_ in ("compound", "amod") and t.i not in used]
            used.update(t.i for t in chunk)
            continue
        asked = [t for t in chunk if t.lower_ in ("what", "which", "how", "many", "much")]
        if asked and wh != "how many":  # "what colour", "which day": the noun names the answer, not a thing
            if chunk.root.lower_ not in _ANSWER_KINDS:  # "which locker": what the answer is about
                parse.topic_nouns.append(chunk.root.lower_)
            used.update(t.i for t in chunk)
            continue
        owner = next((t for t in chunk if t.dep_ == "poss" and t.pos_ in ("NOUN", "PROPN")), None)
        if owner is not None and chunk.root.lemma_ in _RELATIONAL:  # "the bottle's trail": the bottle is the thing
            parse.objects.append(owner.lower_)
            used.update(t.i for t in chunk)
            continue
        if chunk.root.lemma_ in _RELATIONAL and chunk.root.lemma_ not in places_known:
            parse.topic_nouns.append(chunk.root.lower_)  # "the pan: state and place?": what is asked of it
            used.update(t.i for t in chunk)
            continue
        text = _chunk_text([t for t in chunk if t.i not in used and t not in asked])
        if not text or text in (p.lower() for p in parse.people):
            continue
        head = chunk.root.head
        if head.lower_ in ("in", "at", "on") and not any(t.dep_ in ("det", "poss") for t in chunk) and any(
                c.dep_ == "prep" and c.lower_ == "of" for c in chunk.root.children):
            used.update(t.i for t in chunk)  # "in charge of", "in front of": a preposition, not a place
            continue
        is_place = text in places_known or chunk.root.lemma_ in places_known or (
            chunk.root.dep_ == "pobj" and head.lower_ in ("in", "at", "to", "into", "inside", "from")
            and head.head.lemma_ in ("be", "go", "stay", "spend", "come", "visit", "get", "leave", "have", "eat", "work",
                                     "pay", "buy", "shop", "meet")
            and not (head.lower_ == "in" and head.head.lemma_ in ("leave", "put")))
        if chunk.root.dep_ == "dobj" and chunk.root.head.lemma_ in ("visit",):
            is_place = True
        (parse.places if is_place else parse.objects).append(text)
        if chunk.root.dep_ == "conj" or any(c.dep_ == "conj" for c in chunk.root.children):
            parse.listed.append(text)  # "the gym, the cafe and the library": items of a list
        if not is_place:  # "pharmacy receipt": what the thing presupposes; "office stint": where it was
            compounds = [t.lower_ for t in chunk if t.dep_ == "compound" and t.i not in used]
            parse.places += [c for c in compounds if c in places_known]
            parse.modifiers += [c for c in compounds if c not in places_known]
            if chunk.root.dep_ == "pobj" and head.lower_ in ("from", "about", "of") and head.head.pos_ == "NOUN" \
                    and head.head.lemma_ not in _QUANTITY_NOUNS | _COUNT_NOUNS:
                parse.modifiers.append(text)  # "the receipt from the pharmacy" presupposes the pharmacy
        used.update(t.i for t in chunk)
    lowered = f" {' '.join(t.lower_ for t in doc if t.i not in used)} "
    parse.places += [p for p in sorted(places_known, key=len, reverse=True) if f" {p} " in lowered]
    parse.places = list(dict.fromkeys(parse.places))
    parse.objects = list(dict.fromkeys(parse.objects))
    _indefinite_asks(doc, parse)
    parse.money = wh in ("how much", "what") and not (wh == "how much" and any(t.lemma_ == "time" for t in doc)) and any(
        t.lemma_ in _MONEY or t.tag_ == "$" for t in doc)
    parse.wearer_intends, parse.asked_of_wearer = _speech_act_shape(root.sent if root is not None else doc)
    if time.ahead and parse.speaker == WEARER and not parse.asked_of_wearer:
        parse.wearer_intends = True  # "what am I doing tomorrow?": memory knows a day ahead only as a plan
    if parse.wearer_intends or parse.asked_of_wearer:
        parse.in_hand = None  # "what was I going to pick up?": a plan or an errand, not a thing seen in hand
    parse.time_is_content = wh in ("what day", "which day", "what date", "which date") and any(
        t.lower_ == "for" and t.dep_ == "prep" and not any(c.dep_ == "pobj" for c in t.children) for t in doc)
    parse.talked_about = root is not None and any(c.dep_ == "prep" and c.lower_ == "about" for c in root.children)
    frame = root.i if root is not None else -1
    topic = []
    for tok in doc:
        # A content word the tagger called an adverb ("I ate [oatmeal]") still names what is asked about.
        mistagged = tok.pos_ == "ADV" and not tok.lower_.endswith("ly") and tok.lower_ not in ("earlier", "later", "ago")
        if tok.i in used or tok.is_stop or asked_degree(tok) or (tok.pos_ not in _CONTENT_POS and not mistagged) or \
                tok.i == frame and tok.pos_ == "VERB":
            continue
        topic.append(tok.lemma_.lower() if tok.pos_ == "VERB" else tok.lower_)
    parse.topic = list(dict.fromkeys(parse.topic_nouns + topic))
    parse.event = phrase(t for t in doc if t.i not in used and t.pos_ not in _DROP_POS
                          and t.lower_ not in ("what", "when", "where", "who", "which", "how"))
    return parse

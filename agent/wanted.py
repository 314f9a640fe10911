"""What kind of answer a question asks for, read from its grammar: its question word ("who",
"where", "how long"), the noun that names the kind ("what city", "which year", "what kind of
bread") or the verb whose object is asked ("what does he sell?"). English question grammar,
not a question template: agent.reader reads an answer of that kind out of the evidence."""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property

from agent.question_nlp import SpacyPipeline, asked_degree, without_address
from agent.verbs import ASKING, ASKING_OF, REPORTING
from memory.language import QUESTION_WORDS, STOP, number_of, quoted, s_stem, singular, stem, unclipped

# Nouns that name the kind of answer a "what / which <noun>" question wants (general English).
KIND_NOUNS = {
    "person": {"name", "person", "man", "woman", "guy", "girl", "boy", "speaker", "caller", "host", "presenter",
               "author", "artist", "singer", "lady", "gentleman", "kid", "child"},
    "place": {"city", "town", "country", "state", "place", "location", "area", "neighbourhood", "neighborhood",
              "street", "address", "venue", "region", "continent", "village", "island", "province", "county"},
    "date": {"year", "month", "date", "day", "season", "decade", "week", "weekday"},
    "time": {"time", "hour"},
    "colour": {"colour", "color", "shade"},
    "number": {"number", "age", "score", "percentage", "figure", "digit"},
    "code": {"extension", "code", "pin", "passcode", "password", "key", "button", "combination", "reference"},
    "money": {"price", "cost", "fee", "salary", "fare", "rent"},
    "organisation": {"company", "organisation", "organization", "team", "band", "brand", "firm", "agency", "club",
                     "employer", "studio", "channel", "network", "charity", "label", "publisher"},
}
# Verbs that ask for words said or shown ("what did the screen say?"): the answer is a quote.
_QUOTING = {"say", "tell", "read", "write", "show", "mean", "announce", "ask", "reply", "answer", "mention"}
# Verbs too light to locate an answer by ("what did she do", "what is it").
LIGHT_VERBS = {"be", "do", "have", "get", "go", "make", "happen"}
# Verbs whose "how" asks what something was like ("how did she feel?", "how was the trip?",
# "how does he describe the view?"), answered by a description ("nervous", "amazing"), not a means.
_APPRAISING = {"feel", "describe", "be", "seem", "look", "sound", "find", "go", "do", "react", "like", "enjoy"}


@dataclass(frozen=True)
class Wanted:
    """What kind of answer a question asks for. `kind` is one of person, place, date, time,
    number, code, duration, money, colour, organisation, frequency, quality (what something
    was like), thing, reason, quote, yes_no; `hint` the noun naming it ("bread" in "what kind
    of bread"), `verb` the question's own verb."""

    kind: str
    hint: str | None = None
    verb: str | None = None
    words: frozenset[str] = field(default_factory=frozenset)  # the question's content stems
    preps: frozenset[str] = field(default_factory=frozenset)  # its stranded prepositions ("where is she from")
    people: frozenset[str] = field(default_factory=frozenset)  # the names it asks about, lower case
    source: str | None = None  # the recording the question is asked within (its video id), when it names one
    subject: bool = False  # the question word is its verb's subject ("who presented it?": whoever presents)
    many: bool = False  # the noun naming the kind is plural ("what hobbies does she have?"): every one is asked
    defines: str | None = None  # "what is luck?": the stem of the noun a line saying what it is answers
    same_acts: frozenset[str] = field(default_factory=frozenset)  # verbs naming its verb's act ("call" for "ring")
    numbered: int | None = None  # the number its noun carries ("what was option two?"): the item a line numbers so
    light: bool = False  # its act is a light verb ("get it over to Bob"): a line's own main verb stands for it
    # "what was grandma's gift?": the stems describing the thing asked, its noun first; a line
    # saying what is so described ("this necklace is a gift from my grandma") names it
    equated: tuple[str, ...] = ()
    # its nouns' stems, each with the nouns naming the same thing ("kid" for "child")
    alike: tuple[tuple[str, frozenset[str]], ...] = ()
    since: bool = False  # "how long ago?": a line's "ten years ago" answers as said, another date as its date
    ahead: bool = False  # "when am I bringing it?": a time told of what is to come ("in the morning") answers;
    # the plan's `to_come`, which the graph gives it (one reading of the question's tense)

    @property
    def acts(self) -> frozenset[str]:
        """The question's verb and the verbs that name the same act."""
        return self.same_acts | {self.verb} if self.verb else frozenset()

    @cached_property
    def meeting(self) -> frozenset[str]:
        """The stems that meet one of its words: the words, verbs naming its verb's act, and
        nouns naming what its nouns name."""
        return self.words | self._same_acts | frozenset().union(*(others for _, others in self.alike))

    @cached_property
    def _same_acts(self) -> frozenset[str]:
        if not (self.verb and word_stem(self.verb) in self.words):
            return frozenset()
        return frozenset(word_stem(v) for v in self.same_acts)

    def alike_to(self, word: str) -> frozenset[str]:
        """The nouns naming what one of its nouns names ("kid" for "children"), none for another word."""
        key = word_stem(singular(word.lower()), noun=True)
        return next((others for stem, others in self.alike if stem == key), frozenset())

    def met_in(self, stems: set[str]) -> set[str]:
        """The question's words among content stems; its verb is met by a verb naming the same
        act, a noun by a noun naming the same thing ("kids" meets "children")."""
        met = set(self.words & stems)
        if stems & self._same_acts - self.words:
            met.add(word_stem(self.verb))
        met |= {word for word, others in self.alike if others & stems}
        return met


def kind_words(want: Wanted) -> frozenset[str]:
    """The nouns that name the asked kind as the question's own noun does: the noun, and when
    it is one of a kind's, the others ("PASSWORD BLUEFOX42" names the "code" asked for)."""
    if not want.hint:
        return frozenset()
    kind = KIND_NOUNS.get(want.kind, frozenset())
    return frozenset({want.hint}) | (kind if want.hint in kind else frozenset())


# Nouns a question names a talker by without naming them ("how long has the speaker been ...",
# "what did the woman say?"): the line is by them, it does not say the word.
TALKER_NOUNS = frozenset({"speaker", "person", "man", "woman", "guy", "lady", "presenter", "lecturer", "host",
                          "caller", "narrator"})


def word_stem(lemma: str, noun: bool = False) -> str:
    """A word as questions and evidence are compared: whole, not clipped ("fave"), without its
    trailing s's, and a noun in -ing as its verb ("volunteering" meets "I volunteered")."""
    lemma = unclipped(lemma)
    return stem(lemma) if noun and lemma.endswith("ing") else s_stem(lemma)


def token_stem(token) -> str:
    """`word_stem` of a parsed token's lemma."""
    return word_stem(token.lemma_, token.pos_ == "NOUN")


def content_stems(tokens) -> set[str]:
    """The `token_stem`s of a parsed span's content words (no stop word, no question word)."""
    return {token_stem(t) for t in tokens if not t.is_punct and t.lower_ not in STOP and t.lower_ not in QUESTION_WORDS}


def wanted(nlp: SpacyPipeline, question: str) -> Wanted:
    """The kind of answer the question's grammar asks for."""
    doc = without_address(nlp, question)
    # prepositions left without their object: "where is she from?" asks what she is from; the
    # "for" of "what do I press for reception?" already has its object
    preps = frozenset(t.lower_ for t in doc if t.pos_ == "ADP" and not any(c.dep_ == "pobj" for c in t.children))
    dating = _dating(doc)
    titled = quoted(doc)  # "what is "Little Women" about?": a title names no one
    people = frozenset(t.lower_ for t in doc if (t.pos_ == "PROPN" or t.ent_type_ == "PERSON")
                       and t.i not in dating and t.i not in titled)
    found = _wanted(doc)
    # "the puppy she got two weeks before August 11": the date says when, the window's to keep;
    # a line dated by a caption ("... on Friday 11 August") does not meet the question by it
    undated = found.words - content_stems(doc[i] for i in dating)
    return replace(found, preps=preps, people=people, words=undated or found.words)


def _dating(doc) -> set[int]:
    """The tokens of the question's dates and times that name a day, month or year ("August
    11, 2023", "in December", "two weeks before May 3"), not "my birthday" or "the weekend"."""
    return {t.i for ent in doc.ents if ent.label_ in ("DATE", "TIME")
            and any(t.like_num or t.pos_ == "PROPN" for t in ent) for t in ent}


_CLAUSE_MARKS = {"when", "where", "while", "before", "after", "until", "till", "since", "as", "once"}


def _opens_a_setting(word) -> bool:
    """Whether a word opens a clause that says when or where something else was ("when I was
    checking my email", "where we ate"): neither its verb nor its question word is what is asked."""
    return word.lower_ in _CLAUSE_MARKS and word.dep_ in ("advmod", "mark") \
        and word.head.dep_ in ("advcl", "relcl", "acl")


def _reported_act(verb_token):
    """The act a reporting verb's clause names ("what did I say I'd bring?": bring; "what did
    she promise to send?": send), or None."""
    if verb_token is None or verb_token.lemma_.lower() not in REPORTING | ASKING_OF:
        return None
    act = next((c for c in verb_token.children if c.dep_ in ("ccomp", "xcomp") and c.pos_ in ("VERB", "AUX")), None)
    if act is not None and verb_token.lemma_.lower() in ASKING_OF and not (
            any(c.dep_ == "dobj" for c in verb_token.children) or any(c.dep_ == "nsubj" for c in act.children)):
        return None  # no one asked: what they want
    return act


def _wanted(doc) -> Wanted:
    toks = [t for t in doc if not t.is_punct]
    lowers = [t.lower_ for t in toks]
    # the question's act, not the one a time clause dates it by ("what was on the monitor when I was checking my email?")
    verb_token = next((t for t in toks if t.pos_ == "VERB" and t.lemma_.lower() not in LIGHT_VERBS
                       and not any(_opens_a_setting(c) for c in t.children)), None)
    if verb_token is None and any(t.lemma_ == "do" and t.pos_ == "AUX" for t in toks) and toks[-1].pos_ == "NOUN":
        verb_token = toks[-1]  # "what does her ring symbolize?": "do" asks with a bare verb, whatever the tagger said
    verb = verb_token.lemma_.lower() if verb_token is not None else None
    act = _reported_act(verb_token)  # "what did I say I'd bring?" asks what is brought, not what was said
    light_act = act is not None and act.lemma_.lower() in LIGHT_VERBS  # "which document did I say I'd get to Bob?"
    if act is not None and not light_act:
        verb = act.lemma_.lower()
    words = frozenset(content_stems(t for t in toks if not asked_degree(t)))  # not "long" of "how long"
    words = words - TALKER_NOUNS or words  # "the speaker" is whoever says a line, not a word it holds
    # the question word of the clause that asks: the last one that does not open a time or
    # place clause ("which locker did I use, what number was it?"; "what was on the screen when
    # ..."), of the main clause when there is one there ("how long has she been studying what
    # makes plants grow?" asks how long)
    asking = [i for i, t in enumerate(toks) if t.lower_ in QUESTION_WORDS and not _opens_a_setting(t)]
    main = [i for i in asking if _clause_verb(toks[i]).dep_ == "ROOT"]
    wh_at = (main or asking)[-1] if asking else None
    if wh_at is None:
        yes_no = bool(toks) and (toks[0].pos_ == "AUX" or toks[0].lemma_ in ("do", "be", "have"))
        return Wanted("yes_no" if yes_no else "thing", verb=verb, words=words)
    wh, nxt = lowers[wh_at], lowers[wh_at + 1] if wh_at + 1 < len(lowers) else ""
    if wh == "how":
        if nxt == "long":
            return Wanted("date", verb=verb, words=words, since=True) if "ago" in lowers else \
                Wanted("duration", verb=verb, words=words)
        if nxt == "often":  # "a few times a week", "every Sunday"
            return Wanted("frequency", verb=verb, words=words)
        if nxt in ("many", "old", "far", "big", "tall"):
            return Wanted("number", verb=verb, words=words)
        if nxt == "much":
            money = any(t.lemma_ in ("cost", "pay", "spend", "charge", "price", "earn") for t in toks)
            return Wanted("money" if money else "number", verb=verb, words=words)
        if _appraises(_clause_verb(toks[wh_at])):  # "how did she feel?": "nervous"
            return Wanted("quality", verb=verb, words=words - {"describe"} or words)
        return Wanted("quote", verb=verb, words=words)
    simple = {"who": "person", "whom": "person", "whose": "person", "where": "place", "when": "date", "why": "reason"}
    if wh in simple:
        return Wanted(simple[wh], verb=verb, words=words, subject=toks[wh_at].dep_ == "nsubj")
    # "what / which": the noun the question word determines, or the kind a noun in the question names
    head = toks[wh_at + 1] if wh_at + 1 < len(toks) and toks[wh_at + 1].pos_ in ("NOUN", "ADJ", "PROPN") else None
    determined = toks[wh_at].head
    if toks[wh_at].dep_ == "det" and determined.pos_ in ("NOUN", "PROPN") and determined.i > toks[wh_at].i:
        head = determined  # "which dairy-free dessert flavors": the noun it determines, past its modifiers
    if head is not None and head.lemma_.lower() in ("kind", "type", "sort", "brand", "make"):
        of = next((c for c in head.children if c.dep_ == "prep" and c.lower_ == "of"), None)
        kinds = [c for c in of.children if c.dep_ == "pobj"] if of is not None else []
        return Wanted("thing", hint=kinds[0].lemma_.lower() if kinds else None, verb=verb,
                      words=words - content_stems([head, *kinds]) or words)
    if head is not None and head.pos_ == "ADJ" and head.head.pos_ == "NOUN" and head.head.i > head.i:
        head = head.head  # "what big city"
    # "what is her name?", "what's the price?": with a copula the subject names the kind; any
    # other verb's subject is who did it ("what does the speaker teach?")
    copula = [t for t in toks if t.dep_ in ("nsubj", "attr") and t.pos_ == "NOUN" and t.head.lemma_ == "be"]
    nouns = [head] if head is not None else copula
    many = any(noun.tag_ in ("NNS", "NNPS") for noun in nouns)  # "which cities", "what are her hobbies?"
    for noun in nouns:
        lemma = noun.lemma_.lower()
        kind = next((k for k, names in KIND_NOUNS.items() if lemma in names), None)
        if kind == "number" and any(c.dep_ == "compound" for c in noun.children):
            kind = "code"  # "what apartment number?", "which room number?": an identifier ("4B"), not a count
        if kind is not None:
            return Wanted(kind, hint=lemma, verb=verb, words=words - {token_stem(noun)}, many=many)
    if light_act and head is None and act.lemma_.lower() == "do" and wh == "what":
        return Wanted("act", verb=verb, words=words or frozenset({verb}))  # "what did he ask me to do?": "call the plumber"
    if verb in _QUOTING and head is None:  # "what did she say?"; "what books has he read?" asks for books
        return Wanted("quote", verb=verb, words=words)
    # "what is luck?": the question word is the copula's complement, the noun its subject
    # (a general noun: "what is John's position?", "what is the key word?" ask for a particular)
    numbered = next((number_of(c.lower_) for noun in (*nouns, *copula) for c in noun.children
                     if c.dep_ == "nummod" and number_of(c.lower_) is not None), None)
    defined = [t for t in copula if t.dep_ == "nsubj" and numbered is None and not any(
        c.dep_ == "poss" or c.lower_ in ("the", "this", "that", "these", "those") for c in t.children)] \
        if head is None and toks[wh_at].dep_ == "attr" else []
    described = [] if head is not None or toks[wh_at].dep_ != "attr" or defined else \
        [t for t in copula if t.dep_ == "nsubj"] or _one_of(toks)
    if light_act and head is not None:  # "which file did I say I'd get over to Ann?": whatever the act did it to
        return Wanted("thing", hint=head.lemma_.lower(), words=words, many=many, light=True)
    return Wanted("thing", hint=head.lemma_.lower() if head is not None else None, verb=verb, words=words, many=many,
                  defines=token_stem(defined[0]) if defined else None, numbered=numbered,
                  equated=_description(described[0]) if described else ())


def _one_of(toks) -> list:
    """The noun of "one of her favorite movies" when that is the copula's subject."""
    return [p for t in toks if t.dep_ == "nsubj" and t.lower_ == "one" and t.head.lemma_ == "be"
            for c in t.children if c.dep_ == "prep" and c.lower_ == "of"
            for p in c.children if p.dep_ == "pobj" and p.pos_ == "NOUN"]


def _description(noun) -> tuple[str, ...]:
    """The stems a noun and the words before it describe a thing by ("favorite video game"),
    the noun's first; not whose it is ("Nate's", "her")."""
    owner = {t.i for c in noun.children if c.dep_ == "poss" for t in c.subtree}
    before = [t for t in noun.subtree if t.i < noun.i and t.i not in owner and not t.is_punct
              and t.lower_ not in STOP and t.pos_ != "PROPN"]
    return tuple(dict.fromkeys([token_stem(noun), *(token_stem(t) for t in before)]))


def _appraises(verb) -> bool:
    """Whether "how" with this verb asks what something was like: "how is the shop doing?",
    "how did the talk go?", not "how do I do a backflip?" or "how do I go to the station?"."""
    lemma = verb.lemma_.lower()
    if lemma == "do":
        return verb.tag_ == "VBG"
    if lemma in ("like", "enjoy") and any(c.dep_ == "xcomp" for c in verb.children):
        return False  # "how does she like to relax?" asks a way to relax
    if lemma == "go":
        return not any(c.dep_ in ("prep", "advmod", "dobj") and c.lower_ != "how" for c in verb.children)
    return lemma in _APPRAISING


def _clause_verb(tok):
    """The verb of the clause a word stands in (the root when none stands between)."""
    head = tok.head
    while head.pos_ not in ("VERB", "AUX") and head.head.i != head.i:
        head = head.head
    return head


def asks_for_a_question(verb: str | None) -> bool:
    """"What did Bob ask me?": the answer is a line that asks."""
    return verb in ASKING


def asks(line: str) -> bool:
    """A line that asks states nothing ("So what is luck?")."""
    return line.rstrip().endswith("?")

"""Rule-based question understanding: type, target, person, key terms, options.

Deterministic by design (the default runs without an LLM); an LLM backend may refine it.
"""
from __future__ import annotations

import re

from agent.state import QuestionAnalysis, QuestionType

STOPWORDS = frozenset("""
a an the i me my mine we us our you your he him his she her it its they them their this that these those
is are was were be been being am do does did doing have has had having will would shall should can could
may might must of in on at to for from by with about into onto over under after before during than then
and or but if so not no yes what which who whom whose where when why how there here any some all each
just also very really please tell remind again earlier today yesterday tonight morning last ago now
hey aria ok okay one thing things something many times often usually night evening afternoon week
so far finally eventually
""".split())
# Verbs that frame the question rather than name what it is about.
FRAME_VERBS = frozenset("""
say said says tell told ask asked asking mention mentioned want wanted suggest suggested need needed
leave left put place placed keep kept see saw seen store stored find found remember know get got
read write written go went come came make made think thought
promise promised agree agreed commit committed intend intended plan planned request requested remind
supposed meant eat ate eaten
""".split())
# Question verbs that ask for one kind of speech act.
_ACT_CUES = (
    ("commitment", re.compile(r"\b(promise[d]?|agree[d]? to|commit(?:ted)? to|said (?:i|we) would|(?:tell|told) \w+ (?:i|we) would)\b", re.I)),
    ("request", re.compile(r"\b(ask(?:ed)? (?:me|us) to|request(?:ed)?|want(?:ed)? me to|tell me to|told me to)\b", re.I)),
    ("intention", re.compile(r"\b(intend(?:ed)?|plan(?:ned)? to|supposed to|remind me|meant to|(?:need|needed|have|had) to do)\b", re.I)),
    ("correction", re.compile(r"\b(correct(?:ed|ion)?|changed? (?:it|the)|moved (?:it|the))\b", re.I)),
)
# Words naming the carrier of text rather than its content.
TEXT_CARRIERS = frozenset("note sign screen board whiteboard paper card door label poster page written text".split())
# Nouns naming the kind of answer wanted ("what time", "which number"): the answer fills
# them in, so evidence need not contain the word itself.
ANSWER_TYPES = frozenset("number time name code date day price amount kind type colour color much long".split())
TEXT_CUES = re.compile(
    r"\b(password|code|number|written|sign|note|screen|label|address|price|title|menu|read|say on|text|whiteboard|card)\b",
    re.IGNORECASE,
)
ABSTAIN_OPTION = re.compile(
    r"cannot be answered|can't be answered|unanswerable|^n/?a\b|not (?:in|mentioned|shown)|"
    r"not in either|don't know|do not know|not enough information|none of the above",
    re.IGNORECASE,
)
_PERSON = re.compile(
    r"\b(?:did|does|do|has|had|was|is)\s+([A-Z][a-z]+)\s+(?:\w+ly\s+)?"  # "did Bob finally say"
    r"(?:say|said|ask|tell|want|mention|suggest|need|promise|agree|think|last ask|remind)",
)
_PRONOUNS = {"I", "You", "We", "He", "She", "They", "It"}
_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9'-]*")


def content_words(text: str) -> list[str]:
    words = [w.lower().strip("'") for w in _WORD.findall(text)]
    return [w for w in dict.fromkeys(words)
            if w not in STOPWORDS and w not in FRAME_VERBS and (len(w) > 1 or w.isdigit())]


def speech_act_asked(question: str) -> str | None:
    return next((act for act, cue in _ACT_CUES if cue.search(question)), None)


def classify(question: str) -> QuestionType:
    q = question.lower()
    if re.search(r"\bhow many times\b|\bhow often\b|\bcount\b|\bhow many\b", q):
        return "behavior" if re.search(r"\busually|\btypically|\bevery day|\bhow often", q) else "count"
    if re.search(r"\busually\b|\btypically\b|\bhabit|\broutine|\bevery (?:day|morning|evening)", q):
        return "behavior"
    if re.search(r"\bin what order\b|\bwhich .* first\b|\bbefore or after\b|\border\b", q):
        return "order"
    if re.search(r"^\s*(?:hey \w+,?\s*)?where\b", q) or re.search(r"\bwhere (?:did|are|is|was|were)\b", q):
        return "entity_location"
    if _PERSON.search(question) or re.search(r"\bwho (?:said|asked|told|mentioned)\b", q) or speech_act_asked(question):
        return "conversation"
    if TEXT_CUES.search(q):
        return "text"
    return "event"


def understand(question: str, options: list[str] | None = None) -> QuestionAnalysis:
    qtype = classify(question)
    person_match = _PERSON.search(question)
    person = person_match.group(1) if person_match and person_match.group(1) not in _PRONOUNS else None
    terms = [t for t in content_words(question) if t not in ANSWER_TYPES] or content_words(question)
    if qtype == "text":
        terms = [t for t in terms if t not in TEXT_CARRIERS] or terms
    if person:
        terms = [t for t in terms if t != person.lower()]
    target = " ".join(terms)
    abstain = [i for i, o in enumerate(options or []) if ABSTAIN_OPTION.search(o.strip())]
    return QuestionAnalysis(qtype=qtype, target=target, key_terms=terms, person=person, abstain_options=abstain,
                            speech_act=speech_act_asked(question))

"""From tool results to an answer: a short natural sentence from the primary tool, the
evidence it rests on, how sufficient that evidence is, and a score per option compared
with the tool's typed value (a place, a number, a day, an order) rather than word overlap
with the question."""
from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date

from agent.attribution import sentence_speaker
from agent.plan import WEARER, QueryPlan
from agent.reader import ROLL_UPS
from agent.reading import QUOTE_KINDS, Reading
from agent.reasoning import Alike, Draft, coverage, evidence_text
from agent.state import Evidence
from agent.tools import bare, option_steps
from agent.tools.base import ToolResult
from agent.tools.talk import speaker_of
from agent.verbs import SPEAKING
from agent.wanted import TALKER_NOUNS, asks, asks_for_a_question
from memory.conversation import opens_a_correction
from memory.language import first_number, normalise
from memory.records import CLIP_CAPTION, RECORDING, SEGMENT, TEXT_SIGHTING, UTTERANCE

ABSTAIN_OPTION = re.compile(
    r"cannot be answered|can't be answered|unanswerable|^n/?a\b|not (?:in|mentioned|shown)|"
    r"not in either|don't know|do not know|not enough information|none of the above",
    re.IGNORECASE,
)


def abstain_options(options: Sequence[str]) -> list[int]:
    """Indexes of options that say the question cannot be answered: the one abstain test
    (the agent's, the skills' answerers' and the retrieval baselines')."""
    return [i for i, o in enumerate(options) if ABSTAIN_OPTION.search(o.strip())]


def all_that_apply(scores: Sequence[float], options: Sequence[str]) -> list[int]:
    """The options to pick when any number may be right ("select all that apply"): the
    best ones down to the widest drop in score, so a clear favourite stands alone and a
    group that evidence supports alike goes together; never a "cannot be answered" option."""
    offered = sorted((i for i in range(len(options)) if i not in abstain_options(options)), key=lambda i: -scores[i])
    if len(offered) < 2:
        return offered
    drops = [scores[a] - scores[b] for a, b in zip(offered, offered[1:])]
    return sorted(offered[: drops.index(max(drops)) + 1])


def key_terms(plan: QueryPlan) -> list[str]:
    """What the evidence must be about: the plan's slots, not the question's wording, nor
    the nouns it names a talker by ("the speaker", "the woman") beside other slots: a line
    is by them, it does not say the word."""
    people = [p for p in plan.people if p != WEARER]
    words = [w for phrase in plan.topic + plan.objects + people + plan.places for w in normalise(phrase).split()]
    return list(dict.fromkeys([w for w in words if w not in TALKER_NOUNS] or words))


LINE_MEETS = 0.5  # the share of what a question is about that a spoken line given whole must speak of
SPOKEN_CAPTIONS = (CLIP_CAPTION, SEGMENT)  # captions that string turns together
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def off_topic(plan: QueryPlan, draft: Draft, asked: str = "", alike: Alike | None = None) -> bool:
    """A spoken line given whole as the answer that speaks of less than half of what the
    question is about beside whom it names: Nate's line about his turtles does not answer
    "what did Nate make for the ladies at his writing club?", however surely it is Nate's.
    A reply is judged with the line it answers (`asked`): "Any plans for the summer?" -
    "Researching adoption agencies". (A sign's text is its own answer to "what did the sign
    say?": only speech is judged.)"""
    if plan.act is not None or draft.span or draft.reading or not _quotes_speech(draft):
        return False  # a request or promise is found by its act, whatever words it is put in
    named = {w for person in plan.people for w in normalise(person).split()}
    topic = [t for t in key_terms(plan) if t not in named]
    return bool(topic) and coverage(topic, [asked, draft.answer], alike) < LINE_MEETS


def _quotes_speech(draft: Draft) -> bool:
    """Whether the answer quotes a sentence of a spoken line it cites (a turn, or a caption
    of turns), rather than a value a tool or the reader took from it."""
    spoken = (e.record for e in draft.support if e.record.kind in (UTTERANCE, *SPOKEN_CAPTIONS))
    return any(len(sentence) > 15 and sentence[:30] in draft.answer for r in spoken
               for sentence in _SENTENCE_END.split(r.attrs.get("said") or r.text))


CLEAR_LINE = 0.5  # a line read this strongly, naming all the question is about, is evidence though no tool found it
# Tools whose answer is a whole remembered line (a turn, a sign, a list of turns): the short
# answer a question asks for is read out of it when the question wants a name, a place, a
# date, a number or a thing rather than the words themselves.
QUOTING_TOOLS = ("said", "read", "speech_acts", "reflect")
# Tools whose lines answer "who ...?" by their speakers or the people they name (who_answers).
SPEAKER_TOOLS = ("said", "speech_acts", "read")
# Verbs of meeting people: "who did I talk to / meet / see?" asks for the people tool's list.
MEETING = {None, "meet", "talk", "speak", "chat", "see", "visit", "call", "phone", "join", "run", "bump", "hang",
           "come", "spend", "sit", "eat", "have", "be", "do", "go", "get"}


def answering(results: Sequence[ToolResult]) -> ToolResult | None:
    """The intent's tool result that answers: the latest round's that found what it looked
    for (refinements come after), or None."""
    return next((r for r in reversed(results) if r.tool not in ("premise", "search") and r.found), None)


def draft(plan: QueryPlan, results: Sequence[ToolResult], reading: Reading | None = None,
          alike: Alike | None = None) -> Draft:
    """The answer and the evidence it rests on; how sufficient it is, agent.sufficiency decides.
    A tool that found what its intent asks for answers, except that a quoting tool's line
    gives way to the short answer read out of the evidence; when no tool found it, the
    reading answers (the intent ranks channels, it does not exclude them)."""
    premise = next((r for r in results if r.tool == "premise"), None)
    if premise is not None and not premise.found:
        return Draft("", [], 0.0, f"false premise: {premise.note}")
    primary = [r for r in results if r.tool not in ("premise", "search")]
    best = answering(results)
    if best is not None:
        claim = best.value if isinstance(best.value, str) else best.answer
        answer, named = best.answer, ""
        if plan.answer_type == "person" and best.tool in SPEAKER_TOOLS:
            named = who_answers(plan, best)  # "who asked me to buy groceries?": whoever the line is by or names
            if not named and reading is not None and reading.kind == "person":
                # "who inspired Maria?": no one her lines are by or name but the one asked about; "my aunt" is read
                return _read_draft(reading, best.support, f"(in {best.tool}'s lines: {best.note})")
            answer = named or answer
        elif reading is not None and best.tool == "people" and reading.kind == "person" and plan.objects \
                and plan.verb not in MEETING:
            # "who presented the cartoon?": the one the evidence names, not everyone met that day
            return _read_draft(reading, best.support, f"(not a meeting: {plan.verb})")
        elif reading is None and best.tool == "people" and plan.objects and plan.verb not in MEETING:
            # "who lives at number nine?": no one read, and whom I met that day does not say
            return Draft("", [], 0.0, f"people met are not who did it ({plan.verb}); nothing read")
        elif reading is not None and best.tool == "people" and reading.kind not in ("person", *QUOTE_KINDS):
            # "what city was the talk in?" asks a place: the names of who talked are not it
            return _read_draft(reading, [], f"(a {reading.kind} asked, not people)")
        elif reading is not None and best.tool in QUOTING_TOOLS \
                and ("corrected" not in answer or opens_a_correction(reading.sentence)) \
                and (reading.kind not in QUOTE_KINDS or reading.beside or _asks_back(plan, best)
                     or _reads_further(reading, best) or best.tool == "reflect" and reading.score >= CLEAR_LINE):
            # the short answer inside the line the tool chose (graph.read reads only its lines,
            # unless they share no word with the question: then a line read elsewhere stands in),
            # or what is said beside a sentence restating the question; of a corrected line, what
            # the correction says, never the value it corrects; of a reflective question's turns (each
            # bears on it, the nearest in meaning first), one the reader reads clearly as its answer
            return _read_draft(reading, best.support, f"(in {best.tool}'s line: {best.note})")
        # the reader quotes clearly what the tool answers with: two ways of looking agree on the line
        agreed = reading is not None and reading.kind in QUOTE_KINDS and reading.score >= CLEAR_LINE \
            and reading.answer in answer
        return Draft(answer, best.support, 0.0, f"{best.tool}: {best.note}", claim=claim, span=bool(named),
                     agreed=reading.score if agreed else 0.0)
    notes = "; ".join(r.note for r in primary if r.note)
    if reading is not None and reading.kind not in QUOTE_KINDS:
        return _read_draft(reading, [], f"({notes})" if notes else "")
    evidence = [e for r in results for e in r.support]
    partial = next((r for r in reversed(primary) if r.answer), None)
    if partial is not None:  # the tool answered, but memory did not hold all it looked for
        return Draft(partial.answer, partial.support, 0.0, f"{partial.tool}: {partial.note}")
    if reading is not None:  # the line that meets the question best: no more support than the best evidence,
        # unless it names every thing the question is about ("for a company directory, press four"
        # for "how do I reach the company directory?"): then its reading counts as one read
        terms = key_terms(plan)
        by = sentence_speaker(reading.evidence.record, reading.sentence) or ""  # who said it is who it is by
        whole = reading.score >= CLEAR_LINE and bool(terms) and coverage(terms, [reading.meets, by], alike) >= 1.0
        return Draft(reading.as_answer(), list(reading.records), 0.0, f"read a {reading.kind} line from "
                     f"{reading.evidence.source}{f' ({notes})' if notes else ''}", claim=reading.answer,
                     reading=reading.score if whole else 0.0)
    return best_evidence(plan, evidence, [r.note for r in primary])


def _asks_back(plan: QueryPlan, found: ToolResult) -> bool:
    """The line a quoting tool chose is itself a question ("So what is luck?") and the question
    did not ask what someone asked: a line that answers it stands in."""
    if not found.support:
        return False
    # the line it answers with (reflect's evidence is in time order), else its first
    chosen = next((e.record for e in found.support if e.record.text == found.answer), found.support[0].record)
    return asks(chosen.attrs.get("said") or chosen.text) and not asks_for_a_question(plan.verb)


def _reads_further(reading: Reading, found: ToolResult) -> bool:
    """The reading comes from none of the tool's lines (graph.read looked past them, as they
    share no word with the question: "how did he define success?" against a sign reading
    "Exit"), or it is one of them made whole: a sentence cut at a pause, read on."""
    if reading.evidence.record.id not in {e.record.id for e in found.support}:
        return reading.evidence.record.kind in (UTTERANCE, TEXT_SIGHTING)  # a line said or read, not a caption
    line = (reading.evidence.record.attrs.get("said") or reading.evidence.record.text).strip()
    return len(reading.sentence) > len(line) and line.rstrip(".!?") in reading.sentence


def _read_draft(reading: Reading, support: Sequence[Evidence], why: str) -> Draft:
    """A short answer read out of the evidence as the draft: the record it was read from
    first, then the tool's other evidence; the reading's strength for the sufficiency."""
    own = {e.record.id for e in reading.records}
    evidence = [*reading.records, *(e for e in support if e.record.id not in own)]
    return Draft(reading.as_answer(), evidence, 0.0, f"read {reading.kind} from {reading.evidence.source} {why}".strip(),
                 claim=reading.answer, reading=reading.score)


def who_answers(plan: QueryPlan, result: ToolResult) -> str:
    """Who a line-finding tool's lines answer "who ...?" with: their speakers when the question
    asks who said, asked or told, else the people they name; never one the question names
    ("who inspired John?" is not answered by John's own line)."""
    named_in_question = {p.lower() for p in plan.people}
    speakers = [e.record.attrs.get("speaker_name") for e in result.support if e.record.kind == UTTERANCE]
    spoke = list(dict.fromkeys(s for s in speakers if s and s.lower() not in named_in_question))
    if plan.verb in SPEAKING and spoke:
        return ", ".join(spoke)
    named = [n for n in result.names if n not in spoke and n.lower() not in named_in_question]
    return ", ".join(named or spoke)


def best_evidence(plan: QueryPlan, evidence: Sequence[Evidence], notes: Sequence[str] = ()) -> Draft:
    """No tool answered: the record that covers most of the plan's slots, quoted. A
    recording's title or a roll-up names its people and topics without saying anything of
    them ("Conversation 27 between John and Maria"): the first-hand records come first."""
    if not evidence:
        return Draft("", [], 0.0, "; ".join(notes) or "no evidence retrieved")
    terms = key_terms(plan)
    evidence = [e for e in evidence if e.record.kind not in (RECORDING, *ROLL_UPS)] or evidence
    top = max(evidence, key=lambda e: (coverage(terms, [evidence_text(e.record)]), e.score))
    text = evidence_text(top.record)
    if top.record.kind == UTTERANCE:
        answer = f'{speaker_of(top.record)} said: "{top.record.attrs.get("said", text)}" (at {top.record.wall_start:%H:%M})'
    elif top.record.kind == TEXT_SIGHTING:
        answer = f'"{text}" (read at {top.record.wall_start:%H:%M})'
    else:
        answer = f"{text} ({top.record.wall_start:%H:%M})"
    return Draft(answer, [top], 0.0, f"best {top.source} evidence ({'; '.join(notes) or 'search'})")


def typed_option_scores(result: ToolResult, options: Sequence[str]) -> list[float] | None:
    """Per-option agreement with a tool's typed value; None when the value has no type an
    option can be checked against (then options are scored against the claim)."""
    value = result.value
    if value is None:
        return None
    if result.tool in ("locate", "where_was_i", "habit") and isinstance(value, str):
        return [1.0 if normalise(value) in f" {normalise(o)} " or normalise(o) == normalise(value) else 0.0 for o in options]
    if result.tool == "count" and isinstance(value, int):
        return [1.0 if first_number(o) == value else 0.0 for o in options]
    if result.tool == "when" and isinstance(value, date) and not hasattr(value, "hour"):
        return [1.0 if value.strftime("%A").lower() in o.lower() and (str(value.day) in o or value.strftime("%B") not in o)
                else 0.0 for o in options]
    if result.tool == "order" and isinstance(value, dict):
        times = {normalise(k): t for k, t in value.items()}
        longest = max((len(option_steps(o)) for o in options), default=1)
        raw = []
        for o in options:
            found = [times[normalise(s)] for s in option_steps(o) if normalise(s) in times]
            steps = option_steps(o)
            if len(steps) < 2 or len(found) < len(steps):
                raw.append(0.1 * len(found) / longest)
                continue
            pairs = [(a, b) for i, a in enumerate(found) for b in found[i + 1:]]
            raw.append(sum(a <= b for a, b in pairs) / len(pairs) * len(steps) / longest)
        return raw
    if result.tool == "seen" and isinstance(value, list):
        things = {normalise(v) for v in value}
        return [1.0 if bare(o) in things or any(t in f" {normalise(o)} " for t in things) else 0.0 for o in options]
    if result.tool == "trajectory" and isinstance(value, list):
        raw = []
        for o in options:
            seq = [bare(s) for s in option_steps(o)]
            tail = value[-len(seq):] if seq else []
            raw.append(1.0 if seq and seq == tail else sum(a == b for a, b in zip(seq, tail)) / max(len(seq), 1) * 0.8)
        return raw
    return None

"""Reads the answer a question asks for out of the evidence: the city, the year, the name,
the number or the thing, not the whole line it was said or read in.

The question's grammar says what kind of answer it wants (agent.wanted): its question word
("who", "where", "how long"), the noun that names the kind ("what city", "which year",
"what kind of bread") or the verb whose object is asked ("what does he sell?"). Each of
the top evidence records (speech, on-screen text, captions, sightings; best first) is
parsed with spaCy and offers candidates of that kind: entities, dates resolved against when
they were said, numbers, colours, the object of the question's verb, noun chunks. A
candidate scores by how the question's words align with its sentence and how close they
stand to it, by the rank of its record, and by agreement between records; a word of the
question is never its answer. Nothing here knows a question template or a world's words:
the kinds are English question grammar, the candidates spaCy's reading of the evidence.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import datetime

from agent.attribution import about, called_out, heading, line_about, untold
from agent.question_nlp import SpacyPipeline
from agent.reading import DERIVED, QUOTE_KINDS, Reading, agreeing, listed
from agent.span_kinds import (
    by_number,
    clock_times,
    codes,
    colours,
    described,
    frequencies,
    qualities,
    titles,
    with_its_number,
)
from agent.state import Evidence
from agent.told import as_said_by, as_written, prepared, sentence_of
from agent.verb_spans import (
    asks_the_act,
    beside,
    complements,
    coordinated,
    courtesy,
    defines,
    equated,
    numbered_items,
    of_the_act,
    restating,
    undertaken,
    verbless_phrase,
    without_determiners,
)
from agent.verbs import WANTING
from agent.wanted import (
    Wanted,
    asks,
    asks_for_a_question,
    content_stems,
    kind_words,
    token_stem,
    wanted,
    word_stem,
)
from memory.conversation import opens_a_correction
from memory.dialogue_builder import image_frames
from memory.kinds import Kinds
from memory.language import (
    STOP,
    TIME_UNITS,
    date_mentions,
    date_phrase,
    looks_ahead,
    parse_date,
    s_stem,
    singular,
)
from memory.records import (
    DAY_SUMMARY,
    ENTITY_SIGHTING,
    HOUR_SUMMARY,
    PATTERN,
    RECORDING,
    TEXT_SIGHTING,
    UTTERANCE,
    MemoryRecord,
)
from perception.speakers import is_voice_label

# spaCy entity labels that can be each kind of answer.
_LABELS = {"person": {"PERSON", "ORG"}, "place": {"GPE", "LOC", "FAC"}, "date": {"DATE"}, "time": {"TIME"},
           "number": {"CARDINAL", "QUANTITY", "PERCENT"}, "money": {"MONEY"}, "duration": {"DATE", "TIME"},
           "organisation": {"ORG"}}
# Units that make a date or time expression a length of time ("two decades", "4 years").
_UNITS = TIME_UNITS | {"while"}  # "for a while"
_WHEN_WORDS = {"ago", "last", "next", "yesterday", "past"}  # a span of time said with these says when, not how long
_OBJECTS = {"dobj", "attr", "oprd", "pobj", "dative", "acomp", "xcomp", "ccomp", "npadvmod", "nsubjpass"}
_REASON_CUE = re.compile(r"(?:\b(?:because|since|so that|so|in order to|due to|cuz|coz)\b|'cause\b)\s*", re.IGNORECASE)
_LOCATIVE = {"at", "in", "on", "near", "by", "inside", "around", "to", "into"}  # prepositions saying where an act was
_KIND_ROOTS = {"person": "person", "place": "location"}  # WordNet's root of the nouns naming one of a kind
_NOT_THINGS = {"DATE", "TIME", "CARDINAL", "ORDINAL", "QUANTITY", "PERCENT", "MONEY"}

# Hour and day summaries, and a conversation's patterns, restate records the reader reads
# first-hand, with clock times, counts and session numbers in front that read as answers
# ("11:00 Video ...", "Nate said things like this in 7 conversations (sessions 5, ... 29)").
ROLL_UPS = (HOUR_SUMMARY, DAY_SUMMARY, PATTERN)
DERIVED_WEIGHT = 0.8
ASKED_LINE = 0.15  # what a line that asks gains when what someone asked is wanted
ORG_AS_PERSON = 0.15  # what "who" loses when it is read as an organisation
CALLED_OUT = 0.3  # what "who" loses when the name is only called out to ("Thanks, John."): the listener
# verbs whose "who" may well be the listener ("who did she thank?")
_ADDRESSING = {"tell", "thank", "ask", "call", "greet", "congratulate", "talk", "speak", "answer", "reply", "text"}
SCOPE_ALIGNMENT = 0.7  # a record of the recording the question names meets it most of the way, whatever its words
CONTEXT_READ = 4  # the best-aligned records whose neighbours are read too
CONTEXT_ALIGNMENT = 0.5  # ... when they hold at least this share of the question's words
CONTEXT_WEIGHT = 0.7  # a neighbour's reading against the record it is context of
REPLY_ALIGNMENT = 0.5  # the share of the question's words a line that asks and its reply must hold together
SAME_ASK = 0.1  # what a reply gains when the line it answers asks for the same kind of answer
OTHER_PERSON_WEIGHT = 0.6  # a record neither by nor about the person the question names
OWN_WORDS = 0.05  # what a sentence read with a borrowed alignment gains for the question's words it holds itself
AGREEING_SHARE = 0.4  # a record bears out an answer read elsewhere when it reads it at least this strongly
MIN_READING = 0.25  # a reading weaker than this is no reading: its words barely meet the question's
RANK_STEP = 0.15  # a reading's weight falls so much with each record of its channel ranked above its own
MANY_RANK_STEP = 0.1  # ... less when every one of a kind is asked: each may be said in a line of its own
# the best records read (twice as many when every one of a kind is asked): the answer is near
# the top or not found by reading
EVIDENCE_READ = 12
HINT_BONUS = 0.25  # a candidate right after the noun naming the asked kind ("pin 7316")
SPEAKER_BONUS = 0.25  # what the speaker of a line gains when the question asks who did something
OBJECT_BONUS = 0.25  # what a candidate gains for being what the question's verb acts on or states


SPAN_KINDS = frozenset(_LABELS) | {"colour", "code", "frequency"}  # kinds whose answer is a short span: a name, a place, a number ...


def unmet(want: Wanted | None, read: bool) -> float:
    """How plainly a line answers a question that asked for something it does not hold: 1
    when a span was asked ("what's the extension?") and none was read out of the evidence,
    0.5 when the object of the question's own verb was asked ("what does he sell?") and
    none was read, else 0."""
    if want is None or read:
        return 0.0
    if want.kind in SPAN_KINDS:
        return 1.0
    return 0.5 if want.kind in ("thing", "act") and want.verb is not None else 0.0


def _once_each(around: Callable[[MemoryRecord], Sequence[MemoryRecord]]) -> Callable[[MemoryRecord], Sequence[MemoryRecord]]:
    """`around` asked once per record within one read: a line's whole sentence and the
    neighbours read as its context are the same turns, one store query."""
    known: dict[int, Sequence[MemoryRecord]] = {}

    def cached(record: MemoryRecord) -> Sequence[MemoryRecord]:
        key = record.id if record.id is not None else id(record)
        if key not in known:
            known[key] = around(record)
        return known[key]
    return cached


class EvidenceReader:
    """Reads a `Reading` out of ranked evidence for a question (see the module's docstring)."""

    def __init__(self, nlp: SpacyPipeline | None = None, kinds: Kinds | None = None):
        self.nlp = nlp or SpacyPipeline()
        self.kinds = kinds  # WordNet: "my aunt" names someone for "who" (none: names only)
        self._kind_nouns: dict[tuple[str, str], bool] = {}

    def _is_a(self, noun: str, kind: str | None) -> bool:
        """Whether a common noun names one of a kind ("aunt" a person, "hometown" a location),
        asked of WordNet once per pair."""
        if self.kinds is None or kind is None or noun == kind:
            return False
        if (noun, kind) not in self._kind_nouns:
            self._kind_nouns[noun, kind] = self.kinds.is_a(noun, kind)
        return self._kind_nouns[noun, kind]

    def wanted(self, question: str) -> Wanted:
        want = wanted(self.nlp, question)
        if self.kinds is None:
            return want
        if want.verb:  # "who did I ring?": the line says "calling"
            want = replace(want, same_acts=self.kinds.same_acts(want.verb))
        nouns = {(token_stem(t), t.lemma_.lower()) for t in self.nlp(question) if t.pos_ == "NOUN"}
        alike = tuple((stem, others) for stem, lemma in sorted(nouns) if stem in want.words
                      and (others := frozenset(word_stem(o, noun=True) for o in self.kinds.same_things(lemma))))
        return replace(want, alike=alike)  # "how did her children take it?": "they're tough kids"

    def within(self, want: Wanted, named: str, source: str | None) -> Wanted:
        """What is wanted once the question is asked within the recording `named` ("the talk"),
        `source`: the words naming it are met by every record of it, so they no longer sort the
        records, and a record of it is about what was asked even where it shares no other word
        ("which town was the lecture in?": the lower third that names it)."""
        rest = want.words - content_stems(self.nlp(named))
        return replace(want, words=rest or want.words, source=source)

    def read(self, question: str, evidence: Sequence[Evidence], want: Wanted | None = None,
             around: Callable[[MemoryRecord], Sequence[MemoryRecord]] | None = None,
             reply_to: Callable[[MemoryRecord], MemoryRecord | None] | None = None,
             chosen: bool = False) -> Reading | None:
        """The best reading; `around` gives a record's neighbours (the rest of a screen, the
        turns either side), read as context of the best few records; `reply_to` the turn that
        answers a spoken line: a question put in the conversation that meets the one asked
        ("Which team did you sign with?") is answered by its reply ("The Minnesota Wolves!").
        `chosen`: the evidence was chosen by what it is, not by its words (the promises made to
        Bob): each record meets the question most of the way, as a named recording's do."""
        want = want or self.wanted(question)
        if want.kind == "yes_no" or not want.words:
            return None
        around = _once_each(around) if around is not None else None
        readings: dict[str, list[Reading]] = {}
        spell = want.kind != "code"  # a code is read as written ("AB12CD"), not spelled out
        seen: set[int] = set()
        # a recording's title names its people and topic, it quotes nobody: no line to answer with
        skipped = ROLL_UPS + ((RECORDING,) if want.kind in (*QUOTE_KINDS, "code") else ())  # no code in "S1, 22 %"
        top = [e for e in evidence if e.record.kind not in skipped
               and not (e.record.id in seen or seen.add(e.record.id))][:EVIDENCE_READ * (2 if want.many else 1)]
        # ranked within its channel (ten lines of speech do not bury a sign); the records of the
        # recording the question names are all first: they are what it asks about
        ranks = [0 if want.source is not None and e.record.video_id == want.source else
                 sum(o.record.kind == e.record.kind for o in top[:n]) for n, e in enumerate(top)]
        sentences = [sentence_of(e.record, around, spell) for e in top]
        self.nlp.prefetch([*sentences, *(prepared(e.record) for e in top)])  # one batch, not a parse per record
        for rank, e, sentence in zip(ranks, top, sentences):
            for reading in self._read_record(want, e, rank, text=sentence, given=SCOPE_ALIGNMENT if chosen else 0.0):
                readings.setdefault(reading.answer.lower(), []).append(reading)
        if reply_to is not None and not asks_for_a_question(want.verb):
            for reading in self._read_replies(want, top, ranks, reply_to, around, spell):
                readings.setdefault(reading.answer.lower(), []).append(reading)
        if around is not None and want.kind not in QUOTE_KINDS:  # a quote is a line that meets the question itself
            aligned = sorted(((self.alignment(want, e.record), rank, e) for rank, e in zip(ranks, top)),
                             key=lambda a: (-a[0], a[1]))
            context = [a for a in aligned if a[0] >= CONTEXT_ALIGNMENT][:CONTEXT_READ]
            self.nlp.prefetch(prepared(n, spell) for _, _, e in context for n in around(e.record) if n.id not in seen)
            for alignment, rank, e in context:
                for near in around(e.record):
                    if near.id not in seen:
                        for reading in self._read_record(want, Evidence(near, e.score, "context"), rank, alignment,
                                                         text=prepared(near, spell)):
                            readings.setdefault(reading.answer.lower(), []).append(reading)
        if not readings:
            # no thing the question's verb acts on, nothing said of what it was like: the line that meets it best
            return self.read(question, evidence, replace(want, kind="quote"), around, reply_to) \
                if want.kind in ("thing", "quality") else None
        best = []
        for same in readings.values():
            top = max(same, key=lambda r: r.score)
            # records agree when they are not one another's copies (a logo read on every frame of a
            # clip, or one sentence read from each of the turns it was cut into, is one record), and
            # when each reads it as an answer: "freedom" in a line about a drawing does not bear out
            # "freedom" read of an eagle
            others = len({(r.evidence.record.video_id, r.evidence.record.kind, r.sentence.lower())
                          for r in same if r.evidence.record.kind not in DERIVED
                          and r.score >= AGREEING_SHARE * top.score}) - 1
            others = max(others, 0)
            best.append(replace(top, score=top.score + 0.1 * min(others, 2), agreeing=others + 1,
                                also=agreeing(top, same)))
        # ranked by their whole scores ("password 4242" above "extension 1234", both past 1), then capped
        chosen = max(best, key=lambda r: r.score)
        if chosen.score < MIN_READING:
            return None
        if not want.many or chosen.kind in QUOTE_KINDS:
            return replace(chosen, score=min(1.0, chosen.score))
        many = listed(chosen, best, (lambda answer: want.hint in {singular(w) for w in answer.lower().split()})
                      if want.hint else None)
        return replace(many, score=min(1.0, many.score))

    def _read_replies(self, want: Wanted, top: Sequence[Evidence], ranks: Sequence[int],
                      reply_to: Callable[[MemoryRecord], MemoryRecord | None],
                      around: Callable[[MemoryRecord], Sequence[MemoryRecord]] | None, spell: bool) -> list[Reading]:
        """Readings of the replies to the lines among the evidence that ask what the question
        asks: the line that asks and its reply together meet the question (the reply's
        speaker stands for the "you" it was asked of), and the reply is read as if it said it."""
        out = []
        for rank, e in zip(ranks, top):
            line = prepared(e.record)
            if e.record.kind != UTTERANCE or not asks(line):
                continue
            reply = reply_to(e.record)  # read as a reply though it may be among the evidence already
            if reply is None:
                continue
            said = sentence_of(reply, around, spell)
            line_doc = self.nlp(line)  # parsed already with the evidence, as the reply is for reading it
            pair = self._aligned_share(want, reply, line_doc, self.nlp(said))
            if pair < REPLY_ALIGNMENT:
                continue
            # a line asking for the same kind of answer ("What position are you playing?" for
            # "what is his position on the team he signed with?") is the question put again
            asked = [s for s in line_doc.sents if asks(s.text)]
            again = bool(asked) and _same_ask(self.wanted(asked[-1].text), want)
            out += [replace(r, also=(e,), asked=line, score=round(r.score + (SAME_ASK if again else 0.0), 4))
                    for r in self._read_record(want, Evidence(reply, e.score, "reply"), rank, pair, text=said, reply=again)]
        return out

    def alignments(self, want: Wanted, records: Sequence[MemoryRecord]) -> list[float]:
        """`alignment` of each record, their texts parsed in one batch."""
        self.nlp.prefetch(prepared(r) for r in records)
        return [self.alignment(want, r) for r in records]

    def alignment(self, want: Wanted, record: MemoryRecord) -> float:
        """The share of the question's words a record holds, its speaker's name among them."""
        if not want.words:
            return 0.0
        return self._aligned_share(want, record, self.nlp(prepared(record)))

    @staticmethod
    def _aligned_share(want: Wanted, record: MemoryRecord, *docs) -> float:
        """The share of the question's words the parsed texts hold, the record's speaker among
        them; a verb naming the same act holds the question's verb."""
        held = {w for w in (record.attrs.get("speaker_name") or "").lower().split()}
        for doc in docs:
            held |= _held(doc)
        return len(want.met_in(held)) / len(want.words)

    def _read_record(self, want: Wanted, e: Evidence, rank: int, borrowed: float = 0.0,
                     text: str | None = None, reply: bool = False, given: float = 0.0) -> list[Reading]:
        """Readings of one record (or of `text`, its whole sentence). `borrowed`: the alignment
        of the record it is context of (a neighbour is read as if it said what its neighbour
        said, a little weaker); `reply`: the record answers a line that asked what the question
        asks, so a bare noun phrase or what its speaker says they are is the answer; `given`:
        how far it meets the question whatever its words (a named recording's, a chosen act's)."""
        if want.kind == "person" and e.record.kind == ENTITY_SIGHTING and e.record.attrs.get("source") != "face":
            return []  # "who": a thing seen (a logo, a word on a sign) is no one; a face seen is someone
        doc = self.nlp(text or prepared(e.record))
        step = MANY_RANK_STEP if want.many else RANK_STEP
        weight = (DERIVED_WEIGHT if e.record.kind in DERIVED else 1.0) / (1.0 + step * rank)
        if borrowed and not reply:
            weight *= CONTEXT_WEIGHT
        if want.people and not about(e.record, want.people):
            weight *= OTHER_PERSON_WEIGHT  # "where is Sheila from?" is answered by what Sheila said or what names her
        if want.source is not None and e.record.video_id == want.source:
            given = SCOPE_ALIGNMENT
        record_align = max(self._aligned_share(want, e.record, doc), borrowed, given)
        # the noun naming the kind is the question's too: "what kind of picture?" is not "picture"
        question_words = want.words | ({word_stem(want.hint, noun=True)} if want.hint else set())
        # what a quoted line, or one said to describe a thing, must speak of, beside whom (and "feel")
        topical = question_words - want.people - ({word_stem(want.verb)} if want.kind == "quality" and want.verb else set())
        naming = kind_words(want)
        head_end, labels = untold(e.record) if doc.text == e.record.text else (0, [])
        frames = image_frames(doc.text)  # "[shared an image: a photo of" says a picture was shared
        if want.kind in ("date", "time"):
            head_end = 0  # a heading says when
        out = []
        sents, fixed, fixed_to = list(doc.sents), 0.0, -1
        for i, sent in enumerate(sents):
            if opens_a_correction(" ".join(s.text for s in sents[i + 1:i + 3])):
                # "The team lunch is on Wednesday. Sorry. I mean Tuesday.": what it became is read, as
                # meeting the question as far as the sentence it corrects did
                fixed, fixed_to = len(want.met_in(_held(sent))) / len(want.words), i + 2
                continue
            lent = max(given, fixed if i <= fixed_to else 0.0)
            requests = asks(sent.text) and asks_the_act(want, doc, sent)  # "could you send me the report?"
            if not asks_for_a_question(want.verb) and asks(sent.text) and not requests:
                continue  # "so what is luck?", "excited for the adoption?": a line that asks states nothing
            held = _held(sent)
            if want.kind in (*QUOTE_KINDS, "quality") and (heading(e.record, sent.text) or not (borrowed or lent or requests)
                                                           and topical and not topical & held):
                continue  # a caption's heading, or a line meeting the question only in its people's names
            # the words of the question; where none is there, a noun naming the kind it asks ("password" for
            # "the code"). The lines of one sign read together (a label over its value: "WIFI PASSWORD" / "BLUEFOX42")
            region = [t for t in (doc if e.record.kind == TEXT_SIGHTING else sent) if not t.is_punct]
            aligned = [t.i for t in region if (_verb_stems(t) if t.pos_ == "VERB" else {token_stem(t)}) & want.meeting] or \
                [t.i for t in region if t.lemma_.lower() in naming]
            own = len(want.met_in(held)) / len(want.words)
            if want.kind == "code" and want.words - want.people and not (borrowed or lent) \
                    and not want.met_in(_held(region)) - want.people \
                    and not any(t.lemma_.lower() in naming - {want.hint} for t in region):
                # "what's Mei's phone number?": no number beside her name but one named a phone's (a
                # "password" names the "code" the question asks for)
                continue
            sent_align = max(own, borrowed, lent)
            if not aligned and record_align == 0:
                continue
            said = sent  # "Just yesterday I joined a nearby church." says only what "why did she join?" says
            if want.kind in QUOTE_KINDS and not asks_for_a_question(want.verb) and restating(want, sent, own):
                said = beside(sent) or sent
            equating = bool(want.equated) and (reply or want.words - want.people <= held) and \
                (not want.people or line_about(e.record, sent.text, want.people))
            for span, bonus in self._candidates(want, doc, said, e.record.wall_start, reply, e.record.kind == UTTERANCE,
                                                equating):
                if span.start_char < head_end or span.start_char in labels or \
                        any(a <= span.start_char < b for a, b in frames):
                    continue  # a caption's heading says when, not a count, a name or a thing; a label says who speaks
                if want.kind not in QUOTE_KINDS:
                    span = _past_the_asked_act(want, span)
                stems = content_stems(span)
                if stems and stems <= question_words and not (want.kind in QUOTE_KINDS and bonus >= ASKED_LINE):
                    continue  # a word of the question is not its answer (but it may be what was asked)
                if not stems and want.kind in ("person", "place", "organisation", "thing") or \
                        want.kind == "person" and all(is_voice_label(t.text) for t in span if not t.is_punct):
                    continue  # "his name", "that one", "S2": words that point at an answer are not one
                inside = set(range(span.start, span.end))
                distance = min((abs(i - (span.start if i < span.start else span.end - 1)) for i in aligned
                                if i not in inside), default=None)
                near = (0.5 if borrowed else 0.3) if distance is None else 1.0 / (1.0 + distance / 4)
                around_it = sent_align if want.kind in QUOTE_KINDS else max(
                    len(want.met_in(_held([t for t in sent if t.i not in inside]))) / len(want.words), borrowed, lent)
                # a span meets the question by the words around it: its own words repeat the question
                # ("a dance studio location" for "what flooring is he looking for in his dance studio?")
                score = weight * (0.45 * around_it + 0.2 * record_align + 0.35 * near + bonus)
                if borrowed:  # of a reply's (or a neighbour's) sentences, the one meeting the question itself first
                    score += weight * OWN_WORDS * own
                text = self._answer_text(want, span, e.record.wall_start)
                if want.kind not in QUOTE_KINDS:  # a quote stays as said
                    text = as_said_by(text, e.record)
                if want.kind == "code":
                    text = as_written(text, e.record)
                if text:
                    out.append(Reading(text, want.kind, e, said.text.strip(), round(score, 4),
                                       beside=said is not sent))
        speaker = e.record.attrs.get("speaker_name") if e.record.kind == UTTERANCE else None
        if want.kind == "person" and speaker and e.record.video_id == want.source and not want.people \
                and not {w.lower() for w in speaker.split()} & want.words:
            # "who gave the lecture?": whoever speaks in the recording the question names
            score = weight * (0.65 * record_align + 0.35 * 0.3) + (SPEAKER_BONUS if want.subject else 0.0) * weight
            out.append(Reading(speaker, want.kind, e, doc.text.strip(), round(score, 4)))
        return out

    def _candidates(self, want: Wanted, doc, sent, said_at: datetime, reply: bool = False, spoken: bool = False,
                    equating: bool = False):
        """(span, bonus) pairs of the wanted kind in one sentence; in a reply, what the
        speaker says they are ("I'm a shooting guard") answers what was asked of them;
        `equating`: the sentence says all the question describes, by or of whom it names, so
        what it equates with the description answers ("this necklace is a gift from my grandma")."""
        kind = want.kind
        if kind in ("quote", "reason"):
            if courtesy(sent):
                return []  # "Thanks, Melanie!" before a reply's answer quotes nothing
            cue = _REASON_CUE.search(sent.text) if kind == "reason" else None
            if cue is not None:
                start = doc.char_span(sent.start_char + cue.end(), sent.end_char, alignment_mode="expand")
                if start is not None and len(start):
                    return [(start, 0.1)]
            asked = asks_for_a_question(want.verb) and asks(sent.text)
            if want.defines and defines(sent, want.defines):  # "what is luck?": "Luck is defined as ..."
                return [(sent, OBJECT_BONUS)]
            return [(sent, ASKED_LINE if asked else 0.0)]  # "what did she ask?": the line that asks
        fragment = verbless_phrase(doc, sent) if reply else None  # "The Minnesota Wolves!": a reply's answer, whatever its label
        if kind in _LABELS:
            spans = date_mentions(sent) if kind == "date" else [ent for ent in sent.ents if ent.label_ in _LABELS[kind]]
            if fragment is not None and kind in ("person", "place", "organisation") and \
                    not any(s.start <= fragment.root.i < s.end for s in spans):
                return [(fragment, OBJECT_BONUS)]
            if kind == "place":  # "where did they camp?": "we camped at the beach", a place named by no entity
                spans += [c for c in sent.noun_chunks if c.root.dep_ == "pobj" and c.root.head.lower_ in _LOCATIVE
                          and c.root.head.head.lemma_.lower() in want.acts and c.root.ent_type_ not in _NOT_THINGS
                          and not any(s.start <= c.root.i < s.end for s in spans)]
            if kind == "duration":  # a length of time ("five years ago" too: it has been five years); "last week" says when
                spans = [s for s in spans if any(s_stem(t.lemma_.lower()) in _UNITS for t in s)
                         and not any(t.lower_ in _WHEN_WORDS - {"ago"} for t in s)]
            elif kind == "date":
                spans = [s for s in spans if not any(s_stem(t.lemma_.lower()) in _UNITS for t in s)
                         or any(t.lower_ in _WHEN_WORDS for t in s)]
            # "my aunt", "Maria's coach", "my home country": someone or somewhere named by whose they are
            spans += [c for c in sent.noun_chunks
                      if c.root.pos_ == "NOUN" and any(t.dep_ == "poss" for t in c.root.children)
                      and self._is_a(c.root.lemma_.lower(), _KIND_ROOTS.get(kind))]
            if kind == "time" or kind == "date" and want.hint is None and not want.since and spoken:
                spans += [s for s in clock_times(sent, want.ahead) if s not in spans]  # "when?": a day or an hour
            if kind == "number":  # "press one", "pin 7316": a number spaCy leaves bare or calls a year
                spans += [doc[t.i:t.i + 1] for t in sent if t.like_num and t.pos_ == "NUM"
                          and not any(s.start <= t.i < s.end for s in spans)]
            # "who": a person's name before an organisation's (a logo on screen is not the speaker)
            return [(s, self._object_bonus(want, s) + self._named_by_hint(want, s)
                     - (ORG_AS_PERSON if kind == "person" and s.label_ == "ORG" else 0.0)
                     - (CALLED_OUT if kind == "person" and want.verb not in _ADDRESSING
                        and called_out(doc.text, s.start_char, s.end_char) else 0.0)) for s in spans]
        if kind == "colour":
            return [(span, 0.0) for span in colours(sent)]
        if kind == "quality":  # "how did she feel?": "nervous but excited"; of the thing asked about first
            return [(span, OBJECT_BONUS if (of := described(span)) is not None and token_stem(of) in want.words
                     - want.people else 0.0) for span in qualities(sent)]
        if kind == "frequency":  # "how often": "twice a month", "every Sunday", "daily"
            return [(span, 0.0) for span in frequencies(sent)]
        if kind == "act":  # what someone was asked to do or promised: "call the plumber tomorrow morning"
            return [(span, OBJECT_BONUS) for span in undertaken(doc, sent)]
        if kind == "code":  # "press one", "extension 204", "AB12CD"
            return [(w, self._named_by_hint(want, w)) for w in codes(sent)]
        # a thing: the object of the question's verb, or a chunk naming the hinted kind ("sourdough bread")
        chunks = [with_its_number(c) for c in sent.noun_chunks if c.root.pos_ in ("NOUN", "PROPN")
                  and c.root.lower_ not in STOP
                  and c.root.ent_type_ not in _NOT_THINGS]  # "on Sunday", "29 of them": a time or a count is no thing
        out = [(fragment, OBJECT_BONUS)] if fragment is not None else []
        # "what book did she recommend?": "Becoming Nicole", as a turn quotes it (a caption quotes what was read)
        if want.hint and spoken and not self._is_a(want.hint, "person"):
            out += [(title, OBJECT_BONUS) for title in titles(sent)]
        # "what did Bob want from me?": what his request asks for ("could you send me the report?")
        requested = {a.root.i for a in undertaken(doc, sent)} if want.verb in WANTING and asks(sent.text) else set()
        for chunk in chunks:
            bonus = self._object_bonus(want, chunk)
            if reply and not bonus and chunk.root.dep_ == "attr" and chunk.root.head.lemma_ == "be" or \
                    chunk.root.dep_ == "dobj" and chunk.root.head.i in requested:
                bonus = OBJECT_BONUS
            if want.hint and len(chunk) > 1 and (chunk.root.lemma_.lower() == want.hint or want.hint in chunk.text.lower()):
                bonus += OBJECT_BONUS  # "what kind of flooring?": "Marley flooring" names one
            if bonus:
                # the things said together as one answer, unless each is listed on its own ("what plants ...?")
                out.append((without_determiners(doc, chunk if want.many else coordinated(doc, chunk, chunks)), bonus))
        return out + [(clause, OBJECT_BONUS) for clause in complements(doc, sent, want.verb)] \
            + [(without_determiners(doc, said), OBJECT_BONUS) for said in (equated(sent, want.equated, chunks) if equating else ())] \
            + [(kept, OBJECT_BONUS) for kept in of_the_act(doc, chunks, want.verb)] \
            + [(without_determiners(doc, item), OBJECT_BONUS) for item in numbered_items(sent, want.numbered, chunks)] \
            + [(n, OBJECT_BONUS + self._named_by_hint(want, n)) for n in by_number(sent, want.hint)]

    @staticmethod
    def _named_by_hint(want: Wanted, span) -> float:
        """A bonus when a noun that names the asked kind stands right before the span
        ("pin 7316" for "what was the pin?", "the city of Leeds", "password BLUEFOX42" for
        "the code")."""
        if not want.hint:
            return 0.0
        doc = span.doc
        before = [t for t in doc[max(0, span.start - 3):span.start] if not t.is_punct and t.lower_ not in STOP]
        if not before or before[-1].lemma_.lower() not in kind_words(want):
            return 0.0
        if before[-1].lemma_.lower() == want.hint:
            return HINT_BONUS  # the question's own noun first
        # "extension 1234 and password 4242" for "the password": another kind's value where the question's names one
        return 0.0 if any(t.lemma_.lower() == want.hint for t in span.sent) else HINT_BONUS / 2

    @staticmethod
    def _object_bonus(want: Wanted, span) -> float:
        """A bonus when the span is what the question's verb acts on in this sentence ("I
        sell insurance" for "what does he sell?"), who does it when the question asks who,
        or the object of one of its prepositions ("originally from Chicago" for "where is
        she from?")."""
        head = span.root
        if head.dep_ == "pobj" and head.head.lower_ in want.preps and \
                want.verb in (None, head.head.head.lemma_.lower()):
            return 0.2  # of the question's own verb: not "on the hunt for the ideal spot" for "looking for"
        if want.light and head.dep_ == "dobj" and head.head.dep_ == "ROOT":
            return OBJECT_BONUS  # "which file did I say I'd get over to Ann?": "I'll send the budget"
        if want.verb is None:
            return 0.0
        acts = want.acts  # "who did I ring?": "thank you for calling Acme"
        if want.subject and head.dep_ == "nsubj" and head.head.lemma_.lower() in acts:
            return OBJECT_BONUS  # "who presented the film?": "Acme Films presents"
        preps = []
        while head.dep_ in _OBJECTS | {"prep", "pcomp", "conj", "appos", "compound", "amod"} and head.head is not head:
            head = head.head
            if head.dep_ == "prep" and want.preps and head.lower_ not in want.preps:
                return 0.0  # "what is she looking for?": not "on stage" in "you look badass on stage"
            if head.dep_ == "prep":
                preps.append(head.lower_)
            if head.pos_ in ("VERB", "AUX"):
                break
        verb = head.lemma_.lower()  # "it stands for love" is what "symbolize" (stand_for) acts on
        return OBJECT_BONUS if verb in acts or any(f"{verb}_{p}" in acts for p in preps) else 0.0

    @staticmethod
    def _answer_text(want: Wanted, span, said_at: datetime) -> str:
        text = span.text.strip(" ,.;:!?\"'")
        if any(t.text in "[]()" for t in span):
            return ""  # a span across a bracket runs from an aside into the line ("a dance] Gina"): two texts
        if want.kind in ("number", "money") and not any(t.like_num for t in span):
            return ""  # spaCy's tagger can call a word on a sign a number; a number has digits or number words
        if want.kind == "duration" and text.lower().endswith(" ago"):
            return text[:-4]  # "how long has he been surfing?": "I started five years ago" -> "five years"
        if want.kind == "date":
            if want.since and any(t.lower_ == "ago" for t in span):
                return text  # "how long ago was her 18th birthday?": "ten years ago", not "2013"
            when = parse_date(text, said_at, "future" if looks_ahead(span.sent) else "past")
            relative = any(t.lower_ in ("ago", "last", "next", "yesterday", "today", "tomorrow", "this") for t in span)
            if when is not None and relative:
                return date_phrase(text, when, said_at)
        return text


def _held(span) -> set[str]:
    """The stems a span holds to meet a question's words: its content words, and its verbs,
    even those spaCy counts as stop words ("calling" meets "ring"), with their particles
    ("stands for" is "stand_for", which meets "symbolize")."""
    return content_stems(span) | {stem for t in span if t.pos_ == "VERB" for stem in _verb_stems(t)}


def _past_the_asked_act(want: Wanted, span):
    """A span without the question's own verb leading it: "rereading 'The Alchemist'" for
    "what book did he finish rereading?" is "The Alchemist", "learning an instrument" for
    "what did he start learning?" "an instrument"."""
    while len(span) > 1 and span[0].pos_ == "VERB" and _verb_stems(span[0]) & want.meeting:
        span = span[1:]
    return span


def _verb_stems(verb) -> set[str]:
    """A verb's stem, and its stem with each particle or preposition it takes ("stand_for")."""
    own = token_stem(verb)
    return {own, *(f"{own}_{c.lower_}" for c in verb.children if c.dep_ in ("prep", "prt"))}


def _same_ask(asked: Wanted, want: Wanted) -> bool:
    """Whether a line asks for what the question asks: the same kind, and the same noun naming
    it when the line names one ("what position", "which team")."""
    if asked.kind != want.kind:
        return False
    if asked.hint is None:  # "where are you from?": a place is a place; "what is it?" asks anything
        return asked.kind not in ("thing", *QUOTE_KINDS)
    return asked.hint == want.hint or word_stem(asked.hint, noun=True) in want.words

"""What kind of thing a noun names, from WordNet's noun taxonomy.

People ask about a "woman", a "guy" or a "van" where the detector said "person" or "truck",
and about "the talk" or "the meeting", which name no thing anyone could have seen. Three
questions answer these: is one noun a kind of another (a hyponym of it), could a noun name
something visible (a body, or a message written or shown rather than spoken), and is a
phrase one noun ("phone call"). Only a word's frequent senses count (those WordNet's
sense-tagged corpus found, or all when none was). WordNet loads once, on first use (about 2 s); without its files
(`memory.wordnet_data`) every answer is "unknown" and callers keep their old behaviour.
"""
from __future__ import annotations

import re
import threading
import warnings
from functools import cached_property
from pathlib import Path
from typing import Any

from memory.language import verb_forms
from memory.wordnet_data import installed, wordnet_root

# WordNet's roots of what one could see: bodies, and messages written or shown (a passport,
# a note, a sign) rather than spoken or done (a talk, a meeting)
VISIBLE_ROOTS = ("physical_entity.n.01", "written_communication.n.01", "visual_communication.n.01")
WNID = re.compile(r"n\d{8}")  # a WordNet 3.0 noun by its offset, as ImageNet's class ids are
SAME_ACT_SENSES = 4  # a verb's most frequent senses in which another verb may name the same act
SAME_THING_SENSES = 2  # a noun's most frequent senses in which it may name what another names in its first


class Kinds:
    """Hyponymy and visibility of English nouns (thread-safe, lazy)."""

    def __init__(self, model_dir: Path | None):
        self.model_dir = model_dir
        self._lock = threading.RLock()  # nltk's reader seeks shared files: one query at a time
        self._acts: dict[str, frozenset[str]] = {}
        self._things: dict[str, frozenset[str]] = {}

    @cached_property
    def available(self) -> bool:
        """Decided once: it is asked for every printed line an ingest reads."""
        return self.model_dir is not None and installed(self.model_dir)

    def load(self) -> None:
        """Read WordNet now (2-7 s), as a server does at start, not in the first question
        that names a kind of thing; nothing without its files."""
        if self.available:
            with self._lock:
                _ = self._wordnet, self._tagged

    @cached_property
    def _wordnet(self) -> Any:
        with self._lock:  # also keeps two threads from loading it twice
            import nltk
            from nltk.corpus.reader.wordnet import WordNetCorpusReader

            root = wordnet_root(self.model_dir)
            if str(root) not in nltk.data.path:
                nltk.data.path.append(str(root))  # nltk reads only under its data path

            class _EnglishOnly(WordNetCorpusReader):
                def map_wn(self, version: str = "wordnet") -> None:
                    return None  # the map to other wordnets serves multilingual lookups only

            with warnings.catch_warnings():  # "multilingual functions are not available": none are used
                warnings.simplefilter("ignore", UserWarning)
                return _EnglishOnly(str(root / "corpora" / "wordnet"), None)

    @cached_property
    def _tagged(self) -> dict[str, int]:
        """How many of each noun's senses (listed most frequent first) the tagged corpus saw."""
        counts: dict[str, int] = {}
        with open(wordnet_root(self.model_dir) / "corpora" / "wordnet" / "index.noun", encoding="utf-8") as index:
            for line in index:
                if line.startswith(" "):
                    continue  # the licence header
                fields = line.split()
                pointers = int(fields[3])
                counts[fields[0]] = int(fields[5 + pointers])
        return counts

    def senses(self, phrase: str) -> list:
        """The phrase's frequent noun senses: the whole phrase when WordNet knows it ("phone
        call"), else its head, the last word."""
        if not self.available:
            return []
        with self._lock:
            return self._senses(phrase.lower().split())

    def _senses(self, words: list[str]) -> list:
        for lemma in ("_".join(words), words[-1] if words else ""):
            found = self._wordnet.synsets(lemma, pos="n") if lemma else []
            if found:
                base = self._wordnet.morphy(lemma, "n") or lemma
                tagged = self._tagged.get(base, 0)
                return found[:tagged] if tagged else found
        return []

    def compound(self, phrase: str) -> bool:
        """Whether WordNet lists the several-word phrase as one noun ("phone call")."""
        words = phrase.lower().split()
        if len(words) < 2 or not self.available:
            return False
        with self._lock:
            return bool(self._wordnet.synsets("_".join(words), pos="n"))

    def steps_up(self, phrase: str, kind: str) -> int | None:
        """How many hypernym steps lead from a frequent sense of `phrase` (or the sense a
        WordNet id names) up to `kind` in its most common sense (a detector's "car" is an
        automobile, not a railway car), None when none does: a "van" is one step under
        truck and more under car (a camper)."""
        targets = set(self.senses(kind)[:1])
        if not targets:
            return None
        with self._lock:
            own = self._sense_of(phrase) if WNID.fullmatch(phrase) else self.senses(phrase)
            steps = [d for sense in own for above, d in sense.hypernym_distances() if above in targets]
        return min(steps, default=None)

    def is_a(self, phrase: str, kind: str) -> bool:
        """Whether some frequent sense of `phrase` is `kind` or lies under it ("van" -> truck)."""
        return self.steps_up(phrase, kind) is not None

    def related(self, a: str, b: str, within: int = 2) -> bool:
        """Whether two nouns name one kind of thing: one is a kind of the other, or their
        most common senses meet within `within` hypernym steps of each (a lemon and an
        orange are both citrus; a moped and a bicycle both wheeled vehicles). `a` may be a
        WordNet 3.0 noun id ("n02930766", as ImageNet names its classes): that very sense."""
        first_a, first_b = self._sense_of(a), self._sense_of(b)
        if not first_a or not first_b:
            return False
        with self._lock:
            above_a = dict(first_a[0].hypernym_distances())
            above_b = dict(first_b[0].hypernym_distances())
        if first_b[0] in above_a or first_a[0] in above_b:
            return True
        if WNID.fullmatch(a) is None and (self.is_a(a, b) or self.is_a(b, a)):
            return True  # another frequent sense of the phrase
        return any(d <= within and above_a.get(s, within + 1) <= within for s, d in above_b.items())

    def _sense_of(self, noun: str) -> list:
        if WNID.fullmatch(noun) is None:
            return self.senses(noun)[:1]
        if not self.available:
            return []
        with self._lock, warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # nltk warns, then returns None, for an unknown offset
            try:
                found = self._wordnet.synset_from_pos_and_offset("n", int(noun[1:]))
            except Exception:  # noqa: BLE001 - an older nltk raises WordNetError instead
                found = None
        return [found] if found is not None else []

    def verb_forms(self, verb: str) -> tuple[str, ...]:
        """The verb's forms, its irregular ones among them ("feel" -> felt), when WordNet is there."""
        return tuple(dict.fromkeys(verb_forms(verb) + tuple(self._irregular_verbs.get(verb.lower(), ()))))

    def same_acts(self, verb: str) -> frozenset[str]:
        """Verbs that name the same act as `verb` in one of both verbs' few most frequent senses
        ("ring" and "call", "purchase" and "buy", "symbolize" and "stand_for"): a question asks
        with one, the line says the other. A phrasal verb is its verb and particle joined by
        "_". Empty without WordNet."""
        if not self.available or not verb.isalpha():
            return frozenset()
        with self._lock:
            if verb not in self._acts:
                senses = self._wordnet.synsets(verb, pos="v")[:SAME_ACT_SENSES]
                self._acts[verb] = frozenset(
                    other for sense in senses for lemma in sense.lemmas() if (other := lemma.name()) != verb
                    and _one_verb(other) and sense in self._wordnet.synsets(other, pos="v")[:SAME_ACT_SENSES])
            return self._acts[verb]

    def same_things(self, noun: str) -> frozenset[str]:
        """Nouns (single words) that name what `noun` names in its most frequent sense, in one
        of their own two most frequent ("kids" for "children", "film" for "movie", "store"
        for "shop"): a question asks with one, the line says the other. Empty without WordNet."""
        if not self.available or not noun.isalpha():
            return frozenset()
        with self._lock:
            if noun not in self._things:
                wordnet = self._wordnet
                first = wordnet.synsets(noun, pos="n")[:1]
                self._things[noun] = frozenset(
                    other for sense in first for lemma in sense.lemmas()
                    if (other := lemma.name().lower()) != noun and other.isalpha()
                    and sense in wordnet.synsets(other, pos="n")[:SAME_THING_SENSES])
            return self._things[noun]

    @cached_property
    def _irregular_verbs(self) -> dict[str, list[str]]:
        """WordNet's exception list of verbs ("felt feel"), from the lemma to its forms."""
        forms: dict[str, list[str]] = {}
        if self.available:
            with open(wordnet_root(self.model_dir) / "corpora" / "wordnet" / "verb.exc", encoding="utf-8") as exc:
                for line in exc:
                    form, *lemmas = line.split()
                    for lemma in lemmas:
                        forms.setdefault(lemma, []).append(form)
        return forms

    def things_used_to(self, verb: str) -> list[str]:
        """Devices a verb names using ("cycle" -> bicycle, motorcycle; "ski" -> ski; "type" ->
        typewriter): nouns WordNet derives from the verb's senses' words that are kinds of
        instrumentality. What to look for in view when a question asks about an activity
        ("did I see anyone cycling?"); empty without WordNet or such a noun."""
        if not self.available:
            return []
        with self._lock:
            tool = self._wordnet.synset("instrumentality.n.03")
            found: list[str] = []
            for sense in self._wordnet.synsets(verb, pos="v"):
                for lemma in sense.lemmas():
                    for noun in (d.synset() for d in lemma.derivationally_related_forms()):
                        name = noun.lemmas()[0].name().replace("_", " ")
                        if noun.pos() == "n" and name not in found and tool in noun.closure(lambda x: x.hypernyms()):
                            found.append(name)
        return found

    def visible(self, phrase: str) -> bool | None:
        """Whether the phrase could name something one sees; None when WordNet cannot say."""
        with self._lock:
            senses = self.senses(phrase)
            if not senses:
                return None
            roots = {self._wordnet.synset(name) for name in VISIBLE_ROOTS}
            return any(roots & {above for above, _ in sense.hypernym_distances()} for sense in senses)


def _one_verb(name: str) -> bool:
    """A WordNet lemma that is a word or a phrasal verb ("stand_for"), not a longer idiom."""
    parts = name.split("_")
    return len(parts) <= 2 and all(p.isalpha() for p in parts)

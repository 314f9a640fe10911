"""Known misreadings by spaCy's small English model, put right on the parse (of questions and
of the lines they are read against alike).

Each repair is a grammatical fact ("did" and "have" are never both auxiliaries of one verb;
a word that is its own lemma after "is" is no participle; a sentence's main verb is never an
infinitive opened by "to"), not a question's wording."""
from __future__ import annotations


def repaired(doc):
    """The parse with the small model's known misreadings put right."""
    return _repair_order_after_purpose(_repair_be_noun(_repair_do_support(_repair_do_have(doc))))


_OBJECT_LIKE = ("npadvmod", "appos", "nummod", "attr")  # how the model hangs an order's object off a "noun"


def _repair_order_after_purpose(doc):
    """"To check voicemail, dial extension 8500.": an order after a purpose clause, whose verb
    the small model reads as a noun: either as the root ("dial 6.00", "press two"), or, finding
    no main verb, as a noun modifier ("dial extension") under the purpose clause made root. A
    sentence's main verb is never an infinitive opened by "to", and a bare noun is no root with
    a purpose clause of its own: the word that opens the clause after the comma is the verb."""
    for sent in list(doc.sents):
        opener = sent[0]
        if opener.lower_ != "to" or len(sent) < 4:
            continue
        root = sent.root
        comma = next((t for t in sent if t.text == "," and t.i > opener.i), None)
        order = doc[comma.i + 1] if comma is not None and comma.i + 1 < sent.end else None
        if order is None or order.pos_ != "NOUN" or order.tag_ != "NN":
            continue
        if root.i == order.i and any(c.dep_ == "advcl" and c.i < comma.i for c in order.children):
            pass  # "To execute an echo test, dial 6.00": the verb is the root, tagged a noun
        elif root.tag_ == "VB" and opener.head.i == root.i and root.i < comma.i and order.dep_ == "compound":
            thing = order.head  # "dial extension 8500": what the verb was read as modifying is its object
            order.head, order.dep_ = order, "ROOT"
            for child in [c for c in root.children if c.i > comma.i]:
                child.head = order
            thing.head, thing.dep_ = order, "dobj"
            root.head, root.dep_ = order, "advcl"
        else:
            continue
        order.pos_, order.tag_ = "VERB", "VB"
        for child in order.children:
            if child.dep_ in _OBJECT_LIKE and child.i > order.i:
                child.dep_ = "dobj"
    return doc


def _repair_be_noun(doc):
    """"what is luck?": the small English model reads the noun as a passive participle ("what
    is eaten?"). A participle is an inflected form ("eaten", "painted"); a word that is its own
    lemma after "is" is the noun the question asks about."""
    for word in doc:
        be = next((c for c in word.children if c.dep_ == "auxpass" and c.lemma_ == "be"), None)
        wh = next((c for c in word.children if c.dep_ == "nsubjpass" and c.tag_ in ("WP", "WDT")), None)
        if word.dep_ != "ROOT" or word.tag_ != "VBN" or be is None or wh is None or \
                word.lower_ != word.lemma_.lower() or any(c.dep_ == "agent" for c in word.children):
            continue
        for child in list(word.children):
            if child.i != be.i:
                child.head = be
        be.head, be.dep_, be.pos_ = be, "ROOT", "AUX"
        word.head, word.dep_, word.pos_, word.tag_ = be, "nsubj", "NOUN", "NN"
        wh.dep_ = "attr"
    return doc


def _repair_do_have(doc):
    """"did I have oatmeal for breakfast?": the small English model reads the food as the
    verb with "did" and "have" as its auxiliaries, which no English sentence has. Make
    "have" the verb and the word it governed its object, so the thing is not lost."""
    for tok in doc:
        auxes = {c.lemma_.lower(): c for c in tok.children if c.dep_ == "aux"}
        if tok.pos_ != "VERB" or "do" not in auxes or "have" not in auxes:
            continue
        have = auxes["have"]
        for child in list(tok.children):
            if child.i != have.i and child.dep_ not in ("compound", "amod", "det"):
                child.head = have
        have.head, have.dep_, have.pos_, have.tag_ = (have, "ROOT", "VERB", "VB") if tok.dep_ == "ROOT" else (tok.head, tok.dep_, "VERB", "VB")
        tok.head, tok.dep_, tok.pos_, tok.tag_ = have, "dobj", "NOUN", "NN"
    return doc


_NAMING = ("PROPN", "PRON")


def _make_verb(verb, do, namer) -> None:
    """`verb` becomes the clause's verb with `do` its auxiliary and `namer` its subject."""
    for child in list(do.children):
        if child.i != verb.i:
            child.head = verb
            if child.tag_ in ("WP", "WDT") and child.dep_ == "attr":
                child.dep_ = "dobj"  # "what did Ann research?": what she researched
    if do.dep_ == "ROOT":
        verb.head, verb.dep_ = verb, "ROOT"
    do.head, do.dep_, do.pos_, do.tag_ = verb, "aux", "AUX", "VBD" if do.lower_ == "did" else do.tag_
    namer.dep_ = "nsubj"
    verb.pos_, verb.tag_ = "VERB", "VB"


def _repair_do_support(doc):
    """"what did Ann research?": the small English model reads the last word as a noun ("Ann's
    research", subject of "did", or the root with "did" its auxiliary). After a question's
    "do" and a name or pronoun, a bare word that ends the question is its verb; English has no
    "what did Ann research?" in which it is a noun."""
    for do in doc:
        if do.lemma_.lower() != "do" or not any(t.tag_ in ("WP", "WDT", "WRB") for t in doc[:do.i]):
            continue
        rest = [t for t in doc[do.i + 1:] if t.pos_ != "PUNCT"]
        if len(rest) != 2 or rest[0].pos_ not in _NAMING or rest[1].pos_ != "NOUN" or rest[0].head.i != rest[1].i:
            continue
        namer, verb = rest
        if do.dep_ == "aux" and verb.dep_ == "ROOT" or do.dep_ == "ROOT" and verb.head.i == do.i:
            _make_verb(verb, do, namer)
    return doc

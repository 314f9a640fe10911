"""LoCoMo's answer F1, exactly as its official evaluation computes it, plus what memlens adds:
refusal on adversarial items and evidence recall.

Matched against snap-research/LoCoMo `task_eval/evaluation.py` (commit 0e22967):
- `normalize_answer`: drop ',' first, lower case, strip `string.punctuation`, replace the
  words a / an / the / and (theirs includes "and") by spaces, collapse whitespace;
- `f1_score`: tokens Porter-stemmed (nltk `PorterStemmer()`, default mode), bag-of-token
  overlap, precision / recall / F1, 0 when nothing is shared;
- `f1` (multi-answer, category 1): prediction and gold both split on ',', each gold part
  scored by its best prediction part, the mean over gold parts;
- `eval_question_answering`: category 3 keeps the gold answer's first ';' part; categories
  2, 3, 4 use plain `f1_score`, category 1 the multi-answer `f1`; category 5 is right when the
  output contains "no information available" or "not mentioned".
memlens's departures: an abstention on categories 1-4 scores 0 (its refusal text is not an
answer); on category 5 an abstention, or an answer saying the information is not there,
counts as the refusal (LoCoMo's two phrases among them).
"""
from __future__ import annotations

import re
import string
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache

from eval.locomo.dataset import ADVERSARIAL

_ARTICLES = re.compile(r"\b(a|an|the|and)\b")
_PUNCT = set(string.punctuation)
# LoCoMo's two phrases, and the ways an answer (memlens's "I can't answer that from memory")
# says the conversation does not hold it; looked for outside quotes, so a quoted turn that
# happens to say "not available" is not a refusal.
REFUSAL = re.compile(r"no information available|not mentioned|no information|not available|"
                     r"can(?:'|no)t answer|(?:don't|do not) know", re.IGNORECASE)
_QUOTED = re.compile(r'"[^"]*"')


@lru_cache(maxsize=1)
def _stemmer():
    from nltk.stem import PorterStemmer  # needs no nltk data download

    return PorterStemmer()


def normalize_answer(s: str) -> str:
    s = s.replace(",", "").lower()
    s = "".join(ch for ch in s if ch not in _PUNCT)
    return " ".join(_ARTICLES.sub(" ", s).split())


def tokens(s: str) -> list[str]:
    stem = _stemmer().stem
    return [stem(w) for w in normalize_answer(s).split()]


def f1_score(prediction: str, gold: str) -> float:
    pred, want = tokens(prediction), tokens(gold)
    same = sum((Counter(pred) & Counter(want)).values())
    if same == 0:
        return 0.0
    precision, recall = same / len(pred), same / len(want)
    return 2 * precision * recall / (precision + recall)


def multi_answer_f1(prediction: str, gold: str) -> float:
    preds = [p.strip() for p in prediction.split(",")]
    golds = [g.strip() for g in gold.split(",")]
    return sum(max(f1_score(p, g) for p in preds) for g in golds) / len(golds)


def locomo_f1(category: int, prediction: str, gold: str) -> float:
    """LoCoMo's per-category F1 of an answer (categories 1-4)."""
    if category == 1:
        return multi_answer_f1(prediction, gold)
    if category == 3:
        gold = gold.split(";")[0].strip()
    if category in (2, 3, 4):
        return f1_score(prediction, gold)
    raise ValueError(f"LoCoMo F1 is defined for categories 1-4, not {category}")


def refused(answer: str, abstained: bool) -> bool:
    return abstained or bool(REFUSAL.search(_QUOTED.sub(" ", answer)))


def answer_f1(category: int, answer: str, abstained: bool, gold: str) -> float | None:
    """The item's F1: None on category 5 (scored by refusal instead), 0 for an abstention."""
    if category == ADVERSARIAL:
        return None
    return 0.0 if abstained else locomo_f1(category, answer, gold)


def recall_at(gold: Sequence[str], ranked: Sequence[str], k: int) -> float | None:
    """Share of the gold turns among the first k refs (None when there is no gold evidence),
    as LoCoMo's own recall_acc counts it per question."""
    if not gold:
        return None
    top = set(ranked[:k])
    return sum(g in top for g in gold) / len(gold)

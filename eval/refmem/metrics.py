"""RefMem-Bench's metrics as the paper defines them (App. D.7-D.8).

- Acc on options: 1 only when the predicted option set equals the gold set (MC has no
  partial credit); on direct answers the judge's verdict (eval.refmem.judge).
- MemR, text dimensions: per item (1/|E_g|) Σ_{e∈E_g} max_{ê∈E_p} cos(φ(e), φ(ê)), each
  cosine clamped to [0, 1]; None (left out of the mean) unless both gold and predicted
  evidence are non-empty, as the paper averages. φ is not named in the paper; callers pass
  all-MiniLM-L6-v2, the encoder it uses for retrieval. Visual dimensions: |G ∩ P| / |G| over
  image indices, None when gold is empty, 0 for an empty prediction.
- BLEU-1 = BP · Overlap / |T_p| and F1 = 2 · Overlap / (|T_p| + |T_r|) on direct answers,
  Overlap the clipped unigram count Σ_w min(c_p(w), c_r(w)). The paper states neither a
  tokenizer nor how several references combine. Ours: lower-case, every punctuation
  character becomes a space ("long-distance" is two words, "can't" is "can t"), split on
  whitespace, no stemming or stopwords; an answer takes its best score over the references.
"""
from __future__ import annotations

import math
import re
import string
from collections import Counter
from collections.abc import Sequence

from eval.refmem.dataset import LETTERS

_PUNCT = str.maketrans({c: " " for c in string.punctuation})
_LONE = r"(?<![A-Za-z0-9])([A-Za-z])(?![A-Za-z0-9])"  # a letter that is not part of a word
_BRACKETS = re.compile(r"\[([^\[\]]*)\]")


def option_accuracy(predicted: Sequence[str], gold: Sequence[str]) -> float:
    """1.0 iff the two option-letter sets are equal (case and order ignored)."""
    return float({p.strip().upper() for p in predicted} == {g.strip().upper() for g in gold})


def parse_letters(text: str, n_options: int) -> tuple[str, ...]:
    """Option letters in a model's answer ("[A,D]", "A, D", "answer: c"), sorted, among the
    first n_options. A bracketed list is read first, as the paper's format asks; otherwise
    lone capitals, and lone lower-case letters only when there are none, so the article in
    "a mix of B and D" is not read as option A."""
    allowed = set(LETTERS[:n_options])
    for scope in [*_BRACKETS.findall(text), text]:
        lone = re.findall(_LONE, scope)
        for candidates in ([c for c in lone if c.isupper()], lone):
            found = {c.upper() for c in candidates} & allowed
            if found:
                return tuple(sorted(found))
    return ()


def memr_text(gold: Sequence[str], predicted: Sequence[str], embedder) -> float | None:
    """Mean over gold lines of the best cosine to a predicted line; `embedder.embed` returns
    L2-normalised rows, so the dot product is the cosine."""
    if not gold or not predicted:
        return None
    vectors = embedder.embed(list(gold) + list(predicted))
    sims = vectors[: len(gold)] @ vectors[len(gold):].T
    return float(sum(min(1.0, max(0.0, float(row.max()))) for row in sims) / len(gold))


def memr_visual(gold: Sequence[int], predicted: Sequence[int]) -> float | None:
    """Recall of the gold image indices."""
    if not gold:
        return None
    return len(set(gold) & set(predicted)) / len(set(gold))


def tokens(text: str) -> list[str]:
    return text.lower().translate(_PUNCT).split()


def _overlap(pred: list[str], ref: list[str]) -> int:
    return sum((Counter(pred) & Counter(ref)).values())


def _bleu1(prediction: str, reference: str) -> float:
    pred, ref = tokens(prediction), tokens(reference)
    if not pred:
        return 0.0
    brevity = 1.0 if len(pred) >= len(ref) else math.exp(1 - len(ref) / len(pred))
    return brevity * _overlap(pred, ref) / len(pred)


def _f1(prediction: str, reference: str) -> float:
    pred, ref = tokens(prediction), tokens(reference)
    return 2 * _overlap(pred, ref) / (len(pred) + len(ref)) if pred or ref else 0.0


def _refs(references: str | Sequence[str]) -> Sequence[str]:
    # a bare string is one reference, not a sequence of one-character references
    return (references,) if isinstance(references, str) else references


def bleu1(prediction: str, references: str | Sequence[str]) -> float:
    """BLEU-1 = BP · Overlap / |T_p|, the best over the references (0 when there are none)."""
    return max((_bleu1(prediction, r) for r in _refs(references)), default=0.0)


def token_f1(prediction: str, references: str | Sequence[str]) -> float:
    """F1 = 2 · Overlap / (|T_p| + |T_r|), the best over the references (0 when there are none)."""
    return max((_f1(prediction, r) for r in _refs(references)), default=0.0)

"""Published LoCoMo figures, copied from ../shared/locomo/README.md. They come from other
setups (a strong LLM answering, an LLM judge), so they are context beside memlens's rows,
never a like-for-like comparison."""
from __future__ import annotations

# LoCoMo paper (Maharana et al., 2024): human answers, token F1 over the QA set, %.
HUMAN_F1 = 87.9
# Mem0 paper (Chhikara et al., 2025): GPT-4o-mini answering, LLM-as-judge J over the 1,540
# questions of categories 1-4 of all ten conversations, %.
MEM0_JUDGE = (
    ("full-context", 72.90), ("Mem0 with graph", 68.44), ("Mem0", 66.88), ("Zep", 65.99),
    ("LangMem", 58.10), ("OpenAI memory", 52.90), ("A-Mem", 48.38),
)

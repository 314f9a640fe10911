"""Published RefMem-Bench figures (arXiv:2606.01223, copied from ../shared/seed-notes/
refmem-bench.md). The paper's systems read the benchmark's real threads (LoCoMo, DialSim,
REALTALK) with GPT-4o-mini or Qwen3-VL-8B behind them; memlens's rows come from our
generated suite, so these are context, not a like-for-like comparison."""
from __future__ import annotations

# Table 1: averages over the eight dimensions per format:
# MC Acc, MC MemR, SC Acc, SC MemR, DA Acc, DA MemR, DA BLEU-1, DA F1 (None: unsupported).
TABLE1: dict[str, tuple[float | None, ...]] = {
    "Base Qwen3-VL-8B": (33.2, 45.0, 45.0, 37.8, 21.1, 37.9, 17.8, 21.3),
    "+NaiveRAG": (33.6, 45.9, 47.6, 38.6, 19.8, 38.7, 17.0, 19.8),
    "MemGPT": (38.4, 41.4, 47.7, 39.3, 17.3, 34.3, 16.5, 19.3),
    "Mem0": (42.5, None, 48.5, None, 21.8, None, 17.5, 19.9),
    "A-Mem": (46.3, 48.5, 57.4, 44.2, 22.9, 39.6, 16.4, 18.5),
    "LightMem": (48.3, 48.5, 56.9, 44.1, 23.2, 39.9, 20.1, 23.2),
    "GAM": (47.0, 46.2, 56.4, 41.4, 23.2, 36.8, 19.9, 23.0),
    "REMIND": (59.4, 58.1, 66.2, 52.3, 32.9, 55.4, 27.6, 30.4),
}
TABLE1_COLUMNS = ("MC Acc", "MC MemR", "SC Acc", "SC MemR", "DA Acc", "DA MemR", "DA BLEU-1", "DA F1")

# Table 4: accuracy per dimension (TD PI BM EGP IBM CMLI PVB TSVP) and format, for the base
# model, NaiveRAG, the best training-free memory system overall (LightMem) and REMIND.
TABLE4_ACC: dict[str, dict[str, tuple[float, ...]]] = {
    "MC": {
        "Base Qwen3-VL-8B": (36.88, 47.44, 42.31, 24.38, 25.55, 24.38, 27.85, 36.64),
        "+NaiveRAG": (37.44, 47.68, 40.44, 23.86, 27.19, 25.27, 28.73, 38.17),
        "LightMem": (55.20, 53.52, 50.78, 33.74, 34.40, 48.20, 53.33, 57.31),
        "REMIND": (60.92, 65.04, 64.20, 52.78, 51.73, 59.60, 60.09, 60.41),
    },
    "SC": {
        "Base Qwen3-VL-8B": (36.69, 55.58, 41.32, 52.17, 49.64, 33.41, 47.49, 43.04),
        "+NaiveRAG": (44.33, 58.74, 45.00, 53.09, 51.07, 33.57, 49.96, 45.25),
        "LightMem": (49.43, 61.94, 51.16, 59.28, 56.31, 51.96, 64.73, 60.60),
        "REMIND": (60.97, 68.26, 58.76, 69.39, 68.64, 65.40, 64.32, 73.73),
    },
    "DA": {
        "Base Qwen3-VL-8B": (21.45, 20.78, 22.48, 19.85, 19.79, 37.35, 22.18, 3.78),
        "+NaiveRAG": (21.32, 22.76, 15.96, 18.90, 14.68, 36.97, 24.00, 4.00),
        "LightMem": (25.67, 21.14, 25.61, 21.24, 21.33, 39.01, 24.32, 7.31),
        "REMIND": (27.21, 31.49, 35.68, 26.82, 28.59, 59.05, 43.50, 10.59),
    },
}

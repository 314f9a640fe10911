"""LoCoMo (snap-research/LoCoMo) long-term conversational-memory QA as a memlens bench.

- dataset: `read_conversations(path) -> [Conversation(sample_id, items)]`, `select(convs, k, limit)`.
- scoring: LoCoMo's own token F1 (`locomo_f1`), cat-5 refusal (`refused`), evidence recall (`recall_at`).
- runner: `LocomoPrediction`, `run_locomo` (eval.grouped: resumable JSONL).
- report: `locomo_metrics`, `summary`, `locomo_report`, `plot_locomo`.

The data is CC BY-NC: it is read from ../shared/locomo/ at run time, never copied here.
"""

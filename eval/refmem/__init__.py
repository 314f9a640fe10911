"""RefMem-Bench (arXiv:2606.01223, seed 002): reflective memory over long multi-session
dialogue, as a memlens bench.

- dataset: the item and thread format (`RefMemItem`, `read_suite`, `write_suite`).
- world: a generated RefMem-style suite: multi-week dialogues with planted latent traits in
  all eight dimensions, items in MC / SC / DA with evidence anchors.
- metrics: Acc (exact option set), MemR (text and visual), BLEU-1 and F1; judge: the DA
  verdict through an OpenAI-compatible endpoint, or the documented offline fallback.
- report: per dimension and format, beside the paper's Tables 1, 4 and 6.
"""

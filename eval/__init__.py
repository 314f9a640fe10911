"""Benchmarks for memlens: item schema, official-format adapters, offline generators,
metrics, runner, reports and the bench harness (baselines, the scale bench's synthetic
memories, sufficiency calibration). eval never imports service or benchmarks (see DESIGN.md, Layout)."""

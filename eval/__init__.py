"""Benchmarks for memlens: item schema, official-format adapters, offline generators,
metrics, runner and reports. eval never imports service (see DESIGN.md, Layout)."""

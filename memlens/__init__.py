"""memlens: the public API facade over the layers (perception, memory, retrieval, agent,
skills, eval, service, benchmarks). Import-light on purpose: importing this package loads no
models and no heavy modules; the command line is memlens.cli."""

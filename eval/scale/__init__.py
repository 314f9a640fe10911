"""The scale bench's synthetic memories: a wearer's everyday records and wording (benchmarks/scale.py runs it)."""

"""M3Eval (seed 000): source tracking of composed videos (split screen, concatenation,
interleaving: tracking.py, layout.py, reading.py, the map in sources.py) and the answerer of
source, order, action and N-Back questions over it (questions.py, answerer.py). Opt-in: see
skills/__init__.py."""

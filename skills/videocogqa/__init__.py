"""VideoCogQA (seed 003): symbolic vision over flat-colour game scenes (vision/), the
timeline it makes (symbols.py, timeline.py) and one program per question form and scene
(programs/). Opt-in: see skills/__init__.py."""

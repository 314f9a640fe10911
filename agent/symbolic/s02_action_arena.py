"""S2 Action Arena: Table 31 templates answered from the perceived symbolic timeline."""
from __future__ import annotations

from agent.symbolic.templates import Template

TEMPLATES: list[Template] = []

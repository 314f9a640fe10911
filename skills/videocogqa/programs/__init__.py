"""Questions about symbolic video (seed 003's scenes) answered by programs over the
perceived symbolic timeline: one template per Table 31 question form, per scene module."""
from __future__ import annotations

import importlib

from skills.videocogqa.programs.templates import Solved, Template, canon, option_scores

__all__ = ["Solved", "Template", "all_templates", "canon", "option_scores"]

TEMPLATE_MODULES = (
    "s01_chameleon_grid", "s02_action_arena", "s03_straight_paths", "s04_time_sequence", "s05_flash_grid",
    "s06_navigator_3d", "s07_sky_battle", "s08_maze_runner", "s09_tic_tac_toe", "s10_note_matcher",
)


def all_templates() -> list[Template]:
    out: list[Template] = []
    for name in TEMPLATE_MODULES:
        out += importlib.import_module(f"skills.videocogqa.programs.{name}").TEMPLATES
    return out

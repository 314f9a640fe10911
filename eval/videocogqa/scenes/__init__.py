"""The ten scenes, by code. Each module defines `SCENE`, an object satisfying
`eval.videocogqa.base.Scene`; modules load on demand."""
from __future__ import annotations

import importlib

from eval.videocogqa.base import Scene

SCENE_MODULES = {
    "S1": "eval.videocogqa.scenes.s01_chameleon_grid",
    "S2": "eval.videocogqa.scenes.s02_action_arena",
    "S3": "eval.videocogqa.scenes.s03_straight_paths",
    "S4": "eval.videocogqa.scenes.s04_time_sequence",
    "S5": "eval.videocogqa.scenes.s05_flash_grid",
    "S6": "eval.videocogqa.scenes.s06_navigator_3d",
    "S7": "eval.videocogqa.scenes.s07_sky_battle",
    "S8": "eval.videocogqa.scenes.s08_maze_runner",
    "S9": "eval.videocogqa.scenes.s09_tic_tac_toe",
    "S10": "eval.videocogqa.scenes.s10_note_matcher",
}


def load_scene(code: str) -> Scene:
    try:
        module = SCENE_MODULES[code]
    except KeyError:
        raise ValueError(f"unknown scene {code!r}; scenes: {', '.join(SCENE_MODULES)}") from None
    return importlib.import_module(module).SCENE

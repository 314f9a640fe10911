"""The skills a configuration can name, and loading them by name. A skill's modules are
imported only when it is turned on."""
from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # checking a configuration's names imports no skill
    from skills.base import Skill

# name -> "module:attribute" of a zero-argument factory
SKILLS: dict[str, str] = {
    "videocogqa": "skills.videocogqa.skill:VideoCogQASkill",
    "m3eval": "skills.m3eval.skill:M3EvalSkill",
}


class UnknownSkillError(ValueError):
    pass


def check_names(names: Sequence[str]) -> None:
    """Refuse an unknown skill name, listing the known ones."""
    unknown = [n for n in names if n not in SKILLS]
    if unknown:
        raise UnknownSkillError(f"unknown skill {unknown[0]!r}; known: {', '.join(sorted(SKILLS))}")


def load_skills(names: Sequence[str]) -> tuple[Skill, ...]:
    """The named skills, in order, each once."""
    check_names(names)
    loaded = []
    for name in dict.fromkeys(names):
        module, attribute = SKILLS[name].split(":")
        loaded.append(getattr(importlib.import_module(module), attribute)())
    return tuple(loaded)

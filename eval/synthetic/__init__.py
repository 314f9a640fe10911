"""Offline generator of synthetic first-person videos with exact ground truth.

A Script (script.py) says what happens when; render() turns it into an .mp4 with speech
and a JSON answer key; scenario functions (morning.py, evening.py, weekend.py, office.py) write
Scripts. Keeping the three apart lets later generators (multi-day life simulations) reuse
the model and renderer.
"""

from .errands import errands_day
from .evening import evening_at_home
from .morning import morning_at_home
from .moving import moving_day
from .office import office_day
from .render import RenderedVideo, RenderOptions, render, synthesize
from .script import (
    CANNOT_ANSWER,
    QUESTION_KINDS,
    Person,
    Placement,
    Question,
    Room,
    SceneObject,
    Script,
    ScriptError,
    Shot,
    TextArtifact,
    Utterance,
    estimate_speech_seconds,
)
from .weekend import weekend_afternoon

__all__ = [
    "CANNOT_ANSWER",
    "QUESTION_KINDS",
    "Person",
    "Placement",
    "Question",
    "RenderOptions",
    "RenderedVideo",
    "Room",
    "SceneObject",
    "Script",
    "ScriptError",
    "Shot",
    "TextArtifact",
    "Utterance",
    "estimate_speech_seconds",
    "evening_at_home",
    "morning_at_home",
    "office_day",
    "errands_day",
    "moving_day",
    "render",
    "synthesize",
    "weekend_afternoon",
]

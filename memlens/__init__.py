"""memlens: remember long video, answer questions about it with timestamped evidence.

    from memlens import Memlens
    m = Memlens(home="~/memlens-home")
    m.ingest("morning.mp4")
    m.ask("where did I leave my keys?")

`Memlens` (memlens.api) is the Python front door over the layers (perception, memory,
retrieval, agent, skills, eval, service); `Answer` and `Moment` (memlens.views) are what it
hands back. Import-light on purpose: importing this package loads no models and no heavy
modules (they load on first use); the command line is memlens.cli.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from service.version import installed_version

__version__ = installed_version()

if TYPE_CHECKING:
    from memlens.api import Memlens
    from memlens.views import Answer, Moment, Moments

__all__ = ["Answer", "Memlens", "Moment", "Moments", "__version__"]
_LAZY = {"Memlens": "memlens.api", "Answer": "memlens.views", "Moment": "memlens.views", "Moments": "memlens.views"}


def __getattr__(name: str):
    if name in _LAZY:
        from importlib import import_module

        return getattr(import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'memlens' has no attribute {name!r}")

"""spaCy, imported without torch.

thinc (spaCy's layer library) imports torch whenever it is installed, to offer torch-backed
layers; memlens's pipelines are thinc's own numpy models and never use them, and importing
torch costs a cold `memlens ask` over a second. So spaCy is imported with torch hidden
(thinc then records "no torch", as on a machine without it), unless torch is already loaded
(an ingest's process), where hiding it would save nothing. torch stays importable afterwards.
"""
from __future__ import annotations

import sys
import threading
from types import ModuleType

_LOCK = threading.Lock()


def import_spacy() -> ModuleType:
    """The spacy module, imported (once) without pulling torch in."""
    with _LOCK:
        if "spacy" not in sys.modules and "torch" not in sys.modules:
            sys.modules["torch"] = None  # type: ignore[assignment]  # `import torch` -> ImportError
            try:
                import spacy  # noqa: F401
            finally:
                if sys.modules.get("torch", ...) is None:
                    del sys.modules["torch"]
    import spacy

    return spacy

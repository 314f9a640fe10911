"""Real media for tests: see eval/media.py (the benches fetch the same files)."""
from eval.media import (
                        BOX_CLIP,
                        BUNNY_TRAILER,
                        CALL_AUDIO,
                        CALL_TURNS,
                        CAMPUS_CLIP,
                        CUP_CLIP,
                        TED_CLIP,
                        Media,
                        cache_dir,
                        fetch,
)

__all__ = ["BOX_CLIP", "BUNNY_TRAILER", "CALL_AUDIO", "CALL_TURNS", "CAMPUS_CLIP", "CUP_CLIP", "TED_CLIP", "Media",
           "cache_dir", "fetch"]

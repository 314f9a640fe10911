"""Configuration owned by the memory layer."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from perception.config import default_cache_root

# Common indoor and outdoor place names. Signs and screens that read as one of these
# name the place the wearer is in; everything else read on screen is text or an object.
DEFAULT_PLACES = (
    "kitchen", "living room", "bedroom", "bathroom", "hallway", "hall", "office", "study",
    "garage", "garden", "dining room", "laundry", "laundry room", "balcony", "entrance",
    "porch", "basement", "attic", "closet", "pantry", "lobby", "elevator", "street", "park",
    "supermarket", "grocery store", "store", "shop", "cafe", "restaurant", "gym", "station",
    "classroom", "library", "lab", "workshop", "nursery", "patio", "yard", "pharmacy", "bank",
    "cinema", "museum", "hospital", "airport", "school", "post office", "bakery", "shed", "driveway",
)


# What kind of place the things a detector sees there say (COCO class names; the most
# frames win, two at least). A place no sign names is named by its kind; the user renames.
DEFAULT_PLACE_KINDS: dict[str, tuple[str, ...]] = {
    "kitchen": ("oven", "microwave", "refrigerator", "toaster", "sink"),
    "bedroom": ("bed",),
    "bathroom": ("toilet",),
    "living room": ("couch", "tv"),
    "dining room": ("dining table",),
    "office": ("laptop", "keyboard", "mouse"),
    "street": ("car", "truck", "bus", "motorcycle", "traffic light", "stop sign", "fire hydrant", "parking meter"),
}


@dataclass
class MemoryConfig:
    root: Path = Path("~/.memlens/memory").expanduser()
    embedding_model: str = "packaged:all-MiniLM-L6-v2"
    embedding_device: str = "auto"  # auto | cpu | cuda[:n] (perception/devices.py)
    # auto: onnxruntime without a GPU (a question's process never imports torch), else
    # sentence-transformers; onnx | torch force one (memory/embedding.py)
    embedding_runtime: str = "auto"
    # where the ONNX export of the embedder is kept (made by set-up, or on first use)
    embedding_export_dir: Path = field(default_factory=lambda: default_cache_root() / "models")
    places: tuple[str, ...] = DEFAULT_PLACES
    place_kinds: dict[str, tuple[str, ...]] = field(default_factory=lambda: dict(DEFAULT_PLACE_KINDS))
    # WordNet's noun taxonomy (memory.kinds) lives here once set up; None = without it
    lexicon_dir: Path | None = field(default_factory=lambda: default_cache_root() / "models")
    # Sightings of the same thing closer than this merge into one episode (seconds).
    sighting_gap: float = 20.0
    # A detected thing's sighting keeps a keyframe at most this often (seconds).
    sighting_keyframe_step: float = 2.0
    # How long a place read on a sign stays "where the wearer is" without a new sign.
    place_persistence: float = 45.0
    # Object labels are short: longer OCR lines are text, not a thing.
    max_label_words: int = 3
    # A state word printed after a label ("PAN (DIRTY)") is the thing's condition, not
    # part of its name: the pan stays one entity whether clean or dirty.
    states: tuple[str, ...] = ("dirty", "clean", "open", "closed", "full", "empty", "on", "off",
                               "broken", "wet", "dry")
    min_text_confidence: float = 0.5
    # Zero-shot CLIP labels (memory.zero_shot), used only when keyframes carry CLIP vectors
    # and the model's text side is given to memory. Probabilities are a softmax over the
    # labels at CLIP's logit scale (100). Untuned (no CLIP weights offline), so set
    # conservatively: a place kind needs 0.5, more than all other kinds together, and only
    # types a place the detector left untyped; an object tag needs 0.3 among the ~80
    # detector labels plus `clip_tags`, so at most three pass per keyframe.
    clip_prompt: str = "a photo of a {}"
    clip_place_threshold: float = 0.5
    clip_tag_threshold: float = 0.3
    clip_tag_top: int = 3
    clip_tags: tuple[str, ...] = ()  # labels tagged beside the detector's own label set
    # Who writes segment cues, session captions and hour / day roll-ups: "llm" (the configured
    # agent.llm; refused without one), "extractive" (the remembered words themselves), or
    # "auto": the LLM when one is configured. An LLM summary costs a model call per segment.
    summaries: str = "auto"
    extra: dict = field(default_factory=dict)

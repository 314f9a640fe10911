"""Source videos ("stories") for M3Eval-style stimuli, and their ground truth.

The paper builds its stimuli from pairs of *semantically similar* real videos. We render
them: a pair shares topic, actor and most verbs, and differs in backdrop colour (the
story's visual identity), place sign and objects, so interference is strong but the source
stays recoverable from pixels. A StoryScript is JSON-serialisable; a JSON manifest of the
same shape (plus "video": path) describes a user's own video, which is the adapter that
lets every builder and question generator run on real footage.
"""
from __future__ import annotations

import json
import random
import zlib
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from fractions import Fraction
from pathlib import Path

import av
import cv2
import numpy as np

WIDTH, HEIGHT, FPS = 480, 270, 10
BEATS, BEAT_SECONDS = 10, 3.0
FONT = cv2.FONT_HERSHEY_SIMPLEX
WHITE, DARK = (255, 255, 255), (25, 25, 30)

# Mid-tone RGB backdrops, far apart in hue so a story's colour identifies it at a glance.
BACKDROPS = (
    (170, 60, 60), (60, 140, 70), (60, 90, 170), (180, 140, 40), (130, 70, 160), (40, 150, 150),
    (190, 100, 40), (110, 110, 110), (150, 60, 110), (90, 130, 40), (60, 60, 120), (140, 100, 80),
)


@dataclass(frozen=True)
class Topic:
    """A family of similar stories: shared actor and verbs; A / B / spare objects and places."""

    name: str
    actor: str
    places: tuple[str, str]
    verbs: tuple[str, ...]  # 14, third person as drawn ("slices")
    objects: tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]  # story A, story B, never shown


TOPICS = {t.name: t for t in (
    Topic("cooking", "chef", ("KITCHEN", "DINER"),
          ("slices", "washes", "peels", "chops", "stirs", "fries", "boils", "tastes", "grates", "bakes", "weighs",
           "rinses", "mashes", "seasons"),
          (("tomato", "onion", "carrot", "potato", "pepper", "garlic"),
           ("apple", "pear", "mushroom", "squash", "lemon", "cabbage"),
           ("leek", "melon", "turnip", "radish", "celery", "beet"))),
    Topic("gardening", "gardener", ("GARDEN", "GREENHOUSE"),
          ("waters", "plants", "prunes", "digs", "trims", "picks", "moves", "sprays", "ties", "rakes", "checks",
           "cuts", "feeds", "repots"),
          (("rose", "tulip", "fern", "hedge", "daisy", "lily"),
           ("cactus", "orchid", "ivy", "bamboo", "palm", "violet"),
           ("lavender", "basil", "mint", "sage", "clover", "poppy"))),
    Topic("workshop", "carpenter", ("WORKSHOP", "GARAGE"),
          ("sands", "cuts", "drills", "paints", "measures", "glues", "nails", "clamps", "polishes", "planes",
           "carves", "stains", "screws", "lifts"),
          (("plank", "shelf", "stool", "door", "crate", "frame"),
           ("table", "chair", "bench", "cabinet", "ladder", "drawer"),
           ("beam", "panel", "box", "rail", "desk", "post"))),
    Topic("office", "clerk", ("OFFICE", "BANK"),
          ("types", "prints", "files", "signs", "stamps", "copies", "reads", "sorts", "staples", "scans", "folds",
           "checks", "opens", "labels"),
          (("letter", "invoice", "memo", "report", "form", "receipt"),
           ("contract", "folder", "ticket", "notice", "permit", "budget"),
           ("agenda", "voucher", "survey", "ledger", "badge", "schedule"))),
    Topic("sport", "coach", ("FIELD", "ARENA"),
          ("kicks", "throws", "catches", "bounces", "passes", "carries", "stacks", "inflates", "cleans", "spins",
           "rolls", "lifts", "counts", "hangs"),
          (("ball", "cone", "hoop", "rope", "net", "bat"),
           ("puck", "racket", "disc", "glove", "helmet", "whistle"),
           ("baton", "dumbbell", "mat", "flag", "frisbee", "paddle"))),
    Topic("travel", "traveler", ("AIRPORT", "STATION"),
          ("packs", "opens", "checks", "carries", "weighs", "labels", "locks", "unpacks", "reads", "folds",
           "drops", "lifts", "zips", "scans"),
          (("suitcase", "map", "passport", "camera", "jacket", "tent"),
           ("backpack", "guidebook", "visa", "umbrella", "scarf", "compass"),
           ("hat", "wallet", "bottle", "pillow", "charger", "sunscreen"))),
    Topic("cleaning", "janitor", ("HOTEL", "SCHOOL"),
          ("wipes", "sweeps", "mops", "scrubs", "dusts", "rinses", "polishes", "empties", "sprays", "dries",
           "checks", "vacuums", "washes", "clears"),
          (("window", "floor", "sink", "mirror", "counter", "hallway"),
           ("carpet", "stairs", "bathtub", "shelf", "oven", "doorway"),
           ("fridge", "lamp", "rug", "toilet", "tiles", "curtain"))),
    Topic("art", "painter", ("STUDIO", "GALLERY"),
          ("paints", "sketches", "frames", "cleans", "hangs", "signs", "varnishes", "erases", "traces", "wraps",
           "moves", "pins", "measures", "shades"),
          (("portrait", "vase", "sunset", "river", "horse", "bridge"),
           ("landscape", "bowl", "harbor", "forest", "castle", "lighthouse"),
           ("mountain", "garden", "ship", "tiger", "meadow", "village"))),
)}


@dataclass(frozen=True)
class Beat:
    start: float
    end: float
    verb: str
    obj: str
    caption: str


@dataclass(frozen=True)
class StoryScript:
    """Ground truth of one source video: who, where, its colour and its captioned beats."""

    story_id: str
    topic: str
    actor: str
    place: str
    backdrop: tuple[int, int, int]  # RGB
    beats: tuple[Beat, ...]
    video: str = ""  # path, for a user's own video described by a JSON manifest

    @property
    def duration(self) -> float:
        return self.beats[-1].end if self.beats else 0.0

    @property
    def captions(self) -> list[str]:
        return [b.caption for b in self.beats]

    def to_json(self) -> str:
        return json.dumps(asdict(self))

    @staticmethod
    def from_dict(d: dict) -> StoryScript:
        return StoryScript(d.get("story_id", Path(d.get("video", "story")).stem), d.get("topic", ""), d["actor"],
                           d.get("place", ""), tuple(d.get("backdrop", (0, 0, 0))),
                           tuple(Beat(**b) for b in d["beats"]), d.get("video", ""))

    @staticmethod
    def load(path: Path) -> StoryScript:
        """A user's video manifest: {"video", "actor", "beats": [{start, end, verb, obj, caption}], ...}."""
        return StoryScript.from_dict(json.loads(Path(path).read_text()))


def caption(actor: str, verb: str, obj: str) -> str:
    return f"the {actor} {verb} the {obj}"


@dataclass(frozen=True)
class StoryPair:
    a: StoryScript
    b: StoryScript
    topic: Topic | None = None  # None for users' videos
    unused_verbs: tuple[str, ...] = field(default=())  # topic verbs in neither story (false-memory probes)


def make_pair(topic: str, rng: random.Random, pair_id: str, backdrops: tuple[tuple[int, int, int], ...] | None = None,
              beats: int = BEATS, beat_seconds: float = BEAT_SECONDS) -> StoryPair:
    """Two similar stories: 8 shared verbs + 2 own verbs each (2 topic verbs left unused),
    distinct verbs within a story, objects from each story's own set."""
    t = TOPICS[topic]
    verbs = list(t.verbs)
    rng.shuffle(verbs)
    shared, own_a, own_b, unused = verbs[:beats - 2], verbs[beats - 2:beats], verbs[beats:beats + 2], verbs[beats + 2:]
    colours = list(backdrops or rng.sample(BACKDROPS, 2))
    scripts = []
    for side, (own, objs, place, colour) in enumerate(zip((own_a, own_b), t.objects[:2], t.places, colours)):
        vs = shared + own
        rng.shuffle(vs)
        pool = list(objs) * 2
        rng.shuffle(pool)
        story = tuple(Beat(round(i * beat_seconds, 3), round((i + 1) * beat_seconds, 3), v, pool[i],
                           caption(t.actor, v, pool[i])) for i, v in enumerate(vs))
        scripts.append(StoryScript(f"{pair_id}-{'ab'[side]}", t.name, t.actor, place, tuple(colour), story))
    return StoryPair(scripts[0], scripts[1], t, tuple(unused))


# ---- drawing ----------------------------------------------------------------------------
def _hash(s: str) -> int:
    return zlib.crc32(s.encode())


def fit_text(img: np.ndarray, text: str, cy: int, scale: float = 0.75, max_width: int | None = None) -> None:
    """White text centred at baseline-ish `cy`, shrunk to fit `max_width`."""
    max_width = max_width or img.shape[1] - 16
    while scale > 0.45 and cv2.getTextSize(text, FONT, scale, 2)[0][0] > max_width:
        scale -= 0.05
    (w, h), _ = cv2.getTextSize(text, FONT, scale, 2)
    cv2.putText(img, text, ((img.shape[1] - w) // 2, cy + h // 2), FONT, scale, WHITE, 2, cv2.LINE_AA)


def draw_sign(img: np.ndarray, text: str) -> None:
    (w, _), _ = cv2.getTextSize(text, FONT, 0.8, 2)
    x0 = (img.shape[1] - w) // 2 - 12
    cv2.rectangle(img, (x0, 6), (x0 + w + 24, 42), DARK, -1)
    fit_text(img, text, 24, 0.8)


def draw_caption(img: np.ndarray, text: str) -> None:
    cv2.rectangle(img, (0, img.shape[0] - 44), (img.shape[1], img.shape[0]), DARK, -1)
    fit_text(img, text, img.shape[0] - 22, 0.75)


def draw_props(img: np.ndarray, actor: str, obj: str, phase: float) -> None:
    """A stick-figure actor and the beat's object (shape and colour hashed from its name), moving a little."""
    h = _hash(obj)
    colour = tuple(int(c) for c in (80 + h % 160, 80 + (h >> 8) % 160, 80 + (h >> 16) % 160))
    ax = 120 + int(10 * np.sin(2 * np.pi * phase))
    skin = (235, 205, 170)
    cv2.circle(img, (ax, 95), 18, skin, -1, cv2.LINE_AA)
    cv2.line(img, (ax, 113), (ax, 170), DARK, 6)
    cv2.line(img, (ax, 130), (ax + 45, 120 + int(12 * np.sin(4 * np.pi * phase))), DARK, 5)
    cv2.line(img, (ax, 170), (ax - 15, 210), DARK, 5)
    cv2.line(img, (ax, 170), (ax + 15, 210), DARK, 5)
    ox, oy, r = 300 + int(25 * np.cos(2 * np.pi * phase)), 135, 28 + h % 10
    shape = h % 3
    if shape == 0:
        cv2.circle(img, (ox, oy), r, colour, -1, cv2.LINE_AA)
    elif shape == 1:
        cv2.rectangle(img, (ox - r, oy - r), (ox + r, oy + r), colour, -1)
    else:
        cv2.fillPoly(img, [np.array([(ox, oy - r), (ox + r, oy + r), (ox - r, oy + r)], np.int32)], colour, cv2.LINE_AA)


def story_painter(script: StoryScript) -> Callable[[float], np.ndarray]:
    def paint(t: float) -> np.ndarray:
        img = np.empty((HEIGHT, WIDTH, 3), np.uint8)
        img[:] = script.backdrop
        beat = next((b for b in script.beats if b.start <= t < b.end), script.beats[-1])
        draw_sign(img, script.place)
        draw_props(img, script.actor, beat.obj, (t - beat.start) / max(beat.end - beat.start, 1e-6))
        draw_caption(img, beat.caption)
        return img
    return paint


# ---- encoding ---------------------------------------------------------------------------
class Writer:
    """H.264 MP4 writer (mpeg4 where libx264 is missing); a temp name renamed on close, so a
    killed render never leaves a half file that the cache would trust."""

    def __init__(self, path: Path, width: int, height: int, fps: int = FPS):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.tmp = self.path.with_name(self.path.stem + ".part.mp4")
        self.container = av.open(str(self.tmp), "w", format="mp4")
        self.stream = self.container.add_stream("libx264" if "libx264" in av.codecs_available else "mpeg4", rate=fps)
        self.stream.width, self.stream.height, self.stream.pix_fmt = width, height, "yuv420p"
        self.stream.codec_context.time_base = Fraction(1, fps)
        if self.stream.codec_context.name == "libx264":
            self.stream.options = {"crf": "20", "preset": "veryfast"}
        self.frames = 0

    def write(self, rgb: np.ndarray) -> None:
        frame = av.VideoFrame.from_ndarray(np.ascontiguousarray(rgb), format="rgb24")
        frame.pts = self.frames
        self.container.mux(self.stream.encode(frame))
        self.frames += 1

    def close(self) -> Path:
        self.container.mux(self.stream.encode(None))
        self.container.close()
        self.tmp.replace(self.path)
        return self.path

    def __enter__(self) -> Writer:
        return self

    def __exit__(self, exc_type, *_) -> None:
        if exc_type is None:
            self.close()
        else:
            self.container.close()
            self.tmp.unlink(missing_ok=True)


def frame_times(duration: float, fps: int = FPS) -> Iterator[float]:
    for i in range(int(round(duration * fps))):
        yield i / fps


def render_story(script: StoryScript, path: Path, fps: int = FPS) -> Path:
    """Render (cached: an existing finished file is kept) and write the script beside it."""
    path = Path(path)
    manifest = path.with_suffix(".json")
    if not path.exists():
        paint = story_painter(script)
        with Writer(path, WIDTH, HEIGHT, fps) as w:
            for t in frame_times(script.duration, fps):
                w.write(paint(t))
    if not manifest.exists():
        manifest.write_text(json.dumps({**asdict(script), "video": str(path)}))
    return path

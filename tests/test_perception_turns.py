"""Splitting ASR segments into turns at pauses (pure, no models)."""
from __future__ import annotations

from perception.turns import split_at_pauses
from perception.types import AsrSegment, Word


def _seg(*words: tuple[str, float, float]) -> AsrSegment:
    ws = tuple(Word(t, s, e, 0.9) for t, s, e in words)
    return AsrSegment(ws[0].start, ws[-1].end, " ".join(w.text for w in ws), 0.8, ws)


def test_long_pause_starts_a_new_turn():
    seg = _seg(("Sure,", 1.0, 1.3), ("I'll", 1.35, 1.5), ("go.", 1.55, 1.8), ("Thanks.", 3.0, 3.4))
    first, second = split_at_pauses([seg], 0.6)
    assert (first.text, first.start, first.end) == ("Sure, I'll go.", 1.0, 1.8)
    assert (second.text, second.start, second.end) == ("Thanks.", 3.0, 3.4)
    assert first.confidence <= 0.8 and len(first.words) == 3


def test_short_pauses_and_wordless_segments_stay_whole():
    seg = _seg(("one", 0.0, 0.2), ("two", 0.5, 0.7))
    assert split_at_pauses([seg], 0.6) == [seg]
    bare = AsrSegment(0.0, 1.0, "no words", 0.5)
    assert split_at_pauses([bare], 0.6) == [bare]
    assert split_at_pauses([seg], 0.0) == [seg]


def test_punctuation_led_tokens_attach_to_the_previous_word():
    seg = _seg(("Moved", 0.0, 0.3), ("to", 0.35, 0.5), ("4", 0.55, 0.7), (".30.", 0.7, 1.0), ("Don", 2.0, 2.2),
               ("'t", 2.2, 2.3), ("forget.", 2.35, 2.8))
    first, second = split_at_pauses([seg], 0.6)
    assert first.text == "Moved to 4.30." and second.text == "Don't forget."

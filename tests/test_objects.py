"""Things from pixels: colour names, tracks and instances (perception.appearance,
perception.object_tracks), and the detection record's round trip through the cache."""
from __future__ import annotations

import numpy as np
import pytest

from perception.appearance import appearance_similarity, look_of, torso_of
from perception.object_tracks import track_objects
from perception.serialize import detection_from_dict, detection_to_dict
from perception.types import ObjectDetection

FPS = 2.0


def _patch(rgb: tuple[int, int, int], size: int = 40) -> np.ndarray:
    return np.full((size, size, 3), rgb, dtype=np.uint8)


@pytest.mark.parametrize(("rgb", "name"), [
    ((200, 30, 30), "red"), ((30, 60, 200), "blue"), ((40, 170, 60), "green"), ((240, 240, 235), "white"),
    ((15, 15, 18), "black"), ((128, 128, 128), "grey"), ((230, 210, 40), "yellow"), ((110, 60, 20), "brown"),
])
def test_a_thing_is_named_by_the_colour_most_of_its_pixels_have(rgb, name):
    crop = _patch(rgb)
    crop[:4] = (255, 255, 255)  # a rim of background at the box edge is not the thing
    assert look_of(crop)[0] == name


@pytest.mark.parametrize("rgb", [(255, 0, 1), (200, 30, 30), (120, 40, 200), (250, 250, 250), (0, 0, 0)])
def test_a_look_names_the_main_colour_and_counts_the_rest_in_its_descriptor(rgb):
    crop = _patch(rgb)
    crop[10:20, 10:20] = (40, 170, 60)  # a green patch inside
    name, descriptor = look_of(crop)
    assert name == look_of(_patch(rgb))[0]
    assert len(descriptor) == 32 and abs(sum(descriptor) - 1.0) < 1e-3
    assert 0.7 < appearance_similarity(descriptor, look_of(_patch(rgb))[1]) < 1.0  # the patch counts too
    assert look_of(crop[:0]) == (None, ())


def test_look_alike_things_score_high_and_different_things_low():
    red, red_again, blue = (look_of(_patch(c))[1] for c in ((200, 30, 30), (190, 35, 28), (30, 60, 200)))
    assert appearance_similarity(red, red_again) > 0.9
    assert appearance_similarity(red, blue) < 0.1
    assert appearance_similarity(red, ()) == 0.0


def _seen(label, t, box, rgb=(200, 30, 30), score=0.6):
    return ObjectDetection(label, score, t, box, (640, 480), *look_of(_patch(rgb)))


def _times(seconds: float) -> list[float]:
    return [i / FPS for i in range(int(seconds * FPS))]


def test_a_thing_followed_across_frames_is_one_track_and_a_one_frame_blip_is_dropped():
    walking = [_seen("person", t, (100 + 8 * t, 100, 160 + 8 * t, 300)) for t in _times(6)]
    blip = [_seen("airplane", 2.0, (400, 50, 500, 120))]
    tracked = track_objects(walking + blip, _times(6), FPS)
    assert {d.label for d in tracked} == {"person"}
    assert len({d.track for d in tracked}) == 1 and {d.instance for d in tracked} == {1}
    assert len(tracked) >= len(walking) - 2  # confirmation costs at most the first frames


def test_two_things_in_view_together_are_two_instances_even_when_they_look_alike():
    left = [_seen("cup", t, (50, 200, 110, 280)) for t in _times(5)]
    right = [_seen("cup", t, (400, 200, 460, 280)) for t in _times(5)]
    tracked = track_objects(left + right, _times(5), FPS)
    assert {d.instance for d in tracked} == {1, 2}


def test_a_thing_seen_again_later_is_the_same_instance_when_it_looks_the_same():
    times = _times(60)
    first = [_seen("cup", t, (50, 200, 110, 280)) for t in times if t < 5]
    again = [_seen("cup", t, (300, 100, 360, 180)) for t in times if 40 <= t < 45]  # camera came back, elsewhere
    other = [_seen("cup", t, (300, 100, 360, 180), rgb=(30, 60, 200)) for t in times if 50 <= t < 55]
    tracked = track_objects(first + again + other, times, FPS)
    by_time = {d.frame_time: d.instance for d in tracked}
    assert by_time[44.0] == by_time[4.0] == 1
    assert by_time[54.0] == 2  # a blue cup is another cup


def test_a_new_track_soon_after_and_elsewhere_is_another_thing():
    times = _times(20)
    one = [_seen("person", t, (50, 100, 110, 300)) for t in times if t < 5]
    two = [_seen("person", t, (500, 100, 560, 300)) for t in times if 7 <= t < 12]  # same clothes, 2 s later
    tracked = track_objects(one + two, times, FPS)
    assert len({d.instance for d in tracked}) == 2


def test_a_detection_survives_the_cache_round_trip():
    d = ObjectDetection("cup", 0.61, 3.5, (1.0, 2.0, 30.5, 40.0), (640, 480), "red", (0.5, 0.5), 4, 2)
    assert detection_from_dict(detection_to_dict(d)) == d
    with pytest.raises(ValueError):
        detection_from_dict({**detection_to_dict(d), "box": [1, 2, 3]})


def _standing_person() -> np.ndarray:
    """A 100 x 300 box: a brown door behind, a skin-toned head, a red shirt, long blue jeans."""
    box = np.zeros((300, 100, 3), np.uint8)
    box[:] = (110, 60, 20)  # the door
    box[10:60, 35:65] = (220, 180, 150)  # head
    box[60:140, 25:75] = (200, 30, 30)  # shirt
    box[140:300, 28:72] = (30, 60, 200)  # jeans
    return box


def test_a_person_s_colour_is_their_top_not_the_door_behind_or_their_jeans():
    person = _standing_person()
    assert look_of(person)[0] != "red"  # the whole box says door or jeans
    assert look_of(torso_of(person))[0] == "red"
    close_up = person[40:200]  # the frame cuts them off at the waist: the box is mostly them
    assert torso_of(close_up, cut_off_below=True) is close_up

"""Photos are memories (issue 40): a real phone photo, a JPEG of two books and a PNG of two
people, fetched from Debian's opencv-doc, each remembered as a one-picture recording at the
time its EXIF gives, read by OCR and the detector."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from eval.media import BOOKS_PHOTO, PEOPLE_PHOTO, PHONE_PHOTO, fetch
from perception.decode import STILL_SECONDS, probe
from perception.exif import taken_at

pytestmark = pytest.mark.slow


def test_a_photo_is_one_picture_taken_when_its_exif_says():
    phone, people = probe(fetch(PHONE_PHOTO)), probe(fetch(PEOPLE_PHOTO))
    assert phone.still and people.still and phone.duration == people.duration == STILL_SECONDS
    # the shutter's time (DateTimeOriginal), not the day GIMP re-saved the file (DateTime)
    assert phone.creation_time == datetime(2018, 6, 6, 22, 20, 11)
    assert people.creation_time is None  # a PNG without EXIF: the file's own time decides
    assert (people.width, people.height) == (640, 480) and not people.has_audio


def test_a_camera_offset_places_the_time_in_its_zone(tmp_path):
    """A photo taken in Tokyo (OffsetTimeOriginal +09:00) is placed at the same instant on
    this machine's clock, as a container's UTC creation time is."""
    from PIL import Image

    with Image.open(fetch(PHONE_PHOTO)) as image:
        exif = image.getexif()
        exif.get_ifd(0x8769)[36881] = "+09:00"
        image.save(tmp_path / "tokyo.jpg", exif=exif)
    taken = taken_at(tmp_path / "tokyo.jpg")
    assert taken == datetime(2018, 6, 6, 22, 20, 11, tzinfo=timezone(timedelta(hours=9)))
    assert probe(tmp_path / "tokyo.jpg").creation_time == taken.astimezone().replace(tzinfo=None)
    assert taken_at(fetch(PEOPLE_PHOTO)) is None
    (tmp_path / "not-a-photo.jpg").write_text("a diary entry, not a picture")
    assert taken_at(tmp_path / "not-a-photo.jpg") is None


@pytest.fixture(scope="module")
def photos(tmp_path_factory):
    from memlens import Memlens

    with Memlens(home=tmp_path_factory.mktemp("photos")) as m:
        reports = [m.ingest(fetch(PHONE_PHOTO)), m.ingest(fetch(BOOKS_PHOTO), start=datetime(2026, 3, 2, 9, 15)),
                   m.ingest(fetch(PEOPLE_PHOTO), start=datetime(2026, 3, 2, 17, 40))]
        yield m, reports


def test_photos_become_one_picture_recordings_at_their_times(photos):
    m, reports = photos
    assert reports[0].channels["clock"] == "EXIF time" and reports[1].channels["clock"] == "argument"
    recordings = m.recordings()
    assert [r.when for r in recordings] == [datetime(2018, 6, 6, 22, 20, 11), datetime(2026, 3, 2, 9, 15),
                                            datetime(2026, 3, 2, 17, 40)]
    assert all(r.text.startswith(f"At {r.when:%H:%M}, a photo") and "recording of 0 s" not in r.text
               for r in recordings)


def test_a_photo_is_read_and_what_it_shows_is_seen(photos):
    """One picture has no second frame to confirm a find: what the detector finds in it is
    kept (a video still needs two frames), and its text is read."""
    m, reports = photos
    books, people = reports[1].video_id, reports[2].video_id
    read = {x.text for x in m.memories(kind="text", video=books)}
    assert any("Let Us C" in t for t in read) and any("ELECTRONICS" in t for t in read), read
    assert m.memories(kind="sighting", video=books)
    seen = " ".join(x.text for x in m.memories(kind="sighting", video=people))
    assert "person" in seen, seen

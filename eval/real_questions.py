"""Questions about real footage nobody here made (eval/media.py), asked the way a person who
saw and heard it would ask, with the answers such a person would give.

This is EVALUATION MATERIAL: agent, memory, retrieval and perception code must never import
it or learn from it. Expected answers come from watching and listening to the media (the
TED clip's lower thirds and speech, OpenCV's campus, desk and cup clips, pyannote's sample
call and its reference turns, the Big Buck Bunny trailer's title cards), never from what
memlens answers. Some ask what memlens is known not to see yet (what a hand holds, a thing
the detector has no class for): they are here so the score says so. Scoring is by
normalised containment (eval.scoring.mentions); `abstain` questions are right only when
memlens abstains.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from eval.scoring import mentions

# When each recording starts on the wearer's clock (one morning), and when questions are asked.
STARTS = {"ted": datetime(2026, 11, 20, 9, 0), "campus": datetime(2026, 11, 20, 10, 0),
          "box": datetime(2026, 11, 20, 11, 0), "call": datetime(2026, 11, 20, 12, 0),
          "bunny": datetime(2026, 11, 20, 12, 30), "cup": datetime(2026, 11, 20, 13, 0)}
ASKED_AT = datetime(2026, 11, 20, 14, 0)


@dataclass(frozen=True)
class RealQuestion:
    media: str  # which recording it is about (eval.media.REAL_MEDIA key)
    question: str
    accepted: tuple[str | tuple[str, ...], ...] = ()  # any one; a tuple needs all its parts
    abstain: bool = False
    channel: str = ""  # what a right answer rests on: speech, text, objects, faces, voices
    at: datetime | None = None  # when it is asked on the wearer's clock (else the bench's one time)

    def right(self, answer: str, abstained: bool) -> bool:
        if self.abstain:
            return abstained
        return not abstained and any(
            all(mentions(answer, part) for part in (a if isinstance(a, tuple) else (a,))) for a in self.accepted)


REAL_QUESTIONS: tuple[RealQuestion, ...] = (
    RealQuestion("ted", "who gave that talk this morning?", ("Tina Seelig",), channel="faces+text"),
    RealQuestion("ted", "what was the name of the woman on stage?", ("Tina Seelig",), channel="faces+text"),
    RealQuestion("ted", "what city was the talk in?", ("New York",), channel="text"),
    RealQuestion("ted", "when was the talk recorded?", ("June 2018",), channel="text"),
    RealQuestion("ted", "what does the speaker teach?", ("entrepreneurship",), channel="speech"),
    RealQuestion("ted", "how long has she been watching what makes people lucky?", ("two decades",),
                 channel="speech"),
    RealQuestion("ted", "how did she define luck?", ("success or failure",), channel="speech"),
    RealQuestion("ted", "what did the screen say at the start of the talk?", ("Ideas worth spreading",),
                 channel="text"),
    RealQuestion("campus", "what colour was the van parked by the building?", ("white",), channel="objects"),
    RealQuestion("campus", "was there a car parked outside?", ("yes",), channel="objects"),
    RealQuestion("campus", "were people walking around outside?", ("yes",), channel="objects"),
    RealQuestion("campus", "where was the blue car?", ("street", "road", "car park", "parking"), channel="places"),
    RealQuestion("box", "what kind of room was the table in?", ("dining room", "kitchen", "living room"),
                 channel="places"),
    RealQuestion("campus", "did I see anyone on a bike?", abstain=True, channel="objects"),
    RealQuestion("box", "what was lying on the table?", ("box",), channel="objects"),
    RealQuestion("box", "what colour was the box I held?", ("orange", "yellow"), channel="objects"),
    RealQuestion("box", "was there a table?", ("yes",), channel="objects"),
    RealQuestion("call", "who was on the phone call?", (("Sheila", "Diane"),), channel="voices"),
    RealQuestion("call", "where does Diane live now?", ("New Jersey",), channel="voices+speech"),
    RealQuestion("call", "where is Sheila originally from?", ("Chicago",), channel="voices+speech"),
    RealQuestion("call", "what do people down there call Sheila?", ("Yankee",), channel="speech"),
    RealQuestion("call", "who heard a beep?", ("Diane",), channel="voices"),
    RealQuestion("call", "what did Bob say on the call?", abstain=True, channel="voices"),
    RealQuestion("campus", "did I see a dog?", abstain=True, channel="objects"),
    RealQuestion("bunny", "who presented that bunny cartoon?", ("Blender Foundation", "Peach Project"),
                 channel="text"),
    RealQuestion("bunny", "how did the trailer describe the bunny?", ("overweight",), channel="text"),
    RealQuestion("bunny", "what did the trailer say was coming?", ("revenge",), channel="text"),
    # a black lidded tumbler turned in a hand in front of a white wall
    RealQuestion("cup", "what was I holding after the cartoon?", ("cup", "tumbler", "bottle", "flask"),
                 channel="objects"),
    RealQuestion("cup", "what colour was the cup in my hand?", ("black",), channel="objects"),
)

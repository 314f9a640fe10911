"""Phrasings of the generated M3Eval-style suite's questions (eval/m3eval/questions.py).

Four templates cover every question the generator asks: which caption happens in a
stream (SI and CR), the order of three captions in a stream (OU), what the actor does to
a verb's object in a stream (MI and FMD share the wording), and N-Back's Yes / No. Each
phrasing keeps the stream name verbatim ("the left video", "the video that starts on the
right", "the first story"), the verb in its base form, and N-Back's K, N and attribute,
so the gold option stays gold; options never change.
"""
from __future__ import annotations

from collections.abc import Mapping

from eval.phrasings.bank import Bank, Template, dev, held

WHICH = Template("which", "Which of these happens in {target}?", (
    dev("Hey glasses, which of these happens in {target}?"),
    dev("Which one of these things happened in {target}?"),
    dev("What from this list takes place in {target}?"),
    held("do you remember which of these was in {target}?"),
    held("can you tell me which of these events occurs in {target}?"),
    held("{target}: which of these did it show?"),
    held("which of these things went on in {target}?"),
    held("which happened in {target}, out of these?"),
    held("I watched two videos at once. Which of these options actually happens in {target}?"),
    held("pick the one that happens in {target}"),
))

ORDER = Template("order", "In {target}, in which order do these happen?", (
    dev("Hey glasses, in {target}, in which order do these happen?"),
    dev("What order do these happen in, in {target}?"),
    dev("Put these in the order they happen in {target}."),
    held("can you tell me the order these happen in {target}?"),
    held("in {target}, what's the sequence of these events?"),
    held("do you remember in what order these things happened in {target}?"),
    held("which order are these in, in {target}?"),
    held("{target}: in what sequence do these occur?"),
    held("Thinking about {target} only, which of these orderings matches what happens there?"),
    held("how do these go in {target}, order-wise?"),
))

# The verb is the generator's base form ("slice"), so every phrasing uses it after an
# auxiliary or "to" and never inflects it.
WHAT = Template("what", "In {target}, what does the {actor} {verb}?", (
    dev("Hey glasses, in {target}, what does the {actor} {verb}?"),
    dev("What does the {actor} {verb} in {target}?"),
    dev("In {target}, what did the {actor} {verb}?"),
    held("do you remember what the {actor} gets to {verb} in {target}?"),
    held("can you tell me what the {actor} goes on to {verb} in {target}?"),
    held("{target}, I forget: what was it the {actor} had to {verb}?"),
    held("in {target}, which thing did the {actor} {verb}?"),
    held("what object does the {actor} {verb} in {target}?"),
    held("I'm trying to recall {target}. What did we see the {actor} {verb} there?"),
    held("what did you see the {actor} {verb} in {target}?"),
))


def clip_words(slots: Mapping[str, str]) -> dict[str, str]:
    """Agreement for N: "1 clip back", "3 clips back", "1 position", "3 positions"."""
    one = slots.get("n") == "1"
    return {"back": "clip" if one else "clips", "positions": "position" if one else "positions"}


NBACK = Template(
    "nback", "This video is a sequence of {k} clips. Does the last clip show the same {attribute} as the clip {n} "
             "positions before it?", (
        dev("Hey glasses, this video is a sequence of {k} clips. Does the last clip show the same {attribute} as "
            "the clip {n} {positions} before it?"),
        dev("This video has {k} clips in a row. Is the {attribute} in the last clip the same as in the clip {n} "
            "{back} earlier?"),
        dev("There are {k} clips here. Does the final clip have the same {attribute} as the one {n} {back} before it?"),
        held("the video is {k} clips long. is the last one's {attribute} the same as the clip {n} {back} back?"),
        held("do you remember if the final clip shows the same {attribute} as the clip {n} {back} before it, in "
             "this {k}-clip video?"),
        held("{k} clips in this video: does the last one match the clip {n} {back} earlier in {attribute}?"),
        held("can you tell me whether the last of the {k} clips has the same {attribute} as the one {n} {positions} "
             "before it?"),
        held("last clip vs the clip {n} {back} before it, same {attribute}? there are {k} clips"),
        held("Going through this sequence of {k} clips, is the {attribute} of the final clip identical to the "
             "{attribute} of the clip that came {n} {back} before it?"),
        held("same {attribute} in the last clip as {n} {back} back? the video's {k} clips"),
    ), derive=clip_words)

M3EVAL = Bank("m3eval", (WHICH, ORDER, WHAT, NBACK))

"""Phrasings of the generated VideoCogQA-style suite's questions (eval/videocogqa/scenes).

One template per question form of the ten scenes (several forms share a Table 31 template
name: "how long ... after", "the total duration ... after"), each with 3 dev and 5-6
held-out phrasings that keep the slots: the colour, shape and size named, the scene
numbers, the clock times, the notes, the counts and the action. The options never change,
so a phrasing keeps every word an option relies on ("left or right", "Scene 3").
`nth` / `nth2` restate a scene number as an ordinal ("Scene 4 (the fourth grid shown)");
phrasings may drop them.
"""
from __future__ import annotations

from eval.phrasings.bank import Bank, Template, dev, held

_SCENES = " (Scene 1 is the first grid shown, Scene 2 the second, and so on.)"


def t(tid: str, text: str, devs: tuple[str, ...], helds: tuple[str, ...]) -> Template:
    return Template(tid, text, tuple(dev(p) for p in devs) + tuple(held(p) for p in helds))


S1 = [
    t("s1-largest-count", "Which scene contains the largest number of {colour} {shape} objects?" + _SCENES, (
        "Hey glasses, which scene had the most {colour} {shape}s in it?",
        "Which of the grids shown had the largest number of {colour} {shape} objects?",
        "In which scene were there the most {colour} {shape} objects? Scene 1 is the first grid.",
    ), (
        "do you remember which grid had the most {colour} {shape}s?",
        "can you tell me in which scene I saw the highest number of {colour} {shape} objects?",
        "most {colour} {shape}s: which scene was that?",
        "Out of all the grids that were shown, which one contained the greatest number of {colour} {shape} objects? Count scenes from the first grid shown.",
        "which scene's got the most {colour} {shape} objects in it?",
    )),
    t("s1-first-column-shape", "Which shape appears most frequently in the first column of Scene {i} (the {nth} grid shown)?", (
        "Hey glasses, in scene {i}, which shape shows up most in the first column?",
        "What's the most common shape in the first column of scene {i}?",
        "Looking at the first column of scene {i}, which shape appears most often?",
    ), (
        "do you remember which shape was most frequent in the leftmost column of scene {i}?",
        "can you tell me which shape occurs most in column one of scene {i}?",
        "scene {i}, first column: which shape is there most?",
        "In the {nth} grid, scene {i}, which shape comes up most often down the first column?",
        "which shape's the most frequent in scene {i}'s first column?",
    )),
    t("s1-total-count", "What is the total count of {size} {colour} {shape} objects across all scenes (all grids shown)?", (
        "Hey glasses, how many {size} {colour} {shape}s were there across all the scenes?",
        "Across every grid shown, how many {size} {colour} {shape} objects were there in total?",
        "Count the {size} {colour} {shape} objects over all scenes for me.",
    ), (
        "do you know how many {size} {colour} {shape} objects appeared in all the grids put together?",
        "can you tell me the total number of {size} {colour} {shape}s over all the scenes?",
        "{size} {colour} {shape}s, all scenes together: how many?",
        "If you add up every grid that was shown, how many {size} {colour} {shape} objects are there altogether?",
        "how many {size} {colour} {shape}s were there in total, counting all the scenes?",
    )),
    t("s1-common-attribute", "In Scene {i} (the {nth} grid shown), which {attr} is most common among the {size} objects?", (
        "Hey glasses, in scene {i}, what {attr} do most of the {size} objects have?",
        "Among the {size} objects in scene {i}, which {attr} is the most common?",
        "Which {attr} shows up most among the {size} objects of scene {i}?",
    ), (
        "do you remember which {attr} was most common for the {size} objects in scene {i}?",
        "can you tell me the most frequent {attr} among scene {i}'s {size} objects?",
        "scene {i}, {size} objects only: most common {attr}?",
        "If you only look at the {size} objects in the {nth} grid, scene {i}, which {attr} occurs most?",
        "what's the most common {attr} among the {size} ones in scene {i}?",
    )),
    t("s1-same-attribute-scene", "In which scene does the grid contain the highest number of objects with the same {attr}?" + _SCENES, (
        "Hey glasses, which scene had the most objects sharing the same {attr}?",
        "Which grid has the largest group of objects with the same {attr}?",
        "In which scene do the most objects have the same {attr}? Scene 1 is the first grid.",
    ), (
        "do you remember which scene had the biggest number of objects of one {attr}?",
        "can you tell me which grid contained the most objects with an identical {attr}?",
        "most objects with the same {attr}: which scene?",
        "Of all the grids shown, which scene has the highest count of objects that share a single {attr}?",
        "which scene's grid has the most objects with matching {attr}?",
    )),
    t("s1-more-size", "In Scene {i} (the {nth} grid shown), are there more {size} objects or {size2} objects?", (
        "Hey glasses, in scene {i}, are there more {size} or {size2} objects?",
        "Does scene {i} have more {size} objects or more {size2} objects?",
        "Which are more numerous in scene {i}: {size} objects or {size2} objects?",
    ), (
        "do you remember if scene {i} had more {size} objects or {size2} ones?",
        "can you tell me whether there were more {size} or {size2} objects in scene {i}?",
        "scene {i}: more {size} objects, or more {size2} objects?",
        "In the {nth} grid that was shown, scene {i}, which outnumber the others, the {size} objects or the {size2} objects?",
        "were there more {size} objects than {size2} objects in scene {i}, or the other way round?",
    )),
    t("s1-row-same-size", "Is there a row in Scene {i} (the {nth} grid shown) where all objects share the same size but vary in color or shape?", (
        "Hey glasses, does scene {i} have a row where every object is the same size but the colors or shapes differ?",
        "In scene {i}, is there any row whose objects are all one size yet vary in color or shape?",
        "Is any row of scene {i} made of same-size objects that differ in color or shape?",
    ), (
        "do you remember if scene {i} had a row of objects all the same size but not all the same color or shape?",
        "can you tell me whether some row in scene {i} has one size throughout but different colors or shapes?",
        "scene {i}: any row with all objects the same size but varying color or shape?",
        "Looking at the rows of the {nth} grid, scene {i}, is there one where the size is shared by every object while the color or shape varies?",
        "is there a row in scene {i} that's all one size, with the colors or shapes mixed?",
    )),
    t("s1-compare-shapes", "Between Scene {i} and Scene {j} (the {nth} and {nth2} grids shown), which shape appears more frequently: {shape} or {shape2}?", (
        "Hey glasses, across scene {i} and scene {j}, which appears more: {shape} or {shape2}?",
        "In scenes {i} and {j} together, are there more {shape}s or more {shape2}s?",
        "Which shape is more frequent in scene {i} and scene {j}, the {shape} or the {shape2}?",
    ), (
        "do you remember whether {shape}s or {shape2}s showed up more in scene {i} and scene {j}?",
        "can you tell me which was more common across scene {i} and scene {j}: {shape} or {shape2}?",
        "scenes {i} and {j}: {shape} or {shape2}, which is more frequent?",
        "If you take the {nth} and {nth2} grids together, scene {i} and scene {j}, which shape appears more often, {shape} or {shape2}?",
        "between scene {i} and scene {j}, what's more frequent, {shape} or {shape2}?",
    )),
    t("s1-row-same-colour", "Does Scene {i} (the {nth} grid shown) contain any rows where all objects share the same color but differ in shape?", (
        "Hey glasses, does scene {i} have a row where all objects are one color but the shapes differ?",
        "In scene {i}, is there any row whose objects share a color but not a shape?",
        "Are there rows in scene {i} with every object the same color and different shapes?",
    ), (
        "do you remember if scene {i} had a row of objects all in the same color but with different shapes?",
        "can you tell me whether any row of scene {i} is a single color with varying shapes?",
        "scene {i}: any rows that are all one color but mixed shapes?",
        "Thinking of the {nth} grid, scene {i}, does it have a row in which every object has the same color while the shapes are not all alike?",
        "is there a row in scene {i} that's all the same color but with different shapes?",
    )),
]

S2 = [
    t("s2-how-many-doing", "How many objects are performing the {action} action during the video?", (
        "Hey glasses, how many objects do the {action} action in the video?",
        "During the video, how many objects perform {action}?",
        "Count the objects that are doing {action} in the video.",
    ), (
        "do you know how many objects were doing the {action} action?",
        "can you tell me the number of objects performing {action} during the video?",
        "{action}: how many objects do it?",
        "Over the course of the video, how many different objects carry out the {action} action at some point?",
        "how many objects're doing {action} in the video?",
    )),
    t("s2-distinct-actions", "How many distinct actions are performed by the {obj}?", (
        "Hey glasses, how many different actions does the {obj} do?",
        "The {obj}: how many distinct actions does it perform?",
        "How many different kinds of action does the {obj} perform?",
    ), (
        "do you know how many separate actions the {obj} performed?",
        "can you tell me the number of different actions done by the {obj}?",
        "how many distinct things does the {obj} do?",
        "Counting each kind of action once, how many actions does the {obj} carry out in the video?",
        "what's the number of different actions the {obj} performs?",
    )),
    t("s2-action-more", "Which action has more objects performing it: {action} or {action2}?", (
        "Hey glasses, do more objects do {action} or {action2}?",
        "Which is performed by more objects, {action} or {action2}?",
        "More objects doing {action} or doing {action2}: which one?",
    ), (
        "do you know whether {action} or {action2} was performed by more objects?",
        "can you tell me which action more objects do, {action} or {action2}?",
        "{action} vs {action2}: which has more objects?",
        "Comparing the two actions {action} and {action2}, which one is carried out by a larger number of objects?",
        "are more objects doing {action} than {action2}, or the other way round?",
    )),
    t("s2-most-frequent", "Which action is most frequently performed across all objects?", (
        "Hey glasses, which action do the objects perform most often?",
        "Across all the objects, what's the most common action?",
        "What action is performed by the most objects?",
    ), (
        "do you know which action was the most common among all the objects?",
        "can you tell me the action performed most frequently across every object?",
        "most frequent action overall?",
        "If you look at every object in the video, which action gets performed the most?",
        "which action's the most popular among the objects?",
    )),
    t("s2-doing-at-end", "Which objects are performing the {action} action at the end of the video?", (
        "Hey glasses, which objects are doing {action} when the video ends?",
        "At the end of the video, which objects perform the {action} action?",
        "Which objects are still doing {action} at the very end?",
    ), (
        "do you know which objects were doing {action} at the end of the video?",
        "can you tell me the objects performing {action} as the video finishes?",
        "{action} at the end: which objects?",
        "When the video comes to an end, which of the objects are in the middle of the {action} action?",
        "who's doing {action} at the end of the video, which objects?",
    )),
    t("s2-actions-above-n", "Which actions are performed by more than {above} {objects}?", (
        "Hey glasses, which actions are done by more than {above} {objects}?",
        "What actions have more than {above} {objects} performing them?",
        "List the actions performed by more than {above} {objects}.",
    ), (
        "do you know which actions more than {above} {objects} performed?",
        "can you tell me every action that over {above} {objects} do?",
        "actions with more than {above} {objects} doing them?",
        "Which of the actions in the video are carried out by more than {above} {objects}?",
        "which actions've got more than {above} {objects} doing them?",
    )),
    t("s2-action-of", "What action is the {obj} performing?", (
        "Hey glasses, what is the {obj} doing?",
        "Which action does the {obj} perform?",
        "The {obj}: what action is it performing?",
    ), (
        "do you know what action the {obj} was performing?",
        "can you tell me what the {obj} is doing?",
        "what's the {obj} up to?",
        "In the video, which action is being carried out by the {obj}?",
        "{obj}, what action?",
    )),
    t("s2-any-shape", "Are there any {shape} objects performing the {action} action?", (
        "Hey glasses, is any {shape} doing the {action} action?",
        "Do any {shape} objects perform {action}?",
        "Is there a {shape} performing {action} in the video?",
    ), (
        "do you know if any {shape}s were doing {action}?",
        "can you tell me whether some {shape} object performs the {action} action?",
        "any {shape}s doing {action}?",
        "Among the {shape} objects, does any of them carry out the {action} action?",
        "is a {shape} doing {action} anywhere in the video?",
    )),
    t("s2-any-colour", "Is there any {colour} object performing the {action} action?", (
        "Hey glasses, is any {colour} object doing the {action} action?",
        "Does a {colour} object perform {action}?",
        "Are any {colour} objects doing {action}?",
    ), (
        "do you know if a {colour} object was performing {action}?",
        "can you tell me whether some {colour} object does the {action} action?",
        "any {colour} ones doing {action}?",
        "Among the {colour} objects, does any of them carry out the {action} action?",
        "is a {colour} object doing {action} anywhere in the video?",
    )),
]

S3 = [
    t("s3-fastest", "Which object moves the fastest: the {objs}?", (
        "Hey glasses, which is the fastest: the {objs}?",
        "Of the {objs}, which one moves fastest?",
        "Which of these moves quickest: the {objs}?",
    ), (
        "do you know which moves fastest out of the {objs}?",
        "can you tell me which object is the fastest, the {objs}?",
        "fastest one: the {objs}?",
        "Looking at how quickly they travel, which object has the highest speed: the {objs}?",
        "who's the fastest mover, the {objs}?",
    )),
    t("s3-slower", "Which object moves more slowly: the {a} or the {b}?", (
        "Hey glasses, which is slower, the {a} or the {b}?",
        "Does the {a} or the {b} move more slowly?",
        "Of the {a} and the {b}, which one is slower?",
    ), (
        "do you know which moves slower, the {a} or the {b}?",
        "can you tell me which object is slower: the {a} or the {b}?",
        "slower one: the {a} or the {b}?",
        "Comparing their speeds, which of the two travels more slowly, the {a} or the {b}?",
        "which one's slower, the {a} or the {b}?",
    )),
    t("s3-wall-changes", "How many times does the {obj} change direction after hitting a wall?", (
        "Hey glasses, how many times does the {obj} bounce off a wall and change direction?",
        "The {obj}: how many direction changes after hitting walls?",
        "How often does the {obj} change direction after it hits a wall?",
    ), (
        "do you know how many times the {obj} changed direction off a wall?",
        "can you tell me how many times the {obj} turns around after hitting a wall?",
        "how many wall bounces does the {obj} make?",
        "Every time the {obj} hits a wall it changes direction; how many times does that happen?",
        "how many times's the {obj} change direction after hitting a wall?",
    )),
    t("s3-initial-direction-count", "How many objects initially move {dir} when the movement begins?", (
        "Hey glasses, how many objects start off moving {dir}?",
        "When the movement starts, how many objects go {dir}?",
        "How many objects move {dir} at the very beginning?",
    ), (
        "do you know how many objects were heading {dir} when things started moving?",
        "can you tell me the number of objects moving {dir} at the start?",
        "at the start, how many objects move {dir}?",
        "Right when the objects begin to move, how many of them are travelling {dir}?",
        "how many objects're moving {dir} at first?",
    )),
    t("s3-direction-before-wall", "Is the {obj} moving {pair} before it first hits a wall?", (
        "Hey glasses, before it first hits a wall, is the {obj} moving {pair}?",
        "Before its first wall hit, is the {obj} going {pair}?",
        "Is the {obj} heading {pair} until it first touches a wall?",
    ), (
        "do you know if the {obj} was moving {pair} before hitting a wall for the first time?",
        "can you tell me whether the {obj} moves {pair} before the first wall?",
        "{obj} before the first wall: {pair}?",
        "In the stretch before the {obj} first reaches a wall, is its movement {pair}?",
        "is the {obj} going {pair} before it first bumps into a wall?",
    )),
]

S4 = [
    t("s4-next-object", "What object appears immediately after the object {colour} {shape}?", (
        "Hey glasses, what comes right after the {colour} {shape}?",
        "Which object shows up immediately after the {colour} {shape}?",
        "After the {colour} {shape}, what is the next object to appear?",
    ), (
        "do you remember which object appeared right after the {colour} {shape}?",
        "can you tell me what object follows the {colour} {shape} straight away?",
        "{colour} {shape}, then what?",
        "Once the {colour} {shape} has been shown, which object is displayed next?",
        "what's the object that comes right after the {colour} {shape}?",
    )),
    t("s4-next-colour", "What is the color of the object displayed after the object {colour} {shape}?", (
        "Hey glasses, what color is the object shown after the {colour} {shape}?",
        "Which color does the object after the {colour} {shape} have?",
        "After the {colour} {shape}, what color is the next object displayed?",
    ), (
        "do you remember the color of the object that came after the {colour} {shape}?",
        "can you tell me what color the object following the {colour} {shape} was?",
        "color of the one after the {colour} {shape}?",
        "Once the {colour} {shape} has been shown, what is the color of the object displayed next?",
        "what's the color of the object that comes after the {colour} {shape}?",
    )),
    t("s4-how-long", "How long does the {colour} {shape} appear on screen in total?", (
        "Hey glasses, how long is the {colour} {shape} on screen altogether?",
        "In total, for how long is the {colour} {shape} shown?",
        "What's the total time the {colour} {shape} stays on screen?",
    ), (
        "do you know how long the {colour} {shape} was on screen in total?",
        "can you tell me the total time the {colour} {shape} is displayed?",
        "{colour} {shape}: total screen time?",
        "Adding up every time it is shown, how long does the {colour} {shape} appear on the screen?",
        "how long's the {colour} {shape} visible in total?",
    )),
    t("s4-first-time", "At what time on the clock does the first {colour} {shape} appear?", (
        "Hey glasses, what does the clock say when the first {colour} {shape} appears?",
        "When does the first {colour} {shape} show up, by the clock?",
        "What clock time is it when the {colour} {shape} first appears?",
    ), (
        "do you remember the clock time when the first {colour} {shape} showed up?",
        "can you tell me at what clock time the {colour} {shape} appears for the first time?",
        "first {colour} {shape}: what time on the clock?",
        "Reading the on-screen clock, what time was it when the first {colour} {shape} came up?",
        "what time's on the clock when the first {colour} {shape} appears?",
    )),
    t("s4-duration-after", "What is the total duration for which the {colour} {shape} is displayed after {time}?", (
        "Hey glasses, how long in total is the {colour} {shape} shown after {time}?",
        "After {time}, for how much time altogether is the {colour} {shape} displayed?",
        "Total time the {colour} {shape} is on screen after {time}?",
    ), (
        "do you know how long the {colour} {shape} was displayed in total after {time}?",
        "can you tell me the total display time of the {colour} {shape} after {time}?",
        "{colour} {shape} after {time}: how long in total?",
        "Counting only from {time} on, what is the overall time the {colour} {shape} is on the screen?",
        "how long's the {colour} {shape} displayed altogether after {time}?",
    )),
    t("s4-how-long-after", "For how long does the {colour} {shape} appear after {time}, including {time} itself?", (
        "Hey glasses, how long does the {colour} {shape} appear from {time} on, {time} included?",
        "Starting at {time} and including it, for how long is the {colour} {shape} shown?",
        "How long is the {colour} {shape} on screen after {time}, counting {time} too?",
    ), (
        "do you know how long the {colour} {shape} showed up after {time}, {time} itself included?",
        "can you tell me how long the {colour} {shape} appears from {time} onward, including {time}?",
        "{colour} {shape} from {time} (inclusive): how long?",
        "If you count from {time}, with {time} itself included, how much time does the {colour} {shape} spend on screen?",
        "how long's the {colour} {shape} up after {time}, including {time}?",
    )),
    t("s4-sequence-after", "In what sequence do the objects appear after {time}, including {time} itself?", (
        "Hey glasses, in what order do the objects appear from {time} on, {time} included?",
        "Starting at {time} and including it, what's the sequence of objects?",
        "What order are the objects shown in after {time}, counting {time} too?",
    ), (
        "do you remember the order the objects came up in after {time}, including {time} itself?",
        "can you tell me the sequence of objects from {time} onward, {time} included?",
        "objects from {time} (inclusive), in order?",
        "If you start at {time}, with {time} itself included, which objects appear, one after another?",
        "what's the order of the objects after {time}, including {time}?",
    )),
    t("s4-object-after", "Did the {colour} {shape} appear at any time after {time}?", (
        "Hey glasses, did the {colour} {shape} show up after {time}?",
        "After {time}, did the {colour} {shape} appear at all?",
        "Was the {colour} {shape} shown any time after {time}?",
    ), (
        "do you remember if the {colour} {shape} appeared after {time}?",
        "can you tell me whether the {colour} {shape} came up at some point after {time}?",
        "{colour} {shape} after {time}, yes or no?",
        "At any moment later than {time}, is the {colour} {shape} displayed on the screen?",
        "did the {colour} {shape} pop up after {time}?",
    )),
    t("s4-any-after", "Did any object appear at any time after {time}?", (
        "Hey glasses, did anything appear after {time}?",
        "After {time}, was any object shown at all?",
        "Was there any object on screen at any time after {time}?",
    ), (
        "do you remember if any object showed up after {time}?",
        "can you tell me whether some object appeared at some point after {time}?",
        "anything after {time}, yes or no?",
        "At any moment later than {time}, is there some object displayed on the screen?",
        "did any object pop up after {time}?",
    )),
    t("s4-before-and-after", "Are there any objects that appear both before and after {time}?", (
        "Hey glasses, does any object appear both before and after {time}?",
        "Is there an object shown before {time} and again after {time}?",
        "Which objects, if any, appear on both sides of {time}? Are there any?",
    ), (
        "do you remember if some object showed up both before {time} and after it?",
        "can you tell me whether any object appears before as well as after {time}?",
        "any object both before and after {time}?",
        "Is there at least one object that is displayed at some point before {time} and again at some point after {time}?",
        "did any object come up before {time} and then again after {time}?",
    )),
]

S5 = [
    t("s5-first-object", "What is the shape and color of the first object that appears in the grid?", (
        "Hey glasses, what shape and color was the first object in the grid?",
        "The first object to appear in the grid: what color and shape was it?",
        "Which shape and color does the grid's first object have?",
    ), (
        "do you remember the color and shape of the very first object in the grid?",
        "can you tell me what the first object that showed up in the grid looked like, shape and color?",
        "first object in the grid: shape and color?",
        "When the first object appeared in the grid, what was its shape, and what was its color?",
        "what's the shape and color of the grid's first object?",
    )),
    t("s5-first-cell", "In which cell position (row, column, counted from the top-left) does the first object appear in the grid?", (
        "Hey glasses, which cell did the first object appear in? Give row and column from the top-left.",
        "Where in the grid does the first object appear: which row and column, counted from the top-left?",
        "Which cell, by row and column from the top-left, holds the first object?",
    ), (
        "do you remember which cell of the grid the first object showed up in, row and column from the top-left?",
        "can you tell me the row and column where the first object appeared, counting from the top-left?",
        "first object: which cell (row, column from the top-left)?",
        "Counting rows and columns from the top-left corner, in which cell was the first object of the grid displayed?",
        "where's the first object in the grid, as row and column from the top-left?",
    )),
    t("s5-any-in-line", "Is there any {value} object located in {line} {i} of the grid at any time during the video?", (
        "Hey glasses, did any {value} object show up in {line} {i} of the grid?",
        "At any time in the video, is there a {value} object in {line} {i}?",
        "Was a {value} object ever located in {line} {i} of the grid?",
    ), (
        "do you remember if a {value} object was ever in {line} {i}?",
        "can you tell me whether any {value} object appeared in {line} {i} of the grid during the video?",
        "{line} {i}: any {value} object at any point?",
        "Throughout the whole video, does a {value} object ever occupy a cell in {line} {i} of the grid?",
        "was there ever a {value} one in {line} {i}?",
    )),
    t("s5-most-line", "In which {line} of the grid does the {colour} {shape} appear most frequently?", (
        "Hey glasses, which {line} does the {colour} {shape} appear in most?",
        "The {colour} {shape} shows up most often in which {line} of the grid?",
        "Which {line} of the grid holds the {colour} {shape} most frequently?",
    ), (
        "do you remember which {line} the {colour} {shape} turned up in most often?",
        "can you tell me the {line} where the {colour} {shape} appears the most?",
        "{colour} {shape}: which {line} did it turn up in the most?",
        "Over all its appearances in the grid, in which {line} is the {colour} {shape} found most often?",
        "which {line}'s the {colour} {shape} in most of the time?",
    )),
    t("s5-unique-cells", "How many unique cell positions of the grid are occupied by objects throughout the video?", (
        "Hey glasses, how many different cells of the grid get an object during the video?",
        "Throughout the video, how many distinct grid cells are occupied by objects?",
        "Count the unique cells of the grid that objects occupy over the video.",
    ), (
        "do you know how many different cells of the grid had an object at some point?",
        "can you tell me the number of distinct cell positions objects occupied during the video?",
        "how many different grid cells got used?",
        "Over the whole video, counting each cell once, how many positions of the grid are taken up by an object?",
        "how many unique cells've been occupied by objects?",
    )),
    t("s5-adjacent", "For the {occ} occurrence of the {colour} {shape}, what is the object in the adjacent cell {side}?", (
        "Hey glasses, on the {occ} occurrence of the {colour} {shape}, what's in the next cell {side}?",
        "When the {colour} {shape} appears for the {occ} time, which object is in the cell {side}?",
        "What object sits in the adjacent cell {side} at the {occ} occurrence of the {colour} {shape}?",
    ), (
        "do you remember what object was in the cell {side} the {occ} time the {colour} {shape} showed up?",
        "can you tell me the object in the neighbouring cell {side} at the {occ} occurrence of the {colour} {shape}?",
        "{occ} {colour} {shape}: what's in the cell {side}?",
        "Think of the {occ} occurrence of the {colour} {shape}; which object occupies the adjacent cell {side} of it?",
        "the {occ} time the {colour} {shape} appears, what's the object in the cell {side}?",
    )),
]

S6 = [
    t("s6-most-frequent-edge", "Which edge of the {solid} does the red ball traverse most frequently?", (
        "Hey glasses, which edge of the {solid} does the red ball travel along most?",
        "Along which edge of the {solid} does the red ball go most often?",
        "What's the {solid} edge the red ball traverses most frequently?",
    ), (
        "do you remember which edge of the {solid} the red ball used most?",
        "can you tell me the edge of the {solid} that the red ball crosses most often?",
        "red ball, most travelled edge of the {solid}?",
        "Of all the edges of the {solid}, which one does the red ball move along the greatest number of times?",
        "which {solid} edge's the red ball on most?",
    )),
    t("s6-path", "Describe the path of movement taken by the ball: which vertices of the {solid} does it visit, in order?", (
        "Hey glasses, which vertices of the {solid} does the ball visit, in order?",
        "In order, what vertices of the {solid} does the ball pass through?",
        "List the vertices of the {solid} the ball goes to, in the order it visits them.",
    ), (
        "do you remember the order in which the ball visited the vertices of the {solid}?",
        "can you tell me the ball's path as the sequence of {solid} vertices it visits?",
        "the ball's route over the {solid}: which vertices, in order?",
        "Tracing the ball's movement, which vertices of the {solid} does it reach, one after another?",
        "what's the ball's path, vertex by vertex, on the {solid}?",
    )),
    t("s6-start-edge", "On which edge of the {solid} does the small ball start moving?", (
        "Hey glasses, which edge of the {solid} does the small ball start on?",
        "Where does the small ball begin moving: which edge of the {solid}?",
        "Which {solid} edge is the small ball on when it starts to move?",
    ), (
        "do you remember which edge of the {solid} the small ball started moving along?",
        "can you tell me the edge of the {solid} where the small ball starts?",
        "small ball, starting edge of the {solid}?",
        "When the small ball first sets off, along which edge of the {solid} is it travelling?",
        "which edge's the small ball start moving on, on the {solid}?",
    )),
    t("s6-final-edge", "On which edge of the {solid} does the ball conclude its movement?", (
        "Hey glasses, which edge of the {solid} does the ball finish on?",
        "Where does the ball end its movement: which edge of the {solid}?",
        "Which {solid} edge is the ball on when its movement ends?",
    ), (
        "do you remember which edge of the {solid} the ball stopped on?",
        "can you tell me the edge of the {solid} where the ball's movement concludes?",
        "ball's last edge of the {solid}?",
        "When the ball comes to the end of its movement, along which edge of the {solid} is it?",
        "which edge's the ball end up on, on the {solid}?",
    )),
    t("s6-vertex-arrivals", "How many times does the ball reach a vertex during its movement (arrivals after it starts moving, not counting the vertex it starts on)?", (
        "Hey glasses, how many times does the ball arrive at a vertex after it starts moving? Don't count the starting vertex.",
        "Not counting where it starts, how many vertex arrivals does the ball make?",
        "How often does the ball reach a vertex once it's moving, leaving out the vertex it starts on?",
    ), (
        "do you know how many times the ball got to a vertex, not counting the one it started at?",
        "can you tell me the number of vertex arrivals the ball makes after setting off, excluding its starting vertex?",
        "vertex arrivals by the ball, starting vertex excluded?",
        "After the ball begins to move, how many times does it arrive at a vertex? The vertex it starts on doesn't count.",
        "how many vertices does the ball get to after it starts, without the one it starts on?",
    )),
    t("s6-unique-edges", "How many unique edges of the {solid} does the ball traverse throughout the video?", (
        "Hey glasses, how many different edges of the {solid} does the ball travel along?",
        "Throughout the video, how many distinct {solid} edges does the ball cover?",
        "Count the unique edges of the {solid} the ball traverses.",
    ), (
        "do you know how many different edges of the {solid} the ball went along?",
        "can you tell me the number of distinct edges of the {solid} the ball crosses in the video?",
        "how many different {solid} edges did the ball use?",
        "Counting each edge only once, how many edges of the {solid} does the ball move along over the whole video?",
        "how many unique edges of the {solid}'s the ball been on?",
    )),
]

S7 = [
    t("s7-survives", "Does the player's plane survive until the end of the video?", (
        "Hey glasses, is the player's plane still alive at the end of the video?",
        "Does the player's plane make it to the end of the video?",
        "By the end of the video, has the player's plane survived?",
    ), (
        "do you know if the player's plane survived to the end?",
        "can you tell me whether the player's plane lasts until the video ends?",
        "player's plane: alive at the end?",
        "Is the player's plane still flying when the video finishes, or was it destroyed before that?",
        "does the player's plane make it through the whole video?",
    )),
    t("s7-enemies-appear", "How many enemies appear during the video?", (
        "Hey glasses, how many enemies show up in the video?",
        "During the video, how many enemies appear?",
        "Count the enemies that appear in the video.",
    ), (
        "do you know how many enemies came up during the video?",
        "can you tell me the number of enemies that appear?",
        "how many enemies in total?",
        "Over the whole video, how many enemy planes turn up on the screen?",
        "how many enemies've appeared in the video?",
    )),
    t("s7-max-visible", "What is the maximum number of enemies visible on screen at the same time?", (
        "Hey glasses, what's the most enemies on screen at once?",
        "At the same time, how many enemies can be seen on screen at most?",
        "What's the largest number of enemies visible simultaneously?",
    ), (
        "do you know the most enemies that were on screen together?",
        "can you tell me the peak number of enemies visible at one time?",
        "max enemies on screen at once?",
        "At the busiest moment of the video, how many enemies are visible on the screen together?",
        "what's the highest number of enemies on screen at the same time?",
    )),
    t("s7-direction-changes", "How many times does the player's plane change direction?", (
        "Hey glasses, how many times does the player's plane turn around?",
        "How often does the player's plane change its direction?",
        "Count the direction changes of the player's plane.",
    ), (
        "do you know how many times the player's plane changed direction?",
        "can you tell me the number of direction changes the player's plane makes?",
        "player's plane: how many direction changes?",
        "Over the video, how many times does the player's plane reverse or switch its direction of travel?",
        "how many times's the player's plane change direction?",
    )),
    t("s7-movement-pattern", "What is the movement pattern of the player's plane?", (
        "Hey glasses, how does the player's plane move?",
        "Describe the movement pattern of the player's plane.",
        "What kind of movement does the player's plane make?",
    ), (
        "do you remember how the player's plane was moving?",
        "can you tell me the pattern the player's plane moves in?",
        "player's plane: movement pattern?",
        "Over the video, what pattern does the player's plane follow as it moves around?",
        "how's the player's plane moving, what's the pattern?",
    )),
    t("s7-enemies-destroyed", "How many enemies are destroyed by the player's plane?", (
        "Hey glasses, how many enemies does the player's plane destroy?",
        "How many enemies get shot down by the player's plane?",
        "Count the enemies destroyed by the player's plane.",
    ), (
        "do you know how many enemies the player's plane took out?",
        "can you tell me the number of enemies destroyed by the player's plane?",
        "enemies destroyed by the player's plane?",
        "Over the whole video, how many of the enemies does the player's plane manage to destroy?",
        "how many enemies's the player's plane destroyed?",
    )),
    t("s7-first-kill", "How many seconds after the start of the video is the first enemy destroyed?", (
        "Hey glasses, how many seconds into the video is the first enemy destroyed?",
        "When is the first enemy destroyed, in seconds from the start of the video?",
        "How long after the video starts does the first enemy get destroyed, in seconds?",
    ), (
        "do you know how many seconds in the first enemy was destroyed?",
        "can you tell me the number of seconds from the start of the video to the first enemy destroyed?",
        "first enemy destroyed: how many seconds after the start?",
        "Counting from the start of the video, after how many seconds does the first enemy get destroyed?",
        "how many seconds's it take until the first enemy is destroyed?",
    )),
]

S8 = [
    t("s8-sequence", "Describe the player's full sequence of movements (U = up, D = down, L = left, R = right).", (
        "Hey glasses, what's the player's full sequence of moves? Use U, D, L, R for up, down, left, right.",
        "List every move the player made, in order, as U = up, D = down, L = left, R = right.",
        "What sequence of movements did the player make? (U up, D down, L left, R right)",
    ), (
        "do you remember the player's whole sequence of moves, written with U, D, L and R for up, down, left, right?",
        "can you tell me all the player's movements in order, using U = up, D = down, L = left, R = right?",
        "player's moves in order (U = up, D = down, L = left, R = right)?",
        "From start to finish, which moves did the player make, one after another? Write them as U for up, D for down, L for left and R for right.",
        "what's the full list of the player's moves, U/D/L/R for up/down/left/right?",
    )),
    t("s8-steps", "How many steps did the player take to solve the maze?", (
        "Hey glasses, how many steps did it take the player to solve the maze?",
        "To solve the maze, how many steps did the player take?",
        "Count the steps the player used to solve the maze.",
    ), (
        "do you know how many steps the player needed to solve the maze?",
        "can you tell me the number of steps the player took through the maze?",
        "steps taken by the player to solve the maze?",
        "From the start to the goal, how many steps does the player make in solving the maze?",
        "how many steps'd the player take to solve the maze?",
    )),
    t("s8-axis-moves", "How many times did the player move {axis}?", (
        "Hey glasses, how many times did the player go {axis}?",
        "Count the player's moves {axis}.",
        "How often did the player move {axis}?",
    ), (
        "do you know how many times the player moved {axis}?",
        "can you tell me the number of times the player stepped {axis}?",
        "player moves {axis}: how many?",
        "Over the whole run through the maze, how many of the player's moves were {axis}?",
        "how many times'd the player move {axis}?",
    )),
    t("s8-shortest", "What is the length (in steps) of the shortest path to solve the maze?", (
        "Hey glasses, how many steps long is the shortest path through the maze?",
        "In steps, how long is the shortest path that solves the maze?",
        "What's the length of the maze's shortest solution, in steps?",
    ), (
        "do you know the number of steps in the shortest path that solves the maze?",
        "can you tell me how many steps the shortest path to solve the maze takes?",
        "shortest path through the maze: how many steps?",
        "If you took the shortest possible path to solve the maze, how many steps long would it be?",
        "what's the shortest path to solve the maze, in steps?",
    )),
    t("s8-within-n", "Does the player reach the goal of the maze within {steps} steps?", (
        "Hey glasses, does the player get to the goal of the maze within {steps} steps?",
        "Within {steps} steps, does the player reach the maze's goal?",
        "Is the goal of the maze reached by the player in {steps} steps or fewer?",
    ), (
        "do you know if the player reached the goal of the maze within {steps} steps?",
        "can you tell me whether the player gets to the maze's goal in at most {steps} steps?",
        "goal of the maze within {steps} steps, yes or no?",
        "Counting the player's steps, is the goal of the maze reached within the first {steps} of them?",
        "does the player make it to the goal within {steps} steps?",
    )),
]

S9 = [
    t("s9-winner", "Which player won the game?", (
        "Hey glasses, who won the game?",
        "Which player was the winner of the game?",
        "Who won the game, X or O?",
    ), (
        "do you remember which player won the game?",
        "can you tell me the winner of the game?",
        "game winner?",
        "When the game was over, which of the two players had won it?",
        "who's the winner of the game?",
    )),
    t("s9-moves-each", "How many moves did each player make (X, then O)?", (
        "Hey glasses, how many moves did each player make? X first, then O.",
        "How many moves did X make and how many did O make?",
        "Count each player's moves, X and then O.",
    ), (
        "do you know how many moves each player made, X then O?",
        "can you tell me the number of moves for each player, X followed by O?",
        "moves per player (X, then O)?",
        "Over the whole game, how many moves does each of the two players make? Give X first and O second.",
        "how many moves'd each player make, X and then O?",
    )),
    t("s9-unplayed", "Which grid positions remained unplayed by the end of the game?", (
        "Hey glasses, which grid positions were never played by the end of the game?",
        "At the end of the game, which positions of the grid are still empty?",
        "Which grid positions were left unplayed when the game ended?",
    ), (
        "do you remember which grid positions were still unplayed at the end of the game?",
        "can you tell me the grid positions nobody played by the end of the game?",
        "empty grid positions at the end of the game?",
        "When the game was over, which positions of the grid had still not been played by anyone?",
        "which positions're left unplayed at the end of the game?",
    )),
    t("s9-first-player", "Which player made the first move in the game?", (
        "Hey glasses, who made the first move in the game?",
        "Which player moved first in the game?",
        "Who started the game, which player?",
    ), (
        "do you remember which player made the first move?",
        "can you tell me who played first in the game?",
        "first move in the game: which player?",
        "When the game began, which of the two players was the one to make the opening move?",
        "who's the one that made the first move in the game?",
    )),
    t("s9-final-move", "What was the final move made in the game?", (
        "Hey glasses, what was the last move in the game?",
        "Which move was the final one made in the game?",
        "What was the game's final move?",
    ), (
        "do you remember the final move of the game?",
        "can you tell me the last move made in the game?",
        "final move of the game?",
        "Thinking of the very end of the game, what was the move that was made last?",
        "what's the last move that was made in the game?",
    )),
    t("s9-total-moves", "What is the total number of moves made during the game?", (
        "Hey glasses, how many moves were made in the game in total?",
        "In total, how many moves were made during the game?",
        "Count all the moves made during the game.",
    ), (
        "do you know how many moves were made during the game altogether?",
        "can you tell me the total number of moves in the game?",
        "total moves in the game?",
        "Adding up both players, how many moves were made over the whole game?",
        "how many moves've been made in the game in total?",
    )),
    t("s9-diagonal-win", "Did either player win by completing a diagonal sequence?", (
        "Hey glasses, did anyone win with a diagonal?",
        "Was the game won by a player completing a diagonal?",
        "Did either player complete a diagonal to win?",
    ), (
        "do you remember if either player won by completing a diagonal?",
        "can you tell me whether the win came from a diagonal sequence?",
        "won on a diagonal, yes or no?",
        "When the game was decided, did the winning player get there by filling a full diagonal line?",
        "did either player win by getting a diagonal sequence?",
    )),
]

S10 = [
    t("s10-note-of-object", "Which musical note is associated with the appearance of the {colour} {shape}?", (
        "Hey glasses, which note plays when the {colour} {shape} appears?",
        "What musical note goes with the {colour} {shape}?",
        "When the {colour} {shape} shows up, which musical note is associated with it?",
    ), (
        "do you remember which note was heard with the {colour} {shape}?",
        "can you tell me the musical note that comes with the {colour} {shape}'s appearance?",
        "{colour} {shape}: which note?",
        "Every time the {colour} {shape} appears a note sounds; which musical note is it?",
        "what's the note that goes with the {colour} {shape}?",
    )),
    t("s10-distinct-notes", "How many different notes were played in total?", (
        "Hey glasses, how many different notes were played?",
        "In total, how many distinct notes were played?",
        "Count the different notes that were played.",
    ), (
        "do you know how many different notes got played in total?",
        "can you tell me the number of distinct notes played?",
        "how many different notes in total?",
        "Over the whole video, counting each note once, how many different notes are played?",
        "how many different notes've been played in total?",
    )),
    t("s10-most-frequent-object", "Which object appeared most frequently?", (
        "Hey glasses, which object appeared most often?",
        "What was the most frequent object to appear?",
        "Which object showed up the most times?",
    ), (
        "do you remember which object appeared most frequently?",
        "can you tell me the object that came up the most?",
        "most frequent object?",
        "Over the whole video, which of the objects appears the greatest number of times?",
        "which object's appeared most frequently?",
    )),
    t("s10-first-note", "What was the first note played?", (
        "Hey glasses, what note was played first?",
        "Which note was the first one played?",
        "What was the very first note played?",
    ), (
        "do you remember the first note that was played?",
        "can you tell me which note was played first?",
        "the opening note, which one was it?",
        "When the music started, which note was the one played first?",
        "what's the first note that got played?",
    )),
    t("s10-note-played", 'Was the note "{note}" played at any point?', (
        'Hey glasses, was note "{note}" played at any point?',
        'At any point, was the note "{note}" played?',
        'Did note "{note}" get played at all?',
    ), (
        'do you remember if the note "{note}" was ever played?',
        'can you tell me whether note "{note}" was played at some point?',
        'note "{note}": did it ever sound?',
        'Over the whole video, is there any moment where the note "{note}" is played?',
        'was "{note}" played at any point, the note?',
    )),
    t("s10-note-with-object", "How many times did note {note} occur alongside a {colour} {shape}?", (
        "Hey glasses, how many times did note {note} play together with a {colour} {shape}?",
        "How often did a {colour} {shape} come with note {note}?",
        "Count the times note {note} occurred alongside a {colour} {shape}.",
    ), (
        "do you know how many times note {note} went with a {colour} {shape}?",
        "can you tell me how many times a {colour} {shape} appeared alongside note {note}?",
        "note {note} with a {colour} {shape}: how many times?",
        "Over the video, on how many occasions was note {note} heard while a {colour} {shape} was showing?",
        "how many times'd note {note} occur along with a {colour} {shape}?",
    )),
    t("s10-colour-with-note", "How many times does a {colour} object appear alongside note {note}?", (
        "Hey glasses, how many times does a {colour} object show up with note {note}?",
        "How often does a {colour} object appear together with note {note}?",
        "Count the times a {colour} object appears alongside note {note}.",
    ), (
        "do you know how many times a {colour} object came with note {note}?",
        "can you tell me how many times note {note} was heard with a {colour} object?",
        "{colour} object with note {note}: how many times?",
        "Over the video, on how many occasions did a {colour} object appear while note {note} was playing?",
        "how many times's a {colour} object appear along with note {note}?",
    )),
]

VIDEOCOGQA = Bank("videocogqa", S1 + S2 + S3 + S4 + S5 + S6 + S7 + S8 + S9 + S10)

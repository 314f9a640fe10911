"""The life simulator and its question generators: determinism, facts that agree with the
scripts, habits, item shapes, answers recomputed from the facts, suite selection, and one
tiny real render."""
from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import replace
from datetime import date, datetime, timedelta

import pytest

from eval.baselines import BlindBaseline
from eval.life import suites
from eval.life.egomemreason import N_OPTIONS, EgoMemReasonQuestions
from eval.life.egomemreason import TASKS as EGO_TASKS
from eval.life.log import NOT_ANSWERABLE, LifeLog
from eval.life.record import LOG_NAME, load_life, record_life, video_path
from eval.life.simulate import EPISODE_KINDS, Episode, LifeSimulator
from eval.life.supermemory import CATEGORIES, SuperMemoryQuestions
from eval.life.world import FOODS, MUGS, make_world
from eval.schema import Item


def simulate(seed: int = 0, people: int = 1, days: int = 2, **kw) -> list[Episode]:
    episodes: list[Episode] = []
    for p in range(people):
        episodes += LifeSimulator(make_world(seed, p), days, **kw).run()
    return episodes


@pytest.fixture(scope="module")
def smoke_life() -> LifeLog:
    """The smoke size's life (one wearer, two days), un-rendered: spans are estimates."""
    spec = suites.SIZES["smoke"]
    return LifeLog(simulate(0, spec.people, spec.days, min_episode_seconds=spec.min_episode_seconds))


@pytest.fixture(scope="module")
def full_life() -> LifeLog:
    spec = suites.SIZES["full"]
    return LifeLog(simulate(0, spec.people, spec.days, min_episode_seconds=spec.min_episode_seconds))


@pytest.fixture(scope="module", params=["smoke", "full"])
def life(request, smoke_life, full_life) -> LifeLog:
    return smoke_life if request.param == "smoke" else full_life


@pytest.fixture(scope="module")
def sm_candidates(life) -> dict[tuple[str, bool], list[Item]]:
    return SuperMemoryQuestions(life, 0).candidates()


@pytest.fixture(scope="module")
def ego_candidates(life) -> dict[str, list[Item]]:
    return EgoMemReasonQuestions(life, 0).candidates()


def wall(iso: str) -> datetime:
    return datetime.fromisoformat(iso).replace(tzinfo=None)


def seen_before(log: LifeLog, person: str, asked: datetime):
    """(wall start, wall end, thing, place) of every sighting that ends before `asked`,
    recomputed from the raw episodes (not through LifeLog.facts)."""
    for e in log.episodes:
        if e.person != person:
            continue
        for f in e.facts:
            if f.kind == "seen" and e.wall(f.end) < asked:
                yield e.wall(f.start), e.wall(f.end), f.subject, f.place


# ---- the simulator ------------------------------------------------------------------------
def test_simulation_is_deterministic_per_seed_and_differs_across_seeds():
    a, b, other = simulate(0, 2, 3), simulate(0, 2, 3), simulate(1, 2, 3)
    assert [e.script for e in a] == [e.script for e in b]
    assert [e.facts for e in a] == [e.facts for e in b]
    assert [e.wall_start for e in a] == [e.wall_start for e in b]
    assert [e.facts for e in a] != [e.facts for e in other]
    assert [e.script for e in a] != [e.script for e in other]


@pytest.mark.parametrize("seed", [0, 1, 7])
def test_episodes_validate_and_follow_the_clock(seed):
    episodes = simulate(seed, people=2, days=3, min_episode_seconds=20.0)
    for e in episodes:
        e.script.validate()
        assert e.script.duration >= 20.0
        assert e.script.start_datetime.startswith(e.wall_start.strftime("%Y-%m-%dT%H:%M:%S"))
    assert len({e.video_id for e in episodes}) == len(episodes)
    first_day = date.fromisoformat(make_world(seed, 0).start_date)
    by_person = defaultdict(list)
    for e in episodes:
        by_person[e.person].append(e)
    assert set(by_person) == {"p1", "p2"}
    for eps in by_person.values():
        for prev, nxt in zip(eps, eps[1:]):
            assert prev.wall_start < nxt.wall_start, (prev.video_id, nxt.video_id)
            assert prev.wall_end <= nxt.wall_start, f"{prev.video_id} overlaps {nxt.video_id}"
        kinds_by_day = defaultdict(list)
        for e in eps:
            kinds_by_day[e.day].append(e.kind)
            assert e.wall_start.date() == first_day + timedelta(days=e.day - 1)
        assert sorted(kinds_by_day) == [1, 2, 3]
        assert all(kinds == list(EPISODE_KINDS) for kinds in kinds_by_day.values())


def test_subset_of_kinds_and_bad_arguments():
    eps = LifeSimulator(make_world(0, 0), 1, kinds=("breakfast", "work")).run()
    assert [e.kind for e in eps] == ["breakfast", "work"]
    with pytest.raises(ValueError):
        LifeSimulator(make_world(0, 0), 1, kinds=("breakfast", "nap"))
    with pytest.raises(ValueError):
        LifeSimulator(make_world(0, 0), 0)


def test_facts_agree_with_scripts():
    for e in simulate(3, people=2, days=3):
        script = e.script
        for f in e.facts:
            assert 0 <= f.start < f.end <= script.duration + 1e-6, (e.video_id, f)
            if f.kind == "seen":
                covering = [s for s in script.shots if s.room == f.place and s.start <= f.start and f.end <= s.end]
                assert covering, (e.video_id, f)
                assert any(p.object == f.subject and p.state == f.value for s in covering for p in s.objects), f
            elif f.kind == "said":
                u = script.utterances[f.line]
                assert (u.text, u.speaker, u.start) == (f.value, f.subject, f.start)
                assert script.shot_at(f.start).room == f.place
            elif f.kind == "visit":
                assert any(s.room == f.subject and (s.start, s.end) == (f.start, f.end) for s in script.shots)
            elif f.kind == "text":
                assert any(s.text is not None and s.room == f.place and " / ".join(s.text.lines) == f.value
                           and s.text.kind == f.subject for s in script.shots)
            else:  # meal, bought, meeting: facts about a shot of their place
                assert any(s.room == f.place and (s.start, s.end) == (f.start, f.end) for s in script.shots), f
        # every placement and line is in the log
        placed = {(s.start, p.object, p.state) for s in script.shots for p in s.objects}
        assert placed == {(f.start, f.subject, f.value) for f in e.facts if f.kind == "seen"}
        assert sorted(f.line for f in e.facts if f.kind == "said") == list(range(len(script.utterances)))


def test_padding_changes_durations_not_facts():
    plain, padded = simulate(5, 1, 2), simulate(5, 1, 2, min_episode_seconds=40.0)
    for a, b in zip(plain, padded):
        assert b.script.duration == max(40.0, a.script.duration)
        assert (a.video_id, a.wall_start, a.script.utterances) == (b.video_id, b.wall_start, b.script.utterances)
        last = a.script.shots[-1].start
        for fa, fb in zip(a.facts, b.facts, strict=True):
            # only the last shot runs on, so only its facts end later
            assert replace(fa, end=0.0) == replace(fb, end=0.0)
            assert fa.end == fb.end or (fa.start >= last and fb.end == b.script.duration)


def test_habits_breakfast_follows_the_food_weights_and_keys_move():
    episodes = simulate(0, people=3, days=40)
    foods = Counter(f.value for e in episodes for f in e.facts if f.kind == "meal" and f.subject == "breakfast")
    weights = dict(FOODS["breakfast"])
    assert foods.most_common(1)[0][0] == max(weights, key=weights.get), foods
    for food, weight in weights.items():  # counts follow the weights, loosely
        expected = sum(foods.values()) * weight / sum(weights.values())
        assert 0.6 * expected <= foods[food] <= 1.4 * expected, foods
    # ... and so does a single wearer's week: the heaviest food is the mode
    week = Counter(f.value for e in episodes if e.person == "p1" and e.day <= 6 for f in e.facts
                   if f.kind == "meal" and f.subject == "breakfast")
    assert week.most_common(1)[0][0] == max(weights, key=weights.get), week
    lunches = Counter(f.value for e in episodes for f in e.facts if f.kind == "meal" and f.subject == "lunch")
    assert lunches.most_common(1)[0][0] == max(FOODS["lunch"], key=lambda fw: fw[1])[0]
    # the keys travel: to the office on workdays, back to one of several home places at night
    for person in ("p1", "p2", "p3"):
        keys = [f.place for e in episodes if e.person == person and e.day <= 6 for f in e.facts
                if f.kind == "seen" and f.subject == "keys"]
        assert "office" in keys and len(set(keys) - {"office"}) >= 2, keys
        assert sum(a != b for a, b in zip(keys, keys[1:])) >= 6
    # mugs join the household: day 1 knows two, later days more
    for e in episodes:
        mugs = {f.subject for f in e.facts if f.kind == "seen" and f.subject.endswith("mug")}
        assert mugs <= {m.name for m in MUGS[: e.day + 1]}


# ---- question generators ------------------------------------------------------------------
def test_supermemory_item_shapes(sm_candidates):
    assert {task for task, _ in sm_candidates} == set(CATEGORIES)
    assert {task for task, ok in sm_candidates if not ok} == set(CATEGORIES)
    for (task, answerable), items in sm_candidates.items():
        assert items
        for item in items:
            roles = [o.role for o in item.options]
            texts = [o.text for o in item.options]
            assert (item.suite, item.task, item.answerable, item.memory_type) == ("supermemory", task, answerable, None)
            assert len(item.options) == 4 and len(set(texts)) == 4, item
            assert roles[-1] == "not_answerable" and texts[-1] == NOT_ANSWERABLE
            if answerable:
                assert sorted(roles) == sorted(["correct", "vague", "incorrect", "not_answerable"]), item
                assert roles[item.answer] == "correct" and item.evidence
            else:
                assert roles[:3] == ["incorrect"] * 3 and item.answer == 3 and not item.evidence, item
            assert item.videos == tuple(dict.fromkeys(e.video_id for e in item.evidence))


SPANS_DAYS = ("tracking", "counting", "spatial", "activity", "ordering")
EGO = {t.lower(): t for t in EGO_TASKS}  # lowercase name -> the generator's task label (the paper's)


def test_egomemreason_item_shapes(ego_candidates):
    assert set(ego_candidates) == set(EGO_TASKS) and all(ego_candidates.values())
    for task, items in ego_candidates.items():
        for item in items:
            texts = [o.text for o in item.options]
            assert len(texts) == N_OPTIONS == len(set(texts)), item
            assert [o.role for o in item.options].count("correct") == 1
            assert item.options[item.answer].role == "correct" and item.answerable
            assert item.memory_type == EGO_TASKS[task] and item.task == task


@pytest.mark.parametrize("task", SPANS_DAYS)
def test_egomemreason_evidence_spans_two_days(ego_candidates, life, task):
    days = {e.video_id: e.day for e in life.episodes}
    items = ego_candidates[EGO[task]]
    single = [item.question for item in items if len({days[ev.video_id] for ev in item.evidence}) < 2]
    assert not single, f"{len(single)}/{len(items)} {task} items with evidence from one day: {single[:3]}"


def test_candidate_evidence_precedes_the_question(sm_candidates, ego_candidates):
    items = [i for pool in sm_candidates.values() for i in pool] + [i for pool in ego_candidates.values() for i in pool]
    late = [i.question for i in items if not all(wall(e.wall_end) < wall(i.asked_at) for e in i.evidence)]
    assert not late


def test_object_location_gold_is_the_last_sighting(life, sm_candidates):
    items = sm_candidates[("object_location_memory", True)]
    assert items
    for item in items:
        m = re.match(r"I can't find my (\w+)\.|Where did I last see the (\w+)\?", item.question)
        thing = m.group(1) or m.group(2)
        asked = wall(item.asked_at)
        sightings = sorted(s for s in seen_before(life, item.person, asked) if s[2] == thing)
        assert sightings
        assert item.options[item.answer].text == f"In the {sightings[-1][3]}"
        # and no earlier sighting beats it, the wrong place differs
        assert all(o.text != f"In the {sightings[-1][3]}" for o in item.options if o.role == "incorrect")


def test_counting_gold_is_distinct_instances_or_visits(life, ego_candidates):
    mug_names = {m.name for m in MUGS}
    checked = Counter()
    for item in ego_candidates[EGO["counting"]]:
        asked = wall(item.asked_at)
        gold = item.options[item.answer].text
        if item.question == "How many different mugs have I seen so far?":
            mugs = {s[2] for s in seen_before(life, item.person, asked) if s[2] in mug_names}
            assert gold == str(len(mugs)), item
            checked["mug"] += 1
        else:
            place = re.match(r"How many times have I been to the (.+) so far\?", item.question).group(1)
            videos = {e.video_id for e in life.episodes if e.person == item.person
                      for f in e.facts if f.kind == "visit" and f.subject == place and e.wall(f.end) < asked}
            assert gold == str(len(videos)), item
            checked["visit"] += 1
        assert sorted(int(o.text) for o in item.options) == list(range(int(min(o.text for o in item.options)),
                                                                        int(min(o.text for o in item.options)) + 5))
    assert checked["mug"] and checked["visit"]


def test_habit_gold_is_the_strict_majority(life, ego_candidates):
    for item in ego_candidates[EGO["spatial"]]:
        m = re.match(r"Where do I usually have (\w+)\?", item.question)
        if not m:
            continue
        asked = wall(item.asked_at)
        places = Counter(f.place for e in life.episodes if e.person == item.person for f in e.facts
                         if f.kind == "meal" and f.subject == m.group(1) and e.wall(f.end) < asked)
        (top, n), *rest = places.most_common()
        assert item.options[item.answer].text == f"The {top}" and (not rest or rest[0][1] < n)


def ambiguous_anchors(life: LifeLog, items: list[Item]) -> list[tuple[str, str, list[str]]]:
    """A question that links two facts ("on the day I went to the gym") must pick out one day
    among everything before t_q, or its gold is only one of several true answers."""
    ambiguous = []
    for item in items:
        asked, person = wall(item.asked_at), item.person
        eps = [e for e in life.episodes if e.person == person and e.wall_end < asked]
        meals = {(e.day, f.subject): f.value for e in eps for f in e.facts if f.kind == "meal"}
        if item.question == "What did I eat for breakfast on the day I went to the gym?":
            days = {e.day for e in eps for f in e.facts if f.kind == "visit" and f.subject == "gym"}
            answers = {meals[(d, "breakfast")] for d in days if (d, "breakfast") in meals}
        elif m := re.match(r"What did I have for breakfast on the day I watched (.+)\?", item.question):
            days = {e.day for e in eps for f in e.facts if f.kind == "text" and f.value.startswith("MOVIE NIGHT")
                    and f.value.split(" / ")[1].title() == m.group(1)}
            answers = {meals[(d, "breakfast")] for d in days if (d, "breakfast") in meals}
        elif m := re.match(r"Where did I have lunch on the day (\w+) asked me for the (\w+)\?", item.question):
            days = {e.day for e in eps for f in e.facts if f.kind == "said" and f.get("act") == "request"
                    and f.subject == m.group(1) and f.get("doc") == m.group(2)}
            answers = {f.place for e in eps for f in e.facts if f.kind == "meal" and f.subject == "lunch" and e.day in days}
        else:
            continue
        assert answers, item
        if len(answers) > 1:
            ambiguous.append((item.question, item.asked_at, sorted(answers)))
    return ambiguous


def test_multi_hop_questions_have_one_answer(life, sm_candidates, ego_candidates):
    items = sm_candidates[("in_context_retrieval", True)] + ego_candidates[EGO["linking"]]
    assert not ambiguous_anchors(life, items)


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_multi_hop_questions_have_one_answer_in_other_worlds(seed):
    spec = suites.SIZES["full"]
    life = LifeLog(simulate(seed, spec.people, spec.days, min_episode_seconds=spec.min_episode_seconds))
    items = (SuperMemoryQuestions(life, seed).candidates().get(("in_context_retrieval", True), [])
             + EgoMemReasonQuestions(life, seed).candidates()[EGO["linking"]])
    assert not ambiguous_anchors(life, items)


# ---- suite selection (real embedder) --------------------------------------------------------
@pytest.fixture(scope="module")
def cached_embed(embedder, smoke_life):
    """The real embedder, memoised per text and filled in one batch with every text the smoke
    candidates hold (embeddings are deterministic; one large batch is several times faster than
    the blind filter's many small calls)."""
    import numpy as np

    texts = sorted({t for pools in (SuperMemoryQuestions(smoke_life, 0).candidates().values(),
                                    EgoMemReasonQuestions(smoke_life, 0).candidates().values())
                    for pool in pools for i in pool for t in (i.question, *(o.text for o in i.options))})
    cache: dict[str, np.ndarray] = dict(zip(texts, embedder.embed(texts)))

    def embed(texts):
        missing = [t for t in dict.fromkeys(texts) if t not in cache]
        if missing:
            cache.update(zip(missing, embedder.embed(missing)))
        return np.stack([cache[t] for t in texts])

    return embed


@pytest.fixture(scope="module")
def selected(smoke_life, cached_embed) -> dict[str, list[Item]]:
    return {"supermemory": suites._supermemory_items(smoke_life, 30, 0, cached_embed),
            "egomemreason": suites._egomemreason_items(smoke_life, 30, 0, cached_embed)}


@pytest.mark.parametrize("name, tasks", [("supermemory", CATEGORIES), ("egomemreason", tuple(EGO_TASKS))])
def test_selected_suite_shape(selected, name, tasks):
    items = selected[name]
    assert 25 <= len(items) <= 30
    assert {i.task for i in items} == set(tasks)
    assert len({i.id for i in items}) == len(items) and all(i.id.startswith(f"{name}-") for i in items)
    assert len({(i.question, i.asked_at) for i in items}) == len(items)
    for i in items:
        assert all(wall(e.wall_end) < wall(i.asked_at) for e in i.evidence), i
    if name == "supermemory":
        assert any(not i.answerable for i in items) and sum(i.answerable for i in items) > len(items) / 2


@pytest.mark.parametrize("name", ["supermemory", "egomemreason"])
def test_blind_is_at_most_chance_per_task(selected, cached_embed, name):
    blind = BlindBaseline(cached_embed)
    right, total = Counter(), Counter()
    for item in selected[name]:
        total[item.task] += 1
        right[item.task] += blind.answer(item, "").chosen == item.answer
    over = {t: f"{right[t]}/{total[t]}" for t in total
            if right[t] > total[t] / len(selected[name][0].options) + 1e-9}
    assert not over, f"blind-correct above chance: {over}"


def test_selection_is_deterministic(selected, smoke_life, cached_embed):
    assert suites._supermemory_items(smoke_life, 30, 0, cached_embed) == selected["supermemory"]
    assert suites._egomemreason_items(smoke_life, 30, 0, cached_embed) == selected["egomemreason"]


def test_select_drops_items_whose_evidence_is_not_before_the_question(smoke_life, cached_embed):
    pool = SuperMemoryQuestions(smoke_life, 0).candidates()[("object_location_memory", True)]
    late = [replace(i, asked_at=i.evidence[0].wall_start) for i in pool]
    import random

    chosen = suites._select(late + pool[:3], 5, random.Random(0), BlindBaseline(cached_embed))
    assert chosen and all(any(c is p for p in pool[:3]) for c in chosen)


# ---- rendering ----------------------------------------------------------------------------
def test_record_life_renders_times_speech_and_reuses_the_render(tmp_path):
    episodes = LifeSimulator(make_world(0, 0), 1, kinds=("breakfast", "work")).run()
    calls = []
    timed = record_life(episodes, tmp_path, progress=lambda *a: calls.append(a))
    assert calls[-1] == ("render", 2, 2)
    assert (tmp_path / LOG_NAME).exists() and not list(tmp_path.glob("*.json.tmp"))
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([LOG_NAME] + [f"{e.video_id}.mp4" for e in episodes])
    for plan, done in zip(episodes, timed):
        path = video_path(tmp_path, done)
        assert path.stat().st_size > 10_000
        assert done.video_id == plan.video_id and done.wall_start == plan.wall_start
        assert all(u.end is not None and u.start < u.end for u in done.script.utterances)
        for f_plan, f_done in zip(plan.facts, done.facts, strict=True):
            if f_done.kind == "said":
                u = done.script.utterances[f_done.line]
                assert (f_done.start, f_done.end) == (u.start, u.end)
                assert f_done.end <= f_plan.end  # the estimate is an upper bound
            else:
                assert f_done == f_plan
    assert load_life(tmp_path) == timed
    mtimes = {p: p.stat().st_mtime_ns for p in tmp_path.glob("*.mp4")}
    again = record_life(episodes, tmp_path, progress=lambda *a: pytest.fail("re-rendered"))
    assert again == timed and {p: p.stat().st_mtime_ns for p in tmp_path.glob("*.mp4")} == mtimes

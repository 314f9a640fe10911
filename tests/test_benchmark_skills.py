"""Benchmark skills are opt-in: a default system never consults one, even for a question
worded like a scene template about a namespace that holds a symbolic track; turned on by
configuration, a skill answers what it recognises and its answer meets the agent's judge
(too weak, and the general agent takes the question)."""
from __future__ import annotations

import dataclasses
from dataclasses import replace
from datetime import timedelta

import pytest

from agent.config import AgentConfig
from service.config import AppConfig, ConfigError, load_config
from service.system import MemlensSystem
from skills.registry import SKILLS, load_skills
from tests.conftest import T0, make_observation
from tests.test_tracks import _track

# The generator's own wording of a VideoCogQA straight-paths question (skills/videocogqa).
TEMPLATE_QUESTION = "How many objects initially move right?"
AT = T0 + timedelta(minutes=5)


def _system(tmp_path, **changes) -> MemlensSystem:
    system = MemlensSystem(dataclasses.replace(AppConfig(home=tmp_path / "home"), **changes).resolve_paths())
    system.memory.ingest(replace(make_observation(), tracks={"symbols": _track()}), "me")
    return system


def test_a_default_system_answers_a_template_question_with_the_general_agent(tmp_path):
    system = _system(tmp_path)
    try:
        assert system.skills == () and system.agent.context.skills == ()
        assert system.memory.tracks.get("me", "symbols")  # the track is there to be misused
        answer = system.ask(TEMPLATE_QUESTION, "me", AT)
        assert answer.question_type != "symbolic"
        assert not any(line.startswith("skill") for line in answer.trace)
        assert any(line.startswith("understand") for line in answer.trace)
    finally:
        system.close()


def test_a_skill_turned_on_answers_through_the_judge(tmp_path):
    system = _system(tmp_path, skills=("videocogqa",))
    try:
        answer = system.ask(TEMPLATE_QUESTION, "me", AT, ["0", "1", "2"])
        assert answer.question_type == "symbolic" and answer.chosen_option == 1  # the red circle moves right
        assert "skill symbolic" in answer.trace
        assert any(line.startswith("judge:") and "-> skill" in line for line in answer.trace)
        assert not any(line.startswith("understand") for line in answer.trace)
        # a question no skill recognises goes to the general agent
        general = system.ask("Where did I leave the scissors?", "me", AT)
        assert general.question_type != "symbolic" and "living room" in general.answer
    finally:
        system.close()


def test_a_skill_answer_below_the_abstain_threshold_is_left_to_the_general_agent(tmp_path):
    system = _system(tmp_path, skills=("videocogqa",), agent=AgentConfig(abstain_threshold=0.999))
    try:
        # asked in other words, the template is recognised by meaning (similarity < 1)
        answer = system.ask("How many of the shapes start out heading to the right?", "me", AT, ["0", "1", "2"])
        assert "skill symbolic" in answer.trace, answer.trace
        assert any("the skill's answer is too weak" in line for line in answer.trace)
        assert any(line.startswith("understand") for line in answer.trace)
        assert answer.question_type != "symbolic"
    finally:
        system.close()


def test_skills_are_named_in_configuration_and_unknown_names_are_refused(tmp_path):
    assert load_config(env={}).skills == ()
    assert load_config(env={"MEMLENS_SKILLS": '["m3eval", "videocogqa"]'}).skills == ("m3eval", "videocogqa")
    with pytest.raises(ConfigError, match="unknown skill 'chess'.*m3eval, videocogqa"):
        load_config(env={"MEMLENS_SKILLS": '["chess"]'})
    names = [skill.name for skill in load_skills(sorted(SKILLS))]
    assert names == sorted(SKILLS)
    stages = {stage.name: stage.track for skill in load_skills(sorted(SKILLS)) for stage in skill.stages()}
    assert stages == {"sources": "sources", "symbolic": "symbols"}

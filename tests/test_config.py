"""AppConfig composition from TOML and MEMLENS_* environment variables."""
from __future__ import annotations

import pytest

from service.config import ConfigError, load_config


def test_defaults_follow_home(tmp_path):
    config = load_config(env={"MEMLENS_HOME": str(tmp_path)})
    assert config.memory.root == tmp_path / "memory" and config.perception.cache_dir == tmp_path / "cache"
    assert config.agent.llm.backend == "none"


def test_toml_then_environment_with_env_winning(tmp_path):
    path = tmp_path / "memlens.toml"
    path.write_text(
        '[agent]\nabstain_threshold = 0.7\n[agent.llm]\nbackend = "openai"\nmodel = "qwen"\n'
        '[perception]\nclip_seconds = 10\n[service.api_keys]\nk1 = "alice"\n'
    )
    config = load_config(path, env={"MEMLENS_AGENT__ABSTAIN_THRESHOLD": "0.4", "MEMLENS_HOME": str(tmp_path)})
    assert config.agent.abstain_threshold == 0.4 and config.agent.llm.model == "qwen"
    assert config.perception.clip_seconds == 10.0 and config.service.api_keys == {"k1": "alice"}


@pytest.mark.parametrize("env, message", [
    ({"MEMLENS_AGENT__NO_SUCH": "1"}, "unknown setting"),
    ({"MEMLENS_AGENT__ABSTAIN_THRESHOLD": "high"}, "cannot read"),
    ({"MEMLENS_SERVICE__PORT": "eighty"}, "cannot read"),
    ({"MEMLENS_SERVICE__TIMEZONE": "Mars/Olympus"}, "unknown time zone"),
    ({"MEMLENS_SERVICE__TIMEZONES": '{"alice": "UTC+3"}'}, "service.timezones.alice"),
])
def test_bad_settings_are_clear_errors(env, message):
    with pytest.raises(ConfigError, match=message):
        load_config(env=env)


def test_unreadable_config_file(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("[agent\n")
    with pytest.raises(ConfigError, match="cannot read config"):
        load_config(bad, env={})


def test_each_namespace_can_keep_its_own_clock():
    config = load_config(env={"MEMLENS_SERVICE__TIMEZONE": "Europe/Paris",
                              "MEMLENS_SERVICE__TIMEZONES": '{"alice": "Pacific/Kiritimati"}'})
    assert config.service.zone_of("alice").key == "Pacific/Kiritimati"
    assert config.service.zone_of("bob").key == "Europe/Paris"
    assert load_config(env={}).service.zone_of("bob") is None  # this machine's zone


@pytest.mark.parametrize("host, keys, refused", [
    ("127.0.0.1", {}, False), ("::1", {}, False), ("localhost", {}, False),
    ("0.0.0.0", {}, True), ("192.168.1.20", {}, True), ("example.org", {}, True),
    ("0.0.0.0", {"k": "alice"}, False),
])
def test_serving_without_keys_is_for_loopback_only(host, keys, refused):
    from service.config import ServiceConfig

    config = ServiceConfig(api_keys=keys)
    if refused:
        with pytest.raises(ValueError, match="without API keys"):
            config.refuse_open_exposure(host)
    else:
        config.refuse_open_exposure(host)

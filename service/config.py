"""AppConfig: every layer's config dataclass, composed and loaded from a TOML file and
`MEMLENS_*` environment variables (env wins). Nested fields use `__`:
MEMLENS_AGENT__ABSTAIN_THRESHOLD=0.4, MEMLENS_AGENT__LLM__BACKEND=openai.
"""
from __future__ import annotations

import dataclasses
import hashlib
import hmac
import json
import os
import tomllib
import typing
from dataclasses import dataclass, field
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from agent.config import AgentConfig
from memory.config import MemoryConfig
from perception.config import PerceptionConfig
from retrieval.search import RetrievalConfig
from skills.registry import UnknownSkillError, check_names

HASHED = "sha256:"


def hash_key(key: str) -> str:
    """How a key is stored hashed. API keys are long random strings, so one SHA-256 suffices
    (a password hash's slowness protects guessable secrets, which these are not)."""
    return HASHED + hashlib.sha256(key.encode()).hexdigest()


@dataclass
class ServiceConfig:
    host: str = "127.0.0.1"
    port: int = 8765
    # API key -> memory namespace. A key may be stored as "sha256:<hex digest>" (see `memlens
    # key`), so the config file does not hold usable keys. Empty means no authentication, on
    # the default namespace, which `memlens serve` allows on a loopback address only.
    api_keys: dict[str, str] = field(default_factory=dict)
    default_namespace: str = "default"
    max_upload_mb: int = 4096
    ingest_workers: int = 1
    # Each API key's requests, in the `limits` notation ("600/minute", "10/second;600/minute");
    # beyond it a client gets 429 with Retry-After, so one client cannot starve the others.
    # "" = no limit.
    rate_limit: str = "600/minute"
    # Uploads a key may have waiting or running at once (429 beyond); 0 = no quota.
    max_queued_jobs: int = 16
    # At start the server reads the indexes of the namespaces it serves, most recently
    # written first, up to this much (a year of one wearer holds about 5,000 MB); the rest
    # are read by their first question. 0: none at start.
    warm_mb: int = 8192
    # Memory keeps the wearer's wall clock (naive times). A question time given with an
    # offset is converted to this IANA zone first ("" = this machine's zone, the one video
    # creation times are read in); `timezones` overrides it per namespace.
    timezone: str = ""
    timezones: dict[str, str] = field(default_factory=dict)

    def refuse_open_exposure(self, host: str) -> None:
        """Serving without API keys is for this machine only: on any other address it would
        hand every memory to whoever can reach the port."""
        import ipaddress

        if self.api_keys:
            return
        try:
            loopback = host == "localhost" or ipaddress.ip_address(host).is_loopback
        except ValueError:
            loopback = False
        if not loopback:
            raise ValueError(f"refusing to serve on {host} without API keys: set service.api_keys "
                             "(key -> namespace), or serve on 127.0.0.1")

    def namespace_for(self, key: str) -> str | None:
        """The namespace a presented key opens, or None. Every entry is compared, in
        constant time, so neither timing nor order tells which keys exist."""
        hashed = hash_key(key)
        found = None
        for stored, namespace in self.api_keys.items():
            if hmac.compare_digest(stored.encode(), (hashed if stored.startswith(HASHED) else key).encode()):
                found = namespace
        return found

    def zone_of(self, namespace: str) -> ZoneInfo | None:
        name = self.timezones.get(namespace, self.timezone)
        return ZoneInfo(name) if name else None


@dataclass
class AppConfig:
    home: Path = Path("~/.memlens").expanduser()
    perception: PerceptionConfig = field(default_factory=PerceptionConfig)
    memory: MemoryConfig = field(default_factory=MemoryConfig)
    retrieval: RetrievalConfig = field(default_factory=RetrievalConfig)
    agent: AgentConfig = field(default_factory=AgentConfig)
    service: ServiceConfig = field(default_factory=ServiceConfig)
    # Opt-in benchmark skills by name (skills/registry.py): their perception stages run on
    # ingest and their answerers are consulted before the general agent. None by default:
    # a wearer's questions are answered by the general agent alone.
    skills: tuple[str, ...] = ()

    def resolve_paths(self) -> AppConfig:
        """Paths left at their defaults follow `home`, so one setting moves everything."""
        self.home = Path(self.home).expanduser()
        self.memory.root = self.home / "memory" if self.memory.root == MemoryConfig().root else Path(self.memory.root)
        if self.perception.cache_dir is None:
            self.perception = dataclasses.replace(self.perception, cache_dir=self.home / "cache")
        return self


class ConfigError(ValueError):
    pass


def _coerce(value, annotation, where: str):
    origin = typing.get_origin(annotation)
    args = [a for a in typing.get_args(annotation) if a is not type(None)]
    if value is None or annotation is typing.Any:
        return value
    if origin in (typing.Union, getattr(__import__("types"), "UnionType", None)) and args:
        return _coerce(value, args[0], where)
    target = origin or annotation
    try:
        if target is bool and isinstance(value, str):
            if value.lower() not in ("1", "0", "true", "false", "yes", "no", "on", "off"):
                raise ValueError(value)
            return value.lower() in ("1", "true", "yes", "on")
        if target in (dict, list, tuple) and isinstance(value, str):
            value = json.loads(value)
        if target is tuple:
            return tuple(value)
        if target is Path:
            return Path(value).expanduser()
        if target in (int, float, str, bool, dict, list):
            return target(value)
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"{where}: cannot read {value!r} as {getattr(target, '__name__', target)}") from exc
    return value


def _apply(obj, values: dict, where: str):
    """A copy of dataclass `obj` with `values` applied (works for frozen dataclasses too)."""
    hints = typing.get_type_hints(type(obj))
    names = {f.name for f in dataclasses.fields(obj)}
    changes = {}
    for key, value in values.items():
        key = key.lower()
        if key not in names:
            raise ConfigError(f"{where}: unknown setting {key!r} (known: {', '.join(sorted(names))})")
        current = getattr(obj, key)
        if dataclasses.is_dataclass(current):
            if not isinstance(value, dict):
                raise ConfigError(f"{where}.{key} is a section, not a value")
            changes[key] = _apply(current, value, f"{where}.{key}")
        else:
            changes[key] = _coerce(value, hints[key], f"{where}.{key}")
    return dataclasses.replace(obj, **changes)


def _env_overrides(env: typing.Mapping[str, str]) -> dict:
    tree: dict = {}
    for name, value in env.items():
        if not name.startswith("MEMLENS_") or name in ("MEMLENS_CONFIG",):
            continue
        node = tree
        *parents, leaf = name[len("MEMLENS_"):].lower().split("__")
        for part in parents:
            node = node.setdefault(part, {})
        node[leaf] = value
    return tree


def load_config(path: Path | None = None, env: typing.Mapping[str, str] | None = None) -> AppConfig:
    env = os.environ if env is None else env
    config = AppConfig()
    path = path or (Path(env["MEMLENS_CONFIG"]) if env.get("MEMLENS_CONFIG") else None)
    if path is not None:
        try:
            config = _apply(config, tomllib.loads(Path(path).read_text()), str(path))
        except (OSError, tomllib.TOMLDecodeError) as exc:
            raise ConfigError(f"cannot read config {path}: {exc}") from exc
    config = _apply(config, _env_overrides(env), "environment")
    try:
        check_names(config.skills)
    except UnknownSkillError as exc:
        raise ConfigError(f"skills: {exc}") from exc
    for where, zone in [("service.timezone", config.service.timezone),
                        *((f"service.timezones.{ns}", z) for ns, z in config.service.timezones.items())]:
        try:
            zone and ZoneInfo(zone)
        except (ZoneInfoNotFoundError, ValueError) as exc:
            raise ConfigError(f"{where}: unknown time zone {zone!r} (an IANA name such as 'Europe/Paris')") from exc
    return config.resolve_paths()

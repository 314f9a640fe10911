"""Configuration owned by the agent layer."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class LLMConfig:
    backend: str = "none"  # none | openai | llamacpp
    base_url: str = "http://127.0.0.1:8000/v1"
    model: str = "local"
    api_key: str = ""
    model_path: str = ""  # llamacpp: a .gguf file
    timeout: float = 60.0
    temperature: float = 0.0


@dataclass
class AgentConfig:
    # Below this evidence sufficiency (0..1) the agent abstains instead of answering.
    abstain_threshold: float = 0.5
    # How many times the judge may send the agent back to retrieve with a broader plan.
    max_refinements: int = 2
    top_k: int = 8
    llm: LLMConfig = field(default_factory=LLMConfig)

"""Model spec strings (``ARIA_LLM``, ``ARIA_JUDGE_LLM``) parsed into a typed :class:`ModelSpec`.

>>> parse_spec("openai-compatible:qwen2.5-coder@http://localhost:8000/v1")
ModelSpec(provider='openai-compatible', model='qwen2.5-coder', base_url='http://localhost:8000/v1')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from aria.errors import ConfigError

Provider = Literal["anthropic", "openai", "ollama", "openai-compatible", "scripted"]
PROVIDERS: tuple[Provider, ...] = ("anthropic", "openai", "ollama", "openai-compatible", "scripted")
ACCEPTED_FORMS = (
    "anthropic:<model>, openai:<model>, ollama:<model>, "
    "openai-compatible:<model>@<base_url>, scripted:<file.json>"
)
TEST_MODEL_NOTE = "(test model — scripted responses, not a real LLM)"


@dataclass(frozen=True)
class ModelSpec:
    """One parsed model spec. ``model`` is the file path for ``scripted``."""

    provider: Provider
    model: str
    base_url: str | None = None

    def __str__(self) -> str:
        suffix = f"@{self.base_url}" if self.base_url else ""
        return f"{self.provider}:{self.model}{suffix}"

    @property
    def is_test_model(self) -> bool:
        return self.provider == "scripted"


def _bad_spec(spec: str, why: str) -> ConfigError:
    return ConfigError(f"Model spec {spec!r} is not valid: {why}.", hint=f"Use one of: {ACCEPTED_FORMS}.")


def parse_spec(spec: str) -> ModelSpec:
    """Parse a model spec; raise :class:`ConfigError` naming the accepted forms when it is malformed."""
    text = spec.strip()
    provider, sep, rest = text.partition(":")
    provider = provider.strip().lower()
    if not sep:
        raise _bad_spec(spec, "it has no provider prefix")
    if provider not in PROVIDERS:
        raise _bad_spec(spec, f"unknown provider {provider!r}")
    rest = rest.strip()
    if not rest:
        raise _bad_spec(spec, "the model name is empty")
    if provider != "openai-compatible":
        return ModelSpec(provider=provider, model=rest)  # type: ignore[arg-type]
    model, at, base_url = rest.partition("@")
    if not at or not model.strip() or not base_url.strip():
        raise _bad_spec(spec, "openai-compatible needs <model>@<base_url>")
    if not base_url.strip().startswith(("http://", "https://")):
        raise _bad_spec(spec, f"the base URL {base_url!r} must start with http:// or https://")
    return ModelSpec(provider="openai-compatible", model=model.strip(), base_url=base_url.strip())


def model_label(spec: str | None) -> str:
    """What the UI, CLI and traces show for a spec; scripted models are always labelled as test models.

    >>> model_label("scripted:tests/data/scripted/demo.json")
    'scripted:demo.json (test model — scripted responses, not a real LLM)'
    >>> model_label(None)
    'none'
    """
    if spec is None or not spec.strip():
        return "none"
    parsed = parse_spec(spec)
    if parsed.is_test_model:
        name = parsed.model.replace("\\", "/").rsplit("/", 1)[-1]
        return f"scripted:{name} {TEST_MODEL_NOTE}"
    return str(parsed)

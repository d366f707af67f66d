"""Chat models from spec strings, through LangChain's integrations.

The integrations' own retries are off (Aria retries, see :mod:`aria.llm.retry`); the per-call timeout
is ``ARIA_LLM_TIMEOUT_S``. Missing API keys fail here, when the model is built, not at the first call.
"""

from __future__ import annotations

import re

from langchain_core.language_models import BaseChatModel
from pydantic import SecretStr

from aria.config import Settings
from aria.errors import ConfigError
from aria.llm.scripted import ScriptedChatModel
from aria.llm.spec import ModelSpec, parse_spec

NO_KEY_NEEDED = "not-needed"


def _require_key(key: SecretStr | None, env_var: str, spec: ModelSpec) -> SecretStr:
    if key is None or not key.get_secret_value().strip():
        raise ConfigError(
            f"The model {spec} needs an API key, and {env_var} is not set.",
            hint=f"Set {env_var} (or ARIA_{env_var}), or choose another model in ARIA_LLM.",
        )
    return key


def _anthropic(spec: ModelSpec, settings: Settings) -> BaseChatModel:
    from langchain_anthropic import ChatAnthropic

    key = _require_key(settings.anthropic_api_key, "ANTHROPIC_API_KEY", spec)
    return ChatAnthropic(  # type: ignore[call-arg]
        model=spec.model, api_key=key, timeout=settings.llm_timeout_s, max_retries=0, temperature=0
    )


def _openai(spec: ModelSpec, settings: Settings) -> BaseChatModel:
    from langchain_openai import ChatOpenAI

    key = _require_key(settings.openai_api_key, "OPENAI_API_KEY", spec)
    # o-series reasoning models reject any temperature but the default; langchain handles gpt-5 itself.
    temperature = None if re.match(r"o\d", spec.model) else 0.0
    return ChatOpenAI(
        model=spec.model, api_key=key, timeout=settings.llm_timeout_s, max_retries=0, temperature=temperature
    )


def _openai_compatible(spec: ModelSpec, settings: Settings) -> BaseChatModel:
    from langchain_openai import ChatOpenAI

    key = settings.openai_api_key or SecretStr(NO_KEY_NEEDED)
    return ChatOpenAI(
        model=spec.model,
        base_url=spec.base_url,
        api_key=key,
        timeout=settings.llm_timeout_s,
        max_retries=0,
        temperature=0,
    )


def _ollama(spec: ModelSpec, settings: Settings) -> BaseChatModel:
    from langchain_ollama import ChatOllama

    # ollama's client has no retries of its own; the base URL comes from OLLAMA_HOST (read by ollama).
    return ChatOllama(model=spec.model, temperature=0, client_kwargs={"timeout": settings.llm_timeout_s})


def build_chat_model(spec: str, settings: Settings) -> BaseChatModel:
    """The chat model a spec names; :class:`ConfigError` for a bad spec or a missing API key.

    Specs: ``anthropic:<model>``, ``openai:<model>``, ``ollama:<model>``,
    ``openai-compatible:<model>@<base_url>``, ``scripted:<file.json>`` (test model).
    """
    parsed = parse_spec(spec)
    if parsed.provider == "anthropic":
        return _anthropic(parsed, settings)
    if parsed.provider == "openai":
        return _openai(parsed, settings)
    if parsed.provider == "openai-compatible":
        return _openai_compatible(parsed, settings)
    if parsed.provider == "ollama":
        return _ollama(parsed, settings)
    return ScriptedChatModel.from_file(parsed.model)


def supports_structured_output(spec: str) -> bool:
    """Whether the provider's native structured output is used (else tolerant JSON extraction)."""
    return parse_spec(spec).provider in ("anthropic", "openai", "ollama")

"""Chat models from spec strings, through LangChain's ``init_chat_model``.

Aria's spec names the provider; :func:`chat_model_args` turns it into LangChain's provider name and the
constructor arguments, and ``init_chat_model`` picks the integration class. ``openai-compatible`` is
LangChain's ``openai`` provider with a ``base_url``; ``scripted`` (a test model) is Aria's own. The
integrations' own retries are off (Aria retries, see :mod:`aria.llm.retry`); the per-call timeout is
``ARIA_LLM_TIMEOUT_S``. Missing API keys fail here, when the model is built, not at the first call.

>>> from aria.config import Settings
>>> chat_model_args(parse_spec("openai-compatible:qwen2.5@http://localhost:8000/v1"), Settings(llm_timeout_s=30))[1]
{'timeout': 30.0, 'max_retries': 0, 'temperature': 0.0, 'api_key': SecretStr('**********'), 'base_url': 'http://localhost:8000/v1'}
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from pydantic import SecretStr

from aria.config import Settings
from aria.errors import ConfigError
from aria.llm.scripted import ScriptedChatModel
from aria.llm.spec import ModelSpec, parse_spec

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

NO_KEY_NEEDED = "not-needed"
# Aria's provider -> LangChain's (init_chat_model's model_provider); scripted is not LangChain's.
LANGCHAIN_PROVIDER = {"anthropic": "anthropic", "openai": "openai", "openai-compatible": "openai", "ollama": "ollama"}


def _require_key(key: SecretStr | None, env_var: str, spec: ModelSpec) -> SecretStr:
    if key is None or not key.get_secret_value().strip():
        raise ConfigError(
            f"The model {spec} needs an API key, and {env_var} is not set.",
            hint=f"Set {env_var} (or ARIA_{env_var}), or choose another model in ARIA_LLM.",
        )
    return key


def _temperature(spec: ModelSpec) -> float | None:
    """0, except for OpenAI's o-series reasoning models, which reject any but the default
    (LangChain handles gpt-5 itself)."""
    return None if spec.provider == "openai" and re.match(r"o\d", spec.model) else 0.0


def chat_model_args(spec: ModelSpec, settings: Settings) -> tuple[str, dict[str, Any]]:
    """LangChain's provider name for ``spec`` and the arguments ``init_chat_model`` passes to its class."""
    provider = LANGCHAIN_PROVIDER.get(spec.provider)
    if provider is None:
        raise ConfigError(f"The model {spec} is not built through LangChain.", hint="Use build_chat_model.")
    if spec.provider == "ollama":
        # ollama's client has no retries of its own; the base URL comes from OLLAMA_HOST (read by ollama).
        return provider, {"temperature": 0.0, "client_kwargs": {"timeout": settings.llm_timeout_s}}
    args: dict[str, Any] = {"timeout": settings.llm_timeout_s, "max_retries": 0, "temperature": _temperature(spec)}
    if spec.provider == "anthropic":
        args["api_key"] = _require_key(settings.anthropic_api_key, "ANTHROPIC_API_KEY", spec)
    elif spec.provider == "openai":
        args["api_key"] = _require_key(settings.openai_api_key, "OPENAI_API_KEY", spec)
    else:  # openai-compatible: a local server needs no key, a hosted one takes OPENAI_API_KEY
        args["api_key"] = settings.openai_api_key or SecretStr(NO_KEY_NEEDED)
        args["base_url"] = spec.base_url
    return provider, args


def build_chat_model(spec: str, settings: Settings) -> BaseChatModel:
    """The chat model a spec names; :class:`ConfigError` for a bad spec, a missing API key or a missing
    integration package.

    Specs: ``anthropic:<model>``, ``openai:<model>``, ``ollama:<model>``,
    ``openai-compatible:<model>@<base_url>``, ``scripted:<file.json>`` (test model).
    """
    parsed = parse_spec(spec)
    if parsed.is_test_model:
        return ScriptedChatModel.from_file(parsed.model)
    provider, args = chat_model_args(parsed, settings)
    from langchain.chat_models import init_chat_model

    try:
        return init_chat_model(parsed.model, model_provider=provider, **args)
    except ImportError as err:
        raise ConfigError(f"The model {parsed} cannot be built: {err}.",
                          hint="Install the provider's LangChain package, or choose another model in ARIA_LLM.") from err
    except ValueError as err:  # the integration rejected an argument (pydantic's ValidationError is one)
        raise ConfigError(f"The model {parsed} cannot be built: {err}".rstrip(".") + ".",
                          hint="Check the model spec in ARIA_LLM / ARIA_JUDGE_LLM.") from err


def supports_structured_output(spec: str) -> bool:
    """Whether the provider's native structured output is used (else tolerant JSON extraction)."""
    return parse_spec(spec).provider in ("anthropic", "openai", "ollama")

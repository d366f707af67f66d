"""Model specs, the model factory (construction only, offline) and the client's model routing."""

from __future__ import annotations

from pathlib import Path

import pytest
from langchain_anthropic import ChatAnthropic
from langchain_ollama import ChatOllama
from langchain_openai import ChatOpenAI

from aria.config import Settings
from aria.errors import ConfigError
from aria.llm import (
    ModelSpec,
    ScriptedChatModel,
    build_chat_model,
    build_model_client,
    model_label,
    parse_spec,
)

DEMO = Path(__file__).resolve().parent.parent / "data" / "scripted" / "demo.json"


def _settings(**overrides: object) -> Settings:
    values: dict[str, object] = {"anthropic_api_key": None, "openai_api_key": None, "llm_timeout_s": 12.5}
    values.update(overrides)
    return Settings(**values)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("anthropic:claude-sonnet-4-5", ModelSpec("anthropic", "claude-sonnet-4-5")),
        ("openai:gpt-4.1-mini", ModelSpec("openai", "gpt-4.1-mini")),
        ("ollama:qwen2.5-coder:7b", ModelSpec("ollama", "qwen2.5-coder:7b")),
        (
            "openai-compatible:qwen2.5@http://localhost:8000/v1",
            ModelSpec("openai-compatible", "qwen2.5", "http://localhost:8000/v1"),
        ),
        ("scripted:demo.json", ModelSpec("scripted", "demo.json")),
        ("  Anthropic:claude-haiku-4-5 ", ModelSpec("anthropic", "claude-haiku-4-5")),
    ],
)
def test_parse_spec_accepts_every_form(spec: str, expected: ModelSpec) -> None:
    assert parse_spec(spec) == expected


@pytest.mark.parametrize(
    ("spec", "why"),
    [
        ("claude-sonnet-4-5", "no provider prefix"),
        ("gemini:pro", "unknown provider 'gemini'"),
        ("openai:", "model name is empty"),
        ("openai-compatible:qwen", "needs <model>@<base_url>"),
        ("openai-compatible:qwen@localhost:8000", "must start with http"),
    ],
)
def test_parse_spec_rejects_bad_specs_naming_the_accepted_forms(spec: str, why: str) -> None:
    with pytest.raises(ConfigError) as err:
        parse_spec(spec)
    assert why in str(err.value)
    assert "openai-compatible:<model>@<base_url>" in str(err.value)
    assert "scripted:<file.json>" in str(err.value)


def test_model_label_marks_scripted_models_as_test_models() -> None:
    assert model_label("scripted:tests/data/scripted/demo.json") == (
        "scripted:demo.json (test model — scripted responses, not a real LLM)"
    )
    assert model_label("anthropic:claude-sonnet-4-5") == "anthropic:claude-sonnet-4-5"
    assert model_label("openai-compatible:m@http://h:1/v1") == "openai-compatible:m@http://h:1/v1"
    assert model_label(None) == "none"


def test_builds_anthropic_offline_with_timeout_and_no_sdk_retries() -> None:
    model = build_chat_model("anthropic:claude-sonnet-4-5", _settings(anthropic_api_key="sk-ant-dummy"))
    assert isinstance(model, ChatAnthropic)
    assert model.model == "claude-sonnet-4-5"
    assert model.max_retries == 0
    assert model.default_request_timeout == 12.5


def test_builds_openai_offline_with_timeout_and_no_sdk_retries() -> None:
    model = build_chat_model("openai:gpt-4.1-mini", _settings(openai_api_key="sk-dummy"))
    assert isinstance(model, ChatOpenAI)
    assert model.model_name == "gpt-4.1-mini"
    assert (model.max_retries, model.request_timeout) == (0, 12.5)


def test_builds_openai_compatible_without_a_key() -> None:
    model = build_chat_model("openai-compatible:qwen2.5@http://127.0.0.1:9/v1", _settings())
    assert isinstance(model, ChatOpenAI)
    assert model.openai_api_base == "http://127.0.0.1:9/v1"
    assert model.openai_api_key is not None and model.openai_api_key.get_secret_value() == "not-needed"
    assert model.max_retries == 0


def test_builds_ollama_with_the_timeout() -> None:
    model = build_chat_model("ollama:llama3.1", _settings())
    assert isinstance(model, ChatOllama)
    assert model.model == "llama3.1"
    assert model.client_kwargs == {"timeout": 12.5}


@pytest.fixture
def env_keys(monkeypatch: pytest.MonkeyPatch) -> Settings:
    """Settings as a user has them: fake API keys in the environment, nothing passed in code."""
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-fake")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-fake")
    monkeypatch.setenv("ARIA_LLM_TIMEOUT_S", "7.5")
    return Settings()


@pytest.mark.parametrize(
    ("spec", "provider", "cls", "model_name", "base_url"),
    [
        ("anthropic:claude-haiku-4-5", "anthropic", ChatAnthropic, "claude-haiku-4-5", "https://api.anthropic.com"),
        ("openai:gpt-4.1-mini", "openai", ChatOpenAI, "gpt-4.1-mini", None),
        ("openai-compatible:deepseek-chat@https://api.deepseek.com/v1", "openai", ChatOpenAI, "deepseek-chat",
         "https://api.deepseek.com/v1"),
        ("ollama:qwen2.5-coder:7b", "ollama", ChatOllama, "qwen2.5-coder:7b", None),
    ],
)
def test_each_provider_is_built_by_init_chat_model_with_its_settings(
    env_keys: Settings, monkeypatch: pytest.MonkeyPatch, spec: str, provider: str, cls: type, model_name: str,
    base_url: str | None,
) -> None:
    import langchain.chat_models as chat_models

    seen: list[tuple[str, str | None]] = []
    real = chat_models.init_chat_model

    def spy(model: str, *, model_provider: str | None = None, **kwargs: object) -> object:
        seen.append((model, model_provider))
        return real(model, model_provider=model_provider, **kwargs)

    monkeypatch.setattr(chat_models, "init_chat_model", spy)
    model = build_chat_model(spec, env_keys)
    timeout = 7.5
    assert type(model) is cls and seen == [(model_name, provider)]
    if isinstance(model, ChatAnthropic):
        assert (model.model, model.anthropic_api_url, model.default_request_timeout) == (model_name, base_url, timeout)
        assert model.anthropic_api_key.get_secret_value() == "sk-ant-fake"
        assert (model.max_retries, model.temperature) == (0, 0)
    elif isinstance(model, ChatOpenAI):
        assert (model.model_name, model.openai_api_base, model.request_timeout) == (model_name, base_url, timeout)
        assert model.openai_api_key is not None and model.openai_api_key.get_secret_value() == "sk-fake"
        assert (model.max_retries, model.temperature) == (0, 0)
    else:
        assert isinstance(model, ChatOllama)
        assert (model.model, model.base_url, model.client_kwargs) == (model_name, base_url, {"timeout": timeout})
        assert model.temperature == 0


def test_openai_reasoning_models_keep_their_default_temperature(env_keys: Settings) -> None:
    model = build_chat_model("openai:o4-mini", env_keys)
    assert isinstance(model, ChatOpenAI) and model.temperature is None


def test_a_missing_integration_package_is_a_config_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import langchain.chat_models as chat_models

    def missing(*_args: object, **_kwargs: object) -> object:
        raise ImportError("Initializing ChatOllama requires the langchain-ollama package.")

    monkeypatch.setattr(chat_models, "init_chat_model", missing)
    with pytest.raises(ConfigError, match="langchain-ollama") as err:
        build_chat_model("ollama:llama3.1", _settings())
    assert "ollama:llama3.1" in str(err.value)


@pytest.mark.parametrize(
    ("spec", "env_var"), [("anthropic:claude-sonnet-4-5", "ANTHROPIC_API_KEY"), ("openai:gpt-4.1", "OPENAI_API_KEY")]
)
def test_missing_api_key_fails_when_built_naming_the_variable(spec: str, env_var: str) -> None:
    with pytest.raises(ConfigError) as err:
        build_chat_model(spec, _settings())
    assert env_var in str(err.value)


def test_scripted_spec_builds_the_scripted_model_from_the_bundled_folder() -> None:
    model = build_chat_model("scripted:demo.json", _settings())
    assert isinstance(model, ScriptedChatModel)
    assert model.path == DEMO


def test_missing_scripted_file_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="does not exist"):
        build_chat_model("scripted:no-such-script.json", _settings())


def test_no_client_without_a_model() -> None:
    assert build_model_client(_settings(llm=None)) is None


def test_client_routes_judge_roles_to_the_judge_model() -> None:
    client = build_model_client(
        _settings(llm="scripted:demo.json", judge_llm="openai:gpt-4.1", openai_api_key="sk-dummy")
    )
    assert client is not None
    assert isinstance(client.model_for("sql_generator").chat, ScriptedChatModel)
    assert isinstance(client.model_for("sql_judge").chat, ChatOpenAI)
    assert client.model_for("sql_judge").structured_method == "function_calling"
    assert client.model_for("sql_generator").structured_method is None
    assert client.label == (
        "scripted:demo.json (test model — scripted responses, not a real LLM) / judge: openai:gpt-4.1"
    )
    assert client.is_test_model


def test_client_with_one_spec_shares_one_model() -> None:
    client = build_model_client(_settings(llm="scripted:demo.json"))
    assert client is not None
    assert client.model_for("sql_judge") is client.model_for("sql_generator")
    assert client.label.endswith("(test model — scripted responses, not a real LLM)")

"""Settings: defaults of the paper, environment and TOML sources, validation."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import SecretStr, ValidationError

from aria.config import (
    Settings,
    allowed_values,
    debug_requested,
    env_name,
    settings_error_lines,
    settings_table_markdown,
)
from aria.errors import ConfigError

REPO = Path(__file__).resolve().parents[2]


def test_paper_defaults() -> None:
    s = Settings()
    assert (s.theta_r, s.theta_s, s.theta_e) == (4, 5, 3)
    assert (s.alpha, s.beta) == (0.6, 0.2)
    assert (s.w_c, s.w_g, s.w_j, s.w_q) == (0.1, 0.3, 0.4, 0.2)


def test_environment_overrides(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARIA_LLM", "anthropic:claude-sonnet-4-5")
    monkeypatch.setenv("ARIA_THETA_R", "6")
    s = Settings()
    assert s.llm == "anthropic:claude-sonnet-4-5"
    assert s.judge_spec == "anthropic:claude-sonnet-4-5"  # the judge defaults to the generator
    assert s.theta_r == 6


def test_toml_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = tmp_path / "aria.toml"
    config.write_text('judge_llm = "openai:gpt-4o"\nrow_cap = 50\n')
    monkeypatch.setenv("ARIA_CONFIG", str(config))
    s = Settings()
    assert s.judge_llm == "openai:gpt-4o"
    assert s.row_cap == 50


def test_weights_must_sum_to_one() -> None:
    with pytest.raises(ValidationError, match="must sum to 1"):
        Settings(w_c=0.5)


def test_every_setting_has_help_and_is_in_readme() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    missing = [env_name(n) for n in Settings.model_fields if f"`{env_name(n)}`" not in readme]
    assert not missing, f"settings missing from the README's table: {missing} (run `aria config docs`)"
    assert all(f.description for f in Settings.model_fields.values())
    assert settings_table_markdown().count("\n") == len(Settings.model_fields) + 1


# --- bad values: a ValidationError (or ConfigError), one line per problem naming the variable and range ------


def _lines(**env: str) -> list[str]:
    with pytest.MonkeyPatch.context() as mp:
        for name, value in env.items():
            mp.setenv(name, value)
        with pytest.raises(ValidationError) as caught:
            Settings()
        return settings_error_lines(caught.value)  # while the environment still says where values came from


@pytest.mark.parametrize(
    ("variable", "value", "expected"),
    [
        ("ARIA_THETA_R", "abc", "must be a number from 0 to 10"),
        ("ARIA_THETA_R", "nan", "must be a number from 0 to 10"),
        ("ARIA_THETA_S", "10.5", "must be a number from 0 to 10"),
        ("ARIA_THETA_E", "6", "must be a number from 0 to 5"),
        ("ARIA_ALPHA", "-0.1", "must be a number from 0 to 1"),
        ("ARIA_BETA", "inf", "must be a number from 0 to 1"),
        ("ARIA_ROW_CAP", "-1", "must be a whole number from 1 to 1000000"),
        ("ARIA_ROW_CAP", "0", "must be a whole number from 1 to 1000000"),
        ("ARIA_ROW_CAP", "1.5", "must be a whole number from 1 to 1000000"),
        ("ARIA_CLIENT_DEADLINE_S", "inf", "must be a number above 0 and at most 3600"),
        ("ARIA_CLIENT_DEADLINE_S", "-1", "must be a number above 0 and at most 3600"),
        ("ARIA_LLM_TIMEOUT_S", "nan", "must be a number above 0 and at most 3600"),
        ("ARIA_EVAL_TIMEOUT_S", "0", "must be a number above 0 and at most 3600"),
        ("ARIA_STATEMENT_TIMEOUT_MS", "0", "must be a whole number from 1 to 3600000"),
        ("ARIA_MAX_PLAN_COST", "inf", "must be a number above 0 and at most 1e+12"),
        ("ARIA_MAX_PLAN_ROWS", "-5", "must be a number above 0 and at most 1e+12"),
        ("ARIA_POOL_MAX_SIZE", "0", "must be a whole number from 1 to 100"),
        ("ARIA_UI_LANGUAGE", "fr", "must be one of vi, en"),
        ("ARIA_BUSINESS_SCHEMA", "", "must be non-empty text of at most 63 characters"),
        ("ARIA_TIMEZONE", "Mars/Olympus", "is not a time zone"),
        ("ARIA_HOME", "", "is empty; unset it for the per-user data dir"),
        ("ARIA_HOME", "   ", "is empty"),
        ("ARIA_LLM", "ollama:qwen\udcff", "is not valid UTF-8"),
    ],
)
def test_bad_environment_value_is_one_line_naming_variable_and_range(variable: str, value: str, expected: str) -> None:
    lines = _lines(**{variable: value})
    assert len(lines) == 1, lines
    assert lines[0].startswith(f"{variable}="), lines
    assert expected in lines[0]
    key = variable.removeprefix("ARIA_").lower()
    assert f"(aria.toml key {key})" in lines[0]
    assert "\n" not in lines[0]


def test_the_example_line_from_the_issue() -> None:
    assert _lines(ARIA_ROW_CAP="-1") == [
        "ARIA_ROW_CAP=-1: must be a whole number from 1 to 1000000 (aria.toml key row_cap)"
    ]


def test_every_bad_value_is_reported_not_only_the_first() -> None:
    lines = _lines(ARIA_ROW_CAP="-1", ARIA_THETA_R="abc")
    assert sorted(line.split("=")[0] for line in lines) == ["ARIA_ROW_CAP", "ARIA_THETA_R"]


def test_a_url_with_a_password_is_never_echoed() -> None:
    (line,) = _lines(ARIA_DATABASE_URL="postgresql://u:s3cret@h/\udcff")
    assert line.startswith("ARIA_DATABASE_URL=...:") and "s3cret" not in line


def test_every_numeric_setting_is_finite_and_bounded() -> None:
    for name, field in Settings.model_fields.items():
        if field.annotation in (int, float):
            words = allowed_values(name)
            assert " to " in words or " at most " in words, (name, words)


def test_relative_home_is_resolved(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("ARIA_HOME", "data/aria")
    assert Settings().home == tmp_path / "data" / "aria"
    assert not (tmp_path / "data").exists()  # resolving creates nothing


def test_weights_not_summing_to_one_name_all_four(monkeypatch: pytest.MonkeyPatch) -> None:
    (line,) = _lines(ARIA_W_C="0.5")
    assert "ARIA_W_C + ARIA_W_G + ARIA_W_J + ARIA_W_Q" in line and "must sum to 1" in line
    assert "they sum to 1.4 (0.5 + 0.3 + 0.4 + 0.2)" in line
    monkeypatch.setenv("ARIA_W_C", "0")
    monkeypatch.setenv("ARIA_W_G", "0.4")
    assert Settings().w_g == 0.4  # another split that sums to 1 is fine


def _toml(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, content: bytes) -> None:
    config = tmp_path / "aria.toml"
    config.write_bytes(content)
    monkeypatch.setenv("ARIA_CONFIG", str(config))


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (b'row_cap = "lots"\n', "row_cap = lots in "),
        (b"[row_cap]\nx = 1\n", "row_cap = {'x': 1} in "),
        (b"theta_e = 7.5\n", "theta_e = 7.5 in "),
        (b'home = ""\n', 'home = "" in '),
    ],
)
def test_wrong_typed_toml_value_names_key_file_and_range(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, content: bytes, expected: str
) -> None:
    _toml(tmp_path, monkeypatch, content)
    for name in ("ARIA_ROW_CAP", "ARIA_THETA_E", "ARIA_HOME"):
        monkeypatch.delenv(name, raising=False)
    with pytest.raises(ValidationError) as caught:
        Settings()
    (line,) = settings_error_lines(caught.value)
    assert line.startswith(expected) and str(tmp_path / "aria.toml") in line
    assert "(or ARIA_" in line


def test_unknown_toml_key_is_an_error_naming_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _toml(tmp_path, monkeypatch, b"rowcap = 5\n")
    with pytest.raises(ValidationError) as caught:
        Settings()
    (line,) = settings_error_lines(caught.value)
    assert line.startswith("unknown setting rowcap in ") and line.endswith("did you mean row_cap?")


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (b"row_cap = \n", "is not valid TOML: Invalid value (at line 1, column 11)"),
        (b"\x7fELF\x02\x01\x01\x00\xd0\xff\xfe binary", "is not UTF-8 text (byte 0xd0 at offset 8)"),
        (b"[[[", "is not valid TOML"),
    ],
)
def test_broken_or_binary_toml_is_one_config_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, content: bytes, expected: str
) -> None:
    _toml(tmp_path, monkeypatch, content)
    with pytest.raises(ConfigError) as caught:
        Settings()
    message = str(caught.value)
    assert str(tmp_path / "aria.toml") in message and expected in message and "\n" not in message


def test_empty_aria_config_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARIA_CONFIG", "")
    with pytest.raises(ConfigError, match="ARIA_CONFIG is empty"):
        Settings()


def test_api_keys_and_unknown_keyword_arguments() -> None:
    assert Settings(openai_api_key=SecretStr("sk-test")).openai_api_key is not None  # by field name, as in aria.toml
    with pytest.raises(ValidationError, match="rowcap"):
        Settings(rowcap=5)  # type: ignore[call-arg]


def test_debug_switch(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ARIA_DEBUG", raising=False)
    assert not debug_requested()
    monkeypatch.setenv("ARIA_DEBUG", "1")
    assert debug_requested()

"""Settings: defaults of the paper, environment and TOML sources, validation."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from aria.config import Settings, env_name, settings_table_markdown

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
    with pytest.raises(ValidationError, match="must be 1"):
        Settings(w_c=0.5)


def test_every_setting_has_help_and_is_in_readme() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    missing = [env_name(n) for n in Settings.model_fields if f"`{env_name(n)}`" not in readme]
    assert not missing, f"settings missing from the README's table: {missing} (run `aria config docs`)"
    assert all(f.description for f in Settings.model_fields.values())
    assert settings_table_markdown().count("\n") == len(Settings.model_fields) + 1

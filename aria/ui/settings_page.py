"""The Settings page: models, thresholds, loop limits and the database, validated by
:class:`aria.config.Settings` and written back to the TOML file (``aria.config.config_file_path()``).

Environment variables still win over the file (as everywhere in Aria); the page says which.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import streamlit as st
from pydantic import ValidationError

from aria.config import Settings, config_file_path, env_name, set_by_environment
from aria.ui import users_section
from aria.ui.formatting import Language, t
from aria.ui.resources import current_settings

GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("set_group_model", ("llm", "judge_llm", "llm_timeout_s")),
    ("set_group_scores", ("theta_r", "theta_s", "theta_e", "alpha", "beta", "w_c", "w_g", "w_j", "w_q")),
    ("set_group_loops", ("max_retrieval_iterations", "max_synthesis_iterations", "max_syntax_repairs",
                         "max_entailment_iterations")),
    ("set_group_database", ("database_url", "reader_url", "kb_url", "row_cap", "statement_timeout_ms")),
    ("set_group_ui", ("ui_language", "reports_dir")),
)
EDITABLE = tuple(name for _, names in GROUPS for name in names)


def toml_value(value: Any) -> str:
    """One TOML scalar (strings JSON-quoted, which TOML basic strings accept)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    return json.dumps(str(value), ensure_ascii=False)


def write_settings_file(path: Path, changes: dict[str, Any]) -> dict[str, Any]:
    """Merge ``changes`` into the TOML file (None removes a key), validate the result, write it."""
    current = tomllib.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    merged = {k: v for k, v in {**current, **changes}.items() if v is not None and v != ""}
    Settings.model_validate(merged)  # raises ValidationError naming the bad field
    lines = ["# Aria settings (written by the Settings page; ARIA_* environment variables override them)"]
    lines += [f"{key} = {toml_value(value)}" for key, value in sorted(merged.items())]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return merged


def render() -> None:
    settings = current_settings()
    language = settings.ui_language
    st.title(t("nav_settings", language))
    path = config_file_path()
    st.caption(t("set_saved_to", language, path=path.resolve()))
    overridden = set_by_environment(list(EDITABLE))
    if overridden:
        st.warning(t("set_env_wins", language, names=", ".join(f"`{env_name(n)}`" for n in overridden)))
    values: dict[str, Any] = {}
    with st.form("settings_form"):
        for group, names in GROUPS:
            st.markdown(f"##### {t(group, language)}")
            left, right = st.columns(2)
            for n, name in enumerate(names):
                with left if n % 2 == 0 else right:
                    values[name] = _field_input(name, getattr(settings, name), language)
        submitted = st.form_submit_button(t("set_save", language), type="primary")
    if submitted:
        changes = {k: v for k, v in values.items() if v != getattr(settings, k)}
        try:
            write_settings_file(path, changes)
            st.success(t("set_saved", language, n=len(changes)) if changes else t("set_nothing", language))
        except ValidationError as err:
            first = err.errors()[0]
            field = ".".join(map(str, first["loc"])) or "settings"
            st.error(t("set_not_saved", language, field=field, message=first["msg"]))
    users_section.render(settings)  # admins, when sign-in is on


def _field_input(name: str, value: Any, language: Language) -> Any:
    help_text = Settings.model_fields[name].description
    shown = f"{t(f'set_{name}', language)} · `{name}`"
    if name == "ui_language":
        return st.selectbox(shown, ["vi", "en"], index=["vi", "en"].index(value), help=help_text, key=f"set_{name}")
    if isinstance(value, bool):
        return st.checkbox(shown, value=value, help=help_text, key=f"set_{name}")
    if isinstance(value, int):
        return int(st.number_input(shown, value=value, step=1, help=help_text, key=f"set_{name}"))
    if isinstance(value, float):
        return float(st.number_input(shown, value=value, help=help_text, key=f"set_{name}"))
    text = st.text_input(shown, value="" if value is None else str(value), help=help_text, key=f"set_{name}")
    if isinstance(value, Path):
        return Path(text)
    return text or None

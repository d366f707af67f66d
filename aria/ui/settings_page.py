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
from aria.ui.formatting import t
from aria.ui.resources import current_settings

EDITABLE = (
    "llm", "judge_llm", "llm_timeout_s", "theta_r", "theta_s", "theta_e", "alpha", "beta",
    "max_retrieval_iterations", "max_synthesis_iterations", "max_syntax_repairs", "max_entailment_iterations",
    "database_url", "reader_url", "kb_url", "row_cap", "statement_timeout_ms", "ui_language", "reports_dir",
)


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
    st.title(t("nav_settings", settings.ui_language))
    path = config_file_path()
    st.caption(f"Saved to `{path.resolve()}`. Restart `aria demo` for database changes to take effect.")
    overridden = set_by_environment(list(EDITABLE))
    if overridden:
        st.warning("Set by environment variables (they win over this file): "
                   + ", ".join(f"`{env_name(n)}`" for n in overridden))
    with st.form("settings_form"):
        values = {name: _field_input(name, getattr(settings, name)) for name in EDITABLE}
        submitted = st.form_submit_button("Save", type="primary")
    if submitted:
        changes = {k: v for k, v in values.items() if v != getattr(settings, k)}
        try:
            write_settings_file(path, changes)
            st.success(f"Saved {len(changes)} change(s)." if changes else "Nothing changed.")
        except ValidationError as err:
            first = err.errors()[0]
            st.error(f"Not saved: {'.'.join(map(str, first['loc'])) or 'settings'}: {first['msg']}")


def _field_input(name: str, value: Any) -> Any:
    field = Settings.model_fields[name]
    help_text = field.description
    if name == "ui_language":
        return st.selectbox(name, ["vi", "en"], index=["vi", "en"].index(value), help=help_text, key=f"set_{name}")
    if isinstance(value, bool):
        return st.checkbox(name, value=value, help=help_text, key=f"set_{name}")
    if isinstance(value, int):
        return int(st.number_input(name, value=value, step=1, help=help_text, key=f"set_{name}"))
    if isinstance(value, float):
        return float(st.number_input(name, value=value, help=help_text, key=f"set_{name}"))
    text = st.text_input(name, value="" if value is None else str(value), help=help_text, key=f"set_{name}")
    if isinstance(value, Path):
        return Path(text)
    return text or None

"""Shared, thread-safe resources of the app: the settings and the resolved database targets.

The app reads its settings from ``ARIA_*`` variables and the TOML file (as the CLI does); tests
point it elsewhere with :func:`use_settings` before running it in ``AppTest``.
``st.cache_resource`` holds only things that are never mutated.
"""

from __future__ import annotations

import logging

import streamlit as st
from pydantic import ValidationError

from aria.config import Settings, settings_error_lines
from aria.db.connect import Targets, resolve_targets
from aria.errors import ConfigError

log = logging.getLogger(__name__)

_override: Settings | None = None


def use_settings(settings: Settings | None) -> None:
    """Make the app use these settings (tests, embedding); None goes back to the environment."""
    global _override
    _override = settings


def current_settings() -> Settings:
    """The settings for this run: the override, or freshly read (so the Settings page takes effect).

    A bad setting or a broken aria.toml stops the page with one line per problem, not a traceback.
    """
    if _override is not None:
        return _override
    try:
        return Settings()
    except (ValidationError, ConfigError) as err:
        lines = settings_error_lines(err) if isinstance(err, ValidationError) else [str(err)]
        st.error("Cài đặt không hợp lệ / Aria's settings are invalid:\n\n" + "\n".join(f"- `{x}`" for x in lines))
        st.stop()
        raise  # st.stop() only returns outside a Streamlit run


def settings_key(settings: Settings) -> str:
    """A hashable identity of the settings, for cache keys."""
    return settings.model_dump_json()


@st.cache_resource(show_spinner=False)
def _targets(key: str, _settings: Settings) -> Targets:
    log.info("resolving database targets")
    return resolve_targets(_settings)


def current_targets(settings: Settings) -> Targets:
    """The database targets (starting the embedded server on first use); raises DatabaseUnavailable."""
    return _targets(settings_key(settings), settings)

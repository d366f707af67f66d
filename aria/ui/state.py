"""Per-session state: the chat turns and the keys every page uses, set up once per session."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import streamlit as st

from aria.reflect.answer import Answer
from aria.ui.results import ResultView

if TYPE_CHECKING:  # imported with the engine, after the first paint
    from aria.reflect.enrichment import EnrichmentPreview

TURNS = "aria_turns"
WORKBENCH = "aria_workbench"


@dataclass
class RerunResult:
    sql: str
    columns: list[str] = field(default_factory=list)
    rows: list[list[Any]] = field(default_factory=list)
    truncated: bool = False
    error: str | None = None
    view: ResultView | None = None  # built once when the run comes back


@dataclass
class ChatTurn:
    """One question and what came of it. Lives only in this browser session."""

    question: str
    answer: Answer | None = None
    message: str | None = None  # a refusal or error shown instead of an answer
    progress: list[str] = field(default_factory=list)
    proposal: EnrichmentPreview | None = None  # what Confirm would add to the KB (shown before it is applied)
    confirming: bool = False
    rejecting: bool = False
    feedback: str | None = None  # "confirmed" | "rejected"
    feedback_note: str = ""
    rerun: RerunResult | None = None
    view: ResultView | None = None  # the answer's table/chart/CSV, built once


def init_state() -> None:
    """Create the session's keys once; later runs keep what is there."""
    st.session_state.setdefault(TURNS, [])
    st.session_state.setdefault(WORKBENCH, None)


def turns() -> list[ChatTurn]:
    init_state()
    return st.session_state[TURNS]

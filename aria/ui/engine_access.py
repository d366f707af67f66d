"""The one place the UI reaches the Reflect-SQL engine.

``get_engine(settings)`` returns the engine (``aria.reflect.engine.Engine``), or, when the engine
cannot be built, a stand-in that answers ``no_model`` with the reason. Tests install a fake with
:func:`install_engine` before running the app in ``AppTest``.

The engine's contract, as the UI uses it (:class:`EngineLike`, the real types end to end):
- ``stream(Question) -> TraceEvent, ..., Answer``: each step as it finishes (the live progress), then
  the answer; the engine validates the question (a rejected one is an ``error`` answer saying why);
- ``propose(answer) -> EnrichmentPreview``: what Confirm would add to the KB (nothing is written);
- ``confirm(preview, *, confirmed_by) -> revision ids``: apply the previewed proposal (KB revisions);
- ``reject(answer, *, reason, rejected_by) -> feedback id``: record the rejection (nothing is learned);
- optionally ``deps`` (``aria.reflect.deps.EngineDeps``): what :func:`semantic_layer` and
  :func:`knowledge_base` read (the stand-in has none).
"""

from __future__ import annotations

import gc
import logging
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Protocol

import streamlit as st

from aria.config import Settings
from aria.errors import AriaError, ConfigError
from aria.reflect.answer import Answer, Question
from aria.reflect.trace import Trace, TraceEvent
from aria.ui.resources import current_targets, settings_key

if TYPE_CHECKING:  # imported when first used: the chat input is drawn before they are needed
    from aria.kb.base import KnowledgeBase
    from aria.reflect.enrichment import EnrichmentPreview
    from aria.semantic.layer import SemanticLayer

log = logging.getLogger(__name__)


class EngineLike(Protocol):
    """What the UI calls on :class:`aria.reflect.engine.Engine` (a LangChain Runnable; its ``stream``)."""

    def stream(self, input: Question) -> Iterator[TraceEvent | Answer]: ...

    def propose(self, answer: Answer) -> EnrichmentPreview: ...

    def confirm(self, preview: EnrichmentPreview, *, confirmed_by: str) -> list[int]: ...

    def reject(self, answer: Answer, *, reason: str = "", rejected_by: str = "") -> int: ...


EngineFactory = Callable[[Settings], EngineLike]
_factory: EngineFactory | None = None


def install_engine(factory: EngineFactory | None) -> None:
    """Use ``factory(settings)`` as the engine (tests); None goes back to the real engine."""
    global _factory
    _factory = factory


class UnavailableEngine:
    """Stands in when the engine cannot be built: every question gets a ``no_model`` answer."""

    def __init__(self, reason: str) -> None:
        self.reason = reason

    def stream(self, input: Question) -> Iterator[TraceEvent | Answer]:
        yield Answer(question=input.text, status="no_model", answer_text=self.reason, trace=Trace(model_label="none"))

    def propose(self, answer: Answer) -> EnrichmentPreview:
        raise ConfigError(self.reason)  # never offered: a no_model answer has no Confirm button

    def confirm(self, preview: EnrichmentPreview, *, confirmed_by: str) -> list[int]:
        raise ConfigError(self.reason)

    def reject(self, answer: Answer, *, reason: str = "", rejected_by: str = "") -> int:
        raise ConfigError(self.reason)


@st.cache_resource(show_spinner=False)
def _real_engine(key: str, _settings: Settings) -> EngineLike:
    from aria.reflect.factory import open_engine

    engine = open_engine(_settings, targets=current_targets(_settings))
    settle_heap()
    return engine


def settle_heap() -> None:
    """Move everything built so far (libraries, embedding model, engine) out of the garbage collector's reach.

    The server holds ~600,000 long-lived tracked objects. Without this, a full collection walked all of them
    about once per question and stopped every thread for 300-500 ms, so one answer in two reached the
    browser that much later (``aria bench ui``); after it, a full collection takes 5-10 ms.
    """
    gc.collect()
    gc.freeze()


def get_engine(settings: Settings) -> EngineLike:
    """The engine for these settings (shared by sessions: the engine keeps no per-session state).

    When it cannot be built (no database, no knowledge base, a bad model spec) every question gets
    a ``no_model`` answer naming the cause; the next question tries again.
    """
    if _factory is not None:
        return _factory(settings)
    try:
        return _real_engine(settings_key(settings), settings)
    except AriaError as err:
        log.warning("engine unavailable: %s", err)
        return UnavailableEngine(str(err))


def semantic_layer(engine: EngineLike) -> SemanticLayer | None:
    """The engine's semantic layer (its governed metrics), or None when it is off or there is no engine."""
    from aria.semantic.layer import SemanticLayer

    layer = getattr(getattr(engine, "deps", None), "semantic", None)
    return layer if isinstance(layer, SemanticLayer) else None


def knowledge_base(engine: EngineLike) -> KnowledgeBase | None:
    """The engine's knowledge base (for listings through its connection), or None without an engine."""
    from aria.kb.base import KnowledgeBase

    kb = getattr(getattr(engine, "deps", None), "kb", None)
    return kb if isinstance(kb, KnowledgeBase) else None


def proposal_lines(proposal: EnrichmentPreview | None) -> list[str]:
    """What a proposal would add to the KB, one line each."""
    if proposal is None:
        return []
    lines = [f"Verified example: “{proposal.question}” → `{' '.join(proposal.sql.split())[:160]}`"]
    for d in proposal.descriptions:
        where = f"{d.table}.{d.column}" if d.column else d.table
        lines.append(f"Description of `{where}`: {d.text}")
    for a in proposal.aliases:
        target = f"{a.table}.{a.column}" if a.column else a.table
        lines.append(f"Alias “{a.term}” → `{target}`" + (f" = {a.value!r}" if a.value else ""))
    return lines + [f"Dropped (names nothing real): {item}" for item in proposal.dropped]

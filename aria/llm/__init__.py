"""Aria's model layer: model specs, chat models, prompts, typed answers, retries and metering.

Public API (the engine codes against these)::

    build_model_client(settings) -> ModelClient | None
    ModelClient.call_structured(role, variables, response_model) -> response_model
    ModelClient.call_sql(role, variables) -> str
    ModelClient.meter.snapshot() -> MeterReading(calls, tokens, failures)
"""

from typing import Any

from aria.llm.client import BoundModel, ModelClient, build_model_client
from aria.llm.meter import CallMeter, MeterReading
from aria.llm.parsing import extract_json, extract_sql
from aria.llm.prompts import Prompt, RenderedPrompt, load_prompt, quote_data
from aria.llm.retry import RetryPolicy
from aria.llm.schemas import (
    JUDGE_ROLES,
    ROLES,
    ColumnDescription,
    EnrichmentProposal,
    EntailmentVerdict,
    RetrievalVerdict,
    RewrittenQuestion,
    Role,
    SqlVerdict,
    TermAlias,
)
from aria.llm.spec import ModelSpec, model_label, parse_spec

__all__ = [
    "JUDGE_ROLES",
    "ROLES",
    "BoundModel",
    "CallMeter",
    "ColumnDescription",
    "EnrichmentProposal",
    "EntailmentVerdict",
    "MeterReading",
    "ModelClient",
    "ModelSpec",
    "Prompt",
    "RenderedPrompt",
    "RetrievalVerdict",
    "RetryPolicy",
    "RewrittenQuestion",
    "Role",
    "ScriptedChatModel",
    "SqlVerdict",
    "TermAlias",
    "build_chat_model",
    "build_model_client",
    "extract_json",
    "extract_sql",
    "load_prompt",
    "model_label",
    "parse_spec",
    "quote_data",
]

_LANGCHAIN = {"build_chat_model": "aria.llm.factory", "ScriptedChatModel": "aria.llm.scripted"}


def __getattr__(name: str) -> Any:
    """LangChain's chat models on first use (importing them costs about 1 s a no-model question does not need)."""
    if name in _LANGCHAIN:
        import importlib

        return getattr(importlib.import_module(_LANGCHAIN[name]), name)
    raise AttributeError(f"module 'aria.llm' has no attribute {name!r}")

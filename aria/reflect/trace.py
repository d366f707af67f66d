"""The one typed record of how an answer was reached. The UI, the CLI and the evaluation read it.

Every stage appends a :class:`TraceEvent`; the whole :class:`Trace` serializes to JSON and is
stored with the question in the query log.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from aria.sql.findings import Finding

__all__ = ["Finding", "Loop", "Score", "Trace", "TraceEvent"]

Loop = Literal["retrieval", "synthesis", "execution", "entailment", "enrichment", "reuse", "semantic"]


class Score(BaseModel):
    """One score and the rubric reason the judge (or check) gave for it."""

    value: float
    reason: str = ""


class TraceEvent(BaseModel):
    loop: Loop
    step: str  # e.g. "retrieve", "judge_retrieval", "rewrite", "generate", "guard", "explain", "judge_sql",
    # "repair", "execute", "judge_entailment", "enrich", "reuse_match"
    iteration: int = 0
    # keys: score_r, relevance, completeness; s, column, granularity, join, logic; e, schema, data
    scores: dict[str, Score] = Field(default_factory=dict)
    rewritten_question: str | None = None
    sql: str | None = None
    error: str | None = None
    findings: list[Finding] = Field(default_factory=list)
    row_count: int | None = None
    duration_ms: float = 0.0
    llm_calls: int = 0
    tokens: int = 0
    detail: str = ""  # free text for the UI (e.g. retrieved tables, "reused verified query #12")


class Trace(BaseModel):
    events: list[TraceEvent] = Field(default_factory=list)
    model_label: str = ""  # e.g. "anthropic:claude-sonnet-4-5", "scripted:demo.json (test model)", "none"

    def add(self, event: TraceEvent) -> TraceEvent:
        self.events.append(event)
        return event

    @property
    def llm_calls(self) -> int:
        return sum(e.llm_calls for e in self.events)

    @property
    def tokens(self) -> int:
        return sum(e.tokens for e in self.events)

    @property
    def duration_ms(self) -> float:
        return sum(e.duration_ms for e in self.events)

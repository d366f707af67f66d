"""What the engine returns for one question: the contract the UI, the CLI and the evaluation read.

Produced by ``aria.reflect.engine`` (the Reflect-SQL flow) or by verified-query reuse.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from aria.reflect.trace import Trace

AnswerStatus = Literal[
    "answered",  # all three loops passed
    "reused",  # a verified query, re-bound with the new question's values
    "not_confident",  # a loop hit its iteration limit; the best attempt is in the trace
    "no_model",  # no model configured and no verified query matched
    "error",  # the database or the model failed; `error` says why
]


class AskOptions(BaseModel):
    """Per-question switches: the paper's ablations and the follow-up context."""

    retrieval_loop: bool = True  # --no-retrieval-loop turns off the judge/rewrite iterations
    sql_reflection: bool = True  # --no-sql-reflection turns off both tiers of Loop 2
    entailment: bool = True  # --no-entailment
    reuse: bool = True  # try verified queries first
    semantic: bool = True  # then the semantic layer (governed metrics, no model)
    previous_question: str | None = None  # follow-ups carry the previous turn as context
    previous_sql: str | None = None
    asked_by: str = ""  # the signed-in person, written to the query log (empty: the CLI or loopback)


class Question(BaseModel):
    """What the engine is asked (the input of ``Engine.invoke``/``stream``; a bare string is a question
    with the default options): the question, its switches, and any evidence (BIRD's external knowledge)."""

    text: str
    options: AskOptions = Field(default_factory=AskOptions)
    evidence: str = ""


class Answer(BaseModel):
    question: str
    status: AnswerStatus
    answer_text: str  # one sentence in the question's language
    language: Literal["vi", "en"] = "vi"
    sql: str | None = None
    columns: list[str] = Field(default_factory=list)
    rows: list[list[Any]] = Field(default_factory=list)
    truncated: bool = False
    error: str | None = None
    trace: Trace = Field(default_factory=Trace)
    reused_query_id: int | None = None  # the verified query reused, if any
    log_id: int | None = None  # row in the query log
    relevant_tables: list[str] = Field(default_factory=list)  # shown when nothing could be answered
    suggestions: list[str] = Field(default_factory=list)  # nearby questions Aria can answer now
    semantic_query: str | None = None  # the semantic query in words, when the semantic layer answered

    @property
    def llm_calls(self) -> int:
        return self.trace.llm_calls

    def to_json(self) -> dict[str, Any]:
        """The CLI's ``--json`` shape."""
        return {
            "question": self.question,
            "status": self.status,
            "sql": self.sql,
            "columns": self.columns,
            "rows": self.rows,
            "answer_text": self.answer_text,
            "llm_calls": self.llm_calls,
            "reused_query_id": self.reused_query_id,
            "semantic_query": self.semantic_query,
            "suggestions": self.suggestions,
            "error": self.error,
            "trace": self.trace.model_dump(mode="json"),
        }

"""The model roles and the typed answers each role must give (the public contract of the model layer).

Every role has one prompt file ``prompts/<role>.md``. Judge roles run on the judge model
(``ARIA_JUDGE_LLM``), the others on the generator model (``ARIA_LLM``).
"""

from __future__ import annotations

import datetime as dt
from typing import Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, model_validator

Role = Literal[
    "retrieval_judge",
    "query_rewriter",
    "sql_generator",
    "sql_repairer",
    "sql_judge",
    "entailment_judge",
    "kb_enricher",
    "semantic_query",
]

ROLES: tuple[Role, ...] = get_args(Role)
JUDGE_ROLES: frozenset[str] = frozenset({"retrieval_judge", "sql_judge", "entailment_judge"})
SQL_ROLES: frozenset[str] = frozenset({"sql_generator", "sql_repairer"})


class RetrievalVerdict(BaseModel):
    """retrieval_judge: is the retrieved schema enough to answer the question?"""

    relevance: int = Field(ge=1, le=10, description="How relevant the retrieved tables/columns are (1-10).")
    completeness: int = Field(ge=1, le=10, description="How complete they are for the question (1-10).")
    missing: str = Field(default="", description="What is missing, in words; empty when nothing is.")


class RewrittenQuestion(BaseModel):
    """query_rewriter: the question restated with the business terms of the schema."""

    question: str = Field(min_length=1)


class SqlVerdict(BaseModel):
    """sql_judge: the four consistency scores of the paper's S (each 1-10) and a diagnosis."""

    column: int = Field(ge=1, le=10)
    granularity: int = Field(ge=1, le=10)
    join: int = Field(ge=1, le=10)
    logic: int = Field(ge=1, le=10)
    diagnosis: str = ""


class EntailmentVerdict(BaseModel):
    """entailment_judge: does the result answer the question? (1-5 each)."""

    # The JSON field is "schema"; in Python it is schema_ ("schema" shadows a BaseModel attribute).
    # Dump with model_dump(by_alias=True) to get "schema" back.
    model_config = ConfigDict(populate_by_name=True)

    schema_: int = Field(alias="schema", ge=1, le=5)
    data: int = Field(ge=1, le=5)
    diagnosis: str = ""


class ColumnDescription(BaseModel):
    table: str
    column: str | None = None  # None: a description of the whole table
    text: str = Field(min_length=1)


class TermAlias(BaseModel):
    term: str = Field(min_length=1)  # the manager's word, e.g. "món chay"
    table: str
    column: str | None = None
    value: str | None = None  # the stored value the term means, e.g. "VEG"


class EnrichmentProposal(BaseModel):
    """kb_enricher: descriptions and aliases learnt from a verified question/SQL pair."""

    descriptions: list[ColumnDescription] = Field(default_factory=list)
    aliases: list[TermAlias] = Field(default_factory=list)


class ProposedFilter(BaseModel):
    model_config = ConfigDict(extra="forbid")

    dimension: str = Field(description="A split/filter name from the catalogue, e.g. order__shift__shift_code.")
    values: list[str] = Field(min_length=1, description="Stored values or codes, exactly as the catalogue shows.")
    exclude: bool = Field(default=False, description="True: every value except these.")


class ProposedTime(BaseModel):
    model_config = ConfigDict(extra="forbid")

    start: dt.date = Field(description="First local day, YYYY-MM-DD.")
    end: dt.date = Field(description="Last local day (included), YYYY-MM-DD.")


class ProposedOrder(BaseModel):
    model_config = ConfigDict(extra="forbid")

    by: str = Field(description="A metric or split name of this query.")
    descending: bool = True


class SemanticQueryProposal(BaseModel):
    """semantic_query: the question as a query over the metric catalogue, or an explicit "cannot express"
    with the reason (the question then goes to the SQL loops)."""

    model_config = ConfigDict(extra="forbid")

    expressible: bool = Field(description="False when the catalogue's metrics cannot answer the question.")
    reason: str = Field(default="", description="Why not expressible (or a short note).")
    metrics: list[str] = Field(default_factory=list)
    group_by: list[str] = Field(default_factory=list)
    filters: list[ProposedFilter] = Field(default_factory=list)
    time: ProposedTime | None = None
    order_by: list[ProposedOrder] = Field(default_factory=list)
    limit: int | None = None

    @model_validator(mode="after")
    def _has_a_metric(self) -> SemanticQueryProposal:
        if self.expressible and not self.metrics:
            raise ValueError("an expressible query needs at least one metric")
        return self

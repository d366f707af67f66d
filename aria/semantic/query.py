"""A semantic query: what a manager asked, in metrics and dimensions — the parser's output, the
model's structured output, and the compiler's input.

>>> q = SemanticQuery(metrics=["revenue"], group_by=["category__name_vi"], limit=1,
...                   order_by=[OrderBy(by="revenue", descending=False)])
>>> q.metrics, q.limit
(['revenue'], 1)
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

_SAFE_NAME = r"^[a-z][a-z0-9_]{0,120}$"


Comparison = Literal[">", ">=", "<", "<=", "="]
_NUMBER = re.compile(r"\d{1,15}(\.\d{1,6})?")


class ValueFilter(BaseModel):
    """Rows whose dimension equals one of the values (or none of them, when ``exclude``); with ``op``, rows whose
    dimension is above or below its one value, a number ("bookings for 6 or more": party size >= 6)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    dimension: str = Field(pattern=_SAFE_NAME)  # a group-by name, e.g. menu_item__name_vi
    values: tuple[str, ...] = Field(min_length=1, max_length=50)
    exclude: bool = False
    op: Comparison | None = None

    @model_validator(mode="after")
    def _one_number_to_compare(self) -> ValueFilter:
        if self.op is not None and (len(self.values) != 1 or self.exclude or not _NUMBER.fullmatch(self.values[0])):
            raise ValueError("a comparison filter compares its dimension with one number")
        return self

    @field_validator("values")
    @classmethod
    def _plain_values(cls, values: tuple[str, ...]) -> tuple[str, ...]:
        for value in values:
            if len(value) > 200 or "{" in value or "}" in value or "\x00" in value:
                raise ValueError(f"filter value {value[:40]!r} is not a plain value")
        return values


class TimeRange(BaseModel):
    """Whole local days from ``start`` to ``end`` (both included), and how the question said it. A
    rolling window ("the last 30 days", "the same days of last week") is bounded to the second by
    ``start_at`` (included) and ``end_before`` (excluded), local times on the business clock."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    start: dt.date
    end: dt.date
    phrase: str = ""  # e.g. "tháng này", "last week"
    start_at: dt.datetime | None = None
    end_before: dt.datetime | None = None
    unit: str | None = None  # day | week | month | quarter | year: what "the same period before" shifts by

    def whole_days(self) -> TimeRange:
        """The same range without its instants (a daily split shows whole days)."""
        return self.model_copy(update={"start_at": None, "end_before": None})


class Threshold(BaseModel):
    """Only the rows whose first metric is above or below a figure ("which dishes sold fewer than 100 portions")."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    op: Comparison
    value: float = Field(ge=0, le=1e15)


class OrderBy(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    by: str = Field(pattern=_SAFE_NAME)  # a metric or a group-by name
    descending: bool = True


class SemanticQuery(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    metrics: list[str] = Field(min_length=1, max_length=8)
    group_by: list[str] = Field(default_factory=list, max_length=4)
    filters: list[ValueFilter] = Field(default_factory=list, max_length=8)
    time: TimeRange | None = None
    compare: TimeRange | None = None  # a second period: each metric is shown for both, side by side
    order_by: list[OrderBy] = Field(default_factory=list, max_length=4)
    limit: int | None = Field(default=None, ge=1, le=1000)
    limit_per: str | None = Field(default=None, pattern=_SAFE_NAME)  # the limit within each value of this split
    language: str = "vi"  # labels and names are shown in this language
    change: bool = False  # a comparison also shows the first metric's change, in percent of the second period
    change_amount: bool = False  # ... and as an amount: the first period's value minus the second's
    share: bool = False  # each row's share of the total, in percent ("tỷ trọng", "what share of")
    with_empty: bool = False  # the split's rows with nothing to count are listed too, with 0 (the bottom of a ranking)
    below: str | None = Field(default=None, pattern=_SAFE_NAME)  # only rows whose first metric is below this group-by
    threshold: Threshold | None = None  # only rows whose first metric is above / below a figure
    # "of the customers who came in October, how many came back in November": the customers the metric counts in
    # ``time``, and how many of them were back (or not) in ``compare``
    returning: Literal["back", "not_back"] | None = None
    # the split's rows its metrics count, shown without the figures: "which tables are free" lists each free table
    # (its number, area and seats), never a column of ones
    rows_only: bool = False

    @field_validator("metrics", "group_by")
    @classmethod
    def _names(cls, names: list[str]) -> list[str]:
        import re

        for name in names:
            if not re.match(_SAFE_NAME, name):
                raise ValueError(f"{name!r} is not a metric or dimension name")
        return names

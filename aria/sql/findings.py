"""A deterministic finding about SQL or its result: the plain data type every check returns.

A leaf module (it imports nothing from Aria), so the checks in ``aria/sql`` and the trace in
``aria/reflect`` can both use it without the lower layer reaching up.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel


class Finding(BaseModel):
    """A deterministic finding about SQL or its result (no model involved)."""

    check: str  # e.g. "column_exists", "cartesian_product", "integer_division", "empty_result"
    dimension: Literal["column", "granularity", "join", "logic", "schema", "data", "safety", "cost"]
    severity: Literal["hard", "warning", "info"]
    message: str

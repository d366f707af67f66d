"""Execution accuracy (EX) as BIRD defines it, and the class of every failure.

A prediction is correct when ``set(pred_rows) == set(gold_rows)`` (row order and duplicates are
ignored, column order is not). Anything else is wrong and classed:

- ``missing_prediction``: no prediction, or one that is not a non-empty string;
- ``guard_rejection``: the safety guard (:func:`aria.sql.guard.check_sql`) refused it;
- ``syntax_error``: the database refused it (any :class:`QueryFailed` that is not a timeout);
- ``timeout``: it ran past the deadline;
- ``wrong_result``: it ran, and its rows differ from the gold rows.

The guard only decides; the prediction as written is what runs (already read-only), so a guard
that normalizes SQL cannot change a result.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from aria.errors import QueryFailed, QueryTimeout

log = logging.getLogger(__name__)

ErrorClass = Literal["missing_prediction", "guard_rejection", "syntax_error", "timeout", "wrong_result"]
ERROR_CLASSES: tuple[ErrorClass, ...] = (
    "missing_prediction",
    "guard_rejection",
    "syntax_error",
    "timeout",
    "wrong_result",
)


class Verdict(Protocol):
    @property
    def allowed(self) -> bool: ...

    @property
    def reason(self) -> str: ...


Guard = Callable[[str], Verdict]
RunSql = Callable[[str], list[tuple]]


@dataclass(frozen=True)
class Score:
    correct: bool
    error_class: ErrorClass | None = None
    error: str = ""


def _hashable(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return tuple(_hashable(v) for v in value)
    if isinstance(value, dict):
        return json.dumps(value, sort_keys=True, default=str)
    if isinstance(value, set):
        return frozenset(_hashable(v) for v in value)
    return value


def row_set(rows: Iterable[Iterable[Any]]) -> frozenset[tuple]:
    """The rows as a set, with unhashable values (PostgreSQL arrays, JSON) made hashable."""
    return frozenset(tuple(_hashable(v) for v in row) for row in rows)


def same_result(pred_rows: Iterable[Iterable[Any]], gold_rows: Iterable[Iterable[Any]]) -> bool:
    """BIRD's EX test.

    >>> same_result([(1, "a"), (1, "a"), (2, "b")], [(2, "b"), (1, "a")])
    True
    >>> same_result([("a", 1)], [(1, "a")])
    False
    """
    return row_set(pred_rows) == row_set(gold_rows)


def score_prediction(prediction: object, gold_rows: frozenset[tuple], *, run: RunSql, guard: Guard) -> Score:
    """Score one prediction against the gold rows; never raises for a bad prediction."""
    if not isinstance(prediction, str) or not prediction.strip():
        shown = "nothing" if prediction is None else f"a {type(prediction).__name__}"
        return Score(False, "missing_prediction", f"prediction is {shown}, not SQL text")
    verdict = guard(prediction)
    if not verdict.allowed:
        return Score(False, "guard_rejection", verdict.reason)
    try:
        rows = run(prediction)
    except QueryTimeout as err:
        return Score(False, "timeout", str(err))
    except QueryFailed as err:
        return Score(False, "syntax_error", str(err))
    if row_set(rows) == gold_rows:
        return Score(True)
    return Score(False, "wrong_result", f"{len(rows)} rows, {len(gold_rows)} distinct gold rows; sets differ")


def resolve_guard(dialect: str, *, schemas: frozenset[str] = frozenset({"restaurant"})) -> Guard:
    """The project's safety guard for ``dialect`` (``sqlite`` or ``postgres``, reading ``schemas``)."""
    from aria.sql.guard import check_sql

    def guard(sql: str) -> Verdict:
        return check_sql(sql, dialect=dialect, allowed_schemas=schemas)

    return guard

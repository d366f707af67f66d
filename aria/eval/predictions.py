"""Predictors that need no model: a predictions file, or the gold SQL itself (a harness check).

A predictions file is a JSON object mapping question id to SQL. BIRD's own format
(``"SQL\\t----- bird -----\\tdb_id"``) is accepted too: the suffix is dropped.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from aria.errors import ConfigError
from aria.eval.datasets import EvalItem
from aria.eval.runner import Prediction

_BIRD_SUFFIX = "\t----- bird -----\t"


def load_predictions(path: Path) -> dict[str, object]:
    """Read a predictions file; values are kept as they are (bad ones are scored as wrong)."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except OSError as err:
        raise ConfigError(f"Cannot read predictions file {path}: {err}", hint="Check the path.") from err
    except json.JSONDecodeError as err:
        raise ConfigError(
            f"Predictions file {path} is not JSON: {err}", hint="Write a JSON object id -> SQL."
        ) from err
    if not isinstance(raw, dict):
        raise ConfigError(
            f"Predictions file {path} holds a {type(raw).__name__}, not an object.",
            hint='Write a JSON object mapping question id to SQL, e.g. {"0": "SELECT ..."}.',
        )
    return {str(key): _strip_bird_suffix(value) for key, value in raw.items()}


def _strip_bird_suffix(value: object) -> object:
    if isinstance(value, str) and _BIRD_SUFFIX in value:
        return value.split(_BIRD_SUFFIX, 1)[0]
    return value


@dataclass(frozen=True)
class PredictionProblems:
    """What is wrong with a predictions file, by question id."""

    missing: tuple[str, ...]  # dataset ids with no prediction
    not_text: tuple[str, ...]  # predictions that are not a non-empty string
    unknown: tuple[str, ...]  # ids not in the dataset (ignored)

    def lines(self, shown: int = 10) -> list[str]:
        out = []
        for label, ids in (
            ("have no prediction (counted wrong)", self.missing),
            ("have a prediction that is not SQL text (counted wrong)", self.not_text),
            ("are not in the dataset (ignored)", self.unknown),
        ):
            if ids:
                more = f" and {len(ids) - shown} more" if len(ids) > shown else ""
                out.append(f"{len(ids)} ids {label}: {', '.join(ids[:shown])}{more}")
        return out


def is_sql_text(value: object) -> bool:
    """A prediction worth running: a non-empty string (whether it is valid SQL is the guard's call)."""
    return isinstance(value, str) and bool(value.strip())


def check_predictions(predictions: Mapping[str, object], items: Sequence[EvalItem]) -> PredictionProblems:
    ids = [item.id for item in items]
    known = set(ids)
    return PredictionProblems(
        missing=tuple(i for i in ids if i not in predictions),
        not_text=tuple(i for i in ids if i in predictions and not is_sql_text(predictions[i])),
        unknown=tuple(k for k in predictions if k not in known),
    )


@dataclass(frozen=True)
class FilePredictor:
    """Answers each question with its entry in a predictions file (``None`` when absent)."""

    predictions: Mapping[str, object]

    def __call__(self, item: EvalItem) -> Prediction:
        return Prediction(sql=self.predictions.get(item.id), trace_summary="predictions file")


@dataclass(frozen=True)
class GoldPredictor:
    """Answers each question with its own gold SQL: must score 100% on every executable question."""

    def __call__(self, item: EvalItem) -> Prediction:
        return Prediction(sql=item.gold_sql, trace_summary="gold as prediction")

"""The golden questions about the SmartRestaurant database: manager questions with their gold SQL.

Two files under ``seed_db/questions/``:

- ``examples.yaml``: worked examples the knowledge base learns from (verified question/SQL pairs);
- ``eval.yaml``: held-out questions the evaluation scores Aria on (never shown to the KB).

Every gold SQL is PostgreSQL over unqualified ``restaurant`` tables, reads the business clock
through ``business_now()`` and returns deterministic rows.

>>> questions = load_golden("examples")
>>> questions[0].id.startswith("ex-")
True
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from aria.errors import ConfigError
from aria.paths import seed_dir

Split = Literal["examples", "eval"]
Difficulty = Literal["simple", "moderate", "challenging"]
Lang = Literal["vi", "en"]

_ID_PREFIX: dict[str, str] = {"examples": "ex-", "eval": "ev-"}
_ID_PATTERN = re.compile(r"^(ex|ev)-\d{3}$")
_FORBIDDEN_SQL = re.compile(r"\b(now\(\)|current_date|current_timestamp|localtimestamp)", re.IGNORECASE)


class GoldenQuestion(BaseModel):
    """One manager question and the SQL that answers it on the seeded database."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    question: str = Field(min_length=3)
    sql: str = Field(min_length=10)
    difficulty: Difficulty
    lang: Lang
    tags: tuple[str, ...] = Field(min_length=1)

    @field_validator("id")
    @classmethod
    def _id_shape(cls, value: str) -> str:
        if not _ID_PATTERN.match(value):
            raise ValueError(f"id {value!r} must look like ex-001 or ev-001")
        return value

    @field_validator("question")
    @classmethod
    def _question_stripped(cls, value: str) -> str:
        return " ".join(value.split())

    @field_validator("sql")
    @classmethod
    def _sql_is_a_stable_select(cls, value: str) -> str:
        text = value.strip().rstrip(";").strip()
        if not re.match(r"^(select|with)\b", text, re.IGNORECASE):
            raise ValueError("gold SQL must be one SELECT (or WITH ... SELECT) statement")
        if ";" in text:
            raise ValueError("gold SQL must be a single statement (no ';' inside)")
        if _FORBIDDEN_SQL.search(text):
            raise ValueError("gold SQL must read the clock through business_now(), not now()/CURRENT_DATE")
        return text

    @field_validator("tags")
    @classmethod
    def _tags_are_slugs(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        for tag in value:
            if not re.match(r"^[a-z][a-z0-9_]*$", tag):
                raise ValueError(f"tag {tag!r} must be a lower-case slug (a-z, 0-9, _)")
        return value


def golden_path(split: Split) -> Path:
    """The YAML file holding one split of the golden questions."""
    if split not in _ID_PREFIX:
        raise ConfigError(f"Unknown golden split {split!r}.", hint="Use 'examples' or 'eval'.")
    return seed_dir() / "questions" / f"{split}.yaml"


def load_golden(split: Split) -> list[GoldenQuestion]:
    """Load and validate one split; every problem is reported with the file and the question id."""
    path = golden_path(split)
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as err:
        raise ConfigError(
            f"Cannot read golden questions {path}: {err}", hint="Fix or restore the file."
        ) from err
    entries = raw.get("questions") if isinstance(raw, dict) else None
    if not isinstance(entries, list) or not entries:
        raise ConfigError(f"{path} has no 'questions:' list.", hint="Restore the file from the repository.")
    questions = [_parse_entry(entry, path) for entry in entries]
    _check_ids(questions, split, path)
    return questions


def _parse_entry(entry: Any, path: Path) -> GoldenQuestion:
    ident = entry.get("id", "?") if isinstance(entry, dict) else "?"
    try:
        return GoldenQuestion.model_validate(entry)
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "entry"
        raise ConfigError(
            f"Golden question {ident} in {path.name} is invalid at {where}: {first['msg']}",
            hint="Fix that entry in the YAML file.",
        ) from err


def _check_ids(questions: list[GoldenQuestion], split: Split, path: Path) -> None:
    prefix = _ID_PREFIX[split]
    seen: set[str] = set()
    for question in questions:
        if not question.id.startswith(prefix):
            raise ConfigError(
                f"Golden question {question.id} in {path.name} must have an id starting with {prefix}.",
                hint="Renumber it.",
            )
        if question.id in seen:
            raise ConfigError(
                f"Golden question id {question.id} appears twice in {path.name}.", hint="Renumber it."
            )
        seen.add(question.id)

"""The golden questions: the files are well formed, and every gold SQL answers plausibly on the
seeded SmartRestaurant database, run as the read-only role inside a READ ONLY transaction."""

from __future__ import annotations

import re
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import psycopg
import pytest
from pydantic import ValidationError

from aria.db.connect import Targets
from aria.db.golden import GoldenQuestion, load_golden

EXAMPLES = load_golden("examples")
EVAL = load_golden("eval")
ALL = EXAMPLES + EVAL

RESTAURANT_QUESTIONS = {
    "Món nào có tỷ lệ khách gọi lại cao nhất tháng này?": "eval",
    "Bàn số 5 đã đợi món khai vị bao lâu?": "eval",
    "Doanh thu ca tối hôm qua theo từng danh mục?": "eval",
    "Bàn nào đang đợi món lâu nhất ca trưa?": "eval",
    "Món bán chạy nhất?": "examples",
}

# Columns that hold money, durations, counts or shares: never negative in a plausible answer.
_NON_NEGATIVE = re.compile(
    r"(_vnd|_min|_pct|_days|_left|^hours_worked|portions|orders|guests|tickets|customers)$"
)
_SIGNED = re.compile(r"growth")  # week-over-week growth may well be negative


def _words(text: str) -> set[str]:
    return set(re.findall(r"\w+", text.lower()))


# --- the files ------------------------------------------------------------------------------------


def test_ids_are_unique_across_both_files() -> None:
    ids = [q.id for q in ALL]
    assert len(ids) == len(set(ids))
    assert all(q.id.startswith("ex-") for q in EXAMPLES)
    assert all(q.id.startswith("ev-") for q in EVAL)


def test_counts_languages_and_difficulties() -> None:
    assert len(ALL) >= 150
    vi_share = sum(q.lang == "vi" for q in ALL) / len(ALL)
    assert vi_share >= 0.40
    for split in (EXAMPLES, EVAL):
        assert {q.difficulty for q in split} == {"simple", "moderate", "challenging"}
        assert {q.lang for q in split} == {"vi", "en"}
    assert 0.25 <= len(EXAMPLES) / len(ALL) <= 0.42


def test_vietnamese_questions_carry_diacritics() -> None:
    plain = [q.id for q in ALL if q.lang == "vi" and not re.search(r"[^\x00-\x7f]", q.question)]
    assert plain == []


def test_the_restaurant_questions_are_present_in_their_split() -> None:
    where = {q.question: ("examples" if q.id.startswith("ex-") else "eval") for q in ALL}
    for question, split in RESTAURANT_QUESTIONS.items():
        assert where.get(question) == split, question


def test_eval_questions_are_not_copies_of_examples() -> None:
    """Eval is held out: no eval question may (nearly) repeat an example's wording."""
    for held_out in EVAL:
        for example in EXAMPLES:
            a, b = _words(held_out.question), _words(example.question)
            overlap = len(a & b) / len(a | b)
            assert overlap < 0.8, (held_out.id, example.id)


def test_gold_sql_uses_the_search_path_and_the_business_clock() -> None:
    for q in ALL:
        assert "restaurant." not in q.sql, q.id
        assert not re.search(r"\bnow\(\)|current_date", q.sql, re.IGNORECASE), q.id


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("sql", "SELECT count(*) FROM orders WHERE opened_at > now() - interval '1 day'"),
        ("sql", "DELETE FROM orders"),
        ("sql", "SELECT 1; SELECT 2"),
        ("difficulty", "hard"),
        ("lang", "fr"),
        ("id", "q-1"),
        ("tags", []),
    ],
)
def test_malformed_entries_are_rejected(field: str, value: object) -> None:
    entry: dict[str, Any] = {
        "id": "ex-999",
        "question": "Doanh thu hôm qua?",
        "sql": "SELECT sum(total_vnd) FROM orders",
        "difficulty": "simple",
        "lang": "vi",
        "tags": ["revenue"],
    }
    GoldenQuestion.model_validate(entry)
    entry[field] = value
    with pytest.raises(ValidationError):
        GoldenQuestion.model_validate(entry)


# --- the answers ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def reader(seeded: Targets) -> Iterator[psycopg.Connection]:
    with psycopg.connect(seeded.reader, autocommit=True) as conn:
        conn.read_only = True
        yield conn


def _check_plausible(question: GoldenQuestion, columns: list[str], rows: list[tuple[Any, ...]]) -> None:
    assert rows, f"{question.id}: empty result"
    values = [v for row in rows for v in row]
    assert any(v is not None for v in values), f"{question.id}: every value is NULL"
    assert any(v not in (None, 0, Decimal(0)) for v in values), f"{question.id}: every value is NULL or 0"
    for index, column in enumerate(columns):
        if not _NON_NEGATIVE.search(column) or _SIGNED.search(column):
            continue
        for row in rows:
            value = row[index]
            if isinstance(value, int | float | Decimal):
                assert value >= 0, f"{question.id}: {column} = {value} is negative"
                if column.endswith("_pct"):
                    assert value <= 100, f"{question.id}: {column} = {value} is over 100%"


@pytest.mark.parametrize("question", ALL, ids=[q.id for q in ALL])
def test_gold_sql_answers_plausibly(reader: psycopg.Connection, question: GoldenQuestion) -> None:
    with reader.transaction(force_rollback=True):
        cursor = reader.execute(question.sql)  # type: ignore[call-overload]
        assert cursor.description is not None
        columns = [d.name for d in cursor.description]
        rows = cursor.fetchall()
    assert len(columns) == len(set(columns)), f"{question.id}: duplicate column names {columns}"
    _check_plausible(question, columns, rows)

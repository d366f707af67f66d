"""Execution accuracy and failure classes, against a real SQLite file and the real guard."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from aria.db.sqlite import run_sqlite
from aria.eval.hardness import spider_hardness
from aria.eval.metric import Score, resolve_guard, row_set, same_result, score_prediction

HANG = "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 1000000000000) SELECT count(*) FROM c"
GOLD = "SELECT name FROM dish WHERE price > 40"


@pytest.fixture()
def db(tmp_path: Path) -> Path:
    path = tmp_path / "menu.sqlite"
    conn = sqlite3.connect(path)
    conn.executescript(
        "CREATE TABLE dish(id INTEGER, name TEXT, price REAL);"
        "INSERT INTO dish VALUES (1, 'pho', 45), (2, 'bun cha', 50), (3, 'tra da', 5), (4, 'pho', 60);"
    )
    conn.close()
    return path


def _score(db: Path, prediction: object, timeout_s: float = 5) -> Score:
    gold = row_set(run_sqlite(db, GOLD, timeout_s=5))
    return score_prediction(
        prediction,
        gold,
        run=lambda sql: run_sqlite(db, sql, timeout_s=timeout_s),
        guard=resolve_guard("sqlite"),
    )


def test_sets_ignore_order_and_duplicates_but_not_values() -> None:
    assert same_result([(1,), (2,), (2,)], [(2,), (1,)])
    assert not same_result([(1,)], [(1,), (2,)])
    assert not same_result([(1, 2)], [(2, 1)])
    assert same_result([([1, 2], {"a": 1})], [([1, 2], {"a": 1})])  # PostgreSQL arrays / JSON


def test_an_equivalent_query_is_correct(db: Path) -> None:
    score = _score(db, "SELECT DISTINCT name FROM dish WHERE price >= 41 ORDER BY name DESC")
    assert score == Score(True)


@pytest.mark.parametrize(
    ("prediction", "error_class"),
    [
        (None, "missing_prediction"),
        (42, "missing_prediction"),
        ("   ", "missing_prediction"),
        ("DELETE FROM dish", "guard_rejection"),
        ("SELECT name FROM dish; DROP TABLE dish", "guard_rejection"),
        ("SELECT colour FROM dish", "syntax_error"),
        ("SELECT name FROM dish", "wrong_result"),
        (HANG, "timeout"),
    ],
)
def test_failures_are_classed(db: Path, prediction: object, error_class: str) -> None:
    score = _score(db, prediction, timeout_s=0.3)
    assert not score.correct
    assert score.error_class == error_class
    assert score.error
    assert run_sqlite(db, "SELECT count(*) FROM dish", timeout_s=5) == [(4,)]


def _parsed(**overrides: object) -> dict:
    sql: dict = {
        "select": [False, [[0, [0, [0, 1, False], None]]]],
        "from": {"table_units": [["table_unit", 0]], "conds": []},
        "where": [],
        "groupBy": [],
        "having": [],
        "orderBy": [],
        "limit": None,
        "intersect": None,
        "union": None,
        "except": None,
    }
    sql.update(overrides)
    return sql


def test_spider_hardness_levels() -> None:
    assert spider_hardness(_parsed()) == "easy"
    two_columns = [False, [[0, [0, [0, 1, False], None]], [3, [0, [0, 2, False], None]]]]
    assert spider_hardness(_parsed(select=two_columns)) == "medium"
    assert spider_hardness(_parsed(union=_parsed())) == "hard"
    joined = {"table_units": [["table_unit", 0], ["table_unit", 1], ["table_unit", 2]], "conds": []}
    assert spider_hardness(_parsed(select=two_columns, union=_parsed(), **{"from": joined})) == "extra"

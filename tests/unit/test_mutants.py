"""Mutants of gold SQL, and the fidelity tally on a real SQLite database."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from aria.db.introspect import introspect_sqlite
from aria.db.sqlite import run_sqlite
from aria.eval.mutants import GoldItem, fidelity_markdown, measure_fidelity, mutate
from aria.sql.checks import check_sql

GOLD = (
    "SELECT t.name, count(*) AS n, 1.0 * sum(o.qty) / count(*) AS avg_qty FROM orders AS o "
    "JOIN tabs AS t ON o.tab_id = t.id WHERE o.qty > 1 GROUP BY t.id ORDER BY n DESC"
)


def _db(tmp_path: Path) -> Path:
    path = tmp_path / "shop.sqlite"
    conn = sqlite3.connect(path)
    conn.executescript(
        "CREATE TABLE tabs (id INTEGER PRIMARY KEY, name TEXT, seats INTEGER);"
        "CREATE TABLE orders (id INTEGER PRIMARY KEY, tab_id INTEGER REFERENCES tabs(id), qty INTEGER);"
        "INSERT INTO tabs VALUES (1, 'A', 2), (2, 'B', 4), (3, 'C', 6);"
        "INSERT INTO orders VALUES (1, 1, 2), (2, 1, 3), (3, 2, 5), (4, 3, 1), (5, 2, 2), (6, 1, 1);"
    )
    conn.commit()
    conn.close()
    return path


def test_every_kind_is_generated(tmp_path: Path) -> None:
    schema = introspect_sqlite(_db(tmp_path))
    kinds = {m.kind for m in mutate(GOLD, "sqlite", schema)}
    assert {"join_condition", "wrong_key", "group_by", "integer_division", "where_filter", "order_direction"} <= kinds


def test_structural_mutants_are_flagged_and_gold_is_not(tmp_path: Path) -> None:
    schema = introspect_sqlite(_db(tmp_path))
    assert not [f for f in check_sql(GOLD, schema, dialect="sqlite") if f.severity == "hard"]
    for mutant in mutate(GOLD, "sqlite", schema):
        if mutant.kind in ("join_condition", "wrong_key", "group_by", "integer_division"):
            hard = [f for f in check_sql(mutant.sql, schema, dialect="sqlite") if f.severity == "hard"]
            assert hard, mutant


def test_measure_fidelity_on_sqlite(tmp_path: Path) -> None:
    path = _db(tmp_path)
    schema = introspect_sqlite(path)
    report = measure_fidelity(
        [GoldItem("1", "shop", GOLD), GoldItem("2", "missing", GOLD)],
        lambda db, sql: run_sqlite(path, sql, timeout_s=5),
        lambda db: schema if db == "shop" else None,
    )
    assert report.gold.mutants == 1 and report.gold.hard == 0
    assert report.skipped == {"no database missing": 1}
    assert report.kinds["join_condition"].hard == report.kinds["join_condition"].mutants >= 1
    assert "| **all structural** |" in fidelity_markdown(report)

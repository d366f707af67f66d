"""Wrong variants of a gold SQL, to measure how often the judges catch a known error.

Each mutation is one small tree rewrite (sqlglot), applied at one site at a time:
``join_condition`` (drop a join condition), ``wrong_key`` (join on another key column),
``group_by`` (drop GROUP BY), ``integer_division`` (remove the cast / ``* 1.0`` that makes a
division exact), ``where_filter`` (drop one filter), ``min_max`` (swap MIN and MAX),
``order_direction`` (swap ASC and DESC), ``distinct`` (drop DISTINCT).

>>> [m.kind for m in mutate("SELECT DISTINCT a FROM t ORDER BY a DESC", "sqlite")]
['order_direction', 'distinct']
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import sqlglot
from sqlglot import exp
from sqlglot.errors import SqlglotError

from aria.errors import AriaError
from aria.eval.datasets import load_spider_dev
from aria.sql.check_joins import conjuncts
from aria.sql.checks import check_sql
from aria.sql.schema import Schema

STRUCTURAL = ("join_condition", "wrong_key", "group_by", "integer_division")
MAX_PER_KIND = 2


@dataclass(frozen=True)
class Mutant:
    kind: str
    sql: str


Rewrite = Callable[[exp.Expr, int, Schema | None], bool]  # mutate site #i of a copy; False: no such site


def _nth(tree: exp.Expr, kind: type[exp.Expr] | tuple[type[exp.Expr], ...], i: int) -> exp.Expr | None:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    nodes = list(tree.find_all(*kinds))
    return nodes[i] if i < len(nodes) else None


def _is_column_eq(node: exp.Expr) -> bool:
    return isinstance(node, exp.EQ) and isinstance(node.this, exp.Column) and isinstance(node.expression, exp.Column)


def _is_join_eq(node: exp.Expr) -> bool:
    """``a.x = b.y`` between two different qualifiers (a bare ``x = "Bob"`` is a SQLite string filter)."""
    return _is_column_eq(node) and bool(node.this.table) and bool(node.expression.table) and node.this.table != node.expression.table


def _drop_join_condition(tree: exp.Expr, i: int, schema: Schema | None) -> bool:
    joins = [j for j in tree.find_all(exp.Join) if j.args.get("on")]
    if i < len(joins):
        joins[i].set("on", None)
        joins[i].set("kind", "CROSS")
        return True
    where_eqs = [c for w in tree.find_all(exp.Where) for c in conjuncts(w.this) if _is_join_eq(c)]
    k = i - len(joins)
    if k < len(where_eqs):
        _remove_conjunct(where_eqs[k])
        return True
    return False


def _remove_conjunct(node: exp.Expr) -> None:
    parent = node.parent
    while isinstance(parent, exp.Paren):
        node, parent = parent, parent.parent
    if isinstance(parent, exp.And):
        other = parent.expression if node is parent.this else parent.this
        parent.replace(other)
    elif isinstance(parent, exp.Where):
        parent.pop()
    else:
        node.replace(exp.true())


def _key_columns(schema: Schema, table: str) -> list[str]:
    found = schema.table(table)
    if found is None:
        return []
    keys = {c.name for c in found.columns if c.is_primary_key}
    for fk in schema.foreign_keys:
        if fk.table.lower() == table.lower():
            keys.update(fk.columns)
        if fk.ref_table.lower() == table.lower():
            keys.update(fk.ref_columns)
    return sorted(keys) or [c.name for c in found.columns]


def _alias_tables(tree: exp.Expr) -> dict[str, str]:
    return {t.alias_or_name.lower(): t.name for t in tree.find_all(exp.Table)}


def _wrong_key(tree: exp.Expr, i: int, schema: Schema | None) -> bool:
    eqs = [c for c in tree.find_all(exp.EQ) if _is_column_eq(c) and c.this.table and c.expression.table]
    if schema is None or i >= len(eqs):
        return False
    col = eqs[i].expression
    table = _alias_tables(tree).get(col.table.lower())
    found = schema.table(table or "")
    others = [c.name for c in found.columns if c.name.lower() != col.name.lower()] if found else []
    options = [k for k in _key_columns(schema, table or "") if k in others] or others
    if not options:
        return False
    col.set("this", exp.to_identifier(options[0]))
    return True


def _drop_group_by(tree: exp.Expr, i: int, schema: Schema | None) -> bool:
    selects = [s for s in tree.find_all(exp.Select) if s.args.get("group")]
    if i >= len(selects):
        return False
    selects[i].set("group", None)  # HAVING stays: "forgot the GROUP BY", not "dropped the grouping"
    return True


def _is_float_literal(node: exp.Expr) -> bool:
    return isinstance(node, exp.Literal) and not node.is_string and not node.is_int


def _makes_exact(node: exp.Expr) -> bool:
    if isinstance(node, exp.Cast):
        return not node.to.is_type(*exp.DataType.INTEGER_TYPES, *exp.DataType.TEXT_TYPES)
    return isinstance(node, exp.Mul) and (_is_float_literal(node.this) or _is_float_literal(node.expression))


def _exactness(div: exp.Div) -> list[exp.Expr]:
    """Casts to a non-integer type and ``x * 1.0`` factors inside a division's operands."""
    found: list[exp.Expr] = []
    for side in (div.this, div.expression):
        for node in side.walk():
            if _makes_exact(node):
                found.append(node)
    return found


def _integer_division(tree: exp.Expr, i: int, schema: Schema | None) -> bool:
    divs = [d for d in tree.find_all(exp.Div) if _exactness(d)]
    if i >= len(divs):
        return False
    for node in _exactness(divs[i]):
        if isinstance(node, exp.Cast):
            node.replace(node.this)
        else:
            node.replace(node.expression if _is_float_literal(node.this) else node.this)
    return True


def _drop_filter(tree: exp.Expr, i: int, schema: Schema | None) -> bool:
    filters = [c for w in tree.find_all(exp.Where) for c in conjuncts(w.this) if not _is_join_eq(c)]
    if i >= len(filters):
        return False
    _remove_conjunct(filters[i])
    return True


def _swap_min_max(tree: exp.Expr, i: int, schema: Schema | None) -> bool:
    node = _nth(tree, (exp.Min, exp.Max), i)
    if node is None:
        return False
    swapped = exp.Max if isinstance(node, exp.Min) else exp.Min
    node.replace(swapped(this=node.this))
    return True


def _swap_order(tree: exp.Expr, i: int, schema: Schema | None) -> bool:
    node = _nth(tree, exp.Ordered, i)
    if node is None:
        return False
    node.set("desc", not node.args.get("desc"))
    return True


def _drop_distinct(tree: exp.Expr, i: int, schema: Schema | None) -> bool:
    selects = [s for s in tree.find_all(exp.Select) if s.args.get("distinct")]
    if i < len(selects):
        selects[i].set("distinct", None)
        return True
    inner = [d for d in tree.find_all(exp.Distinct) if isinstance(d.parent, exp.AggFunc)]
    k = i - len(selects)
    if k < len(inner) and len(inner[k].expressions) == 1:
        inner[k].replace(inner[k].expressions[0])
        return True
    return False


MUTATIONS: tuple[tuple[str, Rewrite], ...] = (
    ("join_condition", _drop_join_condition),
    ("wrong_key", _wrong_key),
    ("group_by", _drop_group_by),
    ("integer_division", _integer_division),
    ("where_filter", _drop_filter),
    ("min_max", _swap_min_max),
    ("order_direction", _swap_order),
    ("distinct", _drop_distinct),
)


def _sites(tree: exp.Expr, rewrite: Rewrite, schema: Schema | None, dialect: str) -> Iterator[str]:
    for i in range(MAX_PER_KIND):
        copy = tree.copy()
        if not rewrite(copy, i, schema):
            return
        yield copy.sql(dialect=dialect)


def mutate(sql: str, dialect: str, schema: Schema | None = None) -> list[Mutant]:
    """Wrong variants of ``sql`` (up to :data:`MAX_PER_KIND` per kind); ``wrong_key`` needs ``schema``."""
    try:
        tree = sqlglot.parse_one(sql, read=dialect)
    except SqlglotError:
        return []
    original = tree.sql(dialect=dialect)
    mutants: list[Mutant] = []
    for kind, rewrite in MUTATIONS:
        for text in _sites(tree, rewrite, schema, dialect):
            if text != original and all(m.sql != text for m in mutants):
                mutants.append(Mutant(kind, text))
    return mutants


# --- judge fidelity: how often a judge flags mutants that really change the answer -------------

Judge = Callable[[str, Schema], tuple[bool, bool]]  # (sql, schema) -> (flagged hard, flagged hard-or-warning)
Runner = Callable[[str, str], list[tuple[Any, ...]]]  # (db_id, sql) -> rows; raises AriaError on failure


def deterministic_judge(sql: str, schema: Schema) -> tuple[bool, bool]:
    """The sqlglot checks as a judge. An LLM judge plugs in with the same signature (see ``judges``)."""
    findings = check_sql(sql, schema, dialect=schema.dialect)
    return any(f.severity == "hard" for f in findings), any(f.severity in ("hard", "warning") for f in findings)


@dataclass(frozen=True)
class GoldItem:
    id: str
    db_id: str
    sql: str


@dataclass
class KindTally:
    mutants: int = 0
    hard: int = 0
    any: int = 0


@dataclass
class FidelityReport:
    judge: str
    gold: KindTally = field(default_factory=KindTally)
    kinds: dict[str, KindTally] = field(default_factory=dict)
    skipped: dict[str, int] = field(default_factory=dict)  # reason -> number of gold queries
    unchanged: int = 0  # mutants whose result equals gold's (not wrong: excluded)
    failed: int = 0  # mutants the engine rejected (caught by execution: excluded)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def _rows_key(rows: list[tuple[Any, ...]]) -> frozenset[tuple[Any, ...]]:
    return frozenset(tuple(round(v, 6) if isinstance(v, float) else v for v in row) for row in rows)


def measure_fidelity(
    items: list[GoldItem], run: Runner, schema_for: Callable[[str], Schema | None], *,
    judge: Judge = deterministic_judge, judge_name: str = "deterministic checks",
) -> FidelityReport:
    """Per mutation kind, the share of answer-changing mutants the judge flags; and its false alarms on gold."""
    report = FidelityReport(judge=judge_name)
    for item in items:
        schema = schema_for(item.db_id)
        if schema is None:
            report.skipped[f"no database {item.db_id}"] = report.skipped.get(f"no database {item.db_id}", 0) + 1
            continue
        try:
            gold = _rows_key(run(item.db_id, item.sql))
        except AriaError:
            report.skipped["gold SQL failed"] = report.skipped.get("gold SQL failed", 0) + 1
            continue
        _tally(report.gold, judge(item.sql, schema))
        for mutant in mutate(item.sql, schema.dialect, schema):
            try:
                changed = _rows_key(run(item.db_id, mutant.sql)) != gold
            except AriaError:
                report.failed += 1
                continue
            if not changed:
                report.unchanged += 1
                continue
            _tally(report.kinds.setdefault(mutant.kind, KindTally()), judge(mutant.sql, schema))
    return report


def _tally(tally: KindTally, verdict: tuple[bool, bool]) -> None:
    tally.mutants += 1
    tally.hard += verdict[0]
    tally.any += verdict[1]


def _pct(n: int, d: int) -> str:
    return f"{100 * n / d:.1f}%" if d else "-"


def fidelity_markdown(report: FidelityReport) -> str:
    rows = [f"Judge: {report.judge}", "", "| Mutation | Mutants (answer changed) | Flagged hard | Flagged hard or warning |",
            "|---|---|---|---|"]
    structural = KindTally()
    for kind, _ in MUTATIONS:
        t = report.kinds.get(kind)
        if t is None:
            continue
        rows.append(f"| {kind}{' (structural)' if kind in STRUCTURAL else ''} | {t.mutants} | {_pct(t.hard, t.mutants)} | {_pct(t.any, t.mutants)} |")
        if kind in STRUCTURAL:
            structural.mutants += t.mutants
            structural.hard += t.hard
            structural.any += t.any
    rows.append(f"| **all structural** | {structural.mutants} | {_pct(structural.hard, structural.mutants)} | {_pct(structural.any, structural.mutants)} |")
    g = report.gold
    rows.append(f"| **false alarms on gold** | {g.mutants} gold | {_pct(g.hard, g.mutants)} | {_pct(g.any, g.mutants)} |")
    rows.append("")
    rows.append(f"Excluded mutants: {report.unchanged} returned the gold answer, {report.failed} failed to execute.")
    rows.extend(f"Skipped {n} gold queries: {reason}." for reason, n in sorted(report.skipped.items()))
    return "\n".join(rows)


def spider_inputs(bench_dir: Path, timeout_s: float = 10.0) -> tuple[list[GoldItem], Runner, Callable[[str], Schema | None]]:
    """Spider dev: gold from dev.json, SQLite files read-only, schemas from tables.json with the
    files' declared column types (SQLite's integer division depends on them)."""
    from aria.db.introspect import introspect_sqlite, load_spider_tables
    from aria.db.sqlite import run_sqlite

    root = bench_dir / "spider_dev"
    items = [GoldItem(str(i), q.db_id, q.gold_sql) for i, q in enumerate(load_spider_dev(bench_dir))]
    declared = load_spider_tables(root / "tables.json")
    cache: dict[str, Schema | None] = {}

    def path(db_id: str) -> Path:
        return root / "database" / db_id / f"{db_id}.sqlite"

    def schema_for(db_id: str) -> Schema | None:
        if db_id not in cache:
            file = path(db_id)
            cache[db_id] = with_declared_types(declared[db_id], introspect_sqlite(file)) if file.is_file() else None
        return cache[db_id]

    return items, (lambda db_id, sql: run_sqlite(path(db_id), sql, timeout_s=timeout_s)), schema_for


def with_declared_types(schema: Schema, typed: Schema) -> Schema:
    """``schema`` with each column's type taken from ``typed`` where it has that column."""
    tables = []
    for table in schema.tables:
        other = typed.table(table.name)
        cols = tuple(
            replace(c, data_type=oc.data_type) if other and (oc := other.column(c.name)) and oc.data_type else c
            for c in table.columns
        )
        tables.append(replace(table, columns=cols))
    return Schema(schema.name, tuple(tables), schema.foreign_keys, schema.dialect)


def smartrestaurant_inputs(conninfo: str, business_schema: str, timeout_ms: int = 15000) -> tuple[
    list[GoldItem], Runner, Callable[[str], Schema | None]
]:
    """The golden questions (examples and eval) on PostgreSQL, each run in a READ ONLY transaction."""
    import psycopg
    from psycopg import sql as pgsql

    from aria.db.golden import golden_path, load_golden
    from aria.db.introspect import introspect_postgres
    from aria.errors import QueryFailed

    splits = [s for s in ("examples", "eval") if golden_path(s).exists()]  # type: ignore[arg-type]
    items = [GoldItem(q.id, "smartrestaurant", q.sql) for s in splits for q in load_golden(s)]  # type: ignore[arg-type]
    schema = introspect_postgres(conninfo, business_schema)

    def run(db_id: str, query: str) -> list[tuple[Any, ...]]:
        try:
            with psycopg.connect(conninfo) as conn:
                conn.read_only = True
                conn.execute(pgsql.SQL("SET LOCAL search_path = {}").format(pgsql.Identifier(business_schema)))
                conn.execute(pgsql.SQL("SET LOCAL statement_timeout = {}").format(pgsql.Literal(timeout_ms)))
                return [tuple(r) for r in conn.execute(query).fetchall()]  # type: ignore[arg-type]
        except psycopg.Error as err:
            raise QueryFailed(f"PostgreSQL error: {str(err).strip().splitlines()[0]}", hint="Fix the SQL.") from err

    return items, run, (lambda db_id: schema)

"""Moving the business clock in a verified query: "last month" becomes "this month" by moving
``business_now()`` in the period bounds, never elsewhere, and never when a period is open-ended.

>>> shift_business_clock("SELECT 1 FROM orders WHERE opened_at::date = business_now()::date", "day", 1)
"SELECT 1 FROM orders WHERE CAST(opened_at AS DATE) = CAST((BUSINESS_NOW() - INTERVAL '1 DAY') AS DATE)"
"""

from __future__ import annotations

import sqlglot
from sqlglot import exp

_BOUNDS = (exp.EQ, exp.GT, exp.GTE, exp.LT, exp.LTE, exp.Between)


def _is_clock(node: exp.Expr) -> bool:
    return isinstance(node, exp.Anonymous) and node.name.lower() == "business_now"


def _has_clock(node: exp.Expr) -> bool:
    return any(_is_clock(n) for n in node.walk())


def _bound_direction(cmp: exp.Expr) -> tuple[exp.Expr, str] | None:
    """The bounded expression of a comparison against the clock, and whether it is a lower or upper
    bound (or both); None when the comparison does not involve the clock on one side only."""
    if isinstance(cmp, exp.Between):
        return (cmp.this, "both") if _has_clock(cmp) else None
    sides = [s for s in (cmp.this, cmp.expression) if _has_clock(s)]
    if len(sides) != 1:
        return None
    other = cmp.expression if sides[0] is cmp.this else cmp.this
    if isinstance(cmp, exp.EQ):
        return other, "both"
    lower = isinstance(cmp, exp.GT | exp.GTE) == (other is cmp.this)
    return other, "lower" if lower else "upper"


def _periods_closed(tree: exp.Expr) -> bool:
    """True when every comparison against the business clock bounds its column on both sides
    (an equality, a BETWEEN, or both a lower and an upper bound); an open bound would widen the
    period when the clock moves back."""
    directions: dict[str, set[str]] = {}
    for cmp in tree.find_all(*_BOUNDS):
        found = _bound_direction(cmp)
        if found is not None:
            directions.setdefault(found[0].sql(), set()).add(found[1])
    return all("both" in d or {"lower", "upper"} <= d for d in directions.values())


def _in_bound(node: exp.Expr) -> bool:
    cmp = node.find_ancestor(*_BOUNDS)
    return cmp is not None and _bound_direction(cmp) is not None


def shift_business_clock(sql: str, unit: str, units_back: int) -> str | None:
    """``sql`` with the business clock moved ``units_back`` units into the past in every period
    bound (``WHERE day = business_now()::date``), or None when a period in it is open-ended (moving
    the clock would then widen the answer). The clock elsewhere — "waiting since", "until now" for
    a shift still open — stays the real now."""
    tree = sqlglot.parse_one(sql, read="postgres")
    if not _periods_closed(tree):
        return None
    if units_back == 0:
        return sql
    sign = "-" if units_back > 0 else "+"
    shifted = sqlglot.parse_one(f"(business_now() {sign} INTERVAL '{abs(units_back)} {unit}')", read="postgres")
    for node in [n for n in tree.find_all(exp.Anonymous) if _is_clock(n) and _in_bound(n)]:
        node.replace(shifted.copy())
    return tree.sql(dialect="postgres")


def clock_columns(sql: str) -> tuple[tuple[str, str], ...]:
    """(table, column) of every column a period bound compares with the business clock."""
    tree = sqlglot.parse_one(sql, read="postgres")
    out: dict[tuple[str, str], None] = {}
    for cmp in tree.find_all(*_BOUNDS):
        found = _bound_direction(cmp)
        column = found[0].find(exp.Column) if found else None
        select = cmp.find_ancestor(exp.Select)
        if column is None or select is None:
            continue
        tables = [t for t in select.find_all(exp.Table) if t.find_ancestor(exp.Select) is select]
        by_alias = {t.alias_or_name.lower(): t.name for t in tables}
        table = by_alias.get(column.table.lower()) if column.table else (tables[0].name if len(tables) == 1 else None)
        if table:
            out[(table, column.name)] = None
    return tuple(out)

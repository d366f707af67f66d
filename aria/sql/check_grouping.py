"""Granularity consistency (G): grouping matches what is selected; aggregates where they belong."""

from __future__ import annotations

from typing import Literal

from sqlglot import exp
from sqlglot.optimizer.scope import Scope, walk_in_scope

from aria.sql.check_joins import join_predicates
from aria.sql.check_scope import Binding, Context
from aria.sql.findings import Finding

_AGG_CONTEXT = (exp.AggFunc, exp.Window, exp.Filter, exp.WithinGroup)


def _aggregates(node: exp.Expr) -> list[exp.AggFunc]:
    return [n for n in walk_in_scope(node) if isinstance(n, exp.AggFunc) and not isinstance(n.parent, exp.Window)]


def _loose_columns(item: exp.Expr) -> list[exp.Column]:
    """Columns of ``item`` outside any aggregate or window function (and outside subqueries)."""
    loose = []
    for node in walk_in_scope(item):
        if isinstance(node, exp.Column) and not isinstance(node.this, exp.Star):
            inside = node.find_ancestor(*_AGG_CONTEXT, exp.Select)
            if not isinstance(inside, _AGG_CONTEXT):
                loose.append(node)
    return loose


def _key(ctx: Context, node: exp.Expr) -> str:
    b = ctx.binding(node) if isinstance(node, exp.Column) else None
    return f"{b.alias}.{b.column.name}".lower() if b else node.sql(dialect=ctx.dialect).lower()


def _equal_keys(ctx: Context, scope: Scope) -> list[tuple[str, str]]:
    pairs = []
    for pred in join_predicates(scope):
        if isinstance(pred, exp.EQ) and isinstance(pred.this, exp.Column) and isinstance(pred.expression, exp.Column):
            pairs.append((_key(ctx, pred.this), _key(ctx, pred.expression)))
    return pairs


def _grouped_keys(ctx: Context, scope: Scope, select: exp.Select) -> set[str]:
    """Keys of the GROUP BY expressions, with ordinals/aliases resolved and join equalities followed."""
    group = select.args.get("group")
    keys: set[str] = set()
    by_alias = {s.alias.lower(): s.unalias() for s in select.selects if s.alias}
    for g in group.expressions if group else []:
        target: exp.Expr = g
        if isinstance(g, exp.Literal) and g.is_int and 0 < int(g.this) <= len(select.selects):
            target = select.selects[int(g.this) - 1].unalias()
        elif isinstance(g, exp.Column) and not g.table and g.name.lower() in by_alias and not ctx.binding(g):
            target = by_alias[g.name.lower()]
        keys.add(_key(ctx, target))
    pairs = _equal_keys(ctx, scope)
    changed = True
    while changed:
        changed = False
        for a, b in pairs:
            if (a in keys) != (b in keys):
                keys |= {a, b}
                changed = True
    return keys


def _dependent(binding: Binding | None, keys: set[str]) -> bool:
    """Functionally dependent: the column's table has its whole primary key grouped."""
    if binding is None:
        return False
    pk = binding.table.primary_key
    return bool(pk) and all(f"{binding.alias}.{c}".lower() in keys for c in pk)


def _sqlite_bare_column_ok(ctx: Context, select: exp.Select, aggs: list[exp.AggFunc]) -> bool:
    """SQLite defines ``SELECT name, MAX(age)`` (the row holding the max): not an error there."""
    return ctx.dialect == "sqlite" and not select.args.get("group") and len(aggs) == 1 and isinstance(aggs[0], (exp.Max, exp.Min))


def ungrouped_columns(ctx: Context) -> list[Finding]:
    findings = []
    for scope in ctx.select_scopes():
        select = scope.expression
        if not isinstance(select, exp.Select):  # select_scopes() holds only SELECTs
            continue
        aggs = [a for s in select.selects for a in _aggregates(s)]
        having = select.args.get("having")
        aggs += _aggregates(having) if having else []
        if not aggs and not select.args.get("group"):
            continue
        severity: Literal["hard", "warning"] = "warning" if _sqlite_bare_column_ok(ctx, select, aggs) else "hard"
        keys = _grouped_keys(ctx, scope, select)
        for item in select.selects:
            whole = item.unalias()
            if _key(ctx, whole) in keys:
                continue
            for col in _loose_columns(whole):
                if _key(ctx, col) in keys or _dependent(ctx.binding(col), keys) or not _in_scope(ctx, scope, col):
                    continue
                findings.append(Finding(
                    check="ungrouped_column", dimension="granularity", severity=severity,
                    message=f"{col.sql(dialect=ctx.dialect)} is selected next to aggregates but is neither in "
                    "GROUP BY nor aggregated" + (" (SQLite returns the row holding the MIN/MAX)." if severity == "warning" else "."),
                ))
                break
    return findings


def _in_scope(ctx: Context, scope: Scope, col: exp.Column) -> bool:
    """False for correlated references to an outer query (constant within this one)."""
    binding = ctx.binding(col)
    alias = binding.alias if binding else col.table.lower()
    return not alias or alias in {a.lower() for a in scope.selected_sources}


def aggregate_in_where(ctx: Context) -> list[Finding]:
    findings = []
    for scope in ctx.select_scopes():
        where = scope.expression.args.get("where")
        if where and (aggs := _aggregates(where)):
            findings.append(Finding(
                check="aggregate_in_where", dimension="granularity", severity="hard",
                message=f"{aggs[0].sql(dialect=ctx.dialect)} is an aggregate inside WHERE; "
                "filter on aggregates with HAVING.",
            ))
    return findings


def having_without_aggregate(ctx: Context) -> list[Finding]:
    findings = []
    for scope in ctx.select_scopes():
        having = scope.expression.args.get("having")
        if having and not _aggregates(having) and not any(isinstance(n, exp.Subquery) for n in having.find_all(exp.Subquery)):
            findings.append(Finding(
                check="having_without_aggregate", dimension="granularity", severity="warning",
                message=f"HAVING {having.this.sql(dialect=ctx.dialect)} uses no aggregate; the condition belongs in WHERE.",
            ))
    return findings

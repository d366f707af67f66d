"""Logic consistency (Q): integer division, division by zero, NOT IN over NULLs, ``= NULL``, LIMIT."""

from __future__ import annotations

from typing import Literal

from sqlglot import exp

from aria.sql.check_joins import conjuncts
from aria.sql.check_scope import Context
from aria.sql.check_types import infer
from aria.sql.findings import Finding


def _strip(node: exp.Expr) -> exp.Expr:
    while isinstance(node, exp.Paren):
        node = node.this
    return node


def integer_division(ctx: Context) -> list[Finding]:
    """Dividing integers by integers truncates (3 / 4 = 0) in PostgreSQL and SQLite alike."""
    findings = []
    for div in ctx.tree.find_all(exp.Div):
        left, right = infer(div.this, ctx), infer(div.expression, ctx)
        kinds = {left, right}
        if not kinds <= {"int", "maybe_int"}:
            continue
        literal_divisor = isinstance(_strip(div.expression), exp.Literal)
        severity: Literal["hard", "warning"] = "hard" if kinds == {"int"} and not literal_divisor else "warning"
        findings.append(Finding(
            check="integer_division", dimension="logic", severity=severity,
            message=f"{div.sql(dialect=ctx.dialect)} divides integers, so the result is truncated (3 / 4 = 0); "
            "cast one side to numeric or multiply by 1.0.",
        ))
    return findings


def _guarded(ctx: Context, div: exp.Div, divisor: exp.Expr) -> bool:
    """A NULLIF, or a filter such as ``x > 0`` / ``x <> 0`` on the divisor, in the same query."""
    select = div.find_ancestor(exp.Select)
    if select is None:
        return False
    text = divisor.sql(dialect=ctx.dialect).lower()
    for clause in ("where", "having"):
        node = select.args.get(clause)
        for pred in conjuncts(node.this if node else None):
            if isinstance(pred, (exp.GT, exp.NEQ, exp.GTE)) and pred.this.sql(dialect=ctx.dialect).lower() == text:
                return True
    return False


def division_by_zero(ctx: Context) -> list[Finding]:
    findings = []
    for div in ctx.tree.find_all(exp.Div):
        divisor = _strip(div.expression)
        if isinstance(divisor, exp.Literal) and divisor.this.strip("0.") == "":
            findings.append(Finding(
                check="division_by_zero", dimension="logic", severity="hard", message=f"{div.sql(dialect=ctx.dialect)} divides by zero.",
            ))
            continue
        target = divisor.this if isinstance(divisor, exp.Sum) else divisor
        if not isinstance(target, exp.Column) or infer(target, ctx) not in ("int", "maybe_int", "num"):
            continue
        binding = ctx.binding(target)
        if binding is None or binding.column.is_primary_key or _guarded(ctx, div, divisor):
            continue
        findings.append(Finding(
            check="division_by_zero", dimension="logic", severity="warning",
            message=f"{div.sql(dialect=ctx.dialect)} divides by {divisor.sql(dialect=ctx.dialect)}, which can be 0; "
            "wrap it in NULLIF(..., 0) or filter it out.",
        ))
    return findings


def not_in_nullable(ctx: Context) -> list[Finding]:
    """``x NOT IN (SELECT col ...)`` is never true once ``col`` holds a NULL."""
    findings = []
    for node in ctx.tree.find_all(exp.Not):
        inner = _strip(node.this)
        query = inner.args.get("query") if isinstance(inner, exp.In) else None
        select = query.this if isinstance(query, exp.Subquery) else query
        if not isinstance(select, exp.Select) or len(select.selects) != 1:
            continue
        col = select.selects[0].unalias()
        binding = ctx.binding(col) if isinstance(col, exp.Column) else None
        if binding is None or not binding.column.nullable or binding.column.is_primary_key:
            continue
        where = select.args.get("where")
        if where and any(isinstance(n, exp.Not) and isinstance(n.this, exp.Is) for n in where.find_all(exp.Not)):
            continue
        findings.append(Finding(
            check="not_in_nullable", dimension="logic", severity="warning",
            message=f"NOT IN over {col.sql(dialect=ctx.dialect)}, which can be NULL, returns no rows once a NULL "
            "appears; use NOT EXISTS or filter the NULLs out.",
        ))
    return findings


def equals_null(ctx: Context) -> list[Finding]:
    findings = []
    for cmp in ctx.tree.find_all(exp.EQ, exp.NEQ):
        if isinstance(cmp.this, exp.Null) or isinstance(cmp.expression, exp.Null):
            findings.append(Finding(
                check="equals_null", dimension="logic", severity="warning",
                message=f"{cmp.sql(dialect=ctx.dialect)} is never true; use IS NULL / IS NOT NULL.",
            ))
    return findings


def limit_without_order(ctx: Context) -> list[Finding]:
    findings = []
    for select in ctx.tree.find_all(exp.Select):
        limit = select.args.get("limit")
        if limit is None or select.args.get("order") or isinstance(select.parent, exp.Exists):
            continue
        if isinstance(limit.expression, exp.Literal) and limit.expression.this == "1" and not select.args.get("from_"):
            continue
        findings.append(Finding(
            check="limit_without_order", dimension="logic", severity="info",
            message="LIMIT without ORDER BY returns arbitrary rows.",
        ))
    return findings

"""Column consistency (C): every table and column exists, and comparisons compare like with like."""

from __future__ import annotations

import difflib

from sqlglot import exp

from aria.sql.check_scope import Context
from aria.sql.check_types import Kind, infer
from aria.sql.findings import Finding


def _suggest(name: str, candidates: list[str] | tuple[str, ...]) -> str:
    close = difflib.get_close_matches(name.lower(), sorted({c.lower() for c in candidates}), n=3, cutoff=0.6)
    return f" Did you mean {', '.join(close)}?" if close else ""


def unknown_tables(ctx: Context) -> list[Finding]:
    names = [t.name for t in ctx.schema.tables]
    seen: set[str] = set()
    findings = []
    for table in ctx.unknown_tables:
        if table.name.lower() in seen:
            continue
        seen.add(table.name.lower())
        findings.append(Finding(
            check="table_exists", dimension="column", severity="hard",
            message=f"The table {table.name} does not exist in the schema.{_suggest(table.name, names)}",
        ))
    return findings


def unknown_columns(ctx: Context) -> list[Finding]:
    findings = []
    for item in ctx.unresolved:
        shown = item.node.sql(dialect=ctx.dialect)
        if item.ambiguous:
            findings.append(Finding(
                check="ambiguous_column", dimension="column", severity="hard",
                message=f"The column {shown} is ambiguous: {', '.join(item.ambiguous)} all have it; qualify it.",
            ))
            continue
        findings.append(Finding(
            check="column_exists", dimension="column", severity="hard",
            message=f"Unknown column {shown}: no table in the query has it.{_suggest(item.node.name, item.candidates)}",
        ))
    return findings


_INCOMPATIBLE: set[frozenset[Kind]] = {
    frozenset({"time", "int"}), frozenset({"time", "num"}), frozenset({"time", "maybe_int"}),
    frozenset({"text", "int"}), frozenset({"text", "num"}), frozenset({"bool", "int"}),
    frozenset({"bool", "num"}), frozenset({"bool", "text"}), frozenset({"time", "bool"}),
}
_COMPARISONS = (exp.EQ, exp.NEQ, exp.GT, exp.GTE, exp.LT, exp.LTE)


def _is_text_literal(node: exp.Expr) -> bool:
    return isinstance(node, exp.Literal) and node.is_string


def type_mismatches(ctx: Context) -> list[Finding]:
    """Comparisons of a timestamp with a number, text with a number, etc."""
    findings = []
    for cmp in ctx.tree.find_all(*_COMPARISONS):
        left, right = cmp.this, cmp.expression
        kinds = (infer(left, ctx), infer(right, ctx))
        if "unknown" in kinds or kinds[0] == kinds[1]:
            continue
        # A quoted literal is untyped in PostgreSQL ('2026-11-01' compares with a date, '5' with an int).
        if ctx.dialect == "postgres" and (_is_text_literal(left) or _is_text_literal(right)):
            continue
        if ctx.dialect == "sqlite" and "text" in kinds:
            continue  # SQLite compares text and numbers by affinity; Spider stores numbers as text often
        if frozenset(kinds) in _INCOMPATIBLE:
            findings.append(Finding(
                check="type_mismatch", dimension="column", severity="warning",
                message=f"{cmp.sql(dialect=ctx.dialect)} compares a {kinds[0]} value with a {kinds[1]} value.",
            ))
    return findings

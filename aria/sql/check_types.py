"""A small type inference for the checks: which kind of value an expression yields.

Kinds: ``int`` (exact integer: integer columns, COUNT, integer literals), ``maybe_int`` (a column
whose declared type lets the engine store integers, e.g. Spider's ``number`` or SQLite NUMERIC),
``num`` (decimal/float), ``text``, ``time``, ``bool``, ``interval``, ``unknown``.
"""

from __future__ import annotations

import re
from typing import Literal

from sqlglot import exp

from aria.sql.check_scope import Context

Kind = Literal["int", "maybe_int", "num", "text", "time", "bool", "interval", "unknown"]

_INT = re.compile(r"^(int|integer|smallint|bigint|tinyint|mediumint|int2|int4|int8|serial|bigserial|smallserial)\b")
_NUM = re.compile(r"^(numeric|decimal|real|float|double|money|number)")
_TEXT = re.compile(r"^(text|char|character|varchar|nvarchar|nchar|string|clob|citext|uuid|name|bpchar)")
_TIME = re.compile(r"^(date|time|timestamp|datetime|year)")
_INT_TYPES = {exp.DataType.Type.INT, exp.DataType.Type.BIGINT, exp.DataType.Type.SMALLINT, exp.DataType.Type.TINYINT}
_FLOAT_TYPES = {
    exp.DataType.Type.FLOAT, exp.DataType.Type.DOUBLE, exp.DataType.Type.DECIMAL, exp.DataType.Type.MONEY,
    exp.DataType.Type.BIGDECIMAL,
}
_SAME_AS_ARG = (exp.Filter, exp.Window, exp.Min, exp.Max, exp.Abs, exp.Coalesce, exp.Nullif, exp.Paren, exp.Neg, exp.Ceil, exp.Floor)


def kind_of_type(data_type: str, dialect: str) -> Kind:
    """The kind of a column's declared type (``integer`` -> int, ``numeric(10,2)`` -> num, ...)."""
    lowered = data_type.strip().lower()
    if _INT.match(lowered) or (dialect == "sqlite" and "int" in lowered):
        return "int"
    if lowered == "number" or (dialect == "sqlite" and lowered.startswith(("numeric", "decimal"))):
        return "maybe_int"  # SQLite NUMERIC affinity stores 10.0 as the integer 10
    if _NUM.match(lowered):
        return "num"
    if lowered in ("bool", "boolean"):
        return "bool"
    if _TIME.match(lowered):
        return "time"
    if lowered.startswith("interval"):
        return "interval"
    if _TEXT.match(lowered):
        return "text"
    return "unknown"


def _datatype_kind(dtype: exp.DataType) -> Kind:
    if dtype.this in _INT_TYPES:
        return "int"
    if dtype.this in _FLOAT_TYPES:
        return "num"
    if dtype.is_type(*exp.DataType.TEXT_TYPES):
        return "text"
    if dtype.is_type(*exp.DataType.TEMPORAL_TYPES):
        return "time"
    return "unknown"


def _arith(left: Kind, right: Kind) -> Kind:
    kinds = {left, right}
    if kinds <= {"int"}:
        return "int"
    if kinds <= {"int", "maybe_int"}:
        return "maybe_int"
    if "time" in kinds or "interval" in kinds:
        return "time" if "time" in kinds else "interval"
    if kinds & {"num"} and kinds <= {"int", "maybe_int", "num"}:
        return "num"
    return "unknown"


def infer(node: exp.Expr | None, ctx: Context) -> Kind:
    """The kind of value ``node`` yields, ``unknown`` when it cannot tell."""
    if node is None:
        return "unknown"
    if isinstance(node, exp.Literal):
        if node.is_string:
            return "text"
        return "int" if re.fullmatch(r"\d+", node.this) else "num"
    if isinstance(node, exp.Column):
        binding = ctx.binding(node)
        return kind_of_type(binding.column.data_type, ctx.dialect) if binding else "unknown"
    if isinstance(node, (exp.Cast, exp.TryCast)):
        return _datatype_kind(node.to)
    if isinstance(node, exp.Count):
        return "int"
    if isinstance(node, (exp.Avg, exp.Extract, exp.Pow, exp.Sqrt, exp.Ln, exp.Exp)):
        return "num"
    if isinstance(node, exp.Sum):
        return _sum_kind(node, ctx)
    if isinstance(node, (exp.Length, exp.DateDiff)):
        return "int"
    if isinstance(node, exp.Round):
        inner = infer(node.this, ctx)
        return "num" if ctx.dialect == "sqlite" else inner
    if isinstance(node, _SAME_AS_ARG):
        return infer(node.this, ctx)
    if isinstance(node, exp.Case):
        branches = [i.args.get("true") for i in node.args.get("ifs", [])] + [node.args.get("default")]
        kinds = [infer(b, ctx) for b in branches if b is not None and not isinstance(b, exp.Null)]
        return kinds[0] if kinds and all(k == kinds[0] for k in kinds) else "unknown"
    if isinstance(node, (exp.Add, exp.Sub, exp.Mul, exp.Mod)):
        return _arith(infer(node.this, ctx), infer(node.expression, ctx))
    if isinstance(node, exp.Div):
        kind = _arith(infer(node.this, ctx), infer(node.expression, ctx))
        return kind if kind in ("int", "maybe_int") else ("num" if kind != "unknown" else "unknown")
    if isinstance(node, (exp.Subquery,)) and isinstance(node.this, exp.Select) and len(node.this.selects) == 1:
        return infer(node.this.selects[0].unalias(), ctx)
    if isinstance(node, exp.Interval):
        return "interval"
    if isinstance(node, (exp.CurrentDate, exp.CurrentTimestamp, exp.DateTrunc, exp.TimestampTrunc)):
        return "time"
    if isinstance(node, exp.Anonymous) and node.name.lower() in ("business_now", "now"):
        return "time"
    return "unknown"


def _sum_kind(node: exp.Sum, ctx: Context) -> Kind:
    """SUM of integers is an integer, except PostgreSQL's SUM(bigint), which is numeric."""
    arg = node.this
    if isinstance(arg, exp.Distinct) and arg.expressions:
        arg = arg.expressions[0]
    kind = infer(arg, ctx)
    if kind == "int" and ctx.dialect == "postgres" and isinstance(arg, exp.Column):
        binding = ctx.binding(arg)
        if binding and binding.column.data_type.lower().startswith(("bigint", "int8")):
            return "num"
    return kind

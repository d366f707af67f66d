"""The literals of a verified query as parameters, and rebinding them to new values, so that
"revenue of table 5" can answer "revenue of table 7" (verified-query reuse).

Rebinding goes through the sqlglot tree: values become properly quoted literals, never text
pasted into SQL.

>>> params = extract_parameters("SELECT name_vi FROM menu_items ORDER BY price_vnd DESC LIMIT 5")
>>> [(p.id, p.kind, p.value) for p in params]
[('p1', 'top_n', 5)]
>>> rebind("SELECT name_vi FROM menu_items ORDER BY price_vnd DESC LIMIT 5", {"p1": 10})
'SELECT name_vi FROM menu_items ORDER BY price_vnd DESC LIMIT 10'
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from typing import Literal

import sqlglot
from sqlglot import exp

from aria.errors import AriaError

ParamKind = Literal["date", "date_range", "interval", "number", "top_n", "name", "code", "text"]
Path = tuple[tuple[str, int | None], ...]

_CODE = re.compile(r"^[A-Z][A-Z0-9_]{0,15}$")
_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_INTERVAL = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([A-Za-z]+)\s*$")
_NUMBER = re.compile(r"^-?\d+(\.\d+)?$")
_COMPARISONS = (exp.EQ, exp.NEQ, exp.GT, exp.GTE, exp.LT, exp.LTE, exp.Like, exp.ILike, exp.In)


class RebindError(AriaError):
    """A value cannot replace a query parameter (unknown id, or a value of the wrong kind)."""


@dataclass(frozen=True)
class SqlParameter:
    """One replaceable literal. ``path`` locates its node in the parsed tree (arg key, list index)."""

    id: str
    kind: ParamKind
    value: object
    column: str | None
    path: Path
    text: str  # the literal as written, e.g. INTERVAL '1 DAY'


def _path(node: exp.Expr) -> Path:
    steps: list[tuple[str, int | None]] = []
    while node.parent is not None and node.arg_key is not None:  # every child node knows its arg key
        container = node.parent.args.get(node.arg_key)
        steps.append((node.arg_key, node.index if isinstance(container, list) else None))
        node = node.parent
    return tuple(reversed(steps))


def _at(tree: exp.Expr, path: Path) -> exp.Expr:
    node = tree
    for key, index in path:
        child = node.args[key]
        node = child[index] if index is not None else child
    return node


def _table_name(node: exp.Expr, column: exp.Column) -> str:
    """``table.column`` when the column's table can be told from the enclosing SELECT."""
    select = node.find_ancestor(exp.Select)
    if select is None:
        return column.name
    tables = [t for t in select.find_all(exp.Table) if t.find_ancestor(exp.Select) is select]
    by_alias = {t.alias_or_name.lower(): t.name for t in tables}
    if column.table:
        table = by_alias.get(column.table.lower())
        return f"{table}.{column.name}" if table else f"{column.table}.{column.name}"
    return f"{tables[0].name}.{column.name}" if len(tables) == 1 else column.name


def _compared_column(node: exp.Expr) -> tuple[exp.Expr, exp.Column] | None:
    """The comparison a literal takes part in, and the column on its other side."""
    parent = node.parent
    if isinstance(parent, exp.Cast):
        node, parent = parent, parent.parent
    if isinstance(parent, (exp.In, exp.Between)) and node is not parent.this:
        other = _uncast(parent.this)
    elif isinstance(parent, _COMPARISONS):
        other = _uncast(parent.expression if node is parent.this else parent.this)
    else:
        return None
    return (parent, other) if isinstance(other, exp.Column) else None


def _uncast(node: exp.Expr) -> exp.Expr:
    while isinstance(node, (exp.Cast, exp.Paren, exp.Lower, exp.Upper)):
        node = node.this
    return node


def _interval_text(node: exp.Interval) -> str:
    unit = node.unit.name.lower() if node.unit else ""
    return f"{node.this.name} {unit}".strip()


def _date_value(node: exp.Expr) -> dt.date | None:
    target = node.this if isinstance(node, exp.Cast) and node.to.is_type(exp.DataType.Type.DATE) else node
    if isinstance(target, exp.Literal) and target.is_string and _ISO_DATE.match(target.this):
        try:
            return dt.date.fromisoformat(target.this)
        except ValueError:
            return None
    return None


def _classify(node: exp.Expr) -> tuple[ParamKind, object, str | None] | None:
    """The parameter a node is, or None. Date casts and intervals are checked before plain literals."""
    if isinstance(node, exp.Literal) and isinstance(node.parent, (exp.Cast, exp.Interval)):
        return None  # the Cast / Interval around it is the parameter
    if isinstance(node, exp.Interval) and isinstance(node.this, exp.Literal):
        return "interval", _interval_text(node), None
    if isinstance(node.parent, exp.Limit) and isinstance(node, exp.Literal) and node.is_int:
        return "top_n", int(node.this), None
    date = _date_value(node)
    if date is not None:
        compared = _compared_column(node)
        return "date", date, _table_name(node, compared[1]) if compared else None
    if not isinstance(node, exp.Literal):
        return None
    compared = _compared_column(node)
    if compared is None:
        return None
    column = _table_name(node, compared[1])
    if not node.is_string:
        number = float(node.this)
        return "number", int(number) if number.is_integer() and "." not in node.this else number, column
    if isinstance(compared[0], (exp.Like, exp.ILike)):
        return "text", node.this, column
    return ("code" if _CODE.match(node.this) else "name"), node.this, column


def _in_written_order(node: exp.Expr) -> list[exp.Expr]:
    """Pre-order walk following each node's declared argument order (SELECT ... WHERE ... LIMIT)."""
    order = list(type(node).arg_types)
    keys = sorted(node.args, key=lambda k: order.index(k) if k in order else len(order))
    nodes = [node]
    for key in keys:
        value = node.args[key]
        for child in value if isinstance(value, list) else [value]:
            if isinstance(child, exp.Expression):
                nodes.extend(_in_written_order(child))
    return nodes


def _candidates(tree: exp.Expr) -> list[exp.Expr]:
    return [n for n in _in_written_order(tree) if isinstance(n, (exp.Literal, exp.Cast, exp.Interval))]


def extract_parameters(sql: str, *, dialect: str = "postgres") -> list[SqlParameter]:
    """The replaceable literals of ``sql``, in the order they are written (ids p1, p2, ...)."""
    return _extract(sqlglot.parse_one(sql, read=dialect), dialect)


def _extract(tree: exp.Expr, dialect: str) -> list[SqlParameter]:
    params: list[SqlParameter] = []
    for node in _candidates(tree):
        found = _classify(node)
        if found is None:
            continue
        kind, value, column = found
        params.append(SqlParameter(f"p{len(params) + 1}", kind, value, column, _path(node), node.sql(dialect=dialect)))
    return params


def _literal_for(param: SqlParameter, old: exp.Expr, value: object) -> exp.Expr:
    """The node that replaces ``old``; raises :class:`RebindError` when ``value`` does not fit."""
    if param.kind in ("top_n", "number"):
        text = str(value)
        if isinstance(value, bool) or not _NUMBER.match(text) or (param.kind == "top_n" and int(float(text)) <= 0):
            raise RebindError(f"Parameter {param.id} needs a number, not {value!r}.", hint="Pass a number.")
        return exp.Literal.number(text)
    if param.kind == "interval":
        match = _INTERVAL.match(str(value))
        if not match:
            raise RebindError(f"Parameter {param.id} needs an interval like '2 days', not {value!r}.", hint="Use '<n> <unit>'.")
        return exp.Interval(this=exp.Literal.string(match.group(1)), unit=exp.Var(this=match.group(2).upper()))
    if param.kind == "date":
        try:
            date = value if isinstance(value, dt.date) else dt.date.fromisoformat(str(value))
        except ValueError as err:
            raise RebindError(f"Parameter {param.id} needs a date (YYYY-MM-DD), not {value!r}.", hint="Use ISO dates.") from err
        literal = exp.Literal.string(date.isoformat())
        return exp.Cast(this=literal, to=exp.DataType.build("date")) if isinstance(old, exp.Cast) else literal
    return exp.Literal.string(str(value))


def rebind(sql: str, values: dict[str, object], *, dialect: str = "postgres") -> str:
    """``sql`` with the parameters named in ``values`` (ids from :func:`extract_parameters`) replaced."""
    tree = sqlglot.parse_one(sql, read=dialect)
    params = {p.id: p for p in _extract(tree, dialect)}
    unknown = sorted(set(values) - set(params))
    if unknown:
        raise RebindError(f"The query has no parameter {', '.join(unknown)}.", hint=f"It has {', '.join(params) or 'none'}.")
    replacements = []
    for pid, value in values.items():
        old = _at(tree, params[pid].path)
        replacements.append((old, _literal_for(params[pid], old, value)))
    for old, new in replacements:
        old.replace(new)
    return tree.sql(dialect=dialect)

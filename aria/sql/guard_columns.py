"""The guard's column rule (PostgreSQL): a column reference must not be a function call in disguise.

PostgreSQL reads ``o.name`` as the function call ``name(o)`` when the FROM item ``o`` has no column
``name`` (attribute notation): ``o.row_to_json``, ``c.pg_column_size``, ``o.hash_record``. On the
alias of a scalar table function any function of that type is reachable that way
(``g.pg_sleep FROM generate_series(1, 9) g``). Some SQL keywords (``user``, ``current_role``) are
functions written like column names, and every table has system columns (``xmin``, ``ctid``) that
are not business data. So, for the postgres dialect:

- ``xmin xmax cmin cmax ctid tableoid`` are rejected, qualified or not, quoted or not;
- the session keywords (``user``, ``current_role``, ``system_user``, ...) are rejected unquoted
  (quoted, ``"user"`` is an ordinary column name);
- a qualified reference ``q.name`` must resolve: ``q`` must be a FROM item visible where the
  reference stands, and ``name`` one of its columns when they are known: the business tables'
  columns (when the caller passes them), a CTE's or subquery's output columns, a table function's
  column list (``AS g(n)``; a scalar function without one has one column named after its alias).
  When a table's or subquery's columns cannot be determined, only names that are functions callable
  on a row are rejected (:func:`aria.sql.guard_names.looks_like_catalog_function`); a table function
  whose columns cannot be determined must be given a column list. When a name could stand for
  several FROM items (the same alias in nested queries, a CTE that shadows a table), it must be
  valid for every one of them.

A whole-row reference (``SELECT o FROM orders o``, ``to_jsonb(o)``) is allowed: it carries the same
business columns as ``o.*`` and no system column, and the functions applied to it are still checked
against the allow-list. Unqualified names are never function calls in PostgreSQL (apart from the
keywords above), so they need not resolve. SQLite has neither attribute notation nor these system
columns; the rule does not apply to it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from sqlglot import exp

from aria.sql.guard_names import SESSION_KEYWORDS, SYSTEM_COLUMNS, looks_like_catalog_function

TableColumns = Mapping[str, frozenset[str]]  # table name -> its column names, as the database spells them
_KNOWN_SCALAR_FUNCTIONS = frozenset({"generate_series", "unnest"})


@dataclass(frozen=True)
class Shape:
    """What a FROM item's name stands for: the columns known to exist, whether they are all of them
    (``complete``), and whether the item may be a single value (``scalar``: a table function), on
    which attribute notation reaches any function of that value's type, not only row functions."""

    label: str
    columns: frozenset[str] = frozenset()
    complete: bool = False
    scalar: bool = False


@dataclass
class _Context:
    tables: TableColumns | None
    sources: dict[int, list[tuple[str, Shape]]] = field(default_factory=dict)
    busy: set[int] = field(default_factory=set)


def column_problem(tree: exp.Expr, tables: TableColumns | None) -> str:
    """The first column reference PostgreSQL could read as something other than a business column."""
    ctx = _Context(tables)
    for column in tree.find_all(exp.Column):
        if isinstance(column.parent, exp.Collate) or isinstance(column.this, exp.Star):
            continue
        reason = _reference_problem(column, ctx)
        if reason:
            return reason
    return ""


def _reference_problem(column: exp.Column, ctx: _Context) -> str:
    name = ident_name(column.this)
    if name.lower() in SYSTEM_COLUMNS:
        return f"{name} is a PostgreSQL system column (row versions and storage, not business data); it is not allowed"
    qualifier = column.args.get("table")
    if qualifier is None:
        if name.lower() in SESSION_KEYWORDS and not column.this.quoted:
            return f"{name.upper()} reveals who is connected to the database; it is not allowed"
        return ""
    if column.args.get("catalog") is not None:
        return f"the column {column.sql(dialect='postgres')!r} names a database; use alias.column"
    alias = ident_name(qualifier)
    shapes = [shape for source, shape in _visible_sources(column, ctx) if source == alias]
    if not shapes:
        return f"{alias}.{name}: {alias!r} is not a table or alias of this query where it is used"
    return next((p for p in (_name_problem(alias, name, shape) for shape in shapes) if p), "")


def _name_problem(alias: str, name: str, shape: Shape) -> str:
    calls = f"PostgreSQL would call the function {name}() on {'the value' if shape.scalar else 'the row'} of {alias}"
    if name in shape.columns:
        return ""
    if shape.complete:
        why = f" ({calls})" if shape.scalar or looks_like_catalog_function(name) else ""
        listed = ", ".join(sorted(shape.columns)[:12])
        return f"{alias}.{name}: {shape.label} has no column {name!r}{why}; its columns: {listed}"
    if shape.scalar:
        return (f"{alias}.{name}: the columns of {shape.label} are not known; give it a column list "
                f"(... AS {alias}(col)) and write {alias}.col")
    if looks_like_catalog_function(name):
        return f"{alias}.{name} is not a column: {calls}; only columns may be referenced"
    return ""


def _visible_sources(column: exp.Expr, ctx: _Context) -> Iterator[tuple[str, Shape]]:
    """The FROM items of every query level the reference can see, innermost first (a superset)."""
    blocked = False  # inside a derived table (not LATERAL): its own level's FROM items are hidden
    child, node = column, column.parent
    while node is not None:
        if isinstance(node, exp.Subquery) and isinstance(node.parent, exp.From | exp.Join) and _is_query(node.this):
            blocked = True
        if isinstance(node, exp.Select):
            key = child.arg_key
            hidden = key in ("with", "with_") or (blocked and key in ("from", "from_", "joins"))
            if not hidden:
                yield from _sources(node, ctx)
            blocked = False
        child, node = node, node.parent


def _sources(select: exp.Select, ctx: _Context) -> list[tuple[str, Shape]]:
    key = id(select)
    if key not in ctx.sources:
        ctx.sources[key] = [named for item in _from_items(select) for named in _named_shapes(item, ctx)]
    return ctx.sources[key]


def _from_items(select: exp.Select) -> Iterator[exp.Expr]:
    from_ = select.args.get("from_") or select.args.get("from")
    if from_ is not None:
        yield from _expand(from_.this)
    for join in select.args.get("joins") or []:
        yield from _expand(join.this)


def _expand(item: exp.Expr) -> Iterator[exp.Expr]:
    """A FROM item, and the members of a parenthesised join ``(a JOIN b ...) AS j``."""
    yield item
    if isinstance(item, exp.Subquery) and not _is_query(item.this):
        yield from _expand(item.this)
    if isinstance(item, exp.Table):
        for join in item.args.get("joins") or []:
            yield from _expand(join.this)


def _named_shapes(item: exp.Expr, ctx: _Context) -> list[tuple[str, Shape]]:
    alias_node = item.args.get("alias")
    inner = item.this if isinstance(item, exp.Lateral) else item
    if isinstance(item, exp.Lateral) and alias_node is None:
        alias_node = inner.args.get("alias")
    alias = ident_name(alias_node.this) if isinstance(alias_node, exp.TableAlias) and alias_node.this else ""
    listed = _alias_columns(alias_node)
    if isinstance(inner, exp.Table) and isinstance(inner.this, exp.Identifier):
        return [(alias or ident_name(inner.this), shape) for shape in _table_shapes(inner, ctx)]
    if isinstance(inner, exp.Table | exp.Unnest | exp.Func):  # a table function, LATERAL or not
        name = alias or _function_name(inner)
        return [(name, _function_shape(inner, item, name, listed))]
    if isinstance(inner, exp.Subquery) and _is_query(inner.this):
        return [(alias, _query_shape(inner.this, f"subquery {alias}", listed, ctx))] if alias else []
    if isinstance(inner, exp.Subquery):
        return [(alias, _join_shape(inner, alias, ctx))] if alias else []
    if isinstance(inner, exp.Values):
        return [(alias, _query_shape(inner, f"VALUES {alias}", listed, ctx))] if alias else []
    return [(alias or inner.alias_or_name.lower(), Shape(f"FROM item {alias}", scalar=True))]


def _table_shapes(table: exp.Table, ctx: _Context) -> list[Shape]:
    name = ident_name(table.this)
    cte = None if table.args.get("db") is not None else _visible_cte(table, name)
    if cte is not None:
        return [_query_shape(cte.this, f"CTE {name}", _alias_columns(cte.args.get("alias")), ctx)]
    known = None if ctx.tables is None else ctx.tables.get(name)
    return [Shape(f"table {name}", known or frozenset(), complete=known is not None)]


def _visible_cte(table: exp.Table, name: str) -> exp.CTE | None:
    """The CTE a table name refers to where it stands, or None for a real table."""
    came_from: exp.CTE | None = None
    child: exp.Expr = table
    node = table.parent
    while node is not None:
        if isinstance(node, exp.CTE):
            came_from = node
        with_ = (node.args.get("with_") or node.args.get("with")) if isinstance(node, exp.Query) else None
        if isinstance(with_, exp.With):
            ctes = list(with_.expressions)
            if child is with_ and came_from is not None and not with_.args.get("recursive"):
                ctes = ctes[: next((i for i, c in enumerate(ctes) if c is came_from), len(ctes))]
            match = next((c for c in ctes if ident_name(c.args["alias"].this) == name), None)
            if match is not None:
                return match
        child, node = node, node.parent
    return None


def _query_shape(query: exp.Expr, label: str, listed: list[str], ctx: _Context) -> Shape:
    """A CTE's, subquery's or VALUES list's row: its output column names when all are determinable."""
    outputs = _outputs(query, ctx)
    if outputs is None:  # the listed names may not be all of its columns either
        return Shape(label, frozenset(listed))
    names = listed + outputs[len(listed):]
    return Shape(label, frozenset(n for n in names if n is not None), complete=None not in names)


def _outputs(query: exp.Expr, ctx: _Context) -> list[str | None] | None:
    while isinstance(query, exp.Subquery | exp.SetOperation):
        query = query.this
    if isinstance(query, exp.Values):
        first = query.expressions[0] if query.expressions else None
        width = len(first.expressions) if isinstance(first, exp.Tuple) else 1
        return [f"column{i}" for i in range(1, width + 1)]
    if not isinstance(query, exp.Select) or id(query) in ctx.busy:
        return None
    ctx.busy.add(id(query))
    try:
        names: list[str | None] = []
        for projection in query.expressions:
            expanded = _projection_names(projection, query, ctx)
            if expanded is None:
                return None
            names.extend(expanded)
        return names
    finally:
        ctx.busy.discard(id(query))


def _projection_names(projection: exp.Expr, select: exp.Select, ctx: _Context) -> list[str | None] | None:
    if isinstance(projection, exp.Alias):
        return [ident_name(projection.args["alias"])]
    if isinstance(projection, exp.Star | exp.Column) and (
        isinstance(projection, exp.Star) or isinstance(projection.this, exp.Star)
    ):
        qualifier = projection.args.get("table")
        wanted = ident_name(qualifier) if qualifier is not None else None
        shapes = [s for name, s in _sources(select, ctx) if wanted is None or name == wanted]
        if not shapes or not all(s.complete for s in shapes):
            return None
        return [c for s in shapes for c in sorted(s.columns)]
    return [_output_name(projection)]


def _output_name(projection: exp.Expr) -> str | None:
    """The name PostgreSQL gives an unaliased output column, where it is plain: a column keeps its
    name (through casts), a function call is named after the function (through OVER / FILTER).
    A wrong guess only makes ``x.name`` call ``name(x)`` for a function the query may call anyway."""
    while isinstance(projection, exp.Cast | exp.Paren | exp.Window | exp.Filter | exp.WithinGroup):
        projection = projection.this
    if isinstance(projection, exp.Column):
        return ident_name(projection.this)
    if isinstance(projection, exp.Func):
        return projection.sql(dialect="postgres").split("(", 1)[0].strip().lower() or None
    return None  # PostgreSQL names it ?column?, case, ...: not worth guessing


def _join_shape(group: exp.Subquery, alias: str, ctx: _Context) -> Shape:
    members = [shape for item in _expand(group.this) for _, shape in _named_shapes(item, ctx)]
    columns = frozenset(c for m in members for c in m.columns)
    return Shape(f"join {alias}", columns, complete=all(m.complete for m in members))


def _function_shape(item: exp.Expr, holder: exp.Expr, name: str, listed: list[str]) -> Shape:
    """A table function's row: its column list, else (generate_series, unnest of one array) one
    column named after its alias; ``holder`` is the FROM item carrying alias and ORDINALITY."""
    label = f"function {_function_name(item)}()"
    ordinality = _ordinality(item) or _ordinality(holder)
    if listed:
        return Shape(label, frozenset(listed + ordinality), complete=True, scalar=True)
    function = item.this if isinstance(item, exp.Table) else item
    arguments = item.expressions if isinstance(item, exp.Unnest) else []
    known = _function_name(item) in _KNOWN_SCALAR_FUNCTIONS and item.args.get("rows_from") is None
    if known and isinstance(function, exp.Func) and len(arguments) <= 1:
        return Shape(label, frozenset([name, *ordinality]), complete=True, scalar=True)
    return Shape(label, scalar=True)


def _ordinality(item: exp.Expr) -> list[str]:
    offset = item.args.get("offset")
    if isinstance(offset, exp.Identifier):
        return [ident_name(offset)]
    return ["ordinality"] if offset is True or item.args.get("ordinality") is True else []


def _function_name(item: exp.Expr) -> str:
    function = item.this if isinstance(item, exp.Table) else item
    if isinstance(function, exp.Anonymous):
        return str(function.name).lower()
    if isinstance(function, exp.Func):
        return function.sql(dialect="postgres").split("(", 1)[0].strip().lower()
    return item.alias_or_name.lower() or "rows_from"


def _alias_columns(alias: exp.Expr | None) -> list[str]:
    if not isinstance(alias, exp.TableAlias):
        return []
    return [ident_name(c) for c in alias.args.get("columns") or []]


def _is_query(node: exp.Expr | None) -> bool:
    return isinstance(node, exp.Query | exp.Values)


def ident_name(node: exp.Expr) -> str:
    """An identifier as PostgreSQL resolves it: quoted names keep their case, others fold to lower."""
    ident = node if isinstance(node, exp.Identifier) else node.find(exp.Identifier)
    if ident is None:
        return str(node.name).lower()
    return str(ident.this) if ident.quoted else str(ident.this).lower()

"""What the deterministic checks share: the parsed query, its scopes, and each column bound to the
schema table and column it reads (aliases, CTEs, subqueries and output aliases resolved).

>>> from aria.sql.schema import Column, Schema, Table
>>> schema = Schema("s", (Table("orders", (Column("order_id", "integer", is_primary_key=True),)),))
>>> ctx = analyze("SELECT o.order_id FROM orders o", schema)
>>> [(b.table.name, b.column.name) for b in ctx.bindings.values()]
[('orders', 'order_id')]
"""

from __future__ import annotations

from dataclasses import dataclass, field

import sqlglot
from sqlglot import exp
from sqlglot.optimizer.scope import Scope, traverse_scope, walk_in_scope

from aria.sql.schema import Column, Schema, Table


@dataclass(frozen=True)
class Binding:
    """A column reference that reads ``table.column`` of the schema."""

    table: Table
    column: Column
    alias: str  # the FROM-clause alias (or table name) it was reached through


@dataclass(frozen=True)
class Unresolved:
    """A column reference no source in reach provides."""

    node: exp.Column
    scope: Scope
    candidates: tuple[str, ...]  # column names of the tables in reach, for suggestions
    ambiguous: tuple[str, ...] = ()  # set when several sources have it


@dataclass(frozen=True)
class Context:
    """One analysed statement. ``bindings`` maps ``id(column node)`` to what it reads."""

    sql: str
    tree: exp.Expr
    schema: Schema
    dialect: str
    scopes: list[Scope]
    bindings: dict[int, Binding] = field(default_factory=dict)
    unresolved: list[Unresolved] = field(default_factory=list)
    unknown_tables: list[exp.Table] = field(default_factory=list)

    def binding(self, node: exp.Expr) -> Binding | None:
        return self.bindings.get(id(node))

    def select_scopes(self) -> list[Scope]:
        return [s for s in self.scopes if isinstance(s.expression, exp.Select)]


def parse(sql: str, dialect: str) -> exp.Expr:
    """Parse one statement (raises sqlglot.ParseError)."""
    tree = sqlglot.parse_one(sql, read=dialect)
    if tree is None:
        raise sqlglot.ParseError("empty statement")
    return tree


def analyze(sql: str, schema: Schema, *, dialect: str = "postgres") -> Context:
    """Parse and bind. Raises sqlglot errors on unparsable SQL (callers turn them into findings)."""
    tree = parse(sql, dialect)
    if dialect == "sqlite":
        tree = _sqlite_string_identifiers(tree, schema)
    ctx = Context(sql=sql, tree=tree, schema=schema, dialect=dialect, scopes=traverse_scope(tree))
    for scope in ctx.scopes:
        _bind_scope(ctx, scope)
    return ctx


def _sqlite_string_identifiers(tree: exp.Expr, schema: Schema) -> exp.Expr:
    """SQLite reads a double-quoted word that names no column as a string ("Bob"); so do we."""
    known = {c.name.lower() for t in schema.tables for c in t.columns}
    known |= {a.lower() for a in (n.alias for n in tree.find_all(exp.Alias)) if a}
    for col in list(tree.find_all(exp.Column)):
        ident = col.this
        if isinstance(ident, exp.Identifier) and ident.quoted and not col.table and ident.name.lower() not in known:
            col.replace(exp.Literal.string(ident.name))
    return tree


def scope_columns(scope: Scope) -> list[exp.Column]:
    """Column references written directly in this scope (not in its subqueries)."""
    return [n for n in walk_in_scope(scope.expression) if isinstance(n, exp.Column) and not isinstance(n.this, exp.Star)]


def _sources(scope: Scope) -> dict[str, object]:
    return {alias.lower(): node_source[1] for alias, node_source in scope.selected_sources.items()}


def _output_names(source: Scope) -> set[str] | None:
    """Column names a derived table / CTE provides; None when unknown (``*``, set operations)."""
    expr = source.expression
    if isinstance(expr, exp.SetOperation):
        expr = expr.left
        while isinstance(expr, exp.SetOperation):
            expr = expr.left
    if not isinstance(expr, exp.Select):
        return None
    alias = expr.parent.args.get("alias") if isinstance(expr.parent, (exp.Subquery, exp.CTE)) else None
    if isinstance(alias, exp.TableAlias) and alias.columns:
        return {c.name.lower() for c in alias.columns}
    if any(isinstance(s, exp.Star) or (isinstance(s, exp.Column) and isinstance(s.this, exp.Star)) for s in expr.selects):
        return None
    return {s.alias_or_name.lower() for s in expr.selects}


def _lookup(ctx: Context, alias: str, source: object, name: str) -> Binding | bool:
    """Binding when a base table has it; True when the source has it (or cannot say); False if not."""
    if isinstance(source, exp.Table):
        if not isinstance(source.this, exp.Identifier):
            return True  # table function: generate_series(...), unnest(...)
        table = ctx.schema.table(source.name)
        if table is None:
            return True  # reported once as an unknown table
        column = table.column(name)
        return Binding(table, column, alias) if column else False
    if isinstance(source, Scope):
        names = _output_names(source)
        return names is None or name.lower() in names
    return True


def _bind_scope(ctx: Context, scope: Scope) -> None:
    for source in _sources(scope).values():
        if (
            isinstance(source, exp.Table) and isinstance(source.this, exp.Identifier)
            and ctx.schema.table(source.name) is None and source.name.lower() not in _cte_names(scope)
        ):
            ctx.unknown_tables.append(source)
    for col in scope_columns(scope):
        _bind_column(ctx, scope, col)


def _cte_names(scope: Scope) -> set[str]:
    names: set[str] = set()
    current: Scope | None = scope
    while current is not None:
        names |= {n.lower() for n in current.cte_sources}
        current = current.parent
    return names


def _bind_column(ctx: Context, scope: Scope, col: exp.Column) -> None:
    name = col.name
    qualifier = col.table.lower()
    current: Scope | None = scope
    while current is not None:
        sources = _sources(current)
        if qualifier:
            if qualifier in sources:
                found = _lookup(ctx, qualifier, sources[qualifier], name)
                _record(ctx, scope, col, found, {qualifier: sources[qualifier]})
                return
        else:
            hits = {a: f for a, s in sources.items() if (f := _lookup(ctx, a, s, name)) is not False}
            if len(hits) > 1 and not _has_using(current):
                ctx.unresolved.append(Unresolved(col, scope, (), ambiguous=tuple(sorted(hits))))
                return
            if hits:
                found = next(iter(hits.values()))
                if isinstance(found, Binding):
                    ctx.bindings[id(col)] = found
                return
            if name.lower() in _select_aliases(current):
                return
        current = current.parent
    if qualifier:
        return  # an alias nobody defines: reported by the database; not a column question
    ctx.unresolved.append(Unresolved(col, scope, _candidates(ctx, scope)))


def _record(ctx: Context, scope: Scope, col: exp.Column, found: Binding | bool, sources: dict[str, object]) -> None:
    if isinstance(found, Binding):
        ctx.bindings[id(col)] = found
    elif found is False:
        names: list[str] = []
        for source in sources.values():
            if isinstance(source, exp.Table) and (table := ctx.schema.table(source.name)):
                names.extend(c.name for c in table.columns)
            elif isinstance(source, Scope):
                names.extend(_output_names(source) or ())
        ctx.unresolved.append(Unresolved(col, scope, tuple(names)))


def _has_using(scope: Scope) -> bool:
    joins = scope.expression.args.get("joins") or []
    return any(j.args.get("using") or j.args.get("kind") == "NATURAL" or j.args.get("method") for j in joins)


def _select_aliases(scope: Scope) -> set[str]:
    expr = scope.expression
    if not isinstance(expr, exp.Select):
        return set()
    return {s.alias.lower() for s in expr.selects if s.alias}


def _candidates(ctx: Context, scope: Scope) -> tuple[str, ...]:
    names: list[str] = []
    for source in _sources(scope).values():
        if isinstance(source, exp.Table) and (table := ctx.schema.table(source.name)):
            names.extend(c.name for c in table.columns)
        elif isinstance(source, Scope):
            names.extend(_output_names(source) or ())
    return tuple(names)

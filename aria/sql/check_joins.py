"""Join consistency (J): joins follow foreign keys, every table is joined, no fan-out under SUM."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

from sqlglot import exp
from sqlglot.optimizer.scope import Scope, walk_in_scope

from aria.sql.check_scope import Binding, Context
from aria.sql.findings import Finding
from aria.sql.schema import ForeignKey


@dataclass(frozen=True)
class FkEdge:
    """An equality that follows a foreign key: rows of ``one`` repeat once per matching ``many`` row."""

    many: str  # alias of the referencing side
    one: str  # alias of the referenced side
    one_to_one: bool


def conjuncts(node: exp.Expr | None) -> Iterator[exp.Expr]:
    if node is None:
        return
    if isinstance(node, exp.And):
        yield from conjuncts(node.this)
        yield from conjuncts(node.expression)
    elif isinstance(node, exp.Paren):
        yield from conjuncts(node.this)
    else:
        yield node


def join_predicates(scope: Scope) -> list[exp.Expr]:
    """Conjuncts of every ON clause and of WHERE: where joins are written."""
    select = scope.expression
    preds: list[exp.Expr] = []
    for join in select.args.get("joins") or []:
        preds.extend(conjuncts(join.args.get("on")))
    where = select.args.get("where")
    preds.extend(conjuncts(where.this if where else None))
    return preds


def _alias_of(ctx: Context, scope: Scope, col: exp.Column) -> str | None:
    binding = ctx.binding(col)
    if binding:
        return binding.alias
    if not col.table and col.name.lower() in {a.lower() for a in scope.selected_sources}:
        return col.name.lower()  # generate_series(...) AS d: d is also its column
    return col.table.lower() or None


def _fk_between(ctx: Context, a: Binding, b: Binding) -> list[ForeignKey]:
    ta, tb = a.table.name.lower(), b.table.name.lower()
    return [
        fk for fk in ctx.schema.foreign_keys
        if {fk.table.lower(), fk.ref_table.lower()} == {ta, tb} or (ta == tb == fk.table.lower() == fk.ref_table.lower())
    ]


def _pair_in(fk: ForeignKey, many: Binding, one: Binding) -> bool:
    if fk.table.lower() != many.table.name.lower() or fk.ref_table.lower() != one.table.name.lower():
        return False
    pairs = {(c.lower(), r.lower()) for c, r in zip(fk.columns, fk.ref_columns, strict=False)}
    return (many.column.name.lower(), one.column.name.lower()) in pairs


def _is_key(ctx: Context, b: Binding) -> bool:
    name = b.column.name.lower()
    in_fk = any(
        (fk.table.lower() == b.table.name.lower() and name in {c.lower() for c in fk.columns})
        or (fk.ref_table.lower() == b.table.name.lower() and name in {c.lower() for c in fk.ref_columns})
        for fk in ctx.schema.foreign_keys
    )
    return b.column.is_primary_key or in_fk


def _one_to_one(fk: ForeignKey, many: Binding) -> bool:
    pk = {c.lower() for c in many.table.primary_key}
    return bool(pk) and pk == {c.lower() for c in fk.columns}


def _classify(ctx: Context, eq: exp.EQ, a: Binding, b: Binding) -> tuple[FkEdge | None, Finding | None]:
    shown = eq.sql(dialect=ctx.dialect)
    for many, one in ((a, b), (b, a)):
        for fk in _fk_between(ctx, many, one):
            if _pair_in(fk, many, one):
                return FkEdge(many.alias, one.alias, _one_to_one(fk, many)), None
    between = _fk_between(ctx, a, b)
    fk_cols = {(fk.table.lower(), c.lower()) for fk in between for c in fk.columns}
    fk_cols |= {(fk.ref_table.lower(), c.lower()) for fk in between for c in fk.ref_columns}
    if between and any((x.table.name.lower(), x.column.name.lower()) in fk_cols for x in (a, b)):
        fk = between[0]
        right = " AND ".join(f"{fk.table}.{c} = {fk.ref_table}.{r}" for c, r in zip(fk.columns, fk.ref_columns, strict=False))
        return None, Finding(
            check="join_wrong_key", dimension="join", severity="hard",
            message=f"{shown} joins {a.table.name} and {b.table.name} on the wrong key; the relationship is {right}.",
        )
    if _is_key(ctx, a) and _is_key(ctx, b) and a.column.name.lower() == b.column.name.lower():
        return None, Finding(
            check="join_not_fk", dimension="join", severity="info",
            message=f"{shown} joins two key columns of the same name that no declared foreign key links.",
        )
    return None, Finding(
        check="join_not_fk", dimension="join", severity="warning",
        message=f"{shown} joins {a.table.name} and {b.table.name} on columns that are not a declared relationship.",
    )


def _equalities(ctx: Context, scope: Scope) -> Iterator[tuple[exp.EQ, Binding, Binding]]:
    for pred in join_predicates(scope):
        if isinstance(pred, exp.EQ) and isinstance(pred.this, exp.Column) and isinstance(pred.expression, exp.Column):
            a, b = ctx.binding(pred.this), ctx.binding(pred.expression)
            if a and b and a.alias != b.alias:
                yield pred, a, b


def fk_edges(ctx: Context, scope: Scope) -> tuple[list[FkEdge], list[Finding]]:
    edges, findings = [], []
    for eq, a, b in _equalities(ctx, scope):
        edge, finding = _classify(ctx, eq, a, b)
        if edge:
            edges.append(edge)
        if finding:
            findings.append(finding)
    return edges, findings


def join_keys(ctx: Context) -> list[Finding]:
    findings: list[Finding] = []
    for scope in ctx.select_scopes():
        findings.extend(fk_edges(ctx, scope)[1])
    return findings


def _intentional(select: exp.Select, alias: str, source: object) -> bool:
    """Sources that may stand alone: table functions, one-row aggregates, USING/NATURAL/LATERAL joins.

    An explicit CROSS JOIN of two tables is still reported: in a business question it is a bug."""
    if isinstance(source, exp.Table) and not isinstance(source.this, exp.Identifier):
        return True
    if isinstance(source, Scope) and isinstance(source.expression, exp.Select):
        inner = source.expression
        if not inner.args.get("group") and any(isinstance(s.unalias(), exp.AggFunc) for s in inner.selects):
            return True
    for join in select.args.get("joins") or []:
        if join.alias_or_name.lower() == alias and (
            join.args.get("using") or join.args.get("method")
            or isinstance(join.this, exp.Lateral)
        ):
            return True
    return False


def _find(parent: dict[str, str], a: str) -> str:
    while parent[a] != a:
        a = parent[a]
    return a


def _components(ctx: Context, scope: Scope, aliases: set[str]) -> set[str]:
    """Roots of the groups of sources that join predicates connect."""
    parent = {a: a for a in aliases}
    for pred in join_predicates(scope):
        touched = {x for c in walk_in_scope(pred) if isinstance(c, exp.Column) and (x := _alias_of(ctx, scope, c)) in parent}
        roots = [_find(parent, a) for a in touched]
        for r in roots[1:]:
            parent[r] = roots[0]
    return {_find(parent, a) for a in aliases}


def cartesian_products(ctx: Context) -> list[Finding]:
    findings = []
    for scope in ctx.select_scopes():
        select = scope.expression
        aliases = {a.lower(): s for a, (_, s) in scope.selected_sources.items()}
        if len(aliases) < 2 or not isinstance(select, exp.Select):  # select_scopes() holds only SELECTs
            continue
        lonely = [a for a, s in aliases.items() if not _intentional(select, a, s)]
        groups = _components(ctx, scope, set(aliases))
        if len(groups) > 1 and lonely:
            findings.append(Finding(
                check="cartesian_product", dimension="join", severity="hard",
                message=f"{' and '.join(sorted(groups))} are not joined by any condition, so every row of one is "
                "paired with every row of the other (a Cartesian product).",
            ))
    return findings


def _fans_out(start: str, edges: list[FkEdge]) -> FkEdge | None:
    """The first edge, reachable from ``start``, that repeats start's rows (one side -> many side)."""
    seen, frontier = {start}, [start]
    while frontier:
        node = frontier.pop()
        for edge in edges:
            if edge.one == node and edge.many not in seen:
                if not edge.one_to_one:
                    return edge
                seen.add(edge.many)
                frontier.append(edge.many)
            elif edge.many == node and edge.one not in seen:
                seen.add(edge.one)
                frontier.append(edge.one)
    return None


def fan_out(ctx: Context) -> list[Finding]:
    """SUM/AVG over a column of the "one" side after joining a "many" side double-counts."""
    findings = []
    for scope in ctx.select_scopes():
        edges, _ = fk_edges(ctx, scope)
        if not edges:
            continue
        for agg in (n for n in walk_in_scope(scope.expression) if isinstance(n, (exp.Sum, exp.Avg))):
            if isinstance(agg.this, exp.Distinct) or isinstance(agg.parent, exp.Window):
                continue
            bound = [b for c in agg.find_all(exp.Column) if (b := ctx.binding(c))]
            if not bound or len({b.alias for b in bound}) != 1:
                continue
            edge = _fans_out(bound[0].alias, edges)
            if edge:
                severity: Literal["hard", "warning"] = "hard" if isinstance(agg, exp.Sum) else "warning"
                findings.append(Finding(
                    check="join_fan_out", dimension="join", severity=severity,
                    message=f"{agg.sql(dialect=ctx.dialect)} adds up {bound[0].table.name} values after joining "
                    f"{edge.many}, which has many rows per {edge.one} row, so each value is counted several times.",
                ))
    return findings

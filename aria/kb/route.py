"""Database routing for a KB that indexes several databases as one warehouse (tables ``db.table``,
no foreign key between two databases): score each database by its best dense match and its lexical
matches, keep the best few, then retrieve inside them as usual.

>>> database_of("car_1.cars_data"), database_of("orders")
('car_1', None)
"""

from __future__ import annotations

from collections import defaultdict
from typing import Literal

from aria.kb.catalog import Catalog
from aria.kb.retrieve import ScoredDoc

DB_SEPARATOR = "."


def database_of(table: str) -> str | None:
    """The database part of a warehouse table name, or None for a plain table name."""
    head, sep, _ = table.partition(DB_SEPARATOR)
    return head if sep else None


def databases(catalog: Catalog) -> dict[str, list[str]]:
    """database -> its tables, when ``catalog`` is a warehouse of 2+ databases joined by no foreign
    key; else {} (a single database, or schema-qualified tables of one database)."""
    if "_databases" in catalog.__dict__:
        return catalog.__dict__["_databases"]
    groups: dict[str, list[str]] = defaultdict(list)
    for table in catalog.tables:
        db = database_of(table)
        if db is None:
            groups.clear()
            break
        groups[db].append(table)
    crossing = any(database_of(e.table) != database_of(e.ref_table) for e in catalog.edges)
    result = dict(groups) if len(groups) >= 2 and not crossing else {}
    catalog.__dict__["_databases"] = result
    return result


def database_scores(docs: list[ScoredDoc], *, lexical_weight: float, top_docs: int = 2) -> dict[str, float]:
    """A database's score: the mean dense similarity of its ``top_docs`` best documents (tables or
    columns), plus its summed lexical rank scaled by the best database's (a rare word tips close calls)."""
    dense: dict[str, list[float]] = defaultdict(list)
    lexical: dict[str, float] = defaultdict(float)
    for doc in docs:
        db = database_of(doc.table or "")
        if db is not None:
            dense[db].append(doc.dense)
            lexical[db] += doc.lex
    top = max(lexical.values(), default=0.0) or 1.0
    return {db: sum(sorted(values, reverse=True)[:top_docs]) / top_docs + lexical_weight * lexical[db] / top
            for db, values in dense.items()}


def pick_databases(scores: dict[str, float], *, max_databases: int, ratio: float) -> list[str]:
    """The best database, and the next ones while they score at least ``ratio`` times the best."""
    ranked = sorted(scores, key=lambda db: -scores[db])
    if not ranked:
        return []
    best = scores[ranked[0]]
    return [db for db in ranked[:max_databases] if scores[db] >= ratio * best]


RunnerUp = Literal["close", "near", "value"]


def runner_up_tier(score: float, best: float, *, close: float, ratio: float, value_ratio: float) -> RunnerUp | None:
    """How a runner-up database is kept, by the winner's margin over it (its score as a share of the best):
    ``close`` (at least ``close`` of the best: too close to call, retrieved almost like the winner),
    ``near`` (at least ``ratio``: a lean share, in case the winner is wrong), ``value`` (at least
    ``value_ratio``: the lean share, kept only when one of its sampled values occurs in the question),
    or None (the winner's margin is wide: it is committed to).

    >>> [runner_up_tier(s, 1.0, close=0.9, ratio=0.7, value_ratio=0.5) for s in (0.95, 0.8, 0.6, 0.4)]
    ['close', 'near', 'value', None]
    """
    if best <= 0:
        return None
    share = score / best
    if share >= close:
        return "close"
    if share >= ratio:
        return "near"
    return "value" if share >= value_ratio else None


def restrict(catalog: Catalog, chosen: list[str]) -> Catalog:
    """The part of ``catalog`` made of the ``chosen`` databases (cached per choice)."""
    cache: dict[tuple[str, ...], Catalog] = catalog.__dict__.setdefault("_restricted", {})
    key = tuple(sorted(chosen))
    if key not in cache:
        keep = {t for t in catalog.tables if database_of(t) in set(chosen)}
        cache[key] = Catalog(db_name=catalog.db_name, tables={t: d for t, d in catalog.tables.items() if t in keep},
                             columns={t: c for t, c in catalog.columns.items() if t in keep},
                             edges=tuple(e for e in catalog.edges if e.table in keep and e.ref_table in keep),
                             glossary=tuple(g for g in catalog.glossary if not g.get("table") or g["table"] in keep),
                             _adjacency={})
    return cache[key]

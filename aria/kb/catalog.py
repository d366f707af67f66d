"""The structure of one indexed database, read back from its KB documents: tables, columns (with
types, descriptions, sampled values), foreign keys and glossary. Loaded once per process and used
for joins, value matching and rendering; scoring stays in PostgreSQL.
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from aria.kb.context import ContextColumn, ContextTable, JoinEdge, SchemaContext, column_token_count
from aria.text import STOPWORDS, identifier_words, stem_text


@dataclass(frozen=True)
class CatalogColumn:
    table: str
    name: str
    data: dict[str, Any]
    values: tuple[str, ...] = ()  # normalized sampled values

    @property
    def is_key(self) -> bool:
        return bool(self.data.get("pk") or self.data.get("fk"))

    def to_context(self, reason: str) -> ContextColumn:
        rng = self.data.get("range")
        return ContextColumn(name=self.name, data_type=str(self.data.get("type", "")),
                             description=str(self.data.get("description") or ""),
                             examples=tuple(str(v) for v in self.data.get("examples") or []),
                             value_range=tuple(rng) if rng else None, primary_key=bool(self.data.get("pk")),
                             reason=reason)

    @cached_property
    def token_count(self) -> int:
        """Tokens of this column's line in a rendered context (the column budget's unit)."""
        return column_token_count(self.to_context(""))

    @cached_property
    def brief_token_count(self) -> int:
        """Tokens of this column's brief line (name and type: a column that only fills the budget)."""
        return column_token_count(self.to_context("fill"))


@dataclass(frozen=True)
class Catalog:
    db_name: str
    tables: dict[str, dict[str, Any]]  # table name -> table document data
    columns: dict[str, list[CatalogColumn]]  # table name -> columns in order
    edges: tuple[JoinEdge, ...]
    glossary: tuple[dict[str, Any], ...] = ()
    metrics: tuple[dict[str, Any], ...] = ()  # the semantic model's metrics (metric documents' data)
    _adjacency: dict[str, list[JoinEdge]] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        for edge in self.edges:
            self._adjacency.setdefault(edge.table, []).append(edge)
            self._adjacency.setdefault(edge.ref_table, []).append(edge)

    @cached_property
    def column_names_normalized(self) -> dict[str, list[CatalogColumn]]:
        """Stemmed spellings of every column name -> the columns so named."""
        out: dict[str, list[CatalogColumn]] = {}
        for cols in self.columns.values():
            for col in cols:
                for spelling in {stem_text(col.name), stem_text(identifier_words(col.name))}:
                    if spelling:
                        out.setdefault(spelling, []).append(col)
        return out

    @cached_property
    def column_words(self) -> dict[tuple[str, str], frozenset[str]]:
        """(table, column) -> the stemmed words a manager may use for it: its name's words, its
        description, and the term and meaning of every glossary entry that points at it (stopwords dropped)."""
        glossed: dict[tuple[str, str], list[str]] = {}
        for entry in self.glossary:
            if entry.get("table") and entry.get("column"):
                glossed.setdefault((str(entry["table"]), str(entry["column"])), []).append(
                    f"{entry.get('term') or ''} {entry.get('meaning') or ''}")
        out: dict[tuple[str, str], frozenset[str]] = {}
        for table, cols in self.columns.items():
            for col in cols:
                text = " ".join([identifier_words(col.name), str(col.data.get("description") or ""),
                                 *glossed.get((table, col.name), [])])
                out[(table, col.name)] = frozenset(w for w in stem_text(text).split() if w not in STOPWORDS and len(w) > 1)
        return out

    @cached_property
    def word_weights(self) -> dict[str, float]:
        """Inverse document frequency of each word of :attr:`column_words` over the columns: a word
        few columns use says more about which column is meant."""
        counts: dict[str, int] = {}
        for words in self.column_words.values():
            for word in words:
                counts[word] = counts.get(word, 0) + 1
        n = max(len(self.column_words), 1)
        return {w: math.log(1 + n / c) for w, c in counts.items()}

    @cached_property
    def column_stems(self) -> dict[tuple[str, str], str]:
        """(table, column) -> the column name's words, stemmed (``setCode`` -> ``set code``)."""
        return {(table, col.name): stem_text(identifier_words(col.name))
                for table, cols in self.columns.items() for col in cols}

    @cached_property
    def table_stems(self) -> dict[str, str]:
        """table -> its name's words without the database part, stemmed (``db.Player_Attributes`` ->
        ``player attribute``)."""
        return {table: stem_text(identifier_words(table.rsplit(".", 1)[-1])) for table in self.columns}

    @cached_property
    def table_names_normalized(self) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for name in self.tables:
            short = name.rsplit(".", 1)[-1]
            for spelling in {stem_text(short), stem_text(identifier_words(short))}:
                if spelling:
                    out.setdefault(spelling, []).append(name)
        return out

    def edges_between(self, tables: set[str]) -> list[JoinEdge]:
        return [e for e in self.edges if e.table in tables and e.ref_table in tables and e.table != e.ref_table]

    def connect(self, selected: list[str], *, max_hops: int = 3, scores: dict[str, float] | None = None) -> list[str]:
        """Tables to add so that ``selected`` is joined through foreign keys (shortest paths; among
        equally short ones, through the tables retrieval scored higher)."""
        top = max((scores or {}).values(), default=0.0) or 1.0
        self.__dict__["_entry_cost"] = {t: 0.5 * (1 - v / top) for t, v in (scores or {}).items()}
        if not selected:
            return []
        connected = {selected[0]}
        added: list[str] = []
        for table in selected[1:]:
            if table in connected:
                continue
            path = self._shortest_path(table, connected, max_hops)
            for step in path:
                if step not in connected and step not in selected:
                    added.append(step)
            connected.update(path)
            connected.add(table)
        return added

    def bridges(self, selected: list[str], *, scores: dict[str, float], limit: int) -> list[str]:
        """Link tables (holding foreign keys to two selected tables) for pairs of selected tables that no
        selected table links yet, e.g. ``disp`` between ``client`` and ``account``; best-scored first."""
        chosen = set(selected)
        refs: dict[str, set[str]] = {}
        for edge in self.edges:
            if edge.table != edge.ref_table and edge.ref_table in chosen:
                refs.setdefault(edge.table, set()).add(edge.ref_table)
        linked = {frozenset(p) for t, r in refs.items() if t in chosen for p in _pairs(r)}
        direct = {frozenset((e.table, e.ref_table)) for e in self.edges}
        added: list[str] = []
        for table in sorted(refs, key=lambda t: -scores.get(t, 0.0)):
            if table in chosen or len(added) >= limit:
                continue
            fresh = [p for p in _pairs(refs[table]) if p not in linked and p not in direct]
            if fresh:
                added.append(table)
                linked.update(fresh)
        return added

    def _shortest_path(self, start: str, targets: set[str], max_hops: int) -> list[str]:
        """Cheapest FK path from ``start`` to any of ``targets``. Passing through a table that both
        neighbours reference (A -> X <- B, a shared dimension) costs more than through a link table
        (A <- X -> B), which is how many-to-many relationships are joined."""
        best: dict[tuple[str, bool], float] = {(start, False): 0.0}
        previous: dict[tuple[str, bool], tuple[str, bool] | None] = {(start, False): None}
        heap: list[tuple[float, int, str, bool]] = [(0.0, 0, start, False)]
        while heap:
            cost, hops, node, arrived_as_ref = heapq.heappop(heap)
            if node in targets and node != start:
                return self._unwind(previous, (node, arrived_as_ref))
            if hops >= max_hops or cost > best.get((node, arrived_as_ref), float("inf")):
                continue
            for edge in self._adjacency.get(node, []):
                forward = edge.table == node  # node holds the foreign key; other is referenced
                other = edge.ref_table if forward else edge.table
                step = 1.0 + (0.6 if arrived_as_ref and not forward else 0.0)
                step += self.__dict__.get("_entry_cost", {}).get(other, 0.5)
                state = (other, forward)
                if cost + step < best.get(state, float("inf")):
                    best[state] = cost + step
                    previous[state] = (node, arrived_as_ref)
                    heapq.heappush(heap, (cost + step, hops + 1, other, forward))
        return []

    @staticmethod
    def _unwind(previous: dict[tuple[str, bool], tuple[str, bool] | None], state: tuple[str, bool]) -> list[str]:
        path: list[str] = []
        cursor: tuple[str, bool] | None = state
        while cursor is not None:
            path.append(cursor[0])
            cursor = previous[cursor]
        return path

    def full_context(self) -> SchemaContext:
        """The whole schema as a context (used when it fits the token budget, and as the yardstick)."""
        tables = tuple(self.context_table(name, [(c, "full") for c in cols]) for name, cols in self.columns.items())
        return SchemaContext(db_name=self.db_name, tables=tables, join_paths=self.edges, full_schema=True)

    def context_table(self, name: str, columns: list[tuple[CatalogColumn, str]], score: float = 0.0) -> ContextTable:
        data = self.tables.get(name, {})
        return ContextTable(name=name, description=str(data.get("description") or ""),
                            grain=str(data.get("grain") or ""), score=score,
                            columns=tuple(c.to_context(reason) for c, reason in columns))

    @cached_property
    def full_token_count(self) -> int:
        return self.full_context().token_count


def _pairs(tables: set[str]) -> list[frozenset[str]]:
    ordered = sorted(tables)
    return [frozenset((a, b)) for i, a in enumerate(ordered) for b in ordered[i + 1 :]]


def catalog_from_rows(db_name: str, rows: list[dict[str, Any]]) -> Catalog:
    """Assemble a catalog from ``documents`` rows (kind, doc_key, table_name, column_name, vals, data)."""
    tables: dict[str, dict[str, Any]] = {}
    columns: dict[str, list[CatalogColumn]] = {}
    edges: list[JoinEdge] = []
    glossary: list[dict[str, Any]] = []
    metrics: list[dict[str, Any]] = []
    for row in rows:
        kind, data = row["kind"], row["data"]
        if kind == "table" and "#" not in row["doc_key"]:
            tables[row["table_name"]] = data
            columns.setdefault(row["table_name"], [])
        elif kind == "column":
            values = tuple(v for v in (row["vals"] or "").split(" | ") if v)
            columns.setdefault(row["table_name"], []).append(
                CatalogColumn(table=row["table_name"], name=row["column_name"], data=data, values=values))
        elif kind == "relation":
            edges.append(JoinEdge(table=data["table"], columns=tuple(data["columns"]), ref_table=data["ref_table"],
                                  ref_columns=tuple(data["ref_columns"])))
        elif kind == "glossary":
            glossary.append(data)
        elif kind == "metric":
            metrics.append(data)
    for name, data in tables.items():  # keep the table's own column order
        order = {c: i for i, c in enumerate(data.get("columns") or [])}
        columns[name].sort(key=lambda c: order.get(c.name, len(order)))
    return Catalog(db_name=db_name, tables=tables, columns=columns, edges=tuple(edges), glossary=tuple(glossary),
                   metrics=tuple(metrics))

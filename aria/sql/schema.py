"""A database schema as plain data: what the KB indexes and the deterministic checks reason over.

Built from a live PostgreSQL, a SQLite file, a Spider ``tables.json`` or BIRD metadata by the
functions in :mod:`aria.db.introspect`; used by :mod:`aria.kb` and :mod:`aria.sql`.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Column:
    name: str
    data_type: str  # as the engine names it: integer, text, timestamptz, numeric(10,2), ...
    nullable: bool = True
    is_primary_key: bool = False
    description: str = ""  # meaning, value meanings, units (from a descriptions file)
    sample_values: tuple[str, ...] = ()  # distinct values of low-cardinality columns
    value_range: tuple[str, str] | None = None  # (min, max) of the others


@dataclass(frozen=True)
class ForeignKey:
    table: str
    columns: tuple[str, ...]
    ref_table: str
    ref_columns: tuple[str, ...]
    declared: bool = True  # False: declared in a descriptions file, not in the database


@dataclass(frozen=True)
class Table:
    name: str
    columns: tuple[Column, ...]
    description: str = ""
    grain: str = ""  # "one row per ..."
    row_count: int | None = None

    def column(self, name: str) -> Column | None:
        lowered = name.lower()
        return next((c for c in self.columns if c.name.lower() == lowered), None)

    @property
    def primary_key(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.columns if c.is_primary_key)


@dataclass(frozen=True)
class Schema:
    """Tables and relationships of one database. ``name`` identifies it (db_id, or a schema name)."""

    name: str
    tables: tuple[Table, ...]
    foreign_keys: tuple[ForeignKey, ...] = ()
    dialect: str = "postgres"  # sqlglot dialect name: postgres or sqlite
    _by_name: dict[str, Table] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        self._by_name.update({t.name.lower(): t for t in self.tables})

    def table(self, name: str) -> Table | None:
        return self._by_name.get(name.lower())

    def neighbours(self, table: str) -> list[ForeignKey]:
        lowered = table.lower()
        return [fk for fk in self.foreign_keys if lowered in (fk.table.lower(), fk.ref_table.lower())]

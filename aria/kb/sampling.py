"""Sampling a live database for the KB: distinct values of low-cardinality text/code columns, and
(min, max) of the others. Binary, JSON, XML and array columns are never sampled.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import psycopg
from psycopg import sql

from aria.sql.schema import Column, Schema, Table

log = logging.getLogger(__name__)

MAX_DISTINCT = 200  # a column with at most this many distinct values is sampled value by value
MAX_VALUE_CHARS = 80
_NEVER = ("bytea", "blob", "json", "jsonb", "xml", "[]", "array", "tsvector", "vector", "binary", "geometry")
_TEXTUAL = ("char", "text", "varchar", "character", "bool", "enum", "citext", "name", "smallint")
_RANGED = ("int", "numeric", "decimal", "real", "double", "float", "date", "time", "serial", "money")

Query = Callable[[str, Sequence[Any]], list[tuple[Any, ...]]]


def sampleable(column: Column) -> bool:
    lowered = column.data_type.lower()
    return not any(marker in lowered for marker in _NEVER)


def _is_textual(column: Column) -> bool:
    return any(marker in column.data_type.lower() for marker in _TEXTUAL) or not column.data_type


def _is_ranged(column: Column) -> bool:
    return any(marker in column.data_type.lower() for marker in _RANGED)


def _show(value: Any) -> str | None:
    if value is None or isinstance(value, bytes | bytearray | memoryview):
        return None
    text = str(value).strip()
    if text[:1] in "{[" and text[-1:] in "}]":  # JSON kept in a text column: never sampled
        return None
    return text[:MAX_VALUE_CHARS] if text else None


def sample_column(query: Query, table_ref: str, column: Column, quote: Callable[[str], str]) -> Column:
    """``column`` with its sampled values (low cardinality) or its range (the others)."""
    if not sampleable(column):
        return column
    col = quote(column.name)
    if _is_textual(column):
        rows = query(f"SELECT {col}, count(*) AS n FROM {table_ref} WHERE {col} IS NOT NULL "
                     f"GROUP BY {col} ORDER BY n DESC, {col} LIMIT {MAX_DISTINCT + 1}", ())
        if 0 < len(rows) <= MAX_DISTINCT:
            values = tuple(v for v in (_show(r[0]) for r in rows) if v is not None)
            return replace(column, sample_values=values)
    if _is_ranged(column) or _is_textual(column):
        row = query(f"SELECT min({col}), max({col}) FROM {table_ref}", ())
        low, high = (_show(row[0][0]), _show(row[0][1])) if row else (None, None)
        if low is not None and high is not None:
            return replace(column, value_range=(low, high))
    return column


def _sample_table(query: Query, table_ref: str, table: Table, quote: Callable[[str], str]) -> Table:
    columns = tuple(sample_column(query, table_ref, c, quote) for c in table.columns)
    count = query(f"SELECT count(*) FROM {table_ref}", ())
    return replace(table, columns=columns, row_count=int(count[0][0]) if count else table.row_count)


def sample_postgres(conninfo: str, schema: Schema) -> Schema:
    """``schema`` (introspected from the PG schema ``schema.name``) with sampled values and ranges."""
    with psycopg.connect(conninfo, autocommit=True) as conn:
        conn.execute("SET statement_timeout = 20000")

        def query(statement: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
            return conn.execute(statement.encode(), params).fetchall()  # type: ignore[arg-type]

        def quote(name: str) -> str:
            return sql.Identifier(name).as_string(conn)

        tables = tuple(
            _sample_table(query, f"{quote(schema.name)}.{quote(t.name)}", t, quote) for t in schema.tables
        )
    return replace(schema, tables=tables, _by_name={})


def sample_sqlite(path: Path, schema: Schema) -> Schema:
    """``schema`` (introspected from the SQLite file ``path``) with sampled values and ranges."""
    conn = sqlite3.connect(f"file:{path.resolve()}?mode=ro", uri=True)
    conn.text_factory = lambda b: b.decode("utf-8", errors="replace")

    def query(statement: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
        return conn.execute(statement, params).fetchall()

    def quote(name: str) -> str:
        return '"' + name.replace('"', '""') + '"'

    try:
        tables = tuple(_sample_table(query, quote(t.name), t, quote) for t in schema.tables)
    finally:
        conn.close()
    return replace(schema, tables=tables, _by_name={})

"""Build a :class:`~aria.sql.schema.Schema` from a live PostgreSQL, a SQLite file, or a Spider/BIRD
``tables.json``.

>>> from pathlib import Path
>>> schemas = load_spider_tables(Path("../shared/bench/spider_dev/tables.json"))  # doctest: +SKIP
>>> schemas["concert_singer"].table("singer").primary_key  # doctest: +SKIP
('Singer_ID',)
"""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import psycopg

from aria.errors import ConfigError, DatabaseUnavailable
from aria.sql.schema import Column, ForeignKey, Schema, Table

log = logging.getLogger(__name__)

_PG_COLUMNS = """
SELECT c.relname, a.attname, format_type(a.atttypid, a.atttypmod), NOT a.attnotnull,
       coalesce(col_description(c.oid, a.attnum), ''), coalesce(obj_description(c.oid, 'pg_class'), ''),
       c.reltuples
FROM pg_class c
JOIN pg_namespace n ON n.oid = c.relnamespace
JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
WHERE n.nspname = %s AND c.relkind IN ('r', 'p', 'v', 'm', 'f')
ORDER BY c.relname, a.attnum
"""

_PG_KEYS = """
SELECT con.contype, cl.relname, ref.relname,
       ARRAY(SELECT a.attname FROM unnest(con.conkey) WITH ORDINALITY k(n, i)
             JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.n ORDER BY k.i),
       ARRAY(SELECT a.attname FROM unnest(con.confkey) WITH ORDINALITY k(n, i)
             JOIN pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.n ORDER BY k.i)
FROM pg_constraint con
JOIN pg_class cl ON cl.oid = con.conrelid
JOIN pg_namespace n ON n.oid = cl.relnamespace
LEFT JOIN pg_class ref ON ref.oid = con.confrelid
WHERE n.nspname = %s AND con.contype IN ('p', 'f')
ORDER BY cl.relname, con.conname
"""


def introspect_postgres(conninfo: str, schema: str) -> Schema:
    """Tables, columns (types, nullability, comments), primary and foreign keys of one PG schema."""
    try:
        with psycopg.connect(conninfo, connect_timeout=10) as conn:
            conn.read_only = True
            columns = conn.execute(_PG_COLUMNS, (schema,)).fetchall()
            keys = conn.execute(_PG_KEYS, (schema,)).fetchall()
    except psycopg.OperationalError as err:
        raise DatabaseUnavailable(
            f"Cannot read the schema {schema!r}: {str(err).strip().splitlines()[0] if str(err).strip() else err}",
            hint="Check the database URL and that the server is running.",
        ) from err
    if not columns:
        raise ConfigError(
            f"The PostgreSQL schema {schema!r} has no tables.",
            hint="Seed the database (`aria db seed`) or set ARIA_BUSINESS_SCHEMA to the schema holding the tables.",
        )
    primary = {(row[1], col) for row in keys if row[0] == "p" for col in row[3]}
    foreign = tuple(
        ForeignKey(table=row[1], columns=tuple(row[3]), ref_table=row[2], ref_columns=tuple(row[4]))
        for row in keys
        if row[0] == "f"
    )
    return Schema(name=schema, tables=_pg_tables(columns, primary), foreign_keys=foreign, dialect="postgres")


def _pg_tables(rows: Sequence[tuple[Any, ...]], primary: set[tuple[str, str]]) -> tuple[Table, ...]:
    by_table: dict[str, list[tuple[Any, ...]]] = {}
    for row in rows:
        by_table.setdefault(row[0], []).append(row)
    tables = []
    for name, table_rows in by_table.items():
        cols = tuple(
            Column(name=r[1], data_type=r[2], nullable=bool(r[3]), is_primary_key=(name, r[1]) in primary,
                   description=r[4])
            for r in table_rows
        )
        estimate = table_rows[0][6]
        row_count = int(estimate) if estimate is not None and estimate >= 0 else None
        tables.append(Table(name=name, columns=cols, description=table_rows[0][5], row_count=row_count))
    return tuple(tables)


def introspect_sqlite(path: Path) -> Schema:
    """Tables, columns and keys of a SQLite file, opened read-only."""
    if not path.is_file():
        raise ConfigError(f"The SQLite database {path} does not exist.", hint="Check the path or the bench_dir setting.")
    conn = sqlite3.connect(f"file:{path.resolve()}?mode=ro", uri=True)
    try:
        names = [r[0] for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%' ORDER BY rowid"
        )]
        tables = tuple(_sqlite_table(conn, name) for name in names)
        lookup = {t.name.lower(): t for t in tables}
        foreign = tuple(fk for name in names for fk in _sqlite_foreign_keys(conn, name, lookup))
    except sqlite3.DatabaseError as err:
        raise ConfigError(f"Cannot read the SQLite database {path}: {err}.", hint="Is it a SQLite file?") from err
    finally:
        conn.close()
    return Schema(name=path.stem, tables=tables, foreign_keys=foreign, dialect="sqlite")


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _sqlite_table(conn: sqlite3.Connection, name: str) -> Table:
    info = conn.execute(f"PRAGMA table_info({_quote(name)})").fetchall()
    cols = tuple(
        Column(name=r[1], data_type=(r[2] or "").lower(), nullable=not r[3] and not r[5], is_primary_key=bool(r[5]))
        for r in info
    )
    return Table(name=name, columns=cols)


def _sqlite_foreign_keys(conn: sqlite3.Connection, name: str, lookup: dict[str, Table]) -> list[ForeignKey]:
    groups: dict[int, list[tuple[Any, ...]]] = {}
    for row in conn.execute(f"PRAGMA foreign_key_list({_quote(name)})").fetchall():
        groups.setdefault(row[0], []).append(row)
    keys = []
    for rows in groups.values():
        rows.sort(key=lambda r: r[1])
        ref = lookup.get(str(rows[0][2]).lower())
        if ref is None:
            log.debug("skipping foreign key %s -> %s: no such table", name, rows[0][2])
            continue
        ref_cols = tuple(_ref_column(ref, r[4], i) for i, r in enumerate(rows))
        keys.append(ForeignKey(table=name, columns=tuple(r[3] for r in rows), ref_table=ref.name, ref_columns=ref_cols))
    return keys


def _ref_column(ref: Table, name: str | None, position: int) -> str:
    """The referenced column as the table spells it; a missing name means the primary key."""
    if name is None:
        pk = ref.primary_key
        return pk[position] if position < len(pk) else ""
    col = ref.column(name)
    return col.name if col else name


def load_spider_tables(path: Path) -> dict[str, Schema]:
    """Every database of a Spider-format ``tables.json``, by ``db_id`` (dialect sqlite)."""
    if not path.is_file():
        raise ConfigError(f"The schema file {path} does not exist.", hint="Check the bench_dir setting.")
    entries = json.loads(path.read_text(encoding="utf-8"))
    return {entry["db_id"]: _spider_schema(entry) for entry in entries}


def load_bird_tables(path: Path) -> dict[str, Schema]:
    """Every database of BIRD's ``dev_tables.json`` (the same format as Spider's)."""
    return load_spider_tables(path)


def _flatten(keys: Iterable[int | list[int]]) -> set[int]:
    flat: set[int] = set()
    for key in keys:
        flat.update(key if isinstance(key, list) else [key])
    return flat


def _spider_schema(entry: dict[str, Any]) -> Schema:
    table_names: list[str] = entry["table_names_original"]
    nl_names: list[str] = entry.get("table_names") or table_names
    pks = _flatten(entry.get("primary_keys", []))
    cols_by_table: dict[int, list[Column]] = {i: [] for i in range(len(table_names))}
    col_ref: dict[int, tuple[str, str]] = {}
    for idx, ((t_idx, name), ctype) in enumerate(zip(entry["column_names_original"], entry["column_types"], strict=True)):
        if t_idx < 0:
            continue
        cols_by_table[t_idx].append(Column(name=name, data_type=ctype, nullable=idx not in pks, is_primary_key=idx in pks))
        col_ref[idx] = (table_names[t_idx], name)
    tables = tuple(
        Table(name=name, columns=tuple(cols_by_table[i]),
              description=nl_names[i] if nl_names[i].replace(" ", "_").lower() != name.lower() else "")
        for i, name in enumerate(table_names)
    )
    foreign = tuple(
        ForeignKey(table=col_ref[a][0], columns=(col_ref[a][1],), ref_table=col_ref[b][0], ref_columns=(col_ref[b][1],))
        for a, b in entry.get("foreign_keys", [])
        if a in col_ref and b in col_ref
    )
    return Schema(name=entry["db_id"], tables=tables, foreign_keys=foreign, dialect="sqlite")

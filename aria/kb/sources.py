"""Where a KB's schema comes from: the live database + ``seed_db/descriptions.yaml``, a SQLite
file, Spider's ``tables.json`` or BIRD's ``dev_tables.json`` + ``dev_metadata.json``.

BIRD: only the official description fields (description, value_description) by default;
``ai_description`` (LLM-written) only for the enriched condition.
"""

from __future__ import annotations

import json
import logging
from dataclasses import replace
from pathlib import Path
from typing import Any

import yaml

from aria.db.introspect import load_bird_tables, load_spider_tables
from aria.errors import KnowledgeBaseError
from aria.sql.schema import Column, ForeignKey, Schema, Table

log = logging.getLogger(__name__)


def read_descriptions(path: Path) -> dict[str, Any]:
    """The descriptions file: ``tables``, ``relationships`` and ``glossary``."""
    if not path.is_file():
        raise KnowledgeBaseError(f"The descriptions file {path} does not exist.",
                                 hint="Create it (see seed_db/descriptions.yaml) or build without it.")
    try:
        loaded = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except yaml.YAMLError as err:
        raise KnowledgeBaseError(f"The descriptions file {path} is not valid YAML: {err}.",
                                 hint="Fix the YAML syntax.") from err
    if not isinstance(loaded, dict):
        raise KnowledgeBaseError(f"The descriptions file {path} must be a mapping with 'tables'.",
                                 hint="See seed_db/descriptions.yaml for the format.")
    return loaded


def apply_descriptions(schema: Schema, descriptions: dict[str, Any]) -> tuple[Schema, list[dict[str, Any]]]:
    """``schema`` with table/column descriptions, grains and extra relationships; and the glossary."""
    tables_info: dict[str, Any] = {str(k).lower(): v or {} for k, v in (descriptions.get("tables") or {}).items()}
    tables = []
    for table in schema.tables:
        info = tables_info.get(table.name.lower(), {})
        col_info = {str(k).lower(): str(v) for k, v in (info.get("columns") or {}).items()}
        columns = tuple(replace(c, description=col_info.get(c.name.lower(), c.description)) for c in table.columns)
        tables.append(replace(table, columns=columns, description=str(info.get("description") or table.description),
                              grain=str(info.get("grain") or table.grain)))
    foreign = list(schema.foreign_keys)
    declared = {(fk.table.lower(), fk.columns, fk.ref_table.lower(), fk.ref_columns) for fk in foreign}
    for rel in descriptions.get("relationships") or []:
        fk = _relationship(rel)
        if fk and (fk.table.lower(), fk.columns, fk.ref_table.lower(), fk.ref_columns) not in declared:
            foreign.append(fk)
    glossary = [dict(g) for g in descriptions.get("glossary") or [] if isinstance(g, dict) and g.get("term")]
    return replace(schema, tables=tuple(tables), foreign_keys=tuple(foreign), _by_name={}), glossary


def _relationship(rel: dict[str, Any]) -> ForeignKey | None:
    try:
        left_table, left_col = str(rel["from"]).rsplit(".", 1)
        right_table, right_col = str(rel["to"]).rsplit(".", 1)
    except (KeyError, ValueError):
        log.warning("ignoring malformed relationship %r (want from: t.c, to: t.c)", rel)
        return None
    return ForeignKey(table=left_table, columns=(left_col,), ref_table=right_table, ref_columns=(right_col,),
                      declared=False)


def spider_schemas(tables_json: Path) -> dict[str, Schema]:
    """Spider databases with their natural-language column names as descriptions."""
    schemas = load_spider_tables(tables_json)
    for entry in json.loads(tables_json.read_text(encoding="utf-8")):
        nl = {(t, o.lower()): n for (t, o), (_, n) in zip(entry["column_names_original"], entry["column_names"],
                                                          strict=True)}
        names = entry["table_names_original"]
        schema = schemas[entry["db_id"]]
        tables = tuple(
            replace(t, columns=tuple(replace(c, description=_nl_if_new(nl.get((names.index(t.name), c.name.lower())), c.name))
                                     for c in t.columns))
            for t in schema.tables
        )
        schemas[entry["db_id"]] = replace(schema, tables=tables, _by_name={})
    return schemas


def _nl_if_new(nl: str | None, name: str) -> str:
    if not nl or nl.replace(" ", "").lower() == name.replace("_", "").lower():
        return ""
    return nl


def bird_schemas(tables_json: Path, metadata_json: Path | None, *, enriched: bool = False) -> dict[str, Schema]:
    """BIRD databases with official descriptions (and ai_description when ``enriched``), samples, ranges."""
    schemas = load_bird_tables(tables_json)
    if metadata_json is None or not metadata_json.is_file():
        return schemas
    for meta in json.loads(metadata_json.read_text(encoding="utf-8")):
        schema = schemas.get(meta["name"])
        if schema is not None:
            schemas[meta["name"]] = _with_bird_metadata(schema, meta, enriched=enriched)
    return schemas


def _with_bird_metadata(schema: Schema, meta: dict[str, Any], *, enriched: bool) -> Schema:
    by_table = {t["name"].lower(): t for t in meta.get("tables", [])}
    tables = []
    for table in schema.tables:
        tmeta = by_table.get(table.name.lower(), {})
        cmeta = {c["name"].lower(): c for c in tmeta.get("columns", [])}
        columns = tuple(_bird_column(c, cmeta.get(c.name.lower(), {}), enriched=enriched) for c in table.columns)
        description = table.description
        if enriched and tmeta.get("ai_description"):
            description = str(tmeta["ai_description"]).split("\n")[0]
        tables.append(replace(table, columns=columns, description=description, row_count=tmeta.get("row_count")))
    return replace(schema, tables=tuple(tables), _by_name={})


def _bird_column(column: Column, meta: dict[str, Any], *, enriched: bool) -> Column:
    parts = [str(meta.get("original_name") or ""), str(meta.get("description") or ""),
             str(meta.get("value_description") or "")]
    if enriched and meta.get("ai_description"):
        parts.append(str(meta["ai_description"]).split("\nStats:")[0])
    description = _join_distinct(parts, column.name)
    samples = tuple(str(v) for v in meta.get("sample_values") or [] if v is not None and str(v).strip())
    low, high = meta.get("min_value"), meta.get("max_value")
    value_range = (str(low), str(high)) if low is not None and high is not None else None
    if (meta.get("unique_count") or 0) > 200 and not _is_text(column):
        samples = ()  # identifiers and measures: a range says more than ten arbitrary numbers
    return replace(column, description=description, sample_values=samples, value_range=value_range)


def _is_text(column: Column) -> bool:
    return any(m in column.data_type.lower() for m in ("text", "char"))


def _join_distinct(parts: list[str], name: str) -> str:
    seen: list[str] = []
    for part in (" ".join(p.split()) for p in parts):
        if part and part.lower() != name.lower() and all(part.lower() != s.lower() for s in seen):
            seen.append(part)
    return "; ".join(seen)


def merged_schema(name: str, schemas: dict[str, Schema]) -> Schema:
    """Every database of a set as one warehouse: tables named ``db_id.table``."""
    tables: list[Table] = []
    foreign: list[ForeignKey] = []
    for db_id, schema in schemas.items():
        tables += [replace(t, name=f"{db_id}.{t.name}") for t in schema.tables]
        foreign += [replace(fk, table=f"{db_id}.{fk.table}", ref_table=f"{db_id}.{fk.ref_table}")
                    for fk in schema.foreign_keys]
    return Schema(name=name, tables=tuple(tables), foreign_keys=tuple(foreign), dialect="sqlite")

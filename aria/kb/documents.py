"""Knowledge-base documents built from a :class:`~aria.sql.schema.Schema` and a descriptions file.

Documents are compact so that each fits MiniLM's 256 word pieces: one per column (name, type,
description, a few example values), one per table (description, grain, column names; chunked
when the table is wide), one per relationship, one per glossary entry and one per governed metric
of the semantic model (:mod:`aria.kb.metric_docs`). ``lexical`` is the
Python-normalized text PostgreSQL indexes with the 'simple' full-text config; ``values`` the
normalized sampled values used for value matching.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any, Literal

from aria.sql.schema import Column, ForeignKey, Schema, Table
from aria.text import identifier_words, normalize

Kind = Literal["table", "column", "glossary", "example", "relation", "metric"]
Source = Literal["schema", "sample", "descriptions", "example", "enrichment"]

COLUMNS_PER_TABLE_CHUNK = 30
EXAMPLES_IN_TEXT = 5
MAX_DESCRIPTION_CHARS = 400


@dataclass(frozen=True)
class Document:
    kind: Kind
    db_name: str
    key: str  # unique within db_name: "table:orders", "column:orders.total_vnd", "glossary:doanh thu", ...
    source: Source
    text: str  # what is embedded
    lexical: str = ""  # normalized words indexed by full-text search
    values: str = ""  # normalized sampled values, " | "-separated, for value matching
    table_name: str | None = None
    column_name: str | None = None
    data: dict[str, Any] = field(default_factory=dict)

    @property
    def content_hash(self) -> str:
        payload = json.dumps([self.kind, self.source, self.text, self.lexical, self.values, self.data],
                             sort_keys=True, ensure_ascii=False, default=str)
        return hashlib.sha256(payload.encode()).hexdigest()


def embedding_key(model: str, text: str) -> str:
    """The embedding cache key: the model and the exact embedded text."""
    return hashlib.sha256(f"{model}\x00{text}".encode()).hexdigest()


def schema_fingerprint(schema: Schema) -> str:
    """A hash of the structure (tables, columns, types, keys): a KB is only used for its own database."""
    parts = sorted(
        f"{t.name.lower()}.{c.name.lower()}:{c.data_type.lower()}:{int(c.is_primary_key)}"
        for t in schema.tables
        for c in t.columns
    )
    parts += sorted(f"{fk.table}.{fk.columns}->{fk.ref_table}.{fk.ref_columns}".lower() for fk in schema.foreign_keys)
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:16]


def _short(text: str, limit: int = MAX_DESCRIPTION_CHARS) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rsplit(" ", 1)[0] + "…"


def column_data(table: Table, column: Column, schema: Schema) -> dict[str, Any]:
    refs = [
        f"{fk.ref_table}.{fk.ref_columns[fk.columns.index(column.name)]}"
        for fk in schema.foreign_keys
        if fk.table.lower() == table.name.lower() and column.name in fk.columns
    ]
    return {
        "type": column.data_type,
        "nullable": column.nullable,
        "pk": column.is_primary_key,
        "fk": refs,
        "description": column.description,
        "examples": list(column.sample_values[:EXAMPLES_IN_TEXT]),
        "range": list(column.value_range) if column.value_range else None,
    }


def column_document(schema: Schema, table: Table, column: Column, *, source: Source = "schema") -> Document:
    data = column_data(table, column, schema)
    described = _short(column.description)
    words = identifier_words(column.name)
    text = f"{table.name}.{column.name} ({words}, {column.data_type})"
    if described:
        text += f": {described}"
    if data["examples"]:
        text += ". Values: " + ", ".join(str(v)[:40] for v in data["examples"])
    elif column.value_range:
        text += f". Range: {column.value_range[0]} to {column.value_range[1]}"
    lexical = normalize(f"{column.name} {words} {described}")
    values = " | ".join(dict.fromkeys(normalize(str(v)) for v in column.sample_values if normalize(str(v))))
    return Document(
        kind="column", db_name=schema.name, key=f"column:{table.name}.{column.name}", source=source, text=text,
        lexical=lexical, values=values, table_name=table.name, column_name=column.name, data=data,
    )


def table_documents(schema: Schema, table: Table, *, source: Source = "schema") -> list[Document]:
    """One document per table; wide tables get one more per chunk of column names."""
    names = [c.name for c in table.columns]
    chunks = [names[i : i + COLUMNS_PER_TABLE_CHUNK] for i in range(0, len(names), COLUMNS_PER_TABLE_CHUNK)] or [[]]
    head = f"Table {table.name} ({identifier_words(table.name)})"
    if table.description:
        head += f": {_short(table.description, 300)}"
    if table.grain:
        head += f" Grain: {_short(table.grain, 120)}"
    data = {"description": table.description, "grain": table.grain, "row_count": table.row_count,
            "columns": names, "primary_key": list(table.primary_key)}
    docs = []
    for i, chunk in enumerate(chunks):
        key = f"table:{table.name}" if i == 0 else f"table:{table.name}#{i + 1}"
        text = f"{head}. Columns: {', '.join(chunk)}" if chunk else f"{head}. No columns."
        lexical = normalize(f"{table.name} {identifier_words(table.name)} {table.description} {table.grain}")
        docs.append(Document(kind="table", db_name=schema.name, key=key, source=source, text=text, lexical=lexical,
                             table_name=table.name, data=data if i == 0 else {"chunk": i + 1}))
    return docs


def relation_document(schema: Schema, fk: ForeignKey) -> Document:
    left = ", ".join(f"{fk.table}.{c}" for c in fk.columns)
    right = ", ".join(f"{fk.ref_table}.{c}" for c in fk.ref_columns)
    return Document(
        kind="relation", db_name=schema.name, key=f"relation:{left}->{right}",
        source="schema" if fk.declared else "descriptions", text=f"{left} references {right}",
        lexical=normalize(f"{fk.table} {fk.ref_table}"), table_name=fk.table,
        data={"table": fk.table, "columns": list(fk.columns), "ref_table": fk.ref_table,
              "ref_columns": list(fk.ref_columns), "declared": fk.declared},
    )


def glossary_document(db_name: str, entry: dict[str, Any], *, source: Source = "descriptions") -> Document:
    term = str(entry["term"])
    where = ".".join(str(p) for p in (entry.get("table"), entry.get("column")) if p)
    text = f"{term}: {_short(str(entry.get('meaning', '')), 300)}"
    if where:
        text += f" ({where}"
        text += f" = {entry['value']})" if entry.get("value") is not None else ")"
    return Document(
        kind="glossary", db_name=db_name, key=f"glossary:{normalize(term)}", source=source, text=text,
        lexical=normalize(f"{term} {entry.get('meaning', '')}"), values=normalize(term),
        table_name=entry.get("table"), column_name=entry.get("column"),
        data={k: entry.get(k) for k in ("term", "lang", "meaning", "table", "column", "value", "sql_hint")},
    )


def metric_document(db_name: str, entry: dict[str, Any]) -> Document:
    """A governed metric: its labels and synonyms, description and how it is computed (the text a
    manager's words and the generator both meet)."""
    name = str(entry["name"])
    synonyms = ", ".join(str(s) for s in entry.get("synonyms") or [])
    text = f"Metric {name}: {entry.get('label_vi', '')} / {entry.get('label_en', '')}"
    text += f" ({synonyms})" if synonyms else ""
    text += f". {_short(str(entry['description']), 200)}" if entry.get("description") else ""
    text += f" Computed as {_short(str(entry.get('computed', '')), 300)} [{entry.get('unit', '')}]."
    phrases = [str(p) for p in (entry.get("label_vi"), entry.get("label_en"), *(entry.get("synonyms") or [])) if p]
    return Document(
        kind="metric", db_name=db_name, key=f"metric:{name}", source="descriptions", text=text,
        lexical=normalize(f"{identifier_words(name)} {' '.join(phrases)} {entry.get('description', '')}"),
        values=" | ".join(dict.fromkeys(normalize(p) for p in phrases if normalize(p))),
        table_name=entry.get("table"), data=dict(entry),
    )


def schema_documents(schema: Schema, glossary: list[dict[str, Any]] | None = None,
                     metrics: list[dict[str, Any]] | None = None) -> list[Document]:
    """Every document describing ``schema`` (tables, columns, relations), its glossary and its metrics."""
    docs: list[Document] = []
    for table in schema.tables:
        docs += table_documents(schema, table)
        docs += [column_document(schema, table, column, source=_column_source(column)) for column in table.columns]
    docs += [relation_document(schema, fk) for fk in schema.foreign_keys]
    docs += [glossary_document(schema.name, entry) for entry in glossary or []]
    docs += [metric_document(schema.name, entry) for entry in metrics or []]
    return _dedupe(docs)


def _column_source(column: Column) -> Source:
    if column.description:
        return "descriptions"
    return "sample" if column.sample_values or column.value_range else "schema"


def _dedupe(docs: list[Document]) -> list[Document]:
    """Keys are unique per database; a case-only clash keeps the first one."""
    seen: dict[str, Document] = {}
    for doc in docs:
        seen.setdefault(doc.key, doc)
    return list(seen.values())

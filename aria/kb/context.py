"""What retrieval hands to the generator: a :class:`SchemaContext`, rendered in M-Schema style.

>>> ctx = SchemaContext(db_name="shop", tables=(ContextTable(name="orders", columns=(
...     ContextColumn(name="order_id", data_type="bigint", primary_key=True),)),))
>>> print(ctx.render())
【DB_ID】 shop
# Table: orders
[
(order_id:bigint, Primary Key)
]
"""

from __future__ import annotations

from functools import cached_property, lru_cache
from typing import Any

from pydantic import BaseModel, ConfigDict

RENDERED_EXAMPLES = 3
BRIEF_REASONS = frozenset({"fill"})  # columns that only fill the column budget: rendered as name and type


@lru_cache(maxsize=1)
def _encoding() -> Any:
    import bpe_openai

    return bpe_openai.get_encoding("cl100k_base")


def count_tokens(text: str) -> int:
    """cl100k_base tokens of ``text``."""
    return len(_encoding().encode(text))


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True)


class ContextColumn(_Frozen):
    name: str
    data_type: str = ""
    description: str = ""
    examples: tuple[str, ...] = ()
    value_range: tuple[str, str] | None = None
    primary_key: bool = False
    reason: str = ""  # retrieved, fill, named, value, key, glossary, label, name, person, date, full

    @property
    def brief(self) -> bool:
        """Only filling the column budget (not named, matched, a key nor a table's best): name and type."""
        return self.reason in BRIEF_REASONS


class ContextTable(_Frozen):
    name: str
    description: str = ""
    grain: str = ""
    columns: tuple[ContextColumn, ...] = ()
    score: float = 0.0

    def column(self, name: str) -> ContextColumn | None:
        return next((c for c in self.columns if c.name.lower() == name.lower()), None)


class JoinEdge(_Frozen):
    table: str
    columns: tuple[str, ...]
    ref_table: str
    ref_columns: tuple[str, ...]

    def render(self) -> str:
        left = ", ".join(f"{self.table}.{c}" for c in self.columns)
        right = ", ".join(f"{self.ref_table}.{c}" for c in self.ref_columns)
        return f"{left} = {right}"


class ValueMatch(_Frozen):
    table: str
    column: str
    value: str


class GlossaryHit(_Frozen):
    term: str
    meaning: str = ""
    table: str | None = None
    column: str | None = None
    value: str | None = None
    sql_hint: str | None = None


class MetricHit(_Frozen):
    """A governed metric of the semantic model that the question names (its agreed definition)."""

    name: str
    label: str = ""  # "Doanh thu / Revenue"
    unit: str = ""
    computed: str = ""  # e.g. "sum(case when status = 'COMPLETED' then total_vnd end) over orders"
    description: str = ""

    def render(self) -> str:
        text = f"{self.name} ({self.label}, {self.unit}): {self.computed}"
        return f"{text}. {self.description}" if self.description else text


class SchemaContext(_Frozen):
    db_name: str
    tables: tuple[ContextTable, ...] = ()
    join_paths: tuple[JoinEdge, ...] = ()
    matched_values: tuple[ValueMatch, ...] = ()
    glossary_hits: tuple[GlossaryHit, ...] = ()
    metric_hits: tuple[MetricHit, ...] = ()  # for the generator's prompt; not part of render()
    full_schema: bool = False
    k: int = 0
    m: int = 0
    budget: int = 0  # tokens of retrieved columns (0: m columns per table)

    def table(self, name: str) -> ContextTable | None:
        return next((t for t in self.tables if t.name.lower() == name.lower()), None)

    @property
    def table_names(self) -> list[str]:
        return [t.name for t in self.tables]

    @property
    def column_names(self) -> list[str]:
        """Every column as ``table.column``."""
        return [f"{t.name}.{c.name}" for t in self.tables for c in t.columns]

    def render(self) -> str:
        """M-Schema: per table its columns (type, key, description, examples); then foreign keys."""
        lines = [f"【DB_ID】 {self.db_name}"]
        for table in self.tables:
            head = f"# Table: {table.name}"
            extra = "; ".join(p for p in (table.description, f"grain: {table.grain}" if table.grain else "") if p)
            lines.append(f"{head}, {extra}" if extra else head)
            lines.append("[")
            lines.append(",\n".join(_render_column(c) for c in table.columns))
            lines.append("]")
        if self.join_paths:
            lines.append("【Foreign keys】")
            lines += [edge.render() for edge in self.join_paths]
        if self.matched_values:
            lines.append("【Matched values】")
            lines += [f"{v.table}.{v.column} = {v.value!r}" for v in self.matched_values]
        if self.glossary_hits:
            lines.append("【Glossary】")
            lines += [_render_glossary(g) for g in self.glossary_hits]
        return "\n".join(lines)

    @cached_property
    def token_count(self) -> int:
        return count_tokens(self.render())


def _render_column(column: ContextColumn) -> str:
    parts = [f"{column.name}:{column.data_type}" if column.data_type else column.name]
    if column.primary_key:
        parts.append("Primary Key")
    if column.brief:
        return "(" + ", ".join(parts) + ")"
    if column.description:
        parts.append(column.description)
    if column.examples:
        parts.append("Examples: [" + ", ".join(column.examples[:RENDERED_EXAMPLES]) + "]")
    elif column.value_range:
        parts.append(f"Range: [{column.value_range[0]}, {column.value_range[1]}]")
    return "(" + ", ".join(parts) + ")"


def column_token_count(column: ContextColumn) -> int:
    """cl100k tokens of the column's line in :meth:`SchemaContext.render` (with its separator)."""
    return count_tokens(_render_column(column)) + 1


def _render_glossary(hit: GlossaryHit) -> str:
    where = ".".join(p for p in (hit.table, hit.column) if p)
    text = f"{hit.term}: {hit.meaning}"
    if where:
        text += f" [{where}{' = ' + repr(hit.value) if hit.value is not None else ''}]"
    if hit.sql_hint:
        text += f" SQL: {hit.sql_hint}"
    return text

"""Tolerant extraction of JSON and SQL from model text."""

from __future__ import annotations

import pytest

from aria.errors import ModelError
from aria.llm import EntailmentVerdict, extract_json, extract_sql
from aria.llm.parsing import OutputFormatError


@pytest.mark.parametrize(
    "text",
    [
        '{"relevance": 8, "completeness": 7, "missing": ""}',
        'Here is my verdict:\n```json\n{"relevance": 8, "completeness": 7, "missing": ""}\n```\nHope it helps.',
        'Verdict: {"relevance": 8, "completeness": 7, "missing": ""} -- I weighed {both} aspects.',
        '```\n{"relevance": 8, "completeness": 7, "missing": ""}\n```',
        'The set {1, 2} is not JSON, but {"relevance": 8, "completeness": 7, "missing": ""} is.',
    ],
)
def test_extract_json_finds_the_first_object(text: str) -> None:
    assert extract_json(text) == {"relevance": 8, "completeness": 7, "missing": ""}


def test_extract_json_prefers_the_fenced_object() -> None:
    text = 'Example: {"a": 1}\n```json\n{"b": 2}\n```'
    assert extract_json(text) == {"b": 2}


@pytest.mark.parametrize("text", ["I think it is fine.", "{'relevance': 8}", "```json\n[1, 2]\n```"])
def test_extract_json_rejects_text_without_an_object(text: str) -> None:
    with pytest.raises(OutputFormatError, match="no JSON object"):
        extract_json(text)


def test_entailment_verdict_reads_and_writes_schema_by_its_json_name() -> None:
    verdict = EntailmentVerdict.model_validate({"schema": 4, "data": 2, "diagnosis": "zeros"})
    assert verdict.schema_ == 4
    assert verdict.model_dump(by_alias=True) == {"schema": 4, "data": 2, "diagnosis": "zeros"}
    assert EntailmentVerdict(schema_=5, data=5).schema_ == 5


@pytest.mark.parametrize(
    ("text", "sql"),
    [
        ("```sql\nSELECT 1;\n```", "SELECT 1"),
        ("Đây là truy vấn:\n```sql\nSELECT a\nFROM t;;\n```\nGiải thích: ...", "SELECT a\nFROM t"),
        ("```\nWITH x AS (SELECT 1) SELECT * FROM x\n```", "WITH x AS (SELECT 1) SELECT * FROM x"),
        ("The query is:\nSELECT count(*) FROM orders;", "SELECT count(*) FROM orders"),
        ("  select 2  ", "select 2"),
        ("```json\n{}\n```\n```sql\nSELECT 3\n```", "SELECT 3"),
    ],
)
def test_extract_sql(text: str, sql: str) -> None:
    assert extract_sql(text) == sql


def test_extract_sql_without_sql_is_a_model_error() -> None:
    with pytest.raises(ModelError, match="without a SQL query"):
        extract_sql("I cannot answer that from this schema.")

"""With a model: a question the parser hands over goes first to the semantic_query role (real PostgreSQL,
scripted model); what the model cannot express, or expresses wrongly twice, goes to the Reflect-SQL loops."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

import pytest

from aria.config import Settings
from aria.db.connect import Targets
from aria.reflect.engine import Engine
from aria.semantic.query import SemanticQuery, TimeRange, ValueFilter
from tests.conftest import TEST_AS_OF
from tests.integration.engine_support import ENTAILED, GOOD_SQL, build_kb_settings, engine_with, happy_script

QUESTION = "Tuần trước khu ngoài trời hốt bạc cỡ nào?"  # slang ("hốt bạc": raked in money) the parser does not know
LAST_WEEK = {"start": "2026-11-02", "end": "2026-11-08"}
OUTDOOR_REVENUE = {"expressible": True, "metrics": ["revenue"], "group_by": [],
                   "filters": [{"dimension": "dining_table__area_code", "values": ["OU"], "exclude": False}],
                   "time": LAST_WEEK, "order_by": [], "limit": None}
UNKNOWN_METRIC = {**OUTDOOR_REVENUE, "metrics": ["terrace_takings"]}


@pytest.fixture(scope="module")
def kb_ready(settings: Settings, seeded: Targets) -> Settings:
    return build_kb_settings(settings, seeded)


@pytest.fixture()
def ask(kb_ready: Settings, seeded: Targets) -> Iterator[Any]:
    engines: list[Engine] = []

    def run(script: dict[str, list[Any]]) -> tuple[Engine, Any]:
        engine = engine_with(kb_ready, seeded, script, semantic=True)
        engines.append(engine)
        assert engine.deps.semantic is not None
        parsed = engine.deps.semantic.parse(QUESTION, language="vi", now=TEST_AS_OF)
        assert parsed.query is None, "the parser must hand this question over"
        return engine, engine.ask(QUESTION)

    yield run
    for engine in engines:
        engine.close()


def _steps(answer: Any, loop: str) -> list[Any]:
    return [e for e in answer.trace.events if e.loop == loop]


def test_the_models_semantic_query_answers_with_the_compiled_sql(ask: Any) -> None:
    engine, answer = ask({"semantic_query": [OUTDOOR_REVENUE], "entailment_judge": [ENTAILED]})
    expected = engine.deps.semantic.compile(SemanticQuery(
        metrics=["revenue"], filters=[ValueFilter(dimension="dining_table__area_code", values=("OU",))],
        time=TimeRange(start=dt.date(2026, 11, 2), end=dt.date(2026, 11, 8)), language="vi"))
    assert answer.status == "answered"
    assert answer.sql == expected.sql
    assert answer.semantic_query and "Doanh thu" in answer.semantic_query and "2026-11-02" in answer.semantic_query
    assert answer.rows and answer.rows[0][0] is not None
    generate = [e for e in answer.trace.events if e.step == "semantic_generate"]
    assert len(generate) == 1 and generate[0].llm_calls == 1 and generate[0].sql == expected.sql
    judged = [e for e in answer.trace.events if e.step == "judge_entailment"]
    assert len(judged) == 1 and judged[0].scores["e"].value >= 3
    assert answer.llm_calls == 2  # the semantic query and the entailment judge
    assert not _steps(answer, "retrieval") and not _steps(answer, "synthesis")


def test_an_unknown_metric_is_asked_again_once_then_the_loops_answer(ask: Any) -> None:
    engine, answer = ask(happy_script(semantic_query=[UNKNOWN_METRIC, UNKNOWN_METRIC]))
    generate = [e for e in answer.trace.events if e.step == "semantic_generate"]
    assert [e.iteration for e in generate] == [1, 2]
    assert all("terrace_takings" in (e.error or "") for e in generate)
    assert answer.status == "answered" and answer.sql == GOOD_SQL
    assert answer.semantic_query is None
    assert _steps(answer, "retrieval") and _steps(answer, "synthesis")
    assert engine.deps.models.generator.chat.used("semantic_query") == 2


def test_a_fixed_second_answer_is_used(ask: Any) -> None:
    _, answer = ask({"semantic_query": [UNKNOWN_METRIC, OUTDOOR_REVENUE], "entailment_judge": [ENTAILED]})
    assert answer.status == "answered" and answer.semantic_query
    assert not _steps(answer, "retrieval")


def test_cannot_express_goes_to_the_loops(ask: Any) -> None:
    engine, answer = ask(happy_script(semantic_query=[{"expressible": False, "reason": "no metric for terraces"}]))
    generate = [e for e in answer.trace.events if e.step == "semantic_generate"]
    assert len(generate) == 1 and "no metric for terraces" in generate[0].detail
    assert answer.status == "answered" and answer.sql == GOOD_SQL
    assert engine.deps.models.generator.chat.used("semantic_query") == 1


def test_a_script_without_the_role_falls_through_to_the_loops(ask: Any) -> None:
    _, answer = ask(happy_script())
    generate = [e for e in answer.trace.events if e.step == "semantic_generate"]
    assert len(generate) == 1 and generate[0].error
    assert answer.status == "answered" and answer.sql == GOOD_SQL


def test_a_failed_entailment_goes_to_the_loops(ask: Any) -> None:
    poor = {"schema": 1, "data": 1, "diagnosis": "not what was asked"}
    _, answer = ask(happy_script(semantic_query=[OUTDOOR_REVENUE], entailment_judge=[poor, ENTAILED]))
    assert answer.status == "answered" and answer.sql == GOOD_SQL and answer.semantic_query is None
    assert len([e for e in answer.trace.events if e.step == "judge_entailment"]) == 2


def test_the_kb_holds_one_document_per_metric_and_retrieval_finds_them(kb_ready: Settings, seeded: Targets) -> None:
    from aria.kb.embed import get_embedder
    from aria.kb.service import open_kb
    from aria.reflect.deps import render_glossary

    kb = open_kb(kb_ready, seeded.kb, embedder=get_embedder())
    try:
        assert len(kb.catalog.metrics) == 162
        revenue = next(m for m in kb.catalog.metrics if m["name"] == "revenue")
        assert "total_vnd" in revenue["computed"] and "COMPLETED" in revenue["computed"]
        ctx = kb.retrieve("doanh thu theo danh mục", k=3, m=8)
        names = [hit.name for hit in ctx.metric_hits]
        assert names[0] == "dish_sales" and "revenue" in names  # the category split's revenue, then revenue
        assert "Metrics" in render_glossary(ctx) and "line_total_vnd" in render_glossary(ctx)
        assert "Metric" not in ctx.render()  # the schema context (and its token count) is unchanged
        assert not kb.retrieve("Bàn số 5 ngồi ở khu nào?", k=3, m=8).metric_hits
    finally:
        kb.store.close()

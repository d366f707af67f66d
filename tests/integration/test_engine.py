"""The Reflect-SQL engine, one test per branch of the flow, on the seeded database with scripted
(test) models standing in for the real LLMs."""

from __future__ import annotations

import pytest
from engine_support import (
    ENTAILED,
    GOOD_SQL,
    RETRIEVAL_OK,
    SQL_OK,
    build_kb_settings,
    engine_with,
    happy_script,
)

from aria.config import Settings
from aria.db.connect import Targets
from aria.errors import KnowledgeBaseError
from aria.kb.enrich import list_revisions
from aria.reflect.answer import Answer, AskOptions
from aria.reflect.trace import TraceEvent

QUESTION = "Món bán chạy nhất?"


@pytest.fixture(scope="module")
def engine_settings(settings: Settings, seeded: Targets) -> Settings:
    return build_kb_settings(settings, seeded)


def ask(settings: Settings, targets: Targets, script: dict | None, question: str = QUESTION,
        options: AskOptions | None = None) -> Answer:
    engine = engine_with(settings, targets, script)
    try:
        return engine.ask(question, options=options or AskOptions(reuse=False))
    finally:
        engine.close()


def steps(answer: Answer, step: str) -> list[TraceEvent]:
    return [e for e in answer.trace.events if e.step == step]


def test_happy_path_answers_with_scores_in_the_trace(engine_settings: Settings, seeded: Targets) -> None:
    answer = ask(engine_settings, seeded, happy_script())
    assert answer.status == "answered", answer.answer_text
    assert answer.columns == ["mon", "so_luong"] and 0 < len(answer.rows) <= 5
    assert answer.llm_calls == 4  # retrieval judge, generator, SQL judge, entailment judge
    scores = {k for e in answer.trace.events for k in e.scores}
    assert {"score_r", "relevance", "completeness", "s", "column", "granularity", "join", "logic", "e", "schema",
            "data"} <= scores
    assert answer.log_id is not None
    assert "test model" in answer.trace.model_label
    assert answer.answer_text.startswith("Có ")  # one sentence in the question's language


def test_low_score_r_rewrites_the_question_and_grows_k(engine_settings: Settings, seeded: Targets) -> None:
    rewritten = "top 5 menu items by quantity in completed orders over the last 7 days"
    script = happy_script(
        retrieval_judge=[{"relevance": 3, "completeness": 2, "missing": "the period and the measure"}, RETRIEVAL_OK],
        query_rewriter=[{"question": rewritten}],
    )
    answer = ask(engine_settings, seeded, script)
    assert answer.status == "answered"
    assert steps(answer, "rewrite")[0].rewritten_question == rewritten
    first, second = steps(answer, "retrieve")
    assert "k=3" in first.detail and "k=5" in second.detail
    assert steps(answer, "judge_retrieval")[0].scores["score_r"].value == pytest.approx(0.6 * 3 + 0.4 * 2)


def test_guard_rejection_is_repaired(engine_settings: Settings, seeded: Targets) -> None:
    script = happy_script(sql_generator=["SELECT name_vi FROM menu_items FOR UPDATE"], sql_repairer=[GOOD_SQL])
    answer = ask(engine_settings, seeded, script)
    assert answer.status == "answered"
    guard = steps(answer, "guard")
    assert guard[0].error and guard[0].error.startswith("guard:")
    assert steps(answer, "repair")[0].sql == GOOD_SQL


def test_explain_error_is_repaired(engine_settings: Settings, seeded: Targets) -> None:
    broken = GOOD_SQL.replace("SUM(oi.qty)", "SUM(oi.void_reason)")  # a type error only the database sees
    answer = ask(engine_settings, seeded, happy_script(sql_generator=[broken], sql_repairer=[GOOD_SQL]))
    assert answer.status == "answered"
    explain = steps(answer, "explain")
    assert explain[0].error and "sum(text)" in explain[0].error
    assert answer.sql == GOOD_SQL


def test_low_s_regenerates_with_the_diagnosis(engine_settings: Settings, seeded: Targets) -> None:
    low = {"column": 4, "granularity": 3, "join": 4, "logic": 3, "diagnosis": "counts orders, not portions"}
    script = happy_script(sql_judge=[low, SQL_OK], sql_generator=[GOOD_SQL, GOOD_SQL])
    answer = ask(engine_settings, seeded, script)
    assert answer.status == "answered"
    judged = steps(answer, "judge_sql")
    assert judged[0].scores["s"].value < 5 <= judged[1].scores["s"].value
    assert len(steps(answer, "generate")) == 2


def test_low_e_goes_back_to_loop_1(engine_settings: Settings, seeded: Targets) -> None:
    script = happy_script(
        retrieval_judge=[RETRIEVAL_OK, RETRIEVAL_OK], sql_generator=[GOOD_SQL, GOOD_SQL], sql_judge=[SQL_OK, SQL_OK],
        entailment_judge=[{"schema": 2, "data": 1, "diagnosis": "the question asks for one dish"}, ENTAILED],
    )
    answer = ask(engine_settings, seeded, script)
    assert answer.status == "answered"
    assert len(steps(answer, "retrieve")) == 2 and len(steps(answer, "judge_entailment")) == 2
    assert steps(answer, "judge_entailment")[0].scores["e"].value < 3


@pytest.mark.parametrize(
    ("loop", "script"),
    [
        ("retrieval", {"retrieval_judge": [{"relevance": 2, "completeness": 2, "missing": "x"}] * 3,
                       "query_rewriter": [{"question": "q1"}, {"question": "q2"}]}),
        ("synthesis", {"retrieval_judge": [RETRIEVAL_OK], "sql_generator": [GOOD_SQL] * 3,
                       "sql_judge": [{"column": 2, "granularity": 2, "join": 2, "logic": 2, "diagnosis": "no"}] * 3}),
        ("entailment", {"retrieval_judge": [RETRIEVAL_OK] * 2, "sql_generator": [GOOD_SQL] * 2,
                        "sql_judge": [SQL_OK] * 2, "entailment_judge": [{"schema": 1, "data": 1, "diagnosis": "no"}] * 2}),
    ],
)
def test_iteration_limits_end_not_confident_with_the_best_attempt(
    engine_settings: Settings, seeded: Targets, loop: str, script: dict
) -> None:
    answer = ask(engine_settings, seeded, script)
    assert answer.status == "not_confident"
    assert "could not answer confidently" in ask(engine_settings, seeded, script, question="Which dish sells best?").answer_text
    if loop != "retrieval":
        assert answer.sql == GOOD_SQL  # the best attempt is kept
    assert not answer.rows


def test_enrichment_only_after_confirmation(engine_settings: Settings, seeded: Targets) -> None:
    engine = engine_with(engine_settings, seeded, happy_script())
    try:
        before = len(list_revisions(engine.deps.kb.store))
        answer = engine.ask(QUESTION, options=AskOptions(reuse=False))
        assert len(list_revisions(engine.deps.kb.store)) == before  # answering learns nothing
        preview = engine.propose(answer)
        assert len(list_revisions(engine.deps.kb.store)) == before  # nor does previewing
        assert preview.descriptions[0].column == "qty" and preview.aliases[0].term == "món bán chạy"
        revision_ids = engine.confirm(preview, confirmed_by="test")
        assert len(revision_ids) == 3  # description, alias, verified example
        assert len(list_revisions(engine.deps.kb.store)) == before + 3
    finally:
        engine.close()


def test_no_enrichment_after_a_failed_check(engine_settings: Settings, seeded: Targets) -> None:
    script = {"retrieval_judge": [{"relevance": 1, "completeness": 1, "missing": "x"}] * 3,
              "query_rewriter": [{"question": "q"}] * 2}
    engine = engine_with(engine_settings, seeded, script)
    try:
        answer = engine.ask(QUESTION, options=AskOptions(reuse=False))
        with pytest.raises(KnowledgeBaseError, match="passed every check"):
            engine.propose(answer)
    finally:
        engine.close()


def test_hard_finding_blocks_sql_the_judge_liked(engine_settings: Settings, seeded: Targets) -> None:
    """SmartRestaurant's version of the paper's Table 4: an integer ratio over a divisor that can be 0."""
    truncating = ("SELECT o.order_id, o.total_vnd / o.guest_cnt AS per_guest_vnd FROM orders AS o "
                  "ORDER BY o.order_id LIMIT 20")
    fixed = ("SELECT o.order_id, CAST(o.total_vnd AS numeric) / o.guest_cnt AS per_guest_vnd FROM orders AS o "
             "WHERE o.guest_cnt > 0 ORDER BY o.order_id LIMIT 20")
    script = happy_script(sql_generator=[truncating, fixed], sql_judge=[SQL_OK, SQL_OK])
    answer = ask(engine_settings, seeded, script, question="Mỗi khách chi bao nhiêu tiền trong từng hóa đơn?")
    assert answer.status == "answered"
    first = steps(answer, "judge_sql")[0]
    assert any(f.check == "integer_division" and f.severity == "hard" for f in first.findings)
    assert first.scores["logic"].value <= 2  # capped whatever the judge said
    assert answer.sql == fixed


def test_ablations_switch_loops_off(engine_settings: Settings, seeded: Targets) -> None:
    script = {"sql_generator": [GOOD_SQL]}
    options = AskOptions(reuse=False, retrieval_loop=False, sql_reflection=False, entailment=False)
    answer = ask(engine_settings, seeded, script, options=options)
    assert answer.status == "answered" and answer.llm_calls == 1
    assert {e.step for e in answer.trace.events} == {"retrieve", "generate", "execute"}


def test_model_failure_is_a_clean_error(engine_settings: Settings, seeded: Targets) -> None:
    script = {"retrieval_judge": [{"_error": "timeout"}, {"_error": "timeout"}]}
    answer = ask(engine_settings, seeded, script)
    assert answer.status == "error" and "timed out" in (answer.error or "")
    assert answer.log_id is not None  # the failure is in the query log too


def test_malformed_output_is_reasked_once_then_fails_cleanly(engine_settings: Settings, seeded: Targets) -> None:
    ok = ask(engine_settings, seeded, happy_script(retrieval_judge=["not json at all", RETRIEVAL_OK]))
    assert ok.status == "answered"
    bad = ask(engine_settings, seeded, {"retrieval_judge": ["not json", "still not json"]})
    assert bad.status == "error" and "unusable answer twice" in (bad.error or "")


def test_no_model_says_so_and_lists_relevant_tables(engine_settings: Settings, seeded: Targets) -> None:
    answer = ask(engine_settings, seeded, None, question="Doanh thu theo phương thức thanh toán tuần này?")
    assert answer.status == "no_model" and answer.llm_calls == 0
    assert answer.relevant_tables and "ARIA_LLM" in answer.answer_text


def test_bad_questions_are_rejected_before_any_work(engine_settings: Settings, seeded: Targets) -> None:
    for question, expected in (("   ", "trống"), ("x" * 10_000, "2000"), ("昨天晚上的营业额是多少？", "tiếng Việt")):
        answer = ask(engine_settings, seeded, happy_script(), question=question)
        assert answer.status == "error" and expected in answer.answer_text
        assert answer.llm_calls == 0

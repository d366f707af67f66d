"""Verified-query reuse on the real seeded database, with no model: the golden examples are the
verified queries; paraphrases with new values are answered by re-binding them, near misses are not.

The KB is built once for the module, in its own uniquely named schema.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest
import sqlglot
from sqlglot import exp

from aria.config import Settings
from aria.db.connect import Targets
from aria.eval.metric import same_result
from aria.eval.reuse_bench import build_reuse_kb
from aria.kb.embed import get_embedder
from aria.reflect.answer import Answer, AskOptions
from aria.reflect.engine import Engine
from aria.reflect.factory import open_engine

TABLE_SQL = """
SELECT m.name_vi AS dish, k.tkt_status AS ticket_status,
       round(extract(epoch FROM business_now() - k.fired_at) / 60) AS waiting_min
FROM tables t
JOIN orders o ON o.table_id = t.table_id
JOIN kitchen_tickets k ON k.order_id = o.order_id
JOIN order_items oi ON oi.order_item_id = k.order_item_id
JOIN menu_items m ON m.item_id = oi.item_id
WHERE t.table_no = 3 AND o.status IN ('OPEN', 'IN_PROGRESS')
  AND k.served_at IS NULL AND k.tkt_status <> 'VD'
ORDER BY waiting_min DESC, k.ticket_id
"""
DISH_SQL = """
SELECT coalesce(sum(oi.qty), 0) AS portions_sold, coalesce(sum(oi.line_total_vnd), 0) AS sales_vnd
FROM order_items oi
JOIN orders o ON o.order_id = oi.order_id
JOIN menu_items m ON m.item_id = oi.item_id
WHERE m.name_vi = 'Cà phê muối'
  AND o.status = 'COMPLETED' AND oi.line_status NOT IN ('VD', 'CXL')
  AND o.opened_at::date = (business_now() - interval '1 day')::date
"""
TIPS_SQL = ("SELECT coalesce(sum(tip_vnd), 0) AS tips_vnd FROM payments WHERE pay_status = 'OK' "
            "AND paid_at::date = (business_now() - interval '1 day')::date")


@pytest.fixture(scope="module")
def engine(seeded: Targets, settings: Settings) -> Iterator[Engine]:
    reuse_settings = settings.model_copy(update={"kb_schema": f"kb_{uuid.uuid4().hex[:10]}"})
    embedder = get_embedder(reuse_settings.embedding_model)
    report = build_reuse_kb(reuse_settings, seeded, embedder)
    assert report.examples > 50
    built = open_engine(reuse_settings, targets=seeded, embedder=embedder, models=None)
    yield built
    built.close()


def gold_rows(engine: Engine, sql: str) -> list[tuple]:
    return [tuple(r) for r in engine.deps.executor.run(sql).rows]


def reuse_detail(answer: Answer) -> str:
    return next(e.detail for e in answer.trace.events if e.step == "reuse_match")


def test_a_new_table_number_is_reused_with_that_number(engine: Engine) -> None:
    answer = engine.ask("Bàn số 3 còn những món nào chưa lên, đã chờ bao lâu rồi?")
    assert answer.status == "reused", answer.answer_text
    assert answer.sql is not None and "t.table_no = 3" in answer.sql
    assert answer.rows, "table 3 has dishes still waiting in the seeded data"
    assert same_result([tuple(r) for r in answer.rows], gold_rows(engine, TABLE_SQL))
    assert answer.llm_calls == 0
    assert reuse_detail(answer).startswith(f"reused verified query #{answer.reused_query_id}")


def test_another_dish_is_reused_correctly(engine: Engine) -> None:
    answer = engine.ask("How many Cà phê muối did we sell yesterday?")
    assert answer.status == "reused", answer.answer_text
    assert answer.sql is not None and "'Cà phê muối'" in answer.sql and "Trà sữa nướng" not in answer.sql
    assert same_result([tuple(r) for r in answer.rows], gold_rows(engine, DISH_SQL))
    assert answer.rows[0][0] > 0
    assert answer.llm_calls == 0


def test_last_month_becomes_this_month(engine: Engine) -> None:
    answer = engine.ask("How much VAT did we collect this month?")
    assert answer.status == "reused", answer.answer_text
    gold = ("SELECT sum(tax_vnd) AS vat_vnd, sum(subtotal_vnd - discount_vnd) AS taxable_vnd FROM orders "
            "WHERE status = 'COMPLETED' AND opened_at >= date_trunc('month', business_now())")
    assert same_result([tuple(r) for r in answer.rows], gold_rows(engine, gold))


@pytest.mark.parametrize(
    "question",
    [
        "How many Trà sữa nướng were voided yesterday?",  # another measure
        "Show revenue by dish for last week.",  # another grouping
        "Hôm qua có bao nhiêu đơn hàng?",  # a condition dropped
    ],
)
def test_a_near_miss_is_not_reused(engine: Engine, question: str) -> None:
    answer = engine.ask(question, options=AskOptions(semantic=False))  # reuse alone (the semantic layer may answer)
    assert answer.status == "no_model"
    assert answer.reused_query_id is None and answer.sql is None
    assert answer.relevant_tables
    assert reuse_detail(answer) == "no verified question matches closely enough"


def test_a_future_booking_keeps_this_month_from_reusing_last_months_rate(engine: Engine) -> None:
    """Reservations hold rows after now: "this month" is not last month's query with the clock moved."""
    answer = engine.ask("What was the reservation no-show rate this month?", options=AskOptions(semantic=False))
    assert answer.status == "no_model"  # reuse alone: the semantic layer answers it from its own definition


@pytest.mark.parametrize(
    "question",
    [
        "How many Trà sữa nướng'; DROP TABLE orders; -- did we sell yesterday?",
        "How many Cà phê muối' OR '1'='1 did we sell yesterday?",
        "Bàn số 3; DELETE FROM orders còn những món nào chưa lên, đã chờ bao lâu rồi?",
    ],
)
def test_a_hostile_value_never_becomes_sql(engine: Engine, question: str) -> None:
    answer = engine.ask(question)
    if answer.status == "reused":
        assert answer.sql is not None
        statements = sqlglot.parse(answer.sql, read="postgres")
        assert len(statements) == 1 and isinstance(statements[0], exp.Select)
        strings = [lit.this for lit in statements[0].find_all(exp.Literal) if lit.is_string]
        assert not any("DROP" in s or "DELETE" in s or "'1'='1" in s for s in strings)
    else:
        assert answer.status == "no_model"
    assert gold_rows(engine, "SELECT count(*) FROM orders")[0][0] > 0


def test_a_confirmed_answer_is_answered_again_with_no_model_call(engine: Engine) -> None:
    question = "What did the tip jar hold yesterday?"  # no metric reads "jar": handed over until confirmed
    first = engine.ask(question)
    assert first.status == "no_model"
    fixed = first.model_copy(update={"status": "answered", "sql": TIPS_SQL,
                                     "rows": [list(r) for r in gold_rows(engine, TIPS_SQL)]})
    assert engine.confirm(engine.propose(fixed), confirmed_by="test")
    again = engine.ask(question)
    assert again.status == "reused" and again.llm_calls == 0
    assert same_result([tuple(r) for r in again.rows], gold_rows(engine, TIPS_SQL))
    paraphrase = engine.ask("What did the tip jar hold the day before yesterday?")
    assert paraphrase.status == "reused" and paraphrase.reused_query_id == again.reused_query_id
    two_days_ago = TIPS_SQL.replace("interval '1 day'", "interval '2 days'")
    assert same_result([tuple(r) for r in paraphrase.rows], gold_rows(engine, two_days_ago))
    assert not same_result(paraphrase.rows, again.rows)

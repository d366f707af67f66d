"""A fake engine for the app tests (until the scripted model drives the real engine), with the engine's
contract and its real types: ``stream`` checks the question as the engine does and yields each step,
then the answer; ``propose`` returns an ``EnrichmentPreview``. It can carry the real semantic layer and
a real knowledge base in ``deps``, as the engine's ``EngineDeps`` does."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from aria.errors import AriaError
from aria.kb.base import KnowledgeBase
from aria.llm.schemas import TermAlias
from aria.reflect.answer import Answer, AskOptions, Question
from aria.reflect.enrichment import EnrichmentPreview
from aria.reflect.language import QuestionRejected, validate_question
from aria.reflect.trace import Finding, Score, Trace, TraceEvent
from aria.semantic.layer import SemanticLayer

SQL = ("SELECT c.name_vi AS nhom_mon, sum(oi.line_total_vnd) AS doanh_thu_vnd FROM order_items oi "
       "JOIN menu_items m ON m.item_id = oi.item_id JOIN categories c ON c.category_id = m.category_id "
       "GROUP BY c.name_vi ORDER BY doanh_thu_vnd DESC")


def sample_trace() -> Trace:
    trace = Trace(model_label="scripted:demo.json (test model)")
    trace.add(TraceEvent(loop="retrieval", step="judge_retrieval", iteration=0, duration_ms=40, llm_calls=1,
                         scores={"score_r": Score(value=3.2), "relevance": Score(value=4, reason="misses categories"),
                                 "completeness": Score(value=2, reason="no price column")}))
    trace.add(TraceEvent(loop="retrieval", step="rewrite", iteration=1, llm_calls=1,
                         rewritten_question="Doanh thu theo nhóm món trong tháng này"))
    trace.add(TraceEvent(loop="retrieval", step="judge_retrieval", iteration=1, llm_calls=1,
                         scores={"score_r": Score(value=7.4), "relevance": Score(value=8), "completeness": Score(value=6.5)}))
    trace.add(TraceEvent(loop="synthesis", step="generate", iteration=0, llm_calls=1, sql=SQL.replace("DESC", "")))
    trace.add(TraceEvent(loop="synthesis", step="judge_sql", iteration=1, llm_calls=1, sql=SQL,
                         findings=[Finding(check="fan_out", dimension="join", severity="warning", message="check joins")],
                         scores={"s": Score(value=8.1), "column": Score(value=9), "granularity": Score(value=8),
                                 "join": Score(value=7.5, reason="joins follow keys"), "logic": Score(value=8.5)}))
    trace.add(TraceEvent(loop="entailment", step="judge_entailment", llm_calls=1, row_count=3,
                         scores={"e": Score(value=4.4), "schema": Score(value=4), "data": Score(value=4.5)}))
    return trace


def sample_answer(question: str) -> Answer:
    return Answer(
        question=question, status="answered", answer_text="Món chính mang lại nhiều doanh thu nhất.",
        sql=SQL, columns=["nhom_mon", "doanh_thu_vnd"],
        rows=[["Món chính", 152_500_000], ["Lẩu", 98_000_000], ["Đồ uống", 45_250_000]],
        trace=sample_trace(),
    )


SEMANTIC_WORDS = "Doanh thu · theo danh mục · 2026-11-01 → 2026-11-15 · thấp nhất 1"
SEMANTIC_SQL = ("SELECT c.name_vi AS category, sum(oi.line_total_vnd) AS revenue_vnd FROM order_items oi "
                "JOIN menu_items m ON m.item_id = oi.item_id JOIN categories c ON c.category_id = m.category_id "
                "GROUP BY 1 ORDER BY 2 LIMIT 1")
SUGGESTIONS = ["Doanh thu hôm qua là bao nhiêu?", "Doanh thu tháng này theo ca?"]


def semantic_answer(question: str) -> Answer:
    """An answer from the semantic layer: no model call, the query in words beside its SQL."""
    trace = Trace(model_label="none")
    trace.add(TraceEvent(loop="reuse", step="reuse_match", detail="no verified query matches"))
    trace.add(TraceEvent(loop="semantic", step="semantic_parse", detail=SEMANTIC_WORDS, sql=SEMANTIC_SQL))
    trace.add(TraceEvent(loop="execution", step="execute", sql=SEMANTIC_SQL, row_count=1))
    return Answer(question=question, status="answered", answer_text=f"Đồ uống: 45.250.000 ₫ (Lớp ngữ nghĩa: "
                  f"{SEMANTIC_WORDS}.)", sql=SEMANTIC_SQL, columns=["category", "revenue_vnd"],
                  rows=[["Đồ uống", 45_250_000]], trace=trace, semantic_query=SEMANTIC_WORDS)


def no_model_answer(question: str) -> Answer:
    """The honest "no" with no model, with nearby questions Aria can answer."""
    return Answer(question=question, status="no_model", answer_text="Chưa có mô hình ngôn ngữ nào được cấu hình.",
                  relevant_tables=["orders"], suggestions=list(SUGGESTIONS), trace=Trace(model_label="none"))


@dataclass
class FakeDeps:
    """The parts of ``EngineDeps`` the UI reads, with their real types."""

    semantic: SemanticLayer | None = None
    kb: KnowledgeBase | None = None


@dataclass
class FakeEngine:
    """Records every call; answers every valid question with ``reply`` (:func:`sample_answer`), or raises ``fail``."""

    fail: AriaError | None = None
    reply: Callable[[str], Answer] = sample_answer
    deps: FakeDeps = field(default_factory=FakeDeps)
    asked: list[tuple[str, AskOptions]] = field(default_factory=list)
    proposed: list[Answer] = field(default_factory=list)
    confirmed: list[tuple[EnrichmentPreview, str]] = field(default_factory=list)
    rejected: list[tuple[Answer, str]] = field(default_factory=list)

    def stream(self, input: Question) -> Iterator[TraceEvent | Answer]:
        self.asked.append((input.text, input.options))
        try:  # as the engine does: a refused question is an error answer saying why
            cleaned, _ = validate_question(input.text)
        except QuestionRejected as err:
            yield Answer(question=input.text, status="error", answer_text=str(err), error=str(err))
            return
        if self.fail is not None:
            raise self.fail
        answer = self.reply(cleaned)
        yield from answer.trace.events
        yield answer

    def propose(self, answer: Answer) -> EnrichmentPreview:
        self.proposed.append(answer)
        return EnrichmentPreview(question=answer.question, sql=answer.sql or "",
                                 aliases=[TermAlias(term="nhóm món", table="categories", column="name_vi")])

    def confirm(self, preview: EnrichmentPreview, *, confirmed_by: str) -> list[int]:
        self.confirmed.append((preview, confirmed_by))
        return [len(self.confirmed)]

    def reject(self, answer: Answer, *, reason: str = "", rejected_by: str = "") -> int:
        self.rejected.append((answer, reason))
        return len(self.rejected)

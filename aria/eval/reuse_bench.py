"""``aria bench reuse``: how often verified-query reuse answers a held-out paraphrase correctly
with no model at all, how often it answers wrongly, and how fast.

The knowledge base is built (in its own schema) with the golden ``examples`` as verified queries;
every question of ``seed_db/questions/paraphrases.yaml`` is then asked of an engine with no model.
A reused answer is correct when its rows equal the gold SQL's rows as sets (BIRD's EX). Near-miss
questions look like an example but ask something else: any reuse of one is wrong.
"""

from __future__ import annotations

import logging
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from aria.config import Settings
from aria.db.connect import Targets
from aria.errors import AriaError, ConfigError
from aria.eval.metric import same_result
from aria.kb.build import BuildReport
from aria.kb.embed import Embedder
from aria.kb.store import KnowledgeStore, NewVerifiedQuery
from aria.paths import seed_dir
from aria.reflect.answer import Answer
from aria.reflect.engine import Engine

log = logging.getLogger(__name__)

Kind = Literal["paraphrase", "near_miss"]
Outcome = Literal["correct", "wrong", "not_reused", "error"]
RunGold = Callable[[str], list[tuple[Any, ...]]]


class Paraphrase(BaseModel):
    """A held-out rewording of a golden example (or a near miss of one) with its own gold SQL."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(pattern=r"^(pp|nm)-\d{3}$")
    source_id: str = Field(pattern=r"^ex-\d{3}$")
    question: str = Field(min_length=3)
    sql: str = Field(min_length=10)
    lang: Literal["vi", "en"]
    changed: tuple[str, ...] = ()  # paraphrases: what changed (values, wording)
    differs: str = ""  # near misses: what it asks that the example does not

    @property
    def kind(self) -> Kind:
        return "near_miss" if self.id.startswith("nm-") else "paraphrase"


def paraphrases_path() -> Path:
    return seed_dir() / "questions" / "paraphrases.yaml"


def load_paraphrases(path: Path | None = None) -> list[Paraphrase]:
    """Paraphrases then near misses, validated; a clear error names the bad entry."""
    path = path or paraphrases_path()
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError) as err:
        raise ConfigError(f"Cannot read {path}: {err}.", hint="Fix the file (see its header for the format).") from err
    items: list[Paraphrase] = []
    for entry in [*(data.get("paraphrases") or []), *(data.get("near_misses") or [])]:
        try:
            items.append(Paraphrase.model_validate(entry))
        except ValidationError as err:
            raise ConfigError(f"Bad entry {entry.get('id', '?')!r} in {path}: {err.errors()[0]['msg']}.",
                              hint="Each entry needs id, source_id, question, sql and lang.") from err
    ids = [i.id for i in items]
    if len(set(ids)) != len(ids):
        raise ConfigError(f"Duplicate ids in {path}.", hint="Give every paraphrase its own id.")
    return items


def build_reuse_kb(settings: Settings, targets: Targets, embedder: Embedder) -> BuildReport:
    """The KB of the business schema in ``settings.kb_schema`` (as `aria kb build` makes it, the golden
    examples as verified queries), without what an earlier run of the bench confirmed."""
    from aria.kb.service import build_from_source

    report = build_from_source("postgres", targets.admin, targets.kb, settings, embedder=embedder)[0]
    store = KnowledgeStore(targets.kb, settings)
    try:
        with store.transaction() as conn:
            store.delete_verified_of(conn, report.db_name, golden=False)
    finally:
        store.close()
    return report


@dataclass(frozen=True)
class ItemResult:
    id: str
    kind: Kind
    question: str
    outcome: Outcome
    status: str
    latency_ms: float
    llm_calls: int
    reused_query_id: int | None = None
    sql: str | None = None
    detail: str = ""


@dataclass(frozen=True)
class ConfirmDemo:
    question: str
    first_status: str
    confirmed_via: str  # "engine.confirm" or "kb api"
    second_status: str
    second_llm_calls: int
    second_reused_query_id: int | None


@dataclass
class ReuseReport:
    items: list[ItemResult] = field(default_factory=list)
    confirm: ConfirmDemo | None = None

    def of(self, kind: Kind) -> list[ItemResult]:
        return [i for i in self.items if i.kind == kind]

    def share(self, kind: Kind, outcome: Outcome) -> float:
        items = self.of(kind)
        return 100.0 * sum(1 for i in items if i.outcome == outcome) / len(items) if items else 0.0

    def latencies(self) -> list[float]:
        return sorted(i.latency_ms for i in self.items if i.status == "reused")

    def as_dict(self) -> dict[str, Any]:
        lat = self.latencies()
        return {
            "paraphrases": len(self.of("paraphrase")), "near_misses": len(self.of("near_miss")),
            "correct_pct": round(self.share("paraphrase", "correct"), 1),
            "wrong_pct": round(self.share("paraphrase", "wrong"), 1),
            "not_reused_pct": round(self.share("paraphrase", "not_reused"), 1),
            "error_pct": round(self.share("paraphrase", "error"), 1),
            "near_miss_false_reuse_pct": round(self.share("near_miss", "wrong"), 1),
            "reused_latency_ms": {"median": _pct(lat, 0.5), "p95": _pct(lat, 0.95), "n": len(lat)},
            "model_calls": sum(i.llm_calls for i in self.items),
            "confirm": self.confirm.__dict__ if self.confirm else None,
            "items": [i.__dict__ for i in self.items],
        }


def _pct(values: Sequence[float], q: float) -> float | None:
    if not values:
        return None
    if len(values) == 1:
        return round(values[0], 1)
    return round(statistics.quantiles(values, n=100, method="inclusive")[int(q * 100) - 1], 1) if q < 1 else values[-1]


def judge(item: Paraphrase, answer: Answer, run_gold: RunGold) -> tuple[Outcome, str]:
    """Correct iff a reused answer's rows equal the gold rows as sets; a reused near miss is wrong."""
    if answer.status == "error":
        return "error", answer.error or ""
    if answer.status != "reused":
        return "not_reused", ""
    if item.kind == "near_miss":
        return "wrong", "a near miss was reused"
    gold = run_gold(item.sql)
    if same_result([tuple(r) for r in answer.rows], gold):
        return "correct", ""
    return "wrong", f"{len(answer.rows)} rows vs {len(gold)} gold rows"


def run_items(engine: Engine, items: Sequence[Paraphrase], run_gold: RunGold) -> list[ItemResult]:
    results = []
    for item in items:
        started = time.perf_counter()
        answer = engine.ask(item.question)
        elapsed = (time.perf_counter() - started) * 1000
        outcome, detail = judge(item, answer, run_gold)
        results.append(ItemResult(id=item.id, kind=item.kind, question=item.question, outcome=outcome,
                                  status=answer.status, latency_ms=round(elapsed, 1), llm_calls=answer.llm_calls,
                                  reused_query_id=answer.reused_query_id, sql=answer.sql, detail=detail))
        log.info("%s %s %s", item.id, outcome, detail)
    return results


def demonstrate_confirm(engine: Engine, item: Paraphrase, run_gold: RunGold) -> ConfirmDemo:
    """Ask a question nothing answers, confirm its (workbench-fixed) gold SQL, ask it again."""
    first = engine.ask(item.question)
    rows = run_gold(item.sql)
    fixed = first.model_copy(update={"status": "answered", "sql": item.sql, "rows": [list(r) for r in rows]})
    try:
        engine.confirm(engine.propose(fixed), confirmed_by="reuse-bench")
        via = "engine.confirm"
    except (ImportError, AriaError) as err:  # the KB's enrichment API is not there yet
        log.warning("engine.confirm unavailable (%s); inserting the verified query directly", err)
        insert_verified(engine, item.question, item.sql)
        via = "kb api"
    second = engine.ask(item.question)
    return ConfirmDemo(question=item.question, first_status=first.status, confirmed_via=via,
                       second_status=second.status, second_llm_calls=second.llm_calls,
                       second_reused_query_id=second.reused_query_id)


def insert_verified(engine: Engine, question: str, sql_text: str) -> None:
    """A confirmed verified query written straight into the KB's table (fallback of engine.confirm)."""
    kb = engine.deps.kb
    vector = kb.embed_query(question)
    with kb.store.transaction() as conn:
        kb.store.insert_verified(conn, [NewVerifiedQuery(kb.db_name, question, sql_text, "confirmed")], [vector])


def reuse_markdown(report: ReuseReport) -> str:
    data = report.as_dict()
    lat = data["reused_latency_ms"]
    lines = [
        f"Verified-query reuse, no model: {data['paraphrases']} paraphrases, {data['near_misses']} near misses",
        "",
        "| measure | value | target |",
        "|---|---|---|",
        f"| paraphrases answered correctly by reuse | {data['correct_pct']}% | >= 60% |",
        f"| paraphrases answered wrongly by reuse | {data['wrong_pct']}% | <= 2% |",
        f"| paraphrases not reused (honest 'no') | {data['not_reused_pct']}% | |",
        f"| paraphrases failed with an error | {data['error_pct']}% | 0% |",
        f"| near misses wrongly reused | {data['near_miss_false_reuse_pct']}% | <= 2% |",
        f"| latency of reused answers, median | {lat['median']} ms | <= 300 ms |",
        f"| latency of reused answers, p95 | {lat['p95']} ms | |",
        f"| model calls | {data['model_calls']} | 0 |",
    ]
    if report.confirm:
        c = report.confirm
        lines += ["", f"Confirm then ask again ({c.confirmed_via}): {c.question!r}: first {c.first_status}, "
                  f"then {c.second_status} (verified query #{c.second_reused_query_id}) "
                  f"with {c.second_llm_calls} model calls."]
    wrong = [i for i in report.items if i.outcome in ("wrong", "error")]
    if wrong:
        lines += ["", "Wrong or failed:"] + [f"- {i.id} {i.question!r}: {i.detail}" for i in wrong]
    return "\n".join(lines)


BENCH_SEED: dict[str, int] = {"days": 75, "seed": 7}  # the same data as the tests (tests/conftest.py)


def bench_as_of(settings: Settings) -> Any:
    from datetime import datetime
    from zoneinfo import ZoneInfo

    return datetime(2026, 11, 15, 19, 40, tzinfo=ZoneInfo(settings.timezone))


def ensure_seeded(settings: Settings, targets: Targets, *, reseed: bool) -> str:
    """Seed the business schema with the tests' data when it is empty (or ``reseed``); its clock."""
    from aria.db.seed import database_status, seed_database

    status = database_status(targets.admin, settings)
    if reseed or not status["tables"] or status["as_of"] is None:
        seed_database(targets.admin, settings, as_of=bench_as_of(settings), replace=True,
                      days=BENCH_SEED["days"], seed=BENCH_SEED["seed"])
        status = database_status(targets.admin, settings)
    return str(status["as_of"])


def run_reuse_bench(settings: Settings, targets: Targets, embedder: Embedder, *,
                    items: Sequence[Paraphrase] | None = None, confirm: bool = True) -> ReuseReport:
    """Build the KB (golden examples as verified queries), ask every paraphrase with no model, judge."""
    from aria.reflect.factory import open_engine

    items = list(items) if items is not None else load_paraphrases()
    build_reuse_kb(settings, targets, embedder)
    engine = open_engine(settings, targets=targets, embedder=embedder, models=None)
    try:
        def run_gold(sql_text: str) -> list[tuple[Any, ...]]:
            return [tuple(r) for r in engine.deps.executor.run(sql_text).rows]

        report = ReuseReport(items=run_items(engine, items, run_gold))
        misses = [i for i in items if i.kind == "near_miss"]
        if confirm and misses:
            report.confirm = demonstrate_confirm(engine, misses[0], run_gold)
        return report
    finally:
        engine.close()

"""The Reflect-SQL engine on a SQLite benchmark database (Spider's concert_singer), with scripted
(test) models standing in for the real LLMs and the KB in the real embedded PostgreSQL: an answer
end to end, repairs after a guard rejection and after an EXPLAIN error, and ``aria eval`` in engine
mode on Spider dev under the four ablations."""

from __future__ import annotations

import json
import sqlite3
import uuid
from pathlib import Path
from typing import Any

import pytest
from engine_support import ENTAILED, RETRIEVAL_OK, SQL_OK
from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.messages import BaseMessage
from langchain_core.outputs import ChatResult
from pydantic import Field
from typer.testing import CliRunner

from aria.cli import app
from aria.config import Settings
from aria.db.connect import Targets
from aria.db.sqlite import run_sqlite
from aria.errors import ConfigError
from aria.eval.datasets import Dataset, load_dataset
from aria.eval.sqlite_engine import dataset_schemas, open_sqlite_engine
from aria.kb.base import KnowledgeBase
from aria.kb.build import build_kb
from aria.kb.embed import get_embedder
from aria.kb.sources import spider_schemas
from aria.kb.store import KnowledgeStore
from aria.llm.client import BoundModel, ModelClient
from aria.llm.retry import RetryPolicy
from aria.llm.scripted import ScriptedChatModel
from aria.reflect.answer import Answer, AskOptions
from aria.reflect.trace import TraceEvent
from aria.sql.schema import Schema
from tests.conftest import BENCH_DIR

SPIDER = BENCH_DIR / "spider_dev"
DB_PATH = SPIDER / "database" / "concert_singer" / "concert_singer.sqlite"
QUESTION = "Show the names of singers who performed in a concert in 2014."
GOLD = (
    "SELECT T2.name FROM singer_in_concert AS T1 JOIN singer AS T2 ON T1.singer_id = T2.singer_id "
    "JOIN concert AS T3 ON T1.concert_id = T3.concert_id WHERE T3.year = 2014"
)
ABLATIONS = "full,no-sql-reflection,no-entailment,no-iterative-retrieval"

pytestmark = pytest.mark.skipif(not DB_PATH.is_file(), reason=f"Spider dev databases not found under {BENCH_DIR}")


class RecordingScriptedModel(ScriptedChatModel):
    """The scripted test model, also keeping each call's system prompt."""

    prompts: list[str] = Field(default_factory=list)

    def _generate(self, messages: list[BaseMessage], stop: list[str] | None = None,
                  run_manager: CallbackManagerForLLMRun | None = None, **kwargs: Any) -> ChatResult:
        self.prompts.append(str(messages[0].content))
        return super()._generate(messages, stop, run_manager, **kwargs)


def script(**overrides: list[Any]) -> dict[str, list[Any]]:
    base: dict[str, list[Any]] = {"retrieval_judge": [RETRIEVAL_OK], "sql_generator": [f"```sql\n{GOLD}\n```"],
                                  "sql_judge": [SQL_OK], "entailment_judge": [ENTAILED]}
    return base | overrides


@pytest.fixture(scope="module")
def schema() -> Schema:
    return spider_schemas(SPIDER / "tables.json")["concert_singer"]


@pytest.fixture(scope="module")
def kb_settings(settings: Settings, targets: Targets, schema: Schema) -> Settings:
    """A fresh KB schema holding concert_singer's KB, built from Spider's tables.json."""
    kb_settings = settings.model_copy(update={"kb_schema": f"kb_{uuid.uuid4().hex[:10]}"})
    store = KnowledgeStore(targets.kb, kb_settings)
    try:
        build_kb(store, get_embedder(), schema)
    finally:
        store.close()
    return kb_settings


def ask(kb_settings: Settings, targets: Targets, schema: Schema, responses: dict[str, list[Any]]) -> tuple[
    Answer, RecordingScriptedModel
]:
    chat = RecordingScriptedModel(path=Path("inline-test-script.json"), script=responses)
    policy = RetryPolicy(max_retries=1, base_delay_s=0.0, max_delay_s=0.0, sleep=lambda _s: None)
    client = ModelClient(BoundModel(chat, "scripted:inline (test model)"), policy=policy, timeout_s=5)
    kb = KnowledgeBase(KnowledgeStore(targets.kb, kb_settings), get_embedder(), "concert_singer")
    engine = open_sqlite_engine(kb_settings, DB_PATH, kb=kb, models=client, schema=schema)
    try:
        return engine.ask(QUESTION, options=AskOptions(reuse=False)), chat
    finally:
        engine.close()


def steps(answer: Answer, step: str) -> list[TraceEvent]:
    return [e for e in answer.trace.events if e.step == step]


def test_answers_end_to_end_with_the_rows_of_the_sql(kb_settings: Settings, targets: Targets, schema: Schema) -> None:
    answer, chat = ask(kb_settings, targets, schema, script())
    assert answer.status == "answered", answer.answer_text
    assert answer.sql == GOLD
    assert [tuple(r) for r in answer.rows] == run_sqlite(DB_PATH, GOLD, timeout_s=10)
    assert len(answer.rows) == 6 and answer.columns == ["Name"]
    assert answer.llm_calls == 4
    generator_prompt = next(p for p in chat.prompts if "[aria role: sql_generator]" in p)
    assert "SQLite query" in generator_prompt and "PostgreSQL query" not in generator_prompt
    retrieved = steps(answer, "retrieve")[0].detail
    assert "singer_in_concert" in retrieved


def test_a_guard_rejection_on_sqlite_is_repaired(kb_settings: Settings, targets: Targets, schema: Schema) -> None:
    answer, chat = ask(kb_settings, targets, schema,
                       script(sql_generator=["SELECT name FROM pragma_table_info('singer')"],
                              sql_repairer=["SELECT name FROM singer; ATTACH DATABASE '/tmp/x.db' AS x", GOLD]))
    assert answer.status == "answered", answer.answer_text
    guard = steps(answer, "guard")
    assert [event.error for event in guard] == [
        "guard: SQL rejected by the safety guard: function pragma_table_info() is not on the allow-list",
        "guard: SQL rejected by the safety guard: only one statement is allowed (found 2)",
        None,
    ]
    assert [event.sql for event in steps(answer, "repair")][-1] == GOLD
    repair_prompt = next(p for p in chat.prompts if "[aria role: sql_repairer]" in p)
    assert "SQLite query failed" in repair_prompt


def test_an_explain_error_is_repaired(kb_settings: Settings, targets: Targets, schema: Schema) -> None:
    bad = "SELECT T2.singer_name FROM singer_in_concert AS T1 JOIN singer AS T2 ON T1.singer_id = T2.singer_id"
    answer, _ = ask(kb_settings, targets, schema, script(sql_generator=[bad], sql_repairer=[GOLD]))
    assert answer.status == "answered", answer.answer_text
    explain = steps(answer, "explain")
    assert explain[0].error is not None and "no such column: T2.singer_name" in explain[0].error
    assert explain[1].error is None
    assert [tuple(r) for r in answer.rows] == run_sqlite(DB_PATH, GOLD, timeout_s=10)


def _cli_env(monkeypatch: pytest.MonkeyPatch, settings: Settings, tmp_path: Path) -> str:
    """The CLI's environment: the session's embedded PostgreSQL, a fresh KB schema (returned)."""
    kb_schema = f"kb_{uuid.uuid4().hex[:10]}"
    for name, value in {"ARIA_HOME": str(settings.home), "ARIA_CONFIG": str(tmp_path / "none.toml"),
                        "ARIA_KB_SCHEMA": kb_schema, "HF_HUB_OFFLINE": "1"}.items():
        monkeypatch.setenv(name, value)
    for name in ("ARIA_DATABASE_URL", "ARIA_KB_URL", "ARIA_READER_URL", "ARIA_LLM", "ARIA_JUDGE_LLM"):
        monkeypatch.delenv(name, raising=False)
    return kb_schema


def test_eval_engine_mode_on_spider_dev_scores_100_percent_with_gold_scripted(
    settings: Settings, targets: Targets, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``aria eval --dataset spider-dev --llm scripted:FILE`` under all four ablations.

    The model is the scripted TEST model (not an LLM): its generator answers the first three dev
    questions with their gold SQL and its judges pass; this proves engine mode runs end to end
    (KB built for the dataset, one SQLite engine per database, scoring), not the engine's accuracy.
    """
    items = load_dataset("spider-dev", bench_dir=BENCH_DIR).items[:3]
    n_ablations = len(ABLATIONS.split(","))
    scripted = {
        "_about": "scripted test model: gold SQL of Spider dev 0-2, once per ablation, and passing judges",
        "sql_generator": [item.gold_sql for item in items] * n_ablations,
        "retrieval_judge": [RETRIEVAL_OK] * 3 * n_ablations,
        "sql_judge": [SQL_OK] * 3 * n_ablations,
        "entailment_judge": [ENTAILED] * 3 * n_ablations,
    }
    script_file = tmp_path / "spider3.json"
    script_file.write_text(json.dumps(scripted), encoding="utf-8")
    kb_schema = _cli_env(monkeypatch, settings, tmp_path)
    out = tmp_path / "out"
    result = CliRunner().invoke(app, [
        "eval", "--dataset", "spider-dev", "--llm", f"scripted:{script_file}", "--ablation", ABLATIONS,
        "--limit", "3", "--out", str(out), "--bench-dir", str(BENCH_DIR),
    ])
    assert result.exit_code == 0, result.output
    summary = json.loads((out / "summary.json").read_text())
    assert summary["overall"] == {"n": 12, "correct": 12, "ex": 100.0}
    assert {name: tally["ex"] for name, tally in summary["by_ablation"].items()} == dict.fromkeys(ABLATIONS.split(","), 100.0)
    rows = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert all(row["trace_summary"].startswith("answered") for row in rows)
    calls = {row["ablation"]: row["llm_calls"] for row in rows if row["id"] == "0"}
    assert calls == {"full": 4, "no-sql-reflection": 3, "no-entailment": 3, "no-iterative-retrieval": 3}
    kb = KnowledgeStore(targets.kb, settings.model_copy(update={"kb_schema": f"{kb_schema}_spider_dev"}))
    try:
        assert kb.database_info("concert_singer") is not None
    finally:
        kb.close()


def _spider_format_tables(db_id: str) -> list[dict[str, Any]]:
    return [{"db_id": db_id, "table_names_original": ["customers"], "table_names": ["customers"],
             "column_names_original": [[-1, "*"], [0, "CustomerID"], [0, "Segment"]],
             "column_names": [[-1, "*"], [0, "customer id"], [0, "segment"]],
             "column_types": ["text", "number", "text"], "primary_keys": [1], "foreign_keys": []}]


def test_bird_schemas_prefer_dev_tables_json_beside_the_databases(tmp_path: Path) -> None:
    db_dir = tmp_path / "dev_databases"
    db_dir.mkdir()
    dataset = Dataset("bird", (), "sqlite", db_dir)
    with pytest.raises(ConfigError, match="dev_tables.json"):
        dataset_schemas(Settings(llm=None, bench_dir=tmp_path / "no-bench"), dataset)
    if (BENCH_DIR / "bird_dev" / "dev_tables.json").is_file():
        assert len(dataset_schemas(Settings(llm=None, bench_dir=BENCH_DIR), dataset)[0]) == 11  # the bench's copy
    (tmp_path / "dev_tables.json").write_text(json.dumps(_spider_format_tables("debit_card_specializing")))
    schemas, source = dataset_schemas(Settings(llm=None, bench_dir=BENCH_DIR), dataset)
    assert source.startswith("bird:") and list(schemas) == ["debit_card_specializing"]
    column = schemas["debit_card_specializing"].table("customers").column("Segment")  # type: ignore[union-attr]
    if (BENCH_DIR / "bird_dev" / "dev_metadata.json").is_file():
        assert column is not None and column.description == "client segment"  # BIRD's official description


def test_eval_engine_mode_on_bird_with_a_db_dir(
    settings: Settings, targets: Targets, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``aria eval --dataset bird --db-dir DIR --llm scripted:FILE`` on a one-question BIRD-format set.

    The model is the scripted TEST model (gold SQL as the generator's answer, passing judges).
    """
    bench = tmp_path / "bench" / "bird_dev"
    bench.mkdir(parents=True)
    gold = "SELECT count(*) FROM customers WHERE Segment = 'SME'"
    bench.joinpath("dev.json").write_text(json.dumps([{
        "question_id": 7, "db_id": "shop", "question": "How many SME customers are there?",
        "evidence": "SME refers to Segment = 'SME'", "SQL": gold, "difficulty": "simple"}]))
    bench.joinpath("dev_tables.json").write_text(json.dumps(_spider_format_tables("shop")))
    (tmp_path / "dbs" / "shop").mkdir(parents=True)
    conn = sqlite3.connect(tmp_path / "dbs" / "shop" / "shop.sqlite")
    conn.executescript("CREATE TABLE customers(CustomerID INTEGER PRIMARY KEY, Segment TEXT);"
                       "INSERT INTO customers VALUES (1, 'SME'), (2, 'LAM'), (3, 'SME');")
    conn.commit()
    conn.close()
    script_file = tmp_path / "bird.json"
    script_file.write_text(json.dumps({"sql_generator": [gold], "retrieval_judge": [RETRIEVAL_OK],
                                       "sql_judge": [SQL_OK], "entailment_judge": [ENTAILED]}))
    _cli_env(monkeypatch, settings, tmp_path)
    out = tmp_path / "out"
    result = CliRunner().invoke(app, [
        "eval", "--dataset", "bird", "--db-dir", str(tmp_path / "dbs"), "--llm", f"scripted:{script_file}",
        "--out", str(out), "--bench-dir", str(tmp_path / "bench"),
    ])
    assert result.exit_code == 0, result.output
    assert json.loads((out / "summary.json").read_text())["overall"] == {"n": 1, "correct": 1, "ex": 100.0}

"""The scripted test model: per-role responses in order, clear errors, token usage."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest
from langchain_core.messages import HumanMessage, SystemMessage

from aria.errors import ConfigError, ModelError
from aria.llm import (
    EnrichmentProposal,
    EntailmentVerdict,
    ModelClient,
    RetrievalVerdict,
    RetryPolicy,
    ScriptedChatModel,
    SqlVerdict,
    load_prompt,
)
from aria.llm.client import BoundModel
from aria.llm.prompts import role_marker

SCRIPTED = Path(__file__).resolve().parent.parent / "data" / "scripted"


def _script(tmp_path: Path, data: dict[str, object]) -> ScriptedChatModel:
    path = tmp_path / "script.json"
    path.write_text(json.dumps(data))
    return ScriptedChatModel.from_file(path)


def _ask(model: ScriptedChatModel, role: str) -> str:
    return str(model.invoke([SystemMessage(content=f"{role_marker(role)}\nrules"), HumanMessage(content="q")]).text)


def test_returns_each_roles_responses_in_order(tmp_path: Path) -> None:
    model = _script(tmp_path, {"sql_generator": ["SELECT 1", "SELECT 2"], "sql_judge": [{"column": 9}]})
    assert _ask(model, "sql_generator") == "SELECT 1"
    assert json.loads(_ask(model, "sql_judge")) == {"column": 9}
    assert _ask(model, "sql_generator") == "SELECT 2"
    assert model.used("sql_generator") == 2


def test_exhausted_role_raises_a_clear_model_error(tmp_path: Path) -> None:
    model = _script(tmp_path, {"sql_judge": ["a", "b"]})
    _ask(model, "sql_judge")
    _ask(model, "sql_judge")
    with pytest.raises(ModelError) as err:
        _ask(model, "sql_judge")
    assert "scripted model file script.json has no more responses for role 'sql_judge' (used 2)" in str(err.value)
    model.reset()
    assert _ask(model, "sql_judge") == "a"


def test_role_can_come_from_invoke_metadata(tmp_path: Path) -> None:
    model = _script(tmp_path, {"query_rewriter": ["{\"question\": \"x\"}"]})
    message = model.invoke([HumanMessage(content="q")], config={"metadata": {"aria_role": "query_rewriter"}})
    assert message.text == '{"question": "x"}'


def test_call_without_a_role_is_refused(tmp_path: Path) -> None:
    model = _script(tmp_path, {"sql_judge": ["a"]})
    with pytest.raises(ModelError, match="cannot tell the role"):
        model.invoke([HumanMessage(content="q")])


def test_reports_token_usage(tmp_path: Path) -> None:
    model = _script(tmp_path, {"sql_generator": ["x" * 40]})
    message = model.invoke([SystemMessage(content=role_marker("sql_generator")), HumanMessage(content="y" * 79)])
    usage = message.usage_metadata
    assert usage is not None
    prompt_tokens = (len(role_marker("sql_generator")) + 79) // 4
    assert (usage["input_tokens"], usage["output_tokens"]) == (prompt_tokens, 10)
    assert usage["total_tokens"] == prompt_tokens + 10


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"sql_poet": ["x"]}, "unknown role 'sql_poet'"),
        ({"sql_judge": "x"}, "must map to a list"),
    ],
)
def test_bad_script_files_fail_when_loaded(tmp_path: Path, data: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        _script(tmp_path, data)


def test_non_json_script_is_a_config_error(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text("{not json")
    with pytest.raises(ConfigError, match="not readable JSON"):
        ScriptedChatModel.from_file(path)


def test_concurrent_calls_each_get_a_distinct_response(tmp_path: Path) -> None:
    model = _script(tmp_path, {"sql_generator": [f"SELECT {i}" for i in range(40)]})
    seen: list[str] = []
    lock = threading.Lock()

    def worker() -> None:
        for _ in range(10):
            text = _ask(model, "sql_generator")
            with lock:
                seen.append(text)

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(seen) == sorted(f"SELECT {i}" for i in range(40))


def test_flaky_script_exercises_retries_reask_and_no_retry_on_401() -> None:
    delays: list[float] = []
    model = ScriptedChatModel.from_file(SCRIPTED / "flaky.json")
    client = ModelClient(BoundModel(model, "scripted:flaky.json"), policy=RetryPolicy(sleep=delays.append, rand=lambda: 0.0))
    verdict = client.call_structured(
        "retrieval_judge", {"question": "q", "evidence": "", "schema_context": "s"}, RetrievalVerdict
    )
    assert (verdict.relevance, verdict.completeness) == (9, 8)
    assert delays == [0.5, 1.0, 2.0]
    judged = client.call_structured("sql_judge", {"question": "q", "schema_context": "s", "sql": "SELECT 1", "findings": ""}, SqlVerdict)
    assert judged.join == 10
    with pytest.raises(ModelError, match="HTTP 401"):
        client.call_structured("entailment_judge", {"question": "q", "sql": "s", "result_preview": "", "findings": ""}, SqlVerdict)
    assert delays == [0.5, 1.0, 2.0]
    reading = client.meter.snapshot()
    assert (reading.calls, reading.failures) == (3, 4)


def _empty_vars(role: str, **values: str) -> dict[str, str]:
    return {name: "" for name in load_prompt(role).variables} | values


@pytest.mark.parametrize("name", ["demo.json", "reflection.json", "flaky.json"])
def test_example_scripts_load(name: str) -> None:
    assert ScriptedChatModel.from_file(SCRIPTED / name).script


def test_demo_script_answers_the_happy_path_through_the_client() -> None:
    client = ModelClient(BoundModel(ScriptedChatModel.from_file(SCRIPTED / "demo.json"), "scripted:demo.json"))
    q = "Món bán chạy nhất?"
    retrieval = client.call_structured("retrieval_judge", _empty_vars("retrieval_judge", question=q), RetrievalVerdict)
    assert 0.6 * retrieval.relevance + 0.4 * retrieval.completeness > 4  # passes θ_r with the paper's α
    sql = client.call_sql("sql_generator", _empty_vars("sql_generator", question=q))
    assert sql.startswith("SELECT mi.name_vi AS mon, SUM(oi.qty) AS so_luong") and sql.endswith("LIMIT 5")
    assert "business_now() - interval '7 days'" in sql and "o.status = 'COMPLETED'" in sql
    judged = client.call_structured("sql_judge", _empty_vars("sql_judge", question=q, sql=sql), SqlVerdict)
    assert 0.1 * judged.column + 0.3 * judged.granularity + 0.4 * judged.join + 0.2 * judged.logic > 5
    entailed = client.call_structured("entailment_judge", _empty_vars("entailment_judge", question=q), EntailmentVerdict)
    assert 0.2 * entailed.schema_ + 0.8 * entailed.data > 3
    proposal = client.call_structured("kb_enricher", _empty_vars("kb_enricher", question=q), EnrichmentProposal)
    assert [a.term for a in proposal.aliases] == ["món bán chạy", "món"]
    assert client.meter.snapshot().calls == 5 and client.meter.snapshot().tokens > 0
    with pytest.raises(ModelError, match="no more responses for role 'sql_judge' \\(used 1\\)"):
        client.call_structured("sql_judge", _empty_vars("sql_judge", question=q), SqlVerdict)

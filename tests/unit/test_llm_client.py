"""ModelClient: retries and backoff, re-asking once on unusable output, structured output, metering."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import anthropic
import httpx
import ollama
import openai
import pytest
from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import RunnableLambda
from pydantic import PrivateAttr, ValidationError

from aria.errors import ConfigError, ModelError
from aria.llm import EntailmentVerdict, ModelClient, RetrievalVerdict, RetryPolicy, SqlVerdict
from aria.llm.client import BoundModel

REQ = httpx.Request("POST", "https://api.example/v1/messages")
GOOD_VERDICT = '{"column": 9, "granularity": 8, "join": 10, "logic": 7, "diagnosis": "ok"}'
JUDGE_VARS = {"question": "Món bán chạy nhất?", "schema_context": "orders(order_id)", "sql": "SELECT 1", "findings": ""}


def _status(cls: type[Exception], code: int) -> Exception:
    return cls("provider says no", response=httpx.Response(code, request=REQ), body=None)  # type: ignore[call-arg]


class FakeChat(BaseChatModel):
    """Plays a list of outcomes: an exception is raised, a string is answered (with usage)."""

    outcomes: list[Any]
    _seen: list[list[BaseMessage]] = PrivateAttr(default_factory=list)

    @property
    def _llm_type(self) -> str:
        return "fake"

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        self._seen.append(list(messages))
        outcome = self.outcomes.pop(0)
        if isinstance(outcome, Exception):
            raise outcome
        usage = {"input_tokens": 100, "output_tokens": 20, "total_tokens": 120}
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=outcome, usage_metadata=usage))])


class StructuredFakeChat(FakeChat):
    """A fake whose native structured output returns LangChain's include_raw dict."""

    def with_structured_output(self, schema: Any, *, include_raw: bool = False, **kwargs: Any) -> Any:
        assert include_raw and kwargs.get("method") == "function_calling"

        def run(messages: Any) -> dict[str, Any]:
            raw = self.invoke(messages)
            try:
                return {"raw": raw, "parsed": schema.model_validate_json(raw.text), "parsing_error": None}
            except ValidationError as err:
                return {"raw": raw, "parsed": None, "parsing_error": err}

        return RunnableLambda(run)


def _client(outcomes: list[Any], *, sleep: Callable[[float], None] | None = None, max_retries: int = 3,
            structured: bool = False) -> tuple[ModelClient, FakeChat]:
    chat: FakeChat = StructuredFakeChat(outcomes=outcomes) if structured else FakeChat(outcomes=outcomes)
    policy = RetryPolicy(max_retries=max_retries, base_delay_s=0.5, sleep=sleep or (lambda _s: None), rand=lambda: 1.0)
    bound = BoundModel(chat, "fake:model", "function_calling" if structured else None)
    return ModelClient(bound, policy=policy, timeout_s=60), chat


@pytest.mark.parametrize(
    "transient",
    [
        lambda: _status(anthropic.RateLimitError, 429),
        lambda: anthropic.APITimeoutError(request=REQ),
        lambda: _status(openai.InternalServerError, 500),
        lambda: openai.APITimeoutError(request=REQ),
        lambda: httpx.ReadTimeout("read timed out"),
        lambda: ollama.ResponseError("server busy", 503),
    ],
)
def test_transient_failures_are_retried_with_growing_backoff(transient: Callable[[], Exception]) -> None:
    delays: list[float] = []
    client, chat = _client([transient(), transient(), GOOD_VERDICT], sleep=delays.append)
    verdict = client.call_structured("sql_judge", JUDGE_VARS, SqlVerdict)
    assert verdict.join == 10
    assert delays == [0.625, 1.25]  # 0.5 * 2**n, stretched by the 25 % jitter (rand() = 1)
    assert len(chat._seen) == 3


def test_retries_are_bounded_and_the_error_names_the_fix() -> None:
    delays: list[float] = []
    client, chat = _client([anthropic.APITimeoutError(request=REQ)] * 5, sleep=delays.append, max_retries=3)
    with pytest.raises(ModelError) as err:
        client.call_structured("sql_judge", JUDGE_VARS, SqlVerdict)
    assert str(err.value) == (
        "The model fake:model timed out 4 times (60 s each). Try again, or set ARIA_LLM_TIMEOUT_S."
    )
    assert len(chat._seen) == 4
    assert delays == sorted(delays) and len(delays) == 3
    assert client.meter.snapshot().failures == 4


def test_backoff_is_capped() -> None:
    policy = RetryPolicy(base_delay_s=1.0, max_delay_s=4.0, jitter=0.0)
    assert [policy.delay(i) for i in range(5)] == [1.0, 2.0, 4.0, 4.0, 4.0]


@pytest.mark.parametrize(
    ("error", "message"),
    [
        (_status(anthropic.BadRequestError, 400), "refused the request for fake:model (HTTP 400"),
        (_status(openai.AuthenticationError, 401), "Check the API key."),
        (ollama.ResponseError("model 'x' not found", 404), "HTTP 404"),
        (ConnectionError("Failed to connect to Ollama"), "Could not reach the model fake:model"),
    ],
)
def test_other_failures_are_not_retried(error: Exception, message: str) -> None:
    delays: list[float] = []
    client, chat = _client([error, GOOD_VERDICT], sleep=delays.append)
    with pytest.raises(ModelError, match=message.replace("(", r"\(")) as err:
        client.call_structured("sql_judge", JUDGE_VARS, SqlVerdict)
    assert err.value.__cause__ is error
    assert delays == [] and len(chat._seen) == 1


def test_malformed_output_is_reasked_once_with_the_problem() -> None:
    client, chat = _client(["The query looks fine to me.", f"Sure:\n```json\n{GOOD_VERDICT}\n```"])
    verdict = client.call_structured("sql_judge", JUDGE_VARS, SqlVerdict)
    assert (verdict.column, verdict.logic) == (9, 7)
    first, second = chat._seen
    assert len(second) == len(first) + 1
    assert "could not be used: no JSON object found" in str(second[-1].content)


def test_out_of_range_scores_are_reasked_naming_the_field() -> None:
    bad = '{"column": 12, "granularity": 8, "join": 10, "logic": 7, "diagnosis": ""}'
    client, chat = _client([bad, GOOD_VERDICT])
    assert client.call_structured("sql_judge", JUDGE_VARS, SqlVerdict).column == 9
    assert "column: Input should be less than or equal to 10" in str(chat._seen[1][-1].content)


def test_twice_malformed_output_is_a_model_error() -> None:
    client, _ = _client(["no idea", "{'column': 9}"])
    with pytest.raises(ModelError, match="gave an unusable answer twice for sql_judge"):
        client.call_structured("sql_judge", JUDGE_VARS, SqlVerdict)
    assert client.meter.snapshot().calls == 2


def test_call_sql_extracts_the_query_and_reasks_when_there_is_none() -> None:
    client, chat = _client(["I would need more tables.", "```sql\nSELECT count(*) FROM orders;\n```"])
    variables = {"question": "q", "schema_context": "s", "sql": "SELECT nme FROM orders", "error": "no column nme",
                 "dialect": "PostgreSQL"}
    assert client.call_sql("sql_repairer", variables) == "SELECT count(*) FROM orders"
    assert "one SQL query in a ```sql fence" in str(chat._seen[1][-1].content)


def test_native_structured_output_path_with_one_reask() -> None:
    client, chat = _client(['{"schema": 9, "data": 5}', '{"schema": 4, "data": 5, "diagnosis": "ok"}'], structured=True)
    variables = {"question": "q", "sql": "SELECT 1", "result_preview": "1 row", "findings": ""}
    verdict = client.call_structured("entailment_judge", variables, EntailmentVerdict)
    assert (verdict.schema_, verdict.data) == (4, 5)
    assert "schema: Input should be less than or equal to 5" in str(chat._seen[1][-1].content)
    assert client.meter.snapshot().tokens == 240


def test_meter_counts_calls_and_tokens_per_step() -> None:
    client, _ = _client([GOOD_VERDICT, '{"relevance": 8, "completeness": 6, "missing": "shifts"}'])
    before = client.meter.snapshot()
    client.call_structured("sql_judge", JUDGE_VARS, SqlVerdict)
    step = client.meter.snapshot() - before
    assert (step.calls, step.tokens) == (1, 120)
    with client.meter.measure() as usage:
        verdict = client.call_structured(
            "retrieval_judge", {"question": "q", "evidence": "", "schema_context": "s"}, RetrievalVerdict
        )
    assert verdict.missing == "shifts"
    assert (usage.calls, usage.tokens) == (1, 120)
    assert client.for_session().meter.snapshot().calls == 0


def test_prompt_variables_are_checked_before_any_call() -> None:
    client, chat = _client([GOOD_VERDICT])
    with pytest.raises(ConfigError, match="missing: findings"):
        client.call_structured("sql_judge", {k: v for k, v in JUDGE_VARS.items() if k != "findings"}, SqlVerdict)
    assert chat._seen == []


"""The real OpenAI SDK against a local stub server: SDK retries are off, Aria's retries and parsing work.

The stub listens on 127.0.0.1 only; nothing leaves the machine.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from aria.config import Settings
from aria.errors import ModelError
from aria.llm import RetryPolicy, SqlVerdict, build_model_client

VERDICT = '{"column": 9, "granularity": 8, "join": 10, "logic": 7, "diagnosis": "ok"}'
JUDGE_VARS = {"question": "Món bán chạy nhất?", "schema_context": "orders(order_id)", "sql": "SELECT 1", "findings": ""}


def _completion(text: str) -> dict[str, Any]:
    return {
        "id": "cmpl-1",
        "object": "chat.completion",
        "created": 0,
        "model": "stub",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 50, "completion_tokens": 10, "total_tokens": 60},
    }


class Stub:
    def __init__(self) -> None:
        self.replies: list[tuple[int, dict[str, Any]]] = []
        self.requests: list[dict[str, Any]] = []


@pytest.fixture()
def stub() -> Iterator[tuple[Stub, str]]:
    state = Stub()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 (http.server's name)
            length = int(self.headers.get("Content-Length", "0"))
            state.requests.append(json.loads(self.rfile.read(length)))
            status, body = state.replies.pop(0)
            payload = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield state, f"http://127.0.0.1:{server.server_address[1]}/v1"
    server.shutdown()
    server.server_close()


def _client(base_url: str, delays: list[float]) -> Any:
    settings = Settings(llm=f"openai-compatible:stub-model@{base_url}", judge_llm=None, openai_api_key=None)
    client = build_model_client(settings, policy=RetryPolicy(max_retries=2, sleep=delays.append, rand=lambda: 0.0))
    assert client is not None
    return client


def test_429_and_500_are_retried_by_aria_not_the_sdk(stub: tuple[Stub, str]) -> None:
    state, base_url = stub
    error = {"error": {"message": "slow down", "type": "rate_limit"}}
    state.replies = [(429, error), (500, {"error": {"message": "oops"}}), (200, _completion(f"```json\n{VERDICT}\n```"))]
    delays: list[float] = []
    client = _client(base_url, delays)
    verdict = client.call_structured("sql_judge", JUDGE_VARS, SqlVerdict)
    assert (verdict.join, verdict.logic) == (10, 7)
    assert len(state.requests) == 3  # the SDK's own retries are off
    assert delays == [0.5, 1.0]
    assert state.requests[0]["model"] == "stub-model"
    assert state.requests[0]["messages"][0]["content"].startswith("[aria role: sql_judge]")
    reading = client.meter.snapshot()
    assert (reading.calls, reading.tokens, reading.failures) == (1, 60, 2)


def test_a_400_fails_at_once_with_the_providers_reason(stub: tuple[Stub, str]) -> None:
    state, base_url = stub
    state.replies = [(400, {"error": {"message": "model stub-model does not exist"}}), (200, _completion(VERDICT))]
    delays: list[float] = []
    with pytest.raises(ModelError, match="HTTP 400.*does not exist"):
        _client(base_url, delays).call_structured("sql_judge", JUDGE_VARS, SqlVerdict)
    assert len(state.requests) == 1 and delays == []

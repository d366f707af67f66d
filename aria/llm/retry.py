"""Aria's own retry policy for model calls (the SDKs' retries are off): bounded, exponential backoff
with jitter, only on timeouts, HTTP 429 and 5xx. Everything else fails at once with a clear ModelError.
"""

from __future__ import annotations

import logging
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal, TypeVar

from aria.config import Settings
from aria.errors import ModelError
from aria.llm.meter import CallMeter

log = logging.getLogger(__name__)
T = TypeVar("T")
FailureKind = Literal["timeout", "rate_limit", "server", "client", "connection", "other"]
RETRYABLE: frozenset[str] = frozenset({"timeout", "rate_limit", "server"})


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how patiently to retry. Inject ``sleep`` (and ``rand``) in tests."""

    max_retries: int = 3
    base_delay_s: float = 0.5
    max_delay_s: float = 8.0
    jitter: float = 0.25  # each delay is stretched by up to this fraction, at random
    sleep: Callable[[float], None] = field(default=time.sleep, compare=False)
    rand: Callable[[], float] = field(default=random.random, compare=False)

    @classmethod
    def from_settings(cls, settings: Settings, **overrides: object) -> RetryPolicy:
        values: dict[str, object] = {
            "max_retries": settings.llm_max_retries,
            "base_delay_s": settings.llm_backoff_s,
            "max_delay_s": settings.llm_backoff_max_s,
        }
        values.update(overrides)
        return cls(**values)  # type: ignore[arg-type]

    def delay(self, retry_index: int) -> float:
        """Seconds to wait before retry number ``retry_index`` (0-based)."""
        base = min(self.max_delay_s, self.base_delay_s * (2**retry_index))
        return base * (1.0 + self.jitter * self.rand())


@dataclass(frozen=True)
class Failure:
    kind: FailureKind
    status: int | None = None
    detail: str = ""


def _sdk_types() -> tuple[tuple[type[BaseException], ...], tuple[type[BaseException], ...]]:
    """(timeout types, connection types) of the provider SDKs in use.

    An SDK that was never imported cannot have raised, so only loaded ones are looked at (importing
    anthropic and openai just to classify an error would cost seconds).
    """
    import httpx

    timeouts: list[type[BaseException]] = [httpx.TimeoutException, TimeoutError]
    connections: list[type[BaseException]] = [httpx.TransportError, ConnectionError]
    for name in ("anthropic", "openai"):
        sdk = sys.modules.get(name)
        if sdk is not None:
            timeouts.append(sdk.APITimeoutError)
            connections.append(sdk.APIConnectionError)
    return tuple(timeouts), tuple(connections)


def _status_of(exc: BaseException) -> int | None:
    status = getattr(exc, "status_code", None)
    if status is None:
        response = getattr(exc, "response", None)
        status = getattr(response, "status_code", None)
    return status if isinstance(status, int) and status > 0 else None


def classify(exc: BaseException) -> Failure:
    """Map an SDK exception (anthropic, openai, httpx, ollama) to a failure kind."""
    detail = " ".join(str(exc).split())[:200]
    timeouts, connections = _sdk_types()
    if isinstance(exc, timeouts):
        return Failure("timeout", None, detail)
    status = _status_of(exc)
    if status == 429:
        return Failure("rate_limit", status, detail)
    if status is not None and status >= 500:
        return Failure("server", status, detail)
    if status is not None and status >= 400:
        return Failure("client", status, detail)
    if isinstance(exc, connections):
        return Failure("connection", None, detail)
    return Failure("other", status, detail)


def failure_message(failure: Failure, attempts: int, label: str, timeout_s: float) -> ModelError:
    """The ModelError a person sees after the last attempt."""
    times = f"{attempts} time{'s' if attempts != 1 else ''}"
    if failure.kind == "timeout":
        return ModelError(
            f"The model {label} timed out {times} ({timeout_s:g} s each).",
            hint="Try again, or set ARIA_LLM_TIMEOUT_S.",
        )
    if failure.kind == "rate_limit":
        return ModelError(
            f"The model provider rate-limited Aria {times} (HTTP 429) for {label}.",
            hint="Wait a minute and try again, or raise ARIA_LLM_MAX_RETRIES.",
        )
    if failure.kind == "server":
        return ModelError(
            f"The model provider failed {times} (HTTP {failure.status}) for {label}.",
            hint="The provider is having trouble; try again later.",
        )
    if failure.kind == "client":
        hint = "Check the API key." if failure.status in (401, 403) else "Check the model name in ARIA_LLM."
        return ModelError(
            f"The model provider refused the request for {label} (HTTP {failure.status}: {failure.detail}).",
            hint=hint,
        )
    if failure.kind == "connection":
        return ModelError(
            f"Could not reach the model {label} ({failure.detail}).",
            hint="Check the network, or that the model server is running.",
        )
    return ModelError(f"The model call to {label} failed ({failure.detail}).", hint="Try again.")


def call_with_retries(
    fn: Callable[[], T], *, policy: RetryPolicy, label: str, timeout_s: float, meter: CallMeter | None = None
) -> T:
    """Run ``fn``; retry timeouts, 429 and 5xx up to ``policy.max_retries`` times with backoff."""
    attempt = 0
    while True:
        try:
            return fn()
        except ModelError:
            raise
        except Exception as exc:  # every failure is classified; unknown ones become a ModelError with cause
            if meter is not None:
                meter.record_failure()
            failure = classify(exc)
            attempt += 1
            if failure.kind not in RETRYABLE or attempt > policy.max_retries:
                log.warning("model call to %s failed after %d attempt(s): %r", label, attempt, exc)
                raise failure_message(failure, attempt, label, timeout_s) from exc
            wait = policy.delay(attempt - 1)
            log.info("model call to %s: %s (%s); retry %d in %.2f s", label, failure.kind, failure.status, attempt, wait)
            policy.sleep(wait)

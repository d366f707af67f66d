"""Counting model calls and tokens, so every trace step can say what it cost.

The engine reads the meter around each step::

    before = client.meter.snapshot()
    verdict = judge_sql(...)
    used = client.meter.snapshot() - before   # MeterReading(calls=1, tokens=812)

Thread-safe: one meter per :class:`~aria.llm.client.ModelClient`; build one client per session.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class MeterReading:
    calls: int = 0  # model responses received (re-asks after malformed output count; failed attempts don't)
    tokens: int = 0  # input + output tokens reported by the provider
    failures: int = 0  # attempts that raised (timeouts, 429, 5xx, ...)

    def __sub__(self, other: MeterReading) -> MeterReading:
        return MeterReading(self.calls - other.calls, self.tokens - other.tokens, self.failures - other.failures)

    def __add__(self, other: MeterReading) -> MeterReading:
        return MeterReading(self.calls + other.calls, self.tokens + other.tokens, self.failures + other.failures)


@dataclass
class StepUsage:
    """Filled in when a :meth:`CallMeter.measure` block ends."""

    reading: MeterReading = field(default_factory=MeterReading)

    @property
    def calls(self) -> int:
        return self.reading.calls

    @property
    def tokens(self) -> int:
        return self.reading.tokens


class CallMeter:
    """Running totals of model calls and tokens."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._total = MeterReading()

    def record_response(self, tokens: int) -> None:
        with self._lock:
            self._total = self._total + MeterReading(calls=1, tokens=max(tokens, 0))

    def record_failure(self) -> None:
        with self._lock:
            self._total = self._total + MeterReading(failures=1)

    def snapshot(self) -> MeterReading:
        with self._lock:
            return self._total

    @contextmanager
    def measure(self) -> Iterator[StepUsage]:
        """``with meter.measure() as usage: ...`` then ``usage.calls`` / ``usage.tokens``."""
        usage = StepUsage()
        before = self.snapshot()
        try:
            yield usage
        finally:
            usage.reading = self.snapshot() - before


def tokens_of(message: Any) -> int:
    """Total tokens of a LangChain message from its ``usage_metadata`` (0 when not reported)."""
    usage = getattr(message, "usage_metadata", None) or {}
    total = usage.get("total_tokens")
    if total is None:
        total = int(usage.get("input_tokens", 0) or 0) + int(usage.get("output_tokens", 0) or 0)
    return int(total or 0)

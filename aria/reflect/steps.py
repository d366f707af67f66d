"""Running one traced step: its time, its model calls and tokens, appended to the trace and
streamed to whoever listens (the UI's live progress, the CLI)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from aria.llm.meter import CallMeter
from aria.reflect.trace import Loop, Trace, TraceEvent

EventSink = Callable[[TraceEvent], None]


@dataclass
class StepRecorder:
    """Appends events to one trace and tells the listener; knows the meters to diff per step."""

    trace: Trace
    meter: CallMeter | None = None  # the session's model-call meter
    on_event: EventSink | None = None

    def _usage(self) -> tuple[int, int]:
        if self.meter is None:
            return 0, 0
        reading = self.meter.snapshot()
        return reading.calls, reading.tokens

    @contextmanager
    def step(self, loop: Loop, step: str, iteration: int = 0) -> Iterator[TraceEvent]:
        """Time the block; the event it yields is filled in by the caller and recorded on exit,
        also when the block raises (the error text is kept on the event)."""
        event = TraceEvent(loop=loop, step=step, iteration=iteration)
        calls0, tokens0 = self._usage()
        started = time.perf_counter()
        try:
            yield event
        except Exception as err:
            event.error = event.error or str(err)
            raise
        finally:
            event.duration_ms = round((time.perf_counter() - started) * 1000, 2)
            calls1, tokens1 = self._usage()
            event.llm_calls, event.tokens = calls1 - calls0, tokens1 - tokens0
            self.trace.add(event)
            if self.on_event is not None:
                self.on_event(event)

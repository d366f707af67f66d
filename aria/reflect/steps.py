"""Running one traced step: its time, its model calls and tokens, appended to the trace, streamed to
whoever listens (``Engine.stream``), and reported to LangChain's callbacks as a child run.

The question is one LangChain run (the engine's :class:`~langchain_core.runnables.Runnable` opens it);
each pass of a loop (:meth:`StepRecorder.loop`) and each step (:meth:`StepRecorder.step`) is a child
run of the innermost one open, named after it, with the step's scores, rewritten question, SQL and
findings as its outputs. A model call passes :meth:`StepRecorder.callbacks` in its config, so it nests
under the step that made it. Without a handler attached (none given, no LangSmith), no child run is made.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from langchain_core.callbacks import CallbackManager, CallbackManagerForChainRun

from aria.llm.meter import CallMeter
from aria.reflect.trace import Loop, Trace, TraceEvent

EventSink = Callable[[TraceEvent], None]


@dataclass
class StepRecorder:
    """Appends events to one trace and tells the listener; knows the meters to diff per step and the
    LangChain runs open around the current step."""

    trace: Trace
    meter: CallMeter | None = None  # the session's model-call meter
    on_event: EventSink | None = None  # Engine.stream's queue
    run: CallbackManagerForChainRun | None = None  # the question's run; None: no callbacks at all
    _open: list[CallbackManagerForChainRun] = field(default_factory=list)

    def _usage(self) -> tuple[int, int]:
        if self.meter is None:
            return 0, 0
        reading = self.meter.snapshot()
        return reading.calls, reading.tokens

    def callbacks(self) -> CallbackManager | None:
        """The callbacks of a child of the innermost open run: what a model call passes in its config."""
        parent = self._open[-1] if self._open else self.run
        return parent.get_child() if parent is not None else None

    @contextmanager
    def _child_run(self, name: str, metadata: dict[str, Any], outputs: Callable[[], dict[str, Any]]) -> Iterator[None]:
        """A child run of the innermost open run for the block; ``outputs()`` is read when it ends."""
        callbacks = self.callbacks()
        if callbacks is None or not callbacks.handlers:  # nobody listens: no run to report
            yield
            return
        callbacks.add_metadata(metadata, inherit=False)
        run = callbacks.on_chain_start(None, dict(metadata), name=name)
        self._open.append(run)
        try:
            yield
        except BaseException as err:
            self._open.pop()
            run.on_chain_error(err)
            raise
        self._open.pop()
        run.on_chain_end(outputs())

    @contextmanager
    def loop(self, loop: Loop, iteration: int = 0) -> Iterator[dict[str, Any]]:
        """One pass of a loop as a child run; the caller puts the loop's outcome in the dict it yields."""
        outcome: dict[str, Any] = {}
        with self._child_run(loop, {"aria_loop": loop, "iteration": iteration}, lambda: outcome):
            yield outcome

    @contextmanager
    def step(self, loop: Loop, step: str, iteration: int = 0) -> Iterator[TraceEvent]:
        """Time the block; the event it yields is filled in by the caller and recorded on exit,
        also when the block raises (the error text is kept on the event)."""
        event = TraceEvent(loop=loop, step=step, iteration=iteration)
        metadata = {"aria_loop": loop, "aria_step": step, "iteration": iteration}
        with self._child_run(step, metadata, lambda: _run_outputs(event)):
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


def _run_outputs(event: TraceEvent) -> dict[str, Any]:
    """What a step's run reports: the event's fields that were set (scores, Q′, SQL, findings, ...)."""
    fields = event.model_dump(mode="json", exclude={"loop", "step", "iteration"})
    return {name: value for name, value in fields.items() if value not in (None, "", [], {})}

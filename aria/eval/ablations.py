"""Engine mode: the Reflect-SQL engine as a :class:`~aria.eval.runner.Predictor`, under the
paper's ablations.

Ablation name -> :class:`~aria.reflect.answer.AskOptions` (reuse of verified queries is always off
in evaluation, so a benchmark never answers from a stored gold):

======================== =================================================
``full``                  every loop on
``no-sql-reflection``     ``sql_reflection=False`` (both tiers of Loop 2 off)
``no-entailment``         ``entailment=False`` (Loop 3 off)
``no-iterative-retrieval`` ``retrieval_loop=False`` (Loop 1 retrieves once, no judge/rewrite)
======================== =================================================

On ``smartrestaurant`` the engine is :func:`aria.reflect.factory.open_engine` (``Engine.ask`` with
the ablation's options). On the SQLite benchmarks (Spider dev, BIRD dev) it is
:func:`aria.eval.sqlite_engine.eval_answer_fn`: one engine per database (dialect ``sqlite``),
each with its KB in the dataset's own KB schema, answering one :class:`EvalItem` (question +
evidence, on the item's database).
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass
from typing import Protocol

from aria.config import Settings
from aria.errors import ConfigError
from aria.eval.datasets import Dataset, EvalItem
from aria.eval.runner import Prediction, Predictor
from aria.reflect.answer import Answer, AskOptions

ABLATIONS: dict[str, dict[str, bool]] = {
    "full": {},
    "no-sql-reflection": {"sql_reflection": False},
    "no-entailment": {"entailment": False},
    "no-iterative-retrieval": {"retrieval_loop": False},
}


def ask_options(ablation: str) -> AskOptions:
    """The engine switches of one ablation.

    >>> ask_options("no-entailment").entailment
    False
    """
    if ablation not in ABLATIONS:
        raise ConfigError(f"Unknown ablation {ablation!r}.", hint=f"Use some of: {', '.join(ABLATIONS)}.")
    return AskOptions.model_validate({"reuse": False, **ABLATIONS[ablation]})


def parse_ablations(text: str) -> list[str]:
    """``"full,no-entailment"`` -> ``["full", "no-entailment"]`` (each checked)."""
    names = [name.strip() for name in text.split(",") if name.strip()]
    for name in names:
        ask_options(name)
    if not names:
        raise ConfigError("No ablation given.", hint=f"Use some of: {', '.join(ABLATIONS)}.")
    return list(dict.fromkeys(names))


class AnswerFn(Protocol):
    def __call__(self, item: EvalItem, options: AskOptions) -> Answer: ...


def trace_summary(answer: Answer) -> str:
    """One line about how the answer was reached: status, events per loop, the last error."""
    per_loop = Counter(event.loop for event in answer.trace.events)
    loops = ", ".join(f"{loop} {count}" for loop, count in per_loop.items())
    error = f"; error: {answer.error}" if answer.error else ""
    return f"{answer.status} ({loops or 'no events'}){error}"


@dataclass(frozen=True)
class EnginePredictor:
    answer_fn: AnswerFn
    options: AskOptions

    def __call__(self, item: EvalItem) -> Prediction:
        started = time.perf_counter()
        answer = self.answer_fn(item, self.options)
        return Prediction(
            sql=answer.sql,
            llm_calls=answer.llm_calls,
            tokens=answer.trace.tokens,
            latency_ms=(time.perf_counter() - started) * 1000,
            trace_summary=trace_summary(answer),
        )


def _answer_fn(settings: Settings, dataset: Dataset) -> AnswerFn:
    """SmartRestaurant: the engine on the restaurant database; SQLite benchmarks: one engine per database."""
    if dataset.dialect == "postgres":
        from aria.reflect.factory import open_engine

        engine = open_engine(settings)

        def answer(item: EvalItem, options: AskOptions) -> Answer:
            return engine.ask(item.question, options=options, evidence=item.evidence)

        return answer
    from aria.eval.sqlite_engine import eval_answer_fn

    return eval_answer_fn(settings, dataset)


def engine_predictors(settings: Settings, dataset: Dataset, ablations: list[str]) -> dict[str, Predictor]:
    """One engine predictor per ablation; a clear error when no model is set or no engine fits."""
    if not settings.llm:
        raise ConfigError(
            "Engine mode needs a model.",
            hint="Pass --llm SPEC (and --judge-llm SPEC), or score a file with --predictions FILE.",
        )
    answer_fn = _answer_fn(settings, dataset)
    return {name: EnginePredictor(answer_fn, ask_options(name)) for name in ablations}

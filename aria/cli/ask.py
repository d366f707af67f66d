"""``aria ask "question"``: one question through the Reflect-SQL engine."""

from __future__ import annotations

from typing import TYPE_CHECKING

import typer
from rich.console import Console
from rich.table import Table

from aria.cli.common import print_json, settings
from aria.reflect.answer import Answer, AskOptions, Question
from aria.reflect.trace import TraceEvent

if TYPE_CHECKING:  # the engine (and LangChain) is imported when a question is asked
    from aria.reflect.engine import Engine


def _show_step(event: TraceEvent, console: Console) -> None:
    scores = ", ".join(f"{k}={v.value:g}" for k, v in event.scores.items() if k in ("score_r", "s", "e"))
    extra = f" [{scores}]" if scores else ""
    error = f" error: {event.error}" if event.error else ""
    console.print(f"[dim]{event.loop}/{event.step} #{event.iteration}{extra}{error}[/dim]")


def _stream(engine: Engine, question: Question, console: Console | None) -> Answer:
    """The answer, with each step printed as it finishes (``console``)."""
    for chunk in engine.stream(question):
        if isinstance(chunk, Answer):
            return chunk
        if console is not None:
            _show_step(chunk, console)
    raise RuntimeError("the engine's stream ended without an answer")


def _print_answer(answer: Answer, console: Console) -> None:
    console.print(f"[bold]{answer.answer_text}[/bold]")
    if answer.columns:
        table = Table(*answer.columns)
        for row in answer.rows[:50]:
            table.add_row(*("" if v is None else str(v) for v in row))
        console.print(table)
    if answer.sql:
        console.print(f"[dim]{answer.sql}[/dim]")
    console.print(f"[dim]status: {answer.status}; model calls: {answer.llm_calls}; model: {answer.trace.model_label}[/dim]")


def ask(
    question: str = typer.Argument(..., help="The question, in Vietnamese or English."),
    as_json: bool = typer.Option(False, "--json", help="Print the answer and its trace as JSON."),
    llm: str | None = typer.Option(None, "--llm", help="Generator model spec (overrides ARIA_LLM)."),
    judge_llm: str | None = typer.Option(None, "--judge-llm", help="Judge model spec (overrides ARIA_JUDGE_LLM)."),
    confirm: bool = typer.Option(False, "--confirm", help="Confirm the answer: the KB learns from it."),
    no_retrieval_loop: bool = typer.Option(False, "--no-retrieval-loop", help="Ablation: no retrieval judge/rewrite."),
    no_sql_reflection: bool = typer.Option(False, "--no-sql-reflection", help="Ablation: no SQL checks/judge."),
    no_entailment: bool = typer.Option(False, "--no-entailment", help="Ablation: no entailment judge."),
) -> None:
    """Ask a question. Without a model, Aria answers from verified queries or says so."""
    from aria.reflect.factory import open_engine

    overrides = {k: v for k, v in (("llm", llm), ("judge_llm", judge_llm)) if v}
    config = settings().model_copy(update=overrides)
    console = Console(stderr=True)
    engine = open_engine(config)
    try:
        options = AskOptions(retrieval_loop=not no_retrieval_loop, sql_reflection=not no_sql_reflection,
                             entailment=not no_entailment)
        answer = _stream(engine, Question(text=question, options=options), None if as_json else console)
        revisions: list[int] = []
        if confirm and answer.status in ("answered", "reused"):
            revisions = engine.confirm(engine.propose(answer), confirmed_by="cli")
        if as_json:
            print_json({**answer.to_json(), "revisions": revisions})
        else:
            _print_answer(answer, Console())
            if confirm:
                console.print(f"learned: revisions {revisions}" if revisions else "nothing learned (not confirmable)")
            if not engine.has_model and answer.status == "no_model":
                console.print("To let Aria write SQL, set ARIA_LLM, e.g. ARIA_LLM=anthropic:claude-sonnet-4-5 "
                              "(see the README, 'Connecting a real model').")
    finally:
        engine.close()
    if answer.status == "error":
        raise typer.Exit(code=1)

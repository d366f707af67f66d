"""The ``aria`` command. Every subcommand calls the same library functions the UI calls."""

from __future__ import annotations

import logging
import sys

import typer

from aria.cli import ask as ask_cli
from aria.cli import bench as bench_cli
from aria.cli import config_cmd
from aria.cli import db as db_cli
from aria.cli import demo as demo_cli
from aria.cli import eval as eval_cli
from aria.cli import kb as kb_cli
from aria.cli import sql as sql_cli
from aria.errors import AriaError

app = typer.Typer(
    name="aria",
    help="Aria: ask your restaurant's database questions in Vietnamese or English.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)
app.add_typer(db_cli.app, name="db")
app.add_typer(bench_cli.app, name="bench")
app.add_typer(sql_cli.app, name="sql")
app.add_typer(config_cmd.app, name="config")
app.add_typer(kb_cli.app, name="kb")
app.command("demo")(demo_cli.demo)
app.command("ask")(ask_cli.ask)
app.command("eval")(eval_cli.eval_command)
bench_cli.app.command("eval-speed")(eval_cli.bench_eval_speed)
# Sub-applications registered below by their own modules (kb, ask, sql, eval, bench).


def main() -> None:
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    try:
        app()
    except AriaError as err:
        typer.secho(f"aria: {err}", fg=typer.colors.RED, err=True)
        sys.exit(2)

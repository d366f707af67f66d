"""The ``aria`` command. Every subcommand calls the same library functions the UI calls."""

from __future__ import annotations

import logging
import sys
from typing import NoReturn

import typer
from pydantic import ValidationError

from aria.cli import ask as ask_cli
from aria.cli import bench as bench_cli
from aria.cli import config_cmd
from aria.cli import db as db_cli
from aria.cli import demo as demo_cli
from aria.cli import eval as eval_cli
from aria.cli import kb as kb_cli
from aria.cli import semantic as semantic_cli
from aria.cli import sql as sql_cli
from aria.cli import users as users_cli
from aria.config import Settings, debug_requested, is_utf8, settings_error_lines
from aria.errors import AriaError, ConfigError

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
app.add_typer(semantic_cli.app, name="semantic")
app.add_typer(users_cli.app, name="users")
app.command("demo")(demo_cli.demo)
app.command("ask")(ask_cli.ask)
app.command("eval")(eval_cli.eval_command)
bench_cli.app.command("eval-speed")(eval_cli.bench_eval_speed)
bench_cli.app.command("semantic")(semantic_cli.bench_semantic)
# Sub-applications registered below by their own modules (kb, ask, sql, eval, bench).


EXIT_FAILED = 1  # something failed at run time (database, model, ...)
EXIT_USAGE = 2  # bad input: an argument, a setting, aria.toml


def main() -> None:
    """The ``aria`` command: every bad input or failure is one line on stderr (and exit 1 or 2), never a
    traceback; ``ARIA_DEBUG=1`` shows the traceback of an unexpected error."""
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    for position, argument in enumerate(sys.argv[1:], start=1):
        if not is_utf8(argument):
            _fail([f"argument {position} is not valid UTF-8. Retype it, or set the terminal to UTF-8."], EXIT_USAGE)
    try:
        app()
    except ValidationError as err:
        if err.title != Settings.__name__:
            _unexpected(err)
        _fail(settings_error_lines(err), EXIT_USAGE)
    except ConfigError as err:
        _fail([str(err)], EXIT_USAGE)
    except AriaError as err:
        _fail([str(err)], EXIT_FAILED)
    except UnicodeError as err:
        reason = getattr(err, "reason", type(err).__name__)
        _fail([f"text that is not valid UTF-8 ({reason}) in an argument, a setting or a file."], EXIT_USAGE)
    except Exception as err:  # noqa: BLE001 - the last resort: one line, the traceback on request
        _unexpected(err)


def _unexpected(err: Exception) -> NoReturn:
    if debug_requested():
        raise err
    first = (str(err).strip().splitlines() or [""])[0][:300]
    _fail([f"unexpected error: {type(err).__name__}: {first} (ARIA_DEBUG=1 shows the traceback)"], EXIT_FAILED)


def _fail(lines: list[str], code: int) -> NoReturn:
    for line in lines:
        safe = " ".join(line.split()).encode("utf-8", "backslashreplace").decode("utf-8")
        typer.secho(f"aria: {safe}", fg=typer.colors.RED, err=True)
    sys.exit(code)

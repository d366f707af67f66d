"""``aria sql check|run``: the safety guard and the read-only executor from the command line.

Exit codes: 0 allowed / ran; 1 rejected (safety guard or cost guard); 2 the query failed (a
database error or limit, said as the server said it) or the database is unavailable; 3 the query
ran past its deadline (one deadline covers EXPLAIN and execution).
"""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from aria.cli.common import print_json, settings, targets
from aria.db.executor import QueryResult, ReadOnlyExecutor
from aria.errors import AriaError, GuardRejection, QueryTimeout
from aria.sql.guard import check_sql

app = typer.Typer(help="Check SQL against the safety guard, or run it read-only.", no_args_is_help=True)

EXIT_REJECTED = 1
EXIT_FAILED = 2
EXIT_TIMEOUT = 3


@app.command("check")
def check(
    sql: Annotated[str, typer.Argument(help="The SQL to check.")],
    dialect: Annotated[str, typer.Option(help="postgres or sqlite.")] = "postgres",
) -> None:
    """Say whether the safety guard allows SQL (exit 0, prints 'allowed') or why not (exit 1)."""
    schemas = frozenset({settings().business_schema})
    verdict = check_sql(sql, dialect=dialect, allowed_schemas=schemas)
    if not verdict.allowed:
        typer.echo(f"rejected: {verdict.reason}", err=True)
        raise typer.Exit(EXIT_REJECTED)
    typer.echo("allowed")
    typer.echo(verdict.sql)


@app.command("run")
def run(
    sql: Annotated[str, typer.Argument(help="The SQL to run (a single SELECT).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print {columns, rows} as JSON.")] = False,
    row_cap: Annotated[int | None, typer.Option(help="Most rows to return (default: ARIA_ROW_CAP).")] = None,
) -> None:
    """Run SQL through the guard, the cost guard and the read-only executor (row cap, byte cap, value clip)."""
    try:
        with ReadOnlyExecutor(targets().reader, settings(), pool_name="aria-cli") as executor:
            result = executor.run(sql, row_cap=row_cap)
    except AriaError as err:
        typer.echo(f"{_label(err)}: {err}", err=True)
        raise typer.Exit(_exit_code(err)) from err
    if as_json:
        print_json({"columns": result.columns, "rows": result.rows, "truncated": result.truncated,
                    "note": result.note})
    else:
        _print_table(result)


def _label(err: AriaError) -> str:
    if isinstance(err, GuardRejection):
        return "rejected"
    return "timeout" if isinstance(err, QueryTimeout) else "error"


def _exit_code(err: AriaError) -> int:
    if isinstance(err, GuardRejection):
        return EXIT_REJECTED
    return EXIT_TIMEOUT if isinstance(err, QueryTimeout) else EXIT_FAILED


def _print_table(result: QueryResult) -> None:
    table = Table(*result.columns)
    for row in result.rows:
        table.add_row(*("" if value is None else str(value) for value in row))
    console = Console()
    console.print(table)
    more = f" ({result.note})" if result.note else ""
    if result.truncated and result.note.startswith("more than"):
        more = f" ({result.note}: raise --row-cap)"
    console.print(f"{result.row_count} rows in {result.duration_ms:.0f} ms{more}")

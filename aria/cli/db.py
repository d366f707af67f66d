"""``aria db seed|status|stop``: the restaurant database."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from zoneinfo import ZoneInfo

import typer

from aria.cli import common
from aria.cli.common import one_line_errors
from aria.errors import ConfigError

app = typer.Typer(help="The restaurant database: seed it, show its state, stop the embedded server.", no_args_is_help=True)


def parse_as_of(text: str | None, timezone: str) -> datetime:
    """``--as-of``: an ISO timestamp (naive = the restaurant's time zone); unset = now, to the minute."""
    tz = ZoneInfo(timezone)
    if not text:
        return datetime.now(tz).replace(second=0, microsecond=0)
    try:
        moment = datetime.fromisoformat(text)
    except ValueError as err:
        raise ConfigError(
            f"--as-of {text!r} is not a timestamp.", hint="Write it like 2026-11-15T19:40 or '2026-11-15 19:40+07:00'."
        ) from err
    return moment if moment.tzinfo else moment.replace(tzinfo=tz)


@contextmanager
def _spinner(first: str) -> Iterator[Callable[[str], None]]:
    from rich.console import Console

    console = Console(stderr=True)
    with console.status(first) as status:
        yield lambda step: status.update(step)


@app.command("seed")
def seed(
    as_of: str | None = typer.Option(None, "--as-of", help="The business clock (ISO timestamp). Default: now."),
    days: int = typer.Option(182, "--days", min=1, max=3660, help="How many days of history to generate."),
    seed_value: int = typer.Option(42, "--seed", help="Random seed: same seed, as-of and days give the same data."),
    replace: bool = typer.Option(False, "--replace", help="Drop the business schema first if it holds data."),
) -> None:
    """Generate the SmartRestaurant data and load it in one transaction."""
    from aria.db.seed import seed_database

    with one_line_errors():
        cfg = common.settings()
        moment = parse_as_of(as_of, cfg.timezone)
        with _spinner("Starting the database") as progress:
            admin = common.targets().admin
            report = seed_database(admin, cfg, as_of=moment, days=days, seed=seed_value, replace=replace,
                                   progress=progress)
    typer.echo(report.summary())


@app.command("status")
def status(as_json: bool = typer.Option(False, "--json", help="Print {url, tables, as_of} as JSON.")) -> None:
    """Show every business table with its row count, and the business clock."""
    from aria.db.seed import database_status

    with one_line_errors():
        cfg = common.settings()
        info = database_status(common.targets().admin, cfg)
    if as_json:
        common.print_json(info)
        return
    typer.echo(f"Database: {info['url']}  schema: {info['schema']}  business clock: {info['as_of'] or 'not set'}")
    if not info["tables"]:
        typer.echo(f"The schema {info['schema']} does not exist yet: run `aria db seed`.")
    width = max((len(t) for t in info["tables"]), default=0)
    for table, rows in info["tables"].items():
        typer.echo(f"  {table:<{width}}  {rows:>10,}")


@app.command("stop")
def stop() -> None:
    """Stop the embedded PostgreSQL server in ARIA_HOME."""
    from aria.db.embedded import embedded_running, stop_embedded

    with one_line_errors():
        cfg = common.settings()
        if cfg.database_url:
            typer.echo("ARIA_DATABASE_URL points at an external server; Aria does not stop it.")
            return
        if not (cfg.pg_dir.exists() and embedded_running(cfg.home)):
            typer.echo(f"The embedded server in {cfg.pg_dir} is not running.")
            return
        stop_embedded(cfg.home)
    typer.echo(f"Stopped the embedded server in {cfg.pg_dir}.")

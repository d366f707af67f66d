"""``aria config show|docs``: the effective settings, and the README's settings table."""

from __future__ import annotations

import typer

from aria.cli.common import print_json, settings
from aria.config import settings_table_markdown

app = typer.Typer(help="Settings: show the effective values, print the README table.", no_args_is_help=True)


@app.command("show")
def show() -> None:
    """Print the effective settings (environment, aria.toml, defaults) as JSON."""
    print_json(settings().model_dump(mode="json"))


@app.command("docs")
def docs() -> None:
    """Print the settings table in Markdown (pasted into the README)."""
    typer.echo(settings_table_markdown())

"""Helpers shared by the CLI modules: settings, targets and printing."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import typer

from aria.config import Settings, get_settings
from aria.db.connect import Targets, resolve_targets
from aria.errors import AriaError


@contextmanager
def one_line_errors() -> Iterator[None]:
    """Print an Aria error as one line (cause and fix) and exit 2, also when run under CliRunner."""
    try:
        yield
    except AriaError as err:
        typer.secho(f"aria: {err}", fg=typer.colors.RED, err=True)
        raise typer.Exit(code=2) from err


def settings() -> Settings:
    return get_settings()


def targets() -> Targets:
    return resolve_targets(get_settings())


def write_figures(path: str | Path, payload: Any) -> None:
    """Write a benchmark's figures as JSON and say where (every ``--out``/``--json`` option)."""
    Path(path).write_text(json.dumps(payload, indent=2, ensure_ascii=False, default=str), encoding="utf-8")
    typer.echo(f"Wrote {path}")


def print_json(payload: Any) -> None:
    typer.echo(json.dumps(payload, ensure_ascii=False, indent=2, default=str))

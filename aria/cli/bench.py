"""``aria bench ...``: the benchmarks whose figures the README quotes. Each command prints a table
and can write JSON."""

from __future__ import annotations

import typer

app = typer.Typer(help="Benchmarks: seed, retrieval, judges, engine overhead, reuse.", no_args_is_help=True)

"""``aria db seed|status|stop`` (being written)."""

from __future__ import annotations

import typer

app = typer.Typer(help="The restaurant database: seed it, show its state, stop the embedded server.")

"""``aria demo``: start the database, seed it if empty, build the knowledge base, serve the app."""

from __future__ import annotations

import typer


def demo(
    port: int = typer.Option(8501, help="Port to serve the app on."),
    no_browser: bool = typer.Option(False, "--no-browser", help="Do not open a browser."),
) -> None:
    """Set everything up on the embedded defaults and serve Aria's chat UI."""
    raise typer.Exit(code=1)

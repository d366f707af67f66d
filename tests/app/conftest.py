"""App-test fixtures: the app pointed at the test database and a fake engine."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from aria.config import Settings
from aria.semantic.layer import SemanticLayer, load_semantic_layer
from aria.ui import engine_access, resources
from tests.app.fakes import FakeEngine

APP_FILE = Path(__file__).resolve().parents[2] / "aria" / "ui" / "app.py"


@pytest.fixture(scope="session")
def semantic_layer(settings: Settings) -> SemanticLayer:
    """The real semantic layer from seed_db/semantic/, loaded once (no database: names come from the YAML)."""
    return load_semantic_layer(business_schema=settings.business_schema, semantic_schema=settings.semantic_schema)


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

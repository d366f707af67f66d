"""Session fixtures: one real embedded PostgreSQL (pgvector) per test session, seeded once.

Tests that change the knowledge base use their own uniquely named KB schema (``kb_settings``).
"""

from __future__ import annotations

import shutil
import tempfile
import uuid
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from aria.config import Settings
from aria.db.connect import Targets, resolve_targets

REPO = Path(__file__).resolve().parent.parent
BENCH_DIR = REPO.parent / "shared" / "bench"
# The business clock of the test database: golden answers are stable whatever day tests run.
TEST_AS_OF = datetime(2026, 11, 15, 19, 40, tzinfo=ZoneInfo("Asia/Ho_Chi_Minh"))
TEST_DAYS = 75
TEST_SEED = 7


@pytest.fixture(scope="session")
def aria_home() -> Iterator[Path]:
    home = Path(tempfile.mkdtemp(prefix="ariat", dir="/tmp"))  # short: the socket path is limited
    yield home
    from aria.db.embedded import stop_embedded

    stop_embedded(home)
    shutil.rmtree(home, ignore_errors=True)


@pytest.fixture(scope="session")
def settings(aria_home: Path) -> Settings:
    return Settings(home=aria_home, bench_dir=BENCH_DIR, database_url=None, kb_url=None, reader_url=None, llm=None)


@pytest.fixture(scope="session")
def targets(settings: Settings) -> Targets:
    return resolve_targets(settings)


@pytest.fixture(scope="session")
def seeded(settings: Settings, targets: Targets) -> Targets:
    """The SmartRestaurant database, seeded once per session with a fixed business clock."""
    from aria.db.seed import seed_database

    seed_database(targets.admin, settings, as_of=TEST_AS_OF, days=TEST_DAYS, seed=TEST_SEED, replace=True)
    return targets


@pytest.fixture()
def kb_settings(settings: Settings) -> Settings:
    """Settings whose knowledge base lives in a fresh, uniquely named schema."""
    return settings.model_copy(update={"kb_schema": f"kb_{uuid.uuid4().hex[:10]}"})

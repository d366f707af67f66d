"""The paper's Table 4 case, reproduced on a small copy of BIRD's california_schools.frpm table:
the first SQL divides two integer counts (truncating every ratio to 0) over schools whose
enrollment can be 0; the checks catch it, and the regenerated SQL casts and filters ``> 0``."""

from __future__ import annotations

import uuid

import psycopg
import pytest
from engine_support import ENTAILED, RETRIEVAL_OK, SQL_OK, scripted_client

from aria.config import Settings
from aria.db.connect import Targets, ensure_reader_role, resolve_targets
from aria.db.introspect import introspect_postgres
from aria.kb.build import build_kb
from aria.kb.embed import get_embedder
from aria.kb.store import KnowledgeStore
from aria.reflect.answer import AskOptions
from aria.reflect.factory import open_engine

QUESTION = "What is the highest eligible free rate for K-12 students in the schools in Alameda County?"
TRUNCATING = (
    'SELECT "Free Meal Count (K-12)" / "Enrollment (K-12)" AS free_rate FROM frpm '
    "WHERE \"County Name\" = 'Alameda' ORDER BY free_rate DESC LIMIT 1"
)
FIXED = (
    'SELECT CAST("Free Meal Count (K-12)" AS REAL) / "Enrollment (K-12)" AS free_rate FROM frpm '
    "WHERE \"County Name\" = 'Alameda' AND \"Enrollment (K-12)\" > 0 ORDER BY free_rate DESC LIMIT 1"
)
ROWS = [("01100170109835", "Alameda", "FAME Public Charter", 1069, 1072), ("01100170112607", "Alameda",
        "Envision Academy", 250, 375), ("01100170118489", "Alameda", "Aspire Academy", 0, 0),
        ("19647330100289", "Los Angeles", "Downtown Prep", 500, 600)]


@pytest.fixture(scope="module")
def schools(settings: Settings, targets: Targets) -> tuple[Settings, Targets]:
    name = f"schools_{uuid.uuid4().hex[:6]}"
    config = settings.model_copy(update={"business_schema": name, "reader_role": f"reader_{name}",
                                         "kb_schema": f"kb_{name}"})
    with psycopg.connect(targets.admin, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA {name}')
        conn.execute(f'CREATE TABLE {name}.frpm ("CDSCode" text PRIMARY KEY, "County Name" text, '
                     '"School Name" text, "Free Meal Count (K-12)" integer, "Enrollment (K-12)" integer)')
        with conn.cursor() as cur:
            cur.executemany(f"INSERT INTO {name}.frpm VALUES (%s, %s, %s, %s, %s)", ROWS)
        ensure_reader_role(conn, config)
    schools_targets = resolve_targets(config)
    build_kb(KnowledgeStore(schools_targets.kb, config), get_embedder(),
             introspect_postgres(schools_targets.admin, name))
    return config, schools_targets


def test_integer_division_and_zero_enrollment_lead_to_cast_and_filter(schools: tuple[Settings, Targets]) -> None:
    config, schools_targets = schools
    script = {
        "retrieval_judge": [RETRIEVAL_OK],
        "sql_generator": [TRUNCATING, FIXED],
        "sql_judge": [SQL_OK, SQL_OK],  # the judge misses it; the deterministic checks do not
        "entailment_judge": [ENTAILED],
    }
    engine = open_engine(config, targets=schools_targets, embedder=get_embedder(), models=scripted_client(script))
    try:
        answer = engine.ask(QUESTION, options=AskOptions(reuse=False))
    finally:
        engine.close()
    assert answer.status == "answered"
    first = [e for e in answer.trace.events if e.step == "judge_sql"][0]
    checks = {f.check for f in first.findings}
    assert "integer_division" in checks and "division_by_zero" in checks
    assert answer.sql == FIXED
    assert answer.rows[0][0] == pytest.approx(1069 / 1072)

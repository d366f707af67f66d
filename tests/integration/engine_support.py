"""Building engines on the seeded database with scripted (test) models, one KB per module."""

from __future__ import annotations

import uuid
from dataclasses import replace
from pathlib import Path
from typing import Any

from aria.config import Settings
from aria.db.connect import Targets
from aria.kb.embed import get_embedder
from aria.kb.service import build_from_source
from aria.llm.client import BoundModel, ModelClient
from aria.llm.retry import RetryPolicy
from aria.llm.scripted import ScriptedChatModel
from aria.reflect.engine import Engine
from aria.reflect.factory import open_engine

GOOD_SQL = (
    "SELECT mi.name_vi AS mon, SUM(oi.qty) AS so_luong FROM order_items AS oi "
    "JOIN orders AS o ON o.order_id = oi.order_id JOIN menu_items AS mi ON mi.item_id = oi.item_id "
    "WHERE o.status = 'COMPLETED' AND oi.line_status NOT IN ('VD', 'CXL') "
    "AND o.opened_at >= business_now() - interval '7 days' "
    "GROUP BY mi.item_id, mi.name_vi ORDER BY so_luong DESC, mi.item_id LIMIT 5"
)
RETRIEVAL_OK = {"relevance": 9, "completeness": 9, "missing": ""}
SQL_OK = {"column": 9, "granularity": 9, "join": 10, "logic": 9, "diagnosis": "ok"}
ENTAILED = {"schema": 5, "data": 5, "diagnosis": "ok"}


def build_kb_settings(settings: Settings, targets: Targets) -> Settings:
    """Settings whose KB (a fresh schema) holds the SmartRestaurant schema, descriptions and examples."""
    kb_settings = settings.model_copy(update={"kb_schema": f"kb_{uuid.uuid4().hex[:10]}"})
    build_from_source("postgres", targets.admin, targets.kb, kb_settings, embedder=get_embedder())
    return kb_settings


def scripted_client(script: dict[str, list[Any]]) -> ModelClient:
    """A metered client over the scripted test model (no retry delays)."""
    chat = ScriptedChatModel(path=Path("inline-test-script.json"), script=script)
    policy = RetryPolicy(max_retries=1, base_delay_s=0.0, max_delay_s=0.0, sleep=lambda _s: None)
    return ModelClient(BoundModel(chat, "scripted:inline (test model)"), policy=policy, timeout_s=5)


def engine_with(settings: Settings, targets: Targets, script: dict[str, list[Any]] | None, *,
                semantic: bool = False) -> Engine:
    """The engine with a scripted model. The semantic layer is off unless asked for: these tests drive the
    three loops, and the semantic stage would answer many of their questions before the loops run."""
    client = scripted_client(script) if script is not None else None
    engine = open_engine(settings, targets=targets, embedder=get_embedder(), models=client)
    return engine if semantic else Engine(replace(engine.deps, semantic=None))


def happy_script(**overrides: list[Any]) -> dict[str, list[Any]]:
    script: dict[str, list[Any]] = {
        "retrieval_judge": [RETRIEVAL_OK],
        "sql_generator": [f"```sql\n{GOOD_SQL}\n```"],
        "sql_judge": [SQL_OK],
        "entailment_judge": [ENTAILED],
        "kb_enricher": [{"descriptions": [{"table": "order_items", "column": "qty",
                                           "text": "Portions on the line; best-sellers sum it over COMPLETED orders."}],
                         "aliases": [{"term": "món bán chạy", "table": "order_items", "column": "qty", "value": None}]}],
    }
    script.update(overrides)
    return script

"""The semantic model (seed_db/semantic/, MetricFlow YAML): it parses and validates, every metric
and dimension carries the labels and synonyms the question parser reads, every metric compiles,
and broken copies are rejected, each with the exception MetricFlow gives for it.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from aria.paths import seed_dir

pytest.importorskip("metricflow")

from metricflow.engine.metricflow_engine import MetricFlowEngine, MetricFlowQueryRequest  # noqa: E402
from metricflow_semantic_interfaces.parsing.dir_to_model import (  # noqa: E402
    parse_directory_of_yaml_files_to_semantic_manifest,
)
from metricflow_semantic_interfaces.type_enums import DimensionType, EntityType  # noqa: E402
from metricflow_semantic_interfaces.validations.semantic_manifest_validator import (  # noqa: E402
    SemanticManifestValidator,
)
from metricflow_semantic_interfaces.validations.validator_helpers import (  # noqa: E402
    SemanticManifestValidationException,
)
from metricflow_semantics.errors.error_classes import InvalidQueryException  # noqa: E402
from metricflow_semantics.model.semantic_manifest_lookup import SemanticManifestLookup  # noqa: E402

from aria.semantic.compile import ReadOnlySqlClient

SEMANTIC_DIR = seed_dir() / "semantic"
MAPPING = {"business_schema": "restaurant", "semantic_schema": "aria_semantic"}
UNITS = {"vnd", "count", "portions", "minutes", "hours", "days", "percent", "ratio", "qty", "people", "time"}
DEFAULT_DECIMALS = {"vnd": 0, "count": 0, "portions": 0, "people": 0, "minutes": 1, "hours": 1, "days": 1, "time": 0,
                    "percent": 1, "ratio": 2, "qty": 2}
# Where the golden convention rounds differently from the unit's default (ex-033, ex-034: whole minutes;
# ex-046: party size to 1 decimal).
DECIMALS_EXCEPTIONS = {"oldest_pending_wait": 0, "longest_at_pass": 0, "avg_minutes_seated": 0, "minutes_seated_now": 0, "avg_party_size": 1, "avg_party_size_dine_in": 1,
                       "avg_daily_guests": 1, "avg_daily_orders": 1, "avg_daily_portions": 1, "longest_food_wait": 0, "items_per_order": 1,
                       "visits_per_customer": 2,  # visits per member: 1.35, not 1.4
                       "guests_per_order": 1}  # an average of guests, as the party size
DIRECTIONS = {"higher_is_better", "lower_is_better", "neutral"}
SNAKE = re.compile(r"^[a-z][a-z0-9_]*$")





def parse(directory: Path) -> Any:
    return parse_directory_of_yaml_files_to_semantic_manifest(str(directory), template_mapping=MAPPING).semantic_manifest


def clean(meta: Any) -> Any:
    """A meta value without the parser's ``__parsing_context__`` keys (added to every nested dict)."""
    if isinstance(meta, dict):
        return {k: clean(v) for k, v in meta.items() if k != "__parsing_context__"}
    if isinstance(meta, list):
        return [clean(v) for v in meta]
    return meta


def dangling_entities(manifest: Any) -> list[str]:
    """Foreign entities no semantic model owns (as primary, unique or natural): joins to nothing.

    MetricFlow's validators accept them; Aria rejects them."""
    owned = {e.name for m in manifest.semantic_models for e in m.entities if e.type != EntityType.FOREIGN}
    return sorted(f"{m.name}.{e.name}" for m in manifest.semantic_models for e in m.entities
                  if e.type == EntityType.FOREIGN and e.name not in owned)


@pytest.fixture(scope="module")
def manifest() -> Any:
    return parse(SEMANTIC_DIR)


def broken_copy(tmp_path: Path, file: str, old: str, new: str) -> Path:
    target = tmp_path / "semantic"
    shutil.copytree(SEMANTIC_DIR, target)
    text = (target / file).read_text(encoding="utf-8")
    assert old in text, old
    (target / file).write_text(text.replace(old, new, 1), encoding="utf-8")
    return target


# --- the model ------------------------------------------------------------------------------------


def test_manifest_validates_without_issues(manifest: Any) -> None:
    results = SemanticManifestValidator().validate_semantic_manifest(manifest)
    assert not results.has_blocking_issues, [i.as_readable_str() for i in results.all_issues]
    # Timestamps are kept to the second so a rolling window ("the last 30 days") filters to the second;
    # the time spine stays daily: nothing joins it below a day (no cumulative or offset metric at that grain).
    issues = [i.message for i in results.all_issues if "smallest time spine granularity" not in i.message.lower()]
    assert issues == []
    assert dangling_entities(manifest) == []


def test_schema_names_are_templates() -> None:
    for path in SEMANTIC_DIR.glob("*.yaml"):
        text = path.read_text(encoding="utf-8")
        names = re.findall(r"schema_name:\s*(\S+)", text)
        assert names and set(names) <= {"$business_schema", "$semantic_schema"}, path.name
        assert "restaurant." not in text, path.name


def _check_labels(where: str, meta: dict[str, Any], *, need_synonyms: bool) -> None:
    for key in ("label_vi", "label_en"):
        assert isinstance(meta.get(key), str) and meta[key].strip(), f"{where}: {key}"
    for key in ("synonyms_vi", "synonyms_en"):
        synonyms = meta.get(key)
        assert isinstance(synonyms, list), f"{where}: {key}"
        assert not need_synonyms or synonyms, f"{where}: {key} is empty"
        assert all(isinstance(s, str) and s == s.lower() and s.strip() == s and s for s in synonyms), (
            f"{where}: {key} must be lower-case phrases: {synonyms}")


def test_every_metric_has_labels_synonyms_and_presentation(manifest: Any) -> None:
    names = {m.name for m in manifest.metrics}
    columns: dict[str, str] = {}
    for metric in manifest.metrics:
        meta = clean(metric.config.meta)
        _check_labels(metric.name, meta, need_synonyms=True)
        assert any(re.search(r"[^\x00-\x7f]", s) for s in meta["synonyms_vi"] + [meta["label_vi"]]), (
            f"{metric.name}: Vietnamese wording without diacritics")
        assert meta["unit"] in UNITS, metric.name
        expected = DECIMALS_EXCEPTIONS.get(metric.name, DEFAULT_DECIMALS[meta["unit"]])
        assert meta["decimals"] == expected, metric.name
        assert SNAKE.match(meta["column"]), metric.name
        assert meta["column"] not in columns, f"{metric.name} and {columns.get(meta['column'])} share a column"
        columns[meta["column"]] = metric.name
        if meta["unit"] == "vnd":
            assert meta["column"].endswith("_vnd"), metric.name
        assert meta["direction"] in DIRECTIONS, metric.name
        assert set(meta.get("companions", [])) <= names - {metric.name}, metric.name
        read_as = [meta.get(key) for key in ("instead_live", "instead_dated", "instead_undated", "instead_ahead",
                                             "instead_all_time")]
        read_as += list(meta.get("instead_with", {}).values())
        assert {m for m in read_as if m} <= names - {metric.name}, metric.name  # each names another metric


def test_every_dimension_has_a_concept_labels_and_value_labels(manifest: Any) -> None:
    for model in manifest.semantic_models:
        concepts: dict[str, str] = {}
        for dim in model.dimensions:
            where = f"{model.name}.{dim.name}"
            assert dim.config is not None, f"{where}: no config.meta"
            meta = clean(dim.config.meta)
            _check_labels(where, meta, need_synonyms=dim.type == DimensionType.CATEGORICAL)
            assert SNAKE.match(meta.get("concept", "")), f"{where}: concept"
            if dim.name in ("name_vi", "name_en"):
                assert meta.get("lang") == dim.name[-2:], where
                concepts.setdefault(meta["concept"], dim.name)
            else:
                assert "lang" not in meta, where
            for code, value in meta.get("values", {}).items():
                _check_labels(f"{where}={code}", value, need_synonyms=True)
        pairs = [d.name for d in model.dimensions if d.name in ("name_vi", "name_en")]
        assert len(pairs) in (0, 2) and len(concepts) <= 1, f"{model.name}: name_vi/name_en must share a concept"


def test_the_same_thing_reached_through_different_models_shares_a_concept(manifest: Any) -> None:
    concept = {f"{m.name}.{d.name}": clean(d.config.meta)["concept"] for m in manifest.semantic_models
               for d in m.dimensions}
    assert concept["orders.hour_of_day"] == concept["kitchen_tickets.hour_of_day"] == "hour"
    assert "order_items.hour_of_day" not in concept  # a dish sold at an hour: its order's (the golden SQL's opened_at)
    assert concept["orders.weekday"] == concept["reservations.weekday"] == "weekday"
    assert concept["menu_items.name_vi"] == "dish" and concept["categories.cat_code"] == "category"
    assert concept["shifts.shift_code"] == "shift" and concept["dining_tables.area_code"] == "area"
    assert concept["payments.method"] == "payment_method" and concept["servers.full_name"] == "server"


def test_every_metric_compiles_by_day(manifest: Any) -> None:
    engine = MetricFlowEngine(SemanticManifestLookup(manifest), ReadOnlySqlClient())  # no executor: compiles only
    for metric in manifest.metrics:
        request = MetricFlowQueryRequest.create(metric_names=[metric.name], group_by_names=["metric_time__day"])
        sql = engine.explain(request).sql_statement.sql
        assert "restaurant." in sql and "$" not in sql, metric.name


# --- broken copies ----------------------------------------------------------------------------------


def test_unknown_measure_is_a_blocking_validation_error(tmp_path: Path) -> None:
    directory = broken_copy(tmp_path, "orders.yaml", "type_params: {measure: revenue}", "type_params: {measure: revenu}")
    results = SemanticManifestValidator().validate_semantic_manifest(parse(directory))
    assert results.has_blocking_issues
    messages = [issue.as_readable_str() for issue in results.errors]
    assert any("Measure revenu referenced in metric revenue is not defined in the model!" in m for m in messages)
    assert any("orders.yaml" in m and "line #" in m for m in messages)


def test_cycle_in_derived_metrics_fails_when_parsing(tmp_path: Path) -> None:
    directory = broken_copy(
        tmp_path, "orders.yaml",
        "metrics: [{name: cancelled_or_void_orders}, {name: all_orders}]",
        "metrics: [{name: cancelled_or_void_orders}, {name: cancel_rate}]",
    )
    with pytest.raises(SemanticManifestValidationException, match="maximum recursion depth exceeded"):
        parse(directory)


def test_unknown_entity_in_a_metric_filter_fails_when_compiling(tmp_path: Path) -> None:
    directory = broken_copy(tmp_path, "order_items.yaml", "Dimension('order__status')", "Dimension('orderx__status')")
    manifest = parse(directory)
    assert not SemanticManifestValidator().validate_semantic_manifest(manifest).has_blocking_issues
    engine = MetricFlowEngine(SemanticManifestLookup(manifest), ReadOnlySqlClient())  # no executor: compiles only
    request = MetricFlowQueryRequest.create(metric_names=["portions_sold"], group_by_names=["metric_time__day"])
    with pytest.raises(InvalidQueryException, match=r"does not match any of the available group-by-items"):
        engine.explain(request)


def test_foreign_entity_that_joins_nothing_is_caught_by_arias_rule(tmp_path: Path) -> None:
    directory = broken_copy(tmp_path, "orders.yaml", "{name: shift, type: foreign, expr: shift_id}",
                            "{name: shiftt, type: foreign, expr: shift_id}")
    manifest = parse(directory)
    assert not SemanticManifestValidator().validate_semantic_manifest(manifest).has_blocking_issues  # MetricFlow: fine
    assert dangling_entities(manifest) == ["orders.shiftt"]
    engine = MetricFlowEngine(SemanticManifestLookup(manifest), ReadOnlySqlClient())  # no executor: compiles only
    request = MetricFlowQueryRequest.create(metric_names=["revenue"], group_by_names=["shift__shift_code"])
    with pytest.raises(InvalidQueryException):
        engine.explain(request)


def test_a_stray_dollar_sign_fails_the_template(tmp_path: Path) -> None:
    directory = broken_copy(tmp_path, "orders.yaml", "schema_name: $business_schema", "schema_name: $business")
    with pytest.raises(KeyError, match="business"):
        parse(directory)

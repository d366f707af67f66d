"""introspect_postgres against the real embedded PostgreSQL, on the SmartRestaurant DDL."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import psycopg
import pytest

from aria.db.connect import Targets
from aria.db.introspect import introspect_postgres
from aria.errors import ConfigError
from aria.sql.schema import Schema
from tests.conftest import REPO


def _ddl(schema_name: str) -> str:
    return (REPO / "seed_db" / "schema.sql").read_text().replace("restaurant", schema_name)


@pytest.fixture(scope="module")
def smart_schema(targets: Targets) -> Iterator[Schema]:
    """The SmartRestaurant DDL loaded into its own uniquely named schema, then introspected."""
    name = f"sr_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(targets.admin, autocommit=True) as conn:
        conn.execute(_ddl(name))
    try:
        yield introspect_postgres(targets.admin, name)
    finally:
        with psycopg.connect(targets.admin, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA "{name}" CASCADE')


def test_tables_columns_and_types(smart_schema: Schema) -> None:
    assert smart_schema.dialect == "postgres"
    orders = smart_schema.table("orders")
    assert orders is not None
    assert orders.primary_key == ("order_id",)
    total = orders.column("total_vnd")
    assert total is not None and total.data_type == "integer" and not total.nullable
    closed = orders.column("closed_at")
    assert closed is not None and closed.data_type == "timestamp with time zone" and closed.nullable
    station = smart_schema.table("kitchen_stations").column("station_code")  # type: ignore[union-attr]
    assert station is not None and station.data_type == "character(3)"
    assert {"menu_items", "order_items", "kitchen_tickets", "inventory_logs"} <= {t.name for t in smart_schema.tables}


def test_composite_primary_key_and_foreign_keys(smart_schema: Schema) -> None:
    recipes = smart_schema.table("recipes")
    assert recipes is not None and set(recipes.primary_key) == {"item_id", "ingredient_id"}
    fks = {(fk.table, fk.columns, fk.ref_table, fk.ref_columns) for fk in smart_schema.foreign_keys}
    assert ("order_items", ("order_id",), "orders", ("order_id",)) in fks
    assert ("orders", ("server_id",), "staff", ("staff_id",)) in fks
    assert ("shifts", ("manager_id",), "staff", ("staff_id",)) in fks
    assert len(smart_schema.neighbours("orders")) >= 8


def test_missing_schema_is_a_config_error(targets: Targets) -> None:
    with pytest.raises(ConfigError, match="has no tables"):
        introspect_postgres(targets.admin, "no_such_schema_here")

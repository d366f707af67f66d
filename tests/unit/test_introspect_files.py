"""Schemas from Spider/BIRD tables.json files and from a Spider SQLite file."""

from __future__ import annotations

from pathlib import Path

import pytest

from aria.db.introspect import introspect_sqlite, load_bird_tables, load_spider_tables
from aria.errors import ConfigError
from tests.conftest import BENCH_DIR

SPIDER = BENCH_DIR / "spider_dev"
pytestmark = pytest.mark.skipif(not SPIDER.is_dir(), reason=f"benchmark data not found in {BENCH_DIR}")


def test_spider_tables_json() -> None:
    schemas = load_spider_tables(SPIDER / "tables.json")
    assert len(schemas) == 20
    concert = schemas["concert_singer"]
    assert concert.dialect == "sqlite"
    assert [t.name for t in concert.tables] == ["stadium", "singer", "concert", "singer_in_concert"]
    assert concert.table("STADIUM").primary_key == ("Stadium_ID",)  # type: ignore[union-attr]
    assert concert.table("stadium").column("capacity").data_type == "number"  # type: ignore[union-attr]
    fks = {(fk.table, fk.columns[0], fk.ref_table, fk.ref_columns[0]) for fk in concert.foreign_keys}
    assert ("concert", "Stadium_ID", "stadium", "Stadium_ID") in fks
    assert len(fks) == 3


def test_bird_composite_primary_keys() -> None:
    schemas = load_bird_tables(BENCH_DIR / "bird_dev" / "dev_tables.json")
    assert len(schemas) == 11
    composite = [t for s in schemas.values() for t in s.tables if len(t.primary_key) > 1]
    assert composite, "BIRD dev has tables with composite primary keys"


def test_sqlite_file_read_only() -> None:
    path = SPIDER / "database" / "concert_singer" / "concert_singer.sqlite"
    schema = introspect_sqlite(path)
    assert schema.name == "concert_singer" and schema.dialect == "sqlite"
    singer = schema.table("singer")
    assert singer is not None and singer.primary_key == ("Singer_ID",)
    assert singer.column("Age").data_type == "int"  # type: ignore[union-attr]
    fks = {(fk.table, fk.columns, fk.ref_table) for fk in schema.foreign_keys}
    assert ("singer_in_concert", ("Singer_ID",), "singer") in fks


def test_missing_files_are_config_errors(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="does not exist"):
        introspect_sqlite(tmp_path / "nope.sqlite")
    with pytest.raises(ConfigError, match="does not exist"):
        load_spider_tables(tmp_path / "tables.json")

"""Seeding the SmartRestaurant database: generate ~6 months of a busy Vietnamese restaurant and load
it in one transaction.

    >>> report = seed_database(admin_url, settings, as_of=datetime(2026, 11, 15, 19, 40, tzinfo=tz))
    >>> report.counts["orders"] > 50_000
    True

The data is a pure function of (seed, as_of, days): :func:`generate_rows` builds every table's rows
with one ``random.Random(seed)``; :func:`seed_database` creates the schema from
``seed_db/schema.sql``, COPYs the rows, records the business clock and refreshes the read-only
role, all in one transaction, so an error or Ctrl-C leaves nothing half-seeded.
"""

from __future__ import annotations

import logging
import random
import re
import time as clock
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import psycopg
from psycopg import sql

from aria.config import Settings
from aria.db.connect import connect, ensure_reader_role, redact
from aria.db.seed_catalog import (
    CATEGORIES,
    CATEGORY_ID,
    COMBO_COMPONENTS,
    MENU,
    STATIONS,
    SUPPLIERS,
    dining_tables,
)
from aria.db.seed_days import (
    Ledger,
    World,
    expand_recipes,
    future_bookings,
    live_floor,
    simulate_day,
    table_index,
)
from aria.db.seed_orders import on_sale, popularity
from aria.db.seed_people import (
    Period,
    customer_weights,
    make_customers,
    make_promotions,
    make_shifts,
    make_staff,
    promotion_rows,
    shift_rows,
    staff_rows,
)
from aria.db.seed_stock import make_stock, recipe_rows
from aria.errors import ConfigError, SeedError
from aria.paths import seed_dir

log = logging.getLogger(__name__)

# Load order (parents first); also the order `aria db status` lists them in.
TABLES: tuple[str, ...] = (
    "business_clock", "kitchen_stations", "categories", "menu_items", "combo_components", "tables",
    "customers", "staff", "shifts", "staff_shifts", "promotions", "reservations", "orders", "order_items",
    "kitchen_tickets", "payments", "suppliers", "ingredients", "recipes", "inventory_logs",
)
CUSTOMER_COUNT = 3500
GOLD_SPEND, SILVER_SPEND = 12_000_000, 4_000_000  # VND spent on completed orders in the period
_LOCK_KEY = 0x41524941  # "ARIA": one seeding at a time per server
_SCHEMA_NAME = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")

Progress = Callable[[str], None]


@dataclass(frozen=True)
class SeedReport:
    schema: str
    as_of: datetime
    days: int
    seed: int
    counts: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0

    @property
    def total_rows(self) -> int:
        return sum(self.counts.values())

    def summary(self) -> str:
        main = ", ".join(f"{self.counts.get(t, 0):,} {t}" for t in ("orders", "order_items", "kitchen_tickets"))
        return (f"Seeded {self.schema}: {self.days} days to {self.as_of.isoformat(timespec='minutes')} "
                f"({main}; {self.total_rows:,} rows in {len(self.counts)} tables) in {self.seconds:.1f} s")


def _menu_rows(period: Period) -> list[tuple]:
    rows = []
    for d in MENU:
        avail_from = avail_to = None
        if d.season:
            fm, fd, tm, td = d.season
            year = period.last_day.year if (fm, fd) <= (period.last_day.month, period.last_day.day) else period.last_day.year - 1
            avail_from = datetime(year, fm, fd).date()
            avail_to = datetime(year if (tm, td) >= (fm, fd) else year + 1, tm, td).date()
        active = on_sale(d, period.last_day, period.first_day + timedelta(days=period.days // 2))
        cost = round(d.price * (0.28 + (d.item_id % 7) * 0.015) / 1000) * 1000
        rows.append((d.item_id, CATEGORY_ID[d.cat], d.station, d.name_vi, d.name_en, d.price, cost, d.tax_bps,
                     d.prep_m, d.cat == "COMBO", d.season is not None, avail_from, avail_to, active))
    return rows


def generate_rows(*, as_of: datetime, days: int, seed: int, timezone: str = "Asia/Ho_Chi_Minh") -> dict[str, list[tuple]]:
    """Every table's rows, in the schema's column order. Same arguments, same rows."""
    tz = ZoneInfo(timezone)
    period = Period(as_of.astimezone(tz), days, tz)
    rng = random.Random(seed)
    tables = dining_tables()
    customers = make_customers(rng, period, CUSTOMER_COUNT)
    staff = make_staff(rng, period)
    shifts, crews = make_shifts(rng, period, staff)
    promos = make_promotions(period)
    recipes = recipe_rows()
    world = World(
        period=period, tables_for=table_index(tables), customer_ids=[c[0] for c in customers],
        joined={c[0]: c[5] for c in customers}, customer_cum=customer_weights(len(customers)),
        shifts={(s.day, s.code): s for s in shifts}, promos=promos, popularity=popularity(rng),
        recipes=expand_recipes(recipes),
    )
    ledger = Ledger()
    for index, day in enumerate(period.dates()):
        simulate_day(rng, world, ledger, day, index)
    live_floor(rng, world, ledger)
    future_bookings(rng, world, ledger)
    ingredients, logs = make_stock(rng, period, ledger)
    for row in customers:
        spend = ledger.spend.get(row[0], 0)
        row[4] = "GLD" if spend >= GOLD_SPEND else "SIL" if spend >= SILVER_SPEND else "REG"
    return {
        "business_clock": [(1, period.as_of)],
        "kitchen_stations": list(STATIONS),
        "categories": list(CATEGORIES),
        "menu_items": _menu_rows(period),
        "combo_components": list(COMBO_COMPONENTS),
        "tables": tables,
        "customers": [tuple(c) for c in customers],
        "staff": staff_rows(staff, period),
        "shifts": shift_rows(shifts),
        "staff_shifts": crews,
        "promotions": promotion_rows(promos),
        "reservations": ledger.reservations,
        "orders": ledger.orders,
        "order_items": ledger.order_items,
        "kitchen_tickets": ledger.kitchen_tickets,
        "payments": ledger.payments,
        "suppliers": list(SUPPLIERS),
        "ingredients": ingredients,
        "recipes": recipes,
        "inventory_logs": logs,
    }


def check_schema_name(name: str) -> str:
    if not _SCHEMA_NAME.match(name):
        raise ConfigError(
            f"ARIA_BUSINESS_SCHEMA {name!r} is not a plain lower-case SQL name.",
            hint="Use letters, digits and underscores, starting with a letter, e.g. restaurant.",
        )
    return name


def schema_ddl(schema: str, file: str = "schema.sql") -> str:
    """A seed_db/ SQL file with the schema name `restaurant` replaced by ``schema``."""
    text = (seed_dir() / file).read_text(encoding="utf-8")
    return re.sub(r"\brestaurant(?=\s*;|\.)", check_schema_name(schema), text)


def pin_business_clock(conn: psycopg.Connection, schema: str, as_of: datetime) -> None:
    """Make ``business_now()`` return the seeded clock as a constant the planner can fold.

    The generic body reads ``business_clock`` through a subquery, which PostgreSQL re-evaluates
    for every row a time filter scans; a constant body is evaluated once per query."""
    conn.execute(sql.SQL(
        "CREATE OR REPLACE FUNCTION {}.business_now() RETURNS timestamptz LANGUAGE sql STABLE AS {}"
    ).format(sql.Identifier(schema), sql.Literal(f"SELECT {sql.Literal(as_of.isoformat()).as_string(conn)}::timestamptz")))


TIME_SPINE_FIRST, TIME_SPINE_LAST = "2020-01-01", "2035-12-31"  # one row per day, ~5,800 rows


def ensure_time_spine(conn: psycopg.Connection, settings: Settings) -> None:
    """Create and fill ``<semantic_schema>.time_spine`` (``date_day date``, one row per day) if missing.

    The semantic layer (MetricFlow, ``seed_db/semantic/project.yaml``) joins to it for metric_time.
    Idempotent and cheap (``IF NOT EXISTS``, ``ON CONFLICT DO NOTHING``); grants the read-only role
    SELECT when it exists. The caller commits (or uses an autocommit connection)."""
    if not _SCHEMA_NAME.match(settings.semantic_schema):
        raise ConfigError(
            f"ARIA_SEMANTIC_SCHEMA {settings.semantic_schema!r} is not a plain lower-case SQL name.",
            hint="Use letters, digits and underscores, starting with a letter, e.g. aria_semantic.",
        )
    schema = sql.Identifier(settings.semantic_schema)
    spine = sql.Identifier(settings.semantic_schema, "time_spine")
    conn.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(schema))
    conn.execute(sql.SQL("CREATE TABLE IF NOT EXISTS {} (date_day date PRIMARY KEY)").format(spine))
    conn.execute(sql.SQL(
        "INSERT INTO {} SELECT d::date FROM generate_series({}::date, {}::date, interval '1 day') d "
        "ON CONFLICT DO NOTHING"
    ).format(spine, sql.Literal(TIME_SPINE_FIRST), sql.Literal(TIME_SPINE_LAST)))
    if conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (settings.reader_role,)).fetchone():
        role = sql.Identifier(settings.reader_role)
        conn.execute(sql.SQL("GRANT USAGE ON SCHEMA {} TO {}").format(schema, role))
        conn.execute(sql.SQL("GRANT SELECT ON {} TO {}").format(spine, role))


def _table_rows(conn: psycopg.Connection, schema: str, *, exact: bool) -> dict[str, int]:
    names = [r[0] for r in conn.execute(
        "SELECT tablename FROM pg_tables WHERE schemaname = %s", (schema,)).fetchall()]
    order = {t: i for i, t in enumerate(TABLES)}
    names.sort(key=lambda n: (order.get(n, len(order)), n))
    counts = {}
    for name in names:
        ident = sql.Identifier(schema, name)
        query = sql.SQL("SELECT count(*) FROM {}") if exact else sql.SQL("SELECT count(*) FROM (SELECT 1 FROM {} LIMIT 1) s")
        counts[name] = conn.execute(query.format(ident)).fetchone()[0]  # type: ignore[index]
    return counts


def _prepare_schema(conn: psycopg.Connection, schema: str, *, replace: bool) -> None:
    exists = conn.execute("SELECT 1 FROM pg_namespace WHERE nspname = %s", (schema,)).fetchone()
    if not exists:
        return
    filled = {t: n for t, n in _table_rows(conn, schema, exact=False).items() if n}
    if filled and not replace:
        raise SeedError(
            f"The schema {schema} already holds data ({len(filled)} tables with rows, e.g. {sorted(filled)[0]}).",
            hint="Use `aria db seed --replace` to drop it and load fresh data.",
        )
    log.info("dropping schema %s", schema)
    conn.execute(sql.SQL("DROP SCHEMA {} CASCADE").format(sql.Identifier(schema)))


def _drop_foreign_keys(conn: psycopg.Connection, schema: str) -> list[tuple[str, str, str]]:
    """Drop the schema's foreign keys (re-added, and so checked in one pass each, after loading)."""
    fks = conn.execute(
        """SELECT c.conrelid::regclass::text, c.conname, pg_get_constraintdef(c.oid)
           FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
           WHERE c.contype = 'f' AND n.nspname = %s ORDER BY c.conname""",
        (schema,),
    ).fetchall()
    for table, name, _definition in fks:
        conn.execute(sql.SQL("ALTER TABLE {} DROP CONSTRAINT {}").format(sql.SQL(table), sql.Identifier(name)))
    return fks


def _restore_foreign_keys(conn: psycopg.Connection, fks: list[tuple[str, str, str]]) -> None:
    for table, name, definition in fks:
        conn.execute(sql.SQL("ALTER TABLE {} ADD CONSTRAINT {} {}").format(
            sql.SQL(table), sql.Identifier(name), sql.SQL(definition)))


def _copy(conn: psycopg.Connection, schema: str, table: str, rows: list[tuple]) -> None:
    with conn.cursor() as cur, cur.copy(sql.SQL("COPY {} FROM STDIN").format(sql.Identifier(schema, table))) as cp:
        for row in rows:
            cp.write_row(row)


def _as_of(as_of: datetime, settings: Settings) -> datetime:
    if as_of.tzinfo is None:
        as_of = as_of.replace(tzinfo=ZoneInfo(settings.timezone))
    return as_of.replace(microsecond=0)


def seed_database(
    admin_url: str,
    settings: Settings,
    *,
    as_of: datetime,
    days: int = 182,
    seed: int = 42,
    replace: bool = False,
    progress: Progress | None = None,
) -> SeedReport:
    """Create and fill the business schema in one transaction; refuse to overwrite data unless ``replace``."""
    if days < 1:
        raise ConfigError(f"--days must be at least 1 (got {days}).", hint="Pass e.g. --days 182.")
    say = progress or (lambda step: log.info("%s", step))
    schema = check_schema_name(settings.business_schema)
    as_of = _as_of(as_of, settings)
    started = clock.perf_counter()
    with connect(admin_url, settings=settings) as conn:
        say(f"Checking {redact(admin_url)}")
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (_LOCK_KEY,))
        _prepare_schema(conn, schema, replace=replace)
        say(f"Generating {days} days of restaurant data")
        rows = generate_rows(as_of=as_of, days=days, seed=seed, timezone=settings.timezone)
        conn.execute(schema_ddl(schema))  # type: ignore[arg-type]
        fks = _drop_foreign_keys(conn, schema)
        for table in TABLES:
            say(f"Loading {table} ({len(rows[table]):,} rows)")
            _copy(conn, schema, table, rows[table])
        say("Checking foreign keys")
        _restore_foreign_keys(conn, fks)
        say("Indexing")
        conn.execute(schema_ddl(schema, "indexes.sql"))  # type: ignore[arg-type]
        pin_business_clock(conn, schema, as_of)
        ensure_time_spine(conn, settings)
        say("Granting the read-only role")
        ensure_reader_role(conn, settings)
        say("Analyzing")
        for table in TABLES:
            conn.execute(sql.SQL("ANALYZE {}").format(sql.Identifier(schema, table)))
        conn.commit()
    counts = {t: len(rows[t]) for t in TABLES}
    report = SeedReport(schema, as_of, days, seed, counts, clock.perf_counter() - started)
    log.info("%s", report.summary())
    return report


def database_status(admin_url: str, settings: Settings) -> dict[str, Any]:
    """{"url": redacted URL, "schema": ..., "tables": {table: rows}, "as_of": business clock or None}."""
    schema = check_schema_name(settings.business_schema)
    with connect(admin_url, settings=settings, autocommit=True) as conn:
        tables = _table_rows(conn, schema, exact=True)
        as_of = None
        if "business_clock" in tables:
            row = conn.execute(sql.SQL("SELECT as_of FROM {} WHERE id = 1").format(
                sql.Identifier(schema, "business_clock"))).fetchone()
            as_of = row[0].astimezone(ZoneInfo(settings.timezone)).isoformat() if row else None
    return {"url": redact(admin_url), "schema": schema, "tables": tables, "as_of": as_of}

"""Day-by-day simulation of the SmartRestaurant: demand, orders, reservations, the live floor at
the business clock. Turns :class:`~aria.db.seed_orders.SimOrder` objects into rows.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta

from aria.db.seed_catalog import HOLIDAYS, MENU
from aria.db.seed_orders import (
    COMBO_OF,
    Menu,
    SimLine,
    SimOrder,
    cancel,
    cut_at,
    hold_back,
    menu_for,
    simulate,
    void_order,
    void_some_lines,
)
from aria.db.seed_people import SHIFT_HOURS, Period, Promo, Shift

BASE_ORDERS_PER_DAY = 262
LIVE_TABLE_NO = 5  # "Bàn số 5 đã đợi món khai vị bao lâu?" always has an answer
_WEEKDAY = (1.0, 0.95, 1.0, 1.05, 1.18, 1.38, 1.3)
_METHODS = (("CASH", "CARD", "MOMO", "ZALO", "VNPAY"), (0.28, 0.5, 0.72, 0.82, 1.0))
_GUESTS = (1, 1, 2, 2, 2, 2, 2, 3, 3, 4, 4, 5, 6, 8)


@dataclass(frozen=True)
class World:
    """Everything an order needs to know about the restaurant that does not change day to day."""

    period: Period
    tables_for: dict[int, list[int]]  # party size -> table_ids that seat it
    customer_ids: list[int]
    joined: dict[int, datetime]
    customer_cum: list[float]
    shifts: dict[tuple[date, str], Shift]
    promos: list[Promo]
    popularity: dict[int, float]
    recipes: dict[int, list[tuple[int, float]]]  # item -> ingredient quantities (combos expanded)


@dataclass
class Ledger:
    """Rows generated so far, as tuples in each table's column order, plus stock usage."""

    orders: list[tuple] = field(default_factory=list)
    order_items: list[tuple] = field(default_factory=list)
    kitchen_tickets: list[tuple] = field(default_factory=list)
    payments: list[tuple] = field(default_factory=list)
    reservations: list[tuple] = field(default_factory=list)
    usage: dict[tuple[date, str], dict[int, float]] = field(default_factory=dict)
    usage_order: dict[tuple[date, str], dict[int, int]] = field(default_factory=dict)
    spend: dict[int, int] = field(default_factory=dict)


def expand_recipes(recipes: list[tuple[int, int, float]]) -> dict[int, list[tuple[int, float]]]:
    out: dict[int, list[tuple[int, float]]] = {}
    for item, ing, qty in recipes:
        out.setdefault(item, []).append((ing, qty))
    for combo, parts in COMBO_OF.items():
        out[combo] = [(ing, q * n) for part, n in parts for ing, q in out.get(part, [])]
    return out


def demand(rng: random.Random, day: date, index: int, days: int) -> int:
    trend = 0.94 + 0.12 * index / max(days - 1, 1)
    factor = _WEEKDAY[day.weekday()] * HOLIDAYS.get((day.month, day.day), 1.0) * trend
    return max(20, round(BASE_ORDERS_PER_DAY * factor * rng.gauss(1.0, 0.05)))


def opening_minutes(rng: random.Random, count: int) -> list[tuple[float, str | None]]:
    """Minutes after midnight at which parties arrive: lunch and dinner peaks, a quiet afternoon."""
    n_lunch, n_dinner = round(count * 0.40), round(count * 0.55)
    times: list[tuple[float, str | None]] = [(rng.triangular(630, 870, 720), "L") for _ in range(n_lunch)]
    times += [(rng.triangular(1020, 1335, 1140), "D") for _ in range(n_dinner)]
    times += [(rng.uniform(871, 1019), None) for _ in range(count - n_lunch - n_dinner)]
    times.sort(key=lambda t: t[0])
    return times


def simulate_day(rng: random.Random, world: World, ledger: Ledger, day: date, index: int) -> None:
    period = world.period
    menu = menu_for(day, period.first_day + timedelta(days=period.days // 2), world.popularity)
    midnight = period.at(day, time(0))
    for minute, code in opening_minutes(rng, demand(rng, day, index, period.days)):
        r = rng.random()
        order_type = "DI" if r < 0.8 else "TA" if r < 0.92 else "DL"
        guests = rng.choice(_GUESTS) if order_type == "DI" else 1
        opened = midnight + timedelta(seconds=int(minute * 60))
        order = simulate(rng, menu, opened, code, order_type, guests)
        fate = rng.random()
        if fate < 0.018:
            cancel(rng, order)
        elif fate < 0.024:
            void_order(order)
        else:
            void_some_lines(rng, order)
        if order.closed is None or order.closed > period.as_of:
            continue  # still running at the business clock: the live floor is built separately
        emit(rng, world, ledger, order)
    _lost_reservations(rng, world, ledger, day)


def _pick_customer(rng: random.Random, world: World, order: SimOrder) -> int | None:
    share = {"DI": 0.5, "TA": 0.45, "DL": 0.9}[order.order_type]
    if rng.random() >= share:
        return None
    cid = rng.choices(world.customer_ids, cum_weights=world.customer_cum)[0]
    return cid if world.joined[cid] <= order.opened else None


def emit(rng: random.Random, world: World, ledger: Ledger, order: SimOrder) -> None:
    """Give the order its ids, table, guest, bill and payments, and append its rows."""
    if order.order_type == "DI" and order.table_id is None:
        order.table_id = rng.choice(world.tables_for[order.guest_cnt])
    order.customer_id = _pick_customer(rng, world, order)
    shift = world.shifts.get((order.opened.date(), order.shift_code or "L"))
    shift_id = shift.shift_id if shift and order.shift_code else None
    server = rng.choice(shift.servers) if shift and shift.servers and order.order_type != "DL" else None
    order_id = len(ledger.orders) + 100001
    subtotal, tax_raw = _lines_rows(ledger, order, order_id)
    promo = _pick_promo(rng, world, order, subtotal)
    discount = promo.discount(subtotal) if promo else 0
    tax = round(tax_raw * (subtotal - discount) / subtotal / 10000) if subtotal else 0
    total = subtotal - discount + tax
    reservation_id = _seated_reservation(rng, world, ledger, order)
    ledger.orders.append((
        order_id, order.table_id, order.customer_id, server, shift_id, reservation_id,
        promo.promo_id if promo else None, order.order_type, order.status, order.guest_cnt,
        order.opened, order.closed, subtotal, discount, tax, total,
    ))
    _payments(rng, ledger, order, order_id, total, tax_raw)
    if order.closed is not None:
        _record_usage(world, ledger, order, order_id)
    if order.customer_id is not None and order.status == "COMPLETED":
        ledger.spend[order.customer_id] = ledger.spend.get(order.customer_id, 0) + total


def _lines_rows(ledger: Ledger, order: SimOrder, order_id: int) -> tuple[int, int]:
    """Append order_items and kitchen_tickets; return (subtotal, sum of line_total x tax bps)."""
    subtotal = tax_raw = 0
    for line in order.lines:
        item_row_id = len(ledger.order_items) + 1000001
        total = line.qty * line.dish.price
        ledger.order_items.append((
            item_row_id, order_id, line.dish.item_id, line.qty, line.dish.price, total,
            line.status, line.void_reason, line.added,
        ))
        if line.status in ("ORD", "SRV"):
            subtotal += total
            tax_raw += total * line.dish.tax_bps
        for t in line.tickets:
            ledger.kitchen_tickets.append((
                len(ledger.kitchen_tickets) + 5000001, item_row_id, order_id, t.station, t.status,
                t.fired, t.ready, t.served,
            ))
    return subtotal, tax_raw


def _pick_promo(rng: random.Random, world: World, order: SimOrder, subtotal: int) -> Promo | None:
    if order.status != "COMPLETED" or subtotal == 0:
        return None
    if rng.random() >= (0.12 if order.customer_id else 0.04):
        return None
    day = order.opened.date()
    eligible = [p for p in world.promos if p.starts_on <= day <= p.ends_on and subtotal >= p.min_spend]
    return rng.choice(eligible) if eligible else None


def _payments(rng: random.Random, ledger: Ledger, order: SimOrder, order_id: int, total: int, tax_raw: int) -> None:
    if order.closed is None or order.status == "CANCELLED" or total == 0 and order.status != "VOID":
        return
    if order.status == "VOID":  # half of the voided bills had been paid and were refunded
        if rng.random() < 0.5:
            amount = round(sum(line.qty * line.dish.price for line in order.lines) * 1.08)
            _payment(rng, ledger, order_id, amount, order.closed, "RFD")
        return
    if order.order_type == "DI" and order.guest_cnt >= 2 and rng.random() < 0.08:
        first = total // 2 // 1000 * 1000
        _payment(rng, ledger, order_id, first, order.closed, "OK")
        _payment(rng, ledger, order_id, total - first, order.closed, "OK")
    else:
        _payment(rng, ledger, order_id, total, order.closed, "OK")


def _payment(rng: random.Random, ledger: Ledger, order_id: int, amount: int, paid_at: datetime, status: str) -> None:
    methods, cum = _METHODS
    r = rng.random()
    method = next(m for m, edge in zip(methods, cum, strict=True) if r <= edge)
    tip = 0
    if status == "OK" and method == "CARD" and rng.random() < 0.25:
        tip = rng.choice((20000, 30000, 50000))
    elif status == "OK" and method == "CASH" and rng.random() < 0.1:
        tip = rng.randint(1, 5) * 10000
    ledger.payments.append((len(ledger.payments) + 700001, order_id, method, amount, tip, paid_at, status))


def _record_usage(world: World, ledger: Ledger, order: SimOrder, order_id: int) -> None:
    key = (order.opened.date(), order.shift_code or "A")
    used = ledger.usage.setdefault(key, {})
    last = ledger.usage_order.setdefault(key, {})
    for line in order.lines:
        if not any(t.ready is not None for t in line.tickets):
            continue  # never cooked
        for ing, qty in world.recipes.get(line.dish.item_id, ()):
            used[ing] = used.get(ing, 0.0) + qty * line.qty
            last[ing] = order_id


def _reservation(ledger: Ledger, row: tuple) -> int:
    rid = len(ledger.reservations) + 30001
    ledger.reservations.append((rid, *row))
    return rid


def _seated_reservation(rng: random.Random, world: World, ledger: Ledger, order: SimOrder) -> int | None:
    if order.order_type != "DI" or order.guest_cnt < 2 or order.status == "VOID":
        return None
    if rng.random() >= (0.18 if order.shift_code == "D" else 0.06):
        return None
    slot = order.opened - timedelta(minutes=order.opened.minute % 15 + 15 * rng.randint(0, 1))
    created = slot - timedelta(minutes=rng.randint(120, 7 * 1440))
    return _reservation(ledger, (order.customer_id, order.table_id, order.guest_cnt, slot, created, "SEATED"))


def _lost_reservations(rng: random.Random, world: World, ledger: Ledger, day: date) -> None:
    """Bookings that never became orders: no-shows and cancellations."""
    as_of = world.period.as_of
    for status in ("NO_SHOW",) * rng.randint(0, 3) + ("CANCELLED",) * rng.randint(0, 3):
        slot = world.period.at(day, time(18 + rng.randint(0, 2), 15 * rng.randint(0, 3)))
        created = slot - timedelta(minutes=rng.randint(180, 6 * 1440))
        if slot + timedelta(minutes=30) > as_of:
            continue
        party = rng.choice(_GUESTS[1:])
        table = rng.choice(world.tables_for[party]) if status == "NO_SHOW" else None
        cid = rng.choice(world.customer_ids[:400])
        _reservation(ledger, (cid, table, party, slot, created, status))


def future_bookings(rng: random.Random, world: World, ledger: Ledger) -> None:
    """Bookings made before the business clock for the evening and the next three days."""
    as_of = world.period.as_of
    for offset in range(4):
        day = world.period.last_day + timedelta(days=offset)
        for _ in range(rng.randint(8, 14)):
            slot = world.period.at(day, time(rng.choice((11, 12, 18, 19, 19, 20)), 15 * rng.randint(0, 3)))
            if slot <= as_of + timedelta(minutes=15):
                continue
            created = as_of - timedelta(minutes=rng.randint(10, 5 * 1440))
            party = rng.choice(_GUESTS[1:])
            cid = rng.choice(world.customer_ids[:400])
            _reservation(ledger, (cid, rng.choice(world.tables_for[party]), party, slot, created, "BOOKED"))


def live_moment(period: Period) -> tuple[datetime, str]:
    """The moment the live floor is frozen at: the business clock inside a shift, else the end
    of the last shift (whose unserved tickets are still open)."""
    day = period.last_day
    for back in range(3):
        d = day - timedelta(days=back)
        for code in ("D", "L"):
            start, end = (period.at(d, t) for t in SHIFT_HOURS[code])
            if start <= period.as_of <= end:
                return period.as_of, code
            if end < period.as_of:
                return end, code
    raise AssertionError("unreachable: a shift always ended within three days")


def live_floor(rng: random.Random, world: World, ledger: Ledger) -> None:
    """Orders still open at the business clock; table 5 waits for an appetizer."""
    moment, code = live_moment(world.period)
    menu = menu_for(moment.date(), world.period.first_day + timedelta(days=world.period.days // 2), world.popularity)
    table5 = LIVE_TABLE_NO + 100
    others = [t for t in world.tables_for[1] if t != table5]
    tables = [table5, *rng.sample(others, 9 if moment == world.period.as_of else 5)]
    for table in tables:
        guests = rng.choice((2, 2, 3, 4))
        if table == table5:
            opened = moment - timedelta(minutes=27)
        else:
            opened = moment - timedelta(seconds=rng.randint(240, 4200))
        order = simulate(rng, menu, opened, code, "DI", guests)
        order.table_id = table
        if table == table5:
            _ensure_line(rng, menu, order, "APP")
            hold_back(order, "APP", opened + timedelta(minutes=3))
        cut_at(order, moment)
        emit(rng, world, ledger, order)


def _ensure_line(rng: random.Random, menu: Menu, order: SimOrder, cat: str) -> None:
    if not any(line.dish.cat == cat for line in order.lines):
        dish = menu.pick(rng, cat)
        order.lines.insert(0, SimLine(dish, 1, order.opened + timedelta(minutes=3), "SRV", None, []))


def table_index(tables: list[tuple[int, int, str, int, bool]]) -> dict[int, list[int]]:
    """Party size -> active tables seating it (parties of 5+ never sit at the bar)."""
    out: dict[int, list[int]] = {}
    for size in range(1, 13):
        out[size] = [tid for tid, _, area, seats, active in tables if active and seats >= size]
    return out


MENU_IDS = [d.item_id for d in MENU]

"""SmartRestaurant stock: ingredients with reorder levels, and every stock movement.

Movements (``inventory_logs``), in time order each day: Monday stock-count adjustments (ADJ,
07:00), deliveries topping stock up to its par level (RCV, 08:00), what each service cooked (USE,
at the end of lunch 15:30, the afternoon 17:00 and dinner 23:30), and spoilage (WST, 23:00).
The first row of every ingredient is its opening count (ADJ). A few ingredients get no deliveries
in the last days and end below their reorder level at the business clock.
"""

from __future__ import annotations

import math
import random
from datetime import datetime, time, timedelta

from aria.db.seed_catalog import INGREDIENTS, MENU
from aria.db.seed_days import Ledger
from aria.db.seed_people import Period

USE_AT = (("L", time(15, 30)), ("A", time(17, 0)), ("D", time(23, 30)))
SHORT_COUNT = 4  # ingredients left below their reorder level at the business clock


def recipe_rows() -> list[tuple[int, int, float]]:
    return [(d.item_id, ing, qty) for d in MENU for ing, qty in d.recipe]


class _Book:
    """Running stock per ingredient and the log rows written so far."""

    def __init__(self) -> None:
        self.stock: dict[int, float] = {ing[0]: 0.0 for ing in INGREDIENTS}
        self.rows: list[tuple] = []

    def log(self, ing: int, mv: str, qty: float, at: datetime, cost: int | None = None,
            supplier: int | None = None, order_id: int | None = None) -> None:
        qty = round(qty, 3)
        if qty == 0:
            return
        self.stock[ing] += qty
        self.rows.append((len(self.rows) + 1, ing, mv, qty, cost, at, supplier, order_id))


def _levels(ledger: Ledger, period: Period) -> dict[int, float]:
    """Average daily use per ingredient over the seeded period."""
    totals: dict[int, float] = {}
    for used in ledger.usage.values():
        for ing, qty in used.items():
            totals[ing] = totals.get(ing, 0.0) + qty
    return {ing[0]: max(totals.get(ing[0], 0.0) / period.days, 0.5) for ing in INGREDIENTS}


def _par(avg: float, perishable: bool) -> float:
    return avg * (5.0 if perishable else 10.0)


def _restock(rng: random.Random, book: _Book, avg: dict[int, float], at: datetime, skip: set[int]) -> None:
    for ing, _vi, _en, uom, cost, supplier, perishable in INGREDIENTS:
        threshold = avg[ing] * 4.0
        if ing in skip or book.stock[ing] >= threshold:
            continue
        qty = _par(avg[ing], perishable) - book.stock[ing]
        qty = math.ceil(qty) if uom == "pc" else math.ceil(qty * 2) / 2
        price = round(cost * rng.uniform(0.95, 1.08) / 100) * 100
        book.log(ing, "RCV", qty, at, price, supplier)


def _count_adjustments(rng: random.Random, book: _Book, avg: dict[int, float], at: datetime) -> None:
    for ing in rng.sample([i[0] for i in INGREDIENTS], 4):
        delta = avg[ing] * rng.uniform(-0.15, 0.08)
        book.log(ing, "ADJ", max(delta, -book.stock[ing]), at)


def _waste(rng: random.Random, book: _Book, avg: dict[int, float], at: datetime) -> None:
    perishables = [i[0] for i in INGREDIENTS if i[6]]
    for ing in rng.sample(perishables, 3):
        book.log(ing, "WST", -min(avg[ing] * rng.uniform(0.02, 0.08), book.stock[ing]), at)


def make_stock(rng: random.Random, period: Period, ledger: Ledger) -> tuple[list[tuple], list[tuple]]:
    """(ingredients rows, inventory_logs rows)."""
    avg = _levels(ledger, period)
    short = set(rng.sample([i[0] for i in INGREDIENTS if i[6]], SHORT_COUNT))
    book = _Book()
    opening = period.at(period.first_day, time(7, 0)) - timedelta(minutes=30)
    for ing, *_rest, perishable in INGREDIENTS:
        book.log(ing, "ADJ", round(_par(avg[ing], perishable), 1), opening)
    for day in period.dates():
        if period.at(day, time(7)) > period.as_of:
            break
        if day.weekday() == 0 and day != period.first_day:
            _count_adjustments(rng, book, avg, period.at(day, time(7)))
        if period.at(day, time(8)) <= period.as_of:
            skip = short if (period.last_day - day).days < 3 else set()
            _restock(rng, book, avg, period.at(day, time(8)), skip)
        for code, clock in USE_AT:
            at = period.at(day, clock)
            if at > period.as_of:
                break
            if code == "D" and period.at(day, time(23)) <= period.as_of:
                _waste(rng, book, avg, period.at(day, time(23)))
            last = ledger.usage_order.get((day, code), {})
            for ing, qty in sorted(ledger.usage.get((day, code), {}).items()):
                book.log(ing, "USE", -qty, at, order_id=last.get(ing))
    _leave_short(book, avg, short, period)
    rows = [
        (ing, vi, en, uom, cost, round(avg[ing] * 2.0, 2), supplier)
        for ing, vi, en, uom, cost, supplier, _p in INGREDIENTS
    ]
    return rows, book.rows


def _leave_short(book: _Book, avg: dict[int, float], short: set[int], period: Period) -> None:
    """A stock count found less than the books say: these end under their reorder level."""
    at = min(period.at(period.last_day, time(7, 5)), period.as_of - timedelta(minutes=1))
    for ing in sorted(short):
        reorder = round(avg[ing] * 2.0, 2)
        target = round(reorder * 0.5, 3)
        if book.stock[ing] > target:
            book.log(ing, "ADJ", target - book.stock[ing], at)

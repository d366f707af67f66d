"""Simulating SmartRestaurant orders: what each party ordered, when the kitchen fired, cooked and
served it, how the bill was settled.

An order is first simulated as a :class:`SimOrder` (times, lines, kitchen tickets), then either
dropped (it would not have finished by the business clock), cut at a moment (orders still open at
the business clock), and finally turned into rows by :mod:`aria.db.seed_rows`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta

from aria.db.seed_catalog import (
    CANCEL_REASON,
    COMBO_COMPONENTS,
    MENU,
    ORDER_VOID_REASON,
    VOID_REASONS,
    Dish,
)

MIN = timedelta(minutes=1)
STATION_OF = {d.item_id: d.station for d in MENU}
PREP_OF = {d.item_id: d.prep_m for d in MENU}


@dataclass
class Ticket:
    station: str
    status: str  # QUE PRP RDY SRV VD
    fired: datetime
    ready: datetime | None
    served: datetime | None


@dataclass
class SimLine:
    dish: Dish
    qty: int
    added: datetime
    status: str  # ORD SRV VD CXL
    void_reason: str | None
    tickets: list[Ticket] = field(default_factory=list)


@dataclass
class SimOrder:
    opened: datetime
    closed: datetime | None
    order_type: str
    status: str
    guest_cnt: int
    shift_code: str | None  # L, D, or None (afternoon orders belong to no shift)
    lines: list[SimLine]
    table_id: int | None = None
    customer_id: int | None = None


@dataclass(frozen=True)
class Menu:
    """Dishes on sale on one day, by category, with cumulative popularity weights."""

    by_cat: dict[str, tuple[list[Dish], list[float]]]

    def pick(self, rng: random.Random, cat: str) -> Dish:
        dishes, cum = self.by_cat[cat]
        return rng.choices(dishes, cum_weights=cum)[0]


def popularity(rng: random.Random) -> dict[int, float]:
    """A fixed popularity per dish; phở bò and trà sữa nướng are the best sellers of their kind."""
    weights = {d.item_id: 1.0 + 9.0 * rng.random() ** 2 for d in MENU}
    weights[137] = 18.0  # Phở bò tái nạm
    weights[108] = 16.0  # Trà sữa nướng
    weights[126] = 9.0  # Lẩu Thái
    return weights


def on_sale(dish: Dish, day: date, switch_day: date) -> bool:
    if dish.discontinued:
        return day < switch_day
    if dish.season is None:
        return True
    fm, fd, tm, td = dish.season
    md = (day.month, day.day)
    if (fm, fd) <= (tm, td):
        return (fm, fd) <= md <= (tm, td)
    return md >= (fm, fd) or md <= (tm, td)


def menu_for(day: date, switch_day: date, weights: dict[int, float]) -> Menu:
    by_cat: dict[str, tuple[list[Dish], list[float]]] = {}
    for dish in MENU:
        if not on_sale(dish, day, switch_day):
            continue
        dishes, cum = by_cat.setdefault(dish.cat, ([], []))
        dishes.append(dish)
        cum.append((cum[-1] if cum else 0.0) + weights[dish.item_id])
    return Menu(by_cat)


_LUNCH_MAIN = (("NOODLE", "RICE", "MAIN"), (0.45, 0.8, 1.0))
_DINNER_MAIN = (("MAIN", "RICE", "NOODLE"), (0.55, 0.75, 1.0))
COMBO_OF: dict[int, list[tuple[int, int]]] = {c: [] for c, _, _ in COMBO_COMPONENTS}
for _combo, _part, _qty in COMBO_COMPONENTS:
    COMBO_OF[_combo].append((_part, _qty))
_LUNCH_COMBOS = (163, 164, 167)


def _main_cat(rng: random.Random, shift_code: str | None) -> str:
    cats, cum = _LUNCH_MAIN if shift_code != "D" else _DINNER_MAIN
    r = rng.random()
    return next(c for c, edge in zip(cats, cum, strict=True) if r <= edge)


def compose(rng: random.Random, menu: Menu, guests: int, shift_code: str | None, dine_in: bool) -> list[Dish]:
    """The dishes a party orders (duplicates are merged into quantities later)."""
    picks: list[Dish] = []
    dinner = shift_code == "D"
    if shift_code == "L" and rng.random() < 0.12:
        combo = _LUNCH_COMBOS[rng.randrange(3)]
        picks += [next(d for d in menu.by_cat["COMBO"][0] if d.item_id == combo)] * guests
    elif shift_code is None and rng.random() < 0.6:  # afternoon: mostly drinks
        picks += [menu.pick(rng, "DRINK") for _ in range(guests)]
    else:
        picks += [menu.pick(rng, _main_cat(rng, shift_code)) for _ in range(max(1, round(guests * 0.7)))]
        picks += [menu.pick(rng, "DRINK") for _ in range(guests) if rng.random() < 0.55]
    if not dine_in:
        return picks
    if rng.random() < 0.25 + 0.05 * guests:
        picks += [menu.pick(rng, "APP") for _ in range(1 + guests // 5)]
    if dinner and guests >= 2 and rng.random() < 0.35:
        picks.append(menu.pick(rng, "HOTPOT"))
    if guests >= 3 and rng.random() < 0.3:
        picks.append(menu.pick(rng, "SOUP"))
    if dinner and guests >= 3 and rng.random() < 0.06:
        picks.append(next(d for d in menu.by_cat["COMBO"][0] if d.item_id in (165, 166)))
    picks += [menu.pick(rng, "DES") for _ in range(guests) if rng.random() < 0.1]
    return picks


def _is_peak(t: datetime) -> bool:
    hm = t.hour * 60 + t.minute
    return 705 <= hm <= 765 or 1110 <= hm <= 1200


def _tickets(rng: random.Random, dish: Dish, fired: datetime) -> list[Ticket]:
    parts = COMBO_OF.get(dish.item_id) or [(dish.item_id, 1)]
    load = 1.3 if _is_peak(fired) else 1.0
    out = []
    for part, qty in parts:
        for _ in range(qty):
            ready = fired + timedelta(seconds=int(PREP_OF[part] * rng.uniform(0.7, 1.6) * load * 60))
            walk = rng.uniform(0.3, 2.0) if STATION_OF[part] == "BAR" else rng.uniform(0.5, 5.0)
            served = ready + timedelta(seconds=int(walk * 60))
            out.append(Ticket(STATION_OF[part], "SRV", fired, ready, served))
    return out


def simulate(rng: random.Random, menu: Menu, opened: datetime, shift_code: str | None, order_type: str, guests: int) -> SimOrder:
    """A completed order: lines, tickets and close time (status adjusted by the caller)."""
    dine_in = order_type == "DI"
    first = opened + timedelta(seconds=rng.randint(60, 360))
    counts: dict[int, list] = {}
    for dish in compose(rng, menu, guests, shift_code, dine_in):
        counts.setdefault(dish.item_id, [dish, 0])[1] += 1
    lines = [SimLine(d, q, first, "SRV", None) for d, q in counts.values()]
    if dine_in and guests >= 2 and rng.random() < 0.2:
        later = opened + timedelta(seconds=rng.randint(1500, 3000))
        lines.append(SimLine(menu.pick(rng, rng.choice(("DRINK", "DES", "APP"))), 1, later, "SRV", None))
    for line in lines:
        fired = line.added + timedelta(seconds=rng.randint(0, 60))
        line.tickets = _tickets(rng, line.dish, fired)
    last_served = max(t.served for line in lines for t in line.tickets if t.served)
    last_ready = max(t.ready for line in lines for t in line.tickets if t.ready)
    if dine_in:
        closed = last_served + timedelta(seconds=rng.randint(900, 3000))
    else:  # handed over at the counter or to the rider
        closed = max(last_served, last_ready) + timedelta(seconds=rng.randint(60, 480))
    return SimOrder(opened, closed, order_type, "COMPLETED", guests, shift_code, lines)


def void_some_lines(rng: random.Random, order: SimOrder) -> None:
    """About 2.5% of lines are voided before cooking (wrong dish keyed, out of stock, ...)."""
    for line in order.lines:
        if rng.random() < 0.025 and sum(x.status != "VD" for x in order.lines) > 1:
            line.status, line.void_reason = "VD", rng.choice(VOID_REASONS)
            for t in line.tickets:
                t.status, t.ready, t.served = "VD", None, None


def cancel(rng: random.Random, order: SimOrder) -> None:
    """The party left before eating: lines cancelled, fired tickets voided, nothing paid."""
    order.status = "CANCELLED"
    order.closed = order.opened + timedelta(seconds=rng.randint(420, 1200))
    order.lines = [line for line in order.lines if line.added <= order.closed]
    for line in order.lines:
        line.status, line.void_reason = "CXL", CANCEL_REASON
        line.tickets = [t for t in line.tickets if t.fired <= order.closed]
        for t in line.tickets:
            t.status, t.ready, t.served = "VD", None, None


def void_order(order: SimOrder) -> None:
    """A manager voided the whole bill after the meal (the food was cooked and served)."""
    order.status = "VOID"
    for line in order.lines:
        line.status, line.void_reason = "VD", ORDER_VOID_REASON


def cut_at(order: SimOrder, moment: datetime) -> None:
    """The order as it stood at ``moment``: unserved dishes still queued or cooking, bill unpaid."""
    order.closed = None
    order.lines = [line for line in order.lines if line.added <= moment]
    for line in order.lines:
        line.tickets = [t for t in line.tickets if t.fired <= moment]
        for t in line.tickets:
            if t.ready is not None and t.ready > moment:
                t.ready, t.served = None, None
                t.status = "PRP" if moment - t.fired >= 2 * MIN else "QUE"
            elif t.served is not None and t.served > moment:
                t.served, t.status = None, "RDY"
        served = bool(line.tickets) and all(t.status == "SRV" for t in line.tickets)
        line.status = "SRV" if served else "ORD"
    any_served = any(t.status == "SRV" for line in order.lines for t in line.tickets)
    order.status = "IN_PROGRESS" if any_served else "OPEN"


def hold_back(order: SimOrder, cat: str, since: datetime) -> None:
    """Keep one dish of ``cat`` in the kitchen (fired at ``since``, not ready): a table left waiting."""
    line = next(line for line in order.lines if line.dish.cat == cat)
    line.status = "ORD"
    if not line.tickets:
        line.tickets = [Ticket(line.dish.station, "PRP", since, None, None)]
    for t in line.tickets:
        t.fired, t.ready, t.served, t.status = since, None, None, "PRP"
    line.added = min(line.added, since)

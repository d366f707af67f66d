"""SmartRestaurant people and calendars: customers, staff, shifts with their crews, promotions.

Every function draws from the one ``random.Random`` it is given, in a fixed order, so the same
seed, business clock and number of days always give the same rows.
"""

from __future__ import annotations

import random
import unicodedata
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, tzinfo

from aria.db.seed_catalog import CUSTOMER_NOTES, FAMILY, GIVEN, INJECTION_NOTE, MIDDLE, STAFF_PLAN

SHIFT_HOURS = {"L": (time(10, 30), time(14, 30)), "D": (time(17, 0), time(22, 30))}
INJECTION_CUSTOMER_ID = 1777


@dataclass(frozen=True)
class Period:
    """The seeded period: ``days`` calendar days ending on the business clock's day."""

    as_of: datetime
    days: int
    tz: tzinfo

    @property
    def first_day(self) -> date:
        return self.as_of.astimezone(self.tz).date() - timedelta(days=self.days - 1)

    @property
    def last_day(self) -> date:
        return self.as_of.astimezone(self.tz).date()

    def at(self, day: date, clock: time) -> datetime:
        return datetime.combine(day, clock, tzinfo=self.tz)

    def dates(self) -> list[date]:
        return [self.first_day + timedelta(days=i) for i in range(self.days)]


@dataclass(frozen=True)
class Staffer:
    staff_id: int
    full_name: str
    role: str
    station: str | None
    wage: int
    hired_on: date
    left_on: date | None

    def works_on(self, day: date) -> bool:
        return self.hired_on <= day and (self.left_on is None or day <= self.left_on)


def vietnamese_name(rng: random.Random) -> str:
    return f"{rng.choice(FAMILY)} {rng.choice(MIDDLE)} {rng.choice(GIVEN)}"


def _ascii(text: str) -> str:
    plain = unicodedata.normalize("NFD", text.replace("Đ", "D").replace("đ", "d"))
    return "".join(c for c in plain if c.isascii() and c.isalnum()).lower()


def make_customers(rng: random.Random, period: Period, count: int) -> list[list]:
    """customer rows (tier filled in later from spend). The first 400 are the loyal core."""
    rows: list[list] = []
    start = period.at(period.first_day, time(9))
    span_min = int((period.as_of - start).total_seconds() // 60)
    for i in range(count):
        cid = 1001 + i
        name = vietnamese_name(rng)
        if i < 400:
            joined = start - timedelta(days=rng.randint(20, 900), minutes=rng.randint(0, 600))
        else:
            joined = start + timedelta(minutes=rng.randint(-400 * 1440, span_min))
        phone = f"09{rng.randint(0, 99_999_999):08d}"
        email = f"{_ascii(name.split()[-1])}{_ascii(name.split()[0])}{cid}@gmail.com" if rng.random() < 0.4 else None
        birth = date(rng.randint(1960, 2005), rng.randint(1, 12), rng.randint(1, 28)) if rng.random() < 0.7 else None
        note = rng.choice(CUSTOMER_NOTES) if rng.random() < 0.05 else None
        if cid == INJECTION_CUSTOMER_ID:
            note = INJECTION_NOTE
        rows.append([cid, name, phone, email, "REG", joined, birth, note])
    return rows


def customer_weights(count: int) -> list[float]:
    """Cumulative pick weights: a loyal core of 60 + 340 regulars, then everyone else."""
    cum, total = [], 0.0
    for i in range(count):
        total += 14.0 if i < 60 else 4.0 if i < 400 else 1.0
        cum.append(total)
    return cum


def make_staff(rng: random.Random, period: Period) -> list[Staffer]:
    staff: list[Staffer] = []
    sid = 1
    for role, count, wage, stations in STAFF_PLAN:
        for k in range(count):
            hired = period.first_day - timedelta(days=rng.randint(60, 1500))
            left = None
            if role == "SRV" and k >= count - 2:  # two servers hired half-way through
                hired = period.first_day + timedelta(days=period.days // 2)
            elif role == "SRV" and k < 2 or role == "CHF" and k == count - 1:  # and three who left
                left = period.first_day + timedelta(days=period.days // 3)
            staff.append(
                Staffer(sid, vietnamese_name(rng), role, stations[k] if stations else None,
                        wage + rng.randint(0, 6) * 1000, hired, left)
            )
            sid += 1
    return staff


def staff_rows(staff: list[Staffer], period: Period) -> list[tuple]:
    return [
        (s.staff_id, s.full_name, s.role, s.station, s.wage, s.hired_on,
         s.left_on is None or s.left_on >= period.last_day)
        for s in staff
    ]


@dataclass(frozen=True)
class Shift:
    shift_id: int
    day: date
    code: str
    starts_at: datetime
    ends_at: datetime
    manager_id: int
    servers: tuple[int, ...]


def _crew(rng: random.Random, staff: list[Staffer], day: date, code: str) -> list[Staffer]:
    on = [s for s in staff if s.works_on(day)]
    busy = day.weekday() >= 4
    by_role = {r: [s for s in on if s.role == r] for r in ("MGR", "SRV", "CSH", "BAR")}
    n_srv = (6 if code == "L" else 9) + (2 if busy else 0) + rng.randint(0, 1)
    crew = [rng.choice(by_role["MGR"])]
    crew += rng.sample(by_role["SRV"], min(n_srv, len(by_role["SRV"])))
    crew += rng.sample(by_role["CSH"], 1 if code == "L" else 2)
    crew += rng.sample(by_role["BAR"], 1 if code == "L" else 2)
    for station in ("GRL", "WOK", "HOT", "CLD", "DES"):
        chefs = [s for s in on if s.role == "CHF" and s.station == station]
        crew += rng.sample(chefs, min(len(chefs), 1 if code == "L" else 2))
    return crew


def make_shifts(rng: random.Random, period: Period, staff: list[Staffer]) -> tuple[list[Shift], list[tuple]]:
    """The shifts that have started by the business clock, and who clocked in and out of each."""
    shifts: list[Shift] = []
    crew_rows: list[tuple] = []
    for day in period.dates():
        for code in ("L", "D"):
            start, end = (period.at(day, t) for t in SHIFT_HOURS[code])
            if start > period.as_of:
                continue
            crew = _crew(rng, staff, day, code)
            shift_id = len(shifts) + 1
            servers = tuple(s.staff_id for s in crew if s.role == "SRV")
            shifts.append(Shift(shift_id, day, code, start, end, crew[0].staff_id, servers))
            for s in crew:
                clock_in = start - timedelta(minutes=rng.randint(5, 25))
                planned_out = end + timedelta(minutes=rng.randint(0, 40))
                clock_out: datetime | None = planned_out if planned_out <= period.as_of else None
                crew_rows.append((shift_id, s.staff_id, min(clock_in, period.as_of), clock_out))
    return shifts, crew_rows


def shift_rows(shifts: list[Shift]) -> list[tuple]:
    return [(s.shift_id, s.day, s.code, s.starts_at, s.ends_at, s.manager_id) for s in shifts]


@dataclass(frozen=True)
class Promo:
    promo_id: int
    code: str
    name_vi: str
    name_en: str
    disc_type: str
    value: int
    min_spend: int
    starts_on: date
    ends_on: date

    def discount(self, subtotal: int) -> int:
        if self.disc_type == "PCT":
            return subtotal * self.value // 10000
        return min(self.value, subtotal)


def _recent(as_of: date, month: int, day: int, to_month: int, to_day: int) -> tuple[date, date]:
    """The most recent window (month/day to month/day) that started on or before ``as_of``."""
    year = as_of.year if (month, day) <= (as_of.month, as_of.day) else as_of.year - 1
    end_year = year if (to_month, to_day) >= (month, day) else year + 1
    return date(year, month, day), date(end_year, to_month, to_day)


def make_promotions(period: Period) -> list[Promo]:
    first, last = period.first_day, period.last_day
    quarter = max(period.days // 4, 1)
    return [
        Promo(1, "GIAM10", "Giảm 10% cho hóa đơn từ 500.000đ", "10% off bills from 500,000 VND", "PCT", 1000,
              500000, first - timedelta(days=30), last + timedelta(days=60)),
        Promo(2, "TRUA50K", "Giảm 50.000đ bữa trưa", "50,000 VND off lunch", "AMT", 50000, 300000,
              first + timedelta(days=quarter), first + timedelta(days=3 * quarter)),
        Promo(3, "SINHNHAT", "Sinh nhật giảm 15%", "Birthday 15% off", "PCT", 1500, 0,
              first - timedelta(days=365), last + timedelta(days=365)),
        Promo(4, "PHUNU2010", "Mừng ngày Phụ nữ Việt Nam 20/10 giảm 20%", "Vietnamese Women's Day 20% off",
              "PCT", 2000, 0, *_recent(last, 10, 18, 10, 21)),
        Promo(5, "NOEL12", "Giáng sinh giảm 12%", "Christmas 12% off", "PCT", 1200, 0, *_recent(last, 12, 20, 12, 26)),
        Promo(6, "KHACHMOI30", "Khách mới giảm 30.000đ", "New guests: 30,000 VND off", "AMT", 30000, 200000,
              last - timedelta(days=45), last + timedelta(days=30)),
        Promo(7, "HEVUI", "Hè vui giảm 8%", "Summer fun 8% off", "PCT", 800, 0, *_recent(last, 6, 1, 8, 31)),
    ]


def promotion_rows(promos: list[Promo]) -> list[tuple]:
    return [
        (p.promo_id, p.code, p.name_vi, p.name_en, p.disc_type, p.value, p.min_spend, p.starts_on, p.ends_on)
        for p in promos
    ]

"""How much of a result Aria reads: the wrapper that caps rows and clips long values on the server,
and the one clip function every value shown or sent to a model goes through.

A value longer than ``max_value_chars`` never leaves the server whole: text columns are cut with
``left()`` one character past the limit (so the client knows there was more), any other column of
variable size (arrays, JSON, bytea, ...) is replaced by NULL plus a flag column saying it was too
large. :func:`clip_value` then marks both the same way.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

CLIP_MARKER = "…[clipped]"

# Types whose values are small and bounded: passed through as they are.
_FIXED_SIZE_OIDS = frozenset({
    16, 18, 20, 21, 23, 26, 700, 701, 790, 1082, 1083, 1114, 1184, 1186, 1266, 2950,  # bool ... uuid
    1700, 869, 650, 829, 774, 600, 603, 718,  # numeric, inet, cidr, macaddr(8), point, box, circle
})
# Text types: cut on the server, keeping them text.
_TEXT_OIDS = frozenset({25, 1043, 1042, 19, 705})  # text, varchar, bpchar, name, unknown


@dataclass(frozen=True)
class Column:
    """A result column as the server describes it (before any row is computed)."""

    name: str
    type_oid: int


def clip_value(value: Any, max_chars: int) -> Any:
    """The value, or its first ``max_chars`` characters and :data:`CLIP_MARKER` when its text is longer.

    >>> clip_value("abcdef", 3)
    'abc…[clipped]'
    >>> clip_value(42, 1)
    42
    """
    if isinstance(value, str):
        return value if len(value) <= max_chars else value[:max_chars] + CLIP_MARKER
    if isinstance(value, list | dict):
        text = json.dumps(value, ensure_ascii=False, default=str)
        return value if len(text) <= max_chars else text[:max_chars] + CLIP_MARKER
    return value


def value_size(value: Any) -> int:
    """Roughly how many bytes a (JSON-friendly) value takes, for the result byte cap."""
    if value is None or isinstance(value, bool | int | float):
        return 8
    return len(value) if isinstance(value, str) else len(str(value))


def capped_query(sql: str, columns: list[Column], *, row_cap: int | None, max_chars: int) -> tuple[str, int]:
    """``sql`` wrapped so the server returns at most ``row_cap + 1`` rows and no value longer than
    ``max_chars + 1`` characters; also returns how many flag columns follow the real ones.

    >>> capped_query("SELECT note FROM t", [Column("note", 25)], row_cap=9, max_chars=100)
    ('SELECT left(q.c1, 101) FROM (SELECT note FROM t) AS q(c1) LIMIT 10', 0)
    """
    limit = "" if row_cap is None else f" LIMIT {int(row_cap) + 1}"
    if not columns:
        return (f"SELECT * FROM ({sql}) AS q{limit}" if limit else sql), 0
    values: list[str] = []
    flags: list[str] = []
    for position, column in enumerate(columns, start=1):
        ref = f"q.c{position}"
        if column.type_oid in _FIXED_SIZE_OIDS:
            values.append(ref)
        elif column.type_oid in _TEXT_OIDS:
            values.append(f"left({ref}, {int(max_chars) + 1})")
        else:
            too_long = f"octet_length({ref}::text) > {int(max_chars)}"
            values.append(f"CASE WHEN {too_long} THEN NULL ELSE {ref} END")
            flags.append(f"coalesce({too_long}, false)")
    aliases = ", ".join(f"c{position}" for position in range(1, len(columns) + 1))
    return f"SELECT {', '.join(values + flags)} FROM ({sql}) AS q({aliases}){limit}", len(flags)


def flagged_positions(columns: list[Column]) -> list[int]:
    """Positions of the columns that :func:`capped_query` gave a 'too large' flag, in flag order."""
    return [i for i, c in enumerate(columns) if c.type_oid not in _FIXED_SIZE_OIDS | _TEXT_OIDS]

"""Spider's hardness levels (easy / medium / hard / extra), ported from the official evaluation.

A faithful port of ``eval_hardness`` in Spider's ``evaluation.py`` (taoyds/spider), working on the
parsed ``sql`` dict that ``dev.json`` ships with each question. It keeps the original's quirks
(e.g. counting ``not`` flags of WHERE conditions as aggregations) so the level counts match the
paper's: easy 248, medium 446, hard 174, extra 166 on dev.
"""

from __future__ import annotations

from typing import Any

_AGG_NONE = 0  # AGG_OPS.index("none")
_WHERE_LIKE = 9  # WHERE_OPS.index("like")

SqlDict = dict[str, Any]


def _has_agg(unit: Any) -> bool:
    return unit[0] != _AGG_NONE


def _count_agg(units: list[Any]) -> int:
    return sum(1 for unit in units if _has_agg(unit))


def _conditions(sql: SqlDict) -> list[Any]:
    return sql["from"]["conds"][::2] + sql["where"][::2] + sql["having"][::2]


def _nested(sql: SqlDict) -> list[SqlDict]:
    nested = [value for cond in _conditions(sql) for value in (cond[3], cond[4]) if isinstance(value, dict)]
    return nested + [sql[key] for key in ("intersect", "except", "union") if sql[key] is not None]


def _component1(sql: SqlDict) -> int:
    count = sum(1 for key in ("where", "groupBy", "orderBy") if len(sql[key]) > 0)
    count += sql["limit"] is not None
    if sql["from"]["table_units"]:
        count += len(sql["from"]["table_units"]) - 1
    connectors = sql["from"]["conds"][1::2] + sql["where"][1::2] + sql["having"][1::2]
    count += sum(1 for token in connectors if token == "or")
    count += sum(1 for cond in _conditions(sql) if cond[1] == _WHERE_LIKE)
    return count


def _others(sql: SqlDict) -> int:
    aggs = _count_agg(sql["select"][1]) + _count_agg(sql["where"][::2]) + _count_agg(sql["groupBy"])
    if sql["orderBy"]:
        units = [u[1] for u in sql["orderBy"][1] if u[1]] + [u[2] for u in sql["orderBy"][1] if u[2]]
        aggs += _count_agg(units)
    aggs += _count_agg(sql["having"])
    count = int(aggs > 1)
    count += len(sql["select"][1]) > 1
    count += len(sql["where"]) > 1
    count += len(sql["groupBy"]) > 1
    return count


def spider_hardness(sql: SqlDict) -> str:
    """The hardness level of one parsed Spider query."""
    comp1, comp2, others = _component1(sql), len(_nested(sql)), _others(sql)
    if comp1 <= 1 and others == 0 and comp2 == 0:
        return "easy"
    if (others <= 2 and comp1 <= 1 and comp2 == 0) or (comp1 <= 2 and others < 2 and comp2 == 0):
        return "medium"
    if (
        (others > 2 and comp1 <= 2 and comp2 == 0)
        or (2 < comp1 <= 3 and others <= 2 and comp2 == 0)
        or (comp1 <= 1 and others == 0 and comp2 <= 1)
    ):
        return "hard"
    return "extra"

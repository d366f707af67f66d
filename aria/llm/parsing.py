"""Tolerant extraction of JSON and SQL from a model's free text.

>>> extract_json('Sure! ```json\\n{"question": "top dishes"}\\n``` hope it helps')
{'question': 'top dishes'}
>>> extract_sql("Here it is:\\n```sql\\nSELECT 1;\\n```")
'SELECT 1'
"""

from __future__ import annotations

import json
import re
from typing import Any

from aria.errors import ModelError

_FENCE_RE = re.compile(r"```[ \t]*([A-Za-z0-9_-]*)[ \t]*\n(.*?)```", re.DOTALL)
_SQL_START_RE = re.compile(r"^\s*(WITH|SELECT)\b", re.IGNORECASE | re.MULTILINE)


class OutputFormatError(ValueError):
    """The model's text did not contain what its role must answer (re-asked once, then ModelError)."""


def _first_object(text: str) -> dict[str, Any] | None:
    decoder = json.JSONDecoder()
    for match in re.finditer(r"\{", text):
        try:
            value, _ = decoder.raw_decode(text, match.start())
        except json.JSONDecodeError:
            continue
        if isinstance(value, dict):
            return value
    return None


def extract_json(text: str) -> dict[str, Any]:
    """The first JSON object in ``text``: inside a ```json fence first, else anywhere in the prose."""
    for lang, body in _FENCE_RE.findall(text):
        if lang.lower() in ("json", ""):
            found = _first_object(body)
            if found is not None:
                return found
    found = _first_object(text)
    if found is None:
        snippet = " ".join(text.split())[:120]
        raise OutputFormatError(f"no JSON object found in the answer (it began: {snippet!r})")
    return found


def find_sql(text: str) -> str | None:
    """The SQL in a model's answer: a ```sql fence, any fence, or the text from its first SELECT/WITH.

    Trailing semicolons are removed; ``None`` when there is no SQL at all.
    """
    fences = _FENCE_RE.findall(text)
    chosen = next((body for lang, body in fences if lang.lower() in ("sql", "postgresql", "sqlite")), None)
    if chosen is None and fences:
        chosen = fences[0][1]
    if chosen is None:
        start = _SQL_START_RE.search(text)
        chosen = text[start.start():] if start else ""
    sql = chosen.strip().rstrip(";").strip()
    return sql if _SQL_START_RE.search(sql) else None


def extract_sql(text: str) -> str:
    """Like :func:`find_sql`, but raises :class:`ModelError` when the answer holds no SQL."""
    sql = find_sql(text)
    if sql is None:
        snippet = " ".join(text.split())[:120]
        raise ModelError(
            f"The model answered without a SQL query (it began: {snippet!r}).",
            hint="Try again or rephrase the question.",
        )
    return sql

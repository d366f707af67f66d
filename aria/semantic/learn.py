"""What the semantic parser may learn: a phrase managers use for a metric, a concept or a value.

Conservative by construction: a phrase is at most five words, has no number, no time word, does not
start or end with a function word, and is not a phrase the parser already knows (nor part of one,
which would change how that one is read).

>>> import datetime as dt
>>> refusal_words(("thang", "nay"), dt.datetime(2026, 11, 15))
'it names a time'
>>> refusal_words(("bao", "nhieu"), dt.datetime(2026, 11, 15))
"it starts or ends with a function word ('bao')"
>>> refusal_words(("khach", "ruot"), dt.datetime(2026, 11, 15)) is None
True
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator, Sequence

from aria.errors import AriaError
from aria.semantic.catalog import SemanticCatalog
from aria.semantic.lexicon import (
    CONJUNCTIONS,
    FILLER_PHRASES,
    FILLERS,
    GROUP_MARKERS,
    WHICH_WORDS,
    Entry,
    ValueMeaning,
    learned_meaning,
    phrase_tokens,
    value_target,
)
from aria.semantic.periods import find_periods
from aria.text import normalize

MAX_WORDS = 5
STOP_WORDS = frozenset({*FILLERS, *(w for p in FILLER_PHRASES for w in p.split()), *CONJUNCTIONS,
                        *(w for m in GROUP_MARKERS for w in m.split()), *WHICH_WORDS, "nhat", "bao", "nhieu",
                        # particles and chatter: "khách ruột hả", "khách ruột nhỉ"
                        "ha", "nhi", "nha", "nhe", "vay", "roi", "khong", "chu", "di", "oi", "ak", "ah", "ok",
                        "thanks", "please"})
TIME_WORDS = frozenset({"hom", "nay", "qua", "mai", "ngay", "tuan", "thang", "nam", "quy", "truoc", "sau", "today",
                        "yesterday", "tomorrow", "day", "days", "week", "weeks", "month", "months", "year", "years",
                        "quarter", "last", "this", "next", "ago", "tonight", "morning", "evening", "weekend"})
_DIGIT = re.compile(r"\d")


class SynonymError(AriaError):
    """A phrase Aria will not learn, or a target that is not in the semantic model."""


def refusal_words(words: Sequence[str], now: dt.datetime) -> str | None:
    """Why these (normalized) words cannot be a learned phrase, or None."""
    if not words:
        return "it has no words"
    if len(words) > MAX_WORDS:
        return f"it is longer than {MAX_WORDS} words"
    if any(_DIGIT.search(w) for w in words):
        return "it contains a number"
    if TIME_WORDS.intersection(words) or find_periods(" ".join(words), now):
        return "it names a time"
    for edge in (words[0], words[-1]):
        if edge in STOP_WORDS:
            return f"it starts or ends with a function word ({edge!r})"
    return None


def known_refusal(tokens: tuple[str, ...], lexicon: Sequence[Entry]) -> str | None:
    """Why a phrase (as the parser tokenizes it) clashes with the lexicon: known already, or part of a
    longer known phrase."""
    for entry in lexicon:
        if entry.tokens == tokens:
            return f"the parser already knows it (as a {entry.kind})"
    n = len(tokens)
    for entry in lexicon:
        if len(entry.tokens) > n and any(entry.tokens[i:i + n] == tokens for i in range(len(entry.tokens) - n + 1)):
            return f"it is part of the known phrase '{' '.join(entry.tokens)}'"
    return None


def check_learnable(phrase: str, kind: str, target: str, *, catalog: SemanticCatalog, lexicon: Sequence[Entry],
                    now: dt.datetime) -> tuple[str, ...]:
    """The phrase's tokens when it can be learned as ``kind`` ``target``; else :class:`SynonymError`."""
    if learned_meaning(catalog, kind, target) is None:
        raise SynonymError(f"{kind} {target!r} is not in the semantic model.",
                           hint="See the metrics and concepts with `aria semantic list`.")
    tokens = phrase_tokens(phrase)
    why = refusal_words(tuple(normalize(phrase).split()), now) or known_refusal(tokens, lexicon)
    if why:
        raise SynonymError(f"Aria will not learn '{phrase}': {why}.",
                           hint="Teach a phrase of one to five words that names a metric, a concept or a value.")
    return tokens


def value_meanings(entry: Entry) -> tuple[ValueMeaning, ...]:
    """The meanings of a value entry (one, or several when a spelling names values of several dimensions)."""
    payload = entry.payload
    return tuple(payload) if isinstance(payload, tuple) else (payload,)


def resolve_value(spec: str, lexicon: Sequence[Entry]) -> str:
    """``DIM=VALUE`` (DIM a concept such as ``shift`` or ``semantic_model.dimension``; VALUE a code, its
    label, or a name from the data) as a learned target ``semantic_model.dimension=value``."""
    dim, sep, value = spec.partition("=")
    if not sep or not dim.strip() or not value.strip():
        raise SynonymError(f"{spec!r} is not DIMENSION=VALUE.", hint="E.g. --value shift=D or --value category=Lẩu.")
    dim, words = dim.strip(), tuple(normalize(value).split())
    found = {value_target(m) for m in _all_values(lexicon)
             if (m.concept == dim or f"{m.semantic_model}.{m.dimension}" == dim)
             and tuple(normalize(m.value).split()) == words}
    if not found:  # a label or a name: the lexicon's spelling of the value
        found = {value_target(m) for e in lexicon if e.kind == "value" and e.tokens == phrase_tokens(value)
                 for m in value_meanings(e) if m.concept == dim or f"{m.semantic_model}.{m.dimension}" == dim}
    if len(found) != 1:
        shown = "no value" if not found else f"{len(found)} values ({', '.join(sorted(found)[:4])})"
        raise SynonymError(f"{spec!r} names {shown} of the semantic model.",
                           hint="Give the dimension as semantic_model.dimension and the value as stored.")
    return found.pop()


def _all_values(lexicon: Sequence[Entry]) -> Iterator[ValueMeaning]:
    for entry in lexicon:
        if entry.kind == "value":
            yield from value_meanings(entry)


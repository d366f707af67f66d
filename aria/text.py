"""Text normalization for lexical search: Vietnamese diacritics stripped in Python (the server
has no ``unaccent``), identifiers split into words, stopwords dropped.

>>> normalize("Doanh thu món Lẩu Thái")
'doanh thu mon lau thai'
>>> identifier_words("unit_price_vnd"), identifier_words("CustomerID")
('unit price vnd', 'customer id')
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_NON_WORD = re.compile(r"[^0-9a-z]+")
_TOKEN = re.compile(r"[0-9a-z]+")

STOPWORDS = frozenset(
    ["a", "an", "the", "of", "in", "on", "at", "to", "for", "by", "with", "from", "and", "or", "not", "is", "are", "was", "were", "be", "been", "what", "which", "who", "whom", "whose", "how", "many", "much", "list", "show", "give", "find", "all", "each", "per", "me", "tell", "does", "do", "did", "that", "this", "those", "these", "there", "their", "its", "it", "as", "than", "then", "when", "where", "into", "about", "please", "number", "count", "total", "average", "name", "names"]
)


def strip_diacritics(text: str) -> str:
    """Remove accents; đ/Đ become d/D."""
    if text.isascii():
        return text
    text = text.replace("đ", "d").replace("Đ", "D")
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


@lru_cache(maxsize=1 << 16)  # the semantic lexicon normalizes ~7,000 phrases, many of them repeated
def normalize(text: str) -> str:
    """Lower case, no diacritics, words separated by single spaces."""
    return _NON_WORD.sub(" ", strip_diacritics(text).lower()).strip()


def identifier_words(name: str) -> str:
    """``unit_price_vnd`` -> ``unit price vnd``; ``CustomerID`` -> ``customer id``."""
    return normalize(_CAMEL.sub(" ", name.replace("_", " ")))


def tokens(text: str) -> list[str]:
    """Normalized tokens of ``text``."""
    return _TOKEN.findall(normalize(text))


def query_terms(text: str) -> list[str]:
    """Distinct normalized tokens worth searching for (stopwords and 1-letter words dropped)."""
    seen: dict[str, None] = {}
    for tok in tokens(text):
        if tok not in STOPWORDS and (len(tok) > 1 or tok.isdigit()):
            seen.setdefault(tok, None)
    return list(seen)


def contains_phrase(haystack: str, phrase: str) -> bool:
    """True when normalized ``phrase`` occurs in normalized ``haystack`` on word boundaries."""
    if not phrase:
        return False
    return f" {phrase} " in f" {haystack} "


_NOT_PLURALS = frozenset(["christmas", "news", "series"])
_IE_PLURALS = frozenset(["smoothies", "cookies", "brownies", "calories", "movies", "selfies"])


def stem(word: str) -> str:
    """A light English plural stemmer: schools -> school, cities -> city, classes -> class."""
    if len(word) <= 3 or not word.endswith("s") or word.endswith(("ss", "us", "is")) or word in _NOT_PLURALS:
        return word
    if word in _IE_PLURALS:  # smoothies -> smoothie, never smoothy
        return word[:-1]
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("sses", "xes", "ches", "shes")):
        return word[:-2]
    return word[:-1]


def stem_text(text: str) -> str:
    """Normalized ``text`` with every word stemmed."""
    return " ".join(stem(tok) for tok in tokens(text))

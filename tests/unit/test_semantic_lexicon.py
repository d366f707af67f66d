"""The lexicon's accent check: a question typed with Vietnamese accents matches a phrase only where the
words it marks carry the phrase's own marks (no database needed)."""

from __future__ import annotations

from aria.semantic.lexicon import Entry, _distinctive_words, accents_of, words_of


def test_accents_are_read_per_normalized_word() -> None:
    assert len(accents_of("Bếp lẩu, canh")) == len(words_of("Bếp lẩu, canh")) == 3
    assert accents_of("bep lau") == ("", "")
    assert accents_of("lâu") != accents_of("lẩu")
    assert accents_of("đi") == ("đ",)
    assert accents_of("hoà") == accents_of("hòa")  # the old and new place of the tone mark


def _entry(*spellings: str) -> Entry:
    return Entry(words_of(spellings[0]), "value", ("x",), frozenset(accents_of(s) for s in spellings))


def test_a_marked_word_must_carry_the_phrases_marks() -> None:
    hotpot = _entry("bếp lẩu")
    assert hotpot.spelled_as(accents_of("bếp lẩu"))
    assert hotpot.spelled_as(accents_of("bep lau"))  # typed bare: anything goes
    assert hotpot.spelled_as(accents_of("bếp lau"))  # one word typed bare
    assert not hotpot.spelled_as(accents_of("bếp lâu"))  # "long", not "hotpot"
    assert _entry("bàn", "bán").spelled_as(accents_of("bán"))  # any of its spellings
    assert Entry(("ban",), "concept", "table_no").spelled_as(accents_of("bán"))  # a phrase written bare


def test_a_name_left_untranslated_is_enough_to_name_its_row() -> None:
    vi = ["Bia Heineken (chai)", "Bia Saigon Special (chai)", "Cà phê hạt", "Cà chua"]
    en = ["Heineken beer (bottle)", "Saigon Special beer (bottle)", "Coffee beans", "Tomatoes"]
    words = _distinctive_words(vi, en, {"bia", "beer"})
    assert words == {"heineken": "Bia Heineken (chai)", "saigon": "Bia Saigon Special (chai)",
                     "special": "Bia Saigon Special (chai)"}  # translated words ("coffee") name nothing alone
    assert "heineken" not in _distinctive_words(vi + ["Bia Heineken (lon)"], en, set())  # two rows: ambiguous

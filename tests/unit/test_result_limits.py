"""The row/value wrapper and the one clip function (pure; the database side is tests/integration/test_limits.py)."""

from __future__ import annotations

from aria.db.result_limits import CLIP_MARKER, Column, capped_query, clip_value, flagged_positions


def test_clip_value_marks_long_text_and_long_structures_only() -> None:
    assert clip_value("abc", 3) == "abc"
    assert clip_value("abcd", 3) == "abc" + CLIP_MARKER
    assert clip_value([1, 2, 3, 4], 5) == "[1, 2" + CLIP_MARKER
    assert clip_value({"a": 1}, 50) == {"a": 1}
    assert clip_value(12345678, 2) == 12345678 and clip_value(None, 1) is None


def test_capped_query_clips_text_flags_other_variable_types_and_caps_rows() -> None:
    columns = [Column("id", 23), Column("note", 25), Column("tags", 1009), Column("doc", 3802)]
    query, flags = capped_query("SELECT 1", columns, row_cap=5, max_chars=100)
    assert query == (
        "SELECT q.c1, left(q.c2, 101), CASE WHEN octet_length(q.c3::text) > 100 THEN NULL ELSE q.c3 END, "
        "CASE WHEN octet_length(q.c4::text) > 100 THEN NULL ELSE q.c4 END, "
        "coalesce(octet_length(q.c3::text) > 100, false), coalesce(octet_length(q.c4::text) > 100, false) "
        "FROM (SELECT 1) AS q(c1, c2, c3, c4) LIMIT 6"
    )
    assert flags == 2 and flagged_positions(columns) == [2, 3]


def test_capped_query_without_columns_or_cap() -> None:
    assert capped_query("UPDATE t SET a = 1", [], row_cap=None, max_chars=10) == ("UPDATE t SET a = 1", 0)
    assert capped_query("SELECT", [], row_cap=3, max_chars=10) == ("SELECT * FROM (SELECT) AS q LIMIT 4", 0)
    assert capped_query("SELECT 1", [Column("n", 23)], row_cap=None, max_chars=10)[0] == \
        "SELECT q.c1 FROM (SELECT 1) AS q(c1)"

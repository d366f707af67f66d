from __future__ import annotations

from aria.eval.semantic_bench import SemanticItem, SemanticReport, judged, semantic_markdown


def _report(split: str) -> str:
    items = [SemanticItem("q-1", "Doanh thu hôm qua?", "wrong", 12.0, "Doanh thu · 2026-11-14"),
             SemanticItem("q-2", "Món nào bán chạy?", "correct", 10.0, "Số phần bán được")]
    return semantic_markdown(SemanticReport(split=split, items=items))


def test_a_wrong_answer_is_listed_with_its_question_and_reading() -> None:
    text = _report("seed_db/questions/semantic_dev.yaml")
    assert "WRONG q-1: Doanh thu hôm qua? — Doanh thu · 2026-11-14" in text and "q-2" not in text


def test_the_held_out_test_set_lists_ids_only() -> None:
    for split in ("eval", "eval (engine, no model)"):  # the semantic stage alone, and the whole engine
        text = _report(split)
        assert "  WRONG q-1" in text.splitlines() and "Doanh thu hôm qua" not in text, split


def test_a_wrong_answer_says_whether_it_shows_more_or_fewer_columns_than_the_gold() -> None:
    gold = [["Phở", 10, 500]]
    assert judged([["Phở", 10]], gold) == ("wrong", False, True)  # the gold's companion left out
    assert judged([["Phở", 10, 500, 3]], gold) == ("wrong", True, False)  # a companion the gold left out
    assert judged([["Phở", 11, 500]], gold) == ("wrong", False, False)  # another figure
    assert judged([[500, "Phở", 10]], gold) == ("correct", False, False)

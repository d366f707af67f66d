"""The Knowledge Base page's Metrics tab and the chat's verified examples, as pure functions."""

from __future__ import annotations

from typing import Any

from aria.errors import KnowledgeBaseError
from aria.kb.base import KnowledgeBase
from aria.kb.embed import FakeEmbedder
from aria.kb.store import KnowledgeStore
from aria.semantic.catalog import DimensionInfo, Labels, MetricInfo, SemanticCatalog
from aria.ui.kb_access import example_questions
from aria.ui.kb_page import concept_frame, metric_frame

REVENUE = Labels(vi="Doanh thu", en="Revenue", synonyms_vi=("doanh số", "tiền bán"), synonyms_en=("sales",))
GUESTS = Labels(vi="Số khách", en="Guests", synonyms_en=("covers",))
CATEGORY = Labels(vi="Danh mục", en="Category", synonyms_vi=("nhóm món",))
CATALOG = SemanticCatalog(
    metrics={"revenue": MetricInfo(name="revenue", labels=REVENUE, unit="vnd", decimals=0, column="revenue_vnd",
                                   description="Completed orders' totals after discounts."),
             "guests": MetricInfo(name="guests", labels=GUESTS, unit="people", decimals=0, column="guests")},
    dimensions=(DimensionInfo(name="name_vi", semantic_model="category", table="categories", expr="name_vi",
                              concept="category", labels=CATEGORY),),
    concepts={"category": CATEGORY},
)


def test_metric_frame_lists_every_metric_with_its_definition() -> None:
    df = metric_frame(CATALOG, "vi")
    assert list(df.columns) == ["Chỉ số", "Tên (vi)", "Tên (en)", "Đơn vị", "Định nghĩa", "Cách gọi khác", "Mã"]
    assert df["Chỉ số"].tolist() == ["Doanh thu", "Số khách"]  # sorted by the name in the UI language
    revenue = df.iloc[0]
    assert (revenue["Tên (en)"], revenue["Đơn vị"], revenue["Mã"]) == ("Revenue", "vnd", "revenue")
    assert revenue["Định nghĩa"] == "Completed orders' totals after discounts."
    assert revenue["Cách gọi khác"] == "doanh số, tiền bán, sales"
    english = metric_frame(CATALOG, "en")
    assert english["Metric"].tolist() == ["Guests", "Revenue"] and english.iloc[0]["Synonyms"] == "covers"


def test_concept_frame_lists_the_dimensions_by_concept() -> None:
    df = concept_frame(CATALOG, "en")
    assert df.values.tolist() == [["Category", "Danh mục", "Category", "nhóm món", "category"]]


class _Listing(KnowledgeStore):
    """A store whose verified-query listing is fixed rows (no database)."""

    def __init__(self, rows: list[tuple[Any, ...]]) -> None:
        self.rows = rows

    def verified_query_list(self) -> tuple[list[str], list[tuple[Any, ...]]]:
        return ["id", "db_name", "question", "sql", "source", "created_at"], self.rows


def test_example_questions_in_the_ui_language_the_restaurants_own_first() -> None:
    rows = [  # newest first, as the store lists them
        (6, "restaurant", "Có bao nhiêu đơn hàng đã hoàn thành?", "SELECT 1", "workbench", None),
        (5, "spider_dev", "Có bao nhiêu ca sĩ?", "SELECT 1", "workbench", None),
        (4, "restaurant", "How much VAT did we collect last month?", "SELECT 1", "golden", None),
        (3, "restaurant", "Hôm qua có bao nhiêu đơn hàng bị hủy?", "SELECT 1", "golden", None),
        (2, "restaurant", "What was our total revenue yesterday?", "SELECT 1", "golden", None),
        (1, "restaurant", "Món bán chạy nhất?", "SELECT 1", "golden", None),
    ]
    kb = KnowledgeBase(_Listing(rows), FakeEmbedder(), "restaurant")
    assert example_questions(kb, "vi") == ["Có bao nhiêu đơn hàng đã hoàn thành?", "Món bán chạy nhất?"]
    assert example_questions(kb, "vi", limit=3, exclude={"Món bán chạy nhất?"}) == [
        "Có bao nhiêu đơn hàng đã hoàn thành?", "Hôm qua có bao nhiêu đơn hàng bị hủy?"]
    assert example_questions(kb, "en") == ["What was our total revenue yesterday?",
                                           "How much VAT did we collect last month?"]


class _Broken(KnowledgeStore):
    def __init__(self) -> None:
        pass

    def verified_query_list(self) -> tuple[list[str], list[tuple[Any, ...]]]:
        raise KnowledgeBaseError("The knowledge base is not built yet.")


def test_example_questions_are_none_when_the_listing_fails() -> None:
    assert example_questions(KnowledgeBase(_Broken(), FakeEmbedder(), "restaurant"), "vi") == []

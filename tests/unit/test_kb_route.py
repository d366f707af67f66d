"""Warehouse routing, person names, link tables, the question-vector cache, merged gold names."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from aria.eval.retrieval_bench import gold_items
from aria.kb.base import KnowledgeBase
from aria.kb.catalog import Catalog, CatalogColumn
from aria.kb.context import JoinEdge
from aria.kb.embed import FakeEmbedder
from aria.kb.retrieve import ScoredDoc, mentions_person, person_table
from aria.kb.route import (
    database_scores,
    databases,
    pick_databases,
    restrict,
    runner_up_tier,
)
from aria.sql.schema import Column, ForeignKey, Schema, Table


def _catalog(tables: dict[str, list[str]], edges: tuple[JoinEdge, ...] = ()) -> Catalog:
    return Catalog(db_name="w", tables={t: {} for t in tables},
                   columns={t: [CatalogColumn(t, c, {}) for c in cols] for t, cols in tables.items()}, edges=edges)


def _edge(table: str, column: str, ref_table: str, ref_column: str) -> JoinEdge:
    return JoinEdge(table=table, columns=(column,), ref_table=ref_table, ref_columns=(ref_column,))


def _doc(table: str, dense: float, lex: float = 0.0) -> ScoredDoc:
    return ScoredDoc("table", f"table:{table}", table, None, dense, lex, None)


def test_a_warehouse_is_split_into_its_databases() -> None:
    warehouse = _catalog({"a.singer": ["name"], "a.concert": ["year"], "b.singer": ["name"]})
    assert databases(warehouse) == {"a": ["a.singer", "a.concert"], "b": ["b.singer"]}
    assert databases(_catalog({"orders": ["id"], "a.x": ["id"]})) == {}
    crossing = _catalog({"a.x": ["id"], "b.y": ["x_id"]}, (_edge("b.y", "x_id", "a.x", "id"),))
    assert databases(crossing) == {}
    only_a = restrict(warehouse, ["a"])
    assert set(only_a.tables) == {"a.singer", "a.concert"} and set(only_a.columns) == set(only_a.tables)


def test_databases_are_ranked_by_dense_and_lexical_matches() -> None:
    docs = [_doc("a.singer", 0.6), _doc("a.concert", 0.5), _doc("b.singer", 0.6, lex=0.2), _doc("b.song", 0.5),
            _doc("c.ship", 0.1)]
    scores = database_scores(docs, lexical_weight=0.1)
    assert scores["b"] > scores["a"] > scores["c"]
    assert pick_databases(scores, max_databases=3, ratio=0.7) == ["b", "a"]
    assert pick_databases(scores, max_databases=1, ratio=0.0) == ["b"]
    assert pick_databases({}, max_databases=2, ratio=0.0) == []


def test_the_winner_s_margin_decides_how_a_runner_up_is_kept() -> None:
    tier = lambda score: runner_up_tier(score, 0.5, close=0.9, ratio=0.7, value_ratio=0.5)  # noqa: E731
    assert tier(0.49) == "close" and tier(0.45) == "close"  # a margin of 10 %: too close to call
    assert tier(0.40) == "near" and tier(0.35) == "near"  # up to 30 %: a lean share
    assert tier(0.30) == "value" and tier(0.25) == "value"  # kept only when one of its values is named (below)
    assert tier(0.20) is None  # a wide margin: the winner is committed to
    assert runner_up_tier(0.3, 0.0, close=0.9, ratio=0.7, value_ratio=0.5) is None


def _warehouse_kb(docs: list[ScoredDoc]) -> KnowledgeBase:
    tables = {"a.singer": ["singer_id", "name", "age"], "a.concert": ["concert_id", "year"],
              "b.player": ["player_id", "name", "club"], "b.club": ["club_id", "city"],
              "c.ship": ["ship_id", "tonnage"]}
    kb = KnowledgeBase(store=None, embedder=FakeEmbedder(), db_name="w")  # type: ignore[arg-type]  # no query runs
    kb.__dict__["catalog"] = _catalog(tables)
    kb.score = lambda vector, text: docs  # type: ignore[method-assign]
    return kb


def _column_doc(table: str, column: str, dense: float) -> ScoredDoc:
    return ScoredDoc("column", f"column:{table}.{column}", table, column, dense, 0.0, None)


def test_a_close_runner_up_gets_tables_a_near_one_a_lean_share_a_distant_one_nothing() -> None:
    base = [_doc("a.singer", 0.8), _doc("a.concert", 0.7), _column_doc("a.singer", "age", 0.8),
            _doc("c.ship", 0.05)]
    vector = np.zeros(4, dtype=np.float32)
    close = _warehouse_kb(base + [_doc("b.player", 0.78), _doc("b.club", 0.7)])
    assert {"b.player", "b.club"} <= set(close.retrieve("q", k=3, m=8, budget=400, vector=vector).table_names)
    near = _warehouse_kb(base + [_doc("b.player", 0.65), _doc("b.club", 0.55)])
    tables = near.retrieve("q", k=3, m=8, budget=400, vector=vector).table_names
    assert "b.player" in tables and "b.club" not in tables  # its best table only
    far = _warehouse_kb(base + [_doc("b.player", 0.3), _doc("b.club", 0.2)])
    assert not any(t.startswith(("b.", "c.")) for t in far.retrieve("q", k=3, m=8, budget=400, vector=vector).table_names)
    valued = base + [_doc("b.player", 0.5), _doc("b.club", 0.45),
                     ScoredDoc("column", "column:b.club.city", "b.club", "city", 0.4, 0.0, "liverpool | leeds")]
    assert "b.club" in _warehouse_kb(valued).retrieve("clubs in liverpool", k=3, m=8, budget=400,
                                                      vector=vector).table_names  # 40 % behind, but its value is named
    assert not any(t.startswith("b.") for t in _warehouse_kb(valued).retrieve("clubs in paris", k=3, m=8, budget=400,
                                                                              vector=vector).table_names)


def test_person_names_are_two_capitalized_words() -> None:
    assert mentions_person("What's Lucas di Grassi's Q1 result?") and mentions_person("Who is Bruce McLaren?")
    assert not mentions_person("Who won the Australian Grand Prix in 2008?")
    assert not mentions_person("How many SLE patients?") and not mentions_person("What is the ID")
    f1 = _catalog({"drivers": ["driverId", "forename", "surname"], "races": ["raceId", "name"]})
    assert person_table(f1, "Lewis Hamilton's points", {"races": 1.0}) == ("drivers", ["forename", "surname"])
    assert person_table(f1, "points in 2008", {}) is None


def test_a_link_table_joins_two_selected_tables() -> None:
    edges = (_edge("disp", "client_id", "client", "client_id"),
             _edge("disp", "account_id", "account", "account_id"),
             _edge("client", "district_id", "district", "district_id"),
             _edge("account", "district_id", "district", "district_id"),
             _edge("loan", "account_id", "account", "account_id"))
    bank = _catalog({t: ["id"] for t in ("disp", "client", "account", "district", "loan")}, edges)
    assert bank.bridges(["client", "account", "district"], scores={}, limit=1) == ["disp"]
    assert bank.bridges(["client", "account", "disp"], scores={}, limit=1) == []
    assert bank.bridges(["loan", "account"], scores={}, limit=1) == []


class _CountingEmbedder(FakeEmbedder):
    def __init__(self) -> None:
        self.calls = 0

    def embed(self, texts: Sequence[str], *, progress: Callable[[int], None] | None = None) -> np.ndarray:
        self.calls += 1
        return super().embed(texts, progress=progress)


def test_a_question_is_embedded_once() -> None:
    embedder = _CountingEmbedder()
    kb = KnowledgeBase(store=None, embedder=embedder, db_name="x")  # type: ignore[arg-type]  # no query runs
    first = kb.embed_query("doanh thu hom nay")
    assert np.array_equal(kb.embed_query("doanh thu hom nay"), first) and embedder.calls == 1
    kb.embed_query("another question")
    assert embedder.calls == 2


def test_merged_gold_names_are_lower_case() -> None:
    schema = Schema("d", (Table("Documents", (Column("Document_ID", "integer", False, True),)),),
                    (ForeignKey("Documents", ("Document_ID",), "Documents", ("Document_ID",)),), dialect="sqlite")
    gold = gold_items("SELECT count(*) FROM Documents", schema, prefix="cre_Doc_Template_Mgt.")
    assert gold.tables == {"cre_doc_template_mgt.documents"}

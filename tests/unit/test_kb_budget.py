"""Columns against a token budget: wide tables get what the question needs, narrow ones are not padded;
a person's name comes whole."""

from __future__ import annotations

from aria.kb.catalog import Catalog, CatalogColumn
from aria.kb.retrieve import RetrievalOptions, ScoredDoc, select


def _catalog(tables: dict[str, list[str]]) -> Catalog:
    return Catalog(db_name="w", tables={t: {} for t in tables},
                   columns={t: [CatalogColumn(t, c, {"type": "text"}) for c in cols] for t, cols in tables.items()},
                   edges=())


def _docs(scores: dict[str, float]) -> list[ScoredDoc]:
    tables = {key.split(".")[0] for key in scores}
    docs = [ScoredDoc("table", f"table:{t}", t, None, 0.5, 0.0, None) for t in tables]
    return docs + [ScoredDoc("column", f"column:{key}", key.split(".")[0], key.split(".")[1], score, 0.0, None)
                   for key, score in scores.items()]


WIDE = [f"C{i:02d}" for i in range(30)]
CATALOG = _catalog({"wide": WIDE, "narrow": ["a", "b", "c", "d", "e", "f"]})
SCORES = {**{f"wide.{c}": 0.9 - i * 0.01 for i, c in enumerate(WIDE)},
          **{f"narrow.{c}": 0.3 - i * 0.01 for i, c in enumerate("abcdef")}}
OPTS = RetrievalOptions(column_floor=2, extra_tables=0)


def _chosen(*, m: int, budget: int) -> dict[str, list[str]]:
    sel, _, _ = select(CATALOG, _docs(SCORES), "question", k=2, m=m, opts=OPTS, budget=budget)
    return {t: list(cols) for t, cols in sel.columns.items()}


def test_the_budget_goes_to_the_best_columns_wherever_they_are() -> None:
    fixed = _chosen(m=4, budget=0)
    assert len(fixed["wide"]) == 4 and len(fixed["narrow"]) == 4
    spent = _chosen(m=16, budget=60)
    assert len(spent["wide"]) > 4 and spent["wide"][:4] == fixed["wide"]
    assert len(spent["narrow"]) == 2  # the floor, nothing more: its columns score below the wide table's


def test_m_caps_a_table_and_a_bigger_budget_never_takes_fewer() -> None:
    assert len(_chosen(m=6, budget=10_000)["wide"]) == 6
    small, large = _chosen(m=16, budget=30), _chosen(m=16, budget=90)
    assert set(small["wide"]) <= set(large["wide"])


def test_a_first_name_brings_the_last_name() -> None:
    catalog = _catalog({"people": ["id", "first_name", "last_name", "city", "zip", "phone"]})
    docs = _docs({"people.first_name": 0.9, "people.city": 0.8, "people.id": 0.7, "people.last_name": 0.1,
                  "people.zip": 0.1, "people.phone": 0.1})
    sel, _, _ = select(catalog, docs, "where does anna live", k=1, m=2, opts=OPTS, budget=0)
    assert {"first_name", "last_name"} <= set(sel.columns["people"])


def test_a_named_table_brings_its_name_column() -> None:
    catalog = _catalog({"Player": ["id", "player_api_id", "player_name", "height", "weight", "birthday"]})
    docs = _docs({"Player.height": 0.9, "Player.id": 0.8, "Player.player_name": 0.1, "Player.weight": 0.1,
                  "Player.birthday": 0.1, "Player.player_api_id": 0.1})
    sel, _, _ = select(catalog, docs, "which player is the tallest", k=1, m=2, opts=OPTS, budget=0)
    assert "player_name" in sel.columns["Player"]
    sel, _, _ = select(catalog, docs, "how tall is the tallest", k=1, m=2, opts=OPTS, budget=0)
    assert "player_name" not in sel.columns["Player"]  # the question does not name the table


def test_a_year_in_the_question_brings_the_year_column() -> None:
    catalog = _catalog({"races": ["raceId", "name", "date", "year", "round", "url"]})
    docs = _docs({"races.name": 0.9, "races.date": 0.8, "races.year": 0.1, "races.round": 0.1,
                  "races.url": 0.1, "races.raceId": 0.1})
    sel, _, _ = select(catalog, docs, "which circuit did the 2009 spanish grand prix use", k=1, m=2, opts=OPTS,
                       budget=0)
    assert {"date", "year"} <= set(sel.columns["races"])


def test_tables_joined_by_a_column_named_after_the_other_table() -> None:
    catalog = _catalog({"cards": ["uuid", "name", "setCode", "artist"], "sets": ["id", "code", "name", "type"]})
    docs = _docs({"cards.name": 0.9, "sets.name": 0.8, "cards.artist": 0.1, "cards.setCode": 0.05,
                  "sets.type": 0.1, "sets.code": 0.05, "cards.uuid": 0.1, "sets.id": 0.1})
    sel, _, _ = select(catalog, docs, "artists of coldsnap", k=2, m=1, opts=OPTS, budget=0)
    assert "setCode" in sel.columns["cards"] and "code" in sel.columns["sets"]


def test_a_question_asking_who_brings_the_names_of_a_joined_table() -> None:
    from aria.kb.context import JoinEdge

    tables = {"results": ["resultId", "raceId", "driverId", "position"], "drivers": ["driverId", "forename", "surname"]}
    base = _catalog(tables)
    catalog = Catalog(db_name="w", tables=base.tables, columns=base.columns,
                      edges=(JoinEdge(table="results", columns=("driverId",), ref_table="drivers",
                                      ref_columns=("driverId",)),))
    docs = [d for d in _docs({"results.position": 0.9, "results.raceId": 0.5, "results.resultId": 0.4,
                              "results.driverId": 0.3}) if d.table == "results"]
    sel, _, _ = select(catalog, docs, "who finished second", raw="Who finished second?", k=1, m=2,
                       opts=OPTS, budget=0)
    assert {"forename", "surname"} <= set(sel.columns["drivers"])
    sel, _, _ = select(catalog, docs, "results who finished second", raw="Results who finished second", k=1, m=2,
                       opts=OPTS, budget=0)
    assert "drivers" not in sel.tables  # "who" as a relative pronoun asks for no one


def test_a_person_named_without_first_and_last_name_columns_brings_the_tables_own_name() -> None:
    catalog = _catalog({"Player": ["id", "player_api_id", "player_name", "height"],
                        "Player_Attributes": ["id", "player_api_id", "potential", "date"]})
    docs = _docs({"Player_Attributes.potential": 0.9, "Player_Attributes.id": 0.8, "Player_Attributes.date": 0.1,
                  "Player_Attributes.player_api_id": 0.1, "Player.id": 0.1, "Player.player_api_id": 0.1,
                  "Player.player_name": 0.1, "Player.height": 0.1})
    sel, _, _ = select(catalog, docs, "what is aaron doran s potential score", raw="What is Aaron Doran's potential?",
                       k=1, m=2, opts=OPTS, budget=0)
    assert "player_name" in sel.columns["Player"]


def test_a_plural_in_es_names_its_table() -> None:
    catalog = _catalog({"superhero": ["id", "superhero_name", "height_cm", "weight_kg"]})
    docs = _docs({"superhero.height_cm": 0.9, "superhero.id": 0.8, "superhero.superhero_name": 0.1,
                  "superhero.weight_kg": 0.1})
    sel, _, _ = select(catalog, docs, "count the fastest superheroes", k=1, m=2, opts=OPTS, budget=0)
    assert "superhero_name" in sel.columns["superhero"]


def test_a_light_table_the_question_names_a_column_of_gets_the_year_column() -> None:
    from dataclasses import replace

    catalog = _catalog({"results": ["resultId", "raceId", "points", "laps"],
                        "races": ["raceId", "year", "round", "url"]})
    docs = _docs({"results.points": 0.9, "results.laps": 0.8, "results.resultId": 0.7, "results.raceId": 0.6,
                  "races.url": 0.1, "races.year": 0.05, "races.round": 0.05, "races.raceId": 0.05})
    sel, _, _ = select(catalog, docs, "points in the first round of 2008", k=1, m=2,
                       opts=replace(OPTS, extra_tables=1), budget=0)
    assert {"round", "year"} <= set(sel.columns["races"])


def test_a_low_ranked_table_only_its_rank_brings_gets_its_best_columns_and_name_not_a_budget_share() -> None:
    catalog = _catalog({"orders": ["id", "total", "placed_at", "status"], "items": ["id", "qty", "price", "sku"],
                        "shops": ["id", "name", "city", "opened", "phone", "owner"]})
    scores = {**{f"orders.{c}": 0.9 - i * 0.01 for i, c in enumerate(["id", "total", "placed_at", "status"])},
              **{f"items.{c}": 0.8 - i * 0.01 for i, c in enumerate(["id", "qty", "price", "sku"])},
              **{f"shops.{c}": 0.7 - i * 0.01 for i, c in enumerate(["city", "opened", "phone", "owner", "id", "name"])}}
    docs = [d if d.kind == "column" else ScoredDoc("table", d.key, d.table, None, {"orders": 0.9, "items": 0.8,
                                                                                    "shops": 0.7}[d.table or ""],
                                                   0.0, None) for d in _docs(scores)]
    opts = RetrievalOptions(column_floor=3, extra_tables=0, weak_floor=2)
    sel, _, _ = select(catalog, docs, "average basket", k=3, m=16, opts=opts, budget=10_000)
    assert sel.tables[2] == "shops"
    assert set(sel.columns["shops"]) == {"city", "opened", "name"}  # its best two and its name column
    assert len(sel.columns["orders"]) == 4 and len(sel.columns["items"]) == 4  # the budget goes to the others
    sel, _, _ = select(catalog, docs, "average basket by phone", k=3, m=16, opts=opts, budget=10_000)
    assert len(sel.columns["shops"]) == 6  # the question names a column of it: an ordinary table


def test_columns_that_only_fill_the_budget_are_rendered_brief() -> None:
    from aria.kb.retrieve import to_context

    described = {"type": "text", "description": "what it holds", "examples": ["x", "y"]}
    catalog = Catalog(db_name="w", tables={"t": {}}, edges=(), columns={"t": [
        CatalogColumn("t", "id", {**described, "pk": True}), *(CatalogColumn("t", c, described) for c in WIDE[:6])]})
    docs = _docs({**{f"t.{c}": 0.9 - i * 0.01 for i, c in enumerate(WIDE[:6])}, "t.id": 0.1})
    opts = RetrievalOptions(column_floor=2, extra_tables=0, full_floor=1)
    sel, values, hits = select(catalog, docs, "c05", k=1, m=16, opts=opts, budget=10_000)
    ctx = to_context(catalog, sel, values, hits, k=1, m=16)
    columns = {c.name: c for c in ctx.tables[0].columns}
    assert not columns["C00"].brief and not columns["id"].brief  # the table's best one, its key
    assert not columns["C05"].brief  # named in the question
    assert columns["C01"].brief and columns["C04"].brief  # the rest of the floor, filling the budget
    lines = ctx.render().splitlines()
    assert "(C00:text, what it holds, Examples: [x, y])," in lines
    assert "(id:text, Primary Key, what it holds, Examples: [x, y])," in lines
    assert "(C01:text)," in lines  # still its name and type
    full_tokens = sum(c.token_count for c in catalog.columns["t"])
    brief_tokens = sum(c.brief_token_count for c in catalog.columns["t"])
    assert brief_tokens < full_tokens

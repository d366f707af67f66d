"""Question words matched against what a column means (its name's words, its description, the glossary),
not only through embeddings; a question about a period brings a date column, one asking for a name
brings the name parts; a runner-up database's lean share adds no table by a shared column name."""

from __future__ import annotations

from aria.kb.catalog import Catalog, CatalogColumn
from aria.kb.retrieve import (
    RetrievalOptions,
    ScoredDoc,
    asks_for_name,
    asks_for_time,
    described_matches,
    fuse_scores,
    is_date_column,
    select,
)
from aria.text import normalize, stem_text

POS = {"TRX_NO": ("text", "receipt number"), "TIP_AMT": ("numeric", "tip left by the guest, VND"),
       "VOID_FLG": ("boolean", "line voided (cancelled) after it was rung up"),
       "GST_CNT": ("integer", "number of guests (covers) on the receipt"),
       "TRX_DT": ("date", "business date of the receipt"), "TRX_TM": ("time", "time the receipt was opened"),
       "PAY_TP": ("text", "payment type: CASH, CARD, QR")}
GLOSSARY = ({"term": "tiền boa", "meaning": "tips", "table": "pos", "column": "TIP_AMT"},)


def _catalog(tables: dict[str, dict[str, tuple[str, str]]], glossary: tuple[dict[str, str], ...] = ()) -> Catalog:
    return Catalog(db_name="w", tables={t: {} for t in tables},
                   columns={t: [CatalogColumn(t, c, {"type": kind, "description": desc}) for c, (kind, desc) in cols.items()]
                            for t, cols in tables.items()}, edges=(), glossary=glossary)


def _flat_docs(catalog: Catalog) -> list[ScoredDoc]:
    """Every document equally similar: what embeddings say about a cryptic name they cannot read."""
    docs = [ScoredDoc("table", f"table:{t}", t, None, 0.5, 0.0, None) for t in catalog.tables]
    return docs + [ScoredDoc("column", f"column:{c.table}.{c.name}", c.table, c.name, 0.5, 0.0, None)
                   for cols in catalog.columns.values() for c in cols]


def test_a_description_or_a_glossary_entry_names_a_cryptic_column() -> None:
    catalog = _catalog({"pos": POS}, GLOSSARY)
    english = described_matches(catalog, stem_text("total tips by payment type"))
    assert set(english) == {"pos\x00TIP_AMT", "pos\x00PAY_TP"}
    vietnamese = described_matches(catalog, stem_text(normalize("tổng tiền boa hôm nay")))
    assert set(vietnamese) == {"pos\x00TIP_AMT"}  # through the glossary's term
    # a rarer shared word weighs more: "guest" is in two descriptions, "covers" in one
    both = described_matches(catalog, stem_text("guests covers"))
    assert both["pos\x00GST_CNT"] > both["pos\x00TIP_AMT"]


def test_described_matches_rank_columns_but_do_not_move_tables() -> None:
    catalog = _catalog({"pos": POS})
    docs = _flat_docs(catalog)
    described = described_matches(catalog, stem_text("voided lines"))
    tables, columns = fuse_scores(docs, RetrievalOptions(), described)
    plain_tables, plain_columns = fuse_scores(docs, RetrievalOptions())
    assert tables == plain_tables
    assert max(columns, key=lambda key: columns[key]) == "pos\x00VOID_FLG"
    assert columns["pos\x00VOID_FLG"] > plain_columns["pos\x00VOID_FLG"]


def test_the_budget_spends_on_the_described_column_of_a_wide_table() -> None:
    catalog = _catalog({"pos": POS}, GLOSSARY)
    opts = RetrievalOptions(column_floor=1, extra_tables=0, dated=False)
    sel, _, _ = select(catalog, _flat_docs(catalog), normalize("tổng tiền boa"), k=1, m=2, opts=opts, budget=1)
    assert "TIP_AMT" in sel.columns["pos"]
    off = RetrievalOptions(column_floor=1, extra_tables=0, dated=False, described_weight=0.0)
    sel, _, _ = select(catalog, _flat_docs(catalog), normalize("total of the tips"), k=1, m=1, opts=off, budget=1)
    assert "TIP_AMT" not in sel.columns["pos"]  # without it, a flat dense ranking keeps the first column


def test_a_period_brings_a_date_column_and_a_name_question_the_name_parts() -> None:
    assert asks_for_time(normalize("Revenue in 2008")) and asks_for_time(normalize("Doanh thu hôm qua"))
    assert asks_for_time("sales this month") and not asks_for_time("how many guests per table")
    assert asks_for_name("what is his name") and asks_for_name(normalize("tên khách")) and not asks_for_name("age")
    catalog = _catalog({"pos": POS})
    columns = {c.name: c for c in catalog.columns["pos"]}
    assert is_date_column(columns["TRX_DT"]) and not is_date_column(columns["TRX_TM"])
    opts = RetrievalOptions(column_floor=1, extra_tables=0, described_weight=0.0)
    sel, _, _ = select(catalog, _flat_docs(catalog), normalize("tips yesterday"), k=1, m=1, opts=opts, budget=1)
    assert sel.columns["pos"].get("TRX_DT") == "date"
    people = _catalog({"drivers": {"driverId": ("integer", ""), "forename": ("text", ""), "surname": ("text", ""),
                                   "dob": ("date", "date of birth"), "nationality": ("text", "")}})
    sel, _, _ = select(people, _flat_docs(people), "what is the name of the youngest japanese driver", k=1, m=1,
                       opts=RetrievalOptions(column_floor=1, extra_tables=0, described_weight=0.0), budget=1)
    assert {"forename", "surname"} <= set(sel.columns["drivers"])


def test_a_lean_share_adds_no_table_by_a_column_name_two_tables_share() -> None:
    catalog = _catalog({"singer": {"singer_id": ("integer", ""), "age": ("integer", "")},
                        "fan": {"fan_id": ("integer", ""), "age": ("integer", "")},
                        "club": {"club_id": ("integer", ""), "city": ("text", "")}})
    docs = [d if d.table != "club" else ScoredDoc(d.kind, d.key, d.table, d.column, 0.9, 0.0, None)
            for d in _flat_docs(catalog)]
    full, _, _ = select(catalog, docs, "age", k=1, m=1, opts=RetrievalOptions(extra_tables=0), budget=1)
    assert set(full.tables) == {"club", "singer", "fan"}
    lean, _, _ = select(catalog, docs, "age", k=1, m=1, opts=RetrievalOptions(extra_tables=0, names_add_tables=False),
                        budget=1)
    assert lean.tables == ["club"]

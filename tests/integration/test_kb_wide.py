"""Retrieval on a wide table with cryptic column names (a POS export, as restaurants' tills write
them): the column token budget gives a wide table the columns a question needs, where a fixed m
per table cut them off, and stays a small part of the schema."""

from __future__ import annotations

import pytest

from aria.config import Settings
from aria.db.connect import Targets
from aria.kb.base import KnowledgeBase
from aria.kb.build import build_kb
from aria.kb.embed import get_embedder
from aria.kb.store import KnowledgeStore
from aria.sql.schema import Column, ForeignKey, Schema, Table


def _col(name: str, data_type: str, description: str, values: tuple[str, ...] = (), pk: bool = False) -> Column:
    return Column(name=name, data_type=data_type, description=description, sample_values=values, is_primary_key=pk)


POS_EXPORT = Table(name="pos_trx_exp", description="POS export: one row per receipt line, as the till writes it", columns=(
    _col("TRX_NO", "text", "receipt number", pk=True),
    _col("LN_NO", "integer", "line number on the receipt", pk=True),
    _col("BR_CD", "text", "branch code", ("Q1", "Q3", "TD")),
    _col("POS_ID", "text", "till (terminal) id", ("POS01", "POS02")),
    _col("CSH_ID", "text", "cashier staff id"),
    _col("SRV_ID", "text", "waiter (server) staff id"),
    _col("TRX_DT", "date", "business date of the receipt"),
    _col("TRX_TM", "time", "time the receipt was opened"),
    _col("CLS_TM", "time", "time the receipt was closed (paid)"),
    _col("SHFT", "text", "shift: S = sáng/morning, T = trưa/lunch, C = chiều/afternoon, TOI = tối/evening",
         ("S", "T", "C", "TOI")),
    _col("TBL_NO", "integer", "table number (0 = takeaway)"),
    _col("GST_CNT", "integer", "number of guests (covers) on the receipt"),
    _col("ORD_TP", "text", "order type: DI = dine-in, TA = takeaway, DL = delivery", ("DI", "TA", "DL")),
    _col("ITM_CD", "text", "menu item code (SKU)"),
    _col("ITM_NM", "text", "menu item name", ("Phở bò", "Bún chả", "Cà phê sữa đá")),
    _col("CAT_CD", "text", "menu category code", ("FOOD", "BEV", "DES")),
    _col("QTY", "numeric", "quantity sold on the line"),
    _col("UPRC", "numeric", "unit price, VND"),
    _col("GRS_AMT", "numeric", "gross line amount before discount, VND"),
    _col("DISC_AMT", "numeric", "discount on the line, VND"),
    _col("DISC_CD", "text", "promotion / discount code", ("HAPPY", "VIP10")),
    _col("SVC_CHG", "numeric", "service charge, VND"),
    _col("VAT_AMT", "numeric", "VAT on the line, VND"),
    _col("NET_AMT", "numeric", "net line amount after discount, before VAT, VND (doanh thu thuần)"),
    _col("PAY_TP", "text", "payment type: CASH, CARD, QR (MoMo/VNPay)", ("CASH", "CARD", "QR")),
    _col("CARD_TP", "text", "card brand when paid by card", ("VISA", "MC", "JCB")),
    _col("TIP_AMT", "numeric", "tip left by the guest, VND"),
    _col("VOID_FLG", "boolean", "line voided (cancelled) after it was rung up"),
    _col("VOID_RSN", "text", "reason the line was voided", ("khách đổi món", "hết món", "nhập nhầm")),
    _col("RFND_FLG", "boolean", "line refunded"),
    _col("CUST_ID", "text", "loyalty member id of the guest, if any"),
    _col("MBR_PTS", "integer", "loyalty points earned on the line"),
    _col("KDS_SNT_TM", "time", "time the line was sent to the kitchen display"),
    _col("KDS_DN_TM", "time", "time the kitchen marked the line done"),
    _col("WAIT_MIN", "numeric", "minutes from order to the dish reaching the table"),
    _col("STN_CD", "text", "kitchen station that prepared the line", ("GRILL", "WOK", "BAR", "COLD")),
))
BRANCHES = Table(name="branches", description="restaurant branches", columns=(
    _col("BR_CD", "text", "branch code", pk=True),
    _col("BR_NM", "text", "branch name", ("Quận 1", "Quận 3", "Thủ Đức")),
    _col("CITY", "text", "city"),
))
STAFF = Table(name="staff", description="staff members", columns=(
    _col("STF_ID", "text", "staff id", pk=True),
    _col("FULL_NM", "text", "staff member's full name"),
    _col("ROLE", "text", "role: cashier, waiter, cook", ("cashier", "waiter", "cook")),
    _col("BR_CD", "text", "home branch code"),
))
SCHEMA = Schema(name="pos_wide", tables=(POS_EXPORT, BRANCHES, STAFF), foreign_keys=(
    ForeignKey("pos_trx_exp", ("BR_CD",), "branches", ("BR_CD",)),
    ForeignKey("pos_trx_exp", ("CSH_ID",), "staff", ("STF_ID",)),
    ForeignKey("staff", ("BR_CD",), "branches", ("BR_CD",)),
))

# The restaurant's Vietnamese words for a few of the till's columns (as SmartRestaurant's glossary has them)
GLOSSARY = [
    {"term": "tiền boa", "lang": "vi", "meaning": "tips", "table": "pos_trx_exp", "column": "TIP_AMT"},
    {"term": "món bị hủy", "lang": "vi", "meaning": "voided lines", "table": "pos_trx_exp", "column": "VOID_FLG",
     "sql_hint": "VOID_FLG"},
    {"term": "mang về", "lang": "vi", "meaning": "takeaway", "table": "pos_trx_exp", "column": "ORD_TP", "value": "TA"},
]

# (question, gold columns as table.column): written for this test, in the manager's words
QUESTIONS = [
    ("Tổng tiền boa theo từng thu ngân tuần này", {"pos_trx_exp.TIP_AMT", "pos_trx_exp.CSH_ID", "pos_trx_exp.TRX_DT"}),
    ("Bao nhiêu món bị hủy theo từng lý do?", {"pos_trx_exp.VOID_FLG", "pos_trx_exp.VOID_RSN"}),
    ("Doanh thu thuần theo chi nhánh hôm qua", {"pos_trx_exp.NET_AMT", "pos_trx_exp.BR_CD", "pos_trx_exp.TRX_DT"}),
    ("Khách mang về đợi món trung bình bao nhiêu phút?", {"pos_trx_exp.WAIT_MIN", "pos_trx_exp.ORD_TP"}),
    ("Ca nào có nhiều khách nhất?", {"pos_trx_exp.SHFT", "pos_trx_exp.GST_CNT"}),
    ("Mã khuyến mãi nào giảm giá nhiều nhất?", {"pos_trx_exp.DISC_CD", "pos_trx_exp.DISC_AMT"}),
    ("Total tips by payment type", {"pos_trx_exp.TIP_AMT", "pos_trx_exp.PAY_TP"}),
    ("Which kitchen station is slowest from sent to done?",
     {"pos_trx_exp.STN_CD", "pos_trx_exp.KDS_SNT_TM", "pos_trx_exp.KDS_DN_TM"}),
    ("How much VAT did we collect on drinks this month?",
     {"pos_trx_exp.VAT_AMT", "pos_trx_exp.CAT_CD", "pos_trx_exp.TRX_DT"}),
    ("Quantity sold of each menu item at unit price above 100000",
     {"pos_trx_exp.QTY", "pos_trx_exp.ITM_NM", "pos_trx_exp.UPRC"}),
    ("Which card brand is used most?", {"pos_trx_exp.CARD_TP"}),
    ("Loyalty points earned per member", {"pos_trx_exp.MBR_PTS", "pos_trx_exp.CUST_ID"}),
]


@pytest.fixture(scope="module")
def wide_kb(settings: Settings, targets: Targets) -> KnowledgeBase:
    cfg = settings.model_copy(update={"kb_schema": "kb_wide_pos"})
    store = KnowledgeStore(targets.kb, cfg)
    build_kb(store, get_embedder(), SCHEMA, glossary=GLOSSARY)
    return KnowledgeBase(store, get_embedder(), SCHEMA.name)


def _recall(kb: KnowledgeBase, *, m: int, budget: int) -> tuple[float, float, float]:
    """(strict column recall, mean column recall, mean share of the full schema's tokens)."""
    strict = mean = tokens = 0.0
    for question, gold in QUESTIONS:
        ctx = kb.retrieve(question, k=3, m=m, budget=budget)
        got = {c.lower() for c in ctx.column_names}
        hit = sum(g.lower() in got for g in gold) / len(gold)
        strict += hit == 1.0
        mean += hit
        tokens += ctx.token_count / kb.catalog.full_token_count
    n = len(QUESTIONS)
    return strict / n, mean / n, tokens / n


def test_the_budget_finds_the_columns_of_a_wide_table(wide_kb: KnowledgeBase) -> None:
    defaults = Settings(llm=None)
    strict, mean, share = _recall(wide_kb, m=defaults.top_m_columns, budget=defaults.column_token_budget)
    fixed_strict, fixed_mean, _ = _recall(wide_kb, m=4, budget=0)
    assert mean >= fixed_mean and strict >= fixed_strict
    assert strict >= 0.7 and mean >= 0.85, (strict, mean)  # a fixed m = 4: 0.5 and 0.68; 0.83 and 0.93 measured
    assert share <= 0.7, share  # three tables, one of them wide: most of this small schema is that table


def test_narrow_tables_are_not_padded(wide_kb: KnowledgeBase) -> None:
    defaults = Settings(llm=None)
    ctx = wide_kb.retrieve("Full names of the cashiers at the Quận 1 branch", k=3, m=defaults.top_m_columns,
                           budget=defaults.column_token_budget)
    assert "staff.FULL_NM" in ctx.column_names and "branches.BR_NM" in ctx.column_names
    assert len(ctx.column_names) < sum(len(t.columns) for t in SCHEMA.tables)

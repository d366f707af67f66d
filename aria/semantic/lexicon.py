"""The words the semantic parser knows: metric and dimension labels and synonyms from the semantic
model, values from the data (dish names, categories, staff ...), and a small fixed vocabulary of
time phrases, grains, ranking words and function words in Vietnamese and English.

Everything is matched on normalized text (lower case, no diacritics: ``aria.text.normalize``); a
question typed with diacritics must also carry a phrase's own marks where it marks a word ("lâu", long,
is not "lẩu", hotpot; "bán", sell, is not "bàn", table), while a word typed bare matches any marks.
"""

from __future__ import annotations

import logging
import re
import string
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from aria.semantic.catalog import DimensionInfo, SemanticCatalog
from aria.text import normalize, stem, strip_diacritics

log = logging.getLogger(__name__)
ValuesOf = Callable[[str, str], Sequence[str]]  # (table, column) -> distinct values
Learned = tuple[str, str, str]  # (phrase, kind metric|concept|value, target) taught by a manager
LEARNABLE_KINDS = ("metric", "concept", "value")

# Group-by words that set a grain of metric_time.
GRAINS: dict[str, str] = {
    "theo ngay": "metric_time__day", "day by day": "metric_time__day", "ngay theo ngay": "metric_time__day", "moi ngay": "metric_time__day", "tung ngay": "metric_time__day",
    "hang ngay": "metric_time__day", "mot ngay": "metric_time__day", "ngay nao": "metric_time__day", "daily": "metric_time__day",
    "by day": "metric_time__day", "per day": "metric_time__day", "each day": "metric_time__day",
    "each night": "metric_time__day", "every night": "metric_time__day", "night by night": "metric_time__day",
    "which day": "metric_time__day", "what day": "metric_time__day", "hom nao": "metric_time__day", "by date": "metric_time__day",
    "theo tuan": "metric_time__week", "moi tuan": "metric_time__week", "tung tuan": "metric_time__week",
    "hang tuan": "metric_time__week", "tuan nao": "metric_time__week", "weekly": "metric_time__week",
    "by week": "metric_time__week", "per week": "metric_time__week", "each week": "metric_time__week",
    "which week": "metric_time__week", "week by week": "metric_time__week", "tuan theo tuan": "metric_time__week",
    "month by month": "metric_time__month", "thang theo thang": "metric_time__month",
    "theo thang": "metric_time__month", "moi thang": "metric_time__month", "tung thang": "metric_time__month",
    "hang thang": "metric_time__month", "thang nao": "metric_time__month", "monthly": "metric_time__month",
    "by month": "metric_time__month", "per month": "metric_time__month", "each month": "metric_time__month",
    "which month": "metric_time__month",
    **dict.fromkeys(("theo tung quy", "tung quy", "moi quy", "quy nao", "by quarter", "per quarter", "each quarter",
                     "which quarter", "quarterly", "quarter by quarter"), "metric_time__quarter"),  # (never "theo quy":
    # "theo quy mô nhóm" is by party size)
    "theo gio": "metric_time__extract_hour", "tung gio": "metric_time__extract_hour",
    "moi gio": "metric_time__extract_hour", "moi tieng": "metric_time__extract_hour",
    "tung tieng": "metric_time__extract_hour", "theo tieng": "metric_time__extract_hour", "khung gio": "metric_time__extract_hour",
    "gio nao": "metric_time__extract_hour", "gio nao trong ngay": "metric_time__extract_hour",
    "khung gio nao trong ngay": "metric_time__extract_hour",
    "theo gio trong ngay": "metric_time__extract_hour", "by hour": "metric_time__extract_hour",
    "each hour": "metric_time__extract_hour", "every hour": "metric_time__extract_hour",
    "across the hours": "metric_time__extract_hour", "spread across the hours": "metric_time__extract_hour",
    "per hour": "metric_time__extract_hour", "hourly": "metric_time__extract_hour",
    "by hour of the day": "metric_time__extract_hour", "hour of the day": "metric_time__extract_hour",
    "hours of the day": "metric_time__extract_hour", "which hour": "metric_time__extract_hour",
    "what hour": "metric_time__extract_hour", "which hours": "metric_time__extract_hour",
    "what time of day": "metric_time__extract_hour", "hour by hour": "metric_time__extract_hour",
    "may gio": "metric_time__extract_hour", "gio theo gio": "metric_time__extract_hour",
    "theo thu": "metric_time__extract_dow", "thu nao": "metric_time__extract_dow",
    "thu trong tuan": "metric_time__extract_dow", "theo thu trong tuan": "metric_time__extract_dow",
    "ngay trong tuan": "metric_time__extract_dow", "ngay nao trong tuan": "metric_time__extract_dow",
    "by day of the week": "metric_time__extract_dow",
    "day of the week": "metric_time__extract_dow", "by weekday": "metric_time__extract_dow",
    "which weekday": "metric_time__extract_dow", "which day of the week": "metric_time__extract_dow",
    "thu may": "metric_time__extract_dow", "thu may trong tuan": "metric_time__extract_dow",
}
# Words that ask for a split by the dimension named next to them.
GROUP_MARKERS = ("theo tung", "theo moi", "theo", "tung", "moi", "cho tung", "cho moi", "chia theo", "phan theo",
                 "by", "per", "each", "for each", "every", "broken down by", "split by", "for every", "across")
WHICH_WORDS = ("nao", "which", "what", "gi")
SINGLE_MARKERS = ("theo", "tung", "moi", "by", "per", "each")
_MARKER_SPELLINGS = {"tung": "từng", "moi": "mỗi"}  # how the Vietnamese ones are written with their marks
# Superlatives: True = largest first.
# "peak hour", "giờ cao điểm": the busiest hour, ranked as "busiest" is
PEAK_WORDS = ("peak", "the peak", "cao diem", "cao diem nhat")
SUPERLATIVES: dict[str, bool] = {
    "it ngay nhat": False,  # "còn dùng được ít ngày nhất": the fewest days
    "cao nhat": True, "nhieu nhat": True, "lon nhat": True, "to nhat": True, "lau nhat": True, "cham nhat": True,
    "ra cham nhat": True, "ra mon cham nhat": True, "nau cham nhat": True, "lam cham nhat": True,
    "ra lau nhat": True, "ra mon lau nhat": True, "nau lau nhat": True,
    "priciest": True, "most expensive": True, "cheapest": False, "least expensive": False,
    "chay nhat": True, "ban dat nhat": True, "ban dat hang nhat": True, "dat hang nhat": True, "dong nhat": True, "khach dong nhat": True, "dong khach nhat": True, "dat nhat": True, "tot nhat": True, "nhat": True,
    "most busy": True, "the most busy": True, **dict.fromkeys(PEAK_WORDS, True),
    "best performing": True, "top performing": True, "highest performing": True, "worst performing": False,
    "lowest performing": False, "weakest performing": False,
    "thap nhat": False, "it nhat": False, "nho nhat": False, "nhanh nhat": False, "e nhat": False, "te nhat": False,
    "re nhat": False, "kem nhat": False, "vang nhat": False,
    "most": True, "highest": True, "largest": True, "biggest": True, "longest": True, "slowest": True, "furthest": True, "farthest": True,
    "busiest": True, "best": True, "top": True, "greatest": True, "most popular": True, "most ordered": True, "least ordered": False, "the most": True,
    "the least popular": False, "the most popular": True, "customers like most": True, "customer like most": True,
    "guests like most": True, "most liked": True, "khach thich nhat": True, "thich nhat": True,
    "duoc yeu thich nhat": True, "yeu thich nhat": True,
    "number one": True,
    "least": False, "lowest": False, "thinnest": False, "slimmest": False, "mong nhat": False, "smallest": False, "fewest": False, "shortest": False, "fastest": False,
    "quietest": False, "worst": False, "weakest": False, "bottom": False, "worst selling": False, "least sold": False,
    "barely selling": False, "barely sold": False, "hardly selling": False,
    "vang khach nhat": False, "will run out first": False, "run out first": False, "will run out soonest": False,
    "run out soonest": False, "the least": False, "slowest selling": False, "least popular": False,
    "most common": True, "the most common": True, "most often": True, "most frequent": True, "pho bien nhat": True,
    "thuong gap nhat": True, "thuong xuyen nhat": True, "nhieu lan nhat": True,
}
# "Rank the hotpots", "xếp hạng các món": every row, highest first; beside another order said, that order.
RANK_WORDS = ("rank", "ranked", "xep hang", "sorted by", "sort by", "sap xep")  # "gross margin by category, sorted by
# margin": every row, in order
# An order without a cut: "server sales tonight, best first", "sắp xếp từ cao xuống thấp" list every row.
SORT_WORDS: dict[str, bool] = {
    "best first": True, "highest first": True, "biggest first": True, "largest first": True, "most first": True,
    "top first": True, "highest to lowest": True, "descending": True, "tu cao den thap": True,
    "tu cao xuong thap": True, "giam dan": True, "tu nhieu den it": True, "tu nhieu xuong it": True,
    "worst first": False, "lowest first": False, "smallest first": False, "least first": False,
    "lowest to highest": False, "ascending": False, "tu thap den cao": False, "tu thap len cao": False,
    "tang dan": False, "tu it den nhieu": False,
    "cao xuong thap": True, "tu cao xuong": True, "nhieu den it": True, "high to low": True, "tu dat den re": True,
    "thap len cao": False, "it den nhieu": False, "low to high": False, "tu re den dat": False,
    "most used first": True, "highest value first": True, "biggest value first": True,
    # "xếp từ đông nhất", "từ cao nhất": every row, from that end
    **{f"tu {most} nhat": descending for most, descending in (
        ("dong", True), ("cao", True), ("nhieu", True), ("lon", True), ("thap", False), ("it", False),
        ("vang", False), ("nho", False))},
    # "bếp chậm nhất lên đầu", "bàn nhiều nhất lên trên": that one on top, every row below it
    **{f"{most} nhat len {top}": descending for most, descending in (
        ("nhieu", True), ("cao", True), ("lon", True), ("cham", True), ("lau", True), ("it", False),
        ("thap", False), ("nhanh", False)) for top in ("dau", "tren")},
    **dict.fromkeys(RANK_WORDS, True),
    "slowest first": True, "slowest on top": True, "longest first": True, "longest on top": True, "busiest first": True,
    "highest on top": True, "biggest on top": True, "most on top": True, "best on top": True, "fastest first": False,
    "fastest on top": False, "quietest first": False, "lowest on top": False, "worst on top": False,
    # "members vs walk-ins, which is higher": both, the higher first
    "ben nao cao hon": True, "ben nao nhieu hon": True, "ben nao lon hon": True, "cai nao cao hon": True,
    "which is higher": True, "which one is higher": True, "which was higher": True, "which is bigger": True,
    "which was bigger": True, "ben nao thap hon": False, "ben nao it hon": False, "which is lower": False,
    "which was lower": False,
}
SUPERLATIVES.update(SORT_WORDS)
# A ranking by the change between two periods: True = the biggest rise first ("which category grew the most this month
# compared with the same days last month"), False = the biggest fall first. ("Giảm nhiều nhất" is left out: a
# promotion's discount is "giảm" too.)
GROWTH_WORDS: dict[str, bool] = {
    "grew the most": True, "grown the most": True, "grew most": True, "increased the most": True, "rose the most": True,
    "biggest increase": True, "largest increase": True, "biggest growth": True, "fastest growing": True,
    "tang manh nhat": True, "tang nhieu nhat": True, "tang truong manh nhat": True, "tang truong nhieu nhat": True,
    "dropped the most": False, "fell the most": False, "declined the most": False, "decreased the most": False,
    "biggest drop": False, "largest drop": False, "biggest decline": False, "giam manh nhat": False,
    "sut giam manh nhat": False, "sut giam nhieu nhat": False, "lost the most": False, "gained the most": True,
    "tut nhieu nhat": False, "tut manh nhat": False, "grew the fastest": True,
    "biggest fall": False, "biggest gain": True, "biggest gains": True, "biggest drops": False,
    # selling less, said of what sells (never a promotion's "giảm"): "món nào bán giảm nhiều nhất so với tuần trước"
    "ban giam nhieu nhat": False, "ban giam manh nhat": False, "ban cham di nhieu nhat": False,
    "ban it di nhieu nhat": False, "ban tang nhieu nhat": True, "ban tang manh nhat": True}
SUPERLATIVES.update(GROWTH_WORDS)
# Superlatives that say what is ranked when no metric is named: "món nào chạy nhất" sells the most portions.
SUPERLATIVE_METRICS = {**dict.fromkeys(GROWTH_WORDS, "revenue"),
                       **{w: "portions_sold" for w in GROWTH_WORDS if w.startswith("ban ")}, "most frequent": "completed_orders", "thuong xuyen nhat": "completed_orders",
                       "dat nhat": "menu_price", "re nhat": "menu_price", "priciest": "menu_price",
                       "most expensive": "menu_price", "cheapest": "menu_price", "least expensive": "menu_price",
                       "dong nhat": "guests", "dong khach nhat": "guests", "khach dong nhat": "guests",
                       **dict.fromkeys(PEAK_WORDS[2:], "completed_orders"),  # "giờ cao điểm": as busiest (the
                       # English "peak" names no metric: ranked as a time, by the number of orders too)
                       "vang nhat": "guests", "vang khach nhat": "guests", "will run out first": "days_of_stock_left",
                       "run out first": "days_of_stock_left", "will run out soonest": "days_of_stock_left",
                       "run out soonest": "days_of_stock_left",
                       "chay nhat": "portions_sold", "ban dat nhat": "revenue", "ban dat hang nhat": "revenue",
                       "dat hang nhat": "revenue", "e nhat": "portions_sold", "worst selling": "portions_sold",
                       "least sold": "portions_sold", "slowest selling": "portions_sold",
                       "most popular": "portions_sold", "the most popular": "portions_sold",
                       "most ordered": "portions_sold", "least ordered": "portions_sold",
                       "customers like most": "portions_sold", "customer like most": "portions_sold",
                       "guests like most": "portions_sold", "most liked": "portions_sold",
                       "khach thich nhat": "portions_sold", "thich nhat": "portions_sold",
                       "duoc yeu thich nhat": "portions_sold", "yeu thich nhat": "portions_sold",
                       "least popular": "portions_sold", "the least popular": "portions_sold",
                       "ra cham nhat": "avg_prep_time", "ra mon cham nhat": "avg_prep_time",  # out of the kitchen
                       "nau cham nhat": "avg_prep_time", "lam cham nhat": "avg_prep_time",
                       "ra lau nhat": "avg_prep_time", "ra mon lau nhat": "avg_prep_time", "nau lau nhat": "avg_prep_time"}
# "How did the hotpot do this month", "Lẩu Thái tháng này thế nào": a value asked how it did, with no figure named,
# is asked what ranks it (a dish, a category: portions sold, sales) or its revenue ("how did the terrace do").
HOW_IT_DID = (("how", "did"), ("how", "is"), ("how", "are"), ("how", "s"), ("how", "has"), ("how", "have"),
              ("how", "was"), ("how", "were"), ("ra", "sao"), ("the", "nao"), ("thi", "sao"), ("performing",),
              ("performed",), ("performance",), ("perform",))
# "Slowest" is the longest of a duration, and the least of anything else ("the slowest day for revenue").
SLOW_WORDS = ("slowest", "cham nhat")
FAST_WORDS = ("fastest", "quickest", "nhanh nhat")  # "bếp nào nhanh nhất": the shortest cooking time
HOW_OFTEN_WORDS = ("most often", "nhieu lan nhat", "thuong xuyen nhat", "most times", "the most times")
# "average" and "trung bình" are accounted for when a metric that is an average is asked.
AVERAGE_WORDS = ("average", "avg", "mean", "on average", "averaged", "usually", "trung binh", "binh quan")
# Number words for "the three best-selling drinks" ("one" is left out: "which one").
NUMBER_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
                "twelve": 12, "fifteen": 15, "twenty": 20}
# Vietnamese counts before the rows they count ("ba món lẩu", "năm nguyên liệu"): a number only there ("năm"
# alone is a year, "sau" after); each with its marks, which a question typed with marks must carry.
VI_NUMBER_WORDS = {"hai": ("hai", 2), "ba": ("ba", 3), "bon": ("bốn", 4), "nam": ("năm", 5), "sau": ("sáu", 6),
                   "bay": ("bảy", 7), "tam": ("tám", 8), "chin": ("chín", 9), "muoi": ("mười", 10)}
VI_COUNTED = frozenset(["mon", "ban", "nhan", "nguyen", "khach", "nha", "bep", "danh", "ma", "loai", "do", "nuoc",
                        "khu", "ly", "phuc", "dau", "thu"])
# Vietnamese verbs, units and fillers typed with marks are only these spellings: "dùng" (to use) is not "đúng" (on
# time), "trả" (to pay) not "trà" (tea), "mất" not "mặt" (cash), "ghé" not "ghế" (a chair), "gọi" not "gói", "kiếm" (to
# earn) not "kiểm" (to check), "chạy" (selling well) not "chay" (vegetarian), "tô" (a bowl) not "to" (big); typed
# bare, a question's word is any of them. (Fillers are written with their marks where they are listed.)
SPELLINGS: dict[str, tuple[str | None, ...]] = {
    "dung": ("dùng", "đứng"), "su dung": ("sử dụng",), "tra": ("trả",), "tra tien": ("trả tiền",), "khach tra": ("khách trả",),
    "mat": ("mất",), "ghe": ("ghé",), "ghe an": ("ghé ăn",), "goi": ("gọi",), "ton": ("tồn", "tốn"), "kiem": ("kiếm",),
    "kiem duoc": ("kiếm được",), "chot": ("chốt",), "chot duoc": ("chốt được",), "lam": ("làm",), "lam viec": ("làm việc",), "nau": ("nấu",), "nhap": ("nhập",),
    "ban duoc": ("bán được",), "ban ra": ("bán ra",), "het": ("hết",), "ngoi": ("ngồi",), "chay": ("chạy",),
    "to": ("tô",), "noi": ("nồi",), "lan": ("lần",), "luot": ("lượt",), "chay duoc": ("chạy được",), "chi tieu": ("chi tiêu",),  # not "chỉ tiêu" (a target)
    "dong": ("đồng",), "ap": ("áp",), "mang ve": ("mang về",)}  # the currency, never "đông" (crowded)
# Verbs that go with a metric ("how much tax did we collect"): accounted for only beside a metric.
# A verb that names a metric by itself ("how many X did we sell") gives that metric when none is named.
VERBS: dict[str, str | None] = {
    "sell": "portions_sold", "sold": "portions_sold", "selling": "portions_sold", "ban duoc": "portions_sold",
    "ban ra": "portions_sold", "collect": None, "collected": None, "make": "revenue", "made": "revenue",
    "earn": "revenue", "earned": "revenue", "take": "revenue", "took": "revenue", "taken": "revenue", "taken in": "revenue", "bring in": "revenue",
    "brought in": "revenue", "generate": "revenue", "generated": "revenue", "generates": "revenue", "pull in": "revenue", "pulled in": "revenue", "pulls in": "revenue", "take in": "revenue", "took in": "revenue", "thu": "revenue",
    "thu duoc": "revenue", "thu ve": "revenue", "mang ve": None, "kiem duoc": "revenue", "kiem": "revenue", "serve": None, "served": None, "phuc vu": None,
    "spend": None, "spent": None, "pay": "payment_amount", "paid": "payment_amount",
    "tra": "payment_amount", "tra tien": "payment_amount", "khach tra": "payment_amount", "khach thanh toan": "payment_amount", "thanh toan": "payment_amount", "give": None, "gave": None, "had": None, "charge": None, "charged": None,
    "work": None, "worked": None, "issue": None, "issued": None, "ra": None, "goi": "portions_sold", "ngoi": None, "sit": None, "sat": None, "sitting": None, "order": None,
    "ordered": None, "people ordered": None, "people have ordered": None, "people order": None, "ghe": None, "mang lai": "revenue", "dem lai": "revenue", "keo ve": "revenue", "came in": "revenue", "come in": "revenue",
    "lam": None, "lam viec": None, "receive": None, "received": None, "nhan duoc": None, "fire": None, "fired": None, "cost": None,
    "handle": None, "handled": None, "looking after": None, "using": None, "ate": None, "ate with us": None,
    "eaten with us": None, "eat with us": None, "dined with us": None, "process": None, "processed": None, "sent out": None, "send out": None,
    "went out": "portions_sold", "we seat": None, "did we seat": None, "that seat": None, "that seats": None, "pour": "portions_sold", "poured": "portions_sold", "pours": "portions_sold", "use": None, "used": None, "dung": None, "su dung": None, "het": None, "mat": None,
    "ton": None, "prepare": None, "prepared": None, "cook": None, "cooked": None, "ring up": None,
    "rang up": None, "bring": None, "brought": None, "done": None, "voided": "voided_lines",
    "was voided": "voided_lines", "were voided": "voided_lines", "got voided": "voided_lines",
    "have been voided": "voided_lines", "has been voided": "voided_lines", "bi void": "voided_lines",
    "clocked": None, "clock": None, "logged": None, "log": None, "opened": None, "placed": None, "holding": None, "picked up": None, "pick up": None, "coming in": None,
    "den an": None, "toi an": None, "ghe an": None, "da den an": None, "da toi an": None, "came": None, "showed up": None,
    "show up": None, "gone": None, "went": None, "give away": "discounts", "gave away": "discounts", "given away": "discounts", "gave out": None, "give out": None, "given out": None, "gets booked": "reservations", "get booked": "reservations", "got booked": "reservations", "booked with us": "reservations", "book with us": "reservations", "books with us": "reservations", "given": None, "chi": "revenue", "chi tieu": "revenue", "nau": None, "nhap": "supplier_spend",
    "take the kitchen": None, "takes the kitchen": None, "took the kitchen": None, "bep lam": None,
    "bep ra duoc": "portions_sold", "bep ra": None, "ra mon": None, "look after": None, "looked after": None, "go": None, "tiep": None, "tiep khach": None, "dem ve": None,
    "xai": None, "xai het": "revenue", "tieu": "revenue", "tieu het": "revenue", "chay": "portions_sold",
    "chay duoc": None,  # "chạy được mấy bill": bills that went through, the metric its noun names
    "thrown out": "qty_wasted", "threw out": "qty_wasted", "thrown away": "qty_wasted", "threw away": "qty_wasted",
    "throw away": "qty_wasted", "throw out": "qty_wasted",
    "handed out": None, "ate up": None, "eat up": None, "eats up": None, "eaten up": None,
    "hand out": None, "di lam": None, "close": None, "closed": None, "bi tra lai": "voided_lines",
    "duoc mo": None,  # "đơn được mở sau 22h": opened
    "pha duoc": "portions_sold",  # "quầy bar pha được bao nhiêu ly": the drinks made
    "bi khach tra lai": "voided_lines", "sent back": "voided_lines", "got sent back": "voided_lines",
    "tra qua": "payment_amount", "khach tra qua": "payment_amount", "thanh toan qua": "payment_amount",
    "thu qua": "payment_amount", "thu tien qua": "payment_amount",  # "thu qua momo": what was paid by it
    "khach thanh toan qua": "payment_amount", "gone out": "portions_sold", "get out": None, "got out": None, "put in": None, "nop": None, "phai nop": None, "dung het": "qty_used", "bep dung": "qty_used",
    "giam": "discounts",  # "mã nào giảm nhiều tiền nhất", "KM giảm hết bao nhiêu"
    "owe": None, "took home": None, "take home": None, "takes home": None, "feed": None, "fed": None, "came up": None,
    "come up": None, "coming up": None, "push out": None, "pushed out": None,  # what a station got out
    "racked up": None, "rack up": None, "racking up": None, "supply": None, "supplies": None, "supplied": None,
    "ran": None,  # "which dishes ran furthest over their standard time"
    "chot": None, "chot duoc": None,  # "bạn nào chốt được nhiều bill nhất": the bills closed, the metric its noun names
    "ap": None,  # "khách hay áp mã": applied
}
# Money that "came in" by a payment method is what was paid, not revenue (revenue has no payment method).
VERB_ALTERNATIVES: dict[str, tuple[str, ...]] = {"revenue": ("payment_amount",)}
# A unit with nothing else to name the metric: "bếp nào ra nhiều phần nhất" counts portions sold.
# A unit word that names its own metric: "khung giờ nào nhiều đơn nhất" counts orders.
UNIT_WORD_METRICS: dict[str, str] = {"don": "completed_orders", "phieu": "tickets"}
UNIT_METRICS: dict[str, str] = {"portions": "portions_sold", "people": "guests", "hours": "hours_worked",
                                "vnd": "revenue"}
# Unit words ("bao nhiêu phút", "in VND") are accounted for when a metric of that unit is asked.
UNITS: dict[str, str] = {
    "phut": "minutes", "minute": "minutes", "min": "minutes", "vnd": "vnd", "dong": "vnd", "vnd dong": "vnd",
    "tien": "vnd", "bao nhieu tien": "vnd", "trieu": "vnd", "bao nhieu trieu": "vnd", "phan": "portions", "portion": "portions", "ly": "portions", "coc": "portions", "to": "portions",
    "noi": "portions", "dia": "portions", "chai": "portions", "cup": "portions", "bowl": "portions", "suat": "portions",
    "lon": "portions", "chen": "portions",  # "bao nhiêu chén" (a bowl)
    "plate": "portions", "glass": "portions", "bottle": "portions", "pot": "portions", "serving": "portions", "phan tram": "percent",
    "percent": "percent", "percentage": "percent", "tri gia": "vnd", "gia tri": "vnd", "theo gia tri": "vnd", "theo tri gia": "vnd", "value": "vnd", "by value": "vnd", "by cost": "vnd",
    "worth": "vnd", "what did it cost": "vnd", "what did it cost us": "vnd", "what did they cost": "vnd", "what did they cost us": "vnd", "what did that cost": "vnd", "what did that cost us": "vnd", "by quantity": "portions", "theo so luong": "portions", "gio": "hours", "tieng": "hours", "hour": "hours", "nguoi": "people",
    "khach": "people", "people": "people", "luot": "count", "lan": "count", "how many time": "count", "don": "count",
    "phieu": "count", "may cai": "count", "bao nhieu cai": "count",
    "money": "vnd", "in money terms": "vnd", "in terms of money": "vnd", "amount": "vnd", "quy ra tien": "vnd", "bao lau": "minutes", "how long": "minutes", "count": "count",
    "number": "count",
    "bao nhieu phut": "minutes", "may phut": "minutes",
}
# List words: "ca trưa và ca tối", "cash or card".
CONJUNCTIONS = ("va", "and", "hoac", "or", "cung", "voi", "vs", "versus", "with", "cung voi", "plus", "along with")
# Words that set two periods side by side; accounted for only when the question names two periods.
COMPARE_WORDS = ("so sanh", "so voi", "so", "compare", "compared", "compared to", "compared with", "comparison",
                 "against", "doi chieu", "hon", "week over week", "month over month", "day over day", "week on week",
                 "month on month", "day on day", "stack up against",
                 "stacks up against", "stacked up against", "measure up against", "next to", "up against",
                 "and what about", "what about", "how about",
                 "cao hon", "thap hon", "nhieu hon", "it hon", "tot hon", "kem hon", "te hon", "cham hon", "nhanh hon", "lau hon", "hon hay kem", "nhieu tien hon", "it tien hon", "higher than", "lower than",
                 "better than", "worse than", "busier than", "quieter than",  # "tháng này có cao hơn tháng trước không"
                 "higher", "lower", "busier", "quieter", "bigger", "smaller", "more", "fewer")  # "is the average bill higher at lunch or
# at dinner": the two values side by side
# A concept said bare as the subject means all of it, not a split: "bếp còn bao nhiêu phiếu" (the kitchen),
# "nhân viên được khách bo bao nhiêu" (the staff), "khách ngồi trung bình bao lâu" (the guests).
COLLECTIVE_WORDS = frozenset(["bep", "mon", "khach", "nhan vien", "kitchen", "the kitchen", "staff", "the staff", "guests",
                              "the guests", "server", "the server", "all server", "nhan vien phuc vu",
                              "nha cung cap", "nguyen lieu", "promo code", "the promo code", "khuyen mai"])  # "tiền nhập hàng từ nhà cung cấp": from them all
# A change said by its direction alone ("có tăng không", "tụt bao nhiêu", "went up"): ranked, a rise or a fall
RISE_WORDS = ("tang", "went up", "gone up", "go up", "goes up")
FALL_WORDS = ("tut", "went down", "gone down", "go down", "goes down", "dropped", "fell")
# In a comparison of two periods: also show the change ("percent change", "tăng bao nhiêu phần trăm").
CHANGE_WORDS = ("change", "percent change", "percentage change", "the change", "the percent change", "% change",
                "thay doi", "phan tram thay doi", "percent thay doi", "ti le thay doi", "tang giam", "tang hay giam", "tang bao nhieu phan tram", "giam bao nhieu phan tram",
                "chenh lech bao nhieu phan tram", "growth", "how much it grew", "up or down", "by how much", "changed", "moved", "as a percentage change",
                "as a percent change", "as a change in percent", "tang hay giam bao nhieu phan tram",
                "tang giam bao nhieu phan tram", "tang giam may phan tram", "tang hay giam may phan tram",
                "tang hay giam bao nhieu percent", "tang giam bao nhieu percent", "tang giam may percent", "tang hay giam may percent",
                "tang bao nhieu percent", "giam bao nhieu percent", "tang may percent", "giam may percent",
                "tang may phan tram", "giam may phan tram", "going up", "going down", "going up or down", "trending up",
                "trending down", "dang tang hay giam", "co dang tang khong", "co tang khong", "co giam khong",
                "chenh lech", "chenh nhau", "chenh", "lech nhau", "khac nhau", "the difference", "difference",
                "tang bao nhieu", "tang hay giam bao nhieu", "tang giam bao nhieu",
                *RISE_WORDS, *FALL_WORDS, "tang truong", "tut hay tang",
                "tang hay tut")  # never "giảm" alone: a discount (nor "down": "break it down by day")
# "counting the items that sold nothing": what the bottom of a ranking of dishes does anyway.
WITH_EMPTY_WORDS = ("including any that didn t sell", "including those that didn t sell", "including any that sold nothing",
                    "including those that sold nothing", "counting items that sold nothing",
                    "counting dishes that sold nothing", "including dishes that sold nothing",
                    "including dishes with no sales", "including dishes that didn t sell", "even those that sold nothing",
                    "counting those that sold nothing", "including items with no sales", "including zero sellers",
                    "ke ca mon khong ban duoc", "ke ca nhung mon khong ban duoc", "ke ca mon chua ban duoc",
                    "ke ca mon khong ban duoc phan nao", "tinh ca mon khong ban duoc",
                    *(f"{including} {dish} {never} {sold}{unit}" for including in ("tinh ca", "ke ca")
                      for dish in ("mon", "nhung mon", "do uong", "mon nuoc") for never in ("chua", "khong")
                      for sold in ("ban duoc", "ban") for unit in ("", " ly nao", " phan nao", " dia nao", " nao")))
# "Among the dishes that sold", "trong số món có bán": the bottom of a ranking of dishes leaves out those with none.
WITHOUT_EMPTY_WORDS = ("among those that sold", "among the ones that sold", "among dishes that sold",
                       "among the dishes that sold", "of the dishes that sold", "of those that sold",
                       "that sold at least one", "that sold at least once", "trong so mon co ban",
                       "trong so cac mon co ban", "trong so nhung mon co ban", "chi tinh mon co ban",
                       "trong so mon da ban", "trong so mon ban duoc", "trong so cac mon ban duoc")
# A list of single rows ("list every delivery order"): metrics give totals and splits, so the question is handed on.
LISTING_WORDS = ("list every", "list all", "list each", "every single", "liet ke", "liet ke tat ca", "liet ke tung",
                 "danh sach", "danh sach cac", "danh sach nhung",
                 "all the orders", "each order", "every order", "tung don", "tat ca cac don", "nhung gi")
# A condition on a count ("at least one order", "more than once"): not a metric or a split; handed on.
CONDITION_WORDS = ("at least", "at most", "more than", "less than", "fewer than", "it nhat mot", "it nhat 1",
                   "it nhat hai", "it nhat 2", "it nhat ba", "it nhat 3", "toi thieu", "toi da")
# Verbs that name a metric only when none is named: "how many deliveries did each supplier make".
WEAK_VERBS = ("make", "made", "take", "took", "taken", "taken in", "take in", "nhap", "chay",  # "chạy nhiều bill nhất": bills
              "ban",  # "bán bao nhiêu đơn mang về": the orders
              "went out", "gone out")  # "how much Heineken went out": sold; "how many tickets went out": the tickets
# "the same days of last week", "cùng kỳ tháng trước": the first period moved back by the second's unit.
# "last week compared with the week before": the first period moved back by this unit.
PERIOD_BEFORE_WORDS = {"the week before": "week", "the month before": "month", "the day before": "day",
                       "week before": "week", "month before": "month",  # "last wk vs wk before"
                       "the night before": "day", "the evening before": "day",
                       "the year before": "year", "the previous week": "week", "the previous month": "month",
                       "the previous day": "day", "the previous year": "year", "the prior week": "week",
                       "the prior month": "month", "the prior year": "year",
                       "the weekend before": "week", "weekend before": "week",  # "last weekend vs the weekend before"
                       "the 7 days before": "week", "the previous 7 days": "week", "the prior 7 days": "week",
                       "previous 7 days": "week", "prior 7 days": "week",  # "last 7 days vs previous 7 days"
                       "the seven days before": "week", "the 7 before": "week",  # "the last 7 days vs the 7 days before"
                       "tuan truoc do": "week", "thang truoc do": "month", "ngay truoc do": "day",
                       "hom truoc do": "day", "cuoi tuan truoc do": "week", "7 ngay truoc do": "week",
                       "7 ngay lien truoc": "week", "7 ngay truoc nua": "week", "7 ngay truoc": "week",  # "7 ngày
                       # qua vs 7 ngày trước (đó)"
                       **{f"the {day} before": "week" for day in ("monday", "tuesday", "wednesday", "thursday", "friday",
                                                                  "saturday", "sunday")}}  # "the Friday before it"
SAME_PERIOD_WORDS = ("cung ky", "cung thoi diem", "cung thoi gian", "cung khoang thoi gian", "cung so ngay",
                     "cung may ngay", "cung nhung ngay", "cung ngay", "cung thu",
                     "the same period", "same period", "the same days of", "the same days", "same days of",
                     "same days", "the same dates of", "the same dates", "same dates of", "same dates", "the same time", "same time", "the same day", "same day", "the same point in",
                     "same point in", "the same point", "same point", "cung gio", "cung gio nay", "cung luc nay",
                     "this same time", "at this same time", "at the same time", "at this time", "this same point",
                     "at this same point", "at the same point", "same point of", "the same week", "same week",
                     "the same month", "same month", "the same quarter", "same quarter")
# Words that ask for each row's share of the total ("tỷ trọng doanh thu theo danh mục"). Plain "percent" is a
# unit (a rate in percent), not a share.
SHARE_WORDS = ("share", "share of", "what share of", "the share of", "split between", "ty trong", "chiem", "chiem bao nhieu",
               "chiem bao nhieu phan tram", "chiem ty trong", "chiem ti le", "chiem ti le bao nhieu", "chiem phan tram", "co cau", "proportion",
               "what proportion of", "percentage of", "what percentage of", "percent of", "what percent of",
               "contribution", "contribute", "contributed", "dong gop", "share of total", "phan tram tong",
               "came from", "come from", "comes from", "of the total", "cua tong", "tren tong", "as a share of",
               "as a share", "as a percentage of", "as a percent of", "mix", "fraction of", "what fraction of")
# A state at this moment ("bàn 3 đang đợi món gì", "which tables are occupied right now"): answered only by a
# metric of what is (stock, tickets waiting, open orders, members), never by one counted over all time.
LIVE_WORDS = ("đang", "còn", "giờ có", "bây giờ có", "bây giờ đang", "giờ này có", "giờ này đang", "giờ đang có",
              "bây giờ đang có", "still", "right now", "currently", "at the moment", "at present", "luc nay", "hien gio", "hien nay",
              "hiện có", "hien co", "current", "hien tai", "hiện tại", "at this moment", "this moment", "ngay lúc này",
              "ngay bây giờ")
# "Combo bán được bao nhiêu phần, từng loại": each kind of what the value names (each combo), never dropped.
EACH_KIND_WORDS = ("moi loai", "tung loai", "theo tung loai", "each one", "each of them", "each kind", "each type",
                   "of each kind", "of each type")
# "Doanh thu không tính đồ uống", "best seller except the hotpots": the value after them is left out (NOT IN).
# Vietnamese ones are spelled with their marks: "trừ" (except), never "trụ" or "trú".
EXCLUDE_WORDS = ("không tính", "không kể", "không bao gồm", "trừ", "ngoại trừ", "loại trừ", "trừ đi", "except",
                 "excluding", "exclude", "not counting", "not including", "other than", "apart from", "but not",
                 "leaving out", "leave out", "minus the", "ngoài", "không phải", "not count", "not include",
                 "no include", "do not count", "don t count", "nếu bỏ qua", "bỏ qua", "without", "ignoring", "besides",
                 "aside from", "if you leave out", "if we leave out", "if you exclude", "if we exclude", "nếu không tính",
                 "nếu trừ")
# "Which ingredients are below their reorder level", "nguyên liệu nào sắp hết": the rows below the level the metric
# is kept above (its meta ``low_below``), lowest first.
BELOW_WORDS = ("under their reorder point", "under the reorder point", "under reorder point", "below their reorder point", "below reorder level", "below the reorder level", "below their reorder level", "below its reorder level",
               "under reorder level", "under the reorder level", "under their reorder level", "below reorder point",
               "below the reorder point", "below minimum stock", "low on stock", "running low", "run low", "low stock",
               "need reordering", "needs reordering", "need to reorder", "low on", "running low on", "below par", "below par level",
               "under par", "under par level", "need to be reordered", "needs to be reordered",
               "dưới mức đặt hàng lại", "dưới mức đặt lại", "dưới mức đặt hàng", "dưới mức cần đặt hàng lại", "dưới mức cần đặt lại",
               "dưới mức cần đặt hàng", "dưới mức cần nhập", "xuống dưới mức đặt lại", "xuống dưới mức đặt hàng lại",
               "dưới mức tồn tối thiểu", "dưới mức tối thiểu", "dưới định mức", "sắp hết", "sắp hết hàng", "sắp cạn",
               "sắp cạn kho", "gần hết", "cần đặt thêm", "cần nhập thêm", "cần đặt hàng lại", "cần nhập hàng")
# "Of the customers who came in October, how many came back in November", "... haven't been back since": those of
# the first period's customers who ordered again in the second (or after the first).
CAME_BACK_WORDS = ("came back", "come back", "comes back", "have been back", "has been back", "been back", "were back",
                   "was back", "returned", "came back to eat", "come back to eat", "have come back", "has come back",
                   "have already come back", "came back since", "been back since", "quay lai", "quay lai an",
                   "da quay lai", "da quay lai an", "quay tro lai", "tro lai an")
NOT_BACK_WORDS = ("haven t been back", "have not been back", "hasn t been back", "has not been back", "not been back",
                  "haven t come back", "have not come back", "didn t come back", "did not come back", "never came back",
                  "haven t been back since", "have not been back since", "haven t been back yet",
                  "haven t come back since", "haven t come back yet", "not back yet", "not back since",
                  "chua quay lai", "khong quay lai", "chua quay lai an", "khong quay lai an", "chua tro lai",
                  "khong tro lai")
# What is ordered together with a dish ("khách gọi Lẩu Thái thì hay gọi kèm món gì"): a pairing of the lines of one
# bill, which no metric counts; handed on. Vietnamese ones are spelled with their marks ("kèm", never "kem": ice cream).
# "Khách tip tổng cộng bao nhiêu, trong đó qua thẻ bao nhiêu": a part of the figure asked beside it; handed on.
PART_OF_WORDS = ("trong đó", "trong số đó", "of which", "of those", "out of those")
# Said of two things a manager may mean ("món nước": dishes with broth, or drinks); handed on.
TWO_WAY_WORDS = {"mon nuoc": "món nước"}  # as normalized: as said
TOGETHER_WORDS = ("gọi kèm", "ăn kèm", "mua kèm", "order kèm", "uống kèm", "kèm với", "đi kèm", "ordered with",
                  "ordered together", "ordered alongside", "bought together", "sold together", "goes with", "go with",
                  "paired with", "ordered along with", "sold along with", "bought along with", "eaten along with")
# What the parser makes of each (kind of mention, its phrases, what it shows as their meaning).
_ASKED_FOR = (("condition", CONDITION_WORDS, "a condition on a count"), ("listing", LISTING_WORDS, "a list of rows"),
              ("together", TOGETHER_WORDS, "what is ordered together"), ("part_of", PART_OF_WORDS, "a part of it"),
              ("change", CHANGE_WORDS, "the change"), ("with_empty", WITH_EMPTY_WORDS, "counting those with none"),
              ("without_empty", WITHOUT_EMPTY_WORDS, "only those with some"),
              ("share", SHARE_WORDS, "share of the total"), ("live", LIVE_WORDS, "a state right now"),
              ("each_kind", EACH_KIND_WORDS, "each kind"), ("exclude", EXCLUDE_WORDS, "left out"),
              ("below", BELOW_WORDS, "below the level it is kept above"), ("came_back", CAME_BACK_WORDS, "came back"),
              ("not_back", NOT_BACK_WORDS, "not back since"))
# Function words: accounted for, meaning nothing by themselves. Negations, "except", "average",
# "per guest" etc. are deliberately absent: a question with them is not answered by a guess.
FILLERS = frozenset(["anyone", "luc", "la", "co", "duoc", "cho", "xem", "biet", "giup", "gi", "cac", "ay", "minh", "hay", "trong", "vao", "o", "tong", "the", "a", "an", "of", "in", "on", "for", "at", "to", "was", "were", "is", "are", "be", "been", "what", "how", "did", "do", "does", "we", "our", "us", "show", "me", "give", "list", "tell", "please", "into", "tracking", "total", "overall", "now", "there", "have", "has", "had", "it", "its", "all", "get", "see", "find", "report", "view", "during",
                     "s", "hien", "they", "them", "their", "he", "she", "nay", "roi", "chia", "may",
                     "got", "bang", "phai", "anh", "em", "ha", "you", "can", "i", "would", "like", "know",
                     "want", "need", "much", "lot", "just", "also", "then", "pull", "single", "included", "tinh",
                     "through", "via", "nha", "ah", "that", "tu", "both", "any", "anything", "everything", "as", "put", "coi", "vo", "e",
                     "actually", "really", "roughly", "approximately", "basically", "exactly", "precisely", "ever", "dzay", "zay",
                     "perform", "performing", "performed", "performance", "hey", "hi", "hello", "aria", "stuff", "gium", "dum",
                     "um", "umm", "uh", "uhm", "okay", "thx", "tks", "thanks"])
# All the data there is ("the biggest days since we started"): said with a period ("since we started tracking in
# September"), which of the two is meant is unclear.
ALL_TIME_PHRASES = ("since we started", "since we opened", "since opening", "since we first opened",
                    "since we started recording", "since we started tracking", "since records began", "tu dau toi gio",
                    "tu dau den gio", "tu dau den nay", "tu truoc toi gio", "tu truoc den nay", "tu truoc toi nay",
                    "ke tu khi co du lieu", "tu khi co du lieu", "since we have data", "since the data starts",
                    "over the whole history", "in the whole history", "over our whole history", "all time", "of all time",
                    "tu khi mo quan", "tu ngay mo quan", "tu luc mo quan", "tu khi khai truong", "tu ngay khai truong")
# "So far": a period that runs to now even for what is booked ahead ("lượt đặt bàn tháng này đến nay").
SO_FAR_PHRASES = ("so far", "up to now", "until now", "to date", "tinh den nay", "den thoi diem nay", "den gio", "toi gio",
                  "toi gio nay", "den gio nay", "toi bay gio", "den bay gio", "den nay", "tinh den gio", "tinh toi gio",
                  "cho den nay", "cho toi gio", "cho den gio", "by the same time",
                  # "tới giờ có bao nhiêu khách": so far, never the "giờ có" of a state right now
                  "toi gio co", "den gio co", "toi gio nay co", "den gio nay co")
# English fillers that are Vietnamese words when typed with marks ("ăn", "đó", "ít", "cần", "ổn"): bare only.
ENGLISH_ONLY_FILLERS = frozenset(["an", "do", "to", "it", "its", "can", "on", "in", "me", "be", "us", "is", "did", "does",
                                  "had", "has", "see", "get", "all", "now"])
# Vietnamese words of the fixed vocabulary that are meant only as typed bare, never with marks: "chi" (to spend) is
# not "chị" (a polite "she") or "chỉ" (only); "qua" ("trả qua thẻ": via) not "quả", "quá" or "quà"; "so" (so sánh)
# not "số" (a number: "số lượt đặt bàn"); "trong" (in) not "trống" (free: "bàn nào đang trống").
BARE_WORDS = frozenset(["chi", "qua", "so", "trong", "thu"])
# How long stock lasts "at the rate of the last 7 days": the use it is measured by, said (the window is its own).
RATE_PHRASES = ("at the use of", "at the usage of", "at the rate of", "at the current rate", "at this rate",
                "at current usage", "at the current usage", "at current use", "if we keep using them like",
                "if we keep using it like", "if we keep using them at", "if we keep using it at", "based on the use of",
                "based on the usage of", "based on usage over", "based on usage in", "going by", "going by the use of")
# A formal request's framing ("Vui lòng thống kê ...", "Tôi muốn xem ..."): asks for nothing more.
POLITE_PHRASES = ("vui lòng", "vui lòng cho biết", "tôi muốn", "tôi muốn xem", "tôi muốn biết", "chúng tôi muốn",
                  "thống kê", "xin thống kê", "vui lòng thống kê", "sắp xếp", "sắp xếp theo", "sắp xếp giúp",
                  "quick q", "quick question", "xếp theo", "sắp theo", "xếp giúp", "sắp giúp",
                  # "check giùm no-show rate tuần này": asked to look, never the average check
                  "check giùm", "check giúp", "check dùm", "check hộ", "check xem", "check thử", "check lại", "check coi",
                  # the formal register of a report asked by head office or an auditor
                  "cung cấp", "vui lòng cung cấp", "đề nghị", "kính đề nghị", "đề nghị cung cấp", "kính đề nghị cung cấp", "kính gửi", "xin gửi",
                  "gửi tôi", "cho tôi xin", "số liệu", "xin số liệu", "cho tôi xin số liệu", "báo cáo", "xin báo cáo",
                  "giai đoạn", "trong giai đoạn", "cho giai đoạn", "provide", "please provide", "kindly", "kindly provide",
                  "kindly report", "kindly list", "could you provide", "for the period", "the period", "period", "sorted",
                  "grouped", "limited to", "sắp xếp theo ngày", "sắp xếp theo ngày tăng dần", "xếp theo ngày",
                  "sorted by date", "sorted by day", "ordered by date", "in date order", "by date order",  # (never "side by side", "cạnh nhau": columns for each, which no split gives)
                  # greetings, thanks and asking nicely ("Chào em, nhờ em xem giúp ...", "I was wondering ...")
                  *(f"chào {who}" for who in ("em", "anh", "chị", "cô", "chú", "bạn", "aria", "cả nhà", "buổi sáng",
                                              "buổi chiều", "buổi tối")),
                  *(f"nhờ {who}" for who in ("em", "anh", "chị", "bạn", "aria")),
                  "muốn biết", "anh muốn biết", "chị muốn biết", "em muốn biết", "mình muốn biết", "hỏi chút",
                  "hỏi chút xíu", "hỏi nhanh", "hỏi thêm", "cảm ơn", "cám ơn", "cảm ơn nhiều", "kiểm tra",
                  "kiểm tra giúp", "kiểm tra giùm", "kiểm tra xem", "i was wondering", "was wondering", "i wonder",
                  "just checking", "just checking in", "hỏi xíu", "xem hộ", "xem giùm", "tra giúp", "tra giùm", "tra hộ",
                  "hỏi thăm", "hỏi thăm chút", "câu cuối", "tiện thể",
                  # "please share the breakdown", "share giúp food cost %": asked to send, never a share of the total;
                  # "please check", "summary of": asked to look, never the average check, nor the revenue
                  "please share", "kindly share", "pls share", "can you share", "could you share", "share giúp",
                  "share giùm", "share dùm", "share hộ", "please check", "can you check", "could you check",
                  "requesting", "requesting the figures for", "the figures for", "figures for", "tổng hợp",
                  "tổng hợp giúp", "nhờ tổng hợp", "nhờ tổng hợp giúp", "xuất số liệu", "xuất báo cáo", "xuất giúp",
                  "summary of", "a summary of", "overview of",
                  "an overview of",
                  # how the answer is to be shown: "chỉ cần con số", "kẻ bảng giúp", "in a table" (a table is shown
                  # anyway); "xếp giảm dần": the order is the words after "xếp"
                  "chỉ cần con số", "chỉ cần số", "chỉ cần 1 con số", "chỉ cần một con số", "1 con số thôi",
                  "một con số thôi", "con số thôi", "không cần chi tiết", "kẻ bảng", "kẻ bảng giúp", "làm thành bảng",
                  "dạng bảng", "thành bảng", "in a table", "as a table", "in table form", "one number only",
                  "just one number", "xếp")
FILLER_PHRASES = (*SO_FAR_PHRASES, *RATE_PHRASES, *POLITE_PHRASES, "mà", "bên", "dạ", "tình hình", "về",
                  "loyalty program", "the loyalty program", "at standard cost", "for their food", "for the food", "for food",
                  "on their food", "trong két", "sorry to bother you", "sorry", "itself", "kpi", "kpis", "kpi check", "closing numbers", "closing figures", "cả bảng", "on the books", "on our books", "loyalty", "added up to", "add up to", "adds up to", "food and drink", "food and drinks",
                  "across", "in the kitchen", "gio nay", "moi duoc len ban", "moi duoc len mon", "moi len mon",
                  "hon thoi gian chuan", "thoi gian chuan", "so voi thoi gian chuan", "hien tai", "bao nhieu", "la bao nhieu", "how much",
                  "how many", "nhu the nao", "the nao", "thi sao", "thi the nao", "thi", "chung toi", "what is", "what was", "what were", "tong cong", "nha hang", "chung ta",
                  "the restaurant", "our restaurant", "in total", "all together", "altogether", "tong cong la",
                  "how are", "how is", "how did", "how does", "doing", "look like", "looking", "broken down",
                  "break down", "in terms of", "in stock", "trong kho", "the whole of", "all of", "the team", "breakdown", "breakdown of",
                  "a breakdown of", "con trong kho", "pull up", "bring up", "on the menu", "in the menu", "on our menu",
                  "the whole menu", "the entire menu", "on the current menu", "the current menu", "our current menu",
                  "tren thuc don", "trong thuc don", "thuc don",
                  "can you", "could you", "where are we at on", "where are we on", "where do we stand on", "i e", "e g", "look at", "looking at", "khác nhau sao", "bên mình", "của nó", "khoảng", "cho anh xem", "cho em xem", "cho chi xem", "cho minh xem", "ra sao", "bay gio",
                  "split", "split out", "split them out", "split it out", "break them down", "break it down",
                  "chu yeu", "mainly", "mostly", "toan bo", "toan the",
                  "tu luc chay", "tu khi chay", "since launch", "since it launched", "con lai", "tu luc ra mat",
                  "tu khi ra mat",
                  "against target", "against the target", "against their target", "against its target", "vs target",
                  "so voi muc tieu", "so voi dinh muc", "so voi thoi gian muc tieu", "so voi thoi gian chuan", "so voi chuan",
                  "so với chỉ tiêu",
                  "co dat target khong", "co dat muc tieu khong", "co kip target khong", "co vuot chuan khong",
                  "co dat chuan khong", "co kip chuan khong", "co kip muc tieu khong", "next to the target",
                  "next to its target", "next to their target", "beside the target", "beside its target",  # "làm trung bình mấy phút, có đạt target không": the time beside its target
                  "ke tu khi bat dau", "tu khi bat dau", "since it started", "since the start", *ALL_TIME_PHRASES,
                  "quick one", "all up", "all told", "on everything we sold", "for everything we sold", "on the shelves", "on the shelf", "ôm", "giữ", "nhận", "looking after", "xin", "look after",
                  "looks after",
                  "against their station target time", "against the station target time", "against target time",
                  "against the target time", "vs target time", "so voi thoi gian muc tieu cua bep", "on prep",
                  "vs its standard", "against its standard", "vs its target", "vs their target", "compared with its target",
                  "compared to its target", "compared with target", "compared to target", "compared with its standard",
                  "come to", "came to", "comes to", "come in at", "came in at", "sao roi", "the nao roi", "thi sao roi",
                  "cong lai", "cong lai duoc", "kèm", "kèm theo", "kèm luôn", "wise",  # never "kem" (ice cream)
                  "theo muc dung", "theo muc su dung", "neu dung nhu", "neu tinh theo muc dung trung binh", "theo muc dung trung binh", "neu tinh theo muc dung",
                  "neu tinh theo", "at the past week usage",  # the usage rate
                  "at the past week usage rate", "at last week usage", "at the current usage rate", "at last week rate of use",
                  "at last week rate of usage", "at last week rate",  # stock lasts at
                  "at this rate", "going by", "together", "combined", "food and beverage", "food & beverage", "f&b", "of the floor", "tách riêng", "mỗi bên", "different", "distinct", "sitting in the kitchen", "on the kitchen", "thường", "out on the",
                  "in the house", "quán",  # typed with its mark, the restaurant; never "Quân", a name
                  "hay gặp", "thường gặp",  # "lý do hủy món nào hay gặp nhất": met most often (never "gap" alone)
                  "sitting at the pass", "cả quán", "toàn quán", "cả nhà hàng", "trong menu",
                  "tren menu",
                  "qua",  # bare only (BARE_WORDS): "trả qua thẻ", via
                  # typed with their marks: a number ("số lượt"), a polite "she", "all of" ("cả tháng 10",
                  # "nguyên tuần"); never "so", "chi" or "ca" (a shift)
                  "số", "chị", "cả", "nguyên", "lượng",  # "lượng" (an amount), never "lương" (wages)
                  "so luong",  # "sl" typed bare ("sl goi cuon ban dc"): số lượng, how many, never wages
                  "vì", "tôi", "tới", "đã",  # never "ví" (a wallet), "tối" (the evening) nor "đá" (ice)
                  "những", "vậy", "nhé", "hỏi", "hồi", "nhỉ",  # never "nhưng" (but) nor "nhì" (second)
                  "của", "tại", "ơi", "một", "bị",  # never "cua" (crab), "tái" (rare beef), "ổi" (guava), "mốt", "bì"
                  "chỉ", "chỉ tính", "riêng", "tính riêng",  # only: what follows is the filter ("chỉ tính ăn tại
                  # chỗ", "riêng đồ uống"; "only" is read beside its value, in parse)
                  "bán hàng",  # "doanh thu bán hàng": sales, said twice
                  "inclusive",  # "from the 1st to the 10th inclusive": the days said, both ends in
                  "tất cả", "theoretical")  # "tất cả" (all of it; typed bare too), "theoretical food cost" (the only one)


# Place names a menu spells joined, as English does ("Saigon"), and a manager in Vietnamese ("Sài Gòn").
_PLACE_NAMES = {"saigon": "Sài Gòn", "hanoi": "Hà Nội", "danang": "Đà Nẵng"}
_PLACES = re.compile(r"\b(" + "|".join(_PLACE_NAMES) + r")\b", re.IGNORECASE)
_PARENTHESES = re.compile(r"\([^)]*\)")
_SPLIT_WORDS = frozenset(SINGLE_MARKERS)


@dataclass(frozen=True)
class Entry:
    """One known phrase (normalized tokens) and what it means."""

    tokens: tuple[str, ...]
    kind: str  # metric | concept | value | grain | superlative | filler
    payload: Any
    # the marks of each word in each spelling the phrase has ("lẩu": ("̂̉",)); None if one is written bare
    accents: frozenset[tuple[str, ...]] | None = None

    def spelled_as(self, marks: Sequence[str], *, bare_is_bare: bool = False) -> bool:
        """True when question words with these marks can be this phrase: every word the question marks
        carries the marks of some spelling (a phrase written bare matches anything). A bare word of the
        question matches any spelling when the question is typed without marks, and only a bare one when
        ``bare_is_bare`` (the question carries marks elsewhere: "doanh thu qua ví điện tử" is "via", not "quả")."""
        return self.accents is None or any(
            all((not q and not bare_is_bare) or q == a for q, a in zip(marks, spelling, strict=True))
            for spelling in self.accents)


@dataclass(frozen=True)
class ValueMeaning:
    semantic_model: str
    dimension: str  # element name in its semantic model
    value: str  # the value as stored (a code or a name)
    concept: str


# Vietnamese writes a final i or y both ways: "tỷ lệ" / "tỉ lệ", "kỹ" / "kĩ", "quý" / "quí"; and one word
# is one word however it is shortened ("avg bill" is the average bill).
_SAME_WORD = {"ty": "ti", "ky": "ki", "ly": "li", "my": "mi", "quy": "qui", "hy": "hi", "sy": "si", "ny": "ni",
              "avg": "average",
              "deliveries": "deliveries"}  # what suppliers bring in; "delivery" is an order type


def words_of(text: str) -> tuple[str, ...]:
    """Normalized, plural-stemmed words: "reservations" and "reservation" match alike (Vietnamese words
    never end in s, so stemming leaves them alone); "tỷ lệ" and "tỉ lệ" alike; "avg" is "average"; "%" is
    "percent"."""
    return tuple(_SAME_WORD.get(w, stem(w)) for w in normalize(percent_spelled(text)).split())


# "đầu tháng (này) đến nay", said without its "từ": since the month began
_SINCE_THE_MONTH_BEGAN = (("từ", ("đầu tháng", "đầu tháng này"), ("đến nay", "tới nay", "đến giờ", "tới giờ")),
                          ("tu", ("dau thang", "dau thang nay"), ("den nay", "toi nay", "den gio", "toi gio")))
# Shorthand managers type on a phone, spelled out before a question is read ("dt hqua?", "rev MTD",
# "bill tb", "KM"). Only words with no other meaning here: never "k" (không, or thousand). "Bạn nào" with its
# marks is who ("bạn nào làm nhiều ca nhất"), never "bàn nào" (which table).
SHORTHAND = {"bạn nào": "ai", "tối wa": "tối qua", "toi wa": "tối qua", "hqua": "hôm qua", "hqa": "hôm qua", "hnay": "hôm nay", "ql": "quản lý", "đc": "được", "dc": "được",
             "tb": "trung bình", "km": "khuyến mãi", "sl": "số lượng", "bao nhiu": "bao nhiêu", "nv": "nhân viên", "ncc": "nhà cung cấp",
             "rev": "revenue", "yday": "yesterday", "yest": "yesterday", "tmrw": "tomorrow", "pct": "percent",
             "qty": "quantity", "ppl": "people", "mth": "month", "wk": "week", "wks": "weeks", "yr": "year", "yrs": "years", "cafe": "cà phê", "hasnt": "has not", "havent": "have not", "didnt": "did not",
             "dont": "do not", "doesnt": "does not", "isnt": "is not", "arent": "are not", "wasnt": "was not",
             "werent": "were not", "excl": "excluding", "incl": "including", "fortnight": "2 weeks", "bn": "bao nhiêu",
             "ko": "không", "rn": "right now", "pls": "please", "plz": "please", "n": "and", "#": "number", "r": "are", "u": "you", "tix": "tickets", "hw": "how",
             "tonite": "tonight", "nite": "night", "2nite": "tonight", "2day": "today", "tmr": "tomorrow",
             "hd": "hóa đơn", "hđ": "hóa đơn", "ks": "khách", "hrs": "hours", "hr": "hour", "bnhieu": "bao nhiêu", "bnh": "bao nhiêu", "bnhiu": "bao nhiêu", "bnhiêu": "bao nhiêu",
             "ntn": "như thế nào", "dth": "doanh thu", "hom wa": "hôm qua", "hum qua": "hôm qua", "hum nay": "hôm nay",
             "tuan ni": "tuần này", "thang ni": "tháng này", "hom ni": "hôm nay", "bua ni": "hôm nay", "bữa ni": "hôm nay",
             "tuần ni": "tuần này", "tháng ni": "tháng này", "hôm ni": "hôm nay", "ca ni": "ca này", "trưa ni": "trưa nay",
             "tối ni": "tối nay", "toi ni": "tối nay", "trua ni": "trưa nay", "z": "vậy", "j": "gì", "hok": "không",
             "bữa nay": "hôm nay", "bua nay": "hôm nay", "bữa qua": "hôm qua", "bua qua": "hôm qua",
             "đêm qua": "tối qua", "dem qua": "tối qua", "tuần liền trước": "tuần trước đó", "tuan lien truoc": "tuan truoc do",
             "tháng liền trước": "tháng trước đó", "thang lien truoc": "thang truoc do", "ngày liền trước": "ngày trước đó",
             "ngay lien truoc": "ngay truoc do", "t2": "thứ 2", "t3": "thứ 3", "t4": "thứ 4", "t5": "thứ 5", "t6": "thứ 6",
             "t7": "thứ 7", "noon": "12pm", "midday": "12pm",
             **{f"{tens} {ten}": f"{n}0" for n, tens in ((2, "hai"), (3, "ba"), (4, "bốn"), (6, "sáu"), (9, "chín"))
                for ten in ("mươi", "muoi")}, "bon muoi": "40", "chin muoi": "90",  # ("sau muoi": after ten)
             "mười bốn": "14", "muoi bon": "14", "mười lăm": "15", "muoi lam": "15",  # "ba mươi ngày": 30 days
             "nl": "nguyên liệu", "sg": "Sài Gòn", "kh": "khách",  # "kh" ending a question: "không" (below)
             "doanh tu": "doanh thu",
             "giờ cao điểm": "khung giờ cao điểm", "gio cao diem": "khung gio cao diem",  # the hour that is busiest
             "half of the month": "half of this month", "days of the month": "days of this month",  # "the first
             "week of the month": "week of this month",  # 10 days of the month": of this one
             **{f"{start} {until}": f"{since} {start} {until}"  # "đầu tháng đến nay": since the month began
                for since, starts, untils in _SINCE_THE_MONTH_BEGAN for start in starts for until in untils},
             **{f"{since} {start} {until}": f"{since} {start} {until}"  # (said so already)
                for since, starts, untils in _SINCE_THE_MONTH_BEGAN for start in starts for until in untils},
             "khung giờ cao điểm": "khung giờ cao điểm", "khung gio cao diem": "khung gio cao diem",  # (said so already)
             "đk": "đăng ký", "dk": "đăng ký", "sđt": "số điện thoại", "sdt": "số điện thoại", "tg": "thời gian",
             "ds": "danh sách",
             # "tháng này so với cùng tháng năm ngoái": last year's, the same month (as "vs last year")
             **{f"{same} {year}": year for same in ("cùng tháng", "cung thang") for year in (
                 "năm ngoái", "nam ngoai", "năm trước", "nam truoc", "năm rồi", "nam roi")},
             "how many money": "how much money",  # ("how many money did we take": how much)
             "đang bán chạy": "bán chạy", "dang ban chay": "ban chay",  # selling well now: the best sellers (never
             # "đang bán", on the menu)
             "mặt bằng": "premises", "mat bang": "premises",  # "tiền thuê mặt bằng": the rent, which no figure here
             # holds (never "thuế", a tax, typed bare)
             "sept": "september", "sep": "september", "lst": "last", "oct": "october", "nov": "november", "dec": "december", "aug": "august",
             "wknd": "weekend", "wkend": "weekend", "custs": "customers", "cust": "customer", "noshows": "no-shows",
             "noshow": "no-show", "todays": "today", "yesterdays": "yesterday", "tonights": "tonight",
             "nhiều khách hơn": "đông khách hơn", "nhieu khach hon": "dong khach hon",  # "ca trưa hay ca tối nhiều
             "khách nhiều hơn": "đông khách hơn", "khach nhieu hon": "dong khach hon",  # khách hơn": more crowded
             "trc": "trước",  # "tháng trc", "tuần trc"
             "lwk": "last week", "amt": "amount", "rcvd": "received", "atm": "right now", "lvl": "level",
             "w/e": "weekend", "w/o": "without", "w/": "with", "b/w": "between",  # "last w/e", "orders w/ a promo"
             "ln": "lợi nhuận",  # "biên ln gộp"
             "by each": "by",  # "hours worked by each server": by server (each staff member whose role is server)
             "lunch nay": "trưa nay", "dinner nay": "tối nay",  # "covers lunch nay": today's lunch
             "tr": "triệu",  # "dt tuần trc bn tr" (a figure's own "2tr" is read with its number)
             # "wk" in a Vietnamese question is a week said in Vietnamese ("dt ship wk này vs wk trc")
             **{f"wk {said}": f"tuần {meant}" for said, meant in (("này", "này"), ("nay", "này"), ("trc", "trước"),
                                                                 ("trước", "trước"), ("truoc", "trước"))},
             **{f"{each} wk": f"{each} tuần" for each in ("theo", "mỗi", "moi", "từng", "tung")}}
_ORDER_AFTER_DID = re.compile(r"\b(did|does|do)\b([^?.,]{1,40}?) order\b", re.IGNORECASE)  # "what did table 12 order":
# the verb, as "ordered" (never the orders counted)
_WHAT_ORDERED_MOST = re.compile(r"\bwhat (did|does|do)\b(?! (?:we|i|you)\b)(?=[^?.,]{1,40}? order (?:the )?(?:most|least)\b)",
                                re.IGNORECASE)  # "what did gold members order most": which dish they ordered most
# (never the members ranked; "what did we order most" is bought from suppliers)
_WHICH_WAS_OUR = re.compile(r"\bwhich (?=(?:was|is|has been|were) (?:our|the)\b)", re.IGNORECASE)  # "which was our best
# week": what was (never "which" before a row it names)
_SO_OPENING_A_COMPARISON = re.compile(r"^\s*so (?!sánh|với)(?=.*\bvới\b)", re.IGNORECASE)  # "So tiền mặt hôm nay với Chủ nhật
# tuần trước": compare (typed with marks: never "số", a number)
# "4 thứ Bảy gần nhất", "the last 4 Saturdays": that weekday over as many weeks back (never the top 4; never a
# name's number: "phòng VIP 1 thứ 7 vừa rồi")
_LAST_N_WEEKDAYS_VI = re.compile(r"(?<!vip )(?<!combo )(?<!bàn )(?<!ban )\b(\d{1,2}) ((?:thứ|thu) (?:hai|ba|tư|tu|năm|nam|sáu|sau|bảy|bay|[2-7])|chủ nhật|chu nhat) "
                                 r"(?:gần nhất|gan nhat|gần đây|gan day|vừa qua|vua qua|vừa rồi|vua roi)\b", re.IGNORECASE)
_LAST_N_WEEKDAYS_EN = re.compile(r"\b(?:over )?(?:the )?(?:last|past|previous) (\d{1,2}|two|three|four|five|six|seven|eight|nine|ten|twelve) "
                                 r"(monday|tuesday|wednesday|thursday|friday|saturday|sunday)s\b", re.IGNORECASE)
# "revenue for each of the last 3 Saturdays": each one its own row
_EACH_OF_THE_LAST = re.compile(r"\b(?:for |on )?each of (?=(?:the )?(?:last|past|previous) \S+ (?:monday|tuesday|wednesday|"
                               r"thursday|friday|saturday|sunday)s\b)", re.IGNORECASE)
# "khách vãng lai đặt mang về bao nhiêu đơn", "món hủy trên đơn ship": ordered as, and on, the orders of a channel
_CHANNEL = r"(?:mang về|mang ve|giao hàng|giao hang|ship|delivery|takeaway|ăn tại chỗ|an tai cho|dine-in)(?![\w-])"
# (never "khách đặt giao hàng": who ordered, said of the customers)
_ORDERED_AS = re.compile(r"(?<![\w-])(?<!khách )(?<!khach )(?:đặt|dat) (?=" + _CHANNEL + ")", re.IGNORECASE)
_ON_THE_ORDERS_OF = re.compile(r"(?<![\w-])(?:trên|tren) (?=(?:các |cac )?(?:đơn|don|hóa đơn|hoa don|bill)(?: hàng| hang)? "
                               + _CHANNEL + ")", re.IGNORECASE)
# "thứ 7 chủ nhật tuần trước", "thứ 7 cn": Saturday and Sunday said side by side are the span of both days (never
# the Sunday alone)
_SATURDAY_SUNDAY = re.compile(r"(?<!từ )(?<!tu )\b(thứ |thu |t)(7|bảy|bay),? (chủ nhật|chu nhat|cn)\b", re.IGNORECASE)
# "revenue for each Monday in the last 2 months", "every Friday dinner last month": each one its own row
_EACH_WEEKDAY = re.compile(r"\b(?:(?:for|on) )?(?:each|every) (monday|tuesday|wednesday|thursday|friday|saturday|"
                           r"sunday)\b", re.IGNORECASE)
# "quản lý có mấy người", "phục vụ có bao nhiêu người": how many of that role, as "có mấy quản lý" (never the guests
# served; "phục vụ được bao nhiêu khách" stays the guests)
_ROLE_HAS_HOW_MANY = re.compile(r"(?<![\w-])(quản lý|quan ly|phục vụ|phuc vu|thu ngân|thu ngan|đầu bếp|dau bep|pha chế|"
                                r"pha che) (có|co) (mấy|may|bao nhiêu|bao nhieu) (?:người|nguoi)(?![\w-])", re.IGNORECASE)
# "ngày 1 đến 10", "từ 1 đến 10 tháng 11": the second day said as a day too ("ngày 1 đến ngày 10")
_SECOND_DAY_BARE = re.compile(r"(?<![\w-])((?:ngày|ngay) \d{1,2} (?:đến|den|tới|toi)(?: hết| het)?) (?=\d{1,2}(?![\w/.,:-]| ?(?:giờ|gio|h|"
                              r"người|nguoi|khách|khach|phần|phan|đơn|don|k|%)(?![\w-])))", re.IGNORECASE)
_FROM_DAY_TO_DAY_OF = re.compile(r"(?<![\w-])(từ|tu) (\d{1,2}) (đến|den|tới|toi) (\d{1,2}) (?=(?:tháng|thang) \d)", re.IGNORECASE)
# "tháng này đến hết hôm qua", "this month through yesterday": from its first day to yesterday
# (and "tuần này, không tính hôm nay", "month to date excluding today": the same days)
_SO_FAR_TO_YESTERDAY = re.compile(r"(?<![\w-])(this month|this week|month to date|week to date|mtd|wtd|tháng này|tuần này|"
                                  r"thang nay|tuan nay),? (?:(?:tính |tinh )?(?:up to|until|till|through|thru|to|đến hết|"
                                  r"đến|tới hết|tới|den het|den|toi het|toi)(?: and including)? (?:yesterday|hôm qua|hom qua)"
                                  r"|(?:excluding|not counting|not including|without|(?:không|khong|ko|k) (?:tính|tinh)|"
                                  r"trừ|tru) (?:today|hôm nay|hom nay))(?![\w-])", re.IGNORECASE)
# (keyed bare; spelled as the period was said: with its marks, or bare)
_SO_FAR_TO_YESTERDAY_SAID = {**dict.fromkeys(("this month", "month to date", "mtd"), "from the start of this month to yesterday"),
                             **dict.fromkeys(("this week", "week to date", "wtd"), "from the start of this week to yesterday"),
                             "thang nay": "từ đầu tháng đến hôm qua", "tuan nay": "từ đầu tuần đến hôm qua"}
# "từ đầu tháng tính đến hết hôm qua": from then to that day ("tính" said of the end)
_FROM_THEN_COUNTED_TO = re.compile(r"(?<![\w-])((?:từ|tu) [^,?.]{2,30}?) (?:tính|tinh) (?=(?:đến|tới|den|toi)(?: hết| het)? "
                                   r"(?:hôm qua|hom qua|ngày|ngay)(?![\w-]))", re.IGNORECASE)
# "through the 10th", "this month up to the 10th": from the 1st of this month
_UP_TO_A_DAY = re.compile(r"(?<![\w-])(?:this month )?(?:up to and including|up to|until|till|through|thru) the (\d{1,2})"
                          r"(?:st|nd|rd|th)(?: of this month)?(?![\w-])", re.IGNORECASE)
# "top 3 phục vụ nhận tip nhiều nhất": the servers ranked (never the role kept, nothing to rank)
_TOP_SERVERS = re.compile(r"(?<![\w-])(top \d{1,2}) (phục vụ|phuc vu)(?![\w-])", re.IGNORECASE)
# "dt, khách, số bill": the guests, one figure of a list (never the customers, a split dropped)
_GUESTS_LISTED = re.compile(r"(?<=[,:] )(khách|khach)(?=\s*,)", re.IGNORECASE)
# "các ca tối thứ 6": the dinners of every Friday, said as "ca tối các thứ 6" (never one Friday's dinner)
_SHIFT_OF_EVERY_WEEKDAY = re.compile(r"(?<![\w-])(các|cac|những|nhung) (ca (?:tối|toi|trưa|trua)) (?=(?:thứ|thu|chủ nhật|"
                                     r"chu nhat|t[2-7])(?![\w-]))", re.IGNORECASE)
_MINUTES_TYPED_SHORT = re.compile(r"(?<![\w-])(\d+)p(?![\w-])")  # "chờ quá 15p": 15 phút
_NOT_AT_THE_END = re.compile(r"(?<![\w-])kh(?=[\s?.!]*$)", re.IGNORECASE)  # "có bàn nào trống kh": không
_ON_EACH = re.compile(r"(?<![\w-])(?:trên|tren) (mỗi|moi)(?= (?:hóa đơn|hoa don|đơn|don|bill)(?![\w-]))",
                      re.IGNORECASE)  # "số món trung bình trên mỗi hóa đơn": per bill, as "mỗi hóa đơn" says it (but
# "chi nhiều hơn trên mỗi khách" stays a ratio, never each guest)
_UP_TO_TODAY = re.compile(r"(?<![\w-])(?:(?:tính|tinh) (?:đến|den|tới|toi) (?:hôm nay|hom nay)|(?:tính |tinh )?(?:đến|den|"
                          r"tới|toi) (?:thời điểm )?(?:hiện tại|hien tai|thoi diem hien tai))(?![\w-])",
                          re.IGNORECASE)  # "tháng này tính đến hôm nay": so far (but "khách tới hôm nay": came today)
# Southern and spoken Vietnamese, only when typed with marks (bare, "nhieu" is "nhiều", "hong" "hỏng", "dua" "dừa"):
# "bán được nhiêu": bao nhiêu; "có hông", "hổng có": không; "đứa nào": ai; "mấy đứa đi làm": mấy người; "mấy đứa phục
# vụ", "bọn phục vụ": the servers; "bữa thứ bảy", "bữa qua": hôm; "được bao nhiêu đấy": vậy, a particle; "đợi": chờ
_SPOKEN_VI = tuple((re.compile(pattern, re.IGNORECASE), said) for pattern, said in (
    (r"(?<![\w-])(?<!bao )(?<!bấy )nhiêu(?![\w-])", "bao nhiêu"), (r"(?<![\w-])(?:hông|hổng)(?![\w-])", "không"),
    (r"(?<![\w-])đứa nào(?![\w-])", "ai"), (r"(?<![\w-])mấy đứa(?= (?:đi|làm|trực|vào|nghỉ)(?![\w-]))", "mấy người"),
    (r"(?<![\w-])(?:mấy đứa|bọn)(?= \w)", "các"), (r"(?<![\w-])bữa(?= (?:qua|nay|kia|thứ|chủ nhật)(?![\w-]))", "hôm"),
    (r"(?<![\w-])đấy(?![\w-])", "vậy"), (r"(?<![\w-])đợi(?![\w-])", "chờ"), (r"(?<![\w-])rứa(?![\w-])", "vậy"),
    (r"(?<![\w-])mô(?![\w-])", "nào"), (r"(?<![\w-])(món|lý do|cái|là) chi(?![\w-])", r"\1 gì")))  # Central:
# "rứa" (vậy), "món mô" (nào), "món chi", "lý do chi" (gì; never "khách chi", spent)
# "nhiu" typed fast: "nhiều" before "nhất", "hơn", "lắm"; else "bao nhiêu" ("dt hqua nhiu")
_NHIU = re.compile(r"(?<![\w-])(?<!bao )nhiu(?![\w-])(?! (?:nhất|nhat|hơn|hon|lắm|lam)\b)", re.IGNORECASE)
_NHIU_MANY = re.compile(r"(?<![\w-])nhiu(?= (?:nhất|nhat|hơn|hon|lắm|lam)\b)", re.IGNORECASE)
_K_FOR_NOT = re.compile(r"(?<![\w-])(?<!\d )k(?![\w-])", re.IGNORECASE)  # "đặt mà k tới": không (never "500 k": thousand)
# "last sat", "this fri": a weekday shortened after the word that dates it (never "sat" alone: "we sat 40")
_SHORT_WEEKDAY = re.compile(r"\b(last|this|next|on|since) (mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)\b", re.IGNORECASE)
_WEEKDAYS = {"mon": "monday", "tue": "tuesday", "tues": "tuesday", "wed": "wednesday", "thu": "thursday",
             "thur": "thursday", "thurs": "thursday", "fri": "friday", "sat": "saturday", "sun": "sunday",
             "weds": "wednesday"}
# Longest first: "wk này" is spelled out before "wk" alone.
_SHORTHAND = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, sorted(SHORTHAND, key=len, reverse=True)))
                        + r")(?![\w-])", re.IGNORECASE)
_LONE_WEEKDAY = re.compile(r"\b(fri|tues|thurs|weds)\b", re.IGNORECASE)  # never a Vietnamese word ("mon", "thu" are)
# "Saturday dinners", "Friday nights": every one of that weekday's shifts, never the latest one
_WEEKDAY_SHIFTS = re.compile(r"\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday) (dinner|lunche|night|evening)s\b",
                             re.IGNORECASE)
# A holiday named, alone or beside its date ("Halloween 31/10", "ngày Quốc khánh 2/9", "on National Day"): its day
_HOLIDAY_DATES = {"quốc khánh": "2/9", "quoc khanh": "2/9", "national day": "2/9",
                  "phụ nữ việt nam": "20/10", "phu nu viet nam": "20/10", "vietnamese women's day": "20/10",
                  "vietnamese womens day": "20/10", "women's day": "20/10", "womens day": "20/10",
                  "halloween": "31/10", "giáng sinh": "25/12", "giang sinh": "25/12", "noel": "25/12",
                  "christmas day": "25/12", "christmas": "25/12"}
_HOLIDAY = re.compile(r"\b(?:(?:ngày|ngay|dịp|dip|lễ|le) )*(" + "|".join(
    re.escape(h).replace("'", "['’]?") for h in sorted(_HOLIDAY_DATES, key=len, reverse=True)) +
    r")(?: (?:ngày |ngay )?(\d{1,2}/\d{1,2})\b)?(?! (?:promo|promotion|code|deal|khuyến mãi|khuyen mai|km)\b)",
    re.IGNORECASE)  # (never a promotion named for the day: "the Women's Day promo" ran over several days)
# "Morning! How many ...", "Good evening, ...": a greeting that opens the question, never a time of day
_GREETING_OPENING = re.compile(r"^\s*(?:(?:hi|hello|hey)[ ,]+)?(?:good )?(?:morning|afternoon|evening)\b\s*[!,.:;-]+\s*",
                               re.IGNORECASE)
_SHORT_DAY = r"(mon|tue|tues|wed|weds|thu|thur|thurs|fri|sat|sun)"
_WEEKDAY_SPAN = re.compile(rf"\b{_SHORT_DAY} ?(-|to|through|thru|till|until) ?{_SHORT_DAY}\b", re.IGNORECASE)  # "mon to
# fri", "mon-fri": two days that open and close a span (never "món", a dish)
_AVERAGE_OF_ONE = re.compile(r"\b(trung bình|trung binh|bình quân|binh quan) (?:1|một|mot) (?=\w)", re.IGNORECASE)  # "trung bình
# 1 bill": each bill's, never the top one


def shorthand_spelled(text: str) -> str:
    """"dt hqua?" is "dt hôm qua?"; "rev MTD" is "revenue MTD" (a word alone, never part of a code); a question
    typed without accents is spelled out without them ("sl khach hqua ca trua": every word typed bare).

    >>> shorthand_spelled("hqua bill tb bao nhiêu? KM10 vs KM"), shorthand_spelled("dt hqua bn, # of bills")
    ('hôm qua bill trung bình bao nhiêu? KM10 vs khuyến mãi', 'dt hom qua bao nhieu, number of bills')
    >>> shorthand_spelled("avg check yday vs last sat?"), shorthand_spelled("hotpot sales fri and sat")
    ('avg check yesterday vs last saturday?', 'hotpot sales friday and sat')
    >>> shorthand_spelled("mon to fri last week, revenue"), shorthand_spelled("covers Mon-Fri this week")
    ('monday to friday last week, revenue', 'covers monday to friday this week')
    >>> shorthand_spelled("lead time for Saturday dinners"), shorthand_spelled("Sunday lunches in October")
    ('lead time for Saturdays dinner', 'Sundays lunch in October')
    >>> shorthand_spelled("Morning! How many bookings tonight?"), shorthand_spelled("morning revenue yesterday")
    ('How many bookings tonight?', 'morning revenue yesterday')
    >>> shorthand_spelled("Halloween 31/10 doanh thu ca tối"), shorthand_spelled("revenue on Women's Day")
    ('ngày 31/10 doanh thu ca tối', 'revenue on ngay 20/10')
    >>> shorthand_spelled("trung bình 1 bill tuần này"), shorthand_spelled("so khach tb 1 ngay")
    ('trung bình mỗi bill tuần này', 'so khach trung binh moi ngay')
    >>> shorthand_spelled("top 5 kh chi nhieu nhat"), shorthand_spelled("ban 5 con trong kh?")
    ('top 5 khach chi nhieu nhat', 'ban 5 con trong khong?')
    >>> shorthand_spelled("bao nhieu ban dat ma k toi"), shorthand_spelled("hóa đơn trên 500 k")
    ('bao nhieu ban dat ma khong toi', 'hóa đơn trên 500 k')
    >>> shorthand_spelled("số món trung bình trên mỗi hóa đơn"), shorthand_spelled("tháng này tính đến hôm nay")
    ('số món trung bình mỗi hóa đơn', 'tháng này đến nay')
    >>> shorthand_spelled("mon nao cho qua 15p"), shorthand_spelled("Món nào đang bán chạy?")
    ('mon nao cho qua 15 phut', 'Món nào bán chạy?')
    >>> shorthand_spelled("which dishes did table 12 order tonight"), shorthand_spelled("What did gold members order most?")
    ('which dishes did table 12 ordered tonight', 'which dish did gold members ordered most?')
    >>> shorthand_spelled("So tiền mặt hôm nay với hôm qua")
    'so sánh tiền mặt hôm nay với hôm qua'
    >>> shorthand_spelled("bữa thứ bảy bán được nhiêu dzậy, mấy đứa phục vụ đứa nào bán nhiều nhất hông")
    'hôm thứ bảy bán được bao nhiêu dzậy, các phục vụ ai bán nhiều nhất không'
    >>> shorthand_spelled("doanh thu 4 thứ Bảy gần nhất"), shorthand_spelled("revenue of the last 4 Saturdays")
    ('doanh thu các thứ Bảy trong 4 tuần gần nhất không tính hôm nay', 'revenue of Saturdays over the last 4 weeks excluding today')
    >>> shorthand_spelled("Revenue for each of the last 3 Saturdays")
    'Revenue by day for Saturdays over the last 3 weeks excluding today'
    >>> shorthand_spelled("lẩu có ai đặt mang về không"), shorthand_spelled("món hủy trên đơn ship")
    ('lẩu có ai mang về không', 'món hủy đơn ship')
    >>> shorthand_spelled("revenue for each Monday in October")
    'revenue by day on Mondays in October'
    >>> shorthand_spelled("doanh thu thứ 7 chủ nhật tuần trước"), shorthand_spelled("dt t7 cn tuan truoc")
    ('doanh thu từ thứ 7 đến chủ nhật tuần trước', 'dt tu thu 7 den chu nhat tuan truoc')
    >>> shorthand_spelled("dt từ ngày 1 đến 10"), shorthand_spelled("revenue this month through yesterday")
    ('dt từ ngày 1 đến ngày 10', 'revenue from the start of this month to yesterday')
    >>> shorthand_spelled("Ngày 3/11: dt, khách, số bill")
    'Ngày 3/11: dt, lượt khách, số bill'
    >>> shorthand_spelled("waste cost through the 10th"), shorthand_spelled("dt tu 1 den 10 thang 11")
    ('waste cost from the 1st to the 10th', 'dt tu ngay 1 den ngay 10 thang 11')
    >>> shorthand_spelled("doanh thu các ca tối thứ 6 tháng trước"), shorthand_spelled("quan ly co may nguoi")
    ('doanh thu ca tối các thứ 6 tháng trước', 'co may quan ly')

    """
    bare = text.isascii()
    text = _GREETING_OPENING.sub("", text)
    text = _HOLIDAY.sub(lambda m: f"{'ngay' if bare else 'ngày'} "
                                  f"{m.group(2) or _HOLIDAY_DATES[m.group(1).lower().replace('’', chr(39))]}", text)
    text = _SHORT_WEEKDAY.sub(lambda m: f"{m.group(1)} {_WEEKDAYS[m.group(2).lower()]}", text)
    text = _WEEKDAY_SPAN.sub(lambda m: f"{_WEEKDAYS[m.group(1).lower()]} "
                                       f"{'to' if m.group(2) == '-' else m.group(2)} {_WEEKDAYS[m.group(3).lower()]}", text)
    text = _LONE_WEEKDAY.sub(lambda m: _WEEKDAYS[m.group(1).lower()], text)
    text = _WEEKDAY_SHIFTS.sub(lambda m: f"{m.group(1)}s {m.group(2).removesuffix('e')}", text)
    text = _NOT_AT_THE_END.sub("khong" if bare else "không", text)
    text = _K_FOR_NOT.sub("khong" if bare else "không", text)
    for spoken, said in () if bare else _SPOKEN_VI:
        text = spoken.sub(said, text)
    text = _NHIU.sub("bao nhieu" if bare else "bao nhiêu", _NHIU_MANY.sub("nhieu" if bare else "nhiều", text))
    text = _ON_EACH.sub(lambda m: m.group(1), text)
    text = _ON_THE_ORDERS_OF.sub("", _ORDERED_AS.sub("", text))
    text = _UP_TO_TODAY.sub("den nay" if bare else "đến nay", text)
    text = text if bare else _SO_OPENING_A_COMPARISON.sub("so sánh ", text)
    text = _WHICH_WAS_OUR.sub("what ", text)
    text = _WHAT_ORDERED_MOST.sub(lambda m: f"which dish {m.group(1)}", text)
    text = _ORDER_AFTER_DID.sub(lambda m: f"{m.group(1)}{m.group(2)} ordered", text)
    text = _LAST_N_WEEKDAYS_VI.sub(lambda m: f"{'cac' if bare else 'các'} {m.group(2)} trong {m.group(1)} " + (
        "tuan gan nhat khong tinh hom nay" if bare else "tuần gần nhất không tính hôm nay"), text)
    text = _EACH_OF_THE_LAST.sub("by day for ", text)
    text = _EACH_WEEKDAY.sub(lambda m: f"by day on {m.group(1)}s", text)
    text = _SATURDAY_SUNDAY.sub(lambda m: f"{'tu' if bare else 'từ'} {'thu' if bare else 'thứ'} {m.group(2)} "
                                          f"{'den' if bare else 'đến'} {'chu nhat' if bare else 'chủ nhật'}", text)
    text = _LAST_N_WEEKDAYS_EN.sub(lambda m: f"{m.group(2)}s over the last {m.group(1)} weeks excluding today", text)
    text = _TOP_SERVERS.sub(lambda m: f"{m.group(1)} {'nhan vien' if bare else 'nhân viên'} {m.group(2)}", text)
    text = _GUESTS_LISTED.sub(lambda m: f"{'luot' if bare else 'lượt'} {m.group(1)}", text)
    text = _SECOND_DAY_BARE.sub(lambda m: f"{m.group(1)} {'ngay' if bare else 'ngày'} ", text)
    text = _FROM_DAY_TO_DAY_OF.sub(lambda m: f"{m.group(1)} {'ngay' if bare else 'ngày'} {m.group(2)} {m.group(3)} "
                                             f"{'ngay' if bare else 'ngày'} {m.group(4)} ", text)
    text = _SO_FAR_TO_YESTERDAY.sub(lambda m: (strip_diacritics if m.group(1).isascii() else str)(
        _SO_FAR_TO_YESTERDAY_SAID[strip_diacritics(m.group(1).lower())]), text)
    text = _FROM_THEN_COUNTED_TO.sub(r"\1 ", text)
    text = _UP_TO_A_DAY.sub(lambda m: f"from the 1st to the {m.group(1)}th", text)
    text = _SHIFT_OF_EVERY_WEEKDAY.sub(r"\2 \1 ", text)
    text = _ROLE_HAS_HOW_MANY.sub(r"\2 \3 \1", text)
    text = _MINUTES_TYPED_SHORT.sub(lambda m: f"{m.group(1)} {'phut' if bare else 'phút'}", text)
    text = _SHORTHAND.sub(lambda m: (strip_diacritics if bare else str)(SHORTHAND[m.group(1).lower()]), text)
    return _AVERAGE_OF_ONE.sub(lambda m: f"{m.group(1)} {'moi' if bare else 'mỗi'} ", text)


_OR_MORE = re.compile(r"(\d)\s*\+(?![+\d]|\s*\d)")  # "6+", never a sum ("1 + 1")


_MILLIONS = re.compile(r"(?<![\d.,])(\d+)[.,](\d{1,3})\s*(triệu|trieu|tr|m|million|củ|cu)\b", re.IGNORECASE)
_TR_AND_TENTHS = re.compile(r"(?<![\d.,])(\d+)tr(\d)\b", re.IGNORECASE)
_GROUPED = re.compile(r"[₫]?(?<![\d.,])(\d{1,3}(?:([.,])\d{3})(?:\2\d{3})*)(?![.,]?\d)\s*(đ|₫|vnđ|vnd|dong|đồng)?(?!\w)",
                      re.IGNORECASE)


def money_spelled(text: str) -> str:
    """Amounts of money as the parser reads them, in thousands: "1,5 triệu", "2.5m", "2tr5", "2.000.000đ",
    "₫1,500,000" are "1500k", "2500k", "2500k", "2000k", "1500k" (normalizing would split them at the marks).

    >>> money_spelled("bills over 1,5 triệu, 2.5m, 2tr5, 2.000.000đ or ₫1,500,000 and 500.000 VND, 1.5 hours")
    'bills over 1500k, 2500k, 2500k, 2000k or 1500k and 500k, 1.5 hours'
    """
    text = _MILLIONS.sub(lambda m: f"{int(m.group(1)) * 1000 + int(m.group(2).ljust(3, '0'))}k", text)
    text = _TR_AND_TENTHS.sub(lambda m: f"{int(m.group(1)) * 1000 + int(m.group(2)) * 100}k", text)

    def grouped(match: re.Match[str]) -> str:
        amount = int(re.sub(r"[.,]", "", match.group(1)))
        money = match.group(3) or match.group(0).startswith("₫") or amount >= 1_000_000
        return f"{amount // 1000}k" if money and amount % 1000 == 0 else match.group(0)
    return _GROUPED.sub(grouped, text)


def percent_spelled(text: str) -> str:
    """"food cost %" is "food cost percent", "parties of 6+" are "parties of 6 or more" (normalizing drops the
    signs).

    >>> percent_spelled("food cost % for parties of 6+ guests")
    'food cost  percent  for parties of 6 or more  guests'
    """
    return _OR_MORE.sub(r"\1 or more ", text.replace("%", " percent "))


_words = words_of


_WORD_CHARACTERS = frozenset(string.ascii_lowercase + string.digits)


def accents_of(text: str) -> tuple[str, ...]:
    """The Vietnamese marks of each word of ``normalize(text)`` ("" for a bare word; "đ" counts as one).

    >>> [len(m) for m in accents_of("Bếp lẩu, canh")]
    [2, 2, 0]
    """
    lowered = text.lower()
    if lowered.isascii():
        return ("",) * len(normalize(text).split())
    marks: list[str] = []
    current: list[str] | None = None
    for ch in unicodedata.normalize("NFC", lowered):
        mark = _marks_of_character(ch)
        if mark is not None:
            current = [] if current is None else current
            current.append(mark)
        elif current is not None:
            marks.append("".join(current))
            current = None
    if current is not None:
        marks.append("".join(current))
    return tuple(marks)


@lru_cache(maxsize=4096)
def _marks_of_character(ch: str) -> str | None:
    """A word character's marks ("" for none), or None for a character between words."""
    folded = strip_diacritics(ch).lower()
    if not folded or not set(folded) <= _WORD_CHARACTERS:
        return None
    return "đ" if ch == "đ" else "".join(c for c in unicodedata.normalize("NFD", ch) if unicodedata.combining(c))


def _spellings(words: tuple[str, ...], spelling: str, *, vietnamese: bool = False) -> frozenset[tuple[str, ...]] | None:
    """The marks of a phrase's words when it is written with any (its last ``len(words)`` words); a
    Vietnamese phrase written bare is spelled bare ("ca", a shift, is not "cả")."""
    marks = accents_of(spelling)
    if len(marks) < len(words) or (not any(marks) and not vietnamese):
        return None
    return frozenset([marks[len(marks) - len(words):]])


def _merged(known: Entry | None, accents: frozenset[tuple[str, ...]] | None) -> frozenset[tuple[str, ...]] | None:
    if known is None:
        return accents
    if known.accents is None or accents is None:
        return None
    return known.accents | accents


def _add(entries: dict[tuple[tuple[str, ...], str], Entry], phrase: str, kind: str, payload: Any,
         spelling: str | None = None, *, vietnamese: bool = False) -> None:
    words = _words(phrase)
    if not words:
        return
    known = entries.get((words, kind))
    spelled = _spellings(words, spelling or phrase, vietnamese=vietnamese)
    if kind == "concept" and known is not None and known.payload != payload and spelled is not None:
        key = (words, f"concept {payload}")  # "hạng" a tier, "hàng" an ingredient: apart, each as it is spelled
        entries[key] = Entry(words, kind, payload, _merged(entries.get(key), spelled))
        return
    accents = _merged(known, spelled)
    if kind == "value":  # one spelling may name values of several dimensions ("bị hủy": an order, a line)
        alternatives = known.payload if known is not None else ()
        entries[(words, kind)] = Entry(words, kind, (*alternatives, *([] if payload in alternatives else [payload])), accents)
        return
    entries[(words, kind)] = Entry(words, kind, known.payload if known is not None else payload, accents)


def build_lexicon(catalog: SemanticCatalog, values_of: ValuesOf | None, learned: Sequence[Learned] = ()) -> tuple[Entry, ...]:
    """Every phrase the parser knows: the learned ones first (a manager's own words win), then the
    model's and the data's, longest first (so "doanh thu thuần" beats "doanh thu")."""
    return (*learned_entries(catalog, learned), *_built_in(catalog, values_of))


def learned_entries(catalog: SemanticCatalog, learned: Sequence[Learned]) -> tuple[Entry, ...]:
    """Lexicon entries for learned phrases, longest first; one whose target is gone from the semantic
    model (a renamed metric) is skipped with a warning.

    >>> from aria.semantic.catalog import Labels, MetricInfo, SemanticCatalog
    >>> cat = SemanticCatalog(metrics={"returning_customers": MetricInfo("returning_customers",
    ...     Labels("Khách quen", "Returning customers"), "people", 0, "repeat_customers")}, dimensions=())
    >>> [(e.tokens, e.payload) for e in learned_entries(cat, [("Khách ruột", "metric", "returning_customers")])]
    [(('khach', 'ruot'), 'returning_customers')]
    """
    entries: dict[tuple[tuple[str, ...], str], Entry] = {}
    for phrase, kind, target in learned:
        payload = learned_meaning(catalog, kind, target)
        if payload is None:
            log.warning("learned phrase %r skipped: %s %r is not in the semantic model", phrase, kind, target)
            continue
        _add(entries, phrase, kind, payload)
    return tuple(sorted(entries.values(), key=lambda e: -len(e.tokens)))


def learned_meaning(catalog: SemanticCatalog, kind: str, target: str) -> str | ValueMeaning | None:
    """What a learned target means to the parser: a metric or concept name, or a value; None if unknown."""
    if kind == "metric":
        return target if target in catalog.metrics else None
    if kind == "concept":
        return target if target in catalog.concepts else None
    dimension, sep, value = target.partition("=")
    model, _, name = dimension.partition(".")
    dim = catalog.dimension(model, name) if kind == "value" and sep and value else None
    return ValueMeaning(dim.semantic_model, dim.name, value, dim.concept) if dim else None


def phrase_tokens(text: str) -> tuple[str, ...]:
    """A phrase's tokens as the lexicon matches them."""
    return _words(text)


def value_target(meaning: ValueMeaning) -> str:
    """A value as a learned target: ``semantic_model.dimension=value``."""
    return f"{meaning.semantic_model}.{meaning.dimension}={meaning.value}"


def _set_side_by_side(phrase: str) -> tuple[str, ...]:
    """A concept said as two of its kinds together, with each way of setting them side by side: "khách vãng lai và
    khách thành viên" is also "... vs ..." and "... so với ..."; "members vs walk-ins" also "... versus ..."."""
    for joins in ((" và ", " với ", " vs ", " so với "), (" vs ", " versus ")):
        join = next((j for j in joins if j in phrase), None)
        if join is not None:
            return tuple(dict.fromkeys((phrase, *(phrase.replace(join, j) for j in joins))))
    return (phrase,)


def _distinctive_words(names: Sequence[str], translated: Sequence[str], taken: set[str]) -> dict[str, str]:
    """The words that name one row by themselves: a name left untranslated between the Vietnamese and the
    English names ("Heineken": "Bia Heineken" / "Heineken beer"), in one name of each, and no word of any
    other phrase of the lexicon (translated words such as "coffee" or "green" name many things).

    >>> _distinctive_words(["Bia Heineken (chai)", "Bia Saigon Special (chai)", "Cà chua"],
    ...                    ["Heineken beer (bottle)", "Saigon Special beer (bottle)", "Tomatoes"], {"bia"})
    {'heineken': 'Bia Heineken (chai)', 'saigon': 'Bia Saigon Special (chai)', 'special': 'Bia Saigon Special (chai)'}
    """
    def names_by_word(of: Sequence[str]) -> dict[str, list[str]]:
        found: dict[str, list[str]] = {}
        for name in of:
            for word in dict.fromkeys(_words(_PARENTHESES.sub(" ", name))):
                found.setdefault(word, []).append(name)
        return found

    other = names_by_word(translated)
    return {word: named[0] for word, named in names_by_word(names).items()
            if len(named) == 1 and len(other.get(word, ())) == 1 and len(word) >= 4 and word.isalpha()
            and word not in taken}


def _own_heads(names: Sequence[str], phrases: set[tuple[str, ...]], *,
               one_word: bool = False) -> dict[tuple[str, ...], str]:
    """The first words (two or more) of a longer Vietnamese name that start no other name and are found in
    none: "thịt bò" names Thịt bò thăn, "thịt ba chỉ" Thịt ba chỉ heo, "rau thơm" Rau thơm các loại; with
    ``one_word``, the first word alone of a two-word name too ("tôm": Tôm sú).

    >>> _own_heads(["Thịt bò thăn", "Thịt ba chỉ heo", "Phở bò tái", "Phở bò viên"], set())
    {('thit', 'bo'): 'Thịt bò thăn', ('thit', 'ba'): 'Thịt ba chỉ heo', ('thit', 'ba', 'chi'): 'Thịt ba chỉ heo'}
    >>> _own_heads(["Tôm sú", "Cá lóc", "Cá kèo", "Nước cốt dừa", "Dừa tươi"], set(), one_word=True)
    {('tom',): 'Tôm sú', ('nuoc', 'cot'): 'Nước cốt dừa'}
    """
    return _own_parts(_name_words(names), lambda said: [said[:size] for size in range(
        1 if one_word and len(said) == 2 else 2, len(said))], phrases)


def _own_leads(names: Sequence[str], phrases: set[tuple[str, ...]]) -> dict[tuple[str, ...], str]:
    """The two words or more an English name starts with, before what it comes "with" ("in", "on", "for"), that
    start no other name and are found in none: "beef pho" names Beef pho with rare steak and flank; and the first
    and last of three when the last is the kind of dish ("salted coffee": Salted cream coffee). A combo or a set is none of its parts, and
    holds none of them; a combo is also said without its first word.

    >>> _own_leads(["Beef pho with rare steak and flank", "Beef pho and iced coffee combo", "Chicken pho",
    ...             "Iced coffee with condensed milk", "Iced lime tea", "Beef hotpot in vinegar broth"], set())
    {('beef', 'pho'): 'Beef pho with rare steak and flank', ('iced', 'coffee'): 'Iced coffee with condensed milk', \
('iced', 'tea'): 'Iced lime tea', ('beef', 'hotpot'): 'Beef hotpot in vinegar broth', ('pho', 'and', 'iced', 'coffee', 'combo'): \
'Beef pho and iced coffee combo'}
    """
    def lead(said: tuple[str, ...]) -> list[tuple[str, ...]]:
        cut = next((i for i, word in enumerate(said) if word in ("with", "in", "on", "for")), len(said))
        return ([said[:cut]] if 2 <= cut < len(said) else []) + (
            [(said[0], said[2])] if len(said) == 3 and said[2] in _KIND_NOUNS else [])
    words = _name_words(names)
    combos = {name: said for name, said in words.items() if "combo" in said}  # "pho and iced coffee combo": Beef
    return {**_own_parts({name: said for name, said in words.items() if not {"combo", "set"} & set(said)}, lead,
                         phrases),
            **_own_parts(combos, lambda said: [said[1:]] if len(said) > 3 else [], phrases)}  # pho and iced coffee
    # combo, its first word left unsaid


_KIND_NOUNS = frozenset(["coffee", "tea", "beer", "hotpot", "juice", "smoothie", "wine", "soup"])


def _own_tails(names: Sequence[str], phrases: set[tuple[str, ...]]) -> dict[tuple[str, ...], str]:
    """The last two or three words of a business's name (where its own name comes: "Hải sản Cần Giờ", "Thịt sạch
    Phú Nông") that end no other name, are found in none and mean nothing else here.

    >>> _own_tails(["Hải sản Cần Giờ", "Sữa & Bơ Đà Lạt", "Rau Đà Lạt Xanh"], set())
    {('can', 'gio'): 'Hải sản Cần Giờ', ('san', 'can', 'gio'): 'Hải sản Cần Giờ', ('bo', 'da', 'lat'): 'Sữa & Bơ Đà Lạt', ('lat', 'xanh'): 'Rau Đà Lạt Xanh', ('da', 'lat', 'xanh'): 'Rau Đà Lạt Xanh'}
    """
    return _own_parts(_name_words(names, bundles=True),
                      lambda said: [said[-size:] for size in (2, 3) if len(said) > size], phrases)


def _given_names(names: Sequence[str], taken: set[str]) -> dict[str, str]:
    """A person's given name (a Vietnamese full name's last word), spelled as the name spells it, when one person
    alone has it and its word means nothing else here: "Quân" is Phan Đức Quân; "Hạnh" (three people) and "Tuấn"
    (bare, the "tuan" of "tuần") name no one.

    >>> _given_names(["Phan Đức Quân", "Dương Bảo Hạnh", "Dương Hữu Hạnh", "Lý Hoàng My", "Bùi Thanh Tuấn"], {"tuan"})
    {'Quân': 'Phan Đức Quân'}
    """
    by_given: dict[str, list[str]] = {}
    for name in names:
        given = name.split()[-1]
        by_given.setdefault(given, []).append(name)
    return {given: named[0] for given, named in by_given.items()
            if len(named) == 1 and len(word := normalize(given)) >= 3 and word.isalpha() and word not in taken}


def _own_parts(words: dict[str, tuple[str, ...]], parts: Callable[[tuple[str, ...]], list[tuple[str, ...]]],
               phrases: set[tuple[str, ...]]) -> dict[tuple[str, ...], str]:
    """The ``parts`` of each name's words (all letters) that one name alone has, that are found inside no other name
    and that are no phrase of their own: what names that one row by itself."""
    named_by: dict[tuple[str, ...], list[str]] = {}
    for name, said in words.items():
        for part in parts(said):
            if all(w.isalpha() for w in part):
                named_by.setdefault(part, []).append(name)
    return {part: named[0] for part, named in named_by.items() if len(named) == 1 and part not in phrases
            and not any(_inside(part, said) for name, said in words.items() if name != named[0])}


def _own_words(names: Sequence[str], taken: set[str]) -> dict[tuple[str, ...], str]:
    """The words of a short English name (three words at most) that no other name of its kind holds and that
    mean nothing else here: "beef" names Beef tenderloin, "herbs" Mixed fresh herbs ("fresh" and "rice" name
    several); a longer name's words describe it ("seafood" in Stir-fried egg noodles with seafood) and name nothing.

    >>> _own_words(["Beef tenderloin", "Broken rice", "Jasmine rice", "Fresh milk"], {"fresh"})
    {('beef',): 'Beef tenderloin', ('tenderloin',): 'Beef tenderloin', ('broken',): 'Broken rice', \
('jasmine',): 'Jasmine rice', ('milk',): 'Fresh milk'}
    """
    words = _name_words(names, bundles=True)
    named: dict[str, list[str]] = {}
    for name, said in words.items():
        for word in dict.fromkeys(said):
            named.setdefault(word, []).append(name)
    return {(word,): found[0] for word, found in named.items()
            if len(found) == 1 and len(word) >= 4 and word.isalpha() and word not in taken and len(words[found[0]]) <= 3}


def _shared_heads(names: Sequence[str], taken: set[str], phrases: set[tuple[str, ...]]) -> dict[tuple[str, ...], list[str]]:
    """The kind a Vietnamese name starts with, when it starts two names or more and is found in no other:
    "cà phê" (Cà phê sữa đá, Cà phê muối), "bia", "phở" name those rows together. A name that bundles others
    ("Combo phở bò + cà phê sữa đá") is none of them; a word found inside another name ("gà": Cơm gà, Phở
    gà) or that means something else here ("ca": a shift) names no kind.

    >>> _shared_heads(["Cà phê sữa đá", "Cà phê muối", "Combo phở bò + cà phê sữa đá", "Phở bò", "Phở gà",
    ...                "Cơm gà"], {"ca"}, set())
    {('ca', 'phe'): ['Cà phê sữa đá', 'Cà phê muối'], ('pho',): ['Phở bò', 'Phở gà']}
    """
    return _shared_kinds(_name_words(names), lambda said, size: said[:size], taken, phrases)


def _shared_tails(names: Sequence[str], taken: set[str], phrases: set[tuple[str, ...]]) -> dict[tuple[str, ...], list[str]]:
    """The kind an English name ends with (before what it comes "with", "in", "on" or "for"), when it ends two
    names or more and is found inside no other: "beer" (Heineken beer, Saigon Special beer), "tea", "fried rice"
    name those rows together. A combo or a set is none of its parts; a word found elsewhere in another name
    ("fish": Fish-sauce chicken wings) or that means something else here names no kind.

    >>> _shared_tails(["Heineken beer", "Saigon Special beer", "Thai hotpot for two with two beers", "Iced lime tea",
    ...                "Iced coffee with condensed milk", "Salted cream coffee", "Beef pho and iced coffee combo",
    ...                "Roasted milk tea"], {"milk"}, set())
    {('beer',): ['Heineken beer', 'Saigon Special beer'], ('tea',): ['Iced lime tea', 'Roasted milk tea'], \
('coffee',): ['Iced coffee with condensed milk', 'Salted cream coffee']}
    """
    kinds: dict[str, tuple[str, ...]] = {}
    for name, said in _name_words(names).items():
        cut = next((i for i, word in enumerate(said) if word in ("with", "in", "on", "for")), len(said))
        if not {"combo", "set"} & set(said):
            kinds[name] = said[:cut]
    return _shared_kinds(kinds, lambda said, size: said[-size:], taken, phrases)


def _shared_kinds(words: dict[str, tuple[str, ...]], part: Callable[[tuple[str, ...], int], tuple[str, ...]],
                  taken: set[str], phrases: set[tuple[str, ...]]) -> dict[tuple[str, ...], list[str]]:
    """The one or two words (``part`` of a name's words: its first or its last) that two names or more share,
    found inside no other name, neither a phrase of their own nor, alone, a word that means something else."""
    groups: dict[tuple[str, ...], list[str]] = {}
    for name, said in words.items():
        for size in (1, 2):
            if len(said) > size:
                groups.setdefault(part(said, size), []).append(name)
    return {kind: named for kind, named in groups.items()
            if len(named) >= 2 and len("".join(kind)) >= 3 and all(w.isalpha() for w in kind)
            and kind not in phrases and not (len(kind) == 1 and kind[0] in taken)
            and not any(_inside(kind, said) for name, said in words.items() if name not in named)}


def _name_words(names: Sequence[str], *, bundles: bool = False) -> dict[str, tuple[str, ...]]:
    """Each name's words, without what its parentheses say; a bundle of others ("A + B") left out unless asked."""
    return {name: _words(_PARENTHESES.sub(" ", name)) for name in names if bundles or "+" not in name}


def _inside(head: tuple[str, ...], said: tuple[str, ...]) -> bool:
    """The words ``head`` run somewhere in ``said``."""
    return any(said[i:i + len(head)] == head for i in range(len(said)))


def _built_in(catalog: SemanticCatalog, values_of: ValuesOf | None) -> tuple[Entry, ...]:
    entries: dict[tuple[tuple[str, ...], str], Entry] = {}
    partial_names: list[tuple[DimensionInfo, Sequence[str]]] = []
    own_names: list[tuple[DimensionInfo, Sequence[str]]] = []  # names in one language only (a supplier's)
    people: list[tuple[DimensionInfo, Sequence[str]]] = []  # people's full names, called by their given name
    concept_phrases = {_words(p) for d in catalog.dimensions for p in d.labels.phrases}
    for metric in catalog.metrics.values():
        for phrase in metric.labels.phrases:
            for words in dict.fromkeys((_words(phrase), _without_question_words(_words(phrase)))):
                unit_word = len(words) == 1 and " ".join(words) in UNITS  # "khách" alone is a unit, not a metric
                if words and not unit_word and not _names_a_split(words, concept_phrases):  # "sales by category"
                    _add(entries, " ".join(words), "metric", metric.name, spelling=phrase)
            if _words(phrase)[:2] == ("bao", "nhieu") and len(phrase.split()) > 2:  # "mấy khách": "bao nhiêu khách"
                spoken = " ".join(("mấy", *phrase.split()[2:]))
                _add(entries, spoken, "metric", metric.name, spelling=spoken)
    for dim in catalog.dimensions:
        if dim.is_time:
            continue
        vietnamese = {dim.labels.vi, *dim.labels.synonyms_vi}
        for phrase in dim.labels.phrases:
            for side_by_side in _set_side_by_side(phrase):
                _add(entries, side_by_side, "concept", dim.concept, vietnamese=phrase in vietnamese)
        for value in dim.values:
            meaning = ValueMeaning(dim.semantic_model, dim.name, value.code, dim.concept)
            for phrase in value.labels.phrases:
                _add(entries, phrase, "value", meaning)
            if len(value.code) >= 4 and not value.code.islower():  # "NO_SHOW" is said; "walk-in" is a label's
                _add(entries, value.code, "value", meaning)
        if values_of is not None and dim.names_rows and dim.name != "table_no":  # the parser reads table numbers
            names = values_of(dim.table, dim.expr)
            for name in names:
                meaning = ValueMeaning(dim.semantic_model, dim.name, name, dim.concept)
                plain = _PARENTHESES.sub(" ", name)  # "Lẩu cua đồng (mùa thu)"; "Bia Sài Gòn": Bia Saigon Special
                for spoken in dict.fromkeys((name, plain, _PLACES.sub(lambda m: _PLACE_NAMES[m[0].lower()], plain))):
                    if len(normalize(spoken)) >= 3:
                        _add(entries, spoken, "value", meaning)
            if dim.given_names:
                people.append((dim, names))
            if dim.partial_names and dim.lang:
                partial_names.append((dim, names))
            elif dim.partial_names:
                own_names.append((dim, names))
    closed = {said[0] for d in catalog.dimensions for v in d.values for p in v.labels.phrases
              if len(said := _words(p)) == 1}  # a fixed value's own word ("lunch": the shift) names no row by itself
    taken = {word for words, kind in entries if kind != "value" for word in words} | {w for p in FILLERS for w in _words(p)} \
        | closed
    for dim, names in partial_names:
        translated = next((n for d, n in partial_names if d.concept == dim.concept and d.lang != dim.lang), ())
        for word, name in _distinctive_words(names, translated, taken).items():
            for spoken in (word, *([_PLACE_NAMES[word]] if word in _PLACE_NAMES else [])):  # "sài gòn": Saigon
                _add(entries, spoken, "value", ValueMeaning(dim.semantic_model, dim.name, name, dim.concept))
    known = {words for words, _ in entries}
    for dim, names in partial_names:
        shared = _shared_heads(names, taken, known) if dim.lang == "vi" else _shared_tails(names, taken, known)
        for head, named in shared.items():
            for name in named:  # "bao nhiêu ly cà phê": the coffees, together
                _add(entries, " ".join(head), "value", ValueMeaning(dim.semantic_model, dim.name, name, dim.concept),
                     spelling=" ".join(name.split()[:len(head)]) if dim.lang == "vi" else None)
    for phrase, grain in GRAINS.items():
        _add(entries, phrase, "grain", grain)
    for phrase, verb_metric in VERBS.items():
        for spelling in SPELLINGS.get(phrase, (None,)):
            _add(entries, phrase, "verb", verb_metric, spelling, vietnamese=phrase in BARE_WORDS)
    for phrase in AVERAGE_WORDS:
        _add(entries, phrase, "average", None)
    concepts = sorted(w for (w, kind) in entries if kind == "concept")
    for marker in SINGLE_MARKERS:  # "theo loại đơn" is a split even where "đơn ..." could start a value
        marker_marks = accents_of(_MARKER_SPELLINGS.get(marker, marker))
        for concept_words in concepts:  # spelled as the concept is: "mỗi hạng" is a tier, never "mỗi hàng"
            concept = entries[(concept_words, "concept")]
            words = _words(" ".join((marker, *concept_words)))
            accents = None if concept.accents is None else frozenset((*marker_marks, *a) for a in concept.accents)
            existing = entries.get((words, "concept"))
            if existing is None or existing.payload == concept.payload:  # "mối hàng" (a supplier) stays one
                entries[(words, "concept")] = Entry(words, "concept", concept.payload, _merged(existing, accents))
    for phrase, unit in UNITS.items():
        for spelling in SPELLINGS.get(phrase, (None,)):
            _add(entries, phrase, "unit", unit, spelling)
    for phrase in CONJUNCTIONS:
        _add(entries, phrase, "conjunction", None)
    for phrase in COMPARE_WORDS:
        _add(entries, phrase, "compare", None, vietnamese=phrase in BARE_WORDS)
    for kind, phrases, shown in _ASKED_FOR:
        for phrase in phrases:
            _add(entries, phrase, kind, shown)
    for phrase in SAME_PERIOD_WORDS:
        _add(entries, phrase, "same_period", None)
    for phrase, unit in PERIOD_BEFORE_WORDS.items():
        _add(entries, phrase, "same_period", unit)
    for phrase, descending in SUPERLATIVES.items():
        _add(entries, phrase, "superlative", descending)
    for phrase in (*FILLER_PHRASES, *sorted(FILLERS)):
        _add(entries, phrase, "filler", None, vietnamese=phrase in ENGLISH_ONLY_FILLERS | BARE_WORDS)
    known = {words for words, _ in entries}  # every phrase with a meaning of its own, the fixed words too
    meaning_words = {word for words, kind in entries if kind != "value" for word in words} | closed
    for dim, names in people:
        for given, name in _given_names(names, meaning_words | {words[0] for words in known if len(words) == 1}).items():
            _add(entries, given, "value", ValueMeaning(dim.semantic_model, dim.name, name, dim.concept))
    for dim, names in own_names:
        for said, name in _own_tails(names, known).items():  # "Cần Giờ": Hải sản Cần Giờ
            _add(entries, " ".join(said), "value", ValueMeaning(dim.semantic_model, dim.name, name, dim.concept),
                 spelling=" ".join(name.split()[-len(said):]))
    for dim, names in partial_names:
        short = _own_heads(names, known, one_word=dim.one_word_heads) if dim.lang == "vi" else {
            **_own_words(names, meaning_words), **_own_leads(names, known)}
        for said, name in short.items():  # "tồn kho thịt bò": Thịt bò thăn; "beef in stock": Beef tenderloin
            _add(entries, " ".join(said), "value", ValueMeaning(dim.semantic_model, dim.name, name, dim.concept),
                 spelling=" ".join(name.split()[:len(said)]) if dim.lang == "vi" else None)
    return tuple(sorted(entries.values(), key=_match_order))


def _match_order(entry: Entry) -> tuple[float, int, int]:
    """Longer phrases first, values before names before function words; question words at the front of a
    metric's phrase count half ("khách quen" beats "bao nhiêu khách", which beats the filler "bao nhiêu")."""
    prefix = next((len(p) for p in _QUESTION_WORDS if entry.kind == "metric" and entry.tokens[:len(p)] == p), 0)
    rank = {"value": 0, "metric": 1, "concept": 1}.get(entry.kind, 2)
    return -(len(entry.tokens) - prefix / 2), rank, prefix


_QUESTION_WORDS = (("bao", "nhieu"), ("how", "many"), ("how", "much"), ("so",), ("tong",), ("total",))


def _without_question_words(words: tuple[str, ...]) -> tuple[str, ...]:
    """"bao nhiêu đơn" is the metric "đơn" asked about: the question words are the parser's business."""
    for prefix in _QUESTION_WORDS:
        if words[:len(prefix)] == prefix and len(words) > len(prefix) + 1:  # never down to one bare word
            return words[len(prefix):]
    return words


def _names_a_split(words: tuple[str, ...], concept_phrases: set[tuple[str, ...]]) -> bool:
    """True for "doanh thu theo danh mục" (a metric, a split word, a dimension); "per" makes a ratio, not a
    split ("average spend per guest"), and so does "mỗi" after an average ("khách trung bình mỗi bàn") or after
    money ("tiền mỗi khách", "doanh thu (trên) mỗi khách", "chi tiêu mỗi khách": the spend per guest)."""
    for i, word in enumerate(words[1:], start=1):
        if word in _SPLIT_WORDS and word != "per" and words[max(0, i - 2):i] not in (("trung", "binh"), ("binh", "quan")) \
                and not (word == "moi" and words[i - 1] in ("tien", "thu", "tren", "tieu")) \
                and any(words[i + 1:i + 1 + len(c)] == c for c in concept_phrases if c):  # "trung bình mỗi bàn": per
            return True
    return False

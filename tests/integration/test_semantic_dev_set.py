"""The semantic layer's development set (seed_db/questions/semantic_dev.yaml): the file loads through
the bench's loader, its entries are well formed, and every gold SQL passes the safety guard and
returns rows on the seeded SmartRestaurant database (read-only executor, as ``aria sql run``).

Questions tagged ``should_refuse`` (negations, comparisons, "why", things the database does not
hold, row listings) are ones the semantic layer must hand over; their SQL is not run here.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
import yaml

from aria.config import Settings
from aria.db.connect import Targets
from aria.db.executor import ReadOnlyExecutor
from aria.eval.golden import GoldenQuestion, load_golden
from aria.eval.semantic_bench import load_questions
from aria.paths import seed_dir

PATH = seed_dir() / "questions" / "semantic_dev.yaml"
RAW: list[dict[str, Any]] = yaml.safe_load(PATH.read_text(encoding="utf-8"))["questions"]
TAGS = {entry["id"]: tuple(entry["tags"]) for entry in RAW}
ANSWERABLE = [entry for entry in RAW if "should_refuse" not in entry["tags"]]


def _words(text: str) -> set[str]:
    return set(re.findall(r"\w+", text.lower()))


def test_the_bench_loader_reads_every_question() -> None:
    questions = load_questions(str(PATH))
    assert [q.id for q in questions] == [f"dv-{n:03d}" for n in range(1, len(RAW) + 1)]
    assert [q.question for q in questions] == [" ".join(entry["question"].split()) for entry in RAW]
    assert {q.lang for q in questions} == {"vi", "en"}


@pytest.mark.parametrize("entry", RAW, ids=[entry["id"] for entry in RAW])
def test_entry_is_a_well_formed_golden_question(entry: dict[str, Any]) -> None:
    """Every field as GoldenQuestion wants it (its id pattern knows only ex-/ev-, so the number is checked here)."""
    assert re.fullmatch(r"dv-\d{3}", entry["id"])
    GoldenQuestion.model_validate({**entry, "id": "ex-" + entry["id"][3:]})


def test_counts_languages_and_refusals() -> None:
    langs = Counter(entry["lang"] for entry in RAW)
    assert len(RAW) == 120 and langs["vi"] == langs["en"] == 60
    plain_vi = [e["id"] for e in RAW if e["lang"] == "vi" and not re.search(r"[^\x00-\x7f]", e["question"])]
    assert sorted(plain_vi) == sorted(e["id"] for e in RAW if "no_diacritics" in e["tags"])
    assert 8 <= len(plain_vi) <= 12
    assert 12 <= len(RAW) - len(ANSWERABLE) <= 18
    assert len({" ".join(e["question"].lower().split()) for e in RAW}) == len(RAW)


def test_questions_are_not_copies_of_the_examples() -> None:
    for entry in RAW:
        for example in load_golden("examples"):
            a, b = _words(entry["question"]), _words(example.question)
            assert len(a & b) / len(a | b) < 0.8, (entry["id"], example.id)


@pytest.fixture(scope="module")
def executor(seeded: Targets, settings: Settings) -> Iterator[ReadOnlyExecutor]:
    with ReadOnlyExecutor(seeded.reader, settings, pool_name="aria-dev-set") as ex:
        yield ex


@pytest.mark.parametrize("entry", ANSWERABLE, ids=[entry["id"] for entry in ANSWERABLE])
def test_gold_sql_runs_and_returns_rows(executor: ReadOnlyExecutor, entry: dict[str, Any]) -> None:
    result = executor.run(entry["sql"])  # the guard, the cost guard, a READ ONLY transaction
    assert result.rows, f"{entry['id']} returned no rows"
    assert not result.truncated

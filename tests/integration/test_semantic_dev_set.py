"""The semantic layer's development sets (seed_db/questions/semantic_dev.yaml and the independently
written semantic_dev2.yaml to semantic_dev72.yaml): each file loads through the bench's loader, its entries
are well formed, and every gold SQL passes the safety guard and returns rows on the seeded SmartRestaurant database
(read-only executor, as ``aria sql run``).

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
from aria.db.golden import GoldenQuestion, load_golden
from aria.eval.semantic_bench import load_questions
from aria.paths import seed_dir

# file name -> (id prefix, questions, refusals allowed); each file has as many vi as en questions.
SETS: dict[str, tuple[str, int, range]] = {
    "semantic_dev.yaml": ("dv", 120, range(12, 19)),
    "semantic_dev2.yaml": ("d2", 100, range(8, 13)),
    "semantic_dev3.yaml": ("d3", 100, range(0, 1)),  # harder; every question answerable by SQL
    "semantic_dev4.yaml": ("d4", 100, range(0, 1)),  # a manager's working week
    "semantic_dev5.yaml": ("d5", 100, range(0, 1)),  # held out, in the style of examples.yaml
    "semantic_dev6.yaml": ("d6", 100, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev7.yaml": ("d7", 100, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev8.yaml": ("d8", 100, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev9.yaml": ("d9", 100, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev10.yaml": ("da", 100, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev11.yaml": ("db", 100, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev12.yaml": ("dc", 100, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev13.yaml": ("dd", 100, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev14.yaml": ("de", 100, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev15.yaml": ("df", 100, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev16.yaml": ("dg", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev17.yaml": ("dh", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev18.yaml": ("di", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev19.yaml": ("dj", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev20.yaml": ("dk", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev21.yaml": ("dl", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev22.yaml": ("dm", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev23.yaml": ("dn", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev24.yaml": ("do", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev25.yaml": ("dp", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev26.yaml": ("dq", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev27.yaml": ("dr", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev28.yaml": ("ds", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev29.yaml": ("dt", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev30.yaml": ("du", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev31.yaml": ("dw", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev32.yaml": ("dx", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev33.yaml": ("dy", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev34.yaml": ("dz", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev35.yaml": ("ea", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev36.yaml": ("eb", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev37.yaml": ("ec", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev38.yaml": ("ed", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev39.yaml": ("ee", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev40.yaml": ("ef", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev41.yaml": ("eg", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev42.yaml": ("eh", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev43.yaml": ("ei", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev44.yaml": ("ej", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev45.yaml": ("ek", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev46.yaml": ("el", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev47.yaml": ("em", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev48.yaml": ("en", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev49.yaml": ("eo", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev50.yaml": ("ep", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev51.yaml": ("eq", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev52.yaml": ("er", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev53.yaml": ("es", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev54.yaml": ("et", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev55.yaml": ("eu", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev56.yaml": ("ev", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev57.yaml": ("ew", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev58.yaml": ("ey", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev59.yaml": ("ez", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev60.yaml": ("fa", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev61.yaml": ("fb", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev62.yaml": ("fc", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev63.yaml": ("fd", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev64.yaml": ("fe", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev65.yaml": ("ff", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev66.yaml": ("fg", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev67.yaml": ("fh", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev68.yaml": ("fi", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev69.yaml": ("fj", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev70.yaml": ("fk", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev71.yaml": ("fl", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev72.yaml": ("fm", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev73.yaml": ("fn", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev74.yaml": ("fo", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev75.yaml": ("fp", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev76.yaml": ("fq", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev77.yaml": ("fr", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev78.yaml": ("fs", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev79.yaml": ("ft", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev80.yaml": ("fu", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev81.yaml": ("fv", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev82.yaml": ("fw", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev83.yaml": ("fx", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev84.yaml": ("fy", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev85.yaml": ("fz", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev86.yaml": ("ga", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev87.yaml": ("gb", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev88.yaml": ("gc", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev89.yaml": ("gd", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev90.yaml": ("ge", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev91.yaml": ("gf", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev92.yaml": ("gg", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev93.yaml": ("gh", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev94.yaml": ("gi", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev95.yaml": ("gj", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev96.yaml": ("gk", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev97.yaml": ("gl", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev98.yaml": ("gm", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev99.yaml": ("gn", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev100.yaml": ("go", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev101.yaml": ("gp", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev102.yaml": ("gq", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev103.yaml": ("gr", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev104.yaml": ("gs", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev105.yaml": ("gt", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev106.yaml": ("gu", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev107.yaml": ("gv", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev108.yaml": ("gw", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev109.yaml": ("gx", 60, range(0, 1)),  # held out, written independently from examples.yaml
    "semantic_dev110.yaml": ("gy", 60, range(0, 1)),  # held out, written independently from examples.yaml
}
PATHS = {name: seed_dir() / "questions" / name for name in SETS}
RAWS: dict[str, list[dict[str, Any]]] = {
    name: yaml.safe_load(path.read_text(encoding="utf-8"))["questions"] for name, path in PATHS.items()
}
ENTRIES = [(name, entry) for name, raw in RAWS.items() for entry in raw]
ANSWERABLE = [(name, entry) for name, entry in ENTRIES if "should_refuse" not in entry["tags"]]


def _words(text: str) -> set[str]:
    return set(re.findall(r"\w+", text.lower()))


@pytest.mark.parametrize("name", SETS)
def test_the_bench_loader_reads_every_question(name: str) -> None:
    raw, prefix = RAWS[name], SETS[name][0]
    questions = load_questions(str(PATHS[name]))
    assert [q.id for q in questions] == [f"{prefix}-{n:03d}" for n in range(1, len(raw) + 1)]
    assert [q.question for q in questions] == [" ".join(entry["question"].split()) for entry in raw]
    assert {q.lang for q in questions} == {"vi", "en"}


@pytest.mark.parametrize(("name", "entry"), ENTRIES, ids=[entry["id"] for _, entry in ENTRIES])
def test_entry_is_a_well_formed_golden_question(name: str, entry: dict[str, Any]) -> None:
    """Every field as GoldenQuestion wants it (its id pattern knows only ex-/ev-, so the number is checked here)."""
    assert re.fullmatch(SETS[name][0] + r"-\d{3}", entry["id"])
    GoldenQuestion.model_validate({**entry, "id": "ex-" + entry["id"][3:]})


@pytest.mark.parametrize("name", SETS)
def test_counts_languages_and_refusals(name: str) -> None:
    raw, (_, total, refusals) = RAWS[name], SETS[name]
    langs = Counter(entry["lang"] for entry in raw)
    assert len(raw) == total and langs["vi"] == langs["en"] == total // 2
    plain_vi = [e["id"] for e in raw if e["lang"] == "vi" and not re.search(r"[^\x00-\x7f]", e["question"])]
    assert sorted(plain_vi) == sorted(e["id"] for e in raw if "no_diacritics" in e["tags"])
    assert 8 <= len(plain_vi) <= 12
    assert sum("should_refuse" in e["tags"] for e in raw) in refusals
    assert len({" ".join(e["question"].lower().split()) for e in raw}) == len(raw)


@pytest.mark.parametrize("name", SETS)
def test_questions_are_not_copies_of_the_examples(name: str) -> None:
    for entry in RAWS[name]:
        for example in load_golden("examples"):
            a, b = _words(entry["question"]), _words(example.question)
            assert len(a & b) / len(a | b) < 0.8, (entry["id"], example.id)


@pytest.fixture(scope="module")
def executor(seeded: Targets, settings: Settings) -> Iterator[ReadOnlyExecutor]:
    with ReadOnlyExecutor(seeded.reader, settings, pool_name="aria-dev-set") as ex:
        yield ex


@pytest.mark.parametrize(("name", "entry"), ANSWERABLE, ids=[entry["id"] for _, entry in ANSWERABLE])
def test_gold_sql_runs_and_returns_rows(executor: ReadOnlyExecutor, name: str, entry: dict[str, Any]) -> None:
    result = executor.run(entry["sql"])  # the guard, the cost guard, a READ ONLY transaction
    assert result.rows, f"{entry['id']} returned no rows"
    assert not result.truncated

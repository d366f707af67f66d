"""Every page renders against the seeded database without an exception."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from aria.config import Settings

MakeApp = Callable[..., AppTest]
PAGES = ["knowledge_base", "history", "sql_workbench", "evaluation", "settings"]


@pytest.mark.parametrize("page", PAGES)
def test_page_renders(make_app: MakeApp, seeded: object, page: str) -> None:
    at = make_app().run()
    at.switch_page(f"../../pages/{page}.py").run()
    assert not at.exception, at.exception
    assert at.title, "every page has a title"


def test_workbench_runs_sql_with_table_and_chart(make_app: MakeApp, seeded: object) -> None:
    at = make_app().run()
    at.switch_page("../../pages/sql_workbench.py").run()
    at.button(key="wb_run").click().run()
    assert not at.exception and not at.error
    assert len(at.dataframe[0].value) > 3
    assert at.get("plotly_chart"), "revenue by category is charted"


def test_workbench_refuses_writes(make_app: MakeApp, seeded: object) -> None:
    at = make_app().run()
    at.switch_page("../../pages/sql_workbench.py").run()
    at.text_area(key="wb_sql").input("DROP TABLE orders").run()
    at.button(key="wb_run").click().run()
    assert at.error and not at.dataframe


def test_evaluation_reads_the_latest_summary(make_app: MakeApp, settings: Settings, tmp_path: Path) -> None:
    run = tmp_path / "spider_dev"
    run.mkdir()
    summary = {
        "dataset": "spider", "overall": {"n": 4, "correct": 3, "ex": 75.0},
        "by_difficulty": {"easy": {"n": 2, "correct": 2, "ex": 100.0}, "hard": {"n": 2, "correct": 1, "ex": 50.0}},
        "by_ablation": {"full": {"n": 4, "correct": 3, "ex": 75.0}},
        "by_ablation_difficulty": {"full": {"easy": {"n": 2, "correct": 2, "ex": 100.0},
                                            "hard": {"n": 2, "correct": 1, "ex": 50.0}}},
        "errors": {"wrong_join": 1}, "mean_llm_calls": 6.5,
    }
    (run / "summary.json").write_text(json.dumps(summary))
    (tmp_path / "retrieval_spider.json").write_text(json.dumps({"recall@3": 0.91, "recall@5": 0.97}))
    at = make_app(settings.model_copy(update={"reports_dir": tmp_path})).run()
    at.switch_page("../../pages/evaluation.py").run()
    assert not at.exception
    assert at.metric[0].value == "75.0%"
    assert len(at.get("plotly_chart")) == 3  # EX by difficulty, failures, recall


def test_settings_page_validates_and_writes_toml(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    path = tmp_path / "aria.toml"
    monkeypatch.setenv("ARIA_CONFIG", str(path))
    at = make_app().run()
    at.switch_page("../../pages/settings.py").run()
    at.number_input(key="set_theta_r").set_value(11.0)
    at.button[0].click().run()
    assert at.error and "theta_r" in at.error[0].value and not path.exists()
    at.number_input(key="set_theta_r").set_value(5.5)
    at.button[0].click().run()
    assert "theta_r = 5.5" in path.read_text()


def test_every_setting_on_the_page_is_a_real_setting_with_labels_in_both_languages() -> None:
    from aria.ui.formatting import t
    from aria.ui.settings_page import EDITABLE

    assert len(set(EDITABLE)) == len(EDITABLE) and set(EDITABLE) <= set(Settings.model_fields)
    for name in EDITABLE:
        assert t(f"set_{name}", "vi") and t(f"set_{name}", "en")

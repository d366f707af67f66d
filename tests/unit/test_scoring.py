from __future__ import annotations

import pytest

from aria.config import Settings
from aria.reflect.scoring import capped, score_e, score_r, score_s


def test_score_r_weights_relevance_by_alpha() -> None:
    assert score_r(relevance=8, completeness=5, alpha=0.6) == pytest.approx(6.8)
    assert score_r(relevance=3, completeness=3, alpha=0.6) == pytest.approx(3.0)


def test_score_s_uses_paper_weights() -> None:
    s = Settings()
    weights = {"column": s.w_c, "granularity": s.w_g, "join": s.w_j, "logic": s.w_q}
    assert score_s({"column": 10, "granularity": 10, "join": 10, "logic": 10}, weights) == pytest.approx(10)
    # a bad join alone (J=1) drags S below θ_s=5 only together with another weak dimension
    assert score_s({"column": 9, "granularity": 8, "join": 1, "logic": 8}, weights) == pytest.approx(5.3)


def test_hard_finding_caps_a_dimension_whatever_the_judge_says() -> None:
    assert capped({"join": 9, "logic": 8}, {"join": 2}) == {"join": 2, "logic": 8}


def test_score_e_weights_data_by_one_minus_beta() -> None:
    assert score_e(schema=5, data=2, beta=0.2) == pytest.approx(2.6)

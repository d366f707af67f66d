"""The question embedders without sentence-transformers (numpy MiniLM, and the same model in torch) give
sentence-transformers' vectors."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from aria.kb.embed import BUNDLED_MODEL, MIN_BATCH_FOR_THREADS, _model_path, get_embedder
from aria.kb.minilm import NumpyMiniLM, TorchMiniLM, supports

TEXTS = [
    "Món bán chạy nhất?",
    "Doanh thu ca tối hôm qua theo từng danh mục?",
    "Bàn số 7 đã đợi món khai vị bao lâu?",
    "Which table has waited longest for food this lunch?",
    "table order_items: order_item_id, order_id, dish_id, quantity, unit_price (VND)",
    "",
    "giá " * 400,  # longer than the model's 256 word pieces: truncated the same way
]


@pytest.fixture(scope="module")
def path():  # type: ignore[no-untyped-def]
    return _model_path(BUNDLED_MODEL)


@pytest.fixture(scope="module")
def reference(path) -> np.ndarray:  # type: ignore[no-untyped-def]
    from sentence_transformers import SentenceTransformer

    return SentenceTransformer(str(path), device="cpu").encode(TEXTS, normalize_embeddings=True)


def test_numpy_minilm_matches_sentence_transformers(path, reference) -> None:  # type: ignore[no-untyped-def]
    fast = NumpyMiniLM(path)
    ours = np.stack([fast.encode(text) for text in TEXTS])
    assert ours.dtype == np.float32 and ours.shape == reference.shape
    assert np.abs(ours - reference).max() < 1e-5


def test_torch_minilm_matches_sentence_transformers(path, reference) -> None:  # type: ignore[no-untyped-def]
    fast = TorchMiniLM(NumpyMiniLM(path))
    ours = np.stack([fast.encode(text) for text in TEXTS])
    assert ours.dtype == np.float32 and ours.shape == reference.shape
    assert np.abs(ours - reference).max() < 1e-5


def test_bundled_model_takes_the_fast_path(path, tmp_path) -> None:  # type: ignore[no-untyped-def]
    assert supports(path)
    assert not supports(tmp_path)  # an unreadable folder falls back to sentence-transformers


def test_embedder_switches_paths_with_equal_vectors() -> None:
    embedder = get_embedder()
    few = TEXTS[:3]
    batch = (TEXTS * MIN_BATCH_FOR_THREADS)[:MIN_BATCH_FOR_THREADS]
    first = embedder.embed(few)  # numpy, unless an earlier test loaded sentence-transformers
    big = embedder.embed(batch)  # sentence-transformers
    assert np.abs(first - big[:3]).max() < 1e-5
    assert np.abs(embedder.embed(few) - first).max() < 1e-5


def test_question_embedding_does_not_import_torch() -> None:
    code = ("import sys; from aria.config import Settings; from aria.kb.embed import embedder_for; "
            "e = embedder_for(Settings(embedding_model='all-MiniLM-L6-v2')); v = e.embed(['Món bán chạy nhất?']); "
            "q = e.embed_query('Món bán chạy nhất?'); assert v.shape == (1, 384) and abs(v[0] - q).max() < 1e-5; "
            "assert 'torch' not in sys.modules and 'sentence_transformers' not in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)


def test_a_process_that_keeps_asking_moves_to_torch(path) -> None:  # type: ignore[no-untyped-def]
    import time

    from aria.kb.embed import WARM_AFTER, MiniLMEmbedder

    embedder = MiniLMEmbedder(path, BUNDLED_MODEL)
    answers = [embedder.embed([text]) for text in TEXTS[:WARM_AFTER]]
    deadline = time.monotonic() + 120
    while embedder._torch is None and time.monotonic() < deadline:  # built in the background
        time.sleep(0.2)
    assert embedder._torch is not None
    assert embedder._full is None  # sentence-transformers only for a build's batches
    for text, before in zip(TEXTS[:WARM_AFTER], answers, strict=True):
        assert np.abs(embedder.embed([text]) - before).max() < 1e-5

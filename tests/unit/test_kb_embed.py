"""Embedders are LangChain Embeddings; ARIA_EMBEDDING_MODEL picks the bundled MiniLM, a folder or a
LangChain embedding (built offline here: no call is made)."""

from __future__ import annotations

import numpy as np
import pytest
from langchain_core.embeddings import DeterministicFakeEmbedding, Embeddings
from langchain_ollama import OllamaEmbeddings
from langchain_openai import OpenAIEmbeddings
from pydantic import SecretStr

from aria.config import Settings
from aria.errors import ConfigError, KnowledgeBaseError
from aria.kb.embed import (
    BUNDLED_MODEL,
    DIMENSION,
    FakeEmbedder,
    LangChainEmbedder,
    MiniLMEmbedder,
    embedder_for,
    get_embedder,
    langchain_spec,
)


@pytest.fixture
def env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    for name in ("OPENAI_API_KEY", "ARIA_OPENAI_API_KEY", "ARIA_EMBEDDING_MODEL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("ARIA_LLM_TIMEOUT_S", "9")
    return monkeypatch


def test_the_default_is_the_bundled_minilm_as_langchain_embeddings(env: pytest.MonkeyPatch) -> None:
    embedder = embedder_for(Settings())
    assert isinstance(embedder, MiniLMEmbedder) and isinstance(embedder, Embeddings)
    assert (embedder.name, embedder.dimension) == (BUNDLED_MODEL, DIMENSION)
    assert embedder is get_embedder()
    query = np.asarray(embedder.embed_query("Món bán chạy nhất?"))
    docs = np.asarray(embedder.embed_documents(["Món bán chạy nhất?", "doanh thu"]))
    assert docs.shape == (2, DIMENSION) and np.abs(query - docs[0]).max() < 1e-5


@pytest.mark.parametrize(
    ("value", "expected"),
    [("openai:text-embedding-3-small", ("openai", "text-embedding-3-small")),
     ("Ollama:nomic-embed-text:v1.5", ("ollama", "nomic-embed-text:v1.5")),
     (BUNDLED_MODEL, None), ("/models/e5-small", None), ("C:\\models\\e5", None)],
)
def test_langchain_specs_are_told_from_folders(value: str, expected: tuple[str, str] | None) -> None:
    assert langchain_spec(value) == expected


def test_openai_embeddings_take_the_key_and_timeout_from_the_settings(env: pytest.MonkeyPatch) -> None:
    env.setenv("OPENAI_API_KEY", "sk-fake")
    env.setenv("ARIA_EMBEDDING_MODEL", "openai:text-embedding-3-small")
    embedder = embedder_for(Settings())
    assert isinstance(embedder, LangChainEmbedder) and embedder.name == "openai:text-embedding-3-small"
    inner = embedder.embeddings
    assert isinstance(inner, OpenAIEmbeddings)
    assert (inner.model, inner.request_timeout, inner.openai_api_base) == ("text-embedding-3-small", 9.0, None)
    assert isinstance(inner.openai_api_key, SecretStr) and inner.openai_api_key.get_secret_value() == "sk-fake"


def test_ollama_embeddings_are_built_with_the_timeout(env: pytest.MonkeyPatch) -> None:
    env.setenv("ARIA_EMBEDDING_MODEL", "ollama:nomic-embed-text")
    embedder = embedder_for(Settings())
    assert isinstance(embedder, LangChainEmbedder) and isinstance(embedder.embeddings, OllamaEmbeddings)
    assert embedder.embeddings.model == "nomic-embed-text"
    assert embedder.embeddings.client_kwargs == {"timeout": 9.0}


@pytest.mark.parametrize(
    ("value", "says"),
    [("openai:text-embedding-3-small", "OPENAI_API_KEY"),
     ("huggingface:intfloat/multilingual-e5-small", "langchain-huggingface"),
     ("gemini:embedding-001", "provider:model")],
)
def test_an_unusable_embedding_setting_is_a_config_error(env: pytest.MonkeyPatch, value: str, says: str) -> None:
    env.setenv("ARIA_EMBEDDING_MODEL", value)
    with pytest.raises(ConfigError) as err:
        embedder_for(Settings())
    assert says in f"{err.value} {err.value.hint}"


def test_a_langchain_embedding_gives_unit_vectors_of_its_dimension() -> None:
    embedder = LangChainEmbedder(DeterministicFakeEmbedding(size=64), "fake:64")
    seen: list[int] = []
    texts = [f"question {i}" for i in range(70)]
    vectors = embedder.embed(texts, progress=seen.append)
    assert vectors.shape == (70, 64) and vectors.dtype == np.float32 and seen == [64, 6]
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert embedder.dimension == 64
    assert np.allclose(embedder.embed(["question 3"])[0], vectors[3], atol=1e-6)
    assert np.allclose(embedder.embed_query("question 3"), vectors[3], atol=1e-6)


def test_a_failing_langchain_embedding_is_named() -> None:
    class Down(DeterministicFakeEmbedding):
        def embed_documents(self, texts: list[str]) -> list[list[float]]:
            raise ConnectionError("connection refused")

    with pytest.raises(KnowledgeBaseError, match="ollama:down failed: connection refused"):
        LangChainEmbedder(Down(size=8), "ollama:down").embed(["x"])


def test_the_fake_embedder_takes_a_dimension() -> None:
    assert FakeEmbedder(32).embed(["doanh thu"]).shape == (1, 32)
    assert len(FakeEmbedder().embed_query("doanh thu")) == DIMENSION

"""Query embeddings without sentence-transformers: the bundled MiniLM (a 6-layer BERT, mean pooling,
normalised) run in numpy, with the model's own ``tokenizer.json`` (Rust ``tokenizers``) and
``model.safetensors``, and the same forward pass in torch for a process that keeps asking.

Importing sentence-transformers costs 5-7 s of a fresh process (torch, transformers, scikit-learn);
the numpy model loads in about 0.2 s and embeds a question in a few tens of milliseconds; the torch one
(:class:`TorchMiniLM`, built from its weights once torch is imported) in about 15 ms, 1.4x faster than
sentence-transformers on one question: no padding, mask or pooler, every weight stored as its product
reads it. Both compute what sentence-transformers computes for a BERT model with mean pooling and
normalisation (checked to 1e-5 by ``tests/unit/test_kb_minilm.py``); the KB build keeps
sentence-transformers for large batches.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import torch

MAX_SEQ_LENGTH_DEFAULT = 256


def supports(path: Path) -> bool:
    """True when the folder holds a BERT model with mean pooling + normalisation in the files this
    class reads (the bundled model does; another sentence-transformers folder may not)."""
    try:
        modules = [m["type"].rsplit(".", 1)[-1] for m in json.loads((path / "modules.json").read_text())]
        pooling = json.loads((path / "1_Pooling" / "config.json").read_text())
        config = json.loads((path / "config.json").read_text())
    except (OSError, ValueError, KeyError, TypeError):
        return False
    mean_only = pooling.get("pooling_mode_mean_tokens") and not any(
        pooling.get(k) for k in ("pooling_mode_cls_token", "pooling_mode_max_tokens", "pooling_mode_mean_sqrt_len_tokens"))
    return (modules == ["Transformer", "Pooling", "Normalize"] and bool(mean_only)
            and config.get("model_type") == "bert" and config.get("hidden_act") == "gelu"
            and config.get("position_embedding_type", "absolute") == "absolute"
            and (path / "model.safetensors").is_file() and (path / "tokenizer.json").is_file())


@contextmanager
def one_blas_thread() -> Iterator[None]:
    """BLAS on one thread for a question's small products (two threads spin against each other)."""
    from threadpoolctl import threadpool_limits

    with threadpool_limits(limits=1, user_api="blas"):
        yield


def _erf(x: np.ndarray) -> np.ndarray:
    """erf (Numerical Recipes' erfc, fractional error < 1.2e-7): BERT's GELU is the exact, erf form."""
    z = np.abs(x)
    t = 1.0 / (1.0 + 0.5 * z)
    poly = -z * z - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (
        -0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277))))))))
    erfc = t * np.exp(poly)
    return np.where(x >= 0, 1.0 - erfc, erfc - 1.0)


def _layer_norm(x: np.ndarray, weight: np.ndarray, bias: np.ndarray, eps: float) -> np.ndarray:
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * weight + bias


class NumpyMiniLM:
    """One text at a time (no padding, so no attention mask): ``encode(text) -> (384,) unit vector``."""

    def __init__(self, path: Path) -> None:
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer

        config = json.loads((path / "config.json").read_text())
        try:
            max_len = int(json.loads((path / "sentence_bert_config.json").read_text())["max_seq_length"])
        except (OSError, ValueError, KeyError):
            max_len = MAX_SEQ_LENGTH_DEFAULT
        self.tokenizer = Tokenizer.from_file(str(path / "tokenizer.json"))
        self.tokenizer.no_padding()
        self.tokenizer.enable_truncation(max_len)
        # Dense weights transposed once, so that every product is x @ W (contiguous).
        self.weights = {k: np.ascontiguousarray(v.T if v.ndim == 2 and not k.startswith("embeddings.") else v,
                                                dtype=np.float32)
                        for k, v in load_file(str(path / "model.safetensors")).items()
                        if not k.endswith("position_ids")}
        self.layers = int(config["num_hidden_layers"])
        for layer in range(self.layers):  # query, key and value as one product
            p = f"encoder.layer.{layer}.attention.self."
            for part in ("weight", "bias"):
                self.weights[f"{p}qkv.{part}"] = np.concatenate(
                    [self.weights.pop(f"{p}{m}.{part}") for m in ("query", "key", "value")], axis=-1)
        self.heads = int(config["num_attention_heads"])
        self.eps = float(config.get("layer_norm_eps", 1e-12))

    def encode(self, text: str) -> np.ndarray:
        enc = self.tokenizer.encode(text)
        ids, types = np.asarray(enc.ids), np.asarray(enc.type_ids)
        w = self.weights
        x = (w["embeddings.word_embeddings.weight"][ids] + w["embeddings.position_embeddings.weight"][: len(ids)]
             + w["embeddings.token_type_embeddings.weight"][types])
        x = _layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"], self.eps)
        for layer in range(self.layers):
            x = self._block(x, f"encoder.layer.{layer}.")
        vec = x.mean(axis=0)
        return (vec / max(float(np.linalg.norm(vec)), 1e-12)).astype(np.float32)  # as Normalize

    def _dense(self, x: np.ndarray, name: str) -> np.ndarray:
        return x @ self.weights[name + ".weight"] + self.weights[name + ".bias"]

    def _block(self, x: np.ndarray, p: str) -> np.ndarray:
        n, hidden = x.shape
        d = hidden // self.heads
        q, k, v = self._dense(x, p + "attention.self.qkv").reshape(n, 3, self.heads, d).transpose(1, 2, 0, 3)
        scores = q @ k.transpose(0, 2, 1) / np.sqrt(d)
        scores = np.exp(scores - scores.max(-1, keepdims=True))
        ctx = (scores / scores.sum(-1, keepdims=True)) @ v
        attn = self._dense(ctx.transpose(1, 0, 2).reshape(n, hidden), p + "attention.output.dense")
        x = _layer_norm(attn + x, self.weights[p + "attention.output.LayerNorm.weight"],
                        self.weights[p + "attention.output.LayerNorm.bias"], self.eps)
        h = self._dense(x, p + "intermediate.dense")
        h = 0.5 * h * (1.0 + _erf(h / np.sqrt(2.0)))
        out = self._dense(h, p + "output.dense")
        return _layer_norm(out + x, self.weights[p + "output.LayerNorm.weight"],
                           self.weights[p + "output.LayerNorm.bias"], self.eps)


class TorchMiniLM:
    """:class:`NumpyMiniLM`'s forward pass in torch (one intra-op thread), sharing its tokenizer and
    weights: ``encode(text) -> (384,) unit vector``. Query, key and value stay three products (three
    384-wide products are faster than one 1,152-wide at a question's few dozen rows), each weight
    stored (in, out) and contiguous, so that ``addmm`` reads it without a transpose."""

    def __init__(self, model: NumpyMiniLM) -> None:
        import torch

        torch.set_num_threads(1)  # as sentence-transformers' questions: two threads spin against each other
        self._torch = torch
        self._tokenizer = model.tokenizer
        self._layers, self._heads, self._eps = model.layers, model.heads, model.eps
        self._w: dict[str, torch.Tensor] = {}
        for name, array in model.weights.items():
            if ".attention.self.qkv." not in name:
                self._w[name] = torch.from_numpy(array)
                continue
            for i, part in enumerate(np.split(array, 3, axis=-1)):
                self._w[name.replace(".qkv.", (".query.", ".key.", ".value.")[i])] = torch.from_numpy(
                    np.ascontiguousarray(part))

    def encode(self, text: str) -> np.ndarray:
        torch, w = self._torch, self._w
        enc = self._tokenizer.encode(text)
        ids, types = torch.tensor(enc.ids), torch.tensor(enc.type_ids)
        with torch.inference_mode():
            x = (w["embeddings.word_embeddings.weight"][ids] + w["embeddings.position_embeddings.weight"][: len(ids)]
                 + w["embeddings.token_type_embeddings.weight"][types])
            x = self._norm(x, "embeddings.LayerNorm")
            for layer in range(self._layers):
                x = self._block(x, f"encoder.layer.{layer}.")
            vec = torch.nn.functional.normalize(x.mean(dim=0), dim=0)  # as Normalize
        return vec.numpy().astype(np.float32)

    def _dense(self, x: torch.Tensor, name: str) -> torch.Tensor:
        return self._torch.addmm(self._w[name + ".bias"], x, self._w[name + ".weight"])

    def _norm(self, x: torch.Tensor, name: str) -> torch.Tensor:
        return self._torch.nn.functional.layer_norm(x, x.shape[-1:], self._w[name + ".weight"],
                                                    self._w[name + ".bias"], self._eps)

    def _block(self, x: torch.Tensor, p: str) -> torch.Tensor:
        functional = self._torch.nn.functional
        n, hidden = x.shape
        d = hidden // self._heads
        q, k, v = (self._dense(x, f"{p}attention.self.{part}").view(n, self._heads, d).transpose(0, 1)
                   for part in ("query", "key", "value"))
        # attention written out: at this size scaled_dot_product_attention takes its slow path (strided heads)
        ctx = self._torch.softmax(q @ k.transpose(1, 2) / d**0.5, dim=-1) @ v
        x = self._norm(self._dense(ctx.transpose(0, 1).reshape(n, hidden), p + "attention.output.dense") + x,
                       p + "attention.output.LayerNorm")
        h = functional.gelu(self._dense(x, p + "intermediate.dense"))
        return self._norm(self._dense(h, p + "output.dense") + x, p + "output.LayerNorm")

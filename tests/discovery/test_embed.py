"""The embedding model read straight from the wordllama wheel's files."""

from __future__ import annotations

import socket
import subprocess
import sys

import numpy as np
import pytest

from feedtui.discovery import embed
from feedtui.discovery.embed import DIM, Model, ModelUnavailable, model_files


def test_loading_and_embedding_open_no_socket(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("the model tried the network")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    for name in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE", "HF_DATASETS_OFFLINE"):
        monkeypatch.delenv(name, raising=False)
    vectors = Model.load().embed(["Sparse attention kernels", "Offloading layers to the edge"])
    assert vectors.shape == (2, DIM)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


def test_vectors_are_what_wordllama_computes_mean_pooled_and_normalized():
    """Its own inference class, given the same tensor and tokenizer file."""
    from safetensors import safe_open
    from tokenizers import Tokenizer
    from wordllama.inference import WordLlamaInference

    weights, tokenizer = model_files()
    with safe_open(str(weights), framework="np") as file:
        table = file.get_tensor(embed.TENSOR)
    theirs = WordLlamaInference(table, Tokenizer.from_file(str(tokenizer)))
    texts = ["Gang scheduling of training jobs on GPU clusters", "a a a b", "Énergie des réseaux mobiles"]
    assert np.allclose(Model.load().embed(texts), theirs.embed(texts, norm=True), atol=1e-5)


def test_an_empty_text_gets_zeros_and_meaning_is_closer_than_chance():
    model = Model.load()
    empty, cheap, fast, recipe = model.embed(["", "cheaper transformers", "efficient attention", "baking sourdough bread"])
    assert not empty.any()
    assert float(cheap @ fast) > float(cheap @ recipe)


def test_a_damaged_or_missing_weights_file_is_unavailable_not_a_crash(tmp_path):
    _, tokenizer = model_files()
    damaged = tmp_path / "weights.safetensors"
    damaged.write_bytes(b"\x10\x00\x00\x00\x00\x00\x00\x00{not json at all")
    with pytest.raises(ModelUnavailable, match="cannot be read"):
        Model(damaged, tokenizer)
    good, _ = model_files()
    short = tmp_path / "short.safetensors"
    short.write_bytes(good.read_bytes()[:100_000])
    with pytest.raises(ModelUnavailable, match="shorter"):
        Model(short, tokenizer)
    with pytest.raises(ModelUnavailable):
        Model(tmp_path / "missing", tokenizer)
    with pytest.raises(ModelUnavailable, match="tokenizer"):
        Model(good, damaged)


def test_importing_the_core_and_the_reader_loads_no_numpy_nor_model():
    code = (
        "import sys, feedtui.core, feedtui.core.engine, feedtui.ui.app, feedtui.search\n"
        "print(sorted(m for m in ('numpy', 'tokenizers', 'safetensors', 'Stemmer', 'wordllama') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"

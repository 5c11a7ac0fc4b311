"""The Python tokenizer gives the `tokenizers` library's ids for the model's file."""

from __future__ import annotations

import numpy as np
import pytest
from tokenizers import Tokenizer

from feedtui.discovery.bpe import Bpe, BpeUnavailable
from feedtui.discovery.embed import Model, model_files
from tests.core.test_discovery import papers

TEXTS = [
    "",
    " ",
    "a  b   c",
    "  leading and trailing  ",
    "naïve café — über Zoë ∑ 𝔼[x] 日本語 🙂",
    "GPU-accelerated O(n log n) k-NN on x²+y²",
    "tab\there\nnew line \u200b zero width ﬁ",
    "▁ already a meta space",
    "pipeline parallelism for large model training",
] + [p.abstract for p in papers()] + [p.title for p in papers()]


def library():
    tokenizer = Tokenizer.from_file(str(model_files()[1]))
    tokenizer.no_padding()
    tokenizer.no_truncation()
    return tokenizer


def test_the_python_tokenizer_gives_the_librarys_ids(tmp_path):
    theirs = [e.ids for e in library().encode_batch(TEXTS, add_special_tokens=False)]
    ours = Bpe.load(model_files()[1], tmp_path / "tokenizer")
    assert [ours.encode(text) for text in TEXTS] == theirs
    again = Bpe.load(model_files()[1], tmp_path / "tokenizer")  # from the prepared tables
    assert [again.encode(text) for text in TEXTS] == theirs


def test_few_texts_embed_as_many_do(tmp_path):
    model = Model.load(tmp_path / "tokenizer")
    few = model.embed(TEXTS, few=True)
    assert model._library is None  # the tokenizers library was not loaded
    many = model.embed(TEXTS)
    assert np.array_equal(few, many)


def test_damaged_prepared_tables_are_made_again_and_a_damaged_file_refused(tmp_path):
    expected = library().encode("sparse attention", add_special_tokens=False).ids
    prepared = tmp_path / "tokenizer"
    prepared.write_bytes(b"not a folder of tables")
    assert Bpe.load(model_files()[1], prepared).encode("sparse attention") == expected
    assert (prepared / "stamp.npy").exists()  # made again in its place
    (prepared / "merge_keys.npy").write_bytes(b"\x93NUMPY garbage")
    assert Bpe.load(model_files()[1], prepared).encode("sparse attention") == expected
    damaged = tmp_path / "tokenizer.json"
    damaged.write_text("{")
    with pytest.raises(BpeUnavailable):
        Bpe.load(damaged, tmp_path / "other")


def test_many_texts_tokenized_a_piece_at_a_time_give_the_librarys_ids(tmp_path, monkeypatch):
    # The library merges a text with no pre-tokenizer as one word; the model
    # merges each piece apart, and must give the same ids, pieces kept or not.
    theirs = [e.ids for e in library().encode_batch(TEXTS, add_special_tokens=False)]
    model = Model.load(tmp_path / "tokenizer")
    assert model.token_ids(TEXTS) == theirs
    assert model.token_ids(TEXTS) == theirs  # every piece now from the kept ones
    monkeypatch.setattr("feedtui.discovery.embed.PIECES_KEPT", 3)  # emptied every few pieces
    model._pieces = {}
    assert model.token_ids(list(reversed(TEXTS))) == list(reversed(theirs))
    assert len(model._pieces) <= 3

"""The lean parse (the standard library's) takes and refuses what orjson does."""

from __future__ import annotations

import pytest

from feedtui.store.files import DamagedFileError
from feedtui.store.tinydb_io import parse_database

GOOD = [
    b'{"topics": {"A": {"sig": "x", "ids": ["2609.00001", "feed:\\u00e9"]}}}',
    '{"heads": {"é": "数学 \\" \\\\ 🙂 \\ud83d\\ude42"}}'.encode(),
    b"{}",
]
BAD = [
    b"",
    b"   ",
    b"not json",
    b'{"a": {"b": NaN}}',
    b'{"a": {"b": Infinity}}',
    b'{"a": {"b": "\\ud800"}}',  # a lone surrogate
    b'{"a": {"b": "\xff"}}',  # not UTF-8
    b'{"a": {"b": 1}',  # cut short
    b'[1, 2]',
    b'{"a": 1}',
]


@pytest.mark.parametrize("raw", GOOD)
def test_lean_parse_gives_what_orjson_gives(tmp_path, raw):
    path = tmp_path / "f.json"
    assert parse_database(path, raw, lean=True) == parse_database(path, raw)


@pytest.mark.parametrize("raw", BAD)
def test_lean_parse_refuses_what_orjson_refuses(tmp_path, raw):
    path = tmp_path / "f.json"
    with pytest.raises(DamagedFileError):
        parse_database(path, raw)
    with pytest.raises(DamagedFileError):
        parse_database(path, raw, lean=True)

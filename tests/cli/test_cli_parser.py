from __future__ import annotations

import pytest

from feedtui.cli.parser import build_parser, reader_args

READER_STARTS = [
    [],
    ["--demo"],
    ["--data-dir", "/tmp/x"],
    ["--config", "c.toml", "--data-dir=/tmp/y", "--demo"],
    ["--config=", "--demo", "--demo"],
    ["--data-dir", "a", "--data-dir", "b"],
    ["--config=a=b.toml"],
]


@pytest.mark.parametrize("argv", READER_STARTS)
def test_a_bare_start_reads_as_the_parser_reads_it(argv):
    assert reader_args(argv) == build_parser().parse_args(argv)


@pytest.mark.parametrize(
    "argv",
    [
        ["refresh"],
        ["--demo", "topics"],
        ["--help"],
        ["--version"],
        ["--data-dir"],
        ["--data-dir", "--demo"],
        ["--data-dir", "-"],
        ["--data", "x"],
        ["--demo=1"],
        ["--", "x"],
        ["-x"],
    ],
)
def test_anything_else_is_left_to_the_parser(argv):
    assert reader_args(argv) is None

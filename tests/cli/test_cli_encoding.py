"""The CLI in a locale whose encoding lacks characters (ISO-8859-1, ASCII):
text as readable as it can be, JSON the same JSON, exports the same file.
Real processes, the encoding set as a locale would set it (PYTHONIOENCODING)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src"


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    """feedtui on the demo's data directory, with stdout in the encoding given ("utf-8" by default)."""
    base = tmp_path_factory.mktemp("encoding")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("FEEDTUI_", "PYTHONIOENCODING", "LC_", "LANG"))}
    env.update(PYTHONPATH=str(SRC), XDG_CONFIG_HOME=str(base / "config"), HOME=str(base))

    def feedtui(*argv: str, encoding: str = "utf-8") -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-m", "feedtui", "--demo", "--data-dir", str(base / "data"), *argv],
            env={**env, "PYTHONIOENCODING": encoding}, capture_output=True, timeout=120,
        )

    return feedtui


@pytest.mark.parametrize("encoding", ["latin-1", "ascii"])
def test_papers_and_topic_show_write_what_the_encoding_can(demo, encoding):
    """Nothing, or the lines before the first character the locale lacked,
    then a codec error and exit 2 (the usage-error code)."""
    listing = demo("papers", "Edge Inference")
    assert listing.returncode == 0
    done = demo("papers", "Edge Inference", encoding=encoding)
    assert (done.returncode, done.stderr) == (0, b"")
    lines = done.stdout.decode(encoding).splitlines()
    assert len(lines) == len(listing.stdout.decode().splitlines()) == 39
    # ● (unread) has an ASCII stand-in; a title's 𝒪 its plain form.
    assert {line[:2] for line in lines} <= {"o ", "  ", "o*", " *"} and lines[0].startswith("o ")
    assert any(" in O(n log n) Time for On-Device Vision" in line for line in lines)

    shown = demo("topic", "show", "Heterogeneous Computing", encoding=encoding)
    assert (shown.returncode, shown.stderr) == (0, b"")
    text = shown.stdout.decode(encoding)
    chart = text.splitlines()[-10:]
    assert any("####" in line for line in chart[:8])
    assert "Week of " in chart[-1]


@pytest.mark.parametrize("encoding", ["latin-1", "ascii"])
def test_json_is_the_same_json_in_ascii(demo, encoding):
    for argv in (["papers", "Edge Inference", "--json"], ["topics", "--json"]):
        plain = demo(*argv)
        done = demo(*argv, encoding=encoding)
        assert (done.returncode, done.stderr) == (0, b"")
        assert done.stdout.isascii()
        assert json.loads(done.stdout) == json.loads(plain.stdout)


def test_an_export_to_stdout_is_the_file_it_writes_whatever_the_locale(demo, tmp_path):
    assert demo("topic", "add", "Größe → Kraft", "--feed", "https://example.org/größe.xml").returncode == 0
    for format_ in ("json", "opml"):
        assert demo("export", format_, "-o", str(tmp_path / format_)).returncode == 0
        done = demo("export", format_, encoding="ascii")
        assert done.returncode == 0
        # The same bytes, but for the time of the export.
        written, out = (re.sub(rb'"exported": "[^"]*"|<dateCreated>[^<]*<', b"", data) for data in ((tmp_path / format_).read_bytes(), done.stdout))
        assert out == written
        assert "Größe → Kraft" in done.stdout.decode("utf-8")

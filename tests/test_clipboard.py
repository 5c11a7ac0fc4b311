"""The desktop clipboard tool: which one a session gets, and that it gets
the text, with real programs (fake tools: scripts on PATH that record their
stdin)."""

from __future__ import annotations

import os

import pytest

from feedtui.clipboard import clipboard_tool, copy_locally

from tests.clipboard_tools import fake_clipboard_tool


@pytest.fixture
def bin_dir(tmp_path):
    directory = tmp_path / "bin"
    directory.mkdir()
    return directory


def session(bin_dir, **variables) -> dict[str, str]:
    return {"PATH": str(bin_dir), **variables}


def test_xclip_gets_the_text_on_its_stdin(bin_dir):
    got = fake_clipboard_tool(bin_dir, "xclip")
    text = "@misc{quill2026widgets,\n  title = {{Ünïcode widgets}},\n}\n"
    assert copy_locally(text, session(bin_dir, DISPLAY=":0"), "linux") == ("xclip", "")
    assert got.read_text(encoding="utf-8") == text
    assert (bin_dir / "xclip.args").read_text().split() == ["-selection", "clipboard", "-in"]


@pytest.mark.parametrize(
    ("variables", "platform", "tools", "expected"),
    [
        ({"WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0"}, "linux", ("wl-copy", "xclip"), "wl-copy"),
        ({"DISPLAY": ":0"}, "linux", ("wl-copy", "xclip", "xsel"), "xclip"),
        ({"DISPLAY": ":0"}, "linux", ("xsel",), "xsel"),
        ({}, "linux", ("wl-copy", "xclip", "xsel"), None),  # a console: no display to copy to
        ({}, "darwin", ("pbcopy",), "pbcopy"),
        # Over SSH: only X11 forwarded to the user's own screen.
        ({"SSH_CONNECTION": "10.0.0.2 5000 10.0.0.1 22", "DISPLAY": "localhost:10.0"}, "linux", ("xclip",), "xclip"),
        ({"SSH_CONNECTION": "10.0.0.2 5000 10.0.0.1 22", "WAYLAND_DISPLAY": "wayland-0"}, "linux", ("wl-copy",), None),
        ({"SSH_TTY": "/dev/pts/3"}, "darwin", ("pbcopy",), None),
    ],
)
def test_which_tool_a_session_gets(bin_dir, variables, platform, tools, expected):
    for name in tools:
        fake_clipboard_tool(bin_dir, name)
    tool = clipboard_tool(session(bin_dir, **variables), platform)
    assert (tool.name if tool else None) == expected
    if tool:
        assert tool.argv[0] == os.path.join(bin_dir, expected)


def test_a_display_without_a_tool_is_no_tool(bin_dir):
    assert copy_locally("x", session(bin_dir, DISPLAY=":0"), "linux") == (None, "")


def test_a_tool_that_fails_is_said(bin_dir):
    fake_clipboard_tool(bin_dir, "xclip", status=1)
    assert copy_locally("x", session(bin_dir, DISPLAY=":0"), "linux") == ("xclip", "it exited with status 1")

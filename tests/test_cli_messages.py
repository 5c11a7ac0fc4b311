"""What the CLI says it did: the line a script or a person reads after a change."""

from __future__ import annotations

import pytest

from tests.test_cli_export import PAPERS, make_env


@pytest.fixture
def env(tmp_path, capsys):
    env = make_env(tmp_path, "data", papers=PAPERS)
    capsys.readouterr()
    return env


def test_follow_and_unfollow_say_when_nothing_changed(env, capsys):
    assert env.run("unfollow", "Accessibility") == 0
    assert capsys.readouterr().err == "not following Accessibility (nothing changed)\n"
    assert env.run("follow", "accessibility") == 0
    assert capsys.readouterr().err == "following Accessibility\n"
    assert env.run("follow", "Accessibility") == 0
    assert capsys.readouterr().err == "already following Accessibility (nothing changed)\n"
    assert env.run("unfollow", "Accessibility") == 0
    assert capsys.readouterr().err == "no longer following Accessibility\n"

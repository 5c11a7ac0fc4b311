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


def test_marks_count_each_paper_once(env, capsys):
    assert env.run("read", "2609.01234", "2609.01234", "2609.01240v2", "arXiv:2609.01240") == 0
    assert capsys.readouterr().err == "mark read: 2 changed, 0 already so\n"
    assert env.run("read", "2609.01234", "2609.01234v1", "https://arxiv.org/abs/2609.01234") == 0
    assert capsys.readouterr().err == "mark read: 0 changed, 1 already so\n"
    assert env.run("star", "2609.05555", "2601.99999", "2601.99999v3") == 1
    assert capsys.readouterr().err == (
        "feedtui: 2601.99999: not in the cache (refresh first, or check the id)\nstar: 1 changed, 0 already so\n"
    )


def test_the_topics_table_lines_up_wide_names_and_says_1_paper(env, capsys):
    from rich.cells import cell_len

    assert env.run("topic", "add", "羊歯の研究 🌿", "--query", "abs:ferns") == 0
    assert env.run("topic", "add", "Widgets", "--query", "abs:widgets") == 0
    capsys.readouterr()
    assert env.run("topics", "--sort", "name") == 0
    lines = capsys.readouterr().out.splitlines()
    ferns = next(line for line in lines if "羊歯" in line)
    widgets = next(line for line in lines if line.startswith("  Widgets "))
    assert "     1 paper        1 unread" in ferns
    assert "     2 papers       2 unread" in widgets
    # Every line's columns start where the others' do, on a terminal.
    assert len({cell_len(line[: line.index(" unread")]) for line in lines}) == 1
    assert len({cell_len(line[: line.index(" last 4 wk")]) for line in lines}) == 1

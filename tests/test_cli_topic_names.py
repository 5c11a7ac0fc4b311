"""What may name a topic, as `feedtui topic add` and the imports see it: one
rule (topics/names.py), the one the app's topic form keeps too."""

from __future__ import annotations

import json

import pytest

from tests.test_cli_export import make_env


@pytest.fixture
def env(tmp_path, capsys):
    env = make_env(tmp_path, "data")
    env.config = tmp_path / "data-config.toml"
    env.config.write_text('[[topic]]\nname = "Sparse"\nquery = "abs:sparse"\n')
    assert env.run("topic", "add", "Lab blog", "--feed", "https://lab.example.org/atom.xml") == 0
    capsys.readouterr()
    return env


def topics(env, capsys) -> dict[str, dict]:
    capsys.readouterr()
    assert env.run("topics", "--json") == 0
    return {t["name"]: t for t in json.loads(capsys.readouterr().out)}


@pytest.mark.parametrize(
    ("typed", "taken"),
    [
        ("Heterogeneous Computing", "Heterogeneous Computing"),  # the catalogue's
        ("Lab blog", "Lab blog"),  # the user's
        ("Sparse", "Sparse"),  # the config file's
        ("edge inference", "Edge Inference"),  # another spelling of the catalogue's
        ("  LAB   Blog ", "Lab blog"),  # as stored: spaces cleaned
    ],
)
def test_topic_add_refuses_a_name_that_is_taken_and_points_at_edit(env, capsys, typed, taken):
    before = topics(env, capsys)
    assert env.run("topic", "add", typed, "--query", "ti:zzz") == 2
    captured = capsys.readouterr()
    assert captured.err == (
        f"feedtui: there is a topic called '{taken}' already: feedtui topic edit '{taken}' changes it\n"
    )
    assert "added" not in captured.err
    assert topics(env, capsys) == before


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("★ Starred", "'★ Starred' is the reading list's name; choose another name for a topic"),
        ("★ starred", "'★ Starred' is the reading list's name; choose another name for a topic"),
        ("   ", "a topic needs a name"),
        ("\x1b[31m\x07\t", "a topic needs a name"),
        ("x" * 121, "a topic name has at most 120 characters"),
    ],
)
def test_topic_add_refuses_a_name_the_app_could_not_show(env, capsys, typed, message):
    before = topics(env, capsys)
    assert env.run("topic", "add", typed, "--query", "ti:zzz") == 2
    assert capsys.readouterr().err == f"feedtui: {message}\n"
    assert topics(env, capsys) == before


def test_a_name_with_control_characters_is_stored_without_them(env, capsys):
    assert env.run("topic", "add", "Red\x1b[31m\x07 alert", "--query", "ti:zzz") == 0
    assert capsys.readouterr().err == "added Red alert: query ti:zzz\n"
    assert "Red alert" in topics(env, capsys)

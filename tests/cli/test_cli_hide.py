"""`hide` in the config: `feedtui papers` and `topics --json` leave its papers
out, as the reader does, and a bad query is a config problem with its caret."""

from __future__ import annotations

import json

from feedtui.cli import main
from feedtui.config import load_config
from feedtui.core.engine import Engine

from tests.core.test_hide import NOW, papers

CONFIG = (
    "[general]\nauto_refresh = false\nhide = {hide}\n\n"
    '[[topic]]\nname = "Widgets"\nquery = "abs:widget"\n'
)


def setup(tmp_path, hide: str):
    config = tmp_path / "config.toml"
    config.write_text(CONFIG.format(hide=json.dumps(hide)), encoding="utf-8")
    data = tmp_path / "data"
    engine = Engine(load_config(config), data, clock=lambda: NOW)
    engine.cache.store(papers(), {}, NOW)
    engine.close()

    def run(*args: str) -> int:
        return main([*args, "--data-dir", str(data), "--config", str(config)])

    return run


def test_papers_and_topics_leave_the_hidden_out_and_say_how_many(tmp_path, capsys, monkeypatch, closed_port):
    run = setup(tmp_path, "ti:survey*")
    # Offline: the past window's count of arXiv's new papers is not had.
    monkeypatch.setenv("FEEDTUI_ARXIV_API_URL", f"http://127.0.0.1:{closed_port}/api/query")
    assert run("papers", "Widgets", "--json") == 0
    assert [p["id"] for p in json.loads(capsys.readouterr().out)] == ["2611.00001", "2611.00003"]
    assert run("topics", "--json", "--as-of", "2026-11-27T18:00:00Z") == 0
    widgets = next(t for t in json.loads(capsys.readouterr().out) if t["name"] == "Widgets")
    assert (widgets["papers"], widgets["unread"]) == (2, 2)
    assert widgets["momentum"]["hidden"] == 2
    assert "(2 hidden, not counted)" in widgets["momentum"]["sentence"]


def test_a_bad_hide_query_is_a_problem_with_its_caret_and_hides_nothing(tmp_path, capsys):
    run = setup(tmp_path, "ti:(survey")
    capsys.readouterr()
    assert run("papers", "Widgets", "--json") == 0
    captured = capsys.readouterr()
    assert len(json.loads(captured.out)) == 4
    assert (
        'general.hide = "ti:(survey": expected a topic query (docs/queries.md): unbalanced parenthesis at column 4 '
        "(this ( is never closed); nothing is hidden until it is fixed\n    ti:(survey\n       ^"
    ) in captured.err

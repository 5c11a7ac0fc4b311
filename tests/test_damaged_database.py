"""A damaged database file: the app still opens, says which file and where the
damaged copy was kept, and recovers user state from the last good copy.

Each file of a data directory is damaged three ways — cut short, garbage, and
valid JSON of the wrong shape — then the engine is opened and the library
loaded exactly as the CLI and the TUI do.
"""

from __future__ import annotations

import json
import shutil
from datetime import datetime
from pathlib import Path

import pytest

from feedtui.cli import main
from feedtui.config import Config
from feedtui.core.engine import Engine
from feedtui.model import UTC, TopicDefinition
from feedtui.sources.base import Validators

from tests.factories import make_paper

NOW = datetime(2026, 11, 27, 18, 0, tzinfo=UTC)
FEED = "https://lab.example.org/atom.xml"
WEEK = "2026-11-23"  # the week of 2611.00001 and 2611.00002
OTHER_WEEK = "2026-11-09"


def open_engine(data_dir: Path) -> Engine:
    config = Config()
    config.settings.auto_refresh = False
    return Engine(config, data_dir, background_writes=False, clock=lambda: NOW)


@pytest.fixture
def data(tmp_path) -> Path:
    """A data directory in use: a topic, a follow, marks, cached papers, tags, validators."""
    directory = tmp_path / "data"
    engine = open_engine(directory)
    engine.add_topic("Widgets", TopicDefinition(query="abs:widget"))
    engine.cache.store(
        [
            make_paper("2611.00001", abstract="A widget network.", published="2026-11-25T10:00:00"),
            make_paper("2611.00002", abstract="Widgets and gadgets.", published="2026-11-24T10:00:00"),
            make_paper("2611.00003", abstract="An older widget.", published="2026-11-10T10:00:00"),
        ],
        {},
        NOW,
    )
    engine.load_library()
    engine.retag(["Widgets"])
    engine.follow("Widgets")
    engine.mark_read(["2611.00001"])
    engine.star(["2611.00002"])
    engine.fetch_state.save(validators={FEED: Validators(etag='"v1"')})
    engine.close()
    open_engine(directory).close()  # a good start keeps state.json.bak
    return directory


def cut_short(path: Path) -> None:
    raw = path.read_bytes()
    path.write_bytes(raw[: len(raw) // 2])


def garbage(path: Path) -> None:
    path.write_bytes(b"\x00\x1b[2J\xff\xfe not a database \x00")


WRONG_SHAPES = {
    "state.json": {"follows": {"Widgets": {"since": "x"}}, "read": {"2611.00001": 5}},
    "http.json": {"validators": {FEED: {"etag": ["not", "text"]}}},
    "cache/tags.json": {"topics": {"Widgets": {"sig": "x", "ids": 7}}},
    f"cache/index/{WEEK}.json": {"cards": {"2611.00001": ["not", "a", "card"]}},
    f"cache/heads/{WEEK}.json": {"heads": {"2611.00001": {"not": "text"}}},
    f"cache/papers/{WEEK}.json": {"papers": {"2611.00001": {"title": "no date"}}},
}


def wrong_shape(path: Path, relative: str) -> None:
    path.write_text(json.dumps(WRONG_SHAPES[relative]))


DAMAGES = {
    "cut short": lambda path, relative: cut_short(path),
    "garbage": lambda path, relative: garbage(path),
    "wrong shape": wrong_shape,
    "not an object": lambda path, relative: path.write_text("[1, 2, 3]"),
}


def damage(data: Path, relative: str, how: str) -> Path:
    path = data / relative
    assert path.exists(), relative
    DAMAGES[how](path, relative)
    return path


def message_about(engine: Engine, path: Path) -> str:
    messages = [m for m in engine.problems.messages if str(path) in m]
    assert len(messages) == 1, engine.problems.messages
    return messages[0]


def kept_copy(path: Path, message: str) -> Path:
    """The damaged file kept aside, named in the message."""
    kept = [p for p in path.parent.glob(path.name + ".damaged-*")]
    assert len(kept) == 1, list(path.parent.iterdir())
    assert kept[0].name in message
    return kept[0]


def reopen_is_quiet(data: Path) -> Engine:
    """The repair stuck: the next start has nothing to say."""
    engine = open_engine(data)
    engine.load_library()
    assert engine.problems.messages == []
    return engine


HOW = list(DAMAGES)


@pytest.mark.parametrize("how", HOW)
def test_damaged_state_is_restored_from_the_backup(data, how):
    path = damage(data, "state.json", how)
    damaged_bytes = path.read_bytes()
    engine = open_engine(data)
    library = engine.load_library()
    message = message_about(engine, path)
    assert "restored your follows, read marks, stars and topics" in message
    assert kept_copy(path, message).read_bytes() == damaged_bytes
    assert [e.name for e in engine.followed()] == ["Widgets"]
    assert engine.state.read_ids() == {"2611.00001"}
    assert engine.state.starred_ids() == {"2611.00002"}
    assert library.unread_count("Widgets") == 2
    engine.close()
    reopen_is_quiet(data).close()


@pytest.mark.parametrize("how", ["removed", "emptied"])
def test_a_missing_or_emptied_state_file_is_restored_from_the_backup(data, how):
    """state.json deleted or emptied while feedtui was closed (a cleanup
    script, a sync tool): the next start began empty without a word, and the
    start after that wrote the empty state over the backup that held it all."""
    path = data / "state.json"
    if how == "removed":
        path.unlink()
    else:
        path.write_text("{}")
    engine = open_engine(data)
    message = message_about(engine, path)
    assert "was missing or empty; restored your follows, read marks, stars and topics" in message
    assert "remove state.json.bak too" in message
    assert [e.name for e in engine.followed()] == ["Widgets"]
    assert engine.state.read_ids() == {"2611.00001"} and engine.state.starred_ids() == {"2611.00002"}
    engine.close()
    reopen_is_quiet(data).close()
    assert json.loads((data / "state.json.bak").read_text())["follows"]


def test_a_state_the_user_emptied_stays_empty(data):
    """Unfollowing, unmarking and unstarring everything is not damage: the
    next start keeps it so, quietly (the backup of the start before holds it all)."""
    engine = open_engine(data)
    engine.unfollow("Widgets")
    engine.mark_unread(["2611.00001"])
    engine.unstar(["2611.00002"])
    engine.remove_topic("Widgets")
    engine.close()
    engine = reopen_is_quiet(data)
    assert engine.state.follows() == set() and engine.state.read_ids() == set()
    assert engine.state.starred_ids() == set() and "Widgets" not in engine.registry
    engine.close()


def test_a_fresh_start_beside_an_empty_backup_is_quiet(tmp_path):
    directory = tmp_path / "data"
    engine = open_engine(directory)
    engine.state.set_pref("theme", "nord")  # a state.json holding no follows, marks, stars or topics
    engine.close()
    open_engine(directory).close()  # and its backup
    (directory / "state.json").unlink()
    engine = open_engine(directory)
    assert engine.problems.messages == [] and engine.state.follows() == set()
    engine.close()


def test_damaged_state_and_damaged_backup_keep_both_and_say_so(data):
    garbage(data / "state.json")
    wrong_shape(data / "state.json.bak", "state.json")
    engine = open_engine(data)
    engine.load_library()
    message = message_about(engine, data / "state.json")
    assert "no good backup" in message and "your data is still in that file" in message
    kept_copy(data / "state.json", message)
    assert engine.state.follows() == set()
    engine.close()


@pytest.mark.parametrize("how", HOW)
def test_damaged_fetch_state_is_kept_and_every_source_fetched_again(data, how):
    path = damage(data, "http.json", how)
    engine = open_engine(data)
    engine.load_library()
    message = message_about(engine, path)
    assert "fetched in full once" in message
    kept_copy(path, message)
    assert engine.fetch_state.validators(FEED).empty
    assert engine.state.follows() == {"Widgets"}
    engine.close()
    reopen_is_quiet(data).close()


@pytest.mark.parametrize("how", HOW)
def test_damaged_tags_are_kept_and_recomputed(data, how):
    path = damage(data, "cache/tags.json", how)
    engine = open_engine(data)
    library = engine.load_library()
    message = message_about(engine, path)
    assert "recomputed" in message
    kept_copy(path, message)
    assert "Widgets" in engine.stale_topics and library.unread_count("Widgets") == 0
    engine.retag(["Widgets"])
    assert library.unread_count("Widgets") == 2
    engine.close()
    reopen_is_quiet(data).close()


@pytest.mark.parametrize("relative", [f"cache/index/{WEEK}.json", f"cache/heads/{WEEK}.json"])
@pytest.mark.parametrize("how", HOW)
def test_damaged_index_or_heads_are_rebuilt_from_the_papers(data, relative, how):
    path = damage(data, relative, how)
    engine = open_engine(data)
    library = engine.load_library()
    message = message_about(engine, path)
    assert "rebuilt" in message
    kept_copy(path, message)
    assert sorted(library.ids) == ["2611.00001", "2611.00002", "2611.00003"]
    assert library.unread_count("Widgets") == 2
    assert engine.cache.head(WEEK, "2611.00001") == "A widget network."
    assert engine.paper("2611.00002").abstract == "Widgets and gadgets."
    engine.close()
    reopen_is_quiet(data).close()


@pytest.mark.parametrize("how", HOW)
def test_damaged_papers_are_set_aside_and_fetched_again(data, how):
    path = damage(data, f"cache/papers/{WEEK}.json", how)
    engine = open_engine(data)
    library = engine.load_library()
    message = message_about(engine, path)
    assert "fetched again" in message
    kept_copy(path, message)
    # The week's cards are gone with its papers: no card points at a missing paper.
    assert sorted(library.ids) == ["2611.00003"]
    assert library.rows[library.pos["2611.00003"]].shard == OTHER_WEEK
    assert engine.paper("2611.00003") is not None
    # Validators are forgotten, so the next refresh does not get a 304 for them.
    assert engine.fetch_state.validators(FEED).empty
    # What the user set is untouched.
    assert engine.state.read_ids() == {"2611.00001"} and engine.state.starred_ids() == {"2611.00002"}
    engine.close()
    reopen_is_quiet(data).close()


def test_the_cli_prints_the_message_and_still_works(data, capsys, tmp_path):
    garbage(data / "state.json")
    config = tmp_path / "config.toml"
    config.write_text("")
    code = main(["topics", "--json", "--data-dir", str(data), "--config", str(config)])
    out, err = capsys.readouterr()
    assert code == 0
    assert f"feedtui: {data / 'state.json'} was damaged" in err
    widgets = next(t for t in json.loads(out) if t["name"] == "Widgets")
    assert widgets["following"] is True and widgets["unread"] == 2


@pytest.mark.parametrize("relative", [f"cache/papers/{WEEK}.json", f"cache/index/{WEEK}.json", "cache/tags.json"])
def test_the_cli_tells_of_damage_found_while_reading_the_cache(data, capsys, tmp_path, relative):
    """Found when the command loads the library, after the start-up messages were
    printed: once the damaged file was set aside silently, and the next command
    had nothing left to say."""
    path = damage(data, relative, "cut short")
    config = tmp_path / "config.toml"
    config.write_text("")
    code = main(["papers", "Widgets", "--data-dir", str(data), "--config", str(config)])
    err = capsys.readouterr().err
    assert code == 0
    assert f"feedtui: {path} is damaged" in err or f"feedtui: {path} was damaged" in err
    assert f"{path.name}.damaged-" in err  # where the damaged copy was kept


async def test_damage_found_while_storing_is_told_and_fetched_again(tmp_path, httpserver):
    from datetime import datetime, timezone

    from feedtui.config import Config
    from feedtui.core.engine import Engine
    from feedtui.model import TopicDefinition
    from feedtui.sources.base import Validators

    from tests.atom import Entry, api_feed
    from tests.factories import make_paper

    feed = api_feed([Entry("2609.00077", title="New widget", summary="A widget.", published="2026-09-29T10:00:00Z")])
    httpserver.expect_request("/feed.xml").respond_with_data(feed, content_type="application/atom+xml")
    engine = Engine(Config(), tmp_path / "data", background_writes=False)
    engine.add_topic("Widgets", TopicDefinition(feeds=(httpserver.url_for("/feed.xml"),)))
    engine.follow("Widgets")
    engine.cache.store([make_paper("2609.00001", published="2026-09-28T10:00:00")], {})
    engine.load_library()
    assert "2609.00001" in engine.library.pos
    engine.fetch_state.save(validators={"http://elsewhere/feed.xml": Validators(etag='"x"')})
    (tmp_path / "data/cache/papers/2026-09-28.json").write_bytes(b"\x00 damaged")
    report = await engine.refresh(now=datetime(2026, 10, 1, tzinfo=timezone.utc))
    assert any("damaged" in note for note in report.notes)
    assert "2609.00001" not in engine.library.pos  # its week was set aside
    assert engine.fetch_state.validators("http://elsewhere/feed.xml").empty
    assert list((tmp_path / "data/cache/papers").glob("2026-09-28.json.damaged-*"))
    engine.close()


@pytest.mark.parametrize("relative", ["cache/tags.json", f"cache/index/{WEEK}.json"])
def test_a_folder_where_a_file_should_be_is_named_not_a_traceback(data, capsys, tmp_path, relative):
    """A folder in place of cache/tags.json ended `feedtui topics` in an IsADirectoryError traceback."""
    from feedtui.ui.run import run_tui

    path = data / relative
    path.unlink()
    path.mkdir()
    config = tmp_path / "config.toml"
    config.write_text("")
    code = main(["papers", "Widgets", "--data-dir", str(data), "--config", str(config)])
    err = capsys.readouterr().err
    assert code == 1
    said = [f"feedtui: cannot read {path}: it is a folder, where feedtui keeps a file (move it away)"]
    assert err.splitlines() == said
    assert run_tui(Config(), data) == 1
    assert capsys.readouterr().err.splitlines() == said


@pytest.mark.parametrize("relative", ["cache/papers", "cache"])
def test_a_file_where_a_folder_should_be_is_named_and_said_so(data, capsys, tmp_path, relative):
    """A file in place of cache/papers was told as "cannot read …/cache/papers: File exists"."""
    from feedtui.ui.run import run_tui

    path = data / relative
    shutil.rmtree(path)
    path.write_text("not a folder")
    config = tmp_path / "config.toml"
    config.write_text("")
    code = main(["papers", "Widgets", "--data-dir", str(data), "--config", str(config)])
    [said] = capsys.readouterr().err.splitlines()
    assert code == 1
    assert said.startswith("feedtui: cannot use ") and str(data / "cache") in said
    assert said.endswith(": it, or a folder on its path, is a file where feedtui keeps a folder (move it away)")
    assert run_tui(Config(), data) == 1
    assert capsys.readouterr().err.splitlines() == [said]
    assert path.read_text() == "not a folder"  # left as it was


@pytest.mark.parametrize(
    "command",
    [
        ["topics"], ["papers", "Widgets"], ["follow", "Widgets"], ["star", "2611.00003"],
        ["export", "json"], ["export", "bibtex", "2611.00002"], ["export", "opml"],
        ["topic", "show", "Widgets"], ["topic", "rm", "Widgets"], ["topic", "edit", "Widgets", "--description", "d"],
    ],
)
def test_every_command_tells_that_state_was_restored_from_the_backup(data, capsys, tmp_path, command):
    """Reported as missing from export json, topic show and topic rm; every
    command prints the engine's problems in one place (cli/dispatch.py's _run_command)."""
    cut_short(data / "state.json")
    config = tmp_path / "config.toml"
    config.write_text("")
    main([*command, "--data-dir", str(data), "--config", str(config)])
    err = capsys.readouterr().err
    assert f"feedtui: {data / 'state.json'} was damaged" in err and "restored your follows" in err, err


def test_a_command_tells_of_state_damaged_while_it_ran(tmp_path):
    """state.json damaged while a command runs (a refresh waiting on a slow
    feed) is found when the command next reads or saves it: the file was kept
    aside and the command's state written back without a word, because the
    message went to a callback only the reader set."""
    import os
    import subprocess
    import sys

    from tests.held_feeds import held_feeds

    data = tmp_path / "data"
    config = tmp_path / "config.toml"
    config.write_text("[general]\nauto_refresh = false\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("FEEDTUI_")}
    env["PYTHONPATH"] = os.pathsep.join(sys.path)
    base = [sys.executable, "-m", "feedtui", "--data-dir", str(data), "--config", str(config)]
    with held_feeds(["Prompt widget"], ["Late widget"]) as feeds:
        for args in (["topic", "add", "Held", "--feed", feeds.held_url], ["follow", "Held"]):
            subprocess.run([*base, *args], check=True, capture_output=True, env=env)
        refresh = subprocess.Popen([*base, "refresh"], stderr=subprocess.PIPE, text=True, env=env)
        try:
            assert feeds.asked.wait(10)
            garbage(data / "state.json")
        finally:
            feeds.release.set()
            _, err = refresh.communicate(timeout=30)
    assert refresh.returncode == 0, err
    assert f"feedtui: {data / 'state.json'} was damaged while feedtui ran" in err, err
    kept = list(data.glob("state.json.damaged-*"))
    assert len(kept) == 1 and kept[0].name in err
    assert json.loads((data / "state.json").read_text())["follows"].keys() == {"Held"}

"""What the CLI says it did: the line a script or a person reads after a change."""

from __future__ import annotations

import pytest

from tests.cli.test_cli_export import PAPERS, make_env


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


@pytest.mark.parametrize("command", [["read"], ["star"], ["export", "bibtex"]])
def test_what_is_not_a_paper_id_is_a_usage_error_that_says_so(env, capsys, command):
    """`read 1234` and `read ""` were told "not in the cache (refresh first,
    or check the id)" and exited 1, as a paper not fetched yet is."""
    assert env.run(*command, "2609.01234", "1234", "", "2609.01240V2") == 2
    assert capsys.readouterr() == ("", (
        "feedtui: not a paper id: '1234', '', '2609.01240V2' (an arXiv id such as 2609.01234, 2609.01234v2 "
        "or arXiv:2609.01234, or a web: id as feedtui papers lists it)\n"
    ))
    if command != ["export", "bibtex"]:  # and the id among them was left as it was
        assert env.run(*command, "2609.01234") == 0
        assert capsys.readouterr().err.endswith(": 1 changed, 0 already so\n")
    # A web: id is a paper id, not in the cache or not.
    assert env.run(*command, "web:0123456789abcdef") == 1
    assert capsys.readouterr().err.startswith("feedtui: web:0123456789abcdef: not in the cache (refresh first, or check the id)\n")


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


@pytest.mark.parametrize(
    ("url", "problem"),
    [
        ("http://127.0.0.1:99999/x", "feed URL has an invalid port (a port is a number from 1 to 65535): http://127.0.0.1:99999/x"),
        ("http://127.0.0.1:0/x", "feed URL has an invalid port (a port is a number from 1 to 65535): http://127.0.0.1:0/x"),
        ("http://", "feed URL names no host: http://"),
        ("http://:8080/x", "feed URL names no host: http://:8080/x"),
        ("http://[::1", "feed URL is malformed (a host in [ ] must be an IPv6 address, like [2001:db8::1]): http://[::1"),
        ("http://[nope]/x", "feed URL is malformed (a host in [ ] must be an IPv6 address, like [2001:db8::1]): http://[nope]/x"),
        ("ftp://example.org/feed", "feed URL must start with http:// or https://: ftp://example.org/feed"),
        ("http://example.org/\x1b[31mred", "feed URL has a space or control character: http://example.org/\\x1b[31mred"),
        ("http://example.org/a\x1bb.xml", "feed URL has a space or control character: http://example.org/a\\x1bb.xml"),
    ],
)
def test_topic_add_refuses_a_feed_url_that_could_never_be_fetched(env, capsys, url, problem):
    """Such URLs were stored, and every refresh then failed on them, port
    99999 with "unexpected error: ExceptionGroup(...)"; an escape sequence was
    echoed raw to the terminal."""
    assert env.run("topic", "add", "My lab blog", "--feed", url) == 2
    err = capsys.readouterr().err
    assert err == f"feedtui: {problem}\n"
    assert "\x1b" not in err
    assert env.run("topic", "show", "My lab blog") == 2


def test_topic_add_takes_the_scheme_in_any_case_and_stores_it_in_lower_case(env, capsys):
    assert env.run("topic", "add", "Lab", "--feed", "HTTP://lab.example.org/Feed.xml", "--feed", "Https://b.example.org/") == 0
    assert capsys.readouterr().err == "added Lab: feeds http://lab.example.org/Feed.xml https://b.example.org/\n"
    assert env.run("export", "opml") == 0
    out = capsys.readouterr().out
    assert 'xmlUrl="http://lab.example.org/Feed.xml"' in out and "HTTP:" not in out


def test_a_feed_url_stored_before_the_check_fails_in_words_and_is_never_echoed_raw(env, capsys):
    """Topics saved by an older feedtui may hold such URLs; a refresh said
    "unexpected error: ExceptionGroup(...)" for port 99999 and printed the
    URL's escape sequence to the terminal."""
    from feedtui.config import load_config
    from feedtui.core.engine import open_engine

    engine = open_engine(load_config(env.tmp / "data-config.toml"), env.data, background_writes=False)
    engine.state.put_topic("Old lab", {"feeds": ["http://127.0.0.1:99999/x", "http://127.0.0.1:9/\x1b[31mred"]})
    engine.close()
    assert env.run("follow", "Old lab") == 0
    capsys.readouterr()
    assert env.run("refresh", "Old lab") == 1
    err = capsys.readouterr().err
    assert "\x1b" not in err
    assert err.splitlines()[:2] == [
        "feedtui: failed: Old lab (http://127.0.0.1:99999/x): invalid URL 'http://127.0.0.1:99999/x': port 99999 is not from 1 to 65535",
        "feedtui: failed: Old lab (http://127.0.0.1:9/red): invalid URL 'http://127.0.0.1:9/red': "
        "Invalid non-printable ASCII character in URL, '\\x1b' at position 19.",
    ]


def test_a_config_feed_url_with_an_escape_is_quoted_as_toml_writes_it_never_raw(tmp_path, capsys):
    """A [[topic]] feed with an ESC was left out, but its message printed the
    raw escape sequence on every command that read the config."""
    from feedtui.cli import main

    config = tmp_path / "config.toml"
    config.write_text('[[topic]]\nname = "Red"\nfeeds = ["http://127.0.0.1:8000/a\\u001b[31mRED.xml"]\n', encoding="utf-8")
    assert main(["--config", str(config), "--data-dir", str(tmp_path / "data"), "config", "--check"]) == 1
    err = capsys.readouterr().err
    assert "\x1b" not in err
    assert '"http://127.0.0.1:8000/a\\u001b[31mRED.xml" is not valid in feeds: it has a space or control character' in err, err


def test_large_counts_have_thousands_separators(tmp_path, capsys, monkeypatch, closed_port):
    """`feedtui topics` said 1202 papers and the sentence 1200 papers, where
    the reader's list says Latest papers (1,202)."""
    from rich.cells import cell_len

    from tests.factories import make_paper

    widgets = [
        make_paper(f"2611.{n:05d}", abstract="A widget.", published=f"2026-11-{23 + n % 4:02d}T10:00:00")
        for n in range(1, 1_201)
    ]
    env = make_env(tmp_path, "data", papers=[*PAPERS, *widgets])
    assert env.run("topic", "add", "Widget", "--query", "abs:widget") == 0
    assert env.run("topic", "add", "Ferns", "--query", "abs:ferns") == 0
    as_of = ("--as-of", "2026-11-27T18:00:00Z")
    # Offline: the past window's count of arXiv's new papers is not had.
    monkeypatch.setenv("FEEDTUI_ARXIV_API_URL", f"http://127.0.0.1:{closed_port}/api/query")
    capsys.readouterr()
    assert env.run("topics", "--sort", "name", *as_of) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "  1,202 papers   1,202 unread  1,200 last 4 wk (prev 0)" in next(line for line in lines if "Widget " in line)
    assert len({cell_len(line[: line.index(" last 4 wk")]) for line in lines}) == 1
    assert env.run("topic", "show", "Widget", *as_of) == 0
    shown = capsys.readouterr().out.splitlines()
    assert "papers: 1,202, unread: 1,202" in shown
    assert "1,200 papers in the last four weeks, against 0 the four weeks before. 100% of the papers in your cache." in shown
    assert shown[-2].split()[-1] == "1,200"  # the chart's count of this week
    assert env.run("read", *(p.id for p in widgets)) == 0
    assert capsys.readouterr().err == "mark read: 1,200 changed, 0 already so\n"

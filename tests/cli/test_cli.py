"""The CLI end to end against a real arXiv-shaped server on 127.0.0.1."""

from __future__ import annotations

import base64
import json
from urllib.parse import parse_qs

import pytest
from werkzeug.wrappers import Response

from tests.arxiv_search import loopback_cli
from tests.atom import Entry, api_feed

WIDGETS = [
    Entry(
        "2611.00001",
        title="Quantum widgets for $O(n^2)$ sorting",
        summary="We build quantum widgets that sort in $O(n^2)$ steps, a $5.2\\times$ speed-up.",
        published="2026-11-20T10:00:00Z",
        authors=[("Ada Quill", ["Institute of Nowhere"]), ("Bo Marsh", ["Lake Erenwick Labs", "Institute of Nowhere"])],
        categories=["quant-ph", "cs.DS"],
        comment="9 pages",
    ),
    Entry(
        "2611.00002",
        title="More quantum widgets",
        summary="Quantum widgets again, with \\emph{fewer} qubits.",
        published="2026-11-18T10:00:00Z",
        version=2,
        updated="2026-11-25T10:00:00Z",
        categories=["quant-ph"],
        doi="10.99999/invented.1",
    ),
]


@pytest.fixture
def arxiv(httpserver):
    seen: list[dict] = []

    def handler(request):
        query = parse_qs(request.query_string.decode())
        seen.append(query)
        start = int(query.get("start", ["0"])[0])
        size = int(query.get("max_results", ["10"])[0])
        page = WIDGETS[start : start + size]
        return Response(api_feed(page, total=len(WIDGETS), start=start), content_type="application/atom+xml")

    httpserver.expect_request("/api/query").respond_with_handler(handler)
    return seen


@pytest.fixture
def cli(tmp_path, httpserver, monkeypatch, arxiv):
    return loopback_cli(tmp_path, httpserver, monkeypatch, "[arxiv]\nmin_interval = 0.05\n")


def test_a_papers_tags_are_listed_by_name_case_aside(cli, capsys, arxiv):
    """They were listed in the order the topics were attached, unlike the reader's cards."""
    mine = {"Quantum Widgets": 'abs:"quantum widgets"', "sorting": "ti:sorting", "Ada papers": "au:quill"}
    for name, query in mine.items():
        assert cli("topic", "add", name, "--query", query) == 0
    assert cli("follow", "Quantum Widgets") == 0
    assert cli("refresh") == 0
    capsys.readouterr()
    assert cli("papers", "Quantum Widgets", "--json") == 0
    tags = next(p["tags"] for p in json.loads(capsys.readouterr().out) if p["id"] == "2611.00001")
    assert [t for t in tags if t in mine] == ["Ada papers", "Quantum Widgets", "sorting"]
    assert tags == sorted(tags, key=str.casefold)


def test_round_trip(cli, capsys, arxiv):
    assert cli("topic", "add", "Quantum Widgets", "--query", 'abs:"quantum widgets"') == 0
    assert cli("follow", "Quantum Widgets") == 0
    capsys.readouterr()
    assert cli("refresh") == 0
    err = capsys.readouterr().err
    assert "2 new" in err
    assert any("quantum widgets" in q["search_query"][0] for q in arxiv)

    assert cli("papers", "Quantum Widgets", "--json") == 0
    papers = json.loads(capsys.readouterr().out)
    assert [p["id"] for p in papers] == ["2611.00001", "2611.00002"]
    first = papers[0]
    assert first["title"] == "Quantum widgets for O(n²) sorting"
    assert "5.2×" in first["abstract"]
    assert first["authors"] == ["Ada Quill", "Bo Marsh"]
    assert first["affiliations"] == ["Institute of Nowhere", "Lake Erenwick Labs"]
    assert first["published"] == "2026-11-20T10:00:00Z"
    assert first["primary_category"] == "quant-ph" and first["categories"] == ["quant-ph", "cs.DS"]
    assert "Quantum Widgets" in first["tags"]
    assert first["read"] is False and first["starred"] is False
    assert first["url"] == "http://arxiv.org/abs/2611.00001v1"
    assert first["pdf_url"] == "http://arxiv.org/pdf/2611.00001v1"
    assert first["comment"] == "9 pages"
    assert papers[1]["version"] == 2 and papers[1]["doi"] == "10.99999/invented.1"
    assert papers[1]["updated"] == "2026-11-25T10:00:00Z"

    capsys.readouterr()
    assert cli("read", "2611.00001v1") == 0
    assert cli("star", "2611.00002") == 0
    assert capsys.readouterr().err.splitlines() == ["mark read: 1 changed, 0 already so", "star: 1 changed, 0 already so"]
    assert cli("papers", "Quantum Widgets", "--unread", "--json") == 0
    unread = json.loads(capsys.readouterr().out)
    assert [p["id"] for p in unread] == ["2611.00002"]
    assert unread[0]["starred"] is True

    assert cli("topics", "--json") == 0
    topics = {t["name"]: t for t in json.loads(capsys.readouterr().out)}
    mine = topics["Quantum Widgets"]
    assert mine["following"] is True and mine["papers"] == 2 and mine["unread"] == 1
    assert mine["definition"] == {"query": 'abs:"quantum widgets"'}
    assert len(mine["momentum"]["weeks"]) == 12


def test_second_refresh_the_same_day_is_not_sent(cli, capsys, arxiv):
    cli("topic", "add", "Quantum Widgets", "--query", 'abs:"quantum widgets"')
    cli("follow", "Quantum Widgets")
    assert cli("refresh") == 0
    sent = len(arxiv)
    assert cli("refresh") == 0
    assert len(arxiv) == sent
    assert "already fetched today" in capsys.readouterr().err
    assert cli("refresh", "--force") == 0
    assert len(arxiv) > sent


def test_usage_errors_exit_2(cli, capsys):
    assert cli("papers", "No Such Topic") == 2
    assert "no topic called" in capsys.readouterr().err
    assert cli("topic", "add", "Bad", "--query", "ti:(unbalanced") == 2
    err = capsys.readouterr().err
    assert "bad query" in err and "^" in err
    with pytest.raises(SystemExit) as exit_info:
        cli("papers")
    assert exit_info.value.code == 2


def test_failed_source_exits_1_and_is_named(cli, capsys, tmp_path):
    cli("topic", "add", "Broken Feed", "--feed", "http://127.0.0.1:9/feed.xml")
    cli("follow", "Broken Feed")
    capsys.readouterr()
    assert cli("refresh") == 1
    err = capsys.readouterr().err.splitlines()
    # Named by its topic as well as its URL: with many feed topics, a URL alone said little.
    assert "feedtui: failed: Broken Feed (http://127.0.0.1:9/feed.xml): could not connect to 127.0.0.1:9: connection refused" in err


def test_a_feed_url_password_is_used_but_never_printed(cli, capsys, httpserver):
    rss = b"<?xml version='1.0'?><rss version='2.0'><channel><title>Lab</title><item><title>Invented post</title><link>http://example.org/p1</link><guid>p1</guid></item></channel></rss>"
    httpserver.expect_request("/private.xml").respond_with_data(rss, content_type="application/rss+xml")
    private = httpserver.url_for("/private.xml").replace("http://", "http://ana:s3cret-word@")
    cli("topic", "add", "Private Lab", "--feed", private)
    cli("topic", "add", "Gone Lab", "--feed", "http://ana:other:s3cret@word@127.0.0.1:9/feed.xml")
    # Named from the URL's whole netloc, as an OPML import did before 1f5bc87.
    cli("topic", "add", "bo:s3cret@127.0.0.1:9/old.xml", "--feed", "http://bo:s3cret@127.0.0.1:9/old.xml")
    for name in ("Private Lab", "Gone Lab", "bo:s3cret@127.0.0.1:9/old.xml"):
        cli("follow", name)
    capsys.readouterr()
    assert cli("refresh") == 1
    out, err = capsys.readouterr()
    # The server got the credentials (HTTP basic auth)...
    sent = httpserver.log[0][0].headers["Authorization"]
    assert base64.b64decode(sent.split()[1]) == b"ana:s3cret-word"
    # ...and no line said them.
    assert "s3cret" not in out + err
    assert "feedtui: failed: Gone Lab (http://ana:***@127.0.0.1:9/feed.xml): could not connect to 127.0.0.1:9: connection refused" in err.splitlines()
    assert "feedtui: failed: bo:***@127.0.0.1:9/old.xml (http://bo:***@127.0.0.1:9/old.xml): could not connect to 127.0.0.1:9: connection refused" in err.splitlines()
    assert "1 new" in err


def test_a_feed_imported_without_a_title_is_named_without_its_password(cli, capsys, tmp_path):
    """newsboat -e writes title="" for every feed; the name made from the URL
    carried `ana:s3cret@`, printed in clear before every masked refresh message."""
    opml = tmp_path / "newsboat.opml"
    opml.write_text(
        '<opml version="1.0"><body>'
        '<outline type="rss" title="" text="" xmlUrl="http://ana:s3cret@127.0.0.1:9/feed.xml"/>'
        "</body></opml>"
    )
    assert cli("import", "opml", str(opml), "--follow") == 0
    assert "added 127.0.0.1:9/feed.xml: " in capsys.readouterr().err
    assert cli("refresh") == 1
    assert cli("topics") == 0
    out, err = capsys.readouterr()
    assert "s3cret" not in out + err
    assert "feedtui: failed: 127.0.0.1:9/feed.xml (http://ana:***@127.0.0.1:9/feed.xml): could not connect to 127.0.0.1:9: connection refused" in err.splitlines()


def test_a_refresh_in_which_every_source_failed_is_not_remembered_as_one(cli, arxiv, tmp_path):
    from feedtui.store.lock import DataDirLock
    from feedtui.store.state import StateStore

    def last_refresh():
        state = StateStore(tmp_path / "data" / "state.json", DataDirLock(tmp_path / "data"), background=False)
        try:
            return state.pref("last_refresh")
        finally:
            state.close()

    cli("topic", "add", "Broken Feed", "--feed", "http://127.0.0.1:9/feed.xml")
    cli("follow", "Broken Feed")
    assert cli("refresh") == 1
    assert last_refresh() is None
    cli("topic", "add", "Quantum Widgets", "--query", 'abs:"quantum widgets"')
    cli("follow", "Quantum Widgets")
    assert cli("refresh") == 1  # one source failed, one answered
    assert last_refresh() is not None


def test_a_change_that_cannot_be_saved_exits_1(cli, capsys, monkeypatch):
    import errno

    import feedtui.store.tinydb_io as tinydb_io
    from feedtui.store.files import WriteFailedError

    def full_disk(path, data):
        raise WriteFailedError(path, OSError(errno.ENOSPC, "No space left on device"))

    cli("topic", "add", "Quantum Widgets", "--query", 'abs:"quantum widgets"')
    monkeypatch.setattr(tinydb_io, "atomic_write", full_disk)
    capsys.readouterr()
    assert cli("follow", "Quantum Widgets") == 1
    err = capsys.readouterr().err
    assert "the disk is full" in err and "following" not in err


def test_removing_a_topic_of_the_config_file_says_where_it_is_defined(tmp_path, capsys):
    from feedtui.cli import main

    config = tmp_path / "config.toml"
    config.write_text('[general]\nauto_refresh = false\n\n[[topic]]\nname = "Sparse"\nquery = "abs:sparse"\n')
    data = tmp_path / "data"

    def run(*args: str) -> int:
        return main([*args, "--data-dir", str(data), "--config", str(config)])

    capsys.readouterr()
    assert run("topic", "rm", "Sparse") == 2
    err = capsys.readouterr().err
    assert "Sparse is defined in" in err and str(config) in err and "removed" not in err
    assert run("topics", "--json") == 0
    assert "Sparse" in {topic["name"] for topic in json.loads(capsys.readouterr().out)}


def test_removing_an_edited_config_topic_drops_the_edited_copy(tmp_path, capsys):
    """`topic rm` refused, saying to remove the [[topic]] table, and removing
    it left the app's copy in place, silently, as a topic of the user's."""
    from feedtui.cli import main

    config = tmp_path / "config.toml"
    table = '[[topic]]\nname = "Sparse"\nquery = "abs:sparse"\n'
    config.write_text(table)
    data = tmp_path / "data"

    def run(*args: str) -> int:
        return main([*args, "--data-dir", str(data), "--config", str(config)])

    def shown() -> list[str]:
        capsys.readouterr()
        assert run("topic", "show", "Sparse") == 0
        return capsys.readouterr().out.splitlines()

    assert run("follow", "Sparse") == 0
    capsys.readouterr()
    assert run("topic", "edit", "Sparse", "--query", "abs:dense") == 0
    assert capsys.readouterr().err.endswith(
        f"Sparse is defined in {config} too: this edit overrides its [[topic]] table there "
        "(feedtui topic rm 'Sparse' drops the copy)\n"
    )
    assert shown()[1:3] == [
        "definition: query abs:dense",
        f"(your edited copy, which overrides its [[topic]] table in {config}: feedtui topic rm 'Sparse' drops the copy)",
    ]
    assert run("topic", "rm", "Sparse") == 0
    assert capsys.readouterr().err == f"dropped your edited copy of Sparse: its [[topic]] table in {config} defines it again\n"
    assert shown()[:3] == ["Sparse  (following)", "definition: query abs:sparse", "papers: 0, unread: 0"]
    assert run("topic", "rm", "Sparse") == 2
    assert f"Sparse is defined in {config}: remove its [[topic]] table there" in capsys.readouterr().err

    # An edited copy whose table's name is misspelt: the table is there, and the copy kept as one.
    assert run("topic", "edit", "Sparse", "--query", "abs:dense") == 0
    config.write_text('[[topic]]\nnam = "Sparse"\nquery = "abs:sparse"\n')
    capsys.readouterr()
    assert run("follow", "Sparse") == 0
    assert "is gone from" not in capsys.readouterr().err
    config.write_text('[[topic]]\nname = "Sparse"\nquery = "abs:sparse"\n')
    assert shown()[1:3] == [
        "definition: query abs:dense",
        f"(your edited copy, which overrides its [[topic]] table in {config}: feedtui topic rm 'Sparse' drops the copy)",
    ]

    # An edited copy whose table goes: said once, and kept as a topic of the user's.
    config.write_text("")
    capsys.readouterr()
    assert run("follow", "Sparse") == 0
    assert capsys.readouterr().err == (
        f"feedtui: Sparse: its [[topic]] table is gone from {config}; your edited copy of it stays, "
        "as a topic of your own (feedtui topic rm 'Sparse' removes it)\n"
        "already following Sparse (nothing changed)\n"
    )
    assert run("topic", "show", "Sparse") == 0
    out, err = capsys.readouterr()
    assert err == ""  # said once
    assert out.splitlines()[:3] == ["Sparse  (following)", "definition: query abs:dense", "papers: 0, unread: 0"]


def test_a_removed_catalogue_topic_is_restored_with_its_papers(tmp_path, capsys):
    import json

    from feedtui.cli import main

    demo = ["--demo", "--data-dir", str(tmp_path / "demo"), "--config", str(tmp_path / "absent.toml")]

    def papers_of(name: str) -> list[str]:
        capsys.readouterr()
        assert main([*demo, "papers", name, "--json"]) == 0
        return [p["id"] for p in json.loads(capsys.readouterr().out)]

    before = papers_of("LLM Inference")
    assert before
    assert main([*demo, "topic", "rm", "LLM Inference"]) == 0
    assert "feedtui topic restore 'LLM Inference' brings it back" in capsys.readouterr().err
    assert main([*demo, "papers", "LLM Inference"]) == 2  # gone
    capsys.readouterr()
    assert main([*demo, "topic", "restore", "NoSuch"]) == 2
    assert "no removed catalogue topic called 'NoSuch' (removed: 'LLM Inference')" in capsys.readouterr().err
    assert main([*demo, "topic", "restore", "llm inference"]) == 0
    assert "restored LLM Inference" in capsys.readouterr().err
    assert papers_of("LLM Inference") == before


def test_a_followed_topic_removed_and_restored_is_followed_again(tmp_path, capsys):
    """Removing a followed topic unfollowed it without a word, and `topic
    restore` brought the topic back but not the follow."""
    from feedtui.cli import main

    (tmp_path / "config.toml").write_text("")
    base = ["--data-dir", str(tmp_path / "data"), "--config", str(tmp_path / "config.toml")]

    def followed() -> set[str]:
        capsys.readouterr()
        assert main([*base, "topics", "--json"]) == 0
        return {t["name"] for t in json.loads(capsys.readouterr().out) if t["following"]}

    assert main([*base, "follow", "Federated Learning"]) == 0
    assert main([*base, "topic", "add", "Lab", "--feed", "https://lab.example.org/atom.xml"]) == 0
    assert main([*base, "follow", "Lab"]) == 0
    capsys.readouterr()
    assert main([*base, "topic", "rm", "Federated Learning"]) == 0
    assert capsys.readouterr().err == (
        "removed Federated Learning (feedtui topic restore 'Federated Learning' brings it back, followed)\n"
    )
    assert followed() == {"Lab"}
    assert main([*base, "topic", "restore", "federated learning"]) == 0
    assert capsys.readouterr().err.startswith("restored Federated Learning, followed: ")
    assert followed() == {"Lab", "Federated Learning"}
    assert main([*base, "topic", "rm", "Lab"]) == 0
    assert capsys.readouterr().err == "removed Lab and stopped following it\n"
    assert followed() == {"Federated Learning"}
    # Not followed when removed: not followed when restored.
    assert main([*base, "unfollow", "Federated Learning"]) == 0
    assert main([*base, "topic", "rm", "Federated Learning"]) == 0
    assert main([*base, "topic", "restore", "Federated Learning"]) == 0
    assert followed() == set()


def test_refresh_notes_what_a_partly_read_feed_left_out(tmp_path, httpserver, capsys):
    """Cut short after its first entry: the entry is kept, and the rest is noted
    (the reader shows it only as the papers it got: a note on every fetch of a
    feed with an `&nbsp;` would be noise there)."""
    from feedtui.cli import main

    cut = (
        "<?xml version='1.0'?><rss version='2.0'><channel><title>Lab</title>"
        "<item><title>Kept paper</title><guid>https://lab.example.org/1</guid></item>"
        "<item><title>Lost pa"
    ).encode()
    httpserver.expect_request("/lab.xml").respond_with_data(cut, content_type="application/rss+xml")
    base = ["--data-dir", str(tmp_path / "data"), "--config", str(tmp_path / "absent.toml")]
    assert main([*base, "topic", "add", "Lab", "--feed", httpserver.url_for("/lab.xml")]) == 0
    assert main([*base, "refresh", "Lab"]) == 0
    err = capsys.readouterr().err
    assert f"feedtui: note: Lab ({httpserver.url_for('/lab.xml')}): the feed is not well-formed (XML error at line 1" in err
    assert "1 new, 0 updated papers from 1 source; 0 failed" in err


def test_refresh_notes_what_a_partly_read_api_answer_left_out(tmp_path, httpserver, monkeypatch, capsys):
    """As for a feed: an arXiv API answer that is not well-formed XML is read
    leniently, and the refresh says so."""
    body = api_feed(WIDGETS, total=len(WIDGETS)).replace(b"More quantum widgets", b"More quantum\x1b widgets")
    httpserver.expect_request("/api/query").respond_with_data(body, content_type="application/atom+xml")
    cli = loopback_cli(tmp_path, httpserver, monkeypatch, "[arxiv]\nmin_interval = 0.05\n")
    assert cli("topic", "add", "Quantum Widgets", "--query", 'abs:"quantum widgets"') == 0
    assert cli("refresh", "Quantum Widgets") == 0
    err = capsys.readouterr().err
    assert err.count("the feed is not well-formed (XML error at line ") == 1, err
    assert "feedtui: note: Quantum Widgets: the feed is not well-formed (XML error at line " in err
    assert "2 new, 0 updated papers from 1 source; 0 failed" in err  # the day's total of new papers is not one


def papers_of_a_served_feed(tmp_path, httpserver, capsys, feed: str) -> tuple[list[str], list[str]]:
    """`feed` served, added as the topic Lab and refreshed: `feedtui papers
    Lab`'s lines, and the arguments that name the data directory."""
    from feedtui.cli import main

    httpserver.expect_request("/lab.xml").respond_with_data(feed.encode(), content_type="application/rss+xml")
    base = ["--data-dir", str(tmp_path / "data"), "--config", str(tmp_path / "absent.toml")]
    assert main([*base, "topic", "add", "Lab", "--feed", httpserver.url_for("/lab.xml")]) == 0
    assert main([*base, "refresh", "Lab"]) == 0
    capsys.readouterr()
    assert main([*base, "papers", "Lab"]) == 0
    return capsys.readouterr().out.splitlines(), base


def test_papers_keeps_its_columns_in_line_when_an_id_is_longer_than_usual(tmp_path, httpserver, capsys):
    from email.utils import format_datetime

    from feedtui.model import utcnow

    now = utcnow()
    when = format_datetime(now)
    # An id of this month: a post dates only a paper of its own month.
    arxiv_id = f"{now:%y%m}.00003"
    items = (
        f"<item><title>On arXiv</title><link>https://arxiv.org/abs/{arxiv_id}v1</link><pubDate>{when}</pubDate>"
        "<category>cs.DC</category></item>"
        f"<item><title>On the lab's site</title><guid>https://lab.example.org/posts/1</guid><pubDate>{when}</pubDate>"
        "<category>physics.comp-ph</category></item>"
    )
    feed = f"<?xml version='1.0'?><rss version='2.0'><channel><title>Lab</title>{items}</channel></rss>"
    lines, _ = papers_of_a_served_feed(tmp_path, httpserver, capsys, feed)
    rows = sorted(lines)
    ids = [row.split()[1] for row in rows]
    assert ids[0] == f"{arxiv_id}v1" and ids[1].startswith("web:") and len(ids[1]) == 20
    # The date starts one space after the longest id, the title after the longest category, in every row.
    assert {row.index(f"{now:%Y-%m-%d}") for row in rows} == {3 + 20 + 1}
    assert {row.index("On ") for row in rows} == {3 + 20 + 1 + 10 + 1 + len("physics.comp-ph") + 1}


def test_an_item_without_a_title_is_shown_as_untitled_and_stored_as_it_came(tmp_path, httpserver, capsys):
    """An item with no <title> was a blank `papers` line and `title = {{}}` in
    BibTeX. Where a title is shown it is now "(untitled)"; the stored title,
    and `papers --json`, stay empty: the feed gave none."""
    from email.utils import format_datetime

    from feedtui.cli import main
    from feedtui.model import utcnow

    feed = (
        "<?xml version='1.0'?><rss version='2.0'><channel><title>Lab</title>"
        f"<item><guid>https://lab.example.org/posts/1</guid><pubDate>{format_datetime(utcnow())}</pubDate>"
        "<description>A post without a title.</description></item></channel></rss>"
    )
    [row], base = papers_of_a_served_feed(tmp_path, httpserver, capsys, feed)
    assert row.endswith(" (untitled)"), row
    paper_id = row.split()[1]
    assert main([*base, "papers", "Lab", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)[0]["title"] == ""
    assert main([*base, "export", "bibtex", paper_id]) == 0
    entry = capsys.readouterr().out
    assert "  title = {{(untitled)}},\n" in entry, entry


def test_the_count_of_new_papers_is_no_source_of_the_users(tmp_path, httpserver, monkeypatch, closed_port, capsys):
    """One topic followed, offline: "2 sources failed" and "arXiv new-paper
    count" failed the same way — a source the user never added. Its failure
    alone is still told, as a note."""
    cli = loopback_cli(tmp_path, httpserver, monkeypatch, "[arxiv]\nmin_interval = 0.05\n")
    monkeypatch.setenv("FEEDTUI_ARXIV_API_URL", f"http://127.0.0.1:{closed_port}/api/query")
    assert cli("topic", "add", "Quantum Widgets", "--query", 'abs:"quantum widgets"') == 0
    capsys.readouterr()
    assert cli("refresh", "Quantum Widgets") == 1
    err = capsys.readouterr().err
    assert "new-paper count" not in err and "count of all new papers" not in err
    assert err.count("feedtui: failed: Quantum Widgets") == 1
    assert err.splitlines()[-1] == "0 new, 0 updated papers from 0 of 1 source; 1 failed"

    # arXiv answers the topic's query but not the count: the refresh is done, and the count said.
    def handler(request):
        if "submittedDate" in parse_qs(request.query_string.decode())["search_query"][0]:
            return Response("no", status=400)
        return Response(api_feed(WIDGETS, total=len(WIDGETS)), content_type="application/atom+xml")

    httpserver.expect_request("/api/query").respond_with_handler(handler)
    monkeypatch.setenv("FEEDTUI_ARXIV_API_URL", httpserver.url_for("/api/query"))
    assert cli("refresh", "Quantum Widgets") == 0
    lines = capsys.readouterr().err.splitlines()
    assert lines[-1] == "2 new, 0 updated papers from 1 source; 0 failed"
    [note] = [line for line in lines if "count of all new papers" in line]
    assert note.startswith("feedtui: arXiv's count of all new papers could not be fetched (")
    assert note.endswith("); shares are of the papers in your cache until it is")

    # The next day: yesterday's count stands, and the shares are of it.
    from datetime import timedelta

    from feedtui.model import utcnow
    from feedtui.store.fetch_state import FetchState, new_papers_key
    from feedtui.store.lock import DataDirLock

    yesterday = utcnow() - timedelta(days=1)
    data = tmp_path / "data"
    FetchState(data / "http.json", DataDirLock(data)).save(totals={new_papers_key(yesterday): (9_000, yesterday.date())})
    assert cli("refresh", "Quantum Widgets", "--force") == 0
    [note] = [line for line in capsys.readouterr().err.splitlines() if "count of all new papers" in line]
    assert note.endswith(f"); shares stay of its count of {yesterday:%b} {yesterday.day} until it is")


def test_the_refresh_summary_counts_failed_and_skipped_sources_among_all(cli, capsys, tmp_path):
    from feedtui.store.lock import DataDirLock
    from feedtui.store.state import StateStore

    # A topic whose query no longer parses (a state edited by hand, say): its source fails.
    data = tmp_path / "data"
    data.mkdir()
    state = StateStore(data / "state.json", DataDirLock(data), background=False)
    state.put_topic("Bad query", {"query": "abs:(widget", "description": ""})
    state.close()
    cli("topic", "add", "Broken Feed", "--feed", "http://127.0.0.1:9/feed.xml")
    cli("topic", "add", "Quantum Widgets", "--query", 'abs:"quantum widgets"')
    for name in ("Bad query", "Broken Feed", "Quantum Widgets"):
        cli("follow", name)
    capsys.readouterr()
    assert cli("refresh", "Bad query") == 1
    assert capsys.readouterr().err.splitlines()[-1] == "0 new, 0 updated papers from 0 of 1 source; 1 failed"
    assert cli("refresh") == 1
    assert capsys.readouterr().err.splitlines()[-1] == "2 new, 0 updated papers from 1 of 3 sources; 2 failed"
    assert cli("refresh") == 1  # arXiv answered today: not asked again
    assert capsys.readouterr().err.splitlines()[-1] == "0 new, 0 updated papers from 0 of 3 sources; 2 failed, 1 skipped"
    assert cli("refresh", "Quantum Widgets", "--force") == 0
    assert capsys.readouterr().err.splitlines()[-1] == "0 new, 0 updated papers from 1 source; 0 failed"


def test_arxiv_asking_to_wait_longer_than_feedtui_waits_is_kept_to_by_the_next_refresh(tmp_path, httpserver, monkeypatch, capsys):
    """The next `feedtui refresh` sent its arXiv request 3 s after a Retry-After: 200."""
    httpserver.expect_request("/api/query").respond_with_data("", status=429, headers={"Retry-After": "200"})
    cli = loopback_cli(tmp_path, httpserver, monkeypatch, "[arxiv]\nmin_interval = 0.05\n")
    cli("topic", "add", "Quantum Widgets", "--query", 'abs:"quantum widgets"')
    cli("follow", "Quantum Widgets")
    capsys.readouterr()
    assert cli("refresh") == 1
    first = capsys.readouterr().err
    sent = len(httpserver.log)
    assert "the server asked to wait 200 s; try again after" in first
    assert cli("refresh", "--force") == 1
    second = capsys.readouterr().err
    assert len(httpserver.log) == sent
    assert "Quantum Widgets" in second and "arXiv asked to wait until" in second


def test_a_failed_arxiv_query_is_shown_by_host_path_and_a_cut_query(tmp_path, httpserver, monkeypatch, closed_port, capsys):
    """Offline, the failure line held the whole arXiv query URL (~1,100 characters)."""
    cli = loopback_cli(tmp_path, httpserver, monkeypatch, "[arxiv]\nmin_interval = 0.05\n")
    monkeypatch.setenv("FEEDTUI_ARXIV_API_URL", f"http://127.0.0.1:{closed_port}/api/query")
    words = ["quantum widgets", "gadget calibration", "sprocket tuning", "lever arms", "gear trains"]
    for number, phrase in enumerate(words):
        query = " OR ".join(f'abs:"{phrase} {n}"' for n in range(6))
        assert cli("topic", "add", f"Topic {number}", "--query", query) == 0
        assert cli("follow", f"Topic {number}") == 0
    capsys.readouterr()
    assert cli("refresh") == 1
    failed = [line for line in capsys.readouterr().err.splitlines() if line.startswith("feedtui: failed: ")]
    assert failed, "no failure line"
    for line in failed:
        assert len(line) < 300, line
        assert f"(http://127.0.0.1:{closed_port}/api/query?search_query=" in line, line
        assert "…): could not connect" in line and "%20" not in line, line

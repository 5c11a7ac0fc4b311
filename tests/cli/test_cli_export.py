"""`feedtui export …` and `feedtui import …` end to end in a temporary data directory."""

from __future__ import annotations

import io
import json
from pathlib import Path
from types import SimpleNamespace
from xml.etree import ElementTree

import pytest

from feedtui.cli import main
from feedtui.config import load_config
from feedtui.core.engine import open_engine
from feedtui.export.opml import FEEDTUI_NS

from tests.arxiv_search import LoopbackArxiv, cli_against
from tests.atom import Entry
from tests.factories import make_paper

OPML = Path(__file__).parents[1] / "data" / "opml"

PAPERS = [
    make_paper(
        "2609.01234",
        title="Quantum widgets at scale",
        abstract="We sort with quantum widgets & win 5% of the time.",
        published="2026-09-20T10:00:00",
        authors=(("Zoë Ångström", ("Institute of Nowhere",)), ("Bo Marsh", ())),
    ),
    make_paper(
        "2609.01240",
        version=2,
        title="Cheaper widgets",
        abstract="Classical widgets, again.",
        published="2026-09-25T10:00:00",
        doi="10.99999/invented.7",
    ),
    make_paper(
        "2609.05555",
        title="Ferns in the dark",
        abstract="A study of shade-tolerant ferns.",
        published="2026-09-10T10:00:00",
        categories=("q-bio.PE",),
    ),
    make_paper(
        "2609.07777",
        title="Department seminar series",
        abstract="Notes from the seminar.",
        published="2026-09-12T10:00:00",
        sources=("https://news.example.edu/department/feed",),
    ),
]


def make_env(tmp_path: Path, name: str, *, papers=()) -> SimpleNamespace:
    config = tmp_path / f"{name}-config.toml"
    config.write_text("")
    data = tmp_path / name
    if papers:
        engine = open_engine(load_config(config), data, background_writes=False)
        engine.cache.store(list(papers), known={})
        engine.close()

    def run(*args: str) -> int:
        return main([*args, "--data-dir", str(data), "--config", str(config)])

    return SimpleNamespace(run=run, data=data, tmp=tmp_path)


@pytest.fixture
def env(tmp_path, capsys):
    env = make_env(tmp_path, "data", papers=PAPERS)
    assert env.run("topic", "add", "Widgets", "--query", "abs:widgets") == 0
    capsys.readouterr()
    return env


def eprints(bibtex: str) -> list[str]:
    return [line.split("{")[1].rstrip("},") for line in bibtex.splitlines() if line.strip().startswith("eprint")]


def topics_json(env, capsys) -> dict[str, dict]:
    capsys.readouterr()
    assert env.run("topics", "--json") == 0
    return {t["name"]: t for t in json.loads(capsys.readouterr().out)}


# -- export bibtex --------------------------------------------------------------------


def test_bibtex_for_ids_in_the_order_given(env, capsys):
    assert env.run("export", "bibtex", "arXiv:2609.01240v2", "2609.01234") == 0
    out = capsys.readouterr().out
    assert eprints(out) == ["2609.01240v2", "2609.01234v1"]
    assert out.count("@misc{") == 2
    assert 'author = {Zo{\\"e} {\\r{A}}ngstr{\\"o}m and Bo Marsh}' in out
    assert "title = {{Quantum widgets at scale}}" in out
    assert "doi = {10.99999/invented.7}" in out


def test_bibtex_for_a_topic_and_for_the_starred_papers(env, capsys):
    assert env.run("export", "bibtex", "--topic", "widgets") == 0
    assert eprints(capsys.readouterr().out) == ["2609.01240v2", "2609.01234v1"]
    assert env.run("star", "2609.05555", "2609.01234") == 0
    capsys.readouterr()
    assert env.run("export", "bibtex", "--starred") == 0
    assert eprints(capsys.readouterr().out) == ["2609.01234v1", "2609.05555v1"]


@pytest.mark.parametrize("name", ["Starred", "★ Starred", "starred"])
def test_bibtex_topic_starred_is_the_reading_list(env, capsys, name):
    """`papers Starred` lists the reading list, but `export bibtex --topic
    Starred` was "no topic called 'Starred'"."""
    assert env.run("star", "2609.05555", "2609.01234") == 0
    capsys.readouterr()
    assert env.run("export", "bibtex", "--topic", name) == 0
    assert eprints(capsys.readouterr().out) == ["2609.01234v1", "2609.05555v1"]


def test_papers_starred_lists_the_reading_list_for_scripts(env, capsys):
    """`papers Starred` was "no topic called 'Starred'": the reading list
    reached scripts only as BibTeX or as ids inside `export json`."""
    assert env.run("star", "2609.05555", "2609.01234", "2609.07777") == 0
    assert env.run("read", "2609.01234") == 0
    capsys.readouterr()
    assert env.run("papers", "Starred", "--json") == 0
    listed = json.loads(capsys.readouterr().out)
    assert [(p["id"], p["title"], p["starred"]) for p in listed] == [
        ("2609.01234", "Quantum widgets at scale", True),
        ("2609.07777", "Department seminar series", True),
        ("2609.05555", "Ferns in the dark", True),
    ]
    assert env.run("papers", "★ starred", "--unread", "--limit", "1") == 0
    assert capsys.readouterr().out.split()[:2] == ["●★", "2609.07777v1"]
    assert env.run("papers", "starred", "--unread") == 0
    assert [line.split()[1] for line in capsys.readouterr().out.splitlines()] == ["2609.07777v1", "2609.05555v1"]


def test_bibtex_for_a_version_not_kept_writes_the_kept_one_and_says_so(env, capsys):
    """Asking for v1 to cite the version one read gave v2's entry silently."""
    assert env.run("export", "bibtex", "2609.01240v1", "arXiv:2609.01240v2", "2609.01234v1") == 0
    captured = capsys.readouterr()
    assert eprints(captured.out) == ["2609.01240v2", "2609.01234v1"]
    assert captured.err == "feedtui: 2609.01240v1: only v2 is kept; its entry is written\n"


def test_bibtex_of_a_paper_known_only_from_a_post_leaves_the_posts_title_out_and_says_so(tmp_path, capsys):
    post = make_paper(
        "2612.00077", title="A post about a brand new paper", authors=(), categories=(),
        published="2026-12-03T09:00:00", secondhand=True, sources=("https://blog.example.org/feed.xml",),
    )
    env = make_env(tmp_path, "data", papers=[post, PAPERS[0]])
    assert env.run("export", "bibtex", "2612.00077", "2609.01234") == 0
    captured = capsys.readouterr()
    assert eprints(captured.out) == ["2612.00077", "2609.01234v1"]
    assert "A post about" not in captured.out and "Anonymous" not in captured.out
    assert captured.err == (
        "feedtui: 2612.00077: known only from a post that links it: "
        "written without the post's title and authors until its arXiv record arrives\n"
    )


def test_papers_starred_says_how_many_starred_papers_are_not_in_the_cache(env, capsys):
    """Stars imported from another machine for papers this cache lacks were
    left out of `papers Starred` without a word: the reading list looked shorter."""
    at = {"at": "2026-09-01T00:00:00+00:00"}
    stars = {"2601.00042": at, "2609.01234": at, "web:0123456789abcdef": at}
    assert env.run("import", "json", str(write_state(env.tmp, starred=stars))) == 0
    capsys.readouterr()
    for json_flag in ((), ("--json",)):
        assert env.run("papers", "Starred", *json_flag) == 0
        captured = capsys.readouterr()
        assert "2609.01234" in captured.out and "2601.00042" not in captured.out
        assert captured.err == (
            "feedtui: 2 starred papers are not in the cache, so not listed: 2601.00042, web:0123456789abcdef; "
            "feedtui refresh fetches the arXiv ones\n"
        )
    assert env.run("unstar", "2609.01234") == 0
    capsys.readouterr()
    assert env.run("papers", "Widgets") == 0
    assert capsys.readouterr().err == ""


def test_a_refresh_fetches_starred_arxiv_papers_the_cache_lacks_by_id(tmp_path, httpserver, monkeypatch, capsys):
    """Stars moved with import json, of papers no feed lists any more, were
    in the reading list nowhere, and nothing could fetch them back."""
    old = [
        Entry("2401.00042", title="An old starred paper", published="2024-01-05T10:00:00Z"),
        Entry("2401.00043", title="Another old one", published="2024-01-06T10:00:00Z"),
        Entry("hep-th/9901001", title="An old-style id", published="1999-01-04T10:00:00Z", categories=["hep-th"]),
    ]
    arxiv = LoopbackArxiv(old)
    cli = cli_against(arxiv, tmp_path, httpserver, monkeypatch)
    monkeypatch.setattr("feedtui.core.fetch.ID_BATCH", 2)
    at = {"at": "2026-09-01T00:00:00+00:00"}
    stars = dict.fromkeys(["2401.00042", "2401.00043", "hep-th/9901001", "2401.09999", "web:0123456789abcdef"], at)
    assert cli("import", "json", str(write_state(tmp_path, starred=stars))) == 0
    capsys.readouterr()

    assert cli("refresh") == 0
    err = capsys.readouterr().err
    assert arxiv.id_list_requests == [["2401.00042", "2401.00043"], ["2401.09999", "hep-th/9901001"]]
    assert arxiv.search_requests == []
    assert "feedtui: note: starred papers not in the cache (4): arXiv has no record of starred 2401.09999; " in err
    assert cli("papers", "Starred", "--json") == 0
    captured = capsys.readouterr()
    assert [(p["id"], p["title"]) for p in json.loads(captured.out)] == [
        ("2401.00043", "Another old one"),
        ("2401.00042", "An old starred paper"),
        ("hep-th/9901001", "An old-style id"),
    ]
    assert captured.err.startswith("feedtui: 2 starred papers are not in the cache, so not listed: 2401.09999, web:")

    # Asked once a day: the id arXiv does not know is not asked for at every
    # refresh, but a star added since is asked for at once.
    assert cli("refresh") == 0
    assert len(arxiv.id_list_requests) == 2
    assert cli("import", "json", str(write_state(tmp_path, starred={"2401.00044": at}))) == 0
    assert cli("refresh") == 0
    assert arxiv.id_list_requests[2:] == [["2401.00044"]]
    assert cli("refresh", "--force") == 0
    assert arxiv.id_list_requests[3:] == [["2401.00044", "2401.09999"]]


def test_bibtex_unknown_ids_are_named_and_exit_1_the_rest_still_written(env, capsys):
    assert env.run("export", "bibtex", "2609.01234", "2601.99999") == 1
    captured = capsys.readouterr()
    assert eprints(captured.out) == ["2609.01234v1"]
    assert "feedtui: 2601.99999: not in the cache (refresh first, or check the id)" in captured.err


def test_bibtex_starred_paper_missing_from_the_cache_is_reported(env, capsys):
    """An arXiv paper comes back with `feedtui refresh` (by id); a web item only
    with a refresh of a topic whose feed still lists it."""
    starred = {"2601.00042": {"at": "2026-09-01T00:00:00+00:00"}, "web:0123456789abcdef": {"at": "2026-09-01T00:00:00+00:00"}}
    assert env.run("import", "json", str(write_state(env.tmp, starred=starred))) == 0
    capsys.readouterr()
    assert env.run("export", "bibtex", "--starred") == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "feedtui: 2601.00042: starred, but not in the cache (feedtui refresh fetches it)" in captured.err
    assert "feedtui: web:0123456789abcdef: starred, but not in the cache (refresh a topic it belongs to)" in captured.err


def test_bibtex_with_nothing_to_export_says_so_and_exits_1(env, capsys):
    assert env.run("topic", "add", "Mixture", "--query", "abs:mixture") == 0
    capsys.readouterr()
    assert env.run("export", "bibtex", "--topic", "Mixture") == 1
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == "feedtui: no papers to export\n"
    assert env.run("export", "bibtex", "--starred", "-o", str(env.tmp / "reading-list.bib")) == 1
    assert (env.tmp / "reading-list.bib").read_text() == ""  # the reading list as it is: empty, not a stale one
    assert "no papers to export" in capsys.readouterr().err


@pytest.mark.parametrize(
    "args",
    [
        ("export", "bibtex"),
        ("export", "bibtex", "--starred", "2609.01234"),
        ("export", "bibtex", "--topic", "Widgets", "2609.01234"),
    ],
)
def test_bibtex_needs_exactly_one_selection(env, capsys, args):
    assert env.run(*args) == 2
    assert "export bibtex: give one of --starred, --topic T or paper ids" in capsys.readouterr().err


def test_bibtex_unknown_topic_is_a_usage_error(env, capsys):
    assert env.run("export", "bibtex", "--topic", "No Such Topic Here") == 2
    assert "no topic called 'No Such Topic Here'" in capsys.readouterr().err


def test_output_file_is_written_whole_and_a_bad_path_is_named(env, capsys):
    target = env.tmp / "refs.bib"
    assert env.run("export", "bibtex", "--topic", "Widgets", "-o", str(target)) == 0
    captured = capsys.readouterr()
    assert captured.out == ""
    assert f"wrote 2 BibTeX entries to {target}" in captured.err
    assert eprints(target.read_text()) == ["2609.01240v2", "2609.01234v1"]
    assert not [p for p in env.tmp.iterdir() if p.name.endswith(".tmp")]

    nowhere = env.tmp / "no-such-dir" / "refs.bib"
    assert env.run("export", "bibtex", "--topic", "Widgets", "-o", str(nowhere)) == 1
    assert f"could not save {nowhere}" in capsys.readouterr().err


def test_an_exported_file_has_the_permissions_of_any_file_the_user_writes(env, capsys):
    """Not the data directory's owner-only 0600: a .bib is shared with coauthors."""
    import os
    import stat

    umask = os.umask(0o022)
    try:
        target = env.tmp / "shared.bib"
        assert env.run("export", "bibtex", "--topic", "Widgets", "-o", str(target)) == 0
        assert stat.S_IMODE(target.stat().st_mode) == 0o644
        for kept in (0o640, 0o666):  # replaced, a file keeps what the user gave it, whatever the umask
            target.chmod(kept)
            assert env.run("export", "bibtex", "--topic", "Widgets", "-o", str(target)) == 0
            assert stat.S_IMODE(target.stat().st_mode) == kept
        link = env.tmp / "link.bib"  # written through a symlink, as `>` would
        link.symlink_to(target)
        target.write_text("old")
        assert env.run("export", "bibtex", "--topic", "Widgets", "-o", str(link)) == 0
        assert link.is_symlink() and "@misc" in target.read_text()
        loop = env.tmp / "loop.bib"  # a symlink loop is an error, not a traceback
        loop.symlink_to(env.tmp / "loop.bib")
        assert env.run("export", "bibtex", "--topic", "Widgets", "-o", str(loop)) == 1
        assert f"could not write {loop}" in capsys.readouterr().err
    finally:
        os.umask(umask)
    capsys.readouterr()


# -- OPML ---------------------------------------------------------------------------------


def test_export_opml_lists_feed_topics_with_their_query(env, capsys):
    assert env.run("topic", "add", "Lab blog", "--feed", "https://lab.example.org/atom.xml", "--query", "abs:robot") == 0
    assert env.run(
        "topic", "add", "Two blogs", "--feed", "https://a.example.org/rss", "--feed", "https://b.example.org/rss"
    ) == 0
    capsys.readouterr()
    assert env.run("export", "opml") == 0
    body = ElementTree.fromstring(capsys.readouterr().out).find("body")
    assert [o.get("text") for o in body] == ["Lab blog", "Two blogs"]
    lab, two = list(body)
    assert lab.get("xmlUrl") == "https://lab.example.org/atom.xml"
    assert lab.get(f"{{{FEEDTUI_NS}}}query") == "abs:robot"
    assert [o.get("xmlUrl") for o in two] == ["https://a.example.org/rss", "https://b.example.org/rss"]


def test_export_opml_without_feed_topics_says_so(env, capsys):
    assert env.run("export", "opml") == 0
    captured = capsys.readouterr()
    assert ElementTree.fromstring(captured.out).find("body") is not None
    assert "no topic has feed URLs" in captured.err


def test_export_opml_names_the_topics_it_leaves_out(env, capsys):
    assert env.run("topic", "add", "Lab blog", "--feed", "https://lab.example.org/atom.xml") == 0
    assert env.run("topic", "add", "DC papers", "--category", "cs.DC") == 0
    assert env.run("follow", "Dark Matter") == 0
    capsys.readouterr()
    exported = env.tmp / "feeds.opml"
    assert env.run("export", "opml", "-o", str(exported)) == 0
    err = capsys.readouterr().err.splitlines()
    left_out = [line for line in err if line.startswith("feedtui: left out")]
    # Not the catalogue topics this data directory does not follow.
    assert left_out == [
        "feedtui: left out 3 topics without feed URLs (arXiv queries and categories; "
        "`feedtui export json` keeps them for feedtui elsewhere): Dark Matter, Widgets, DC papers"
    ]
    assert f"wrote 1 feed topic to {exported}" in err

    for n in range(1, 5):
        assert env.run("topic", "add", f"Query {n}", "--query", f"abs:q{n}") == 0
    capsys.readouterr()
    assert env.run("export", "opml") == 0
    assert ": Dark Matter, Widgets, DC papers, Query 1, Query 2 and 2 more" in capsys.readouterr().err


def test_import_newsboat_opml_then_again(tmp_path, capsys):
    env = make_env(tmp_path, "fresh", papers=PAPERS)
    source = OPML / "newsboat.opml"
    assert env.run("import", "opml", str(source), "--follow") == 0
    err = capsys.readouterr().err
    assert (
        f"imported {source}: 4 topic(s) added, 0 merged into existing topics, 0 already here, 0 topic(s) skipped; "
        "2 duplicate feed(s) merged; 2 outline(s) that are not http(s) feeds skipped"
    ) in err
    assert "is not an http(s) URL" in err
    topics = topics_json(env, capsys)
    assert topics["Robotics"]["definition"] == {
        "feeds": ["https://lab.example.org/robotics/atom.xml", "https://blog.example.net/feeds/manipulation.rss"]
    }
    assert topics["Perception"]["following"] and topics["Department News"]["following"]
    # Tagged over the cache at once: the paper that came from the department's feed is in.
    assert topics["Department News"]["papers"] == 1
    assert topics["Systems & Compilers"]["origin"] == "user"

    assert env.run("import", "opml", str(source)) == 0
    assert "0 topic(s) added, 0 merged into existing topics, 4 already here, 0 topic(s) skipped" in capsys.readouterr().err


def test_import_opml_merges_into_a_feed_topic_and_renames_around_an_arxiv_topic(tmp_path, capsys):
    env = make_env(tmp_path, "fresh")
    assert env.run("topic", "add", "Robotics", "--feed", "https://mine.example.org/feed", "--query", "abs:arm") == 0
    assert env.run("topic", "add", "Department News", "--query", "abs:department") == 0
    capsys.readouterr()
    assert env.run("import", "opml", str(OPML / "newsboat.opml")) == 0
    err = capsys.readouterr().err
    assert "merged into Robotics: 2 more feed(s)" in err
    assert "added Department News (feeds) (the name 'Department News' is taken by a topic without feeds)" in err
    topics = topics_json(env, capsys)
    assert topics["Robotics"]["definition"] == {
        "query": "abs:arm",
        "feeds": [
            "https://mine.example.org/feed",
            "https://lab.example.org/robotics/atom.xml",
            "https://blog.example.net/feeds/manipulation.rss",
        ],
    }
    assert topics["Department News"]["definition"] == {"query": "abs:department"}
    assert topics["Department News (feeds)"]["definition"] == {"feeds": ["https://news.example.edu/department/feed"]}


def test_import_opml_cuts_a_long_title_to_fit_and_renames_around_a_topic_without_feeds_within_the_limit(tmp_path, capsys):
    title = "Journal of Invented Results: Latest Articles in Wobbly Scheduling, Marrow Kernels, Quillon Studies, Sparse Ferns and Related Topics"
    cut = "Journal of Invented Results: Latest Articles in Wobbly Scheduling, Marrow Kernels, Quillon Studies, Sparse Ferns and Re…"
    opml = tmp_path / "journal.opml"
    opml.write_text(f'<opml version="2.0"><body><outline type="rss" text="{title}" xmlUrl="https://journal.example/rss"/></body></opml>')
    env = make_env(tmp_path, "fresh")
    assert env.run("import", "opml", str(opml)) == 0
    assert "1 topic(s) added" in capsys.readouterr().err
    assert topics_json(env, capsys)[cut]["definition"] == {"feeds": ["https://journal.example/rss"]}

    env = make_env(tmp_path, "other")
    assert env.run("topic", "add", cut, "--query", "abs:wobbly") == 0
    capsys.readouterr()
    assert env.run("import", "opml", str(opml)) == 0
    in_feeds = "Journal of Invented Results: Latest Articles in Wobbly Scheduling, Marrow Kernels, Quillon Studies, Sparse Fern… (feeds)"
    assert f"added {in_feeds} (the name '{cut}' is taken by a topic without feeds)" in capsys.readouterr().err
    assert topics_json(env, capsys)[in_feeds]["definition"] == {"feeds": ["https://journal.example/rss"]}
    # Imported again, the feed goes to the same topic.
    assert env.run("import", "opml", str(opml)) == 0
    assert "0 topic(s) added, 0 merged into existing topics, 1 already here" in capsys.readouterr().err

    env = make_env(tmp_path, "third")
    assert env.run("topic", "add", cut, "--query", "abs:wobbly") == 0
    assert env.run("topic", "add", in_feeds, "--query", "abs:marrow") == 0
    capsys.readouterr()
    assert env.run("import", "opml", str(opml)) == 0
    in_feeds_2 = "Journal of Invented Results: Latest Articles in Wobbly Scheduling, Marrow Kernels, Quillon Studies, Sparse Fe… (feeds) 2"
    assert topics_json(env, capsys)[in_feeds_2]["definition"] == {"feeds": ["https://journal.example/rss"]}


def test_import_opml_with_a_bad_query_skips_that_topic_and_exits_1(tmp_path, capsys):
    env = make_env(tmp_path, "fresh")
    opml = tmp_path / "bad-query.opml"
    opml.write_text(
        f'<opml version="2.0" xmlns:feedtui="{FEEDTUI_NS}"><body>'
        '<outline type="rss" text="Broken" xmlUrl="https://x.example.org/rss" feedtui:query="abs:(robot"/>'
        '<outline type="rss" text="Fine" xmlUrl="https://y.example.org/rss"/>'
        "</body></opml>"
    )
    assert env.run("import", "opml", str(opml)) == 1
    err = capsys.readouterr().err
    assert f"feedtui: {opml}: skipped topic 'Broken': " in err
    assert "1 topic(s) added, 0 merged into existing topics, 0 already here, 1 topic(s) skipped" in err
    topics = topics_json(env, capsys)
    assert "Fine" in topics and "Broken" not in topics


def test_import_opml_invalid_or_missing_file_exits_1_naming_it(tmp_path, capsys):
    env = make_env(tmp_path, "fresh")
    bad = tmp_path / "feeds.opml"
    bad.write_text("this is not xml")
    assert env.run("import", "opml", str(bad)) == 1
    assert f"feedtui: {bad}: not valid XML: syntax error (line 1, column 1)" in capsys.readouterr().err
    missing = tmp_path / "nope.opml"
    assert env.run("import", "opml", str(missing)) == 1
    assert f"feedtui: {missing}: no such file" in capsys.readouterr().err


def test_import_opml_of_a_newsboat_urls_file_imports_its_feeds(tmp_path, capsys):
    env = make_env(tmp_path, "fresh")
    urls = tmp_path / "urls"
    urls.write_text('https://lab.example.org/atom.xml "Robotics"\nhttps://news.example.edu/department/feed "~Department News"\n')
    assert env.run("import", "opml", str(urls), "--follow") == 0
    err = capsys.readouterr().err
    assert f"feedtui: {urls}: not OPML but a list of feed URLs, as in newsboat's urls file: each URL read as a feed, its tags as topics" in err
    assert f"imported {urls}: 2 topic(s) added" in err
    topics = topics_json(env, capsys)
    assert topics["Robotics"]["definition"] == {"feeds": ["https://lab.example.org/atom.xml"]}
    assert topics["Department News"]["following"]


def test_import_opml_from_stdin(tmp_path, capsys, monkeypatch):
    env = make_env(tmp_path, "fresh")
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO((OPML / "nom.opml").read_bytes())))
    assert env.run("import", "opml", "-") == 0
    assert "imported <stdin>: 4 topic(s) added" in capsys.readouterr().err
    assert "Weekly Digest (2)" in topics_json(env, capsys)


def test_opml_round_trip_between_two_data_dirs(env, capsys):
    assert env.run("topic", "add", "Lab blog", "--feed", "https://lab.example.org/atom.xml", "--query", 'abs:"robot arm"') == 0
    assert env.run("topic", "add", "Two blogs", "--feed", "https://a.example.org/rss", "--feed", "https://b.example.org/rss", "--description", "both") == 0
    exported = env.tmp / "feeds.opml"
    assert env.run("export", "opml", "-o", str(exported)) == 0
    other = make_env(env.tmp, "other")
    assert other.run("import", "opml", str(exported)) == 0
    mine, theirs = topics_json(env, capsys), topics_json(other, capsys)
    for name in ("Lab blog", "Two blogs"):
        assert theirs[name]["definition"] == mine[name]["definition"]
        assert theirs[name]["description"] == mine[name]["description"]


def test_opml_round_trip_keeps_a_topic_whose_feed_another_topic_also_has(tmp_path, capsys):
    env = make_env(tmp_path, "mine")
    shared = "https://shared.example.org/feed.xml"
    assert env.run("topic", "add", "One Feed", "--feed", shared, "--description", "my desc") == 0
    assert env.run("topic", "add", "Two Feeds", "--feed", shared, "--feed", "https://b.example.org/rss") == 0
    exported = tmp_path / "feeds.opml"
    assert env.run("export", "opml", "-o", str(exported)) == 0
    other = make_env(tmp_path, "other")
    capsys.readouterr()
    assert other.run("import", "opml", str(exported)) == 0
    err = capsys.readouterr().err
    assert "2 topic(s) added" in err and "duplicate" not in err
    mine, theirs = topics_json(env, capsys), topics_json(other, capsys)
    for name in ("One Feed", "Two Feeds"):
        assert theirs[name]["definition"] == mine[name]["definition"]
        assert theirs[name]["description"] == mine[name]["description"]


# -- JSON state -------------------------------------------------------------------------


def write_state(directory: Path, **tables) -> Path:
    path = directory / "handmade-state.json"
    path.write_text(json.dumps({"feedtui": "0.1.0", "format": 1, **tables}))
    return path


def test_json_export_then_import_into_an_empty_data_dir_reproduces_everything(env, capsys):
    assert env.run("follow", "Widgets") == 0
    assert env.run("follow", "Edge Inference") == 0
    assert env.run("read", "2609.01234", "2609.05555") == 0
    assert env.run("star", "2609.01240") == 0
    assert env.run("topic", "add", "Lab blog", "--feed", "https://lab.example.org/atom.xml") == 0
    assert env.run("topic", "rm", "LLM Inference") == 0
    exported = env.tmp / "state.json"
    assert env.run("export", "json", "-o", str(exported)) == 0
    capsys.readouterr()
    before = json.loads(exported.read_text())
    assert set(before["follows"]) == {"Widgets", "Edge Inference"}
    assert set(before["read"]) == {"2609.01234", "2609.05555"}
    assert set(before["starred"]) == {"2609.01240"}
    assert set(before["topics"]) == {"Widgets", "Lab blog"}
    assert set(before["hidden_topics"]) == {"LLM Inference"}

    new = make_env(env.tmp, "new-machine")
    assert new.run("import", "json", str(exported)) == 0
    err = capsys.readouterr().err
    assert "follows: 2 added, 0 already here" in err and "read marks: 2 added, 0 already here" in err
    assert new.run("export", "json") == 0
    after = json.loads(capsys.readouterr().out)
    for document in (before, after):
        del document["exported"]
    assert after == before
    topics = topics_json(new, capsys)
    assert topics["Widgets"]["following"] and topics["Lab blog"]["definition"] == {"feeds": ["https://lab.example.org/atom.xml"]}
    assert "LLM Inference" not in topics


def test_json_export_says_what_it_wrote_in_words_that_agree_with_the_count(env, capsys):
    """It said "1 topics"."""
    assert env.run("follow", "Widgets") == 0
    assert env.run("read", "2609.01234") == 0
    capsys.readouterr()
    assert env.run("export", "json", "-o", str(env.tmp / "state.json")) == 0
    assert capsys.readouterr().err == f"wrote your state (1 follow, 1 read, 0 starred, 1 topic) to {env.tmp / 'state.json'}\n"
    assert env.run("follow", "Edge Inference") == 0
    assert env.run("topic", "add", "Lab blog", "--feed", "https://lab.example.org/atom.xml") == 0
    capsys.readouterr()
    assert env.run("export", "json", "-o", str(env.tmp / "state.json")) == 0
    assert capsys.readouterr().err.startswith("wrote your state (2 follows, 1 read, 0 starred, 2 topics) to ")


def test_json_import_tags_the_imported_topics_over_the_cache(env, tmp_path, capsys):
    exported = tmp_path / "state.json"
    assert env.run("export", "json", "-o", str(exported)) == 0
    refreshed = make_env(tmp_path, "refreshed", papers=PAPERS)
    assert refreshed.run("import", "json", str(exported)) == 0
    assert topics_json(refreshed, capsys)["Widgets"]["papers"] == 2


def test_json_import_updates_unread_counts_and_keeps_what_is_here(env, tmp_path, capsys):
    other = make_env(tmp_path, "laptop", papers=PAPERS)
    assert other.run("topic", "add", "Widgets", "--query", "abs:widgets") == 0
    assert other.run("read", "2609.01234", "2609.01240") == 0
    assert other.run("export", "json", "-o", str(tmp_path / "laptop.json")) == 0
    assert env.run("star", "2609.05555") == 0
    assert topics_json(env, capsys)["Widgets"]["unread"] == 2

    assert env.run("import", "json", str(tmp_path / "laptop.json")) == 0
    topics = topics_json(env, capsys)
    assert topics["Widgets"]["unread"] == 0
    assert env.run("export", "json") == 0
    state = json.loads(capsys.readouterr().out)
    assert set(state["starred"]) == {"2609.05555"}
    assert set(state["read"]) == {"2609.01234", "2609.01240"}


def test_json_import_does_not_hide_a_catalogue_topic_followed_here(env, capsys):
    """An export from a machine where 'Dark Matter' was removed hid it here
    too, followed as it was: it left the reader, and every command blamed the
    config file ("renamed or removed in the config file?")."""
    at = {"at": "2026-09-01T00:00:00+00:00"}
    exported = write_state(env.tmp, hidden_topics={"Dark Matter": at, "LLM Inference": at})
    assert env.run("follow", "Dark Matter") == 0
    capsys.readouterr()
    assert env.run("import", "json", str(exported)) == 0
    err = capsys.readouterr().err
    assert "  hidden catalogue topics: 1 added, 0 already here\n" in err
    assert "  kept 'Dark Matter': you follow it here, so the import does not hide it (feedtui topic rm 'Dark Matter' would)\n" in err
    assert "you follow" not in err.replace("you follow it here", "")
    topics = topics_json(env, capsys)
    assert topics["Dark Matter"]["following"] and "LLM Inference" not in topics
    assert capsys.readouterr().err == ""


def test_a_follow_of_a_hidden_catalogue_topic_names_topic_restore_not_the_config_file(env, capsys):
    at = {"at": "2026-09-01T00:00:00+00:00"}
    exported = write_state(env.tmp, follows={"Dark Matter": {"since": at["at"]}}, hidden_topics={"Dark Matter": at})
    assert env.run("import", "json", str(exported)) == 0
    err = capsys.readouterr().err
    assert "  you follow catalogue topics that are hidden here: Dark Matter (feedtui topic restore 'Dark Matter' shows one again)\n" in err
    assert "config" not in err
    assert env.run("topics") == 0
    assert capsys.readouterr().err == (
        "feedtui: you follow 'Dark Matter', but the catalogue topic 'Dark Matter' is hidden (removed here or by an import): "
        "feedtui topic restore 'Dark Matter' shows it again, feedtui unfollow 'Dark Matter' drops the follow\n"
    )
    assert env.run("topic", "restore", "dark matter") == 0
    assert topics_json(env, capsys)["Dark Matter"]["following"]
    assert capsys.readouterr().err == ""


def test_json_import_skips_the_follow_of_a_topic_whose_name_is_taken_here_in_another_spelling(env, capsys):
    since = {"since": "2026-09-01T00:00:00+00:00"}
    exported = write_state(
        env.tmp, topics={"WIDGETS": {"query": "ti:quillon"}}, follows={"WIDGETS": since, "Edge Inference": since}
    )
    assert env.run("import", "json", str(exported)) == 1
    err = capsys.readouterr().err
    assert "  follows: 1 added, 0 already here\n" in err
    assert "  skipped topic 'WIDGETS' and its follow: there is a topic called 'Widgets' already" in err
    topics = topics_json(env, capsys)
    assert not topics["Widgets"]["following"] and topics["Edge Inference"]["following"]
    assert topics["Widgets"]["definition"] == {"query": "abs:widgets"}


def test_json_import_refuses_newer_formats_and_non_json(env, tmp_path, capsys):
    newer = tmp_path / "newer.json"
    newer.write_text(json.dumps({"feedtui": "3.0.0", "format": 2, "read": {"2609.01234": {"at": "x"}}}))
    assert env.run("import", "json", str(newer)) == 1
    assert f"feedtui: {newer} was written by a newer feedtui (3.0.0, export format 2)" in capsys.readouterr().err
    assert topics_json(env, capsys)["Widgets"]["unread"] == 2

    broken = tmp_path / "broken.json"
    broken.write_text('{"feedtui": "0.1.0",\n "format": 1,,}')
    assert env.run("import", "json", str(broken)) == 1
    err = capsys.readouterr().err
    assert f"feedtui: {broken}: not JSON (" in err and "line 2, column" in err

    empty = tmp_path / "empty.json"
    empty.write_text("\n")
    assert env.run("import", "json", str(empty)) == 1
    assert f"feedtui: {empty}: the file is empty (expected JSON from `feedtui export json`)" in capsys.readouterr().err


def test_export_into_a_pipe_writes_into_it_instead_of_replacing_it(env, capsys):
    import os
    import threading

    fifo = env.tmp / "pipe.bib"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    assert env.run("export", "bibtex", "--topic", "Widgets", "-o", str(fifo)) == 0
    reader.join(timeout=10)
    assert got and got[0].startswith(b"@misc{")
    assert fifo.is_fifo()  # still the pipe, not a file put in its place
    capsys.readouterr()

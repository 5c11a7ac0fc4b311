"""Tags end to end: what the API returned for a topic, retagging without the
network, and stale tags recomputed — through the CLI, on a loopback arXiv."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from feedtui.model import TopicDefinition
from feedtui.topics.catalogue import load_catalogue

from tests.arxiv_search import LoopbackArxiv, belongs, cli_against, published
from tests.atom import Entry
from tests.test_batching import TOPICS, follow_all, invented_corpus


def paper(number: int, days: int, summary: str, categories=("cs.LG",)) -> Entry:
    moment = datetime.now(UTC) - timedelta(days=days)
    return Entry(
        f"{moment:%y%m}.{number:05d}",
        title=f"Invented paper {number}",
        summary=summary,
        published=moment.strftime("%Y-%m-%dT%H:%M:%SZ"),
        categories=list(categories),
    )


WIDGETRY = paper(1, 3, "Widgetry for gizmos, at last.")  # arXiv's stemming would find it for widget
WIDGET = paper(2, 4, "A widget for sprockets.")
SPROCKET = paper(3, 5, "Sprocket theory, without the rest.")
ALPHA = paper(4, 6, "Alpha particles in a box.")
BETAMAX = paper(5, 7, "Betamax tapes and alphabets.")  # matches neither alpha nor beta locally
BETA = paper(6, 8, "Beta decay, measured again.")
FEDERATED = paper(7, 9, "Federated learning across many phones.", categories=("cs.LG", "cs.DC"))


def members(cli, capsys, topic: str) -> dict[str, list[str]]:
    """paper id -> its tags, for the topic's papers (`feedtui papers TOPIC --json`)."""
    capsys.readouterr()
    assert cli("papers", topic, "--json") == 0
    return {p["id"]: p["tags"] for p in json.loads(capsys.readouterr().out)}


# --- what the API returned --------------------------------------------------


def test_a_paper_the_api_returned_for_one_topic_belongs_to_it(tmp_path, httpserver, monkeypatch, capsys):
    corpus = [WIDGETRY, WIDGET, SPROCKET]
    arxiv = LoopbackArxiv(corpus, disagree={"abs:widget": [WIDGETRY]})
    cli = cli_against(arxiv, tmp_path, httpserver, monkeypatch)
    assert cli("topic", "add", "Widgets", "--query", "abs:widget") == 0
    assert cli("follow", "Widgets") == 0
    assert cli("refresh") == 0
    assert [r.search_query for r in arxiv.search_requests] == ["abs:widget"]

    found = members(cli, capsys, "Widgets")
    assert set(found) == {WIDGETRY.id, WIDGET.id}
    assert found[WIDGETRY.id] == ["Widgets"]

    # Another query: what the old one fetched no longer counts; no request is sent.
    sent = len(arxiv.api_requests)
    assert cli("topic", "edit", "Widgets", "--query", "abs:sprocket") == 0
    assert set(members(cli, capsys, "Widgets")) == {WIDGET.id}  # SPROCKET was never fetched
    # The same query again: the API's answer to it counts again.
    assert cli("topic", "edit", "Widgets", "--query", "abs:widget") == 0
    assert set(members(cli, capsys, "Widgets")) == {WIDGETRY.id, WIDGET.id}
    assert len(arxiv.api_requests) == sent


def test_a_combined_request_leaves_the_verdict_to_local_matching(tmp_path, httpserver, monkeypatch, capsys):
    """A batch cannot say which topic a paper answered: each paper goes to the
    topics whose queries match it locally; one that matches none is kept in the
    cache without tags."""
    arxiv = LoopbackArxiv([ALPHA, BETAMAX, BETA], disagree={"abs:alpha": [BETAMAX]})
    cli = cli_against(arxiv, tmp_path, httpserver, monkeypatch)
    for name, query in (("Alpha", "abs:alpha"), ("Beta", "abs:beta")):
        assert cli("topic", "add", name, "--query", query) == 0
        assert cli("follow", name) == 0
    assert cli("refresh") == 0
    assert [r.search_query for r in arxiv.search_requests] == ["abs:alpha OR abs:beta"]

    assert members(cli, capsys, "Alpha") == {ALPHA.id: ["Alpha"]}
    assert members(cli, capsys, "Beta") == {BETA.id: ["Beta"]}
    capsys.readouterr()
    assert cli("read", BETAMAX.id) == 0  # it is in the cache
    assert "1 changed" in capsys.readouterr().err
    assert cli("topics", "--json") == 0
    tagged = sum(t["papers"] for t in json.loads(capsys.readouterr().out))
    assert tagged == 2


# --- retagging without the network -------------------------------------------


@pytest.fixture
def refreshed(tmp_path, httpserver, monkeypatch):
    """Twenty topics refreshed from the invented corpus; then every request fails the test."""
    now = datetime.now(UTC)
    arxiv = LoopbackArxiv(invented_corpus(now))
    cli = cli_against(arxiv, tmp_path, httpserver, monkeypatch)
    follow_all(cli)
    assert cli("refresh") == 0
    cached = [
        e for e in arxiv.corpus
        if published(e) >= now - timedelta(weeks=16)
        and any(belongs(e, TopicDefinition(query=q)) for q in TOPICS.values())
    ]
    sent = len(arxiv.api_requests)
    yield cli, cached
    assert len(arxiv.api_requests) == sent, "retagging must not touch the network"


def expected(cached: list[Entry], definition: TopicDefinition) -> set[str]:
    return {e.id for e in cached if belongs(e, definition)}


def test_topic_add_and_edit_retag_the_cache_without_refetching(refreshed, capsys):
    cli, cached = refreshed
    query = "(abs:halyard OR abs:corvid) AND cat:cs.LG ANDNOT ti:sorrel"
    assert cli("topic", "add", "Halyard Corvids", "--query", query) == 0
    got = members(cli, capsys, "Halyard Corvids")
    assert set(got) == expected(cached, TopicDefinition(query=query)) and got
    assert all("Halyard Corvids" in tags for tags in got.values())

    assert cli("topic", "add", "Architecture", "--category", "cs.AR", "--query", "abs:widget*") == 0
    arch = TopicDefinition(query="abs:widget*", categories=("cs.AR",))
    assert set(members(cli, capsys, "Architecture")) == expected(cached, arch)

    new_query = 'abs:"tidal schedulers" OR au:vantle'
    assert cli("topic", "edit", "Corvid", "--query", new_query) == 0
    got = members(cli, capsys, "Corvid")
    assert set(got) == expected(cached, TopicDefinition(query=new_query)) and got


def test_topic_edit_replaces_categories_and_feeds_and_retags(refreshed, capsys):
    """`topic edit` had only --query and --description: changing a topic's
    categories or feeds took `topic rm` and `topic add`, which unfollowed it."""
    cli, cached = refreshed
    assert cli("topic", "add", "Architecture", "--category", "cs.AR", "--query", "abs:widget*") == 0
    assert cli("follow", "Architecture") == 0
    capsys.readouterr()
    assert cli("topic", "edit", "Architecture", "--category", "cs.LG", "--category", "cs.DC") == 0
    assert "changed Architecture: categories cs.LG cs.DC; matching abs:widget*" in capsys.readouterr().err
    wider = TopicDefinition(query="abs:widget*", categories=("cs.LG", "cs.DC"))
    assert set(members(cli, capsys, "Architecture")) == expected(cached, wider) != expected(
        cached, TopicDefinition(query="abs:widget*", categories=("cs.AR",))
    )
    feed = "https://lab.example.org/atom.xml"
    assert cli("topic", "edit", "Architecture", "--feed", feed, "--category", "", "--query", "") == 0
    capsys.readouterr()
    assert cli("topics", "--json") == 0
    architecture = next(t for t in json.loads(capsys.readouterr().out) if t["name"] == "Architecture")
    assert architecture["definition"] == {"feeds": [feed]} and architecture["following"]
    assert cli("topic", "edit", "Architecture", "--feed", "") == 2
    assert "the topic would have no query, categories or feeds left" in capsys.readouterr().err
    assert cli("topic", "edit", "Architecture", "--category", "cs.AR", "--feed", "ftp://lab.example.org/") == 2
    assert "must start with http:// or https://" in capsys.readouterr().err


def test_tags_of_a_changed_catalogue_topic_are_recomputed_at_load(refreshed, capsys, monkeypatch):
    cli, cached = refreshed
    changed = "abs:halyard AND cat:cs.DC"
    upgraded = [
        t.replaced(definition=TopicDefinition(query=changed)) if t.name == "Federated Learning" else t
        for t in load_catalogue()
    ]
    monkeypatch.setattr("feedtui.core.topics.load_catalogue", lambda: upgraded)
    got = members(cli, capsys, "Federated Learning")
    assert set(got) == expected(cached, TopicDefinition(query=changed)) and got


def test_a_new_matcher_recomputes_every_topic_from_the_cache(refreshed, capsys, monkeypatch):
    cli, _cached = refreshed
    capsys.readouterr()
    assert cli("topics", "--json") == 0
    before = {t["name"]: (t["papers"], t["unread"]) for t in json.loads(capsys.readouterr().out)}
    monkeypatch.setattr("feedtui.topics.registry.MATCHER_VERSION", "a later matcher")
    assert cli("topics", "--json") == 0
    after = {t["name"]: (t["papers"], t["unread"]) for t in json.loads(capsys.readouterr().out)}
    assert after == before
    assert sum(papers for papers, _ in after.values()) > 0


def test_a_catalogue_topic_followed_on_a_fresh_data_directory_has_its_papers(tmp_path, httpserver, monkeypatch, capsys):
    arxiv = LoopbackArxiv([FEDERATED, ALPHA])
    cli = cli_against(arxiv, tmp_path, httpserver, monkeypatch)
    assert cli("follow", "Federated Learning") == 0
    assert cli("refresh") == 0
    assert members(cli, capsys, "Federated Learning") == {FEDERATED.id: ["Federated Learning"]}


def test_topic_show_prints_the_query_as_sent_to_arxiv(tmp_path, httpserver, monkeypatch, capsys):
    """docs/queries.md says so; only the query as written was printed."""
    arxiv = LoopbackArxiv([WIDGET, SPROCKET])
    cli = cli_against(arxiv, tmp_path, httpserver, monkeypatch)
    assert cli("topic", "add", "Mixed", "--query", "widget OR sprocket AND ti:(gizmo OR gadget)") == 0
    assert cli("topic", "add", "Plain", "--query", "abs:widget") == 0
    assert cli("follow", "Mixed") == 0
    assert cli("refresh") == 0
    capsys.readouterr()
    assert cli("topic", "show", "Mixed") == 0
    lines = capsys.readouterr().out.splitlines()
    [sent] = [r.search_query for r in arxiv.search_requests]
    assert sent == "all:widget OR (all:sprocket AND (ti:gizmo OR ti:gadget))"
    assert lines[1:3] == ["definition: query widget OR sprocket AND ti:(gizmo OR gadget)", f"sent to arXiv as: {sent}"]
    # Sent as written: said once.
    assert cli("topic", "show", "Plain") == 0
    assert not any(line.startswith("sent to arXiv as:") for line in capsys.readouterr().out.splitlines())

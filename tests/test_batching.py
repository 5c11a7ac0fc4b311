"""Refreshing many topics politely: batched API requests, paging, the
category feed, and which topics every paper lands under — end to end against
a loopback arXiv that evaluates the queries it receives."""

from __future__ import annotations

from feedtui.settings import ArxivSettings

import asyncio
import json
import random
from datetime import UTC, datetime, timedelta

import pytest

from feedtui.cli import main
from feedtui.config import load_config
from feedtui.core.engine import open_engine
from feedtui.model import TopicDefinition
from feedtui.topics.catalogue import load_catalogue
from feedtui.topics.query import parse_query

from tests.arxiv_rss import Announcement
from tests.arxiv_search import LoopbackArxiv, belongs, cli_against, published
from tests.atom import Entry

# Twenty followed topics in the catalogue's style: a category restriction,
# then words of an invented vocabulary. Together about 1,400 characters of
# search_query: two requests under the default 1,000-character limit.
TOPICS = {
    "Sparse Widgets": '(cat:cs.DC OR cat:cs.LG) AND abs:"sparse widget"',
    "Quillon": "(cat:cs.DC OR cat:cs.AR OR cat:cs.LG) AND ti:quillon",
    "Marrow": "(cat:cs.DC OR cat:cs.NI) AND abs:marrow*",
    "Vantle's group": "au:vantle AND (cat:cs.DC OR cat:cs.AR OR cat:stat.ML)",
    "Lattice Hardware": "cat:cs.AR AND (abs:lattice OR ti:lattice)",
    "Gloam": "(abs:gloam OR ti:gloam) ANDNOT cat:cs.LG",
    "Kestrel Routing": "(abs:kestrel OR ti:kestrel) AND (abs:routing OR abs:router)",
    "Tidal Schedulers": '(cat:cs.DC OR cat:cs.OS) AND abs:"tidal scheduler"',
    "Hexwick and Tarn": "(ti:hexwick OR ti:tarn) AND (cat:cs.DC OR cat:cs.NI OR cat:cs.LG)",
    "Ostrakon Compression": "abs:ostrakon AND (abs:compression OR abs:compressor)",
    "Nimbra": "(cat:stat.ML OR cat:cs.LG) AND abs:nimbra",
    "Corvid": "abs:corvid AND (cat:cs.DC OR cat:cs.AR OR cat:cs.NI OR cat:stat.ML)",
    "Halyard": "all:halyard AND (cat:cs.DC OR cat:cs.LG OR cat:math.OC)",
    "Skein": "abs:skein AND (cat:cs.DC OR cat:cs.NI)",
    "Brisa Papers": 'co:brisa OR co:"brisa workshop"',
    "Lumen Tiles": '(cat:cs.AR OR cat:cs.DC) AND abs:"lumen tiles"',
    "Sorrel": "(ti:sorrel OR abs:sorrel) ANDNOT abs:gradient",
    "Orrin Cindra": 'au:"orrin cindra" AND (cat:cs.DC OR cat:cs.LG OR cat:cs.AR)',
    "Spindle Widgets": "abs:spindle AND (abs:widget OR abs:widgets)",
    "Tessera": "(abs:tessera OR jr:tessera) AND (cat:cs.DC OR cat:math.OC OR cat:stat.ML)",
}

CATEGORIES = ("cs.DC", "cs.AR", "cs.LG", "cs.NI", "cs.OS", "stat.ML", "math.OC")
TITLE_WORDS = ("Quillon", "Hexwick", "Tarn", "Sorrel", "Kestrel", "Lattice", "Gloam", "Brisk", "Fennel")
ABSTRACT_MARKERS = (
    "sparse widget", "sparse widgets", "marrowbench", "marrowing", "gloam", "kestrel", "routing",
    "router", "tidal scheduler", "tidal schedulers", "ostrakon", "compression", "compressor", "nimbra",
    "corvid", "halyard", "skein", "lumen tiles", "spindle", "widget", "widgets", "gradient", "tessera",
    "lattice", "sorrel", "quillon",
)
PEOPLE = ("Vantle Osk", "Orrin Cindra", "Cindra Orrin", "Ada Quill", "Bo Marsh", "Ines Halyard", "Tomas Vell")
FILLER = ("We measure", "The method trades", "Experiments show", "This note studies", "We revisit")


def invented_corpus(now: datetime, count: int = 260, seed: int = 3) -> list[Entry]:
    """Papers over 15 weeks before `now`, and some older than the 16-week window."""
    rng = random.Random(seed)
    entries = []
    for number in range(1, count + 1):
        old = number % 13 == 0
        age = timedelta(weeks=rng.uniform(17, 20)) if old else timedelta(minutes=rng.randrange(10, 15 * 7 * 1440))
        moment = (now - age).replace(microsecond=0)
        markers = rng.sample(ABSTRACT_MARKERS, rng.randint(2, 4))
        sentences = [f"{rng.choice(FILLER)} {marker} on {rng.randint(2, 90)} nodes." for marker in markers]
        categories = list(dict.fromkeys(rng.sample(CATEGORIES, rng.randint(1, 3))))
        entries.append(
            Entry(
                f"{moment:%y%m}.{number:05d}",
                title=f"{rng.choice(TITLE_WORDS)} {rng.choice(('Notes', 'Systems', 'Bounds'))} for {rng.choice(('clusters', 'chips', 'graphs'))}",
                summary=" ".join(sentences),
                published=moment.strftime("%Y-%m-%dT%H:%M:%SZ"),
                authors=[(name, []) for name in rng.sample(PEOPLE, rng.randint(1, 3))],
                categories=categories,
                comment=rng.choice((None, None, "Accepted at the Brisa workshop", "12 pages")),
                journal_ref=rng.choice((None, None, None, "Tessera Letters 4 (2026) 1-9")),
            )
        )
    return entries


@pytest.fixture
def setup(tmp_path, httpserver, monkeypatch):
    """A loopback arXiv and a `feedtui` CLI pointed at it."""
    now = datetime.now(UTC)
    arxiv = LoopbackArxiv(invented_corpus(now))
    return arxiv, cli_against(arxiv, tmp_path, httpserver, monkeypatch), now


def papers_json(cli, capsys, topic: str) -> list[dict]:
    capsys.readouterr()
    assert cli("papers", topic, "--json") == 0
    return json.loads(capsys.readouterr().out)


def every_topic_definition() -> dict[str, TopicDefinition]:
    topics = {t.name: t.definition for t in load_catalogue()}
    topics.update({name: TopicDefinition(query=q) for name, q in TOPICS.items()})
    return topics


def follow_all(cli) -> None:
    for name, query in TOPICS.items():
        assert cli("topic", "add", name, "--query", query) == 0
        assert cli("follow", name) == 0


def test_twenty_topics_two_requests_and_every_paper_under_exactly_its_topics(setup, capsys):
    arxiv, cli, now = setup
    follow_all(cli)
    assert arxiv.api_requests == []  # adding and following topics asks nothing

    assert cli("refresh") == 0

    queries = list(dict.fromkeys(r.search_query for r in arxiv.search_requests))
    assert 1 <= len(queries) <= 2
    assert all(len(q) <= ArxivSettings().max_query_length for q in queries)
    # Paging inside each batch: contiguous pages of 20 from 0.
    for query in queries:
        starts = [r.start for r in arxiv.search_requests if r.search_query == query]
        assert starts == list(range(0, 20 * len(starts), 20)) and len(starts) > 1
    assert len(arxiv.total_requests) == 1

    window_start = now - timedelta(weeks=16)
    fetched = [
        e for e in arxiv.corpus
        if published(e) >= window_start and any(belongs(e, TopicDefinition(query=q)) for q in TOPICS.values())
    ]
    assert len(fetched) > 100  # the corpus is big enough to page
    definitions = every_topic_definition()
    expected_tags = {e.id: {name for name, d in definitions.items() if belongs(e, d)} for e in fetched}

    seen_tags: dict[str, set[str]] = {}
    for name in TOPICS:
        papers = papers_json(cli, capsys, name)
        members = {p["id"] for p in papers}
        assert members == {pid for pid, tags in expected_tags.items() if name in tags}, name
        assert members, name
        for paper in papers:
            seen_tags[paper["id"]] = set(paper["tags"])
    assert seen_tags == expected_tags


def test_the_query_length_limit_splits_batches(tmp_path, httpserver):
    now = datetime(2026, 10, 1, 18, 0, tzinfo=UTC)
    arxiv = LoopbackArxiv(invented_corpus(now)).install(httpserver)
    config = load_config(tmp_path / "none.toml")
    config.settings.arxiv.api_url = httpserver.url_for("/api/query")
    config.settings.arxiv.min_interval = 0.0
    config.settings.arxiv.max_query_length = 300
    engine = open_engine(config, tmp_path / "data", clock=lambda: now)
    for name, query in TOPICS.items():
        engine.add_topic(name, TopicDefinition(query=query))
        engine.follow(name)

    report = asyncio.run(engine.refresh())

    assert report.ok
    queries = list(dict.fromkeys(r.search_query for r in arxiv.search_requests))
    assert all(len(q) <= 300 for q in queries)
    longest = max(len(q) for q in TOPICS.values())
    total = sum(len(q) for q in TOPICS.values())
    # Never fewer requests than the lengths force; and greedy packing leaves
    # every request but the last too full to take one more topic.
    assert total / 300 <= len(queries) <= (total + 6 * len(TOPICS)) / (300 - longest - 6) + 1
    engine.close()
    engine = open_engine(config, tmp_path / "data", clock=lambda: now)
    library = engine.library
    engine.retag()  # as the TUI does at start: topics never tagged in full are computed from the cache
    for name, query in TOPICS.items():
        expected = {
            e.id for e in arxiv.corpus
            if published(e) >= now - timedelta(weeks=16) and belongs(e, TopicDefinition(query=query))
        }
        assert {library.ids[i] for i in engine.topic_positions(name)} == expected, name
    engine.close()


def test_a_topic_answered_today_is_not_asked_again_unless_forced(setup, capsys):
    arxiv, cli, _now = setup
    follow_all(cli)
    assert cli("refresh") == 0
    sent = len(arxiv.api_requests)
    assert cli("refresh") == 0
    assert len(arxiv.api_requests) == sent
    err = capsys.readouterr().err
    assert err.count("already fetched today") == len(TOPICS)

    assert cli("topic", "add", "Fresh", "--query", "abs:corvid AND cat:cs.LG") == 0
    assert cli("follow", "Fresh") == 0
    searches = len(arxiv.search_requests)
    assert cli("refresh") == 0
    # Only the new topic is asked: one request of its own query.
    assert [r.search_query for r in arxiv.search_requests[searches:]] == ["abs:corvid AND cat:cs.LG"]

    searches = len(arxiv.search_requests)
    assert cli("refresh", "--force") == 0
    forced = {r.search_query for r in arxiv.search_requests[searches:]}
    assert 1 <= len(forced) <= 2  # everything again, still batched
    for query in [*TOPICS.values(), "abs:corvid AND cat:cs.LG"]:
        assert any(parse_query(query).to_api() in batch for batch in forced), query
    assert len(arxiv.total_requests) == 1  # the day's total is cached


# --- category topics: one feed request, and the API back-fill -------------

CATEGORY_TOPICS = {"Distributed": "cs.DC", "Architecture": "cs.AR"}


def category_corpus(now: datetime) -> list[Entry]:
    entries = []
    layout = [
        (["hep-lat"], 3), (["hep-lat", "hep-ph"], 5), (["cs.DC"], 8), (["cs.AR", "cs.DC"], 12),
        (["cs.AR"], 20), (["cs.LG", "cs.AR"], 30), (["cs.LG"], 40), (["hep-ph"], 50), (["cs.DC"], 130),
    ]
    for number, (categories, days) in enumerate(layout, start=1):
        moment = now - timedelta(days=days)
        entries.append(
            Entry(
                f"{moment:%y%m}.{number + 100:05d}",
                title=f"Invented paper {number}",
                summary="An invented abstract about nothing in particular.",
                published=moment.strftime("%Y-%m-%dT%H:%M:%SZ"),
                categories=categories,
            )
        )
    return entries


def announcements(now: datetime, corpus: list[Entry]) -> list[Announcement]:
    today = f"{now - timedelta(hours=14):%Y-%m-%dT%H:%M:%SZ}"
    fresh = [
        Entry("2610.09001", title="A new lattice result", published=today, categories=["hep-lat"]),
        Entry("2610.09002", title="A new cluster scheduler", published=today, categories=["cs.DC", "cs.OS"]),
        Entry("2610.09003", title="A cross-listed chip", published=today, categories=["cs.LG", "cs.AR"]),
    ]
    replaced = Entry(corpus[2].id, title=corpus[2].title, published=corpus[2].published, version=2,
                     categories=corpus[2].categories)
    return [
        Announcement(fresh[0]), Announcement(fresh[1]), Announcement(fresh[2], "cross"),
        Announcement(replaced, "replace"),
    ]


def test_category_topics_share_one_feed_request_and_the_api_fills_the_gap(tmp_path, httpserver, capsys):
    first = datetime(2026, 10, 1, 18, 0, tzinfo=UTC)
    corpus = category_corpus(first)
    arxiv = LoopbackArxiv(corpus, announcements=announcements(first, corpus), announced=first - timedelta(hours=14))
    arxiv.install(httpserver)
    config_path = tmp_path / "config.toml"
    config_path.write_text(
        f'[arxiv]\nmin_interval = 0.0\napi_url = "{httpserver.url_for("/api/query")}"\n'
        f'rss_url = "{httpserver.url_for("/rss/")}"\n'
    )
    data = tmp_path / "data"

    def refresh_at(moment: datetime) -> None:
        engine = open_engine(load_config(config_path), data, clock=lambda: moment)
        if not engine.followed():
            for name, category in CATEGORY_TOPICS.items():
                engine.add_topic(name, TopicDefinition(categories=(category,)))
                engine.follow(name)
            engine.follow("Lattice Field Theory")  # a catalogue topic: categories = ["hep-lat"]
        assert asyncio.run(engine.refresh()).ok
        engine.close()

    refresh_at(first)
    assert len(arxiv.rss_requests) == 1
    assert sorted(arxiv.rss_requests[0]) == ["cs.AR", "cs.DC", "hep-lat"]
    # The first refresh back-fills from the API: one request for all three.
    assert len(arxiv.search_requests) == 1
    sent = arxiv.search_requests[0].search_query
    assert sorted(sent.split(" OR ")) == ["cat:cs.AR", "cat:cs.DC", "cat:hep-lat", "cat:hep-lat.*"]

    def members(topic: str) -> set[str]:
        capsys.readouterr()
        assert main(["papers", topic, "--json", "--data-dir", str(data), "--config", str(config_path)]) == 0
        return {p["id"] for p in json.loads(capsys.readouterr().out)}

    in_window = [e for e in corpus if published(e) >= first - timedelta(weeks=16)]
    assert members("Lattice Field Theory") == {e.id for e in in_window if e.categories[0] == "hep-lat"} | {"2610.09001"}
    assert members("Distributed") == {e.id for e in in_window if "cs.DC" in e.categories} | {"2610.09002"}
    assert members("Architecture") == {e.id for e in in_window if "cs.AR" in e.categories} | {"2610.09003"}

    # A day and a bit later the feed alone covers what is new.
    searches = len(arxiv.search_requests)
    refresh_at(first + timedelta(hours=30))
    assert len(arxiv.rss_requests) == 2
    assert len(arxiv.search_requests) == searches

    # More than 36 hours after the API last answered, it fills the gap again.
    refresh_at(first + timedelta(hours=40))
    assert len(arxiv.rss_requests) == 3
    assert len(arxiv.search_requests) == searches + 1

from __future__ import annotations

import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

import feedparser
import pytest

from feedtui.demo import demo_data_dir, demo_epoch, demo_files, demo_manifest
from feedtui.topics.catalogue import load_catalogue

ATOM = "{http://www.w3.org/2005/Atom}"
ARXIV = "{http://arxiv.org/schemas/atom}"
OPENSEARCH = "{http://a9.com/-/spec/opensearch/1.1/}"
ENTRY_ID = re.compile(r"^http://arxiv\.org/abs/(\d{4}\.\d{5})v(\d+)$")
REPO = Path(__file__).resolve().parents[2]


def parse_time(text: str) -> datetime:
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)


@pytest.fixture(scope="module")
def documents() -> dict[str, ET.Element]:
    return {item.name: ET.fromstring(item.read_bytes()) for item in demo_files()}


@pytest.fixture(scope="module")
def entries(documents) -> list[ET.Element]:
    return [entry for root in documents.values() for entry in root.iter(f"{ATOM}entry")]


def test_demo_files_are_the_bundled_xml_documents():
    names = [item.name for item in demo_files()]
    assert names == sorted(names)
    assert len(names) >= 3
    assert all(name.endswith(".xml") for name in names)
    assert set(names) == {entry["file"] for entry in demo_manifest()["files"]}


def test_demo_epoch_comes_from_the_manifest():
    assert demo_epoch() == datetime(2026, 11, 27, 18, 0, tzinfo=UTC)
    assert demo_epoch().tzinfo is not None


def test_feeds_have_the_arxiv_api_header(documents):
    for name, root in documents.items():
        assert root.tag == f"{ATOM}feed", name
        assert root.find(f"{ATOM}title").text.startswith("ArXiv Query: search_query=")
        assert root.find(f"{ATOM}id").text.startswith("http://arxiv.org/api/")
        assert root.find(f"{ATOM}link").get("rel") == "self"
        count = len(root.findall(f"{ATOM}entry"))
        assert int(root.find(f"{OPENSEARCH}totalResults").text) == count
        assert int(root.find(f"{OPENSEARCH}itemsPerPage").text) == count
        assert root.find(f"{OPENSEARCH}startIndex").text == "0"


def test_entries_have_the_arxiv_api_layout(entries):
    for entry in entries:
        match = ENTRY_ID.match(entry.find(f"{ATOM}id").text)
        assert match, entry.find(f"{ATOM}id").text
        versioned = f"{match.group(1)}v{match.group(2)}"
        published = parse_time(entry.find(f"{ATOM}published").text)
        updated = parse_time(entry.find(f"{ATOM}updated").text)
        assert published <= updated <= demo_epoch()
        assert published.strftime("%y%m") == match.group(1)[:4]  # ids follow the first version's month
        assert entry.find(f"{ATOM}title").text.strip()
        assert entry.find(f"{ATOM}summary").text.startswith("  ")
        authors = entry.findall(f"{ATOM}author")
        assert authors and all(author.find(f"{ATOM}name").text.strip() for author in authors)
        links = {(link.get("rel"), link.get("title")): link.get("href") for link in entry.findall(f"{ATOM}link")}
        assert links[("alternate", None)] == f"http://arxiv.org/abs/{versioned}"
        assert links[("related", "pdf")] == f"http://arxiv.org/pdf/{versioned}"
        primary = entry.find(f"{ARXIV}primary_category").get("term")
        terms = [category.get("term") for category in entry.findall(f"{ATOM}category")]
        assert terms[0] == primary and len(terms) == len(set(terms))
        doi = entry.find(f"{ARXIV}doi")
        if doi is not None:
            assert doi.text.startswith("10.99999/")  # an invented prefix, never a real DOI
            assert links[("related", "doi")] == f"http://dx.doi.org/{doi.text}"


def test_at_least_450_unique_papers_over_at_least_17_weeks(entries):
    ids = {ENTRY_ID.match(entry.find(f"{ATOM}id").text).group(1) for entry in entries}
    assert len(ids) >= 450
    assert len(ids) == demo_manifest()["papers"]
    published = [parse_time(entry.find(f"{ATOM}published").text) for entry in entries]
    assert max(published) - min(published) >= timedelta(weeks=17)
    mondays = {(moment - timedelta(days=moment.weekday())).date() for moment in published}
    assert len(mondays) >= 17


def test_cross_topic_papers_appear_identically_in_two_files(documents):
    seen: dict[str, list[bytes]] = {}
    for root in documents.values():
        for entry in root.iter(f"{ATOM}entry"):
            # The serialised tail is the whitespace after the entry, which differs for a file's last entry.
            seen.setdefault(entry.find(f"{ATOM}id").text, []).append(ET.tostring(entry).rstrip())
    repeated = [copies for copies in seen.values() if len(copies) > 1]
    assert repeated
    assert all(len(set(copies)) == 1 for copies in repeated)


def test_long_author_lists_and_affiliations(entries):
    sizes = [len(entry.findall(f"{ATOM}author")) for entry in entries]
    assert sum(size >= 12 for size in sizes) >= 10
    assert max(sizes) >= 30
    affiliation_counts = [
        len(author.findall(f"{ARXIV}affiliation")) for entry in entries for author in entry.findall(f"{ATOM}author")
    ]
    assert sum(count >= 2 for count in affiliation_counts) >= 20
    assert 0 in affiliation_counts  # authors without affiliations, as on arXiv


def test_latex_in_titles_and_abstracts(entries):
    titles = [entry.find(f"{ATOM}title").text for entry in entries]
    abstracts = "\n".join(entry.find(f"{ATOM}summary").text for entry in entries)
    assert sum("$" in title for title in titles) >= 10
    for fragment in (r"\times$", r"\emph{", r"$O(n^2)$", r"\mathcal{O}(n\log n)", r"\sqrt{"):
        assert fragment in abstracts, fragment


def test_metadata_variety(entries):
    versions = Counter(int(ENTRY_ID.match(entry.find(f"{ATOM}id").text).group(2)) for entry in entries)
    assert versions[2] >= 10 and versions[3] >= 3
    assert sum(entry.find(f"{ARXIV}comment") is not None for entry in entries) >= 200
    assert sum(entry.find(f"{ARXIV}journal_ref") is not None for entry in entries) >= 20
    assert sum(entry.find(f"{ARXIV}doi") is not None for entry in entries) >= 20
    cross_archive = 0
    for entry in entries:
        archives = {category.get("term").split(".")[0] for category in entry.findall(f"{ATOM}category")}
        cross_archive += len(archives) > 1
    assert sum(len(entry.findall(f"{ATOM}category")) > 1 for entry in entries) >= 150
    assert cross_archive >= 20


def test_demo_topics_are_catalogue_topics():
    names = {topic.name for topic in load_catalogue()}
    topics = demo_manifest()["topics"]
    assert len(topics) >= 14
    assert set(topics) <= names
    assert sum(1 for count in topics.values() if count >= 10) >= 14


def test_feedparser_reads_every_entry():
    for item in demo_files():
        parsed = feedparser.parse(item.read_bytes())
        assert not parsed.bozo, (item.name, parsed.get("bozo_exception"))
        root = ET.fromstring(item.read_bytes())
        assert len(parsed.entries) == len(root.findall(f"{ATOM}entry"))


def test_generator_is_deterministic_and_matches_the_committed_files(tmp_path):
    subprocess.run([sys.executable, str(REPO / "scripts" / "make_demo.py"), str(tmp_path)], check=True, capture_output=True)
    committed = {item.name: item.read_bytes() for item in demo_data_dir().iterdir() if item.is_file()}
    generated = {path.name: path.read_bytes() for path in tmp_path.iterdir()}
    assert sorted(generated) == sorted(committed)
    for name in committed:
        assert generated[name] == committed[name], f"{name} differs: rerun scripts/make_demo.py"


def test_total_size_stays_small():
    assert sum(len(item.read_bytes()) for item in demo_files()) < 1_500_000

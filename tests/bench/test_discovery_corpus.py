"""The discovery corpus generator and the ranking metrics of bench/bench_discovery.py."""

from __future__ import annotations

import hashlib
import json
import math
import subprocess
import sys
import xml.etree.ElementTree as ET
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bench import discovery_corpus as dc
from bench import discovery_metrics as m
from bench.discovery_themes import THEMES
from feedtui.sources.parse.route import parse_feed

REPO = Path(__file__).resolve().parents[2]
NOW = datetime(2026, 12, 1, tzinfo=UTC)
ATOM = "{http://www.w3.org/2005/Atom}"


@pytest.fixture(scope="module")
def corpus() -> dc.Corpus:
    return dc.build_corpus(1, NOW)


def write(out: Path, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(REPO / "bench" / "discovery_corpus.py"), str(out), *extra],
        capture_output=True, text=True, timeout=120,
    )


def digest(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())}


def test_the_same_arguments_write_the_same_bytes_and_another_seed_does_not(tmp_path):
    assert write(tmp_path / "a", "--seed", "3").returncode == 0
    assert write(tmp_path / "b", "--seed", "3").returncode == 0
    assert write(tmp_path / "c", "--seed", "4").returncode == 0
    assert digest(tmp_path / "a") == digest(tmp_path / "b")
    assert digest(tmp_path / "a")["labels.json"] != digest(tmp_path / "c")["labels.json"]


def test_at_least_2000_papers_in_at_least_20_themes_with_unique_ids(corpus):
    themes = {p.theme for p in corpus.papers}
    assert len(corpus.papers) >= 2000
    assert len(themes) >= 20
    assert len({p.id for p in corpus.papers}) == len(corpus.papers)
    per_theme = [sum(p.theme == t for p in corpus.papers) for t in themes]
    assert min(per_theme) >= 50


def test_at_least_100_questions_each_answer_exists_in_its_theme_and_is_not_quoted(corpus):
    by_id = {p.id: p for p in corpus.papers}
    assert len(corpus.questions) >= 100
    for question in corpus.questions:
        answer = by_id[question.answer]
        assert answer.theme == question.theme
        shared = dc.trigrams(question.text) & dc.trigrams(answer.paper.title + " . " + answer.paper.abstract)
        assert not shared, (question.text, shared)
        # The answer is the only paper of its (theme, focus, technique, setting).
        key = lambda p: (p.theme, p.focus, p.technique_from, p.technique, p.setting_from, p.setting)  # noqa: E731
        twins = [p for p in corpus.papers if key(p) == key(answer)]
        assert twins == [answer]


def test_some_authors_write_in_two_themes(corpus):
    themes_of: dict[str, set[str]] = {}
    for p in corpus.papers:
        for creator in p.paper.creators:
            themes_of.setdefault(creator.name, set()).add(p.theme)
    assert sum(len(t) == 2 for t in themes_of.values()) >= len(THEMES)


def test_the_files_are_arxiv_atom_the_app_reads_and_labels_match(tmp_path):
    out = tmp_path / "corpus"
    assert write(out, "--now", "2026-12-01").returncode == 0
    labels = json.loads((out / "labels.json").read_text())
    parsed = {}
    for feed in sorted(out.glob("disc-*.xml")):
        root = ET.fromstring(feed.read_bytes())
        assert root.tag == f"{ATOM}feed"
        for paper in parse_feed(feed.read_bytes(), "bench", now=NOW).papers:
            parsed[paper.id] = paper
    assert set(parsed) == set(labels["papers"])
    question = labels["questions"][0]
    assert question["answer"] in parsed


def test_ids_continue_a_generated_sets_numbering_without_clashes():
    from bench import feeds

    spec = feeds.FeedSetSpec(feeds=2, entries=50, seed=9, now=NOW)
    generated = {p.arxiv_id.split(".")[1] for i in range(2) for p in feeds.papers_for_feed(spec, i)}
    corpus = dc.build_corpus(1, NOW, per_theme=8, id_start=100, id_seed=9)
    assert not generated & {p.id.split(".")[1] for p in corpus.papers}


def test_reciprocal_rank_counts_the_first_answer_within_k():
    ranking = ["a", "b", "c", "d"]
    assert m.reciprocal_rank(ranking, {"c"}) == pytest.approx(1 / 3)
    assert m.reciprocal_rank(ranking, {"b", "d"}) == pytest.approx(1 / 2)
    assert m.reciprocal_rank(ranking, {"d"}, k=3) == 0.0
    assert m.reciprocal_rank([], {"a"}) == 0.0


def test_ndcg_of_a_hand_made_ranking():
    relevance = {"ans": 2, "t1": 1, "t2": 1}
    # ranking: t1 (1), x (0), ans (2): DCG = 1/log2(2) + 3/log2(4) = 1 + 1.5
    # ideal:   ans, t1, t2:              3/1 + 1/log2(3) + 1/2
    expected = (1 + 1.5) / (3 + 1 / math.log2(3) + 0.5)
    assert m.ndcg(["t1", "x", "ans"], relevance) == pytest.approx(expected)
    assert m.ndcg(["ans", "t1", "t2"], relevance) == pytest.approx(1.0)
    assert m.ndcg(["x", "y"], relevance) == 0.0
    assert m.ndcg(["ans"], {}) == 0.0
    assert m.ndcg(["t1", "ans"], relevance, k=1) == pytest.approx(1 / 3)


def test_precision_counts_a_short_list_s_gaps_as_misses():
    assert m.precision(["a", "b", "c", "d", "e"], {"a", "c", "z"}, 5) == pytest.approx(0.4)
    assert m.precision(["a"], {"a"}, 5) == pytest.approx(0.2)
    assert m.hit(["x", "a"], {"a"}, 2) == 1.0 and m.hit(["x", "a"], {"a"}, 1) == 0.0


def test_the_ask_measure_scores_an_oracle_one_and_an_empty_ranker_zero(corpus):
    from bench import bench_discovery as bd

    answers = {q.text: q for q in corpus.questions}
    theme_papers = {}
    for p in corpus.papers:
        theme_papers.setdefault(p.theme, []).append(p.id)

    def oracle(text: str, k: int) -> list[str]:
        q = answers[text]
        return ([q.answer] + [pid for pid in theme_papers[q.theme] if pid != q.answer])[:k]

    report = bd.Report()
    bd.measure_ask(report, corpus, {"oracle": oracle, "empty": lambda text, k: []})
    assert report.raw["oracle"] == {"mrr@10": 1.0, "ndcg@10": pytest.approx(1.0), "top3": 1.0}
    assert report.raw["empty"] == {"mrr@10": 0.0, "ndcg@10": 0.0, "top3": 0.0}
    assert "| oracle: MRR@10 | 1.000 |" in report.markdown()

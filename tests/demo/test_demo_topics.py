"""The demo's manifest records how many papers the generator wrote for each
catalogue topic; the real matcher must find at least that many."""

from __future__ import annotations

import json

import pytest

from feedtui.cli import main
from feedtui.demo import demo_epoch, demo_manifest
from feedtui.demo.seed import demo_papers
from feedtui.topics.catalogue import load_catalogue
from feedtui.topics.registry import compile_topic
from feedtui.topics.tagging import build_matchers, tag_papers

RECORDED = demo_manifest()["topics"]


@pytest.fixture(scope="module")
def tagged() -> dict[str, set[str]]:
    papers = demo_papers(demo_epoch())
    return tag_papers(papers, build_matchers(compile_topic(topic) for topic in load_catalogue()))


@pytest.mark.parametrize(("topic", "count"), sorted(RECORDED.items()))
def test_each_recorded_topic_matches_at_least_its_demo_papers(tagged, topic, count):
    assert len(tagged[topic]) >= count


def test_the_seeded_demo_shows_them_too(tmp_path, capsys):
    assert main(["--demo", "topics", "--json", "--data-dir", str(tmp_path)]) == 0
    papers = {t["name"]: t["papers"] for t in json.loads(capsys.readouterr().out)}
    assert {name: papers[name] for name in RECORDED} == {
        name: max(papers[name], count) for name, count in RECORDED.items()
    }

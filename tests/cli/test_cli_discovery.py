"""`feedtui ask`, `feedtui related` and `feedtui foryou`, run as real
processes against a cache built from invented papers."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest

from feedtui.config import load_config
from feedtui.core.engine import Engine
from feedtui.model import TopicDefinition, utcnow

from tests.core.test_discovery import papers as invented

SRC = Path(__file__).resolve().parents[2] / "src"
CONFIG = "[general]\nauto_refresh = false\n"


@pytest.fixture(scope="module")
def feedtui(tmp_path_factory):
    """A data directory whose papers came out in the last days, and a way to run feedtui on it."""
    base = tmp_path_factory.mktemp("discovery")
    config = base / "config.toml"
    config.write_text(CONFIG, encoding="utf-8")
    data = base / "data"
    now = utcnow()
    engine = Engine(load_config(config), data)
    engine.add_topic("GPUs", TopicDefinition(query="abs:gpu OR abs:gpus"))
    engine.follow("GPUs")
    recent = [
        dataclasses.replace(p, published=now - timedelta(days=i + 1), updated=now - timedelta(days=i + 1))
        if p.id.startswith("2611")
        else p
        for i, p in enumerate(invented())
    ]
    engine.cache.store(recent, {}, now)
    engine.close()
    env = {k: v for k, v in os.environ.items() if not k.startswith("FEEDTUI_")}
    env.update(PYTHONPATH=str(SRC), HOME=str(base), XDG_CONFIG_HOME=str(base / "xdg"))

    def run(*argv: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-m", "feedtui", *argv, "--data-dir", str(data), "--config", str(config)],
            env=env, capture_output=True, text=True, timeout=120,
        )

    return run


def test_ask_over_the_whole_cache_prints_json_with_scores_and_quotes(feedtui):
    done = feedtui("ask", "cellphone power consumption", "--json", "--limit", "3")
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)
    assert len(rows) == 3
    assert rows[0]["id"] == "2611.00002"
    assert rows[0]["title"] == "Offload decisions for mobile devices at the edge"
    assert {"score", "sentences", "authors", "read", "starred", "tags"} <= set(rows[0])
    assert rows[0]["score"] >= rows[1]["score"]
    for row in rows:
        assert all(sentence in row["abstract"] for sentence in row["sentences"])


def test_ask_in_a_topic_prints_quotes_then_papers(feedtui):
    done = feedtui("ask", "scheduling", "--topic", "gpus")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("“") and lines[0].endswith("]")
    listed = [line for line in lines if line[3:13] in ("2611.00001", "2611.00004", "2611.00002", "2611.00003")]
    assert {line[3:13] for line in listed} <= {"2611.00001", "2611.00004"}


def test_ask_refuses_an_unknown_topic_and_a_question_without_words(feedtui):
    done = feedtui("ask", "scheduling", "--topic", "No Such Topic")
    assert done.returncode == 2 and done.stdout == ""
    assert "No Such Topic" in done.stderr
    done = feedtui("ask", "!!!")
    assert done.returncode == 2 and "no words" in done.stderr


def test_related_lists_the_closest_papers_and_refuses_an_unknown_id(feedtui):
    done = feedtui("related", "2611.00001v1", "--json")
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)
    assert rows[0]["id"] == "2611.00004"
    assert "2611.00001" not in {row["id"] for row in rows}
    assert all("score" in row for row in rows)
    done = feedtui("related", "2611.99999")
    assert done.returncode == 2 and "2611.99999" in done.stderr and done.stdout == ""


def test_foryou_falls_back_on_followed_topics_then_follows_the_stars(feedtui):
    done = feedtui("foryou", "--json")
    assert done.returncode == 0, done.stderr
    assert "followed topics" in done.stderr
    rows = json.loads(done.stdout)
    assert rows and all(row["why"] == "matches topic GPUs" for row in rows)
    assert "2609.00005" not in {row["id"] for row in rows}  # not of the last weeks
    assert feedtui("star", "2611.00004").returncode == 0
    done = feedtui("foryou", "--limit", "2")
    assert done.returncode == 0, done.stderr
    assert "followed topics" not in done.stderr
    assert "like: Gang scheduling of training jobs on GPU clusters" in done.stdout

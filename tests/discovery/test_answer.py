"""Extractive answers: which sentences are quoted, and how often."""

from __future__ import annotations

from feedtui.discovery.answer import best_quotes, sentences

SHARED = "On-device inference for vision models must fit in a few megabytes of memory."


def test_sentences_keep_abbreviations_and_drop_a_cut_tail():
    text = "We compare schedulers, e.g. Slurm and Kubernetes. Results follow. The last one is cut…"
    assert sentences(text) == ["We compare schedulers, e.g. Slurm and Kubernetes.", "Results follow."]


def test_a_sentence_two_papers_share_is_quoted_once():
    """The demo's Ask everything showed the same sentence twice, from two papers."""
    papers = [
        ("a", f"{SHARED} We partition the model between phone and server."),
        ("b", f"{SHARED} Speech recognition runs on the phone."),
    ]
    quotes = best_quotes("inference on devices with little memory", papers)
    said = [q.sentence for q in quotes]
    assert said.count(SHARED) == 1
    assert quotes[0].paper_id == "a"  # the better-ranked paper is the one cited


def test_at_most_two_sentences_of_one_paper_and_none_without_the_words():
    papers = [
        ("a", "Memory of the scheduler grows. The scheduler memory is bounded here. Scheduler memory is also measured. Nothing else matters much."),
        ("b", "A scheduler with little memory wins on small clusters."),
    ]
    quotes = best_quotes("scheduler memory", papers)
    assert sum(q.paper_id == "a" for q in quotes) == 2
    assert any(q.paper_id == "b" for q in quotes)
    assert all("Nothing else" not in q.sentence for q in quotes)

"""Discovery on the engine: Ask over a topic or the whole cache, papers by an
author, related papers, For you and the "more / less like this" marks,
over a real data directory of invented papers."""

from __future__ import annotations

from datetime import datetime

import pytest

from feedtui.config import Config
from feedtui.core.engine import Engine, PaperNotFound, TopicNotFound
from feedtui.core.events import TasteChanged, VectorsUpdated
from feedtui.model import UTC, TopicDefinition

from tests.factories import make_paper

NOW = datetime(2026, 11, 27, 18, 0, tzinfo=UTC)


def papers():
    return [
        make_paper(
            "2611.00001",
            title="A scheduler for serverless inference on shared GPUs",
            abstract="We present a scheduler for serverless inference. It packs requests onto shared GPUs by "
            "predicted latency. The scheduler cuts tail latency by a third on production traces.",
            authors=(("Ada Quill", ()), ("Zoë Brandt", ())),
            categories=("cs.DC", "cs.LG"),
            published="2026-11-25T10:00:00",
        ),
        make_paper(
            "2611.00002",
            title="Offload decisions for mobile devices at the edge",
            abstract="Mobile devices offload heavy layers to an edge server. We learn when to offload from "
            "signal strength and battery. Energy use falls by forty percent.",
            authors=(("Bo Lind", ()),),
            categories=("cs.NI",),
            published="2026-11-24T10:00:00",
        ),
        make_paper(
            "2611.00003",
            title="Sparse attention kernels for long documents",
            abstract="Attention over long documents costs quadratic memory. Our sparse kernels keep a sliding "
            "window and a few global tokens. They run twice as fast as dense attention.",
            authors=(("Zoe Brandt", ()), ("Cy Moss", ())),
            categories=("cs.CL", "cs.LG"),
            published="2026-11-20T10:00:00",
        ),
        make_paper(
            "2611.00004",
            title="Gang scheduling of training jobs on GPU clusters",
            abstract="Training jobs wait for whole gangs of GPUs. We schedule them by expected finish time. "
            "Queueing delay drops on a simulated cluster of 512 GPUs.",
            authors=(("Ada Quill", ()),),
            categories=("cs.DC",),
            published="2026-11-22T10:00:00",
        ),
        make_paper(
            "2609.00005",
            title="Scheduling old batch jobs",
            abstract="An older study of batch scheduling on clusters of machines, from long ago.",
            authors=(("Dee Old", ()),),
            categories=("cs.DC",),
            published="2026-09-01T10:00:00",
        ),
    ]


@pytest.fixture
def engine(tmp_path):
    engine = Engine(Config(), tmp_path / "data", clock=lambda: NOW)
    engine.add_topic("GPUs", TopicDefinition(query="abs:gpu OR abs:gpus"))
    engine.follow("GPUs")
    engine.cache.store(papers(), {}, NOW)
    engine.load_library()
    engine.ensure_tagged()
    yield engine
    engine.close()


def test_ask_over_the_whole_cache_ranks_and_quotes_verbatim_sentences(engine):
    answer = engine.ask("serverless inference scheduler")
    assert answer.hits[0].paper_id == "2611.00001"
    assert answer.quotes and answer.quotes[0].paper_id == "2611.00001"
    abstract = papers()[0].abstract
    for quote in answer.quotes:
        assert quote.sentence in next(p.abstract for p in papers() if p.id == quote.paper_id)
    assert answer.hits[0].sentences == tuple(q.sentence for q in answer.quotes if q.paper_id == "2611.00001")
    assert answer.hits[0].sentences[0] in abstract
    assert "serverless" in answer.terms
    assert len(answer.quotes) <= 3


def test_ask_over_a_topic_stays_in_it_and_an_unknown_topic_is_refused(engine):
    answer = engine.ask("sparse attention", topic="gpus")
    assert "2611.00003" not in {h.paper_id for h in answer.hits}
    assert engine.ask("sparse attention").hits[0].paper_id == "2611.00003"
    with pytest.raises(TopicNotFound):
        engine.ask("anything", topic="No such topic")


def test_the_whole_cache_index_is_kept_until_the_library_changes(engine):
    engine.ask("attention")
    kept = engine._held_discovery.index
    engine.ask("offload")
    assert engine._held_discovery.index is kept
    engine.cache.store([make_paper("2611.00009", title="Offload planners", published="2026-11-26T10:00:00")], {}, NOW)
    engine.load_library()
    assert engine.ask("planners").hits[0].paper_id == "2611.00009"
    assert engine._held_discovery.index is not kept
    engine.release_discovery()
    assert engine.ask("planners").hits[0].paper_id == "2611.00009"


def test_papers_by_author_ignore_case_and_accents_newest_first(engine):
    assert engine.papers_by_author("zoe brandt") == ["2611.00001", "2611.00003"]
    assert engine.papers_by_author("ADA QUILL") == ["2611.00001", "2611.00004"]
    assert engine.papers_by_author("Nobody Here") == []
    assert engine.author_query('Zoë "Z" Brandt') == 'au:"Zoë Z Brandt"'


def test_feedback_is_kept_in_the_state_file_and_tells_the_taste_changed(engine, tmp_path):
    told = []
    engine.subscribe(told.append, TasteChanged)
    engine.set_feedback("2611.00002", 1)
    engine.set_feedback("2611.00002", 1)  # no change, no event
    engine.set_feedback("2611.00003", -1)
    assert engine.feedback_of("2611.00002") == 1 and engine.feedback_of("2611.00001") == 0
    assert len(told) == 2
    with pytest.raises(ValueError):
        engine.set_feedback("2611.00002", 2)
    engine.flush()
    again = Engine(Config(), tmp_path / "data", clock=lambda: NOW)
    try:
        assert dict(again.feedback()) == {"2611.00002": 1, "2611.00003": -1}
    finally:
        again.close()
    engine.set_feedback("2611.00003", 0)
    assert dict(engine.feedback()) == {"2611.00002": 1}


def test_related_papers_share_words_authors_or_categories_never_the_paper_itself(engine):
    hits = engine.related("2611.00001")
    ids = [h.paper_id for h in hits]
    assert "2611.00001" not in ids
    # Same author, same category and scheduling words: the gang scheduler first.
    assert ids[0] == "2611.00004"
    assert "2611.00003" in ids  # shares an author (Zoë Brandt, written without the accent) and cs.LG
    assert hits == sorted(hits, key=lambda h: -h.score)
    with pytest.raises(PaperNotFound):
        engine.related("2611.99999")


def test_for_you_without_stars_falls_back_on_followed_topics_and_says_so(engine):
    engine.mark_read(["2611.00004"])
    result = engine.for_you()
    assert result.fallback and "followed topics" in result.note
    ids = [h.paper_id for h in result.hits]
    assert "2611.00004" not in ids  # read
    assert "2609.00005" not in ids  # older than the last weeks
    assert ids[0] == "2611.00001"
    assert result.hits[0].why == "matches topic GPUs"


def test_for_you_with_a_star_ranks_by_it_and_says_which(engine):
    engine.star(["2611.00004"])
    engine.mark_read(["2611.00004"])
    result = engine.for_you()
    assert not result.fallback
    assert result.hits[0].paper_id == "2611.00001"
    assert result.hits[0].why == "like: Gang scheduling of training jobs on GPU clusters"
    assert "2611.00004" not in {h.paper_id for h in result.hits}


def test_ask_finds_by_meaning_what_no_word_of_the_question_finds(engine):
    question = "cellphone power consumption"
    assert engine._whole_index().rank(question) == []
    answer = engine.ask(question)
    assert answer.semantic and answer.note == ""
    assert answer.hits[0].paper_id == "2611.00002"
    assert engine.ask(question, mode="semantic").hits[0].paper_id == "2611.00002"
    lexical = engine.ask(question, mode="lexical")
    assert lexical.hits == [] and not lexical.semantic
    with pytest.raises(ValueError):
        engine.ask(question, mode="telepathy")


def test_vectors_are_computed_once_kept_with_the_cache_and_told(engine, tmp_path):
    told = []
    engine.subscribe(told.append, VectorsUpdated)
    assert engine.compute_vectors() == 5
    assert told == [VectorsUpdated(5)]
    path = tmp_path / "data" / "cache" / "vectors.bin"
    assert 5 * 260 < path.stat().st_size < 5 * 260 + 1_000
    assert engine.compute_vectors() == 0
    engine.cache.store([make_paper("2611.00009", title="Offload planners", published="2026-11-26T10:00:00")], {}, NOW)
    engine.load_library()
    assert engine.compute_vectors() == 1
    again = Engine(Config(), tmp_path / "data", clock=lambda: NOW)
    try:
        again.load_library()
        assert again.compute_vectors() == 0  # read from the file, not computed again
    finally:
        again.close()


def test_a_damaged_vectors_file_is_computed_again(engine, tmp_path):
    engine.compute_vectors()
    path = tmp_path / "data" / "cache" / "vectors.bin"
    path.write_bytes(path.read_bytes()[:-10])
    engine.release_discovery()
    answer = engine.ask("cellphone power consumption")
    assert answer.semantic and answer.hits[0].paper_id == "2611.00002"
    engine.release_discovery()
    assert engine.compute_vectors() == 0  # the damaged file was replaced


def test_without_the_model_ask_and_related_are_lexical_and_say_so(engine, monkeypatch):
    from feedtui.discovery import embed

    def missing():
        raise embed.ModelUnavailable("the wordllama package is not installed")

    monkeypatch.setattr(embed, "model_files", missing)
    answer = engine.ask("serverless scheduler")
    assert not answer.semantic
    assert answer.note == "lexical ranking only: the wordllama package is not installed"
    assert answer.hits[0].paper_id == "2611.00001"
    assert engine.related("2611.00001")[0].paper_id == "2611.00004"
    assert engine.compute_vectors() == 0

"""Ask: BM25 ranking within a topic, for space-separated and CJK text, and its highlighting."""

from __future__ import annotations

import json
import os
import random
from datetime import datetime

import pytest

from feedtui.config import Config
from feedtui.core.engine import Engine
from feedtui.model import UTC
from feedtui.search import SearchIndex, highlight_pattern, highlight_words, index_terms, query_terms, singular
from feedtui.store.codec import doc_search_texts, paper_from_doc, paper_to_doc

from tests.factories import make_paper

LATIN = [
    make_paper(
        "2609.00001",
        title="Pipeline Parallelism for Sparse Networks",
        abstract="We schedule pipeline stages across accelerators.",
        authors=(("Ada Quill", ()),),
    ),
    make_paper(
        "2609.00002",
        title="Graph Kernels on Accelerators",
        abstract="Pipelines of graph kernels; parallelism in the network.",
        authors=(("Bo Lindqvist", ()),),
    ),
    make_paper(
        "2609.00003",
        title="A Note on Erdős–Rényi Graphs",
        abstract="Random graphs and their networks, studied again.",
        authors=(("Zoë Dvořák", ()),),
    ),
]
CJK = [
    make_paper("2609.10001", title="稀疏注意力机制在边缘设备上的推理加速", abstract="本文提出一种方法。", authors=(("张伟", ()),)),
    make_paper("2609.10002", title="基于GPU加速的图神经网络训练", abstract="我们研究训练。", authors=(("李娜", ()),)),
    make_paper("2609.10003", title="トランスフォーマーの推論を高速化する", abstract="手法を示す。", authors=(("山田太郎", ()),)),
    make_paper("2609.10004", title="주의력 기반 모델을 위한 압축", abstract="압축 방법.", authors=(("김민준", ()),)),
]


def ranked_ids(papers, question: str) -> list[str]:
    return [paper_id for paper_id, _ in SearchIndex.build(papers).rank(question)]


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # Scores as the index gave them before CJK was segmented: Latin ranking is unchanged.
        ("papers about pipeline parallelism", [("2609.00001", 1.545436), ("2609.00002", 0.970549)]),
        ("networks", [("2609.00001", 0.211579), ("2609.00002", 0.13787), ("2609.00003", 0.127512)]),
        ("graph", [("2609.00002", 0.806123), ("2609.00003", 0.779817)]),
        ("erdos", [("2609.00003", 1.504113)]),
        ("quill accelerators", [("2609.00001", 1.840905), ("2609.00002", 0.750956)]),
    ],
)
def test_latin_ranking(question: str, expected: list[tuple[str, float]]) -> None:
    ranked = SearchIndex.build(LATIN).rank(question)
    assert [(paper_id, round(score, 6)) for paper_id, score in ranked] == expected


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("注意力", ["2609.10001"]),  # a word inside a run of Chinese
        ("注意力机制", ["2609.10001"]),
        ("张伟", ["2609.10001"]),  # a whole author name, as before
        ("推理", ["2609.10001"]),
        ("力", ["2609.10001"]),  # one character
        ("图神经网络", ["2609.10002"]),
        ("GPU", ["2609.10002"]),  # Latin letters written onto Chinese
        ("推論", ["2609.10003"]),
        ("トランスフォーマー", ["2609.10003"]),
        ("ﾄﾗﾝｽﾌｫｰﾏｰ", ["2609.10003"]),  # halfwidth katakana
        ("주의력", ["2609.10004"]),
        ("모델", ["2609.10004"]),  # Korean: a word with its particle written on
        ("稀疏注意力 gpu", ["2609.10001", "2609.10002"]),
        ("量子", []),
    ],
)
def test_cjk_words_are_found_inside_runs(question: str, expected: list[str]) -> None:
    assert ranked_ids(CJK + LATIN, question) == expected


def test_a_fuller_cjk_match_ranks_first() -> None:
    papers = [
        make_paper("2609.20001", title="注意事项与部署指南"),  # has 注意 (a notice), not 注意力
        make_paper("2609.20002", title="稀疏注意力机制"),
    ]
    assert ranked_ids(papers, "注意力") == ["2609.20002", "2609.20001"]


def test_terms_and_lengths() -> None:
    assert query_terms("注意力") == ["注意", "意力"]
    assert query_terms("力") == ["力"]
    assert query_terms("papers on GPU加速") == ["gpu", "加速"]
    assert index_terms("Sparse 注意力") == (["spars", "注", "意", "力", "注意", "意力"], 4)
    assert index_terms("Sparse networks") == (["spars", "network"], 2)  # English stems
    assert index_terms("ｶﾞｲﾄﾞ")[0][:4] == ["ガ", "イ", "ド", "ガイ"]  # NFKC keeps the voicing mark


def test_terms_of_texts_outside_ascii_with_and_without_cjk() -> None:
    # Non-ASCII words but no CJK: plain words, accents folded.
    assert index_terms("Étude of α–decay – résumés") == (["etud", "of", "α", "decay", "resum"], 5)
    # A CJK run inside a word of a text that is mostly Latin is still cut into bigrams.
    assert index_terms("fast GPU加速 kernels") == (["fast", "gpu", "加", "速", "加速", "kernel"], 5)
    # A CJK symbol that is no word character leaves the words as they are.
    assert index_terms("⼀ sparse kernels") == (["spars", "kernel"], 2)


def test_highlight_words_cut_cjk_runs_out() -> None:
    assert highlight_words("papers about GPU加速 and 注意力") == ("GPU", "加速", "注意力")
    assert highlight_words("graph kernels") == ("graph", "kernels")


def test_highlight_marks_the_singular_a_plural_question_ranks_by() -> None:
    """`decodings` ranked the papers that say `decoding` but marked none of them;
    it ranks `decoders` too (one stem), and marks them."""
    assert marked(highlight_words("decodings"), "Decoding, decodings and decoders") == ["Decoding", "decodings", "decoders"]
    assert marked(highlight_words("models"), "checkpoints model state; Models' weights") == ["model", "Models"]
    assert marked(highlight_words("policies"), "one policy, two POLICIES") == ["policy", "POLICIES"]
    assert marked(highlight_words("GPUs"), "GPU kernels") == ["GPU"]
    # The singular only whole, or as a plural: not the words it begins.
    assert marked(highlight_words("lenses"), "a lens, two lenses; its length") == ["lens", "lenses"]
    # `physical` has the stem of `physics` (`physic`): ranked by it, so marked.
    assert marked(highlight_words("physics"), "physical physics") == ["physical", "physics"]
    assert marked(highlight_words("decodings"), "decoders") == ["decoders"]  # one stem, `decod`
    assert [singular(word) for word in ("boxes", "classes", "loss", "gas", "STUDIES")] == ["box", "class", "loss", "gas", "STUDY"]


def marked(words: tuple[str, ...], text: str) -> list[str]:
    pattern = highlight_pattern(words)
    assert pattern is not None
    return [match.group() for match in pattern.finditer(text)]


def test_highlight_marks_only_the_matched_cjk_characters() -> None:
    title = "稀疏注意力机制在边缘设备上的推理加速"
    assert marked(("注意力",), title) == ["注意力"]
    assert marked(highlight_words("注意力 推理"), title) == ["注意力", "推理"]
    assert marked(("力",), "注意力与算力") == ["力", "力"]


def test_highlight_of_latin_words_is_unchanged_and_stops_at_cjk() -> None:
    assert marked(("graph",), "Graphs and paragraphs: GRAPH kernels, graph-based") == ["Graphs", "GRAPH", "graph"]
    assert marked(("GPU",), "基于GPU加速的训练, GPUs") == ["GPU", "GPUs"]
    assert highlight_pattern(()) is None
    assert highlight_pattern(("",)) is None


HYPHENATED = [
    make_paper("2609.30001", title="Multi-Tenant Serving of Language Models", abstract="We share one KV-cache across users."),
    make_paper("2609.30002", title="Paged Attention", abstract="A KV cache held in pages."),
    make_paper("2609.30003", title="Speculative Decoding", abstract="Draft models propose tokens."),
]


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("tenant", ["2609.30001"]),  # a part of `Multi-Tenant`
        ("multi-tenant", ["2609.30001"]),
        ("KV-cache", ["2609.30001", "2609.30002"]),  # the compound itself ranks first
        ("KV cache", ["2609.30002", "2609.30001"]),
        ("state-of-the-art", []),  # `of` and `the` are still left out
    ],
)
def test_hyphenated_compounds_are_found_by_their_parts(question: str, expected: list[str]) -> None:
    assert ranked_ids(HYPHENATED, question) == expected


def test_hyphenated_compounds_are_indexed_whole_and_in_parts() -> None:
    assert index_terms("Multi-Tenant caches") == (["multi-ten", "cach", "multi", "tenant"], 2)
    assert query_terms("state-of-the-art KV-caches") == ["state-of-the-art", "state", "art", "kv-cach", "kv", "cach"]


def test_highlight_marks_a_hyphenated_question_in_either_form() -> None:
    words = highlight_words("KV-cache")
    assert words == ("KV-cache", "KV", "cache")
    assert marked(words, "a KV-cache, a KV cache") == ["KV-cache", "KV", "cache"]
    assert marked(highlight_words("tenant"), "Multi-Tenant serving") == ["Tenant"]


POSSESSIVES = [
    make_paper("2609.40001", title="Calibration", abstract="The model's accuracy stays."),
    make_paper("2609.40002", title="Weight Sharing", abstract="Two models' weights are shared."),
    make_paper("2609.40003", title="Serving", abstract="A model of requests."),
    make_paper("2609.40004", title="Scheduling", abstract="Each request's deadline is kept."),
]


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("model", ["2609.40001", "2609.40002", "2609.40003"]),
        ("model's", ["2609.40001", "2609.40002", "2609.40003"]),
        ("models'", ["2609.40001", "2609.40002", "2609.40003"]),
        ("request", ["2609.40003", "2609.40004"]),
        ("request's", ["2609.40003", "2609.40004"]),
    ],
)
def test_a_possessive_is_the_same_word(question: str, expected: list[str]) -> None:
    assert sorted(ranked_ids(POSSESSIVES, question)) == expected


def test_possessives_are_indexed_and_asked_without_their_s() -> None:
    assert index_terms("The model's accuracy, the models' depth") == (
        ["the", "model", "accuraci", "the", "model", "depth"],
        6,
    )
    assert query_terms("MODEL'S request's") == ["model", "request"]
    assert query_terms("it's") == []  # `it` is a common word
    assert index_terms("O'Brien's")[0] == ["o'brien"]
    assert index_terms("Gödel's GÖDEL'S")[0] == ["godel", "godel"]
    assert query_terms("GÖDEL'S") == ["godel"]


def test_highlight_marks_a_possessive_whole_whichever_form_is_asked() -> None:
    text = "a request's deadline, two requests, the requests' queue"
    assert marked(highlight_words("request"), text) == ["request's", "requests", "requests"]
    assert marked(highlight_words("request's"), text) == ["request's", "requests", "requests"]


@pytest.mark.parametrize(
    ("question", "terms", "highlights"),
    [
        # Not `k`, a letter nearly every paper has.
        ("k-means", ["k-mean", "mean"], ("k-means", "means")),
        ("GPT-4 latency", ["gpt-4", "gpt", "latenc"], ("GPT-4", "GPT", "latency")),
        ("C++ compilers", ["compil"], ("compilers",)),
        ("C++", ["c"], ("C",)),  # nothing longer was asked: the letter is all there is
        ("O(n^2)", ["o", "n", "2"], ("O", "n", "2")),
        ("力 gpu", ["力", "gpu"], ("力", "gpu")),  # a CJK character is a word
    ],
)
def test_single_characters_are_asked_only_when_nothing_longer_is(
    question: str, terms: list[str], highlights: tuple[str, ...]
) -> None:
    assert query_terms(question) == terms
    assert highlight_words(question) == highlights


SHORT = [
    make_paper("2609.50001", title="K-Means Clustering at Scale", abstract="Lloyd's algorithm, batched."),
    make_paper("2609.50002", title="Top-k Retrieval", abstract="The k nearest neighbours of a query."),
    make_paper("2609.50003", title="Means and Variances", abstract="Moments of sketches."),
]


def test_k_means_finds_k_means_first_and_not_every_k() -> None:
    assert ranked_ids(SHORT, "k-means") == ["2609.50001", "2609.50003"]


def test_short_words_are_highlighted_only_whole() -> None:
    text = "O(n log n) on networks, of 2 GPUs or 20; n's; O'Brien; KVs, a KV-cache"
    assert marked(highlight_words("O(n^2)"), text) == ["O", "n", "n", "2", "n's"]
    assert marked(("KV",), text) == ["KV"]
    assert marked(highlight_words("k-means"), "k-means beats kernels, K-Means") == ["k-means", "K-Means"]
    assert marked(("GPU",), text) == ["GPUs"]  # three characters run on to their plural, as before


# Ask's index of a large topic, built by worker processes from the cache files.

FORKS = [0]
os.register_at_fork(after_in_parent=lambda: FORKS.__setitem__(0, FORKS[0] + 1))

WORDS = "kestrel lattice router tensor sparse gossip quorum shard pipeline cache kernel graph drift".split()


def many_papers(count: int) -> list:
    """Invented papers over ten weeks, with words drawn from a small vocabulary
    (so questions match many), LaTeX in some source texts (their display forms
    differ) and two or three authors."""
    chooser = random.Random(7)
    papers = []
    for number in range(count):
        words = [chooser.choice(WORDS) for _ in range(chooser.randint(3, 40))]
        latex = number % 5 == 0
        title = " ".join(words[:4]).title() + (r" with $\alpha$-Shards" if latex else "")
        abstract = " ".join(words) + "."
        papers.append(
            make_paper(
                f"2609.{number:05d}",
                title=title,
                title_display=title.replace(r"$\alpha$", "α") if latex else "",
                abstract=abstract,
                abstract_display=abstract.upper() if number % 7 == 0 else "",
                published=f"2026-{7 + number % 3:02d}-{1 + number % 28:02d}T10:00:00",
                authors=tuple((f"{chooser.choice(WORDS).title()} Q{k}", ()) for k in range(chooser.randint(2, 3))),
            )
        )
    return papers


def test_the_texts_ask_reads_from_a_document_are_the_papers():
    for paper in many_papers(40):
        doc = paper_to_doc(paper, "2026-10-01T00:00:00Z")
        rebuilt = paper_from_doc(paper.id, doc)
        names = " ".join(a.name for a in rebuilt.authors)
        assert doc_search_texts(doc) == (rebuilt.readable_title, names, rebuilt.readable_abstract)


def test_an_index_merged_from_parts_ranks_as_one_index_of_all_their_papers():
    papers = many_papers(300)
    whole = SearchIndex.build(papers)
    merged = SearchIndex.merged([SearchIndex.build(papers[:70]), SearchIndex.build(papers[70:200]), SearchIndex.build(papers[200:])])
    assert len(merged.segments) == 3 and merged.count == whole.count == 300
    for question in ("kestrel", "sparse tensor", "gossip quorum shard", "α shards", "q1", "drift cache kernel graph"):
        ranked = whole.rank(question)
        assert ranked and merged.rank(question) == ranked


def test_a_large_topics_index_is_built_by_workers_from_the_cache_files(tmp_path):
    """The same answers as the index of the papers read into this process,
    from parts built by forked workers; a paper missing from its week's file
    is left out of both."""
    config = Config()
    config.settings.auto_refresh = False
    engine = Engine(config, tmp_path / "data")
    papers = many_papers(600)
    engine.cache.store(papers, {}, datetime(2026, 10, 1, tzinfo=UTC))
    library = engine.load_library()
    positions = [library.pos[p.id] for p in papers]
    lost = papers[5]
    week = engine.cache.papers_file(library.rows[library.pos[lost.id]].shard)
    data = json.loads(week.read_text())
    del data["papers"][lost.id]
    week.write_text(json.dumps(data))
    try:
        read_here = SearchIndex.build(engine.papers(positions))
        forks = FORKS[0]
        from_workers = engine.search_index(positions, pool_from=100)
        assert FORKS[0] > forks
        assert len(from_workers.segments) > 1
        assert from_workers.count == read_here.count == 599
        assert lost.id not in from_workers.ids
        for question in ("kestrel", "sparse tensor", "gossip quorum shard", "α shards", "router q2"):
            ranked = read_here.rank(question)
            assert ranked and from_workers.rank(question) == ranked
        # A position given twice is indexed once, not scored twice.
        assert engine.search_index(positions + positions[:20], pool_from=100).rank("kestrel") == read_here.rank("kestrel")
        # Below the threshold, it is built here from the papers.
        forks = FORKS[0]
        small = engine.search_index(positions[:50], pool_from=100)
        assert FORKS[0] == forks and len(small.segments) == 1
        assert small.rank("kestrel") == SearchIndex.build(engine.papers(positions[:50])).rank("kestrel")
    finally:
        engine.close()


STEMS = [
    make_paper("2609.60001", title="A Scheduler for Shared Clusters", abstract="Jobs wait less."),
    make_paper("2609.60002", title="Offload or Not", abstract="Phones offload layers to a server."),
    make_paper("2609.60003", title="Graph Kernels", abstract="Nothing about either."),
]


@pytest.mark.parametrize(
    ("question", "expected"),
    [("scheduling", ["2609.60001"]), ("offloading", ["2609.60002"]), ("schedulers offloaded", ["2609.60001", "2609.60002"])],
)
def test_word_forms_find_each_other_by_their_english_stem(question: str, expected: list[str]) -> None:
    assert sorted(ranked_ids(STEMS, question)) == expected


def test_highlight_marks_the_other_forms_of_a_stem() -> None:
    assert marked(highlight_words("scheduling"), "the scheduler schedules; a schedule") == ["scheduler", "schedules", "schedule"]
    assert marked(highlight_words("offloading"), "offload, offloaded, loading") == ["offload", "offloaded"]

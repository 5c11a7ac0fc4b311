#!/usr/bin/env python3
"""Discovery, measured: Ask, Related and For you on a labelled corpus, and their speed at 40,000 papers.

    python bench/bench_discovery.py [--only quality,refresh,speed] [--runs 5] [--work DIR] [--src PATH] [--baseline main]

Quality: bench/discovery_corpus.py writes its invented corpus (2,208 papers in
24 themes, 120 paraphrased questions with known answers) as arXiv API feeds;
bench/server.py serves them on 127.0.0.1 and `feedtui refresh` (this tree's
CLI, in a sandbox) stores them, so the papers are the app's own, read back
with `Engine.papers`. Then:

- Ask: MRR@10 (the answer paper), nDCG@10 (answer 2, its theme 1) and the
  share of answers in the top 3, for lexical Ask as `--baseline` has it
  (feedtui.search from that git ref: BM25), lexical Ask of this tree, and
  this tree's `engine.ask` (semantic alone and fused, where the engine lets
  them be told apart), all over the whole cache.
- Related: precision@5 by shared theme of `engine.related` for 10 papers of
  each theme; the lexical "title as question" ranking for comparison.
- For you: precision@10 of `engine.for_you` (starred papers left out) when 5
  stars come from one theme, or 3 + 3 from two themes (relevant: the starred
  themes), over 8 draws each; starred titles as a BM25 question for comparison.

Refresh: bench/run.py's refresh figure (set A: 50 topics of one generated
feed of 100 papers, 200 ms per answer), cold, with and without vectors
(FEEDTUI_NO_VECTORS=1), A/B interleaved over --runs.

Speed (medians over --runs): a cache of 40,000 papers (bench/feeds.py's
generated set plus the corpus, ids continuing its numbering), built by a cold
`feedtui refresh` with this tree, and one without computing vectors (this
tree with vectors turned off, when it can be; else the `--baseline` tree, and
the note says so). In a child process that opens the cache as the reader does
(library loaded): RSS before, then Ask over the whole cache (first question,
which loads the model and vectors, and the next ones), its peak RSS; Related;
For you with 5 stars; and vectors per paper (`engine.compute_vectors` on the
cache built without them).

Prints one markdown table (figure, value, target, met, notes); progress goes
to stderr. Nothing leaves 127.0.0.1.
"""

from __future__ import annotations

import argparse
import importlib.util
import inspect
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import discovery_corpus as dc
from bench import discovery_metrics as metrics
from bench.common import REPO_ROOT, log, machine_facts, facts_table
from bench.feedtui_app import Launcher, Sandbox, TopicPlan, build_cache
from bench.feeds import FeedSetSpec, feed_file_name, write_feed_set
from bench.server import FeedServer

Ranker = Callable[[str, int], list[str]]
CORPUS_TOPICS = 6
BIG_SEED = 3
BIG_TOTAL = 40_000
BIG_FEEDS = 32
FORYOU_DRAWS = 8
RELATED_PER_THEME = 10


# --- the table -------------------------------------------------------------

@dataclass(slots=True)
class Line:
    figure: str
    value: str
    target: str = ""
    met: bool | None = None
    note: str = ""


@dataclass(slots=True)
class Report:
    lines: list[Line] = field(default_factory=list)
    raw: dict = field(default_factory=dict)

    def add(self, figure: str, value: str, target: str = "", met: bool | None = None, note: str = "") -> None:
        self.lines.append(Line(figure, value, target, met, note))

    def markdown(self) -> str:
        out = ["| figure | value | target | met | notes |", "|---|---|---|---|---|"]
        for line in self.lines:
            met = "" if line.met is None else ("yes" if line.met else "**no**")
            cells = [line.figure, line.value, line.target, met, line.note]
            out.append("| " + " | ".join(c.replace("|", "\\|").replace("\n", " ") for c in cells) + " |")
        return "\n".join(out)


def ms(values: Sequence[float]) -> str:
    return f"{statistics.median(values) * 1000:.1f} ms [{min(values) * 1000:.1f}–{max(values) * 1000:.1f}]"


# --- the code measured -------------------------------------------------------

def load_search_module(ref: str):
    """feedtui/search.py as it is at git ref `ref`, as a module of its own."""
    text = subprocess.run(
        ["git", "-C", str(REPO_ROOT), "show", f"{ref}:src/feedtui/search.py"], capture_output=True, text=True, check=True,
    ).stdout
    spec = importlib.util.spec_from_loader(f"feedtui_search_{ref.replace('/', '_')}", loader=None)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    exec(compile(text, f"{ref}:src/feedtui/search.py", "exec"), module.__dict__)
    return module


def export_tree(ref: str, dest: Path) -> Path:
    """src/ of git ref `ref`, written under dest (for running another tree's CLI)."""
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    archive = subprocess.run(["git", "-C", str(REPO_ROOT), "archive", ref, "src"], capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(dest)], input=archive, check=True)
    return dest / "src"


def open_cache(root: Path):
    from feedtui.config import load_config
    from feedtui.core.engine import open_engine

    engine = open_engine(load_config(root / "config.toml"), root / "data")
    engine.load_library()
    return engine


def all_papers(engine) -> list:
    return engine.papers(range(len(engine.library.ids)))


def lexical_ranker(search_module, papers: list) -> Ranker:
    index = search_module.SearchIndex.build(papers)
    return lambda question, k: [pid for pid, _ in index.rank(question, limit=k)]


def engine_rankers(engine, lexical_notes: dict[str, set[str]]) -> tuple[dict[str, Ranker], str]:
    """This tree's Ask: fused, and semantic alone where the engine can be told so.
    Each answer that came back lexical only adds its note to lexical_notes[name]."""
    ask = getattr(engine, "ask", None)
    if ask is None:
        return {}, "this tree has no engine.ask"
    rankers: dict[str, Ranker] = {}
    parameters = inspect.signature(ask).parameters
    mode = next((name for name in ("mode", "ranking", "method") if name in parameters), None)

    def via(name: str, kind: str | None) -> Ranker:
        def rank(question: str, k: int) -> list[str]:
            answer = ask(question, limit=k, **({mode: kind} if mode and kind else {}))
            if not answer.semantic and kind != "lexical":
                lexical_notes.setdefault(name, set()).add(answer.note or "lexical only")
            return [hit.paper_id for hit in answer.hits]
        return rank

    semantic_name = "semantic Ask (engine.ask, semantic only)"
    if mode:
        lexical_name = "lexical Ask (engine.ask, lexical only)"
        rankers[lexical_name] = via(lexical_name, "lexical")
        rankers[semantic_name] = via(semantic_name, "semantic")
    else:
        semantic = _semantic_only(engine)
        if semantic is not None:
            rankers["semantic Ask (the engine's vectors, cosine only)"] = semantic
    fused_name = "fused Ask (engine.ask)"
    rankers[fused_name] = via(fused_name, None)
    why = "" if len(rankers) > 1 else "semantic alone: the engine has no model or vectors loaded, or no way to ask for cosine alone"
    return rankers, why


def _semantic_only(engine) -> Ranker | None:
    """Cosine ranking alone, through the engine's semantic part, where it offers one:
    a public `ask_semantic` / `semantic_rank`, else the object its private
    `_semantic()` returns (`ask(question, allowed, depth)` -> [(id, score)])."""
    for name in ("ask_semantic", "semantic_rank"):
        method = getattr(engine, name, None)
        if method is not None:
            def rank(question: str, k: int, method=method) -> list[str]:
                result = method(question, limit=k)
                hits = getattr(result, "hits", result)
                return [getattr(h, "paper_id", h[0] if isinstance(h, tuple) else h) for h in hits]
            return rank
    loader = getattr(engine, "_semantic", None)
    semantic = loader() if loader is not None else None
    if semantic is None or not hasattr(semantic, "ask"):
        return None
    return lambda question, k: [pid for pid, _ in semantic.ask(question, None, k)]


# --- quality -----------------------------------------------------------------

def today() -> datetime:
    return datetime.now(UTC).replace(hour=0, minute=0, second=0, microsecond=0)


def corpus_plans(server: FeedServer, folder_name: str, folder: Path, prefix: str) -> list[TopicPlan]:
    files = sorted(p.name for p in folder.glob("disc-*.xml"))
    return [
        TopicPlan(f"{prefix} {k}", tuple(server.url(f"{folder_name}/{name}") for name in files[k::CORPUS_TOPICS]))
        for k in range(CORPUS_TOPICS)
    ]


def measure_ask(report: Report, corpus: dc.Corpus, rankers: dict[str, Ranker]) -> None:
    for name, rank in rankers.items():
        rr, nd, top3 = [], [], []
        for question in corpus.questions:
            ranking = rank(question.text, 10)
            answer = {question.answer}
            rr.append(metrics.reciprocal_rank(ranking, answer, 10))
            nd.append(metrics.ndcg(ranking, corpus.relevance(question), 10))
            top3.append(metrics.hit(ranking, answer, 3))
        report.raw[name] = {"mrr@10": metrics.mean(rr), "ndcg@10": metrics.mean(nd), "top3": metrics.mean(top3)}
        report.add(f"{name}: MRR@10", f"{metrics.mean(rr):.3f}", note=f"{len(rr)} questions")
        report.add(f"{name}: nDCG@10", f"{metrics.mean(nd):.3f}")
        report.add(f"{name}: answer in top 3", f"{sum(top3):.0f} / {len(top3)}")


def related_sample(corpus: dc.Corpus) -> list[str]:
    chosen: list[str] = []
    for theme in dict.fromkeys(p.theme for p in corpus.papers):
        chosen += sorted(p.id for p in corpus.papers if p.theme == theme)[:RELATED_PER_THEME]
    return chosen


def measure_related(report: Report, corpus: dc.Corpus, engine, lexical) -> None:
    theme = corpus.theme_of()
    titles = {p.id: p.paper.title for p in corpus.papers}
    sample = related_sample(corpus)
    rankers: dict[str, Callable[[str], list[str]]] = {
        "Related, lexical (title as question), for comparison": lambda pid: [x for x in lexical(titles[pid], 6) if x != pid][:5],
    }
    if hasattr(engine, "related"):
        rankers["Related (engine.related)"] = lambda pid: [h.paper_id for h in engine.related(pid, limit=5)]
    for name, related in rankers.items():
        scores = [metrics.precision(related(pid), {x for x in theme if theme[x] == theme[pid]}, 5) for pid in sample]
        report.raw[name] = metrics.mean(scores)
        report.add(f"{name}: precision@5 by theme", f"{metrics.mean(scores):.3f}", note=f"{len(sample)} papers")
    if not hasattr(engine, "related"):
        report.add("Related (engine.related): precision@5 by theme", "not measured", note="this tree has no engine.related")


def foryou_draws(corpus: dc.Corpus, themes_per_draw: int) -> list[tuple[set[str], list[str]]]:
    """(relevant themes, starred ids) for each draw, the same every run."""
    rng = random.Random(f"foryou/{themes_per_draw}")
    themes = sorted({p.theme for p in corpus.papers})
    per_theme = 5 if themes_per_draw == 1 else 3
    draws = []
    for _ in range(FORYOU_DRAWS):
        picked = rng.sample(themes, themes_per_draw)
        stars = [pid for t in picked for pid in rng.sample(sorted(p.id for p in corpus.papers if p.theme == t), per_theme)]
        draws.append((set(picked), stars))
    return draws


def measure_foryou(report: Report, corpus: dc.Corpus, engine, lexical) -> None:
    theme = corpus.theme_of()
    titles = {p.id: p.paper.title for p in corpus.papers}

    def lexical_foryou(stars: list[str]) -> list[str]:
        return lexical(" ".join(titles[s] for s in stars), 10 + len(stars))

    def engine_foryou(stars: list[str]) -> list[str]:
        engine.star(stars)
        try:
            return [h.paper_id for h in engine.for_you(limit=10 + len(stars)).hits]
        finally:
            engine.unstar(stars)

    rankers = {"For you, lexical (starred titles as question), for comparison": lexical_foryou}
    if hasattr(engine, "for_you"):
        rankers["For you (engine.for_you)"] = engine_foryou
    for name, rank in rankers.items():
        for count in (1, 2):
            scores = []
            for themes, stars in foryou_draws(corpus, count):
                ranking = [pid for pid in rank(stars) if pid not in stars]
                scores.append(metrics.precision(ranking, {x for x in theme if theme[x] in themes}, 10))
            report.raw[f"{name} / {count}"] = metrics.mean(scores)
            report.add(f"{name}: precision@10, stars from {count} theme{'s' if count > 1 else ''}", f"{metrics.mean(scores):.3f}", note=f"{FORYOU_DRAWS} draws")
    if not hasattr(engine, "for_you"):
        report.add("For you (engine.for_you): precision@10", "not measured", note="this tree has no engine.for_you")


def section_quality(args, report: Report, server: FeedServer, launcher: Launcher) -> None:
    corpus = dc.build_corpus(args.seed, today())
    folder = args.work / "feeds" / "corpus"
    dc.write_corpus(corpus, folder)
    log(f"quality: {len(corpus.papers):,} papers, {len(corpus.questions)} questions; refreshing them into a sandbox …")
    started = time.perf_counter()
    sandbox = build_cache(args.work / "quality-cache", launcher, corpus_plans(server, "corpus", folder, "Discovery"))
    log(f"quality: cache built in {time.perf_counter() - started:.1f} s")
    engine = open_cache(sandbox.root)
    try:
        if hasattr(engine, "compute_vectors"):
            made = engine.compute_vectors()
            report.add("vectors `feedtui refresh` left uncomputed", f"{made:,}", note="computed here (engine.compute_vectors) before measuring" if made else "")
        papers = all_papers(engine)
        stored = {p.id for p in papers}
        missing = [q.answer for q in corpus.questions if q.answer not in stored]
        report.add("corpus papers stored by `feedtui refresh`", f"{len(papers):,} of {len(corpus.papers):,}", note=f"{len(missing)} answers missing" if missing else "")
        baseline = lexical_ranker(load_search_module(args.baseline), papers)
        import feedtui.search as current

        here = lexical_ranker(current, papers)
        rankers: dict[str, Ranker] = {f"lexical Ask ({args.baseline}: feedtui.search BM25), baseline": baseline, "lexical Ask (this tree: feedtui.search)": here}
        lexical_notes: dict[str, set[str]] = {}
        found, why = engine_rankers(engine, lexical_notes)
        rankers.update(found)
        measure_ask(report, corpus, rankers)
        if why:
            report.add("semantic Ask", "not measured", note=why)
        for name, notes in lexical_notes.items():
            report.add(f"{name}: came back lexical only", "yes", note="; ".join(sorted(notes)))
        fused = report.raw.get("fused Ask (engine.ask)")
        for name in (f"lexical Ask ({args.baseline}: feedtui.search BM25), baseline", "lexical Ask (this tree: feedtui.search)"):
            base = report.raw[name]
            if fused:
                report.add(f"fused beats {name.split(',')[0]} on MRR@10", f"{fused['mrr@10']:.3f} vs {base['mrr@10']:.3f}", "fused > lexical", fused["mrr@10"] > base["mrr@10"])
        measure_related(report, corpus, engine, here)
        measure_foryou(report, corpus, engine, here)
    finally:
        engine.close()


# --- speed -------------------------------------------------------------------

def big_sets(args) -> tuple[Path, Path, dc.Corpus]:
    corpus_size = len(dc.THEMES) * dc.THEME_PAPERS
    generated = BIG_TOTAL - corpus_size
    entries = -(-generated // BIG_FEEDS)
    spec = FeedSetSpec(feeds=BIG_FEEDS, entries=entries, seed=BIG_SEED, now=today())
    folder = args.work / "feeds" / "big"
    manifest = folder / "manifest.json"
    if not (manifest.exists() and json.loads(manifest.read_text())["spec"] == spec.to_json()):
        log(f"speed: generating {BIG_FEEDS} feeds × {entries} entries …")
        write_feed_set(spec, folder)
    corpus = dc.build_corpus(args.seed, today(), id_start=BIG_FEEDS * entries, id_seed=BIG_SEED)
    corpus_folder = args.work / "feeds" / "corpus40"
    dc.write_corpus(corpus, corpus_folder)
    return folder, corpus_folder, corpus


def big_plans(server: FeedServer, corpus_folder: Path) -> list[TopicPlan]:
    per_topic = 8
    plans = [
        TopicPlan(f"Big {k}", tuple(server.url(f"big/{feed_file_name(i)}") for i in range(k * per_topic, (k + 1) * per_topic)))
        for k in range(BIG_FEEDS // per_topic)
    ]
    return plans + corpus_plans(server, "corpus40", corpus_folder, "Corpus")


def vectors_switch(src: Path) -> dict[str, str] | None:
    """The environment that turns vectors off in a refresh of `src`, if the tree has one."""
    for path in (src / "feedtui").rglob("*.py"):
        text = path.read_text(encoding="utf-8", errors="replace")
        if "FEEDTUI_NO_VECTORS" in text:
            return {"FEEDTUI_NO_VECTORS": "1"}
    return None


def timed_cache(root: Path, launcher: Launcher, plans: list[TopicPlan], env: dict[str, str] | None = None) -> tuple[Sandbox, float, float]:
    sandbox = Sandbox.create(root, launcher)
    sandbox.add_topics(plans)
    if env:
        sandbox.launcher = Launcher(launcher.argv, (*launcher.extra_env, *env.items()))
    sample = sandbox.run("refresh", timeout=3600)
    sandbox.launcher = launcher
    return sandbox, sample.wall_s, sample.max_rss_kb / 1024


def section_speed(args, report: Report, server: FeedServer, launcher: Launcher) -> None:
    _, corpus_folder, corpus = big_sets(args)
    plans = big_plans(server, corpus_folder)
    switch = vectors_switch(args.src)
    without_launcher = launcher if switch else Launcher.from_checkout(sys.executable, export_tree(args.baseline, args.work / "baseline-tree"))
    without_note = "this tree, vectors off (FEEDTUI_NO_VECTORS=1)" if switch else f"the {args.baseline} tree (no vectors there)"
    with_times, without_times, with_rss, without_rss = [], [], [], []
    runs = max(1, args.refresh_runs)
    for run in range(runs):  # interleaved A/B, the order alternating: the machine is shared
        for kind in (("without", "with") if run % 2 == 0 else ("with", "without")):
            log(f"speed: cold refresh at 40k {kind} vectors, run {run + 1}/{runs} …")
            if kind == "without":
                plain, wall, rss = timed_cache(args.work / "big-plain", without_launcher, plans, switch)
                without_times.append(wall)
                without_rss.append(rss)
            else:
                full, wall, rss = timed_cache(args.work / "big-full", launcher, plans)
                with_times.append(wall)
                with_rss.append(rss)
            log(f"speed: … {wall:.1f} s")
    a, b = statistics.median(without_times), statistics.median(with_times)
    report.add("cold refresh, 40k papers, without vectors", f"{a:.1f} s [{min(without_times):.1f}–{max(without_times):.1f}]", note=f"{without_note}; {runs} run(s); peak RSS {statistics.median(without_rss):.0f} MB")
    refresh_with = Line("cold refresh, 40k papers, with vectors", f"{b:.1f} s [{min(with_times):.1f}–{max(with_times):.1f}] ({(b / a - 1) * 100:+.0f}%)", "≤ 15% slower", b <= a * 1.15, f"this tree; peak RSS {statistics.median(with_rss):.0f} MB")
    report.lines.append(refresh_with)
    plain_copy = plain.copy(args.work / "big-plain-copy")
    log("speed: vectors for the 40k cache built without them, in a child process …")
    vectors = run_child(report, args, "--child-vectors", plain_copy.root)
    shutil.rmtree(plain_copy.root)
    if vectors is None:
        return
    if vectors["count"]:
        per = vectors["seconds"] / vectors["count"] * 1000
        report.add("vectors per paper (engine.compute_vectors)", f"{per:.3f} ms", "≤ 1 ms", per <= 1.0, note=f"{vectors['count']:,} papers in {vectors['seconds']:.1f} s, model load included; read from their week files, as for a cache refreshed without vectors")
        if vectors.get("words_seconds") is not None:
            report.add("whole-cache word index per paper (built from the week files)", f"{vectors['words_seconds'] / vectors['count'] * 1000:.3f} ms", note=f"{vectors['words_seconds']:.1f} s; stored by compute_vectors after the vectors")
    else:
        report.add("vectors per paper (engine.compute_vectors)", "not measured", "≤ 1 ms", note="compute_vectors made no vectors (no model in this tree?)")
    log("speed: vectors the refresh left uncomputed in the 40k cache …")
    left = run_child(report, args, "--child-vectors", full.root)
    if left is None:
        return
    report.add("vectors `feedtui refresh` left uncomputed at 40k", f"{left['count']:,}", note=f"computed before timing Ask ({left['seconds']:.1f} s)" if left["count"] else "")
    if left["count"]:
        refresh_with.met = None
        refresh_with.note += "; not judged: this refresh computed no vectors"
    log("speed: Ask, Related and For you at 40k in a child process …")
    figures = run_child(report, args, "--child", full.root)
    if figures is None:
        return
    report.raw["speed"] = figures
    report.add("papers in the 40k cache", f"{figures['papers']:,}")
    if "skipped" in figures:
        report.add("Ask / Related / For you / vectors at 40k", "not measured", note=figures["skipped"])
        return
    rows = (
        ("Ask over the whole cache, 40k (first question: loads model + vectors)", "ask_first", "", None),
        ("Ask over the whole cache, 40k", "ask", "≤ 150 ms", 0.150),
        ("Related, 40k", "related", "≤ 50 ms", 0.050),
        ("For you, 40k (5 stars)", "foryou", "≤ 300 ms", 0.300),
    )
    for label, key, target, limit in rows:
        values = figures.get(key)
        if values:
            report.add(label, ms(values), target, None if limit is None else statistics.median(values) <= limit, note=f"{len(values)} calls")
    if figures.get("lexical_only"):
        report.add("Ask at 40k came back lexical only", "yes", note=figures["lexical_only"])
    before, peak = figures["rss_before_mb"], figures["rss_peak_ask_mb"]
    report.add("peak RSS answering Ask over 40k, above RSS before", f"{peak - before:+.0f} MB ({before:.0f} → {peak:.0f} MB)", "≤ 40 MB more", peak - before <= 40, note="headless engine process with the library loaded, as the reader has it")


def section_refresh(args, report: Report, server: FeedServer, launcher: Launcher) -> None:
    """The suite's refresh figure (bench/run.py: 50 topics of one feed of 100
    papers each, 200 ms per answer), cold, with and without vectors, A/B
    interleaved on fresh copies of one template."""
    spec = FeedSetSpec(feeds=50, entries=100, seed=1, now=today())
    folder = args.work / "feeds" / "A"
    manifest = folder / "manifest.json"
    if not (manifest.exists() and json.loads(manifest.read_text())["spec"] == spec.to_json()):
        write_feed_set(spec, folder)
    switch = vectors_switch(args.src)
    if switch is None:
        report.add("cold refresh, 5k papers, with vs without vectors", "not measured", note="this tree has no FEEDTUI_NO_VECTORS")
        return
    log("refresh: adding and following 50 topics …")
    template = Sandbox.create(args.work / "refresh-template", launcher)
    template.add_topics([TopicPlan(f"Bench A {i:03d}", (server.url(f"A/{feed_file_name(i)}"),)) for i in range(spec.feeds)])
    off = Launcher(launcher.argv, (*launcher.extra_env, *switch.items()))
    times: dict[str, list[float]] = {"without": [], "with": []}
    server.latency_s = 0.2
    try:
        for run in range(args.runs):
            for kind in (("without", "with") if run % 2 == 0 else ("with", "without")):
                sandbox = template.copy(args.work / "refresh-run")
                sandbox.launcher = off if kind == "without" else launcher
                times[kind].append(sandbox.run("refresh", timeout=900).wall_s)
                log(f"refresh: {kind} vectors, run {run + 1}/{args.runs}: {times[kind][-1]:.2f} s")
                shutil.rmtree(sandbox.root)
    finally:
        server.latency_s = 0.0
    a, b = statistics.median(times["without"]), statistics.median(times["with"])
    span = lambda v: f"[{min(v):.2f}–{max(v):.2f}]"  # noqa: E731
    report.add("cold refresh, 5k papers (bench/run.py's set A, 200 ms), without vectors", f"{a:.2f} s {span(times['without'])}", note=f"this tree, FEEDTUI_NO_VECTORS=1; {args.runs} runs")
    report.add("cold refresh, 5k papers (bench/run.py's set A, 200 ms), with vectors", f"{b:.2f} s {span(times['with'])} ({(b / a - 1) * 100:+.0f}%)", "≤ 15% slower", b <= a * 1.15, note="this tree; interleaved A/B")
    costs = run_child(report, args, "--child-parse-costs", folder)
    if costs and costs.get("papers"):
        per = {name: costs[name] / costs["papers"] * 1000 for name in ("parse", "embed", "words")}
        report.add("vectors per paper, as the parse workers compute them", f"{per['embed']:.3f} ms", "≤ 1 ms", per["embed"] <= 1.0, note=f"set A's {costs['papers']:,} papers, one process, median of {args.runs}; parsing and tagging {per['parse']:.3f} ms, the word index {per['words']:.3f} ms a paper")


# --- the child: figures in a process of their own ------------------------------

def run_child(report: Report, args, mode: str, root: Path) -> dict | None:
    """Figures from this script run as `mode` on the cache at root, in a process of its own."""
    argv = [sys.executable, str(Path(__file__).resolve()), mode, str(root), "--src", str(args.src), "--runs", str(args.runs), "--seed", str(args.seed)]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=3600, env={**os.environ, "PYTHONPATH": f"{args.src}{os.pathsep}{REPO_ROOT}"})
    if done.returncode != 0:
        report.add(f"speed at 40k ({mode})", "failed", note=(done.stderr.strip().splitlines() or ["no output"])[-1][:200])
        log(done.stderr[-3000:])
        return None
    return json.loads(done.stdout)


def child_parse_costs(folder: Path, runs_wanted: int) -> dict:
    """Seconds (medians of --runs) to parse and tag set A's feeds, to embed
    their papers and to index their words, as a refresh's parse workers do."""
    try:
        from feedtui.discovery.at_parse import embed_papers, load_model
        from feedtui.discovery.word_parts import words_of
    except ImportError:
        return {}
    from feedtui.topics.tagging import parse_and_tag, register_topics

    register_topics(1, [])
    bodies = [path.read_bytes() for path in sorted(folder.glob("*.xml"))]
    now = datetime.now(UTC)
    load_model()
    runs: dict[str, list[float]] = {"parse": [], "embed": [], "words": []}
    papers = 0
    for _ in range(max(1, runs_wanted)):
        started = time.process_time()
        feeds = [parse_and_tag(1, body, f"http://127.0.0.1/{i}", "application/atom+xml", now)[0] for i, body in enumerate(bodies)]
        parsed = time.process_time()
        for feed in feeds:
            embed_papers(feed.papers)
        embedded = time.process_time()
        for feed in feeds:
            words_of(feed.papers)
        runs["parse"].append(parsed - started)
        runs["embed"].append(embedded - parsed)
        runs["words"].append(time.process_time() - embedded)
        papers = sum(len(feed.papers) for feed in feeds)
    return {"papers": papers, **{name: statistics.median(values) for name, values in runs.items()}}


def child_vectors(root: Path) -> dict:
    engine = open_cache(root)
    if not hasattr(engine, "compute_vectors"):
        return {"count": 0, "seconds": 0.0}
    started = time.perf_counter()
    if hasattr(engine, "store_word_index"):
        # The vectors, then the word index that compute_vectors also stores: timed apart.
        count = engine._compute_vectors()
        seconds = time.perf_counter() - started
        engine.store_word_index()
        words = time.perf_counter() - started - seconds
    else:
        count = engine.compute_vectors()
        seconds = time.perf_counter() - started
        words = None
    engine.close()
    return {"count": count, "seconds": seconds, "words_seconds": words}


def _status_mb(field_name: str) -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field_name + ":"):
            return int(line.split()[1]) / 1024
    return float("nan")


def _reset_peak() -> None:
    try:
        Path("/proc/self/clear_refs").write_text("5")
    except OSError:
        pass


def child(args) -> dict:
    import gc

    corpus = dc.build_corpus(args.seed, today())
    engine = open_cache(args.child)
    figures: dict = {"papers": len(engine.library.ids)}
    if not hasattr(engine, "ask"):
        figures["skipped"] = "this tree has no engine.ask"
        return figures
    gc.collect()
    figures["rss_before_mb"] = _status_mb("VmRSS")
    _reset_peak()
    questions = [q.text for q in corpus.questions]
    started = time.perf_counter()
    engine.ask(questions[0], limit=50)
    figures["ask_first"] = [time.perf_counter() - started]
    asks = []
    for question in questions[1 : 1 + max(10, args.runs * 4)]:
        started = time.perf_counter()
        engine.ask(question, limit=50)
        asks.append(time.perf_counter() - started)
    figures["ask"] = asks
    figures["rss_peak_ask_mb"] = _status_mb("VmHWM")
    answer = engine.ask(questions[0], limit=10)
    if not answer.semantic:
        figures["lexical_only"] = answer.note
    ids = engine.library.ids
    rng = random.Random(7)
    sample = rng.sample(list(ids), max(10, args.runs * 4))
    if hasattr(engine, "related"):
        engine.related(sample[0], limit=10)
        related = []
        for pid in sample[1:]:
            started = time.perf_counter()
            engine.related(pid, limit=10)
            related.append(time.perf_counter() - started)
        figures["related"] = related
    if hasattr(engine, "for_you"):
        stars = rng.sample(list(ids), 5)
        engine.star(stars)
        engine.for_you(limit=50)
        foryou = []
        for _ in range(max(5, args.runs)):
            started = time.perf_counter()
            engine.for_you(limit=50)
            foryou.append(time.perf_counter() - started)
        figures["foryou"] = foryou
        engine.unstar(stars)
    engine.close()
    return figures


# --- main --------------------------------------------------------------------

def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="bench_discovery.py", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", default="quality,refresh,speed", help="comma-separated: quality, refresh (5k, 200 ms), speed (40k)")
    parser.add_argument("--runs", type=int, default=5, help="timed calls scale with this")
    parser.add_argument("--refresh-runs", type=int, default=1, help="cold 40k refreshes of each kind (interleaved)")
    parser.add_argument("--seed", type=int, default=1, help="the corpus's seed")
    parser.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "feedtui-bench-discovery")
    parser.add_argument("--src", type=Path, default=REPO_ROOT / "src", help="the feedtui tree measured")
    parser.add_argument("--baseline", default="main", help="git ref whose lexical Ask (and refresh) is the baseline")
    parser.add_argument("--json", type=Path, help="also write every figure here")
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--child-vectors", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--child-parse-costs", type=Path, help=argparse.SUPPRESS)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    args.src = args.src.resolve()
    sys.path.insert(0, str(args.src))
    if args.child:
        print(json.dumps(child(args)))
        return 0
    if args.child_parse_costs:
        print(json.dumps(child_parse_costs(args.child_parse_costs, args.runs)))
        return 0
    if args.child_vectors:
        print(json.dumps(child_vectors(args.child_vectors)))
        return 0
    sections = [s.strip() for s in args.only.split(",") if s.strip()]
    (args.work / "feeds").mkdir(parents=True, exist_ok=True)
    report = Report()
    launcher = Launcher.from_checkout(sys.executable, args.src)
    with FeedServer(args.work / "feeds", latency_ms=0) as server:
        if "quality" in sections:
            section_quality(args, report, server, launcher)
        if "refresh" in sections:
            section_refresh(args, report, server, launcher)
        if "speed" in sections:
            section_speed(args, report, server, launcher)
    print(f"Discovery bench — `{' '.join(['python bench/bench_discovery.py', *(argv if argv is not None else sys.argv[1:])])}`\n")
    print(report.markdown())
    print()
    print(facts_table(machine_facts()))
    if args.json:
        args.json.write_text(json.dumps(report.raw, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

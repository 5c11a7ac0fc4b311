"""How fast topic queries tag a cache: MatchDoc.build and matching, on invented papers.

    /work/venv/bin/python bench/bench_query.py [--papers 50000] [--repeat 5]

Builds N synthetic papers (procedural titles, ~1,200-character abstracts with
some Unicode from rendered LaTeX, 2-12 authors some with accents, 1-3
categories, sometimes a comment or journal ref), then times, as medians over
the repeats:
  - MatchDoc.build alone (fields are computed on demand) and with every field
    computed (the full tokenising cost of one paper);
  - a full retag as the engine does it, one paper at a time: build + all 45
    catalogue-style queries, nothing kept;
  - adding one topic: build + that one query over every paper;
  - matching alone over papers already prepared (ns per paper x topic).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from feedtui.topics.query import MatchDoc, compile_query, parse_query  # noqa: E402

QUERIES = [
    'cat:cs.DC AND (abs:heterogeneous OR abs:"GPU and FPGA")',
    'abs:"large language model" AND (abs:inference OR abs:serving)',
    'ti:"mixture of experts" OR abs:"mixture-of-experts" OR ti:MoE',
    'abs:"edge computing" OR (abs:edge AND abs:offloading AND cat:cs.NI)',
    'abs:"edge inference" OR (abs:edge AND abs:inference AND abs:device)',
    'abs:"federated learning" OR ti:federated',
    'abs:"distributed training" OR (abs:"data parallel" AND abs:training)',
    'abs:"pipeline parallelism" OR ti:"pipeline parallel"',
    'abs:disaggregated AND (abs:prefill OR abs:decode) AND abs:serving',
    'abs:"KV cache" OR abs:"key-value cache"',
    'abs:"compute-in-memory" OR abs:"processing-in-memory" OR abs:"in-memory computing"',
    'abs:FPGA AND (abs:accelerat* OR ti:accelerator) AND cat:cs.AR',
    'abs:"spiking neural network" OR ti:neuromorphic',
    'ti:SLAM OR abs:"visual odometry"',
    'cat:cs.DC AND (abs:"high-performance computing" OR abs:HPC OR abs:supercomputer)',
    'cat:cs.LG AND abs:"reinforcement learning"',
    'cat:cs.CR AND (abs:attack OR abs:vulnerability) ANDNOT ti:survey',
    'cat:cs.HC AND (abs:user AND abs:study)',
    'cat:cs.CC OR (cat:cs.DS AND abs:complexity)',
    'cat:quant-ph AND abs:"error correction"',
    'cat:hep-th AND abs:string*',
    'cat:astro-ph.* AND (abs:"dark matter" OR abs:galaxy)',
    'cat:cond-mat.* AND abs:superconduct*',
    'cat:math.CO AND (abs:graph OR abs:graphs)',
    'cat:math.PR AND abs:"random walk"',
    'cat:stat.ML AND abs:bayesian',
    'cat:q-bio.* AND (abs:protein OR abs:genome)',
    'cat:econ.* AND abs:market',
    'cat:q-fin.* AND (abs:portfolio OR abs:volatility)',
    'cat:eess.SP AND abs:"signal processing"',
    'abs:transformer AND (abs:attention OR abs:efficient) ANDNOT cat:cs.CV',
    'ti:"graph neural network" OR abs:GNN',
    'abs:diffusion AND abs:image AND cat:cs.CV',
    'abs:quantization AND (abs:LLM OR abs:"language model")',
    'abs:compiler AND (abs:GPU OR abs:accelerator)',
    'abs:"energy efficiency" AND (abs:datacenter OR abs:cluster)',
    'au:lovelace OR au:hopper',
    'au:"del maestro" OR au:del_maestro',
    'abs:scheduling AND abs:heterogeneous AND (abs:CPU OR abs:GPU)',
    'ti:benchmark AND abs:"language model"',
    '(ti:robot OR abs:robotic) AND cat:cs.RO',
    'abs:"neural architecture search" OR ti:NAS',
    'cat:cs.PL AND abs:type*',
    'abs:privacy AND (abs:"differential privacy" OR abs:federated)',
    'cat:physics.* AND abs:optic*',
]

DOMAIN = (
    "heterogeneous GPU GPUs FPGA FPGAs accelerator accelerators inference serving language model models large "
    "edge device devices offloading federated learning distributed training data parallel pipeline parallelism "
    "disaggregated prefill decode KV cache caches key-value compute-in-memory processing-in-memory spiking neural "
    "network networks neuromorphic SLAM visual odometry high-performance computing HPC supercomputer reinforcement "
    "attack vulnerability user study complexity error correction string dark matter galaxy superconducting graph "
    "graphs random walk bayesian protein genome market portfolio volatility signal processing transformer "
    "attention efficient diffusion image quantization LLM compiler energy efficiency datacenter cluster scheduling "
    "CPU benchmark robot robotic architecture search privacy differential optical type typed"
).split()
FILLER = (
    "we propose a novel method that improves the of and in for with on by to from this paper show results "
    "our approach achieves state art performance across several tasks experiments demonstrate significant "
    "gains over baselines while reducing cost latency throughput memory analysis framework system design "
    "evaluation real world workloads theoretical bound provide new insight into problem setting"
).split()
UNICODE_BITS = ["5.2×", "α", "β-decay", "O(n²)", "≤", "ε-approximate", "10⁻³", "naïve"]
SURNAMES = ["Lovelace", "Turing", "Hopper", "Grünwald", "Del Maestro", "Nakamura", "Okafor", "Søren", "Müller",
            "Novák", "García", "Chen", "Ivanova", "Kowalski", "Haddad", "Dubois", "Ferreira", "Larsen"]
GIVEN = ["Ada", "Alan", "Grace", "Kurt", "Adrian", "Mei", "Chidi", "Astrid", "Jörg", "Lucía", "Wei", "Olga"]
CATEGORIES = ["cs.DC", "cs.AR", "cs.LG", "cs.AI", "cs.CL", "cs.CV", "cs.CR", "cs.HC", "cs.NI", "cs.RO", "cs.PL",
              "cs.DS", "cs.CC", "quant-ph", "hep-th", "astro-ph.CO", "astro-ph.GA", "cond-mat.supr-con",
              "math.CO", "math.PR", "stat.ML", "q-bio.BM", "econ.GN", "q-fin.PM", "eess.SP", "physics.optics"]


def invented_word(rng: random.Random) -> str:
    syllables = ["ka", "lo", "ven", "tri", "mus", "dor", "pel", "sa", "qui", "ren", "tas", "zo", "bri", "fen"]
    return "".join(rng.choice(syllables) for _ in range(rng.randint(2, 4)))


def sentence(rng: random.Random, words: int) -> str:
    parts = []
    for _ in range(words):
        roll = rng.random()
        if roll < 0.18:
            parts.append(rng.choice(DOMAIN))
        elif roll < 0.30:
            parts.append(invented_word(rng))
        else:
            parts.append(rng.choice(FILLER))
    return " ".join(parts)


def synthetic_paper(rng: random.Random, index: int) -> dict:
    abstract_parts = []
    while sum(len(p) for p in abstract_parts) < 1150:
        text = sentence(rng, rng.randint(8, 22))
        if rng.random() < 0.1:
            text += " " + rng.choice(UNICODE_BITS)
        abstract_parts.append(text.capitalize() + rng.choice([".", ";", ",", "."]))
    authors = [f"{rng.choice(GIVEN)} {rng.choice(SURNAMES)}" for _ in range(rng.randint(2, 12))]
    return {
        "id": f"26{index // 100000 % 10}{rng.randint(1, 9)}.{index % 100000:05d}v{rng.randint(1, 3)}",
        "title": sentence(rng, rng.randint(6, 14)).title(),
        "abstract": " ".join(abstract_parts)[:1250],
        "authors": authors,
        "categories": rng.sample(CATEGORIES, rng.randint(1, 3)),
        "comment": f"{rng.randint(5, 40)} pages, {rng.randint(1, 12)} figures" if rng.random() < 0.5 else "",
        "journal_ref": f"Journal of {rng.choice(DOMAIN).title()} {rng.randint(1, 90)} (2026)" if rng.random() < 0.1 else "",
    }


def median_time(function, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def loop_rate() -> float:
    """Millions of trivial Python loop iterations per second: how fast this
    machine runs Python right now (a recent laptop manages about 20-25)."""
    def loop() -> None:
        total = 0
        for number in range(1_000_000):
            total += number

    return 1.0 / median_time(loop, 5)


def prepare(doc: MatchDoc) -> MatchDoc:
    """Compute every field a query can read (except `all`, built only for `all:`)."""
    doc.ti, doc.abs, doc.au, doc.co, doc.jr, doc.cats, doc.id  # noqa: B018
    return doc


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--papers", type=int, default=50_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    papers = [synthetic_paper(rng, i) for i in range(args.papers)]
    count = len(papers)
    mean_abstract = statistics.mean(len(p["abstract"]) for p in papers)
    print(f"{count} synthetic papers (mean abstract {mean_abstract:.0f} chars), {len(QUERIES)} queries, "
          f"medians of {args.repeat} runs")
    print(f"machine: {loop_rate():.1f} M Python loop iterations/s")

    start = time.perf_counter()
    matchers = [compile_query(parse_query(q)) for q in QUERIES]
    print(f"parse + compile {len(QUERIES)} queries: {(time.perf_counter() - start) * 1e3:.1f} ms")

    build = MatchDoc.build
    for paper in papers:  # a running app has seen its vocabulary: warm the plural-fold cache
        prepare(build(**paper))

    seconds = median_time(lambda: [build(**paper) and None for paper in papers], args.repeat)
    print(f"MatchDoc.build (fields on demand):      {seconds / count * 1e6:7.2f} µs/paper")
    seconds = median_time(lambda: [prepare(build(**paper)) and None for paper in papers], args.repeat)
    print(f"MatchDoc.build + every field computed:  {seconds / count * 1e6:7.2f} µs/paper")

    def retag(queries) -> None:
        """What the engine does: one paper at a time, every topic, nothing kept."""
        for paper in papers:
            doc = build(**paper)
            for matcher in queries:
                matcher(doc)

    seconds = median_time(lambda: retag(matchers), args.repeat)
    print(f"full retag, build + {len(matchers)} queries:        {seconds * 1e3:7.0f} ms  "
          f"({seconds / count * 1e6:.1f} µs/paper, {seconds / count / len(matchers) * 1e9:.0f} ns per paper x topic)")
    for label, index in (("category-filtered", 0), ("abstract phrases", 9), ("authors", 37)):
        seconds = median_time(lambda i=index: retag([matchers[i]]), args.repeat)
        print(f"add one topic, build + 1 query ({label}): {seconds * 1e3:6.0f} ms  {QUERIES[index]}")

    docs = [prepare(build(**paper)) for paper in papers]
    for doc in docs:
        for matcher in matchers:
            matcher(doc)  # builds the lazy phrase and wildcard strings once

    def match_prepared() -> None:
        for doc in docs:
            for matcher in matchers:
                matcher(doc)

    seconds = median_time(match_prepared, args.repeat)
    print(f"match only, {len(matchers)} queries over prepared papers: {seconds * 1e3:6.0f} ms  "
          f"({seconds / count / len(matchers) * 1e9:.0f} ns per paper x topic)")
    per_query = []
    for text, matcher in zip(QUERIES, matchers):
        seconds = median_time(lambda m=matcher: [m(doc) for doc in docs], 3)
        per_query.append((seconds / count * 1e9, sum(1 for doc in docs if matcher(doc)), text))
    per_query.sort()
    print(f"one query over all prepared papers: median {per_query[len(per_query) // 2][0]:.0f} ns/paper, "
          f"slowest {per_query[-1][0]:.0f} ns/paper ({per_query[-1][2]})")
    print(f"papers matched per query: median {statistics.median(q[1] for q in per_query):.0f}, "
          f"none for {sum(1 for q in per_query if q[1] == 0)} queries")
    docs.clear()  # free them before the memory sample

    sample = papers[: min(5_000, count)]
    tracemalloc.start()
    kept = [prepare(build(**paper)) for paper in sample]
    for doc in kept:
        for matcher in matchers:
            matcher(doc)
    current, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(f"memory a prepared and matched MatchDoc holds: {current / len(kept) / 1024:.1f} KiB")
    print(f"machine: {loop_rate():.1f} M Python loop iterations/s")


if __name__ == "__main__":
    main()

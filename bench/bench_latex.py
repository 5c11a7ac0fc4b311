"""How fast is latex_to_unicode on arXiv-style abstracts?

Generates abstracts procedurally (invented words and LaTeX snippets of the
kinds arXiv uses) and prints the median and 95th-percentile microseconds per
abstract for latex_to_unicode:

* "one pass": every abstract converted once, in order, starting from an empty
  math cache -- what a refresh does;
* "math cache cleared": the cache emptied before every call, so each snippet
  is converted from scratch (the worst case);
* plain prose with no LaTeX at all (the fast path).

For comparison it times pylatexenc's LatexNodes2Text on a small sample.

With --gen-feeds PATH the abstracts come instead from running the shared
feed generator (gen_feeds.py, set A: 50 feeds x 100 entries, seed 1) into a
temporary directory and reading its papers.json.

    python bench/bench_latex.py [--abstracts 5000] [--seed 7] [--gen-feeds PATH]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from feedtui.text.latex import _MATH_CACHE, latex_to_unicode

WORDS = (
    "we study a the of robust sparse model models method learning training "
    "inference graph graphs network networks bound bounds regret convergence "
    "rate optimal adaptive stochastic gradient descent kernel estimator "
    "variance policy reward agents attention transformer layer layers data "
    "benchmark benchmarks show that our and in for with under without state-of-the-art "
    "two-stage fine-tuning large-scale it's prior work approach results "
    "empirically theoretically provably efficient distributed quantum spectral"
).split()

SNIPPETS = (
    r"$\mathcal{{O}}(n \log n)$", r"$\alpha = {a:.2f}$", r"${x:.1f}\times$",
    r"$\ell_1$", r"$\epsilon$-greedy", r"$\mathbb{{R}}^{{{d}}}$", r"$p < 0.0{d}$",
    r"$k \gg 1$", r"$\sqrt{{T}}$", r"\emph{{without}}", r"$O(n^{d})$",
    r"$\tilde{{\mathcal{{O}}}}(1/\sqrt{{n}})$", r"$F_1 = {a:.3f}$",
    r"$\lambda \in [0, 1]$", r"$\beta_2={a:.3f}$", r"\textsc{{Flux{d}}}",
    r"$\frac{{1}}{{\sqrt{{n}}}}$", r"$x_{{i,j}}^{{(t)}}$", r"Schr\"odinger",
    r"Erd\H{{o}}s--R\'enyi", r"``robust''", r"{x:.1f}\%", r"$\sum_{{i=1}}^{{n}} w_i$",
    r"$\|\theta\|_2 \leq {d}$", r"$10^{{-{d}}}$", r"$\Omega(\sqrt{{d/\epsilon}})$",
)


def make_abstract(rng: random.Random, target_chars: int = 1200, snippets: int = 5) -> str:
    words: list[str] = []
    length = 0
    while length < target_chars:
        word = rng.choice(WORDS)
        words.append(word)
        length += len(word) + 1
    for _ in range(snippets):
        snippet = rng.choice(SNIPPETS).format(a=rng.random(), x=rng.uniform(1.1, 40.0), d=rng.randint(2, 9))
        words.insert(rng.randrange(len(words)), snippet)
    text = " ".join(words)
    return text[0].upper() + text[1:] + "."


def make_plain(rng: random.Random, target_chars: int = 1200) -> str:
    return make_abstract(rng, target_chars, snippets=0)


def generated_abstracts(gen_feeds: Path) -> list[str]:
    """Abstracts from running the shared generator into a temporary directory."""
    with tempfile.TemporaryDirectory() as out:
        subprocess.run(
            [sys.executable, str(gen_feeds), out, "--feeds", "50", "--entries", "100",
             "--seed", "1", "--now", "2026-11-29", "--json"],
            check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        papers = json.loads((Path(out) / "papers.json").read_text(encoding="utf-8"))
    return [paper["summary"] for paper in papers]


def time_each(convert, texts: list[str], before_each=None) -> list[float]:
    """Microseconds for converting each text once."""
    timings: list[float] = []
    clock = time.perf_counter
    for text in texts:
        if before_each is not None:
            before_each()
        start = clock()
        convert(text)
        timings.append((clock() - start) * 1e6)
    return timings


def report(label: str, timings: list[float]) -> None:
    timings = sorted(timings)
    p95 = timings[min(len(timings) - 1, int(0.95 * len(timings)))]
    print(f"{label:<44} n={len(timings):>5}  median {statistics.median(timings):9.1f} µs"
          f"  p95 {p95:9.1f} µs")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--abstracts", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--pylatexenc-sample", type=int, default=100)
    parser.add_argument("--gen-feeds", type=Path, help="path to gen_feeds.py to take abstracts from")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    if args.gen_feeds:
        abstracts = generated_abstracts(args.gen_feeds)
        source = "from gen_feeds.py set A"
    else:
        abstracts = [make_abstract(rng) for _ in range(args.abstracts)]
        source = "procedural, 5 LaTeX snippets each"
    plain = [make_plain(rng) for _ in range(len(abstracts))]
    mean_chars = statistics.mean(len(a) for a in abstracts)
    print(f"{len(abstracts)} abstracts ({source}), mean {mean_chars:.0f} characters")

    latex_to_unicode(r"\unknownmacro")  # build the lazily loaded symbol table
    _MATH_CACHE.clear()
    report("latex_to_unicode, one pass", time_each(latex_to_unicode, abstracts))
    report("latex_to_unicode, math cache cleared", time_each(latex_to_unicode, abstracts, _MATH_CACHE.clear))
    report("latex_to_unicode, plain prose", time_each(latex_to_unicode, plain))

    from pylatexenc.latex2text import LatexNodes2Text

    converter = LatexNodes2Text()
    sample = abstracts[: args.pylatexenc_sample]
    report("pylatexenc LatexNodes2Text, same abstracts", time_each(converter.latex_to_text, sample))


if __name__ == "__main__":
    main()

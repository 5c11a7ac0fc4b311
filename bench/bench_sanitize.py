"""How fast are clean_block and clean_line on abstract-sized text?

Every abstract and title from a source passes through them before it is
stored, so they run 5,000-40,000 times per refresh. Prints the median and
95th-percentile microseconds per call for plain ASCII prose, prose with some
Unicode, and prose wrapped in simple HTML.

    python bench/bench_sanitize.py [--texts 5000] [--seed 7]
"""

from __future__ import annotations

import argparse
import random

from bench_latex import make_plain, report, time_each

from feedtui.text.sanitize import clean_block, clean_line

UNICODE_BITS = ("Erdős–Rényi", "“quoted”", "naïve", "≤ 5×", "Schrödinger", "façade", "—")


def with_unicode(rng: random.Random, text: str) -> str:
    words = text.split()
    for _ in range(6):
        words.insert(rng.randrange(len(words)), rng.choice(UNICODE_BITS))
    return " ".join(words)


def as_html(text: str) -> str:
    middle = len(text) // 2
    return f"<p>{text[:middle]}</p>\n<p>{text[middle:]} &amp; <i>more</i></p>"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--texts", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    ascii_texts = [make_plain(rng) for _ in range(args.texts)]
    unicode_texts = [with_unicode(rng, text) for text in ascii_texts]
    html_texts = [as_html(text) for text in ascii_texts]
    print(f"{args.texts} texts of about {len(ascii_texts[0])} characters")

    report("clean_block, ASCII prose", time_each(clean_block, ascii_texts))
    report("clean_block, prose with some Unicode", time_each(clean_block, unicode_texts))
    report("clean_block, prose in HTML", time_each(clean_block, html_texts))
    report("clean_line, ASCII prose", time_each(clean_line, ascii_texts))


if __name__ == "__main__":
    main()

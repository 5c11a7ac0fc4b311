"""How fast are clean_block and clean_line on abstract-sized text?

Every abstract and title from a source passes through them before it is
stored, so they run 5,000-40,000 times per refresh. Prints the median and
95th-percentile microseconds per call for plain ASCII prose, prose with some
Unicode, prose wrapped in simple HTML, and prose with emoji ZWJ sequences
and words spelled with joiners.

    python bench/bench_sanitize.py [--texts 5000] [--seed 7]
"""

from __future__ import annotations

import argparse
import random

from bench_latex import make_plain, report, time_each

from feedtui.text.sanitize import clean_block, clean_line

UNICODE_BITS = ("Erdős–Rényi", "“quoted”", "naïve", "≤ 5×", "Schrödinger", "façade", "—")
# Emoji ZWJ sequences, a Persian word with ZWNJ, a Devanagari half form:
# the text that takes the slower path through the joiner check.
JOINER_BITS = ("\U0001f469\u200d\U0001f52c", "\u2764\ufe0f\u200d\U0001f525",
               "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645", "\u0915\u094d\u200d\u0937")


def with_unicode(rng: random.Random, text: str, bits: tuple[str, ...] = UNICODE_BITS) -> str:
    words = text.split()
    for _ in range(6):
        words.insert(rng.randrange(len(words)), rng.choice(bits))
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
    joiner_texts = [with_unicode(rng, text, JOINER_BITS) for text in ascii_texts]
    print(f"{args.texts} texts of about {len(ascii_texts[0])} characters")

    report("clean_block, ASCII prose", time_each(clean_block, ascii_texts))
    report("clean_block, prose with some Unicode", time_each(clean_block, unicode_texts))
    report("clean_block, prose in HTML", time_each(clean_block, html_texts))
    report("clean_block, prose with ZWJ/ZWNJ", time_each(clean_block, joiner_texts))
    report("clean_line, ASCII prose", time_each(clean_line, ascii_texts))


if __name__ == "__main__":
    main()

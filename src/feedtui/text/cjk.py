"""Scripts written without spaces between words: Han, kana and Hangul.

A regex word (`[^\\W_]+`) runs across a whole Chinese or Japanese clause, so
word-based search cannot find a word inside it. Search instead cuts these
runs into overlapping character bigrams (the usual approach when there is
no dictionary to segment with): `注意力` is `注意` and `意力`, found in
`稀疏注意力机制` because that has both. Hangul is included: Korean puts spaces
between phrases, but particles and endings are written onto the word.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

# Hangul Jamo; CJK radicals; 々 and 〇; Hiragana and Katakana (with ー);
# Hangul compatibility jamo; Katakana extensions; CJK Extension A; CJK
# unified ideographs; Hangul Jamo Extended-A; Hangul syllables and Jamo
# Extended-B; compatibility ideographs; halfwidth Katakana and Hangul; Kana
# supplements; CJK Extensions B and later.
CJK_RANGES = (
    "\u1100-\u11ff\u2e80-\u2fdf\u3005\u3007\u3040-\u30ff\u3130-\u318f\u31f0-\u31ff"
    "\u3400-\u4dbf\u4e00-\u9fff\ua960-\ua97f\uac00-\ud7ff\uf900-\ufaff\uff66-\uffdc"
    "\U0001b000-\U0001b16f\U00020000-\U0003ffff"
)


@cache
def cjk_run() -> re.Pattern[str]:
    """A run of those characters. Compiled when first needed, not at import
    (its class of ranges is slow to compile, and search is imported on the
    way to the reader's first paint)."""
    return re.compile(f"[{CJK_RANGES}]+")


# A word character that is not one of the above (letters, digits, `_`).
NON_CJK_WORD_CHAR = f"[^\\W{CJK_RANGES}]"


def normalize_run(run: str) -> str:
    """NFKC, not the NFKD that folds Latin accents: NFKD would split Hangul
    syllables into jamo and strip the voicing marks off kana (が → か);
    NFKC only unifies halfwidth kana and compatibility ideographs."""
    return unicodedata.normalize("NFKC", run)


def bigrams(run: str) -> list[str]:
    """`abc` → `ab`, `bc`; a single character stands for itself."""
    if len(run) < 2:
        return [run] if run else []
    return [run[i : i + 2] for i in range(len(run) - 1)]

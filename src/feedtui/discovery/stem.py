"""Word stems for Ask: the English Snowball stemmer of PyStemmer, so that
`scheduling` finds `scheduler` and `offloading` finds `offload`.

The stemmer is made on first use, not at import: the reader imports the
search module before its first paint, and Ask may never be used.
"""

from __future__ import annotations

from collections.abc import Callable

_stem_word: Callable[[str], str] | None = None


def stem(word: str) -> str:
    """The stem of a lower-case word (`scheduling` → `schedul`)."""
    global _stem_word
    if _stem_word is None:
        import Stemmer

        _stem_word = Stemmer.Stemmer("english").stemWord
    return _stem_word(word)

"""Words as the topic queries see them: one normalisation for papers and queries.

Both sides of a match go through the same steps, so whatever a query word
becomes, the same word in a paper becomes the same thing:

1. `tokens` / `normalised_text` — case-folded, accents removed (NFKD,
   combining marks dropped, so `Grünwald` is `grunwald`), split into runs of
   letters and digits. Every other character (punctuation, hyphens, `_`, math
   symbols) separates words.
2. `fold_plural` — a small, predictable plural-to-singular rule. A query
   word is folded and `plural_forms` lists every word that folds to the same,
   so the paper side never folds anything: it looks for any of those forms.

Speed matters more than elegance here: the engine reads every cached paper
when it retags, so the text is normalised with C-level passes only — one
`bytes.translate` for ASCII, then one `str.replace` per distinct non-ASCII
character (each worked out once and remembered).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

# The word `joined_parts` puts between parts (authors, fields) so that a
# phrase can never match across two of them. It is not a letter or digit, so
# no query word or phrase can contain it.
PART_BREAK = "|"
_PART_BREAK_CHAR = "\x1f"

# ASCII bytes: letters lower-cased, digits kept, everything else a space;
# bytes >= 0x80 (UTF-8 sequences) kept as they are.
_ASCII_TABLE = bytearray(range(256))
for _byte in range(128):
    _char = chr(_byte)
    if _char.isascii() and _char.isalnum():
        _ASCII_TABLE[_byte] = ord(_char.lower())
    else:
        _ASCII_TABLE[_byte] = ord(" ")
_ASCII_TABLE[ord(_PART_BREAK_CHAR)] = ord(PART_BREAK)
_TRANSLATE = bytes(_ASCII_TABLE)
del _ASCII_TABLE, _byte, _char

_ASCII_BYTES = bytes(range(128))
_COMBINING = re.compile(r"[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]+")


class _NonAsciiMap(dict[str, str]):
    """What each non-ASCII character becomes, worked out once per character:
    case-folded, NFKD-decomposed (`ﬁ` -> `fi`, `²` -> `2`), combining marks
    dropped (`ü` -> `u`), and anything that is not a letter or digit a space."""

    def __missing__(self, char: str) -> str:
        decomposed = unicodedata.normalize("NFKD", char.casefold()).casefold()
        mapped = "".join(ch if ch.isalnum() else " " for ch in _COMBINING.sub("", decomposed))
        self[char] = mapped
        return mapped


_NON_ASCII = _NonAsciiMap()


def normalised_text(text: str) -> str:
    """The words of `text`, space-padded, for substring search: `" w1 w2 "`.

    Punctuation becomes spaces, so words may be separated by runs of spaces (a
    word search is `" word " in text`; phrase searches allow any run)."""
    data = text.encode("utf-8", "surrogatepass")
    normal = data.translate(_TRANSLATE).decode("utf-8", "surrogatepass")
    if not text.isascii():
        # The few distinct non-ASCII characters, found by deleting every ASCII
        # byte, each replaced throughout in one C-level pass.
        for char in set(data.translate(None, _ASCII_BYTES).decode("utf-8", "surrogatepass")):
            mapped = _NON_ASCII[char]
            if mapped != char:
                normal = normal.replace(char, mapped)
    return " " + normal + " "


def tokens(text: str) -> list[str]:
    """The normalised words of `text`, in order."""
    return normalised_text(text).split()


def joined_parts(parts: Iterable[str]) -> str:
    """Several texts as one, marked so that tokenising puts `PART_BREAK` between them."""
    separator = f" {_PART_BREAK_CHAR} "
    return separator.join(part.replace(_PART_BREAK_CHAR, " ") for part in parts)


def fold_plural(word: str) -> str:
    """The singular a plural folds to; any other word unchanged.

    The rule, on a normalised word, first match wins:
      - shorter than 4 characters: unchanged (`gas`, `bus`, `its`);
      - `-ies` (5+ characters): `-y` (`policies` -> `policy`);
      - `-sses`, `-shes`, `-ches`, `-xes`: drop `es` (`classes` -> `class`,
        `batches` -> `batch`, `boxes` -> `box`);
      - `-che`: drop `e`, so `cache` and `caches` both become `cach`;
      - `-ss`, `-is`, `-us` with 5+ characters, and `news`: unchanged
        (`loss`, `analysis`, `corpus`, `news`);
      - any other `-s`: drop it (`networks`, `gpus`, `accelerators`, `sizes`).
    Irregular plurals (`matrices`, `indices`, `data`) are not folded. The rule
    is idempotent: folding a folded word changes nothing.
    """
    if len(word) < 4 or word[-1] not in "se":
        return word
    if word.endswith("ies") and len(word) >= 5:
        return word[:-3] + "y"
    if word.endswith(("sses", "shes", "ches", "xes")):
        return word[:-2]
    if word.endswith("che"):
        return word[:-1]
    if word.endswith(("ss", "is")) or (word.endswith("us") and len(word) >= 5) or word == "news":
        return word
    if word.endswith("s"):
        return word[:-1]
    return word


def plural_forms(folded: str) -> tuple[str, ...]:
    """Every word that `fold_plural` turns into `folded` (itself a folded
    word), e.g. `network` -> (`network`, `networks`), `cach` -> (`cach`,
    `cachs`, `caches`, `cache`): searching a text for these finds exactly the
    words a folded word set would match."""
    candidates = [folded, folded + "s", folded + "es", folded + "e"]
    if folded.endswith("y"):
        candidates.append(folded[:-1] + "ies")
    return tuple(dict.fromkeys(c for c in candidates if fold_plural(c) == folded))

"""Authors' names as discovery compares them: case, accents and spacing aside."""

from __future__ import annotations

import unicodedata


def author_key(name: str) -> str:
    """`Zoë  Ng` and `zoe ng` are one author; `Ng, Z.` is another spelling, not matched."""
    if name.isascii():  # most names: nothing to fold but case
        return " ".join(name.lower().replace(".", " ").split())
    folded = unicodedata.normalize("NFKD", name.casefold())
    folded = "".join(ch for ch in folded if not unicodedata.combining(ch))
    return " ".join(folded.replace(".", " ").split())


def author_query(name: str) -> str:
    """The topic query that follows an author: the name's words consecutively in one author's name."""
    words = " ".join(name.replace('"', " ").replace("\\", " ").split())
    return f'au:"{words}"'

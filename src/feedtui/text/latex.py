"""LaTeX in titles and abstracts rendered as readable Unicode."""

from __future__ import annotations


def latex_to_unicode(text: str) -> str:
    """Placeholder until the converter lands: returns the text unchanged."""
    return text

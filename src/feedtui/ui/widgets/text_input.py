"""A one-line text box whose typed keys the footer does not offer as bindings."""

from __future__ import annotations

from textual.keys import REPLACED_KEYS, key_to_character
from textual.widgets import Input


class TextInput(Input):
    """Textual hides, while an Input has focus, the bindings of keys that type
    a character there, but finds no character for the keys it renamed from
    their Unicode names (slash is SOLIDUS; minus, plus, backslash, at,
    underscore alike): the footer offered "/ Ask" in the sidebar filter and
    the Ask box, where / types a slash."""

    def check_consume_key(self, key: str, character: str | None) -> bool:
        if character is None and key in REPLACED_KEYS:
            character = key_to_character(REPLACED_KEYS[key])
        return super().check_consume_key(key, character)

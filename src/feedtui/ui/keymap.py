"""Keys as the user sees them: a binding under the config's [keymap], a key
written the way the footer shows it, the key named in a sentence of help.

Also the App's own bindings. They are here rather than on the App class so
that the list of every binding (`ui.bindings`) can be read without importing
the App, which in turn reads that list: the App takes them from here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from textual.binding import Binding
from textual.keys import format_key

# The keys that work on every screen but the dialogs (`FeedtuiApp.BINDINGS`).
APP_BINDINGS: list[Binding] = [
    Binding("q", "quit", "Quit", id="app.quit"),
    Binding("question_mark", "help", "Help", id="app.help"),
    Binding("ctrl+z", "undo", "Undo", show=False, id="app.undo"),
]


def mapped(binding: Binding, keymap: Mapping[str, str]) -> Binding:
    """The binding with the keys the keymap gives it."""
    keys = keymap.get(binding.id or "")
    return binding.with_key(keys, None) if keys else binding


def key_hint(binding_id: str, keymap: Mapping[str, str], bindings: Iterable[Binding | tuple]) -> str:
    """The first key of a binding (found among `bindings`), after the keymap,
    for hints written in sentences: "f follows it", "ctrl+z to undo" (spelled
    out, not `^z`)."""
    keys = keymap.get(binding_id) or next(
        b.key for b in bindings if isinstance(b, Binding) and b.id == binding_id
    )
    first = keys.split(",")[0].strip()
    return first if "+" in first else key_label(first)


def key_label(key: str) -> str:
    """One key as the footer shows it: `ctrl+f` → `^f`, `question_mark` → `?`."""
    *modifiers, name = key.strip().split("+")
    name = format_key(name)
    if "ctrl" in modifiers:
        modifiers.remove("ctrl")
        name = f"^{name}"
    return "+".join([*modifiers, name])


def key_labels(keys: str) -> list[str]:
    """Every key of a binding (`j,down` → [`j`, `↓`])."""
    return [key_label(key) for key in keys.split(",") if key.strip()]

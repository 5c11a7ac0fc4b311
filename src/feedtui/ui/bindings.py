"""The one list of where feedtui defines keys, read by the help (`?`), the
config check of [keymap], the command palette's key hints and the README's
key table.

It imports every screen that has keys, and nothing imports it but the App
(when it checks the config or opens the help), the CLI's config check and
the tools: the screens themselves never need it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from textual.binding import Binding

from feedtui.ui.keymap import APP_BINDINGS
from feedtui.ui.screens.detail import DetailScreen
from feedtui.ui.screens.help import HelpScreen
from feedtui.ui.screens.main import MainScreen
from feedtui.ui.screens.main_parts.discovery_keys import DiscoveryKeys
from feedtui.ui.screens.pick_topic import PickTopicScreen
from feedtui.ui.screens.topic_form import ConfirmScreen, TopicFormScreen
from feedtui.ui.screens.welcome import WelcomeScreen
from feedtui.ui.widgets.paper_list import PaperList
from feedtui.ui.widgets.topic_list import TopicList


def binding_sources() -> dict[str, list[Binding]]:
    """Each place that defines feedtui's keys, by a short name, with its bindings."""
    places: dict[str, list] = {
        "app": APP_BINDINGS,
        "main": MainScreen.BINDINGS,
        "discover": DiscoveryKeys.BINDINGS,
        "topic_list": TopicList.BINDINGS,
        "paper_list": PaperList.BINDINGS,
        "detail": DetailScreen.BINDINGS,
        "help": HelpScreen.BINDINGS,
        "welcome": WelcomeScreen.BINDINGS,
        "pick": PickTopicScreen.BINDINGS,
        "topic_form": TopicFormScreen.BINDINGS,
        "confirm": ConfirmScreen.BINDINGS,
    }
    return {name: [b for b in bindings if isinstance(b, Binding)] for name, bindings in places.items()}


def all_bindings() -> list[Binding]:
    """Every binding with an id, once each, in the order the classes list them.
    Bindings sharing an id (one key whose action follows the state: f is
    Follow or Unfollow) are one, described as both ("Follow / Unfollow")."""
    seen: dict[str, Binding] = {}
    for bindings in binding_sources().values():
        for binding in bindings:
            if not binding.id:
                continue
            first = seen.setdefault(binding.id, binding)
            if first is not binding and binding.description not in first.description.split(" / "):
                seen[binding.id] = replace(first, description=f"{first.description} / {binding.description}")
    return list(seen.values())


def keymap_scopes(commands: Sequence[Binding] = ()) -> dict[str, list[tuple[str, str]]]:
    """The sets of bindings active at the same time, as (id, default keys),
    the App's first and the focused widget's last, the reverse of the order
    in which Textual looks for a key's binding: a key given twice inside one
    of them hides one of the two bindings. The
    App's bindings do not run on a dialog (a modal screen; the welcome binds
    help and quit again itself), so they are not counted there. The user's
    `commands` ([commands], ui/user_commands.py) are the App's: they work
    wherever its keys do, and have no key but the one [keymap] gives them."""
    sources = binding_sources()
    sources["app"] = [*sources["app"], *commands]
    together = {
        "the topic sidebar": ("app", "main", "discover", "topic_list"),
        "the paper list": ("app", "main", "discover", "paper_list"),
        "the detail view": ("app", "detail"),
        "the help": ("help",),
        "the welcome screen": ("welcome",),
        "the topic chooser": ("pick",),
        "the topic form": ("topic_form",),
        "a question": ("confirm",),
    }
    return {
        place: list(dict.fromkeys((b.id, b.key) for name in names for b in sources[name] if b.id))
        for place, names in together.items()
    }

"""The checks of the config file that need the reader: the theme's name,
and in [keymap] the binding ids, the key names, and keys that clash.

The config package reads the file without Textual (the command-line tools
never pay for importing it); the reader runs these checks when it starts,
and `feedtui config --check` runs them too. Key names are read the way
Textual reads a binding's keys, through its public API (`Binding.make_bindings`,
`textual.keys`), so that a key accepted here is one Textual can bind.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Collection, Mapping, Sequence
from functools import cache
from pathlib import Path

from textual.binding import Binding, InvalidBinding
from textual.keys import ASCII_KEY_NAMES, KEY_ALIASES, Keys

from feedtui.config import Config, ConfigProblem, check_command
from feedtui.config.wording import did_you_mean, show_value
from feedtui.settings import Settings

MODIFIERS = ("ctrl", "shift", "alt", "meta", "super", "hyper")
# Keys most terminals send as the same byte as another key (ctrl+m is \r, as
# enter is): Textual gets the other key, and a binding on these never fires.
SENT_AS = {
    "ctrl+m": "enter",
    "ctrl+i": "tab",
    "ctrl+[": "escape",
    "ctrl+left_square_bracket": "escape",
    "ctrl+h": "backspace",
}


def check_ui_settings(
    config: Config,
    *,
    themes: Collection[str],
    scopes: Mapping[str, Sequence[tuple[str, str]]],
    list_ids: bool = True,
) -> list[ConfigProblem]:
    """The checks that need the UI: the theme name, and [keymap]'s ids, key
    names and clashes. `scopes` holds, per place bindings live (the main
    screen, the paper list…), each binding's (id, default keys). What is
    wrong is reported and left at its default; the problems are also added to
    `config.problems`. `list_ids`: an unknown binding id's message lists every
    id (config --check); else it names the command that does (the reader's
    notification would fill the screen)."""
    path = config.path or Path("config.toml")
    settings = config.settings
    problems: list[ConfigProblem] = []
    if settings.theme not in themes:
        problems.append(
            ConfigProblem(
                path, config.lines.get("general.theme"),
                f"general.theme = {show_value(settings.theme)}: expected one of {', '.join(sorted(themes))}; using {Settings().theme}",
            )
        )
        settings.theme = Settings().theme
    defaults = {binding_id: default for bindings in scopes.values() for binding_id, default in bindings}
    known = set(defaults)
    for binding_id, keys in list(settings.keymap.items()):
        line = config.lines.get(f"keymap.{binding_id}")
        if binding_id not in known:
            ids = f"ids: {', '.join(sorted(known))}" if list_ids else f"{check_command(config.path)} lists every id"
            problems.append(
                ConfigProblem(path, line, f"unknown binding id '{binding_id}'{did_you_mean(binding_id, known)}; {ids}")
            )
            del settings.keymap[binding_id]
            continue
        bad = next((p for p in (_key_name_problem(k) for k in keys.split(",")) if p), "")
        if bad:
            problems.append(ConfigProblem(path, line, f"keymap.{binding_id} = {show_value(keys)}: {bad}; keeping its default keys"))
            del settings.keymap[binding_id]
            continue
        keys = settings.keymap[binding_id] = ",".join(_as_sent(k) for k in keys.split(","))
        taken = next(((k, what) for k in keys.split(",") if (what := _taken_by_textual(binding_id, k))), None)
        if taken:
            key, what = taken
            problems.append(
                ConfigProblem(
                    path, line,
                    f"keymap.{binding_id}: '{key}' {what}, so {_keeps_default(binding_id, defaults[binding_id])}; "
                    f"give {binding_id} another key",
                )
            )
            del settings.keymap[binding_id]
    problems.extend(_clashes(config, scopes))
    problems.extend(_fall_throughs(config, scopes))
    config.problems.extend(problems)
    return problems


def key_name(character: str) -> str:
    """The name Textual gives the key that types `character`: `?` is
    question_mark, `x` is x. Read from Textual's own parsing of a binding's
    keys, so the two never disagree."""
    try:
        (binding,) = Binding.make_bindings([Binding(character, "")])
    except InvalidBinding:
        # A comma parts a binding's keys, and spaces around a key are
        # trimmed: these are named as other punctuation is, by their
        # Unicode name (comma, space), or as Textual names a control
        # character that has none (tab).
        name = unicodedata.name(character, "")
        return name.lower().replace(" ", "_").replace("-", "_") if name else ASCII_KEY_NAMES.get(character, character)
    return binding.key


def _key_name_problem(key: str) -> str:
    *modifiers, name = key.split("+")
    wrong = [m for m in modifiers if m not in MODIFIERS]
    if wrong:
        return f"'{wrong[0]}' is not a modifier (modifiers: {', '.join(MODIFIERS)})"
    if sent_as := SENT_AS.get(key) or SENT_AS.get(key.lower()):  # ctrl+M is ctrl+m to a terminal
        return f"most terminals send {key} as {sent_as}, so a binding on {key} never fires; use {sent_as} or another key"
    if modifiers == ["shift"] and len(name) == 1 and not name.isalpha():
        return f"a terminal sends shift+{name} as the character it types (! for shift+1, on most keyboards): write that character"
    if name in _key_names() or (len(name) == 1 and name.isprintable()):
        return ""  # any character a key types (é on a French keyboard): Textual names it
    if len(name) == 1:
        return f"U+{ord(name):04X} is an invisible character, not one a key types"
    return (
        f"'{name}' is not a key name (a single character like x, X, é or ?, or one of "
        "escape, enter, tab, space, backspace, delete, insert, up, down, left, right, "
        "home, end, pageup, pagedown, f1…f24, question_mark, slash)"
    )


@cache
def _key_names() -> frozenset[str]:
    names = {k.value.split("+")[-1] for k in Keys if not k.value.startswith("<")}
    names |= set(KEY_ALIASES)
    for code in range(33, 127):
        character = chr(code)
        names.add(character)
        names.add(key_name(character))
    return frozenset(names)


def _as_sent(key: str) -> str:
    """A key as Textual names what the terminal sends for it: shift+s is S
    (the terminal sends the capital; a binding on shift+s never fires), and a
    character after a modifier has its key name (alt+? is alt+question_mark).
    A key alone is left as written: Textual names it itself."""
    *modifiers, name = key.strip().split("+")
    if modifiers == ["shift"] and len(name) == 1 and name.isalpha() and len(name.upper()) == 1:
        return name.upper()  # (ß has no one-letter capital: left as written)
    if modifiers and len(name) == 1:
        name = key_name(name)
    return "+".join([*modifiers, name])


def _taken_by_textual(binding_id: str, key: str) -> str:
    """What Textual's own binding of `key` does, on every screen and before
    feedtui's bindings, so that a remap onto it takes it away or never fires;
    "" for a key Textual leaves to feedtui (ctrl+c: a remap onto it works, in
    place of copying text selected with the mouse and the "press ctrl+q to
    quit" hint), or for quit on ctrl+q, which Textual's binding does the same
    way (it runs the app's quit)."""
    if key == "ctrl+p":
        return "is Textual's key for the command palette, on every screen"
    if key == "ctrl+q" and binding_id != "app.quit":
        return "is Textual's key for quitting, on every screen, which comes before feedtui's keys"
    return ""


def _keeps_default(binding_id: str, default: str) -> str:
    if not default:  # a user command: keys come from [keymap] only
        return f"{binding_id} has no key"
    return f"{binding_id} keeps its default key{'s' if ',' in default else ''} '{default}'"


def _clashes(config: Config, scopes: Mapping[str, Sequence[tuple[str, str]]]) -> list[ConfigProblem]:
    """A remap giving a key that another binding of the same place has:
    Textual would give the key to the remapped binding and leave the other
    one with none. The remap is refused instead (that binding keeps its
    default keys), unless the other binding is remapped away from the key as
    well: a swap. Of two remaps onto one key, the first in the file has it."""
    path = config.path or Path("config.toml")
    keymap = config.settings.keymap
    defaults = {binding_id: default for bindings in scopes.values() for binding_id, default in bindings}
    problems: list[ConfigProblem] = []
    # A refused remap puts its binding back on its default keys, which a
    # later remap may have taken: look again until nothing clashes.
    while clash := _first_clash(keymap, scopes):
        binding_id, key, others = clash
        del keymap[binding_id]
        problems.append(
            ConfigProblem(
                path, config.lines.get(f"keymap.{binding_id}"),
                f"keymap.{binding_id}: '{key}' is also the key of {', '.join(others)} on the same screen, "
                f"so {_keeps_default(binding_id, defaults[binding_id])}; "
                f"to give it '{key}', give {others[0]} another key in [keymap] too",
            )
        )
    return problems


def _fall_throughs(config: Config, scopes: Mapping[str, Sequence[tuple[str, str]]]) -> list[ConfigProblem]:
    """A remap replaces every default key of its binding (Textual's rule):
    a default key it drops that a binding underneath it in the same place
    has by default as well then does that other thing. detail.back = "x"
    leaves q in the detail view to app.quit, and the next habitual q quits.
    Said, not refused: it may be meant (remapping the other binding onto the
    key too says so, and is not reported). Each place lists its bindings
    the App's first and the focused widget's last; Textual gives a key to
    the last binding that has it."""
    path = config.path or Path("config.toml")
    keymap = config.settings.keymap
    problems: list[ConfigProblem] = []
    for binding_id, keys in keymap.items():
        for place, bindings in scopes.items():
            ids = [b for b, _ in bindings]
            if binding_id not in ids:
                continue
            default = bindings[ids.index(binding_id)][1]
            dropped = [k.strip() for k in default.split(",") if k.strip() and not _holds(keys, k)]
            for key in dropped:
                holders = [b for b, b_keys in bindings if _holds(b_keys, key)]
                if holders[-1] != binding_id:
                    continue  # the key did another binding here already
                underneath = [b for b in holders[: holders.index(binding_id)] if b not in keymap]
                if not underneath:
                    continue
                other = underneath[-1]
                problems.append(
                    ConfigProblem(
                        path, config.lines.get(f"keymap.{binding_id}"),
                        f"keymap.{binding_id}: in {place}, '{key}' now does {other} instead of {binding_id} "
                        f"(an entry replaces every default key of its binding); to keep it, write "
                        f"{binding_id} = {show_value(','.join([keys, *dropped]))}",
                    )
                )
    return problems


def _first_clash(
    keymap: Mapping[str, str], scopes: Mapping[str, Sequence[tuple[str, str]]]
) -> tuple[str, str, list[str]] | None:
    """The first remap, in the file's order, with a key that another binding
    of a place it is active in has by default or by a remap written before
    it: (its id, that key, the other ids). Bindings active in several places
    (the main screen's, say) clash in each: said once. A key both have by
    default is shared as shipped (q: Back in the detail view, where it is
    also Quit's), not a clash: a remap may keep it."""
    order = {binding_id: number for number, binding_id in enumerate(keymap)}
    for binding_id, keys in keymap.items():
        for key in (k.strip() for k in keys.split(",")):
            others: dict[str, None] = {}
            for bindings in scopes.values():
                defaults = dict(bindings)
                if binding_id not in defaults:
                    continue
                for other, default in bindings:
                    if other == binding_id or order.get(other, -1) > order[binding_id]:
                        continue
                    if _holds(defaults[binding_id], key) and _holds(default, key):
                        continue
                    if _holds(keymap.get(other, default), key):
                        others[other] = None
            if others:
                return binding_id, key, list(others)
    return None


def _holds(keys: str, key: str) -> bool:
    """Whether `keys` (comma-separated) has `key`, however either is spelled."""
    return _normal_key(key) in {_normal_key(k) for k in keys.split(",")}


def _normal_key(key: str) -> str:
    key = key.strip()
    return key_name(key) if len(key) == 1 else key

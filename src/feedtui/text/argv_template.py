"""A user command's argument list with placeholders: `["papis", "add",
"{bibtex_file}"]`, read when the config is, filled in when the command runs.

Each item stays one argument: a value goes into the item that names it and
nowhere else, and no shell ever reads the result, so a title, a URL or a
DOI can never split into several arguments or run anything. `{{` and `}}`
stand for a brace. Only the names in `PLACEHOLDERS` exist; the program (the
first item) may not be one, so a paper never chooses what runs.

A value that starts with `-` is never put at the start of an argument (a
program would read it as an option): the fields are checked so that none
does (see core/command_fields.py), and `expand` refuses one all the same.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

PLACEHOLDERS = ("id", "url", "pdf_url", "doi", "bibtex_file")


class MissingField(ValueError):
    """The paper has no value for a placeholder the command uses (no DOI)."""

    def __init__(self, name: str) -> None:
        self.name = name
        super().__init__(name)


class OptionLike(ValueError):
    """A value would begin an argument with `-`."""

    def __init__(self, name: str, value: str) -> None:
        self.name = name
        self.value = value
        super().__init__(name)


def split_item(item: str) -> list[tuple[str, str]]:
    """The item as parts: ("text", literal) and ("field", name). ValueError
    names what is wrong: a lone brace, an empty or unknown name."""
    parts: list[tuple[str, str]] = []
    text: list[str] = []
    i = 0
    while i < len(item):
        ch = item[i]
        if ch in "{}" and item[i : i + 2] == ch * 2:
            text.append(ch)
            i += 2
            continue
        if ch == "}":
            raise ValueError(f"a lone '}}' at character {i + 1} (write '}}}}' for a brace)")
        if ch == "{":
            end = item.find("}", i)
            if end < 0:
                raise ValueError(f"a '{{' at character {i + 1} is never closed (write '{{{{' for a brace)")
            name = item[i + 1 : end]
            if name not in PLACEHOLDERS:
                known = ", ".join("{" + p + "}" for p in PLACEHOLDERS)
                raise ValueError(f"unknown placeholder {{{name}}} (placeholders: {known})")
            if text:
                parts.append(("text", "".join(text)))
                text = []
            parts.append(("field", name))
            i = end + 1
            continue
        text.append(ch)
        i += 1
    if text:
        parts.append(("text", "".join(text)))
    return parts


def template_problem(argv: Sequence[str]) -> str:
    """What is wrong with an argument list ("" when nothing)."""
    if not argv:
        return "an empty list: it needs at least the program to run"
    for number, item in enumerate(argv, start=1):
        try:
            parts = split_item(item)
        except ValueError as error:
            return f"item {number}: {error}"
        if number == 1 and any(kind == "field" for kind, _ in parts):
            return "the program (the first item) cannot be a placeholder"
    if not argv[0].strip():
        return "the program (the first item) is empty"
    return ""


def fields_used(argv: Sequence[str]) -> list[str]:
    """The placeholders the list uses, each once, in order (the list is one
    `template_problem` passed)."""
    used: dict[str, None] = {}
    for item in argv:
        for kind, value in split_item(item):
            if kind == "field":
                used.setdefault(value)
    return list(used)


def expand(argv: Sequence[str], values: Mapping[str, str]) -> list[str]:
    """The argument list with the values in; MissingField for a placeholder
    without a value (or an empty one), OptionLike for a value that would
    begin an argument with `-`."""
    out: list[str] = []
    for item in argv:
        pieces: list[str] = []
        for kind, value in split_item(item):
            if kind == "text":
                pieces.append(value)
                continue
            filled = values.get(value, "")
            if not filled:
                raise MissingField(value)
            if not pieces and filled.startswith("-"):
                raise OptionLike(value, filled)
            pieces.append(filled)
        out.append("".join(pieces))
    return out

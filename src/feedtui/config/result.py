"""What reading the config gives: the settings, the topics, and every
problem found, each with its file and line.

Plain slotted classes, not dataclasses: the config is read on the way to
the reader's first paint (see slot_record.py)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from feedtui.model import Topic
from feedtui.settings import Settings
from feedtui.slot_record import SlotRecord


class ConfigProblem(SlotRecord):
    __slots__ = ("file", "line", "message")

    def __init__(self, file: Path | str, line: int | None, message: str) -> None:
        self.file = file
        self.line = line
        self.message = message

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else str(self.file)
        return f"{where}: {self.message}"


class Config(SlotRecord):
    __slots__ = ("settings", "topics", "path", "problems", "lines", "left_out", "nameless_left_out", "topics_known")

    def __init__(
        self,
        settings: Settings | None = None,
        topics: list[Topic] | None = None,
        path: Path | None = None,
        problems: list[ConfigProblem] | None = None,
        # Where each key was set ("general.theme", "keymap.paper.star"): the line
        # for problems found later, when the app checks the theme and the keymap.
        lines: dict[str, int | None] | None = None,
        # The names of [[topic]] tables left out for an error, each with its
        # problem: such a name never stands for another topic it begins.
        left_out: dict[str, ConfigProblem] | None = None,
        # [[topic]] tables left out that give no name (`nam = "…"`): any topic's
        # table may be among them.
        nameless_left_out: int = 0,
        # The file was read as TOML, or there is none where no one named one: its
        # [[topic]] tables are all there are (a file named but missing, or not
        # TOML for now, may have others).
        topics_known: bool = False,
    ) -> None:
        self.settings = Settings() if settings is None else settings
        self.topics = [] if topics is None else topics
        self.path = path
        self.problems = [] if problems is None else problems
        self.lines = {} if lines is None else lines
        self.left_out = {} if left_out is None else left_out
        self.nameless_left_out = nameless_left_out
        self.topics_known = topics_known


def in_file_order(problems: Iterable[ConfigProblem]) -> list[ConfigProblem]:
    return sorted(problems, key=lambda p: (str(p.file), p.line or 0))

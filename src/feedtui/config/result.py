"""What reading the config gives: the settings, the topics, and every
problem found, each with its file and line."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from feedtui.model import Topic
from feedtui.settings import Settings


@dataclass(slots=True)
class ConfigProblem:
    file: Path | str
    line: int | None
    message: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else str(self.file)
        return f"{where}: {self.message}"


@dataclass(slots=True)
class Config:
    settings: Settings = field(default_factory=Settings)
    topics: list[Topic] = field(default_factory=list)
    path: Path | None = None
    problems: list[ConfigProblem] = field(default_factory=list)
    # Where each key was set ("general.theme", "keymap.paper.star"): the line
    # for problems found later, when the app checks the theme and the keymap.
    lines: dict[str, int | None] = field(default_factory=dict)
    # The names of [[topic]] tables left out for an error, each with its
    # problem: such a name never stands for another topic it begins.
    left_out: dict[str, ConfigProblem] = field(default_factory=dict)
    # [[topic]] tables left out that give no name (`nam = "…"`): any topic's
    # table may be among them.
    nameless_left_out: int = 0
    # The file was read as TOML, or there is none where no one named one: its
    # [[topic]] tables are all there are (a file named but missing, or not
    # TOML for now, may have others).
    topics_known: bool = False


def in_file_order(problems: Iterable[ConfigProblem]) -> list[ConfigProblem]:
    return sorted(problems, key=lambda p: (str(p.file), p.line or 0))

"""The TOML configuration file, the environment, and where feedtui keeps things.

Every key is declared once in `OPTIONS` with its type, default and meaning;
from that one table come the parser, the validation messages (file, line,
what was expected) and `feedtui config --default`. A bad value never stops
the app: it is reported and the default is used for that key.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import platformdirs

from feedtui.model import Topic, TopicDefinition
from feedtui.settings import Settings

APP_NAME = "feedtui"
ENV_DATA_DIR = "FEEDTUI_DATA_DIR"
ENV_CONFIG = "FEEDTUI_CONFIG"
ENV_API_URL = "FEEDTUI_ARXIV_API_URL"
ENV_RSS_URL = "FEEDTUI_ARXIV_RSS_URL"


@dataclass(frozen=True, slots=True)
class Option:
    section: str
    key: str
    kind: type
    doc: str
    check: Callable[[Any], str] | None = None  # returns a problem, or ""
    attribute: str = ""  # dotted path in Settings; defaults to section.key

    @property
    def path(self) -> str:
        return self.attribute or (self.key if self.section == "general" else f"{self.section}.{self.key}")


def _positive(value: Any) -> str:
    return "" if value > 0 else "a number above 0"


def _non_negative(value: Any) -> str:
    return "" if value >= 0 else "a number of 0 or more"


def _http_url(value: Any) -> str:
    return "" if re.match(r"^https?://[^\s/]+", value) else "an http:// or https:// URL"


def _one_of(*choices: str) -> Callable[[Any], str]:
    def check(value: Any) -> str:
        return "" if value in choices else "one of " + ", ".join(repr(c) for c in choices)

    return check


OPTIONS: tuple[Option, ...] = (
    Option("general", "window_weeks", int, "Weeks of papers fetched and kept.", _positive),
    Option("general", "refresh_age_hours", float, "Followed topics older than this are refreshed when the app starts.", _non_negative),
    Option("general", "auto_refresh", bool, "Refresh stale followed topics in the background on start."),
    Option("general", "open_marks_read", bool, "Opening a paper's detail marks it read."),
    Option("general", "cache_limit", int, "Most papers kept in the cache; the oldest unstarred are pruned first.", _positive),
    Option("general", "browser", str, "Command to open links ({url} is replaced); empty uses $BROWSER, then the system's."),
    Option("general", "theme", str, "Textual theme name (the command palette lists them)."),
    Option("general", "default_sort", str, "Sidebar order.", _one_of("followed", "name", "unread", "trending")),
    Option("general", "date_format", str, "strftime format of card dates."),
    Option("arxiv", "api_url", str, "arXiv API endpoint (env FEEDTUI_ARXIV_API_URL).", _http_url),
    Option("arxiv", "rss_url", str, "arXiv category feed base, categories are appended (env FEEDTUI_ARXIV_RSS_URL).", _http_url),
    Option("arxiv", "min_interval", float, "Seconds between requests to arXiv hosts (arXiv asks for 3).", _non_negative),
    Option("arxiv", "page_size", int, "Results per arXiv API page.", _positive),
    Option("arxiv", "max_results", int, "Most results fetched for one query per refresh.", _positive),
    Option("fetch", "timeout", float, "Seconds allowed for a whole request.", _positive),
    Option("fetch", "connect_timeout", float, "Seconds allowed to connect.", _positive),
    Option("fetch", "read_timeout", float, "Seconds allowed between two chunks of a response.", _positive),
    Option("fetch", "max_bytes", int, "Largest response accepted, in bytes, after decompression.", _positive),
    Option("fetch", "concurrency", int, "Requests in flight at once.", _positive),
    Option("fetch", "per_host", int, "Requests in flight at once to one host (arXiv hosts always get one).", _positive),
    Option("fetch", "retries", int, "Retries after 429, 503 and network errors.", _non_negative),
    Option("fetch", "max_redirects", int, "Redirects followed.", _non_negative),
)
SECTIONS = ("general", "arxiv", "fetch", "keymap", "topic")


@dataclass(slots=True)
class ConfigProblem:
    file: Path
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


def default_config_path() -> Path:
    return Path(platformdirs.user_config_dir(APP_NAME)) / "config.toml"


def config_path(explicit: str | os.PathLike | None = None) -> Path:
    if explicit:
        return Path(explicit).expanduser()
    if os.environ.get(ENV_CONFIG):
        return Path(os.environ[ENV_CONFIG]).expanduser()
    return default_config_path()


def data_dir(explicit: str | os.PathLike | None = None, *, demo: bool = False) -> Path:
    """--data-dir, else $FEEDTUI_DATA_DIR, else the platform's data directory.
    The demo lives in a `demo` folder inside it, apart from the user's own state."""
    if explicit:
        base = Path(explicit).expanduser()
    elif os.environ.get(ENV_DATA_DIR):
        base = Path(os.environ[ENV_DATA_DIR]).expanduser()
    else:
        base = Path(platformdirs.user_data_dir(APP_NAME))
    return base / "demo" if demo else base


def load_config(path: Path | None = None) -> Config:
    """Read the config file (a missing file is the defaults) and the environment."""
    path = path or config_path()
    config = Config(path=path)
    text = ""
    if path.exists():
        try:
            text = path.read_text(encoding="utf-8")
            data = tomllib.loads(text)
        except (OSError, UnicodeDecodeError) as error:
            config.problems.append(ConfigProblem(path, None, f"cannot read the file: {error}; using the defaults"))
            data = {}
        except tomllib.TOMLDecodeError as error:
            line = _toml_error_line(str(error))
            config.problems.append(ConfigProblem(path, line, f"not valid TOML ({error}); using the defaults"))
            data = {}
    else:
        data = {}
    _apply_options(config, data, text)
    _apply_environment(config.settings)
    return config


def _apply_options(config: Config, data: dict[str, Any], text: str) -> None:
    path = config.path or Path("config.toml")
    known = {(o.section, o.key): o for o in OPTIONS}
    for section, values in data.items():
        if section not in SECTIONS:
            config.problems.append(
                ConfigProblem(path, _line_of(text, f"[{section}"), f"unknown section [{section}] (sections: {', '.join(SECTIONS)})")
            )
            continue
        if section == "keymap":
            _apply_keymap(config, values, text)
            continue
        if section == "topic":
            _apply_topics(config, values, text)
            continue
        if not isinstance(values, dict):
            config.problems.append(ConfigProblem(path, _line_of(text, section), f"[{section}] must be a table"))
            continue
        for key, value in values.items():
            option = known.get((section, key))
            line = _line_of(text, key, section)
            if option is None:
                names = ", ".join(o.key for o in OPTIONS if o.section == section)
                config.problems.append(ConfigProblem(path, line, f"unknown key '{key}' in [{section}] (keys: {names})"))
                continue
            problem = _check(option, value)
            if problem:
                config.problems.append(
                    ConfigProblem(path, line, f"{section}.{key} = {value!r}: expected {problem}; using the default")
                )
                continue
            _set(config.settings, option.path, option.kind(value))


def _check(option: Option, value: Any) -> str:
    if option.kind is float and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if option.kind is bool and not isinstance(value, bool):
        return "true or false"
    if option.kind in (int, float) and (isinstance(value, bool) or not isinstance(value, (int, float))):
        return "a number"
    if option.kind is int and not isinstance(value, int):
        return "a whole number"
    if option.kind is str and not isinstance(value, str):
        return "a string in quotes"
    return option.check(value) if option.check else ""


def _apply_keymap(config: Config, values: Any, text: str) -> None:
    path = config.path or Path("config.toml")
    if not isinstance(values, dict):
        config.problems.append(ConfigProblem(path, _line_of(text, "[keymap"), "[keymap] must be a table of binding id = \"keys\""))
        return
    for binding_id, keys in values.items():
        if not isinstance(keys, str) or not keys.strip():
            config.problems.append(
                ConfigProblem(path, _line_of(text, binding_id, "keymap"), f"keymap.{binding_id}: expected keys like \"x\" or \"ctrl+x,x\"")
            )
            continue
        config.settings.keymap[str(binding_id)] = keys.strip()


def _apply_topics(config: Config, values: Any, text: str) -> None:
    path = config.path or Path("config.toml")
    if not isinstance(values, list):
        config.problems.append(ConfigProblem(path, _line_of(text, "topic"), "topics are written as [[topic]] tables"))
        return
    for number, entry in enumerate(values, start=1):
        line = _nth_line_of(text, "[[topic]]", number)
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str) or not entry["name"].strip():
            config.problems.append(ConfigProblem(path, line, f"topic #{number} needs a name = \"…\""))
            continue
        definition = TopicDefinition.from_dict(entry)
        if definition.is_empty:
            config.problems.append(
                ConfigProblem(path, line, f"topic '{entry['name']}' needs a query, categories or feeds")
            )
            continue
        config.topics.append(
            Topic(entry["name"].strip(), definition, str(entry.get("description", "")), origin="config")
        )


def _apply_environment(settings: Settings) -> None:
    if os.environ.get(ENV_API_URL):
        settings.arxiv.api_url = os.environ[ENV_API_URL]
    if os.environ.get(ENV_RSS_URL):
        settings.arxiv.rss_url = os.environ[ENV_RSS_URL]


def _set(settings: Settings, dotted: str, value: Any) -> None:
    target: Any = settings
    *parents, name = dotted.split(".")
    for parent in parents:
        target = getattr(target, parent)
    setattr(target, name, value)


def _get(settings: Settings, dotted: str) -> Any:
    target: Any = settings
    for part in dotted.split("."):
        target = getattr(target, part)
    return target


def _line_of(text: str, needle: str, section: str | None = None) -> int | None:
    """The line where `needle` is set (inside [section] when given)."""
    current = None
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        header = re.match(r"^\[+\s*([^\]]+?)\s*\]+", stripped)
        if header:
            current = header.group(1)
            if needle.startswith("[") and stripped.startswith(needle):
                return number
            continue
        if section is not None and current != section:
            continue
        if re.match(rf"^[\"']?{re.escape(needle)}[\"']?\s*=", stripped):
            return number
    return None


def _nth_line_of(text: str, needle: str, n: int) -> int | None:
    seen = 0
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip().startswith(needle):
            seen += 1
            if seen == n:
                return number
    return None


def _toml_error_line(message: str) -> int | None:
    match = re.search(r"line (\d+)", message)
    return int(match.group(1)) if match else None


def default_config_text() -> str:
    """A commented config file with every key at its default."""
    defaults = Settings()
    lines = [
        "# feedtui configuration. Every key is optional; shown here with its default.",
        f"# Location: {default_config_path()} (or --config FILE, or ${ENV_CONFIG}).",
        "",
    ]
    for section in ("general", "arxiv", "fetch"):
        lines.append(f"[{section}]")
        for option in (o for o in OPTIONS if o.section == section):
            lines.append(f"# {option.doc}")
            lines.append(f"# {option.key} = {_toml_value(_get(defaults, option.path))}")
        lines.append("")
    lines += [
        "[keymap]",
        "# Remap any binding by its id (`?` in the app lists them), e.g.:",
        '# "paper.toggle_read" = "x"',
        "",
        "# Your own topics (also: feedtui topic add). A query in arXiv API syntax,",
        "# arXiv categories, and/or feed URLs (narrowed by the query when both are given).",
        "# [[topic]]",
        '# name = "Sparse Attention"',
        '# description = "Attention that skips most of the sequence."',
        '# query = \'abs:"sparse attention" AND cat:cs.LG\'',
        "",
    ]
    return "\n".join(lines)


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return repr(value)

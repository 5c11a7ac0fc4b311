"""The TOML configuration file, the environment, and where feedtui keeps things.

Every key is declared once in `OPTIONS` with its type, default and meaning;
from that one table come the parser, the validation messages (file, line,
what was expected), `feedtui config --default` and the README's reference.
A bad value never stops the app: it is reported as `FILE:LINE: …` and the
default is used for that key.

Two checks need the running UI (Textual's theme names and the app's binding
ids); `check_ui_settings` does them when the app starts, so the command-line
tools never pay for importing Textual.
"""

from __future__ import annotations

import math
import os
import re
import shlex
import textwrap
import tomllib
import unicodedata
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import platformdirs

from feedtui.model import UTC, Topic, TopicDefinition
from feedtui.text.links import FeedUrlError, feed_url
from feedtui.text.sanitize import clean_line
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
    check: Callable[[Any], str] | None = None  # returns what was expected, or ""
    attribute: str = ""  # dotted path in Settings; defaults to section.key

    @property
    def path(self) -> str:
        return self.attribute or (self.key if self.section == "general" else f"{self.section}.{self.key}")

    @property
    def name(self) -> str:
        return f"{self.section}.{self.key}"


def _at_least(low: float, high: float | None = None) -> Callable[[Any], str]:
    def check(value: Any) -> str:
        if value >= low and (high is None or value <= high):
            return ""
        if high is None:
            return f"a number of {low:g} or more"
        return f"a number from {low:g} to {high:g}"

    return check


def _http_url(value: Any) -> str:
    return "" if re.match(r"^https?://[^\s/]+", value) else "an http:// or https:// URL"


def _one_of(*choices: str) -> Callable[[Any], str]:
    def check(value: Any) -> str:
        return "" if value in choices else "one of " + ", ".join(repr(c) for c in choices)

    return check


def _command_line(value: Any) -> str:
    try:
        shlex.split(value)
    except ValueError as error:
        return f"a command line as a shell would split it ({error})"
    return ""


def _strftime_format(value: Any) -> str:
    if "%" not in value:
        return 'a strftime format such as "%b %-d, %Y" (this one has no % directive, so every date would look the same)'
    # In UTC, as cards show dates.
    sample = datetime(2026, 10, 4, 9, 30, tzinfo=UTC)
    try:
        shown = sample.strftime(value)
    except ValueError as error:
        return f'a strftime format such as "%b %-d, %Y" ({error})'
    if not shown.strip():
        return 'a strftime format such as "%b %-d, %Y" (this one makes every date empty)'
    # The C library copies a directive it does not know as it is: cards would
    # read "%Q 2026" (or "%+"). Scanned left to right, so %% is one directive.
    for directive in re.findall(r"%[-_0^#]*[0-9]*[EO]?(?:.|$)", value, re.S):
        if directive != "%%" and directive in sample.strftime(directive):
            return f'a strftime format such as "%b %-d, %Y" ({directive.strip()} is not a strftime directive)'
    # Only text and directives that are the same on every date (%%, %n, %Z).
    if datetime(2027, 3, 17, 21, 5, 48, tzinfo=UTC).strftime(value) == shown:
        return 'a strftime format such as "%b %-d, %Y" (nothing in this one changes with the date, so every date would look the same)'
    return ""


OPTIONS: tuple[Option, ...] = (
    Option(
        "general", "window_weeks", int,
        "How many weeks back a topic's first arXiv API fetch reaches (papers then stay until cache_limit prunes them). "
        "Later fetches read back to a week before the last one, as arXiv announces papers days after they were submitted (a Friday's on Monday).",
        _at_least(1, 2000),
    ),
    Option(
        "general", "refresh_age_hours", float,
        "Followed topics last refreshed longer ago than this are refreshed when the app starts, and while it stays open.",
        _at_least(0, 100_000),
    ),
    Option("general", "auto_refresh", bool, "Refresh stale followed topics in the background: at start, and every refresh_age_hours while the app is open."),
    Option("general", "open_marks_read", bool, "Opening a paper's detail view marks it read."),
    Option(
        "general", "cache_limit", int,
        "Most papers kept in the cache; beyond it the oldest papers that are not starred are pruned.",
        _at_least(1),
    ),
    Option(
        "general", "browser", str,
        "Command that opens links: {url} (or %s) is replaced by the link, else the link is appended; "
        "empty uses $BROWSER, then the system's browser.",
        _command_line,
    ),
    Option(
        "general", "theme", str,
        "Textual theme (ctrl+p, then Theme, lists them). A theme picked in the app is remembered "
        "until this value changes.",
    ),
    Option(
        "general", "default_sort", str,
        "Topic sidebar order until you pick one with S; followed topics are always on top: followed or name (both by name), unread, trending.",
        _one_of("followed", "name", "unread", "trending"),
    ),
    Option("general", "date_format", str, "strftime format of the dates on cards and in a paper's detail view.", _strftime_format),
    Option("arxiv", "api_url", str, "arXiv API endpoint (env FEEDTUI_ARXIV_API_URL overrides it).", _http_url),
    Option(
        "arxiv", "rss_url", str,
        "arXiv category feed base; categories are appended (env FEEDTUI_ARXIV_RSS_URL overrides it).",
        _http_url,
    ),
    Option("arxiv", "min_interval", float, "Seconds between requests to arXiv hosts (arXiv asks for 3).", _at_least(0, 3600)),
    Option("arxiv", "page_size", int, "Results per arXiv API page.", _at_least(1, 2000)),
    Option("arxiv", "max_results", int, "Most results fetched for one topic's query per refresh (a combined request gets this per topic, up to 10,000).", _at_least(1)),
    Option("arxiv", "max_query_length", int, "Longest combined search_query sent in one API request.", _at_least(200)),
    Option("fetch", "timeout", float, "Seconds allowed for a whole request.", _at_least(0.001)),
    Option("fetch", "connect_timeout", float, "Seconds allowed to connect.", _at_least(0.001)),
    Option("fetch", "read_timeout", float, "Seconds allowed between two chunks of a response.", _at_least(0.001)),
    Option("fetch", "max_bytes", int, "Largest response accepted, in bytes, after decompression.", _at_least(1)),
    Option("fetch", "concurrency", int, "Requests in flight at once.", _at_least(1)),
    Option("fetch", "per_host", int, "Requests in flight at once to one host (arXiv hosts always get one).", _at_least(1)),
    Option("fetch", "retries", int, "Retries after 429, 502, 503, 504 and network errors.", _at_least(0, 100)),
    Option("fetch", "max_redirects", int, "Redirects followed.", _at_least(0, 100)),
)
SECTIONS = ("general", "arxiv", "fetch", "keymap", "topic")
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


def check_command(path: Path | None) -> str:
    """The command that lists every problem of the config file at `path`."""
    if path is None or path == config_path():
        return "feedtui config --check"
    return f"feedtui config --check --config {shlex.quote(str(path))}"


def default_config_path() -> Path:
    return Path(platformdirs.user_config_dir(APP_NAME)) / "config.toml"


def config_path(explicit: str | os.PathLike | None = None) -> Path:
    if explicit:
        return Path(explicit).expanduser()
    if os.environ.get(ENV_CONFIG):
        return Path(os.environ[ENV_CONFIG]).expanduser()
    return default_config_path()


def config_named_by(explicit: str | os.PathLike | None = None) -> str:
    """Who named the config file `config_path` gives: "--config", the
    environment variable, or "" for the default path (absent on a first run)."""
    if explicit:
        return "--config"
    return ENV_CONFIG if os.environ.get(ENV_CONFIG) else ""


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


def load_config(path: Path | None = None, *, named_by: str = "") -> Config:
    """Read the config file (a missing file is the defaults) and the environment.
    `named_by`: the user named the file (see `config_named_by`), so a missing
    one is reported rather than taken for a first run."""
    path = path or config_path()
    config = Config(path=path)
    text = ""
    data: dict[str, Any] = {}
    if path.is_dir():
        config.problems.append(ConfigProblem(path, None, "is a directory, not a config file; using the defaults"))
    elif named_by and not path.exists():
        config.problems.append(ConfigProblem(path, None, f"no config file there ({named_by} names it); using the defaults"))
    elif path.exists():
        try:
            text = path.read_text(encoding="utf-8")
            data = tomllib.loads(text)
            config.topics_known = True
        except UnicodeDecodeError:
            config.problems.append(ConfigProblem(path, None, "is not UTF-8 text; using the defaults (save it as UTF-8)"))
        except OSError as error:
            config.problems.append(ConfigProblem(path, None, f"cannot read it ({error.strerror or error}); using the defaults"))
        except tomllib.TOMLDecodeError as error:
            config.problems.append(
                ConfigProblem(path, _toml_error_line(str(error)), f"not valid TOML: {error}; every setting is at its default until this is fixed")
            )
            data = {}
    else:
        config.topics_known = True
    _apply_options(config, data, _Locator(text))
    _apply_environment(config)
    return config


class _Locator:
    """Finds the line where a key or a table header is written in the file."""

    def __init__(self, text: str) -> None:
        self.keys: dict[str, int] = {}  # full dotted path -> line
        self.headers: dict[str, int] = {}
        self.arrays: dict[str, list[int]] = {}
        current = ""
        for number, line in enumerate(text.splitlines(), start=1):
            stripped = line.strip()
            header = re.match(r"^(\[\[?)\s*([^\]]+?)\s*\]", stripped)
            if header:
                current = _unquote_dotted(header.group(2))
                self.headers.setdefault(current, number)
                if header.group(1) == "[[":
                    # Keys of the n-th [[topic]] are found under "topic#n".
                    self.arrays.setdefault(current, []).append(number)
                    current = f"{current}#{len(self.arrays[current])}"
                    self.headers[current] = number
                continue
            key = re.match(r"""^("[^"]*"|'[^']*'|[A-Za-z0-9_.\- ]+?)\s*=""", stripped)
            if key:
                name = _unquote_dotted(key.group(1))
                self.keys.setdefault(f"{current}.{name}" if current else name, number)

    def key(self, section: str, key: str) -> int | None:
        """The line of `key` in [section], however the path was split between
        header and key; else the section's header."""
        found = self.keys.get(f"{section}.{key}")
        return found if found is not None else self.header(section)

    def header(self, section: str) -> int | None:
        found = self.headers.get(section)
        if found is None:
            found = self.keys.get(section)
        if found is None:
            found = next((n for path, n in self.keys.items() if path.startswith(section + ".")), None)
        return found


def _unquote_dotted(name: str) -> str:
    """`"paper.star"`, `paper.star` and `'paper'.star` all name the key paper.star."""
    parts = re.findall(r"""("[^"]*"|'[^']*'|[^.\s]+)""", name)
    return ".".join(part.strip("\"'") for part in parts)


def _apply_options(config: Config, data: dict[str, Any], where: _Locator) -> None:
    path = config.path or Path("config.toml")
    known = {(o.section, o.key): o for o in OPTIONS}
    for section, values in data.items():
        if section not in SECTIONS:
            config.problems.append(ConfigProblem(path, where.header(section), _unknown_section(section, values)))
            continue
        if section == "keymap":
            _apply_keymap(config, values, where)
            continue
        if section == "topic":
            _apply_topics(config, values, where)
            continue
        if not isinstance(values, dict):
            config.problems.append(ConfigProblem(path, where.header(section), f"{section} must be a table: write [{section}] on a line of its own, then its keys"))
            continue
        for key, value in values.items():
            option = known.get((section, key))
            line = where.key(section, key)
            config.lines[f"{section}.{key}"] = line
            if option is None:
                config.problems.append(ConfigProblem(path, line, _unknown_key(section, key)))
                continue
            problem = _check(option, value)
            if problem:
                config.problems.append(
                    ConfigProblem(path, line, f"{section}.{key} = {_show(value)}: expected {problem}; using the default")
                )
                continue
            _set(config.settings, option.path, option.kind(value))


def _unknown_section(section: str, value: Any) -> str:
    homes = [o.section for o in OPTIONS if o.key == section]
    if homes and not isinstance(value, dict):
        return f"{section} = {_show(value)} belongs under [{homes[0]}]: move it below that header"
    suggestion = _did_you_mean(section, SECTIONS)
    return f"unknown section [{section}]{suggestion} (sections: {', '.join(SECTIONS)})"


def _unknown_key(section: str, key: str) -> str:
    names = [o.key for o in OPTIONS if o.section == section]
    homes = [o.section for o in OPTIONS if o.key == key]
    if homes:
        return f"'{key}' belongs under [{homes[0]}], not [{section}]"
    return f"unknown key '{key}' in [{section}]{_did_you_mean(key, names)} (keys: {', '.join(names)})"


def _did_you_mean(word: str, choices: Iterable[str]) -> str:
    import difflib  # only when a key is misspelt

    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f" — did you mean '{close[0]}'?" if close else ""


def _show(value: Any) -> str:
    """A value as written in TOML, shortened: messages quote what the user wrote."""
    if isinstance(value, bool):
        shown = "true" if value else "false"
    elif isinstance(value, str):
        shown = toml_value(value)
    elif isinstance(value, dict):
        shown = "{…}"
    elif isinstance(value, list):
        shown = "[…]"
    else:
        shown = str(value)
    return shown if len(shown) <= 60 else shown[:57] + "…"


def _check(option: Option, value: Any) -> str:
    if option.kind is bool and not isinstance(value, bool):
        return "true or false"
    if option.kind in (int, float) and (isinstance(value, bool) or not isinstance(value, (int, float))):
        return "a number, without quotes" if isinstance(value, str) else "a number"
    if option.kind is int and not isinstance(value, int):
        return "a whole number"
    if option.kind is float and not math.isfinite(value):
        return "a finite number"
    if option.kind is str:
        if not isinstance(value, str):
            return "a string in quotes"
        if any(unicodedata.category(c) == "Cc" for c in value):
            return "text without control characters"
    return option.check(value) if option.check else ""


def _apply_keymap(config: Config, values: Any, where: _Locator) -> None:
    """[keymap] binding-id = "keys". Dotted ids may be written unquoted
    (`paper.star = "x"` is the table paper = {star = "x"} in TOML): both work."""
    path = config.path or Path("config.toml")
    if not isinstance(values, dict):
        config.problems.append(ConfigProblem(path, where.header("keymap"), '[keymap] must be a table of binding-id = "keys"'))
        return
    for binding_id, keys in _flatten(values):
        line = where.key("keymap", binding_id)
        config.lines[f"keymap.{binding_id}"] = line
        problem = _keys_problem(keys)
        if problem:
            config.problems.append(ConfigProblem(path, line, f"keymap.{binding_id} = {_show(keys)}: expected {problem}; keeping its default keys"))
            continue
        config.settings.keymap[binding_id] = ",".join(k.strip() for k in keys.split(","))


def _flatten(values: Mapping[str, Any], prefix: str = "") -> Iterable[tuple[str, Any]]:
    for key, value in values.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            yield from _flatten(value, name + ".")
        else:
            yield name, value


def _keys_problem(keys: Any) -> str:
    """Shape only (the key names themselves are checked by `check_ui_settings`)."""
    expected = 'keys like "x", "ctrl+x" or "x,ctrl+x" (a comma between alternatives)'
    if not isinstance(keys, str) or not keys.strip():
        return expected
    for key in (k.strip() for k in keys.split(",")):
        if not key or any(c.isspace() for c in key) or any(unicodedata.category(c) == "Cc" for c in key):
            return expected
    return ""


TOPIC_KEYS = ("name", "description", "query", "categories", "feeds")


def _apply_topics(config: Config, values: Any, where: _Locator) -> None:
    path = config.path or Path("config.toml")
    if not isinstance(values, list):
        config.problems.append(ConfigProblem(path, where.header("topic"), "topics are written as [[topic]] tables (two brackets), one per topic"))
        return
    from feedtui.topics.names import same_name

    for number, entry in enumerate(values, start=1):
        topic, problems = _topic_from_table(number, entry)
        if topic is not None and (other := same_name(topic.name, (t.name for t in config.topics))):
            problems.append(("", f"topic '{topic.name}': topic '{other}' above has this name (case aside); left out"))
            topic = None
        found = [
            ConfigProblem(path, where.key(f"topic#{number}", key) if key else where.header(f"topic#{number}"), problem)
            for key, problem in problems
        ]
        config.problems.extend(found)
        if topic is not None:
            config.topics.append(topic)
        elif found and (name := _table_name(entry)):
            config.left_out.setdefault(name, found[-1])
        elif found:
            config.nameless_left_out += 1


def _table_name(entry: Any) -> str:
    """The name a [[topic]] table gives, cleaned ("" when it gives none)."""
    if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
        return ""
    return clean_line(entry["name"], html_allowed=False)


_CATEGORY_SHAPE = re.compile(r"^[A-Za-z-]+(\.[A-Za-z-]+)?$")


def _topic_from_table(number: int, entry: Any) -> tuple[Topic | None, list[tuple[str, str]]]:
    """A [[topic]] table as a Topic, or None (left out) — with what was wrong,
    each problem as (the key it is about or "", the message)."""
    from feedtui.topics.query import QueryError, parse_query

    if not isinstance(entry, dict) or not isinstance(entry.get("name"), str) or not entry["name"].strip():
        # `nam = "…"`: the misspelt key is named, as it is in a table with a name.
        misspelt = _unknown_topic_keys(f"topic #{number}", entry) if isinstance(entry, dict) else []
        return None, misspelt + [("", f'topic #{number} needs a name = "…"; it is left out')]
    from feedtui.topics.names import name_problem

    name = clean_line(entry["name"], html_allowed=False)
    if problem := name_problem(name):
        return None, [("name", f"topic #{number}: {problem}; it is left out")]
    problems = _unknown_topic_keys(f"topic '{name}'", entry)
    left_out = "; the topic is left out"
    for key in ("description", "query"):
        if not isinstance(entry.get(key, ""), str):
            return None, problems + [(key, f"topic '{name}': {key} must be a string in quotes{left_out}")]
    lists: dict[str, tuple[str, ...]] = {}
    for key, example in (("categories", '["cs.DC", "cs.AR"]'), ("feeds", '["https://example.org/feed.xml"]')):
        value = entry.get(key, [])
        if isinstance(value, str) and key == "feeds":
            # Not split as categories are: a URL may hold a comma.
            problems.append((key, f"topic '{name}': feeds is a list, like {example}; {_show(value)} is read as its one feed"))
            items = [value]
        else:
            items = value.replace(",", " ").split() if isinstance(value, str) else value
        if not isinstance(items, list) or not all(isinstance(i, str) for i in items):
            return None, problems + [(key, f"topic '{name}': {key} must be a list of strings like {example}{left_out}")]
        checked: list[str] = []
        for item in items:
            why = f" (like {example})"
            if key == "feeds":
                try:
                    checked.append(feed_url(item))  # the check every way of adding a feed goes through
                    continue
                except FeedUrlError as error:
                    why = f": it {error.problem}"
            elif _CATEGORY_SHAPE.match(item.strip()):
                checked.append(item.strip())
                continue
            return None, problems + [(key, f"topic '{name}': {_show(item)} is not valid in {key}{why}{left_out}")]
        lists[key] = tuple(checked)
    definition = TopicDefinition(query=entry.get("query", "").strip(), categories=lists["categories"], feeds=lists["feeds"])
    if definition.is_empty:
        return None, problems + [("", f"topic '{name}' needs a query, categories or feeds{left_out}")]
    if definition.query:
        try:
            parse_query(definition.query)
        except QueryError as error:
            # Kept, so that its name stays its own and the app shows the error
            # where the topic is; it tags nothing until the query is fixed.
            problems.append(("query", f"topic '{name}': bad query: {error}; the topic tags nothing until it is fixed"))
    return Topic(name, definition, entry.get("description", "").strip(), origin="config"), problems


def _unknown_topic_keys(topic: str, entry: dict) -> list[tuple[str, str]]:
    return [
        (key, f"{topic}: unknown key '{key}'{_did_you_mean(key, TOPIC_KEYS)} (keys: {', '.join(TOPIC_KEYS)}); ignored")
        for key in entry
        if key not in TOPIC_KEYS
    ]


def _apply_environment(config: Config) -> None:
    settings = config.settings
    for variable, attribute in ((ENV_API_URL, "api_url"), (ENV_RSS_URL, "rss_url")):
        value = os.environ.get(variable)
        if not value:
            continue
        if _http_url(value):
            config.problems.append(
                ConfigProblem(f"${variable}", None, f"{value!r} is not an http:// or https:// URL; using {getattr(settings.arxiv, attribute)}")
            )
            continue
        setattr(settings.arxiv, attribute, value)


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
                f"general.theme = {_show(settings.theme)}: expected one of {', '.join(sorted(themes))}; using {Settings().theme}",
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
                ConfigProblem(path, line, f"unknown binding id '{binding_id}'{_did_you_mean(binding_id, known)}; {ids}")
            )
            del settings.keymap[binding_id]
            continue
        bad = next((p for p in (_key_name_problem(k) for k in keys.split(",")) if p), "")
        if bad:
            problems.append(ConfigProblem(path, line, f"keymap.{binding_id} = {_show(keys)}: {bad}; keeping its default keys"))
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


def _key_names() -> set[str]:
    from textual.keys import KEY_ALIASES, Keys, _character_to_key

    names = {k.value.split("+")[-1] for k in Keys if not k.value.startswith("<")}
    names |= set(KEY_ALIASES)
    for code in range(33, 127):
        character = chr(code)
        names.add(character)
        names.add(_character_to_key(character))
    return names


def _as_sent(key: str) -> str:
    """A key as Textual names what the terminal sends for it: shift+s is S
    (the terminal sends the capital; a binding on shift+s never fires), and a
    character after a modifier has its key name (alt+? is alt+question_mark).
    A key alone is left as written: Textual names it itself."""
    from textual.keys import _character_to_key

    *modifiers, name = key.strip().split("+")
    if modifiers == ["shift"] and len(name) == 1 and name.isalpha() and len(name.upper()) == 1:
        return name.upper()  # (ß has no one-letter capital: left as written)
    if modifiers and len(name) == 1:
        name = _character_to_key(name)
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
    has by default as well then does that other thing. detail.back = "h"
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
            dropped = [k.strip() for k in default.split(",") if not _holds(keys, k)]
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
                        f"{binding_id} = {_show(','.join([keys, *dropped]))}",
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
    from textual.keys import _character_to_key

    key = key.strip()
    return _character_to_key(key) if len(key) == 1 else key


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


def default_value(option: Option) -> Any:
    return _get(Settings(), option.path)


def _toml_error_line(message: str) -> int | None:
    match = re.search(r"line (\d+)", message)
    return int(match.group(1)) if match else None


def default_config_text() -> str:
    """A commented config file with every key at its default.

    Each setting is one `# key = value` line; prose and examples are comment
    lines that never take that shape (examples are indented: `#   key = …`),
    so removing `# ` from every setting line gives a file equal to the defaults.
    """
    lines = [
        "# feedtui configuration. Every key is optional; each is shown here with its default.",
        f"# Location: {default_config_path()} (or --config FILE, or ${ENV_CONFIG}).",
        "# Check it with: feedtui config --check",
        "",
    ]
    for section in ("general", "arxiv", "fetch"):
        lines.append(f"[{section}]")
        for option in (o for o in OPTIONS if o.section == section):
            lines.extend(textwrap.wrap(option.doc, 88, initial_indent="# ", subsequent_indent="# "))
            lines.append(f"# {option.key} = {toml_value(default_value(option))}")
        lines.append("")
    lines += [
        "[keymap]",
        "# Remap any key by its binding id (`?` in the app and the README list every id).",
        "# Several keys: separate them with commas. For example, to mark read with x or ctrl+r:",
        '#   paper.toggle_read = "x,ctrl+r"',
        "# An entry replaces every default key of the binding: list them to keep them too.",
        "",
        "# Your own topics (also: feedtui topic add). A topic is an arXiv API query, arXiv",
        "# categories, or feed URLs (narrowed by the query when both are given). For example:",
        "#   [[topic]]",
        '#   name = "Sparse Attention"',
        '#   description = "Attention that skips most of the sequence."',
        "#   query = 'abs:\"sparse attention\" AND cat:cs.LG'",
        "#",
        "#   [[topic]]",
        '#   name = "Lab blog"',
        '#   feeds = ["https://example.org/lab/atom.xml"]',
        "",
    ]
    return "\n".join(lines)


def toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        escaped = value.replace("\\", "\\\\").replace('"', '\\"')
        # Control characters as TOML writes them (\u001b): a message quoting
        # a value never sends the terminal an escape sequence.
        return '"' + _TOML_CONTROL.sub(lambda m: f"\\u{ord(m.group()):04x}", escaped) + '"'
    return repr(value)


_TOML_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")

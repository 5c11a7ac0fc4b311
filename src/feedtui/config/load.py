"""Reading the config file and the environment into a `Config`. A bad
value never stops the app: it is reported as `FILE:LINE: …` and the default
is used for that key."""

from __future__ import annotations

import os
import re
import tomllib
from pathlib import Path
from typing import Any

from feedtui.config.commands import apply_commands
from feedtui.config.keymap import apply_keymap
from feedtui.config.locate import Locator
from feedtui.config.options import ENV_API_URL, ENV_RSS_URL, OPTIONS, SECTIONS, http_url_problem, set_setting, value_problem
from feedtui.config.paths import config_path
from feedtui.config.result import Config, ConfigProblem
from feedtui.config.topics import apply_topics
from feedtui.config.wording import did_you_mean, show_value


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
    _apply_options(config, data, Locator(text))
    _apply_environment(config)
    return config


def _apply_options(config: Config, data: dict[str, Any], where: Locator) -> None:
    path = config.path or Path("config.toml")
    known = {(o.section, o.key): o for o in OPTIONS}
    for section, values in data.items():
        if section not in SECTIONS:
            config.problems.append(ConfigProblem(path, where.header(section), _unknown_section(section, values)))
            continue
        if section == "keymap":
            apply_keymap(config, values, where)
            continue
        if section == "commands":
            apply_commands(config, values, where)
            continue
        if section == "topic":
            apply_topics(config, values, where)
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
            problem = value_problem(option, value)
            if problem:
                # A problem's own further lines (a query's caret) come after the sentence.
                first, newline, rest = problem.partition("\n")
                config.problems.append(
                    ConfigProblem(
                        path, line, f"{section}.{key} = {show_value(value)}: expected {first}; {option.fallback}{newline}{rest}"
                    )
                )
                continue
            set_setting(config.settings, option.path, option.kind(value))


def _unknown_section(section: str, value: Any) -> str:
    homes = [o.section for o in OPTIONS if o.key == section]
    if homes and not isinstance(value, dict):
        return f"{section} = {show_value(value)} belongs under [{homes[0]}]: move it below that header"
    suggestion = did_you_mean(section, SECTIONS)
    return f"unknown section [{section}]{suggestion} (sections: {', '.join(SECTIONS)})"


def _unknown_key(section: str, key: str) -> str:
    names = [o.key for o in OPTIONS if o.section == section]
    homes = [o.section for o in OPTIONS if o.key == key]
    if homes:
        return f"'{key}' belongs under [{homes[0]}], not [{section}]"
    return f"unknown key '{key}' in [{section}]{did_you_mean(key, names)} (keys: {', '.join(names)})"


def _apply_environment(config: Config) -> None:
    settings = config.settings
    for variable, attribute in ((ENV_API_URL, "api_url"), (ENV_RSS_URL, "rss_url")):
        value = os.environ.get(variable)
        if not value:
            continue
        if http_url_problem(value):
            config.problems.append(
                ConfigProblem(f"${variable}", None, f"{value!r} is not an http:// or https:// URL; using {getattr(settings.arxiv, attribute)}")
            )
            continue
        setattr(settings.arxiv, attribute, value)


def _toml_error_line(message: str) -> int | None:
    match = re.search(r"line (\d+)", message)
    return int(match.group(1)) if match else None

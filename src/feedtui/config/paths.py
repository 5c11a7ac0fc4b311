"""Where feedtui finds its config file and keeps its data: a command-line
option, else an environment variable, else the platform's directory."""

from __future__ import annotations

import os
import shlex
from pathlib import Path

import platformdirs

APP_NAME = "feedtui"
ENV_DATA_DIR = "FEEDTUI_DATA_DIR"
ENV_CONFIG = "FEEDTUI_CONFIG"


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


def check_command(path: Path | None) -> str:
    """The command that lists every problem of the config file at `path`."""
    if path is None or path == config_path():
        return "feedtui config --check"
    return f"feedtui config --check --config {shlex.quote(str(path))}"

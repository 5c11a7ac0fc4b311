"""The TOML configuration file, the environment, and where feedtui keeps things.

Every key is declared once in `OPTIONS` (`options`) with its type, default
and meaning; from that one table come the parser (`load`), its messages
(file, line, what was expected), `feedtui config --default` (`template`) and
the configuration reference. A bad value never stops the app: it is reported
as `FILE:LINE: …` and the default is used for that key. [[topic]] tables are
read by `topics`, [keymap] by `keymap`; `paths` says where the file and the
data are.

Two checks need the running UI (Textual's theme names and the app's binding
ids): `feedtui.ui.keymap_check` does them when the app starts, so that this
package never imports Textual and the command-line tools never pay for it.

The names callers use are all importable from `feedtui.config` itself.
"""

from __future__ import annotations

from feedtui.config.load import load_config
from feedtui.config.options import ENV_API_URL, ENV_RSS_URL, OPTIONS, SECTIONS, Option, default_value
from feedtui.config.paths import (
    APP_NAME,
    ENV_CONFIG,
    ENV_DATA_DIR,
    check_command,
    config_named_by,
    config_path,
    data_dir,
    default_config_path,
)
from feedtui.config.result import Config, ConfigProblem, in_file_order
from feedtui.config.template import default_config_text
from feedtui.config.topics import TOPIC_KEYS
from feedtui.config.wording import toml_value

__all__ = [
    "APP_NAME",
    "ENV_API_URL",
    "ENV_CONFIG",
    "ENV_DATA_DIR",
    "ENV_RSS_URL",
    "OPTIONS",
    "SECTIONS",
    "TOPIC_KEYS",
    "Config",
    "ConfigProblem",
    "Option",
    "check_command",
    "config_named_by",
    "config_path",
    "data_dir",
    "default_config_path",
    "default_config_text",
    "default_value",
    "in_file_order",
    "load_config",
    "toml_value",
]

from __future__ import annotations

import os
import shutil
import socket
import tempfile
from pathlib import Path

import pytest
from hypothesis import settings

# CI runs the property tests on the same examples every time: a run is
# judged by the change it tests, not by the examples it happened to draw. At
# a desk they draw new ones each run, and a failure prints its example.
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

# Where feedtui would look without --data-dir or --config: the user's own
# folders. Each test process (each xdist worker too) gets folders of its own
# instead, so that no test reads the developer's config or data, and two
# workers never share a default data directory.
HOME_VARIABLES = {
    "HOME": "",
    "XDG_CONFIG_HOME": ".config",
    "XDG_DATA_HOME": ".local/share",
    "XDG_CACHE_HOME": ".cache",
    "XDG_STATE_HOME": ".local/state",
}
FEEDTUI_VARIABLES = ("FEEDTUI_DATA_DIR", "FEEDTUI_CONFIG", "FEEDTUI_ARXIV_API_URL", "FEEDTUI_ARXIV_RSS_URL")
# A display a clipboard tool would reach (see feedtui.clipboard): no test
# copies to the developer's own clipboard; tests that check a tool set them.
DISPLAY_VARIABLES = ("DISPLAY", "WAYLAND_DISPLAY")


def pytest_addoption(parser: pytest.Parser, pluginmanager: pytest.PytestPluginManager) -> None:
    """The default run is parallel (`-n` in pyproject's addopts); with xdist
    turned off (`-p no:xdist`) that option is accepted and means nothing."""
    if not pluginmanager.has_plugin("xdist"):
        # A lowercase short option is pytest's own to give; xdist adds its -n
        # the same way, through the group's unchecked _addoption.
        parser.getgroup("xdist")._addoption("-n", "--numprocesses", dest="numprocesses", default=None, help="ignored: xdist is off")


def pytest_configure(config: pytest.Config) -> None:
    home = Path(tempfile.mkdtemp(prefix="feedtui-tests-home-"))
    config.stash[HOME_KEY] = (home, {name: os.environ.get(name) for name in (*HOME_VARIABLES, *FEEDTUI_VARIABLES, *DISPLAY_VARIABLES)})
    for name, folder in HOME_VARIABLES.items():
        os.environ[name] = str(home / folder) if folder else str(home)
    for name in (*FEEDTUI_VARIABLES, *DISPLAY_VARIABLES):
        os.environ.pop(name, None)


def pytest_unconfigure(config: pytest.Config) -> None:
    home, was = config.stash[HOME_KEY]
    for name, value in was.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value
    shutil.rmtree(home, ignore_errors=True)


HOME_KEY = pytest.StashKey[tuple[Path, dict[str, str | None]]]()


@pytest.fixture
def data_dir(tmp_path):
    directory = tmp_path / "data"
    directory.mkdir()
    return directory


@pytest.fixture
def closed_port() -> int:
    """A loopback port nothing listens on."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]

"""feedtui is POSIX only (Linux, macOS), but `--version` and `--help` answer
on a platform without `fcntl`, `termios` or `signal.SIGHUP` (Windows has none
of them): nothing feedtui imports to get that far reads them at import.

Each case is a real `feedtui` process (launch.run, as the console script
calls it) whose interpreter has those names taken away before feedtui is
imported."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from feedtui import __version__

SRC = Path(__file__).resolve().parents[1] / "src"

# Runs before feedtui is imported: `import fcntl` and `import termios` then
# raise ImportError (None in sys.modules), and signal has no SIGHUP.
WITHOUT_POSIX = """\
import signal, sys
sys.modules["fcntl"] = None
sys.modules["termios"] = None
del signal.SIGHUP
try:
    import fcntl
except ImportError:
    pass
else:
    raise SystemExit("the shim did not take fcntl away")
sys.path.insert(0, {src!r})
sys.argv = ["feedtui", *sys.argv[1:]]
from feedtui.launch import run
sys.exit(run())
"""


def feedtui_without_posix(*args: str) -> subprocess.CompletedProcess[str]:
    shim = WITHOUT_POSIX.format(src=str(SRC))
    return subprocess.run([sys.executable, "-c", shim, *args], capture_output=True, text=True, timeout=60)


def test_version_answers_without_fcntl_termios_or_sighup():
    done = feedtui_without_posix("--version")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"feedtui {__version__}"
    assert done.stderr == ""


@pytest.mark.parametrize("args", [("--help",), ("export", "--help")])
def test_help_answers_without_fcntl_termios_or_sighup(args):
    done = feedtui_without_posix(*args)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage: feedtui")
    assert done.stderr == ""

"""Shell completion: `feedtui completion bash|zsh|fish` and the quick
`feedtui topics --names` its scripts call.

The scripts are checked in the real shells, in a real terminal (tmux): a
command line is typed, Tab pressed, and the line the shell completed is then
run as `printf '<%s>' …`, which shows each argument the completion made
between brackets: a topic name with spaces must come out as one argument.
A shell that is not installed is skipped (.ci/run installs zsh and fish).
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from feedtui.cli import main
from tests.test_terminal import Tmux

SCRIPT = Path(sys.executable).with_name("feedtui")
TOPIC = "Sparse Attention Zeta"


@pytest.fixture
def data(tmp_path) -> Path:
    """A data directory with a topic of the user's own, whose name has spaces
    and is in no other data directory."""
    directory = tmp_path / "data"
    assert main(["--data-dir", str(directory), "topic", "add", TOPIC, "--query", 'abs:"sparse attention"']) == 0
    return directory


def test_topics_names_lists_every_topic_a_line_from_a_to_z(data, capsys):
    assert main(["--data-dir", str(data), "topics", "--json"]) == 0
    listed = [topic["name"] for topic in json.loads(capsys.readouterr().out)]
    assert main(["--data-dir", str(data), "topics", "--names"]) == 0
    names = capsys.readouterr().out.splitlines()
    assert TOPIC in names
    assert names == sorted(listed, key=str.casefold)


# Runs feedtui's command in this interpreter, recording every file it opens.
OPENS = """\
import sys
opened = []
sys.addaudithook(lambda event, args: event == "open" and isinstance(args[0], str) and opened.append(args[0]))
from feedtui.cli import main
status = main(sys.argv[1:])
print("\\n".join(["-- opened --", *opened]))
sys.exit(status)
"""


def paper_files_opened(*args: str) -> list[str]:
    done = subprocess.run([sys.executable, "-c", OPENS, *args], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    opened = done.stdout.split("-- opened --\n", 1)[1].splitlines()
    return [path for path in opened if any(part in path for part in ("/cache/papers/", "/cache/index/", "/cache/heads/"))]


def test_topics_names_opens_no_paper_file(tmp_path):
    """The demo's 513 papers are in the cache; the names are had without
    opening one of its files, which the listing with counts does."""
    data = ["--demo", "--data-dir", str(tmp_path / "data")]
    assert paper_files_opened(*data, "topics")  # the probe sees the cache being read
    assert paper_files_opened(*data, "topics", "--names") == []


def test_names_and_json_are_one_or_the_other(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["topics", "--names", "--json"])
    assert exit_.value.code == 2
    assert "not allowed with argument" in capsys.readouterr().err


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_completion_prints_a_script_naming_every_command(shell, capsys):
    assert main(["completion", shell]) == 0
    script = capsys.readouterr().out
    for command in ("refresh", "topics", "papers", "follow", "export", "completion"):
        assert command in script
    assert "topics --names" in script


def test_completion_refuses_another_shell(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["completion", "tcsh"])
    assert exit_.value.code == 2
    assert "invalid choice: 'tcsh'" in capsys.readouterr().err


# -- in the real shells ---------------------------------------------------------

needs_tmux = pytest.mark.skipif(
    shutil.which("tmux") is None or not SCRIPT.exists(), reason="needs tmux, and the feedtui console script next to python"
)


def start_shell(tmux: Tmux, shell: str, home: Path) -> None:
    """`shell` in a tmux pane with feedtui's completion loaded as its users
    would load it, prompting `READY`."""
    script = subprocess.run([str(SCRIPT), "completion", shell], capture_output=True, text=True, check=True).stdout
    home.mkdir(exist_ok=True)
    if shell == "bash":
        (home / "feedtui.bash").write_text(script)
        start = "bash --norc --noprofile"
        setup = f"PS1='READY$ '; source {home / 'feedtui.bash'}"
    elif shell == "zsh":
        functions = home / "zfunc"
        functions.mkdir()
        (functions / "_feedtui").write_text(script)
        (home / ".zshrc").write_text("")
        start = "zsh -f"
        setup = f"bindkey -e; fpath=({functions} $fpath); autoload -Uz compinit; compinit -u -D; PROMPT='READY%% '"
    else:
        (home / "feedtui.fish").write_text(script)
        start = "fish --no-config"
        setup = f"function fish_prompt; echo -n 'READY> '; end; source {home / 'feedtui.fish'}"
    env = {
        "HOME": str(home), "ZDOTDIR": str(home), "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_DATA_HOME": str(home / ".local/share"), "TERM": "xterm-256color",
        "PATH": f"{SCRIPT.parent}:{os.environ['PATH']}", "EDITOR": "", "VISUAL": "",
    }
    exports = " ".join(f"{key}={shlex.quote(value)}" for key, value in env.items())
    tmux("new-session", "-d", "-s", "app", "-x", "220", "-y", "30", f"env -i {exports} {start}")
    tmux("send-keys", "-t", "app", "-l", setup)
    tmux("send-keys", "-t", "app", "Enter")
    tmux.wait_for(r"^READY")


def completed(tmux: Tmux, typed: str) -> None:
    """Type `typed`, press Tab, then run the completed line as `printf '<%s>' …`."""
    tmux("send-keys", "-t", "app", "-l", typed)
    tmux("send-keys", "-t", "app", "Tab")
    tmux("send-keys", "-t", "app", "C-a")
    tmux("send-keys", "-t", "app", "-l", "printf '<%s>' ")
    tmux("send-keys", "-t", "app", "Enter")


@pytest.fixture
def tmux():
    session = Tmux(f"feedtui-completion-{os.getpid()}")
    yield session
    session("kill-server")


@pytest.mark.slow
@needs_tmux
@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_the_shell_completes_commands_and_topic_names(shell, tmux, data, tmp_path):
    if shutil.which(shell) is None:
        pytest.skip(f"{shell} is not installed (.ci/run installs it with apt-get where it can)")
    start_shell(tmux, shell, tmp_path / "home")
    d = str(data)

    completed(tmux, "feedtui fol")
    tmux.wait_for(r"^<feedtui><follow>")

    # The name is in `data` only: the --data-dir given is passed on.
    completed(tmux, f"feedtui --data-dir {d} follow Sparse\\ A")
    tmux.wait_for(rf"^<feedtui><--data-dir><{d}><follow><{TOPIC}>")

    # Inside an open quote, and in another case than the name's.
    completed(tmux, f"feedtui --data-dir {d} topic show 'sparse a")
    tmux.wait_for(rf"^<feedtui><--data-dir><{d}><topic><show><{TOPIC}>")

    completed(tmux, f"feedtui --data-dir {d} export bibtex --topic Spars")
    tmux.wait_for(rf"^<feedtui><--data-dir><{d}><export><bibtex><--topic><{TOPIC}>")

    completed(tmux, "feedtui completion f")
    tmux.wait_for(r"^<feedtui><completion><fish>")

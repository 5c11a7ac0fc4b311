"""`feedtui --help`, every subcommand's help, `--version`, and `feedtui config`."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import threading
import tomllib
from pathlib import Path

import pytest
from werkzeug.wrappers import Response

from feedtui import __version__
from feedtui.cli import build_parser, main
from feedtui.config import OPTIONS

# Real processes run this checkout's code, whatever is installed.
SRC = Path(__file__).resolve().parents[2] / "src"
ENV = {**os.environ, "PYTHONPATH": str(SRC)}


def every_parser(parser: argparse.ArgumentParser, name: str = "feedtui"):
    yield name, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub_name, sub in action.choices.items():
                yield from every_parser(sub, f"{name} {sub_name}")


def test_every_command_has_examples_that_name_it():
    names = []
    for name, parser in every_parser(build_parser()):
        names.append(name)
        text = parser.format_help()
        assert "example" in text, f"{name} --help has no examples"
        examples = text[text.index("example") :]
        assert name in examples or name.replace("feedtui ", "feedtui --demo ") in examples, name
    # Every command the CLI has was looked at.
    assert {"feedtui config", "feedtui topic show", "feedtui export bibtex", "feedtui import opml"} <= set(names)
    assert len(names) >= 23


def test_every_option_of_every_command_says_what_it_does():
    """`papers --limit N` and `topic edit --query Q` were listed bare."""
    bare = [
        f"{name} {action.option_strings[-1]}"
        for name, parser in every_parser(build_parser())
        for action in parser._actions
        if action.option_strings and not action.help
    ]
    assert bare == []
    papers = dict(every_parser(build_parser()))["feedtui papers"].format_help()
    assert "at most the N newest papers (0 lists none; without --limit, all)" in " ".join(papers.split())


def test_version_from_a_real_process():
    result = subprocess.run([sys.executable, "-m", "feedtui", "--version"], capture_output=True, text=True, timeout=60, env=ENV)
    assert result.returncode == 0
    assert result.stdout.strip() == f"feedtui {__version__}"


def test_help_from_a_real_process_lists_the_commands():
    result = subprocess.run([sys.executable, "-m", "feedtui", "--help"], capture_output=True, text=True, timeout=60, env=ENV)
    assert result.returncode == 0
    for command in ("refresh", "topics", "papers", "follow", "topic", "export", "import", "config"):
        assert f"    {command} " in result.stdout


def test_config_default_is_the_commented_file(capsys):
    assert main(["config", "--default"]) == 0
    text = capsys.readouterr().out
    assert tomllib.loads(text) == {"general": {}, "arxiv": {}, "fetch": {}, "zotero": {}, "keymap": {}}
    for option in OPTIONS:
        assert f"# {option.key} = " in text


def test_config_path_honours_the_flag_and_the_environment(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("FEEDTUI_CONFIG", str(tmp_path / "env.toml"))
    assert main(["config", "--path"]) == 0
    assert capsys.readouterr().out.strip() == str(tmp_path / "env.toml")
    assert main(["config", "--path", "--config", str(tmp_path / "flag.toml")]) == 0
    assert capsys.readouterr().out.strip() == str(tmp_path / "flag.toml")


def test_config_check_lists_every_problem_in_line_order(tmp_path, capsys):
    path = tmp_path / "config.toml"
    path.write_text(
        '[general]\ntheme = "no-such-theme"\nwindow_weeks = "4"\n\n[keymap]\npaper.strr = "x"\n'
        '\n[[topic]]\nname = "T"\nquery = "tl:gpu"\n',
        encoding="utf-8",
    )
    assert main(["config", "--check", "--config", str(path)]) == 1
    lines = capsys.readouterr().err.splitlines()
    assert [line.split(":")[1] for line in lines] == ["2", "3", "6", "10"]
    assert lines[0].startswith(f'{path}:2: general.theme = "no-such-theme": expected one of ')
    assert "textual-light" in lines[0]
    assert lines[1] == f'{path}:3: general.window_weeks = "4": expected a number, without quotes; using the default'
    assert lines[2].startswith(f"{path}:6: unknown binding id 'paper.strr' — did you mean 'paper.star'?; ids: ")
    assert lines[3].startswith(f"{path}:10: topic 'T': bad query: unknown field 'tl:'")


def test_a_config_file_named_but_missing_is_reported_and_the_defaults_used(tmp_path, monkeypatch, capsys):
    data = ["--data-dir", str(tmp_path / "data")]
    monkeypatch.delenv("FEEDTUI_CONFIG", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))  # the default path: absent on a first run
    assert main([*data, "follow", "Edge Inference"]) == 0
    assert capsys.readouterr().err == "following Edge Inference\n"

    missing = tmp_path / "nonexistent.toml"
    assert main([*data, "--config", str(missing), "unfollow", "Edge Inference"]) == 0
    assert capsys.readouterr().err == (
        f"feedtui: {missing}: no config file there (--config names it); using the defaults\n"
        "no longer following Edge Inference\n"
    )
    monkeypatch.setenv("FEEDTUI_CONFIG", str(missing))
    assert main([*data, "topics", "--json"]) == 0
    assert capsys.readouterr().err == f"feedtui: {missing}: no config file there (FEEDTUI_CONFIG names it); using the defaults\n"


def test_config_check_reports_a_clash_once_though_two_screens_have_it(tmp_path, capsys):
    # paper.star and paper.toggle_read are bindings of the paper list and of the detail view.
    path = tmp_path / "bad.toml"
    path.write_text('[general]\ntheme = "nord"\n\n[keymap]\npaper.star = "m"\n', encoding="utf-8")
    assert main(["config", "--check", "--config", str(path)]) == 1
    assert capsys.readouterr().err == (
        f"{path}:5: keymap.paper.star: 'm' is also the key of paper.toggle_read on the same screen, "
        "so paper.star keeps its default key 's'; to give it 'm', give paper.toggle_read another key in [keymap] too\n"
    )


def test_config_check_refuses_a_date_format_that_shows_no_date(tmp_path, capsys):
    """"%%" passed, and every card then read "%"."""
    path = tmp_path / "df.toml"
    path.write_text('[general]\ndate_format = "%%"\n', encoding="utf-8")
    assert main(["config", "--check", "--config", str(path)]) == 1
    assert capsys.readouterr().err == (
        f'{path}:2: general.date_format = "%%": expected a strftime format such as "%b %-d, %Y" '
        "(nothing in this one changes with the date, so every date would look the same); using the default\n"
    )


def test_config_check_of_a_good_file_and_of_no_file(tmp_path, capsys):
    path = tmp_path / "config.toml"
    path.write_text('[general]\ntheme = "nord"\n[keymap]\npaper.star = "x"\n', encoding="utf-8")
    assert main(["config", "--check", "--config", str(path)]) == 0
    assert capsys.readouterr().out.strip() == f"{path}: no problems"


def test_config_check_of_no_file_at_the_default_path_is_no_problem(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("FEEDTUI_CONFIG", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))  # a first run: no file there yet
    assert main(["config", "--check"]) == 0
    assert "no config file; feedtui uses the defaults" in capsys.readouterr().out


def test_config_check_of_a_file_named_that_does_not_exist_exits_1(tmp_path, monkeypatch, capsys):
    """A typo in `feedtui config --check --config FILE` in CI passed (exit 0)."""
    missing = tmp_path / "none.toml"
    assert main(["config", "--check", "--config", str(missing)]) == 1
    assert capsys.readouterr() == ("", f"{missing}: no config file there (--config names it)\n")
    monkeypatch.setenv("FEEDTUI_CONFIG", str(missing))
    assert main(["config", "--check"]) == 1
    assert capsys.readouterr() == ("", f"{missing}: no config file there (FEEDTUI_CONFIG names it)\n")


@pytest.mark.parametrize("argv", [["config"], ["config", "--path", "--default"]])
def test_config_needs_exactly_one_action(argv, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2


@pytest.fixture(scope="module")
def demo_dir(tmp_path_factory):
    """The demo's data directory, and more than 64 KiB of BibTeX from it (a pipe's buffer)."""
    directory = tmp_path_factory.mktemp("demo")
    ids = []
    for topic in ("LLM Inference", "Federated Learning", "Edge Inference", "KV-Cache Management", "Heterogeneous Computing"):
        listing = subprocess.run(
            [sys.executable, "-m", "feedtui", "--demo", "--data-dir", str(directory), "papers", topic, "--json"],
            capture_output=True, env=ENV, check=True,
        )
        ids += [paper["id"] for paper in json.loads(listing.stdout)]
    return directory, ids


def run_into_a_pipe_read_no_further(argv: list[str], *, unbuffered: bool = False) -> tuple[int, str]:
    """`feedtui … | head -1`: the first line is read, then the pipe is closed.
    With PYTHONUNBUFFERED a write the reader leaves during ends short without
    an error, so a command written at once (an export) never saw the pipe close."""
    env = {name: value for name, value in ENV.items() if name != "PYTHONUNBUFFERED"}
    if unbuffered:
        env["PYTHONUNBUFFERED"] = "1"
    process = subprocess.Popen(
        [sys.executable, "-m", "feedtui", *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
    )
    assert process.stdout.readline()
    process.stdout.close()
    stderr = process.stderr.read().decode()
    return process.wait(timeout=60), stderr


@pytest.mark.parametrize("unbuffered", [False, True])
@pytest.mark.parametrize("command", [
    ["papers", "LLM Inference", "--json"],
    ["export", "bibtex", "IDS"],
])
def test_a_reader_that_stops_early_is_no_failure(demo_dir, command, unbuffered):
    """`papers` and `export` alike: exit 0, no traceback, nothing said."""
    directory, ids = demo_dir
    argv = ["--demo", "--data-dir", str(directory), *command]
    if "IDS" in argv:
        argv[argv.index("IDS") : argv.index("IDS") + 1] = ids
    status, stderr = run_into_a_pipe_read_no_further(argv, unbuffered=unbuffered)
    assert (status, stderr) == (0, "")


def test_a_reader_that_stops_early_leaves_a_failure_a_failure(demo_dir):
    """An id not in the cache is still named, and still makes the exit 1."""
    directory, ids = demo_dir
    status, stderr = run_into_a_pipe_read_no_further(["--demo", "--data-dir", str(directory), "export", "bibtex", *ids, "2601.99999"])
    assert status == 1
    assert stderr == "feedtui: 2601.99999: not in the cache (refresh first, or check the id)\n"


def test_a_reader_that_stops_early_leaves_failed_sources_a_failure(tmp_path, httpserver):
    """`feedtui refresh 2>&1 | head -1` with a feed answering 404: exit 1, as
    without the pipe. The first line is the warning about the missing config
    file; the feed answers only once the pipe is closed, so the report meets it."""
    closed = threading.Event()

    def not_found(request):
        closed.wait(timeout=30)
        return Response("gone", status=404)

    httpserver.expect_request("/lab.xml").respond_with_handler(not_found)
    base = ["--data-dir", str(tmp_path / "data"), "--config", str(tmp_path / "absent.toml")]
    assert main([*base, "topic", "add", "Lab", "--feed", httpserver.url_for("/lab.xml")]) == 0
    process = subprocess.Popen(
        [sys.executable, "-m", "feedtui", *base, "refresh", "Lab"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=ENV,
    )
    assert b"no config file there" in process.stdout.readline()
    process.stdout.close()
    closed.set()
    assert process.wait(timeout=60) == 1
    assert len(httpserver.log) == 1


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("command", [
    ["topics"],
    ["papers", "LLM Inference", "--json"],
    ["export", "bibtex", "IDS"],
    ["config", "--default"],
])
def test_output_that_cannot_be_written_is_said_to_be_the_output(demo_dir, command):
    """`feedtui topics > /dev/full` said the data directory could not be used
    because the disk was full; the data directory was fine."""
    directory, ids = demo_dir
    argv = ["--demo", "--data-dir", str(directory), *command]
    if "IDS" in argv:
        argv[argv.index("IDS") : argv.index("IDS") + 1] = ids
    with open("/dev/full", "w") as full:
        finished = subprocess.run([sys.executable, "-m", "feedtui", *argv], stdout=full, stderr=subprocess.PIPE, env=ENV, timeout=120)
    assert (finished.returncode, finished.stderr.decode()) == (1, "feedtui: cannot write the output: the disk is full\n")


@pytest.mark.parametrize("command", [[], ["topics"], ["papers", "X"]])
def test_a_data_dir_that_cannot_be_made_is_named(tmp_path, capsys, monkeypatch, command):
    monkeypatch.setattr("feedtui.launch_checks.terminal_problem", lambda: "")  # the reader, as on a terminal
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    assert main(["--data-dir", str(blocker / "data"), *command]) == 1
    assert capsys.readouterr().err == (
        f"feedtui: cannot use the data directory {blocker / 'data'}: it, or a folder on its path, is a file "
        "(choose another with --data-dir DIR or FEEDTUI_DATA_DIR)\n"
    )

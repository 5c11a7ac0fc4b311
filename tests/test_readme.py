"""The README and the pages in docs/ stay true to the code: generated tables,
commands, examples, links and files."""

from __future__ import annotations

import importlib.util
import json
import re
import shlex
from pathlib import Path

import pytest

from feedtui.cli import build_parser, main
from feedtui.config import OPTIONS, load_config
from feedtui.ui.keymap_check import check_ui_settings

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
DOCS = {path.relative_to(ROOT).as_posix(): path.read_text(encoding="utf-8") for path in sorted((ROOT / "docs").glob("*.md"))}
PAGES = {"README.md": README, **DOCS}


def blocks(language: str, text: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", text, re.S)


def script(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_readme_is_a_manual_of_at_most_400_lines():
    assert len(README.splitlines()) <= 400
    for section in ("## Set up", "## Quick start", "## The reader", "## Topics and momentum", "## The command line",
                    "## Configuration", "## Where your data lives", "## Performance", "## Security"):
        assert f"\n{section}\n" in README, section


def test_the_generated_tables_are_up_to_date():
    tables = script("readme_tables")
    for page in tables.PAGES:
        assert tables.updated(page, PAGES[page]) == PAGES[page], f"{page} is out of date: run python scripts/readme_tables.py"


def test_every_binding_id_and_every_config_key_is_in_the_docs():
    from feedtui.ui.bindings import all_bindings

    keys = DOCS["docs/keys.md"]
    for binding in all_bindings():
        assert f"`{binding.id}`" in keys, binding.id
    configuration = DOCS["docs/configuration.md"]
    config_part = configuration[configuration.index("<!-- begin config -->") : configuration.index("<!-- end config -->")]
    for option in OPTIONS:
        assert f"| `{option.key}` |" in config_part, option.name


# --- the performance figures -------------------------------------------------

def test_the_performance_tables_are_made_from_the_latest_run():
    perf = script("perf_page")
    run = perf.load()
    for page in (perf.PAGE, perf.README):
        assert perf.updated(page, PAGES[page], run) == PAGES[page], f"{page} is out of date: run python scripts/perf_page.py"


def test_the_performance_page_reads_what_the_bench_writes():
    """A run as bench/run.py keeps it (--json), read back: every figure's
    median, range and verdict on the page, the targeted ones in the README."""
    from bench.common import stat
    from bench.run import FIGURES, Results

    perf = script("perf_page")
    measured = Results()
    for number, figure in enumerate(FIGURES):
        measured.put(figure.key, "feedtui", stat([number + 1.0, number + 2.0, number + 3.0]))
    measured.put("keys.p95", "feedtui", stat([99.0]))  # one pass, above its 16 ms
    measured.put("start.40k", "newsboat", "skipped (--quick)")
    measured.judge("marks.write", True)
    measured.note("refresh.cold", "feedtui: 50×200 + 0×304")
    run = {"facts": {"cores": "2 (2 usable)", "cpu": "a CPU", "checkout": "abc1234", "load average": "0.10 0.20 0.30"},
           "results": json.loads(json.dumps(measured.to_json())), "date": "2026-12-03 09:00 UTC"}

    assert perf.results(run).rows() == measured.rows()
    page = perf.results_block(run)
    for figure in FIGURES:
        assert figure.label in page
    assert "2026-12-03 09:00 UTC, checkout abc1234, 3 runs per figure" in page
    assert "50×200 + 0×304" in page and "skipped (--quick)" in page
    readme = perf.readme_block(run)
    rows = [line for line in readme.splitlines() if line.startswith("| ")][1:]
    assert len(rows) == sum(1 for f in FIGURES if f.target)
    assert "| Key → repaint, p95 | 99.0 ms | ≤ 16 ms | **no** |" in readme
    assert "| Cold refresh, 50 feeds × 100 papers | 2.00 s | ≤ 1.5 s | **no** |" in readme
    assert "| 1,000 read marks: bytes written | 14 MB | no rewrite of the paper cache | yes |" in readme


def test_the_performance_page_keeps_no_history_and_says_how_to_run_again():
    page = DOCS["docs/performance.md"]
    assert page.count("<!-- begin results -->") == 1
    assert "python scripts/perf_page.py --bench" in page
    assert page.count("| figure | feedtui |") == 1  # one run's table
    assert "performance.md" in README[README.index("## Performance") :]


# --- set-up, links, files ---------------------------------------------------

def test_the_two_set_up_commands():
    assert "python3 -m venv .venv && .venv/bin/pip install -e . && .venv/bin/feedtui --demo" in README
    assert "python3 -m venv .venv && .venv/bin/pip install -e '.[test]' && .venv/bin/python -m pytest -q" in README


def test_the_screenshot_is_an_svg_of_the_demo():
    assert "](docs/screenshot.svg)" in README
    svg = (ROOT / "docs" / "screenshot.svg").read_text(encoding="utf-8")
    assert svg.lstrip().startswith("<svg")
    text = svg.replace("&#160;", " ")
    assert "feedtui --demo" in text
    assert "Latest papers" in text


def anchors(markdown: str) -> set[str]:
    """The ids GitHub gives a page's headings."""
    found = set()
    for heading in re.findall(r"^#+ (.+)$", re.sub(r"```.*?```", "", markdown, flags=re.S), re.M):
        found.add(re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-"))
    return found


def relative_links(markdown: str) -> list[str]:
    text = re.sub(r"```.*?```", "", markdown, flags=re.S)
    return [t for t in re.findall(r"\]\(([^)\s]+)\)", text) if not re.match(r"[a-z]+:", t)]


@pytest.mark.parametrize("page", [*PAGES, "bench/README.md"])
def test_every_relative_link_resolves(page):
    text = PAGES.get(page) or (ROOT / page).read_text(encoding="utf-8")
    links = relative_links(text)
    for link in links:
        target, _, anchor = link.partition("#")
        path = (ROOT / page).parent / target if target else ROOT / page
        assert path.resolve().is_relative_to(ROOT) and path.exists(), f"{page}: {link} leads nowhere"
        if anchor:
            assert anchor in anchors(path.read_text(encoding="utf-8")), f"{page}: {link}: no heading #{anchor}"


def test_the_readme_links_every_page_in_docs():
    linked = {(ROOT / link.partition("#")[0]).resolve() for link in relative_links(README)}
    for page in DOCS:
        assert (ROOT / page).resolve() in linked, page
    for script_name in ("scripts/screenshot.py", "scripts/readme_tables.py", "scripts/perf_page.py"):
        assert script_name in README and (ROOT / script_name).is_file(), script_name


# --- commands and examples ----------------------------------------------------

def feedtui_commands(text: str) -> list[list[str]]:
    """Every `feedtui …` invocation in a page's shell and console blocks."""
    commands: list[list[str]] = []
    for block in blocks("sh", text) + blocks("console", text):
        for line in block.splitlines():
            line = line.removeprefix("$ ").split("  #")[0].strip()
            if "feedtui" not in line or line.startswith(("[", "{", '"', "●")):
                continue
            lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
            lexer.whitespace_split = True
            segment: list[str] = []
            for token in [*lexer, "|"]:
                if token in ("|", "&&", ">", "<"):
                    if segment and segment[0] in ("feedtui", ".venv/bin/feedtui"):
                        commands.append(segment[1:])
                    segment = [] if token != ">" else ["(redirect)"]
                else:
                    segment.append(token)
    return commands


@pytest.mark.parametrize("page", ["README.md", "docs/cli.md", "docs/configuration.md"])
def test_every_command_in_the_docs_parses(page):
    commands = feedtui_commands(PAGES[page])
    assert len(commands) >= 3
    parser = build_parser()
    for argv in commands:
        try:
            parser.parse_args(argv)
        except SystemExit as exit_:
            pytest.fail(f"{page}: feedtui {shlex.join(argv)}: exits {exit_.code}")


def test_the_readme_shows_the_everyday_commands():
    commands = {tuple(argv[:2]) for argv in feedtui_commands(README)}
    for wanted in [("--demo",), ("refresh",), ("topics",), ("follow", "Edge Inference"), ("config", "--check")]:
        assert any(c[: len(wanted)] == wanted for c in commands), wanted


def test_the_readmes_commands_work_in_order_on_the_demo(tmp_path, monkeypatch, capsys):
    """Every command the README shows, one after another on one demo data
    directory (exports first, then the imports of what they wrote), but the
    reader, which needs a terminal, and refresh, which needs the network."""
    monkeypatch.chdir(tmp_path)
    ran = []
    for argv in feedtui_commands(README):
        argv = [arg for arg in argv if arg != "--demo"]
        argv = argv[: argv.index("(redirect)")] if "(redirect)" in argv else argv
        if not argv or argv[0] == "refresh":
            continue
        capsys.readouterr()
        code = main(["--demo", "--data-dir", str(tmp_path / "data"), *argv])
        assert code == 0, f"feedtui {shlex.join(argv)}: exit {code}: {capsys.readouterr().err}"
        ran.append(argv[0])
    assert {"topics", "follow", "papers", "read", "export", "import", "config"} <= set(ran)


@pytest.mark.parametrize("page", ["README.md", "docs/configuration.md"])
def test_the_toml_examples_load_without_a_problem(tmp_path, page):
    from textual.theme import BUILTIN_THEMES

    from feedtui.ui.bindings import keymap_scopes

    examples = blocks("toml", PAGES[page])
    assert len(examples) >= 1
    for number, example in enumerate(examples):
        path = tmp_path / f"example-{number}.toml"
        path.write_text(example, encoding="utf-8")
        config = load_config(path)
        check_ui_settings(config, themes=BUILTIN_THEMES, scopes=keymap_scopes())
        assert config.problems == [], [str(p) for p in config.problems]


def test_the_themes_named_are_textual_themes():
    from textual.theme import BUILTIN_THEMES

    configuration = DOCS["docs/configuration.md"]
    themes_part = configuration[configuration.index("## Themes") : configuration.index("## Keymap")]
    named = re.findall(r"`([a-z-]+)`", themes_part)
    assert len(named) >= 6
    assert set(named) - {"theme"} <= set(BUILTIN_THEMES)


def test_the_papers_json_example_has_the_real_fields(tmp_path, capsys):
    example = next(b for b in blocks("console", DOCS["docs/cli.md"]) if "papers \"Heterogeneous Computing\" --json --limit 1" in b)
    documented = json.loads(example[example.index("[") :])
    assert main(["--demo", "--data-dir", str(tmp_path), "papers", "Heterogeneous Computing", "--json", "--limit", "1"]) == 0
    real = json.loads(capsys.readouterr().out)
    assert len(documented) == len(real) == 1
    assert list(documented[0]) == list(real[0])
    assert {k: type(v) for k, v in documented[0].items()} == {k: type(v) for k, v in real[0].items()}

"""`feedtui config --default`: a commented config file with every key at
its default."""

from __future__ import annotations

import textwrap

from feedtui.config.options import OPTIONS, default_value
from feedtui.config.paths import ENV_CONFIG, default_config_path
from feedtui.config.wording import toml_value


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
    for section in dict.fromkeys(o.section for o in OPTIONS):
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
        "# Your own commands, run on the paper under the cursor: an argument list (no shell),",
        "# with {id}, {url}, {pdf_url}, {doi} or {bibtex_file}. Give one a key in [keymap]",
        "# (command.NAME = \"P\"); ctrl+p lists them all. docs/commands.md says more. For example:",
        "#   [commands]",
        '#   papis = ["papis", "add", "--from", "arxiv", "{id}"]',
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

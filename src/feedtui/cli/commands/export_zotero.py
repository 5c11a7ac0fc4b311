"""`feedtui export zotero`: the papers chosen, into the running Zotero app.

When Zotero does not take them, their BibTeX goes to the clipboard instead
(Zotero imports it with File → Import from Clipboard), or to stdout when
this session has no clipboard tool; either way it is said, and the exit
status is 1."""

from __future__ import annotations

import sys

from feedtui.cli.commands.selection import chosen_papers
from feedtui.cli.status import EXIT_FAILED, EXIT_OK


def export_zotero(engine, args) -> int:
    from feedtui.export.zotero import ZoteroUnavailable, send_to_zotero

    chosen = chosen_papers(engine, args, "export zotero")
    if not chosen.papers:
        return EXIT_FAILED
    url = engine.settings.zotero.connector_url
    try:
        sent = send_to_zotero(chosen.papers, url)
    except ZoteroUnavailable as error:
        print(f"feedtui: {error}", file=sys.stderr)
        _bibtex_instead(chosen.papers)
        return EXIT_FAILED
    count = sent.count
    print(f"sent {count:,} paper{'' if count == 1 else 's'} to Zotero at {sent.url}", file=sys.stderr)
    return EXIT_FAILED if chosen.missing else EXIT_OK


def _bibtex_instead(papers) -> None:
    from feedtui.clipboard import copy_locally
    from feedtui.export.bibtex import bibtex_entries

    text = bibtex_entries(papers)
    copied = copy_locally(text)
    entries = f"{len(papers):,} BibTeX entr{'y' if len(papers) == 1 else 'ies'}"
    if copied.tool and not copied.error:
        print(f"feedtui: copied {entries} to the clipboard with {copied.tool} instead "
              "(in Zotero: File → Import from Clipboard)", file=sys.stderr)
        return
    why = f"{copied.tool} failed, {copied.error}" if copied.tool else "no clipboard tool here"
    print(f"feedtui: {why}: the {entries} follow on stdout instead (in Zotero: File → Import)", file=sys.stderr)
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        pass

"""`c`, `b` and `z` in the reader: copies that reach the desktop clipboard
through a real (fake) xclip, and papers sent to a loopback stand-in for
Zotero's connector, or their BibTeX copied when Zotero is not running."""

from __future__ import annotations

import pytest

from feedtui.ui.app import FeedtuiApp
from feedtui.ui.widgets.paper_list import PaperList

from tests.clipboard_tools import fake_clipboard_tool
from tests.ui.test_app import SIZE, open_detail, ready, told, until
from tests.zotero_standin import ZoteroStandIn, closed_port_url


@pytest.fixture
def xclip(tmp_path, monkeypatch):
    """A fake xclip first on PATH and an X display: what it got on stdin."""
    got = fake_clipboard_tool(tmp_path / "bin", "xclip")
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}")
    monkeypatch.setenv("DISPLAY", ":0")
    for name in ("SSH_CONNECTION", "SSH_CLIENT", "SSH_TTY", "WAYLAND_DISPLAY"):
        monkeypatch.delenv(name, raising=False)
    return got


@pytest.fixture
def zotero():
    stand_in = ZoteroStandIn().start()
    yield stand_in
    stand_in.stop()


def app_for(make_engine, url: str | None = None) -> FeedtuiApp:
    engine = make_engine()
    if url:
        engine.settings.zotero.connector_url = url
    return FeedtuiApp(engine)


async def test_c_copies_with_xclip_and_says_so(make_engine, xclip):
    app = app_for(make_engine)
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        main.query_one(PaperList).focus()
        await pilot.press("c")
        await until(pilot, lambda: told(app, "Copied link"))
        assert xclip.read_text() == "https://arxiv.org/abs/2611.00001v1"
        assert app.copier.copied == ["https://arxiv.org/abs/2611.00001v1"]  # and through the terminal
        assert told(app, "Copied link: https://arxiv.org/abs/2611.00001v1 (with xclip, and through the terminal)")


async def test_b_without_a_clipboard_tool_says_it_went_through_the_terminal(make_engine, tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    app = app_for(make_engine)
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        main.query_one(PaperList).focus()
        await pilot.press("b")
        await until(pilot, lambda: told(app, "Copied BibTeX"))
        assert told(app, "Copied BibTeX for 2611.00001v1 (through the terminal, OSC 52)")
        assert app.copier.copied[-1].startswith("@misc{quill2026widget,")


async def test_z_on_a_card_sends_the_paper_to_zotero(make_engine, zotero):
    app = app_for(make_engine, zotero.url)
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        main.query_one(PaperList).focus()
        await pilot.press("z")
        await until(pilot, lambda: told(app, "to Zotero"), tries=100)
        assert told(app, "Sent 2611.00001v1 to Zotero")
        [item] = zotero.saved_items()
        assert item["title"] == "Widget sorting at scale" and item["archiveID"] == "arXiv:2611.00001v1"
        assert item["creators"] == [{"creatorType": "author", "firstName": "Ada", "lastName": "Quill"}]
        assert item["attachments"][0]["url"] == "https://arxiv.org/pdf/2611.00001v1"
        assert [r.path for r in zotero.received] == ["/connector/ping", "/connector/saveItems"]
        assert app.copier.copied == []  # nothing copied when Zotero took it


async def test_z_in_the_detail_view_when_zotero_is_not_running_copies_the_bibtex(make_engine, xclip):
    app = app_for(make_engine, closed_port_url())
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        await open_detail(pilot, main)
        await pilot.press("z")
        await until(pilot, lambda: told(app, "Zotero is not running"), tries=100)
        [message] = [n.message for n in app._notifications if "Zotero" in n.message]
        assert message.startswith("Zotero is not running: nothing answers at http://127.0.0.1:")
        assert message.endswith(
            "Copied the BibTeX of 2611.00001v1 instead (with xclip, and through the terminal): "
            "in Zotero, File → Import from Clipboard"
        )
        assert xclip.read_text().startswith("@misc{quill2026widget,")
        assert app.copier.copied == [xclip.read_text()]

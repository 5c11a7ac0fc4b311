"""Hostile feeds end to end: served over loopback, refreshed through the engine,
shown in the app. No control character reaches a rendered line, markup is
shown as the text it is, a drawn `[@click=app.quit]` does nothing when
clicked, and only http(s) links are ever shown as openable or opened."""

from __future__ import annotations

import unicodedata
import webbrowser
from dataclasses import replace
from pathlib import Path

import pytest
from textual.geometry import Region
from textual.widget import Widget

from feedtui.model import TopicDefinition
from feedtui.ui.app import FeedtuiApp
from feedtui.ui.screens.detail import DetailScreen
from feedtui.ui.services import Browser, LinkRefused
from feedtui.ui.widgets.paper_list import PaperList

from tests.factories import make_paper
from tests.joiners import stray_joiners
from tests.ui.test_app import SIZE, detail_text, ready, told, until

FEEDS = Path(__file__).parent.parent / "data" / "feeds"

# An Atom feed whose links are all something other than http(s), and whose
# text carries the rest of the usual tricks.
LINKS_FEED = """<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <title>Links from nowhere</title>
  <id>urn:feedtui:test:links</id>
  <updated>2026-11-20T10:00:00Z</updated>
  <entry>
    <title>Javascript link [link=javascript:alert(1)]here[/link] &#x1b;]8;;javascript:alert(2)&#x1b;\\osc8&#x1b;]8;;&#x1b;\\</title>
    <id>urn:feedtui:test:links:1</id>
    <link rel="alternate" href="javascript:alert(document.cookie)"/>
    <updated>2026-11-20T10:00:00Z</updated>
    <author><name>&#x9b;31mRed &#x1b;[5mBlink&#x1b;[0m Author</name></author>
    <summary type="html">&lt;a href="javascript:alert(3)"&gt;click me&lt;/a&gt; &#x7; bell &#x8;&#x8; backspace</summary>
  </entry>
  <entry>
    <title>File link to /etc/passwd</title>
    <id>urn:feedtui:test:links:2</id>
    <link rel="alternate" href="file:///etc/passwd"/>
    <updated>2026-11-19T10:00:00Z</updated>
    <summary>A file link.</summary>
  </entry>
  <entry>
    <title>Data link 🧪 データ</title>
    <id>urn:feedtui:test:links:3</id>
    <link rel="alternate" href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg=="/>
    <updated>2026-11-18T10:00:00Z</updated>
    <summary>A data link.</summary>
  </entry>
</feed>
"""

# Control characters, bidi controls and invisible format characters: nothing
# of the kind may reach the terminal from a feed.
FORBIDDEN = set(range(0x00, 0x20)) | set(range(0x7F, 0xA0)) | {0xAD, 0x061C, 0xFEFF, 0x2028, 0x2029}
FORBIDDEN |= {0x200B, 0x200E, 0x200F} | set(range(0x202A, 0x202F)) | set(range(0x2060, 0x2070))
# ZWNJ and ZWJ are kept between two characters they can join (👩‍🔬); see stray_joiners.
SAFE_SCHEMES = ("http://", "https://")


@pytest.fixture
def hostile_engine(make_engine, httpserver):
    httpserver.expect_request("/hostile.rss").respond_with_data(
        (FEEDS / "hostile_rss.xml").read_bytes(), content_type="application/rss+xml"
    )
    httpserver.expect_request("/hostile-api.xml").respond_with_data(
        (FEEDS / "hostile_arxiv_api.xml").read_bytes(), content_type="application/atom+xml"
    )
    httpserver.expect_request("/links.atom").respond_with_data(LINKS_FEED, content_type="application/atom+xml")
    feeds = tuple(httpserver.url_for(p) for p in ("/hostile.rss", "/hostile-api.xml", "/links.atom"))
    return make_engine(papers=[], topics={"Hostile": TopicDefinition(feeds=feeds)}, follows=("Hostile",))


def rendered(screen) -> list[tuple[Widget, list]]:
    """Every displayed widget of the screen with the strips it renders."""
    out = []
    for widget in screen.walk_children(with_self=True):
        if widget.display and widget.size.area:
            out.append((widget, list(widget.render_lines(Region(0, 0, widget.size.width, widget.size.height)))))
    return out


def assert_nothing_hostile_reaches_the_screen(screen) -> str:
    """Checks every line and every segment style; returns all the text."""
    texts = []
    for widget, strips in rendered(screen):
        for strip in strips:
            text = strip.text
            bad = [hex(ord(c)) for c in text if ord(c) in FORBIDDEN]
            assert not bad, (type(widget).__name__, bad, text)
            assert not stray_joiners(text.strip()), (type(widget).__name__, text)
            run = 0
            for char in text:
                run = run + 1 if unicodedata.combining(char) else 0
                assert run <= 2, (type(widget).__name__, text)
            for segment in strip:
                style = segment.style
                if style is None:
                    continue
                # No terminal hyperlink at all: a link opens by a key or a
                # click action, through the scheme check (the detail view's
                # links, checked below), never as text the terminal follows.
                assert not style.link, (type(widget).__name__, style.link)
                assert not any(
                    isinstance(v, str) and ("app." in v or "screen." in v) for v in (style.meta or {}).values()
                ), (type(widget).__name__, style.meta)
            texts.append(text)
    return "\n".join(texts)


class RecordingBrowser(webbrowser.BaseBrowser):
    """The system's browser, as webbrowser would give it: it records, so that
    no test starts a real one."""

    def __init__(self, launched: list) -> None:
        super().__init__("recorder")
        self.launched = launched

    def open(self, url: str, new: int = 0, autoraise: bool = True) -> bool:
        self.launched.append([url])
        return True


async def test_hostile_feeds_reach_the_screen_as_plain_visible_text(hostile_engine, monkeypatch):
    engine = hostile_engine
    report = await engine.refresh(["Hostile"])
    assert report.ok, [s.error for s in report.sources if not s.ok]
    papers = engine.topic_positions("Hostile")
    assert len(papers) == 8
    launched: list[list[str]] = []
    monkeypatch.setattr("feedtui.ui.services.subprocess.Popen", lambda argv, **kw: launched.append(argv))
    recorder = RecordingBrowser(launched)
    monkeypatch.setattr(Browser, "system_browser", lambda self: recorder)

    app = FeedtuiApp(engine)
    app.browser.command = "true"  # found on PATH; Popen records instead of starting it
    async with app.run_test(size=(140, 60)) as pilot:
        main = await ready(pilot)
        main.go_to_topic("Hostile")
        await pilot.pause()
        screen_text = assert_nothing_hostile_reaches_the_screen(main)
        # Markup is the text it is.
        assert "[bold red]x[/] and [@click=app.quit]quit[/]" in screen_text
        assert "[bold]Bold[/bold]" in screen_text
        assert "[link=javascript:alert(1)]here[/link]" in screen_text

        # Clicking where `[@click=app.quit]` is drawn selects a card and nothing else.
        paper_list = main.query_one(PaperList)
        lines = [s.text for s in paper_list.render_lines(Region(0, 0, paper_list.size.width, paper_list.size.height))]
        row = next(i for i, line in enumerate(lines) if "[@click=app.quit]" in line)
        column = lines[row].index("[@click=app.quit]") + 3
        await pilot.click(PaperList, offset=(column, row))
        await pilot.pause()
        assert app.is_running and app.return_code is None

        # Every card, in full: still nothing hostile; links only if http(s).
        # One detail screen shows each paper in turn (switching screens costs
        # most of a second here).
        ids = []
        for index in range(paper_list.card_count):
            paper_list.cursor = index
            ids.append(paper_list.cursor_card.paper_id)
        detail = DetailScreen(engine, ids[0])
        app.push_screen(detail)
        await until(pilot, lambda: app.screen is detail and detail.paper is not None)
        bodies = []
        for paper_id in ids:
            detail.paper = engine.paper(paper_id)
            detail.render_paper()
            await pilot.pause()
            body = assert_nothing_hostile_reaches_the_screen(detail)
            bodies.append(body)
            for line in body.splitlines():
                if line.startswith(("Abstract page:", "PDF:")):
                    assert line.split(": ", 1)[1].startswith(SAFE_SCHEMES), line
            # (The related papers listed under it may show such a title too: checked above.)
            text = detail.query_one("#detail-body")
            lines = [s.text for s in text.render_lines(Region(0, 0, text.size.width, text.size.height))]
            if any("[@click=app.quit]" in line for line in lines):
                y = next(i for i, line in enumerate(lines) if "[@click=app.quit]" in line)
                await pilot.click("#detail-body", offset=(lines[y].index("[@click=app.quit]") + 2, y))
                await pilot.pause()
                assert app.is_running
            await pilot.press("o", "O")
            await pilot.pause()
            app.clear_notifications()
        assert app.is_running
        everything = "\n".join(bodies)
        for visible in ("分散システム", "🚀", "ＡＢＣ", "[link=file:///etc/passwd]click[/link]", "Red Blink Author", "click me"):
            assert visible in everything, visible

    # Only http(s) links were ever handed to the browser.
    assert launched and all(argv[-1].startswith(SAFE_SCHEMES) for argv in launched), launched
    # The browser service refuses them itself, whoever asks.
    opened = len(launched)
    for scheme_link in ("javascript:alert(1)", "file:///etc/passwd", "data:text/html,<script>"):
        with pytest.raises(LinkRefused):
            app.browser.checked(scheme_link)
        with pytest.raises(LinkRefused):
            app.browser.command_for(scheme_link)
        with pytest.raises(LinkRefused):
            app.browser.open_in(recorder, scheme_link)
    assert len(launched) == opened
    assert all(url.startswith(SAFE_SCHEMES) for url in app.browser.launched)


async def test_refused_links_are_said_so(hostile_engine, monkeypatch):
    engine = hostile_engine
    await engine.refresh(["Hostile"])
    launched: list = []
    monkeypatch.setattr("feedtui.ui.services.subprocess.Popen", lambda argv, **kw: launched.append(argv))
    recorder = RecordingBrowser(launched)
    monkeypatch.setattr(Browser, "system_browser", lambda self: recorder)
    app = FeedtuiApp(engine)
    app.browser.command = "true"  # found on PATH; Popen records instead of starting it
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        main.go_to_topic("Hostile")
        await pilot.pause()
        paper_list = main.query_one(PaperList)
        paper_list.focus()
        title = "File link to /etc/passwd"
        for index in range(paper_list.card_count):
            paper_list.cursor = index
            if paper_list.cursor_card.title == title:
                break
        assert paper_list.cursor_card.title == title
        await pilot.press("o")
        await pilot.pause()
        assert launched == []
        # Its file: link was dropped when the feed was read: there is nothing to open.
        assert "This paper has no http or https link to open" in [n.message for n in app._notifications]


async def test_a_look_alike_host_is_shown_in_its_ascii_form_and_opened_as_it_is(make_engine, monkeypatch):
    """`exаmple.com` (its `а` Cyrillic) passes for example.com on screen: the
    detail view and the reader's messages show its ASCII form, as browsers
    do; the browser gets the link as the feed gave it."""
    look_alike = "https://ex\u0430mple.com/post/1"
    paper = replace(make_paper("web:lookalike01", title="Widget look-alike post"), abs_url=look_alike, pdf_url="")
    engine = make_engine(papers=[paper], topics={"Widgets": TopicDefinition(query="ti:widget")})
    launched: list[list[str]] = []
    monkeypatch.setattr("feedtui.ui.services.subprocess.Popen", lambda argv, **kw: launched.append(argv))
    app = FeedtuiApp(engine)
    app.browser.command = "true"
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        main.query_one(PaperList).focus()
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, DetailScreen) and app.screen.paper is not None)
        body = detail_text(app.screen)
        assert "Abstract page: https://xn--exmple-4nf.com/post/1" in body
        assert "ex\u0430mple" not in body
        await pilot.press("o")
        await until(pilot, lambda: told(app, "Opened"))
    assert launched and launched[-1][-1] == look_alike
    assert [n.message for n in app._notifications if "Opened" in n.message] == ["Opened https://xn--exmple-4nf.com/post/1"]

"""The paper list, driven with keys and clicks through Textual's Pilot.

What is "on screen" is read through the widget's public `render_lines`, the
path the compositor paints from (it serves cached lines unless a refresh
marked them dirty), and `Screen.get_style_at` for styles.
"""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest
from rich.cells import cell_len
from rich.color import ColorSystem
from textual.app import App, ComposeResult
from textual.geometry import Region
from textual.scroll_view import ScrollView

from feedtui.ui.cards import CardData
from feedtui.ui.widgets.paper_list import ABSTRACT_LINES, CARD_HEIGHT, CURSOR_BAR, TITLE_LINES, PaperList

STYLES = Path(__file__).resolve().parents[2] / "styles" / "paper_list.tcss"

LONG_ABSTRACT = " ".join(f"Sentence {n} about invented sparse accelerators and scheduling." for n in range(1, 25))


def make_card(number: int, **changes) -> CardData:
    card = CardData(
        paper_id=f"2609.{number:05d}",
        date="Oct 4, 2026",
        category="cs.DC",
        title=f"Invented paper {number} on pipelined edge inference",
        abstract=f"Abstract of paper {number}. " + LONG_ABSTRACT,
        authors="Ada Quill, Bo Lantern, Cy Marsh +4",
        affiliations="Institute of Nowhere · Lab Eleven · Elsewhere U +1",
        tags=("Edge Inference", "Heterogeneous Computing", "Pipeline Parallelism"),
        current_topic="Heterogeneous Computing",
    )
    return card._replace(**changes)


class ListSource:
    """An in-memory CardSource over a list of cards."""

    def __init__(self, cards: list[CardData]) -> None:
        self.cards = list(cards)
        self.calls = 0

    def __len__(self) -> int:
        return len(self.cards)

    def card(self, index: int) -> CardData:
        self.calls += 1
        return self.cards[index]

    def index_of(self, paper_id: str) -> int | None:
        for index, card in enumerate(self.cards):
            if card.paper_id == paper_id:
                return index
        return None


class ListApp(App):
    CSS_PATH = STYLES

    def __init__(self, source: ListSource, empty_message: str = "No papers") -> None:
        super().__init__()
        self.source = source
        self.empty_message = empty_message
        self.events: list[object] = []

    def compose(self) -> ComposeResult:
        yield PaperList(self.source, empty_message=self.empty_message)

    def on_mount(self) -> None:
        self.query_one(PaperList).focus()

    def on_paper_list_opened(self, message: PaperList.Opened) -> None:
        self.events.append(("opened", message.paper_id, message.index))

    def on_paper_list_tag_selected(self, message: PaperList.TagSelected) -> None:
        self.events.append(("tag", message.paper_id, message.topic))

    def on_paper_list_highlighted(self, message: PaperList.Highlighted) -> None:
        self.events.append(("highlighted", message.paper_id, message.index))


def screen_lines(paper_list: PaperList) -> list[str]:
    width, height = paper_list.size
    return [strip.text for strip in paper_list.render_lines(Region(0, 0, width, height))]


def cursor_rows(paper_list: PaperList) -> list[int]:
    return [row for row, line in enumerate(screen_lines(paper_list)) if line.startswith(CURSOR_BAR)]


def row_of(paper_list: PaperList, needle: str) -> int:
    rows = [row for row, line in enumerate(screen_lines(paper_list)) if needle in line]
    assert rows, f"{needle!r} is not on screen"
    return rows[0]


def run(cards: list[CardData], size: tuple[int, int] = (80, 30), **kwargs):
    app = ListApp(ListSource(cards), **kwargs)
    return app, app.run_test(size=size)


async def test_first_screen_shows_cards_in_spec_order():
    app, running = run([make_card(1, starred=True), make_card(2, read=True)])
    async with running:
        lines = screen_lines(app.query_one(PaperList))
    assert lines[0].startswith(f"{CURSOR_BAR}● Oct 4, 2026 · cs.DC ★")
    assert "Invented paper 1 on pipelined edge inference" in lines[1]
    assert lines[3].lstrip(CURSOR_BAR).startswith("  Abstract of paper 1.")
    assert lines[5].rstrip().endswith("…")
    assert "Ada Quill, Bo Lantern, Cy Marsh +4" in lines[6]
    assert "Institute of Nowhere · Lab Eleven · Elsewhere U +1" in lines[7]
    assert "Edge Inference  Heterogeneous Computing  Pipeline Parallelism" in lines[8]
    assert lines[9].strip() == ""
    # The second card is read: no unread marker, no star.
    assert lines[10].startswith("   Oct 4, 2026 · cs.DC")
    assert "★" not in lines[10]


async def test_j_k_and_arrows_move_the_cursor_and_the_view_follows():
    app, running = run([make_card(n) for n in range(40)])
    async with running as pilot:
        paper_list = app.query_one(PaperList)
        await pilot.press("j", "down", "j")
        await pilot.pause()
        assert paper_list.cursor == 3
        assert "Invented paper 3 " in screen_lines(paper_list)[cursor_rows(paper_list)[1]]
        await pilot.press("k", "up")
        await pilot.pause()
        assert paper_list.cursor == 1
        await pilot.press(*["j"] * 10)
        await pilot.pause()
        assert paper_list.cursor == 11
        rows = cursor_rows(paper_list)
        assert len(rows) == CARD_HEIGHT - 1, "the whole cursor card is visible"
        assert "Invented paper 11 " in screen_lines(paper_list)[rows[1]]
        assert paper_list.scroll_y > 0
        await pilot.press("k")
        await pilot.pause()
        assert "Invented paper 10 " in screen_lines(paper_list)[cursor_rows(paper_list)[1]]
    highlighted = [event for event in app.events if event[0] == "highlighted"]
    assert highlighted[-1] == ("highlighted", "2609.00010", 10)


async def test_end_reaches_the_last_of_10000_cards_and_home_returns():
    source = ListSource([make_card(n) for n in range(10_000)])
    app = ListApp(source)
    async with app.run_test(size=(100, 40)) as pilot:
        paper_list = app.query_one(PaperList)
        await pilot.press("end")
        await pilot.pause()
        assert paper_list.cursor == 9_999
        assert "Invented paper 9999 " in screen_lines(paper_list)[cursor_rows(paper_list)[1]]
        await pilot.press("g")
        await pilot.pause()
        assert paper_list.cursor == 0
        assert cursor_rows(paper_list)[0] == 0
        await pilot.press("G")
        await pilot.pause()
        assert paper_list.cursor == 9_999
        assert "Invented paper 9999 " in screen_lines(paper_list)[cursor_rows(paper_list)[1]]
        await pilot.press("home")
        await pilot.pause()
        assert paper_list.scroll_y == 0
    assert source.calls < 200, "only the cards drawn are asked for"


async def test_page_down_moves_a_page_and_keeps_the_cursor_row():
    async with ListApp(ListSource([make_card(n) for n in range(100)])).run_test(size=(80, 30)) as pilot:
        paper_list = pilot.app.query_one(PaperList)
        await pilot.press("j")
        await pilot.pause()
        row = cursor_rows(paper_list)[0]
        await pilot.press("pagedown")
        await pilot.pause()
        per_page = 30 // CARD_HEIGHT
        assert paper_list.cursor == 1 + per_page
        assert cursor_rows(paper_list)[0] == row
        await pilot.press("space", "pageup")
        await pilot.pause()
        assert paper_list.cursor == 1 + per_page
        await pilot.press("ctrl+u")
        assert paper_list.cursor == 1 + per_page - max(1, per_page // 2)
        await pilot.press("ctrl+d")
        assert paper_list.cursor == 1 + per_page


async def test_enter_posts_opened_with_the_cursor_paper():
    app, running = run([make_card(n) for n in range(5)])
    async with running as pilot:
        await pilot.press("j", "j", "enter")
        await pilot.pause()
    assert ("opened", "2609.00002", 2) in app.events


async def test_click_selects_and_a_second_click_or_double_click_opens():
    app, running = run([make_card(n) for n in range(5)])
    async with running as pilot:
        paper_list = app.query_one(PaperList)
        title_row = row_of(paper_list, "Invented paper 1 ")
        await pilot.click(PaperList, offset=(10, title_row))
        await pilot.pause()
        assert paper_list.cursor == 1
        assert not [event for event in app.events if event[0] == "opened"]
        await pilot.click(PaperList, offset=(10, title_row))
        await pilot.pause()
        assert ("opened", "2609.00001", 1) in app.events
        app.events.clear()
        title_row = row_of(paper_list, "Invented paper 2 ")
        await pilot.double_click(PaperList, offset=(10, title_row))
        await pilot.pause()
        assert paper_list.cursor == 2
        assert [event for event in app.events if event[0] == "opened"] == [("opened", "2609.00002", 2)]


async def test_clicking_a_tag_posts_tag_selected_for_that_tag():
    app, running = run([make_card(n) for n in range(5)])
    async with running as pilot:
        paper_list = app.query_one(PaperList)
        lines = screen_lines(paper_list)
        tag_row = next(row for row, line in enumerate(lines) if row > CARD_HEIGHT and "Pipeline Parallelism" in line)
        column = lines[tag_row].index("Pipeline Parallelism") + 3
        await pilot.click(PaperList, offset=(column, tag_row))
        await pilot.pause()
        # A click in the gap between two tags selects no tag.
        gap = lines[tag_row].index("Heterogeneous Computing") - 1
        await pilot.click(PaperList, offset=(gap, tag_row))
        await pilot.pause()
    tags = [event for event in app.events if event[0] == "tag"]
    assert tags == [("tag", "2609.00001", "Pipeline Parallelism")]


async def test_select_tag_posts_the_chosen_tag_of_the_cursor_card():
    app, running = run([make_card(0, tags=("Graphs", "Sparse Kernels"))])
    async with running as pilot:
        paper_list = app.query_one(PaperList)
        assert paper_list.select_tag(1) == "Sparse Kernels"
        assert paper_list.select_tag(2) is None
        await pilot.pause()
    assert [event for event in app.events if event[0] == "tag"] == [("tag", "2609.00000", "Sparse Kernels")]


async def test_set_source_with_keep_holds_the_paper_at_its_row_when_papers_arrive_above():
    cards = [make_card(n) for n in range(100, 200)]
    app, running = run(cards, size=(80, 40))
    async with running as pilot:
        paper_list = app.query_one(PaperList)
        await pilot.press(*["j"] * 7)
        await pilot.pause()
        kept = paper_list.cursor_card
        assert kept is not None
        row = cursor_rows(paper_list)[0]
        assert row > 0
        newcomers = [make_card(n) for n in range(50)]
        paper_list.set_source(ListSource(newcomers + cards), keep=kept.paper_id)
        await pilot.pause()
        assert paper_list.cursor == 57
        assert paper_list.cursor_card == kept
        assert cursor_rows(paper_list)[0] == row
        assert f"Invented paper {kept.paper_id[-3:]} " in screen_lines(paper_list)[row + 1]
        # Without keep (or with a paper that is gone) the list starts over.
        paper_list.set_source(ListSource(newcomers), keep=kept.paper_id)
        await pilot.pause()
        assert paper_list.cursor == 0
        assert paper_list.scroll_y == 0


async def test_invalidate_repaints_a_card_dimmed_once_it_is_read():
    source = ListSource([make_card(n) for n in range(5)])
    app = ListApp(source)
    async with app.run_test(size=(80, 30)) as pilot:
        paper_list = app.query_one(PaperList)
        read_color = paper_list.get_component_rich_style("paper-list--read").color
        title_row = row_of(paper_list, "Invented paper 1 ")
        x = screen_lines(paper_list)[title_row].index("Invented") + 1
        before = app.screen.get_style_at(x, title_row)
        assert before.color != read_color
        assert screen_lines(paper_list)[title_row - 1][1] == "●"
        source.cards[1] = source.cards[1]._replace(read=True)
        paper_list.invalidate([1])
        await pilot.pause()
        after = app.screen.get_style_at(x, title_row)
        assert after.color == read_color
        assert after.bold, "the title stays bold when dimmed"
        assert screen_lines(paper_list)[title_row - 1][1] == " ", "the unread marker is gone"


async def test_markup_in_untrusted_text_is_shown_literally_and_never_runs():
    nasty = make_card(
        0,
        title="[bold red]x[/] and [@click=app.quit]click me[/]",
        authors="[link=https://example.invalid]Mallory[/link]",
        tags=("[b]Tag[/b]",),
    )
    app, running = run([make_card(9), nasty])
    async with running as pilot:
        paper_list = app.query_one(PaperList)
        text = "\n".join(screen_lines(paper_list))
        assert "[bold red]x[/] and [@click=app.quit]click me[/]" in text
        assert "[link=https://example.invalid]Mallory[/link]" in text
        assert "[b]Tag[/b]" in text
        row = row_of(paper_list, "[@click=app.quit]")
        column = screen_lines(paper_list)[row].index("click me")
        await pilot.click(PaperList, offset=(column, row))
        await pilot.click(PaperList, offset=(column, row))
        await pilot.pause()
        assert app.is_running
        strips = paper_list.render_lines(Region(0, 0, 80, 30))
        assert all(not segment.style.meta for strip in strips for segment in strip), "no @click or link meta"
    assert ("opened", "2609.00000", 1) in app.events


async def test_control_characters_never_reach_the_output():
    hostile = make_card(
        0,
        title="Red\x1b[31m alert\x1b[0m\x07 bell \u202eevil\x9b2J",
        abstract="line\rbreak \x1b]0;title\x07 end\x00",
        authors="Eve\x08\x08\x08Ada",
        tags=("Tag\x1b[2J",),
    )
    app, running = run([hostile])
    async with running:
        paper_list = app.query_one(PaperList)
        text = "".join(segment.text for strip in paper_list.render_lines(Region(0, 0, 80, 30)) for segment in strip)
    assert "Red alert bell evil" in text
    assert "EveAda" in text
    controls = [ch for ch in text if unicodedata.category(ch) in ("Cc", "Cf")]
    assert controls == []


async def test_expand_shows_the_whole_abstract_and_pushes_the_next_card_down():
    app, running = run([make_card(0), make_card(1)], size=(80, 40))
    async with running as pilot:
        paper_list = app.query_one(PaperList)
        next_card_row = row_of(paper_list, "Invented paper 1 ")
        assert "Sentence 24" not in "\n".join(screen_lines(paper_list))
        await pilot.press("e")
        await pilot.pause()
        assert paper_list.expanded == {"2609.00000"}
        lines = screen_lines(paper_list)
        rows = cursor_rows(paper_list)
        assert len(rows) > CARD_HEIGHT, "the expanded card is taller"
        assert "Sentence 24" in "\n".join(lines[row] for row in rows)
        assert paper_list.virtual_size.height == 2 * CARD_HEIGHT + len(rows) - (CARD_HEIGHT - 1)
        assert row_of(paper_list, "Invented paper 1 ") == next_card_row + len(rows) - (CARD_HEIGHT - 1)
        await pilot.press("j")
        await pilot.pause()
        assert paper_list.cursor == 1
        await pilot.press("k", "e")
        await pilot.pause()
        assert paper_list.expanded == set()
        assert row_of(paper_list, "Invented paper 1 ") == next_card_row


async def test_an_expanded_card_is_measured_again_after_a_resize_and_a_new_source():
    cards = [make_card(n) for n in range(3)]
    app, running = run(cards, size=(100, 70))
    async with running as pilot:
        paper_list = app.query_one(PaperList)
        await pilot.press("j", "e")
        await pilot.pause()
        wide_height = paper_list.virtual_size.height
        await pilot.resize_terminal(60, 70)
        await pilot.pause()
        assert paper_list.virtual_size.height > wide_height, "narrower lines, more of them"
        expanded_lines = paper_list.virtual_size.height - 2 * CARD_HEIGHT
        assert row_of(paper_list, "Invented paper 2 ") == cursor_rows(paper_list)[0] + expanded_lines + 1
        newcomer = make_card(99)
        paper_list.set_source(ListSource([newcomer, *cards]), keep="2609.00001")
        await pilot.pause()
        assert paper_list.cursor == 2
        assert paper_list.expanded == {"2609.00001"}
        assert paper_list.virtual_size.height == expanded_lines + 3 * CARD_HEIGHT
        paper_list.set_source(ListSource([newcomer]))
        await pilot.pause()
        assert paper_list.expanded == set()
        assert paper_list.virtual_size.height == CARD_HEIGHT
    assert ("highlighted", "2609.00099", 0) in app.events


async def test_cjk_and_emoji_titles_keep_every_line_aligned():
    title = "異種計算のためのパイプライン並列推論に関する非常に長い研究論文の題名 🚀🚀 with Latin words too"
    cards = [make_card(0, title=title, authors="李雷, 韩梅梅, 山田太郎 +2"), make_card(1)]
    app, running = run(cards, size=(60, 24))
    async with running:
        paper_list = app.query_one(PaperList)
        strips = paper_list.render_lines(Region(0, 0, *paper_list.size))
        width = paper_list.size.width
        for strip in strips:
            assert strip.cell_length == width
            assert cell_len(strip.text) == width
        lines = [strip.text for strip in strips]
    assert lines[1].startswith(f"{CURSOR_BAR}  異種計算")
    assert lines[2].startswith(f"{CURSOR_BAR}  ") and lines[2][3] != " "
    assert lines[6].startswith(f"{CURSOR_BAR}  李雷, 韩梅梅, 山田太郎 +2")
    assert lines[11].startswith("   Invented paper 1 ")


async def test_highlighted_words_are_styled_case_insensitively_at_word_starts():
    title = "Graphs and paragraphs: GRAPH kernels"
    cards = [make_card(n, title=title, highlight=("graph",)) for n in range(2)]
    app, running = run(cards)
    async with running:
        paper_list = app.query_one(PaperList)
        highlight = paper_list.get_component_rich_style("paper-list--highlight")
        cursor_tint = paper_list.get_component_rich_style("paper-list--cursor").bgcolor
        strips = paper_list.render_lines(Region(0, 0, 80, 30))
    for row in (1, CARD_HEIGHT + 1):  # the cursor card's title, then the next card's
        marked = "".join(segment.text for segment in strips[row] if segment.style.bgcolor == highlight.bgcolor)
        assert marked == "GraphsGRAPH"
    assert {segment.style.bgcolor for segment in strips[1] if segment.text == " and paragraphs: "} == {cursor_tint}


async def test_a_short_word_is_highlighted_only_where_it_is_a_whole_word():
    title = "Early-Exit Networks in O(n log n) Time on 2 GPUs"
    cards = [make_card(n, title=title, highlight=("O", "n", "2")) for n in range(2)]
    app, running = run(cards)
    async with running:
        paper_list = app.query_one(PaperList)
        highlight = paper_list.get_component_rich_style("paper-list--highlight")
        strips = paper_list.render_lines(Region(0, 0, 80, 30))
    for row in (1, CARD_HEIGHT + 1):
        marked = [segment.text for segment in strips[row] if segment.style.bgcolor == highlight.bgcolor]
        assert marked == ["O", "n", "n", "2"]


def look(style, system: ColorSystem | None) -> tuple:
    """How a style shows in a terminal of `system` colours (None: no colour)."""

    def shown(color):
        return None if color is None or system is None else color.downgrade(system).get_ansi_codes()

    return (shown(style.color), shown(style.bgcolor), style.bold, style.underline, style.reverse, style.italic)


@pytest.mark.parametrize("system", [ColorSystem.TRUECOLOR, ColorSystem.EIGHT_BIT, ColorSystem.STANDARD, None])
async def test_a_highlight_on_the_cursor_card_shows_in_every_colour_depth(system):
    """In 256 colours the highlight's background and the cursor card's tint
    came out as one colour, and the title is bold anyway: the best match,
    where the cursor lands, showed no highlight."""
    title = "Belane: Up to 3.2× Faster On-Device Vision"
    cards = [make_card(n, title=title, highlight=("on-device",)) for n in range(2)]
    app, running = run(cards)
    async with running:
        paper_list = app.query_one(PaperList)
        strips = paper_list.render_lines(Region(0, 0, 80, 30))
    segments = {segment.text: segment.style for segment in strips[1]}  # the cursor card's title
    assert look(segments["On-Device"], system) != look(segments["Belane: Up to 3.2× Faster "], system)


async def test_resize_reflows_cards_to_the_new_width():
    app, running = run([make_card(0), make_card(1)], size=(100, 30))
    async with running as pilot:
        paper_list = app.query_one(PaperList)
        wide = screen_lines(paper_list)[3]
        await pilot.resize_terminal(50, 30)
        await pilot.pause()
        narrow = screen_lines(paper_list)
        assert all(len(line) == paper_list.size.width for line in narrow)
        assert narrow[3].strip() != wide.strip()
        assert narrow[3].lstrip(CURSOR_BAR).startswith("  Abstract of paper 0.")
        assert "Invented paper 1" in "".join(narrow[CARD_HEIGHT + 1 : CARD_HEIGHT + 3])


async def test_an_empty_source_shows_the_callers_message_centred():
    app, running = run([], size=(60, 21), empty_message="No papers yet — press r to fetch")
    async with running as pilot:
        paper_list = app.query_one(PaperList)
        lines = screen_lines(paper_list)
        middle = paper_list.scrollable_content_region.height // 2
        assert lines[middle].strip() == "No papers yet — press r to fetch"
        left = len(lines[middle]) - len(lines[middle].lstrip())
        assert abs(left - (paper_list.scrollable_content_region.width - cell_len(lines[middle].strip())) // 2) <= 1
        assert paper_list.cursor_card is None
        await pilot.press("j", "enter", "e", "end")
    assert not [event for event in app.events if event[0] == "opened"]


def test_every_binding_has_an_id_and_b_is_left_for_bibtex():
    bindings = PaperList.BINDINGS
    ids = [binding.id for binding in bindings]
    assert all(ids) and len(set(ids)) == len(ids)
    assert all(binding.description for binding in bindings)
    keys = {key for binding in bindings for key in binding.key.split(",")}
    assert "b" not in keys
    assert {"j", "k", "down", "up", "enter", "e", "g", "G", "home", "end", "pageup", "pagedown"} <= keys


@pytest.mark.parametrize("width", [8, 12])
async def test_very_narrow_widths_still_draw_whole_lines(width):
    app, running = run([make_card(0), make_card(1)], size=(width, 12))
    async with running:
        paper_list = app.query_one(PaperList)
        for strip in paper_list.render_lines(Region(0, 0, *paper_list.size)):
            assert strip.cell_length == paper_list.size.width


async def test_the_direct_paint_is_what_textuals_style_cache_gives():
    cards = [
        make_card(n, read=n % 3 == 0, starred=n % 5 == 0, highlight=("sparse",) if n % 2 else ()) for n in range(200)
    ]
    app, running = run(cards, size=(90, 30))
    async with running as pilot:
        paper_list = app.query_one(PaperList)

        def both(region: Region):
            ours = paper_list.render_lines(region)
            paper_list.refresh()  # Textual's cache would otherwise hand back lines it kept
            return [list(line) for line in ours], [list(line) for line in ScrollView.render_lines(paper_list, region)]

        for step in range(4):
            await pilot.press("j", "j", "j", "e")  # move, and expand a card's abstract
            await pilot.pause()
            whole = Region(0, 0, *paper_list.size)
            ours, textuals = both(whole)
            assert len(ours) == 30
            assert ours == textuals, f"step {step}"
            ours, textuals = both(Region(5, 7, 40, 9))
            assert ours == textuals
        # CSS that draws around the cards: Textual's path, with its padding.
        paper_list.styles.padding = (0, 2)
        await pilot.pause()
        assert paper_list._styles_change_lines()
        assert all(strip.text.startswith("  ") for strip in paper_list.render_lines(Region(0, 0, *paper_list.size)))


async def test_a_cjk_highlight_marks_just_its_characters_inside_a_run():
    title = "稀疏注意力机制在边缘设备上的推理加速"
    cards = [make_card(n, title=title, highlight=("注意力",)) for n in range(2)]
    app, running = run(cards)
    async with running:
        paper_list = app.query_one(PaperList)
        highlight = paper_list.get_component_rich_style("paper-list--highlight")
        strips = paper_list.render_lines(Region(0, 0, 80, 30))
    for row in (1, CARD_HEIGHT + 1):
        marked = "".join(segment.text for segment in strips[row] if segment.style.bgcolor == highlight.bgcolor)
        assert marked == "注意力"


async def test_a_card_with_highlights_shows_its_abstract_from_the_first_match():
    """An Ask's card showed the first three lines of the abstract, where its
    words may not be: it now starts a little before the first match, after `…`."""
    deep = make_card(1, abstract=LONG_ABSTRACT + " A zeppelin scheduler ends it.", highlight=("zeppelin",))
    early = make_card(2, abstract="A zeppelin first. " + LONG_ABSTRACT, highlight=("zeppelin",))
    in_title = make_card(3, title="Zeppelin routing", abstract=LONG_ABSTRACT + " A zeppelin again.", highlight=("zeppelin",))
    plain = make_card(4, abstract=LONG_ABSTRACT + " A zeppelin scheduler ends it.")
    app, running = run([deep, early, in_title, plain], size=(80, 48))
    async with running as pilot:
        await pilot.pause()
        paper_list = app.query_one(PaperList)
        lines = screen_lines(paper_list)

        def abstract_of(title: str) -> list[str]:
            top = row_of(paper_list, title) + TITLE_LINES
            return [line.lstrip(CURSOR_BAR).strip() for line in lines[top : top + ABSTRACT_LINES]]

        deep_lines = abstract_of("Invented paper 1 on")
        assert deep_lines[0].startswith("…") and "zeppelin scheduler" in " ".join(deep_lines[:2]), deep_lines
        assert abstract_of("Invented paper 2 on")[0].startswith("A zeppelin first.")
        # The title shows why it was found: the abstract starts at its start.
        assert abstract_of("Zeppelin routing")[0].startswith("Sentence 1 about")
        # Without highlights a card is as it was.
        assert abstract_of("Invented paper 4 on")[0].startswith("Sentence 1 about")

"""Card shapes: compact cards (no blank after a short title, no empty
affiliations line, no blank between cards), and words never broken in the
middle on a narrow list."""

from __future__ import annotations

import re

from feedtui.ui.cards import COMFORTABLE, COMPACT
from feedtui.ui.widgets.paper_list import CURSOR_BAR, PaperList
from tests.ui.test_paper_list import make_card, run, screen_lines


def card_text(line: str) -> str:
    return line.lstrip(CURSOR_BAR).strip()


async def test_compact_cards_fill_their_five_lines():
    short = make_card(1, title="Short title", affiliations="")
    cards = [short, make_card(2), make_card(3)]
    app, running = run(cards, size=(80, 20))
    async with running as pilot:
        paper_list = app.query_one(PaperList)
        paper_list.set_shape(COMPACT)
        await pilot.pause()
        lines = [card_text(line) for line in screen_lines(paper_list)]
        # Header, title, abstract in the line the one-line title left,
        # authors (no affiliations: no line for them), tags; then the next card.
        assert lines[1] == "Short title"
        assert lines[2].startswith("Abstract of paper 1.") and lines[2].endswith("…")
        assert lines[3] == "Ada Quill, Bo Lantern, Cy Marsh +4"
        assert lines[4].startswith("Edge Inference")
        assert lines[5].startswith("● Oct 4, 2026")
        # A card with affiliations has them after its authors, on one line.
        assert lines[8].startswith("Ada Quill, Bo Lantern, Cy Marsh +4 · Institute of Nowhere")
        assert all(lines[row] for row in range(15)), "no blank line in three compact cards"
        assert paper_list.virtual_size.height == 3 * COMPACT.height


async def test_switching_shape_keeps_the_cursor_card_in_view_and_clicks_on_tags_work():
    cards = [make_card(n) for n in range(1, 30)]
    app, running = run(cards, size=(80, 20))
    async with running as pilot:
        paper_list = app.query_one(PaperList)
        paper_list.go_to(12)
        await pilot.pause()
        paper_list.set_shape(COMPACT)
        await pilot.pause()
        assert 12 in paper_list.visible_range()
        assert paper_list.virtual_size.height == len(cards) * COMPACT.height
        top = paper_list.card_region(12).y
        await pilot.click(PaperList, offset=(3, top + 4))  # the tags line: Edge Inference
        assert ("tag", cards[12].paper_id, "Edge Inference") in app.events
        paper_list.set_shape(COMFORTABLE)
        await pilot.pause()
        assert 12 in paper_list.visible_range()
        assert paper_list.virtual_size.height == len(cards) * COMFORTABLE.height


async def test_expanded_compact_card_shows_the_whole_abstract():
    cards = [make_card(1), make_card(2)]
    app, running = run(cards, size=(80, 60))
    async with running as pilot:
        paper_list = app.query_one(PaperList)
        paper_list.set_shape(COMPACT)
        paper_list.toggle_expand()
        await pilot.pause()
        assert paper_list.virtual_size.height > 2 * COMPACT.height
        assert "Sentence 24 about" in "\n".join(screen_lines(paper_list))


async def test_narrow_list_never_breaks_a_word_in_the_middle():
    title = "Characterizing Disaggregated LLM Serving: A Measurement Study"
    cards = [make_card(1, title=title, abstract="Characterizing heterogeneous interconnects " * 5)]
    for shape in (COMFORTABLE, COMPACT):
        app, running = run(cards, size=(16, 12))
        async with running as pilot:
            paper_list = app.query_one(PaperList)
            paper_list.set_shape(shape)
            await pilot.pause()
            words = re.findall(r"[\w-]+…?", "\n".join(card_text(line) for line in screen_lines(paper_list)[1 : 1 + shape.text_lines]))
            known = set(re.findall(r"[\w-]+", title + " Characterizing heterogeneous interconnects"))
            for word in words:
                assert word in known or word.endswith("…"), f"{word!r} is part of a word"

"""TopicCards: the list's card source over library positions."""

from __future__ import annotations

from feedtui.ui.presenter import TopicCards

from tests.factories import make_paper


def cards_over(engine, positions):
    return TopicCards(
        engine.library, positions, head=lambda week, pid: "", current_topic="Widgets",
        read={}, starred={}, date_format="%b %-d, %Y",
    )


def test_index_of_finds_each_card_and_nothing_else(make_engine):
    papers = [make_paper(f"2611.{n:05d}", title=f"Widget {n}", abstract="A widget.") for n in range(300)]
    engine = make_engine(papers)
    library = engine.library
    shown = sorted(library.pos[f"2611.{n:05d}"] for n in range(0, 300, 3))[::-1]  # every third, in some order
    cards = cards_over(engine, shown)
    for index, position in enumerate(shown):
        assert cards.index_of(library.ids[position]) == index
        assert cards.paper_id(index) == library.ids[position]
    assert cards.index_of("2611.00001") is None  # in the library, not in this list
    assert cards.index_of("9999.99999") is None  # not in the library

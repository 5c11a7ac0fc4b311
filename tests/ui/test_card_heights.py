"""The card offsets of the paper list, against walking every card."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from feedtui.ui.widgets.card_heights import CardHeights
from feedtui.ui.widgets.card_layout import CARD_HEIGHT


@given(
    extras=st.dictionaries(st.integers(0, 60), st.integers(0, 25), max_size=8),
    count=st.integers(1, 70),
)
def test_card_heights_agree_with_walking_every_card(extras, count):
    extras = {index: extra for index, extra in extras.items() if index < count}
    heights = CardHeights(CARD_HEIGHT)
    heights.set_extras(extras)
    owners: list[tuple[int, int]] = []
    for index in range(count):
        assert heights.top(index) == len(owners)
        assert heights.height(index) == CARD_HEIGHT + extras.get(index, 0)
        owners += [(index, row) for row in range(heights.height(index))]
    assert heights.total(count) == len(owners)
    for y, owner in enumerate(owners):
        assert heights.locate(y) == owner

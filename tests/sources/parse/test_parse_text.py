"""The text cleaning of parsed fields: the sanitiser's results, limits, display forms."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from feedtui.sources.parse import text as parse_text
from feedtui.text.latex import latex_to_unicode
from feedtui.text.sanitize import clean_block, clean_line

# Text made of what the sanitiser cares about, mixed with ordinary characters.
_SPECIAL = list(
    " \n\n\t\r\x0b\x0c\x1b\x07\x00\x7f\x85\x9b\x9d\xa0\u2003\u3000\u2028\u2029\u200b\u200d\u202e\u2066\u061c\ufeff"
    "\U000e0041\u0300\u0301\u0302\u0308\u20dd<>&;#/!?pbra"
)
TEXT = st.text(st.one_of(st.sampled_from(_SPECIAL), st.characters(blacklist_categories=("Cs",))), max_size=60)
HTML_BITS = st.lists(
    st.one_of(
        TEXT, st.sampled_from(["<p>", "</p>", "<br>", "<b>", "&amp;", "&#27;", "&lt;", "<script>x</script>", "&#x301;"])
    ),
    max_size=8,
).map("".join)


def read_c1_as_windows_1252(text: str) -> str:
    def one(char: str) -> str:
        if 0x80 <= ord(char) <= 0x9F:
            try:
                return bytes([ord(char)]).decode("cp1252")
            except UnicodeDecodeError:
                return char
        return char

    return "".join(one(c) for c in text)


@settings(max_examples=1500, deadline=None)
@given(st.one_of(TEXT, HTML_BITS), st.booleans())
def test_fold_line_is_clean_line(text: str, html: bool):
    expected = clean_line(read_c1_as_windows_1252(text), html_allowed=html)
    assert parse_text.fold_line(text, html=html) == expected


@settings(max_examples=1500, deadline=None)
@given(st.one_of(TEXT, HTML_BITS), st.booleans())
def test_fold_block_is_clean_block(text: str, html: bool):
    expected = clean_block(read_c1_as_windows_1252(text), html_allowed=html)
    assert parse_text.fold_block(text, html=html) == expected


@settings(max_examples=500, deadline=None)
@given(st.one_of(TEXT, HTML_BITS), st.integers(1, 80), st.booleans())
def test_line_is_the_folded_line_cut_to_the_limit(text: str, limit: int, html: bool):
    # Raw text over eight times the limit is cut before cleaning (see the next test); not here.
    assume(len(text) <= 8 * limit)
    assert parse_text.line(text, limit, html=html) == parse_text.cut(parse_text.fold_line(text, html=html), limit)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("  Hard wrapped\nabstract  text\n", "Hard wrapped abstract text"),
        ("One.\n\n  Two.\n \nThree.", "One.\n\nTwo.\n\nThree."),
        ("e" + "\u0301" * 5 + "t\u0301\u0301\u0301", "e\u0301\u0301t\u0301\u0301"),
        ("a\u200bb\u202ec\x1b[31md", "abcd"),
        ("\u201cquotes\u201d \u2013 \u00e9\u00e8", "\u201cquotes\u201d \u2013 \u00e9\u00e8"),
    ],
)
def test_block_examples(text: str, expected: str):
    assert parse_text.block(text, 1000) == expected


@pytest.mark.parametrize(
    "text",
    [
        "Robots at the bench \U0001f916\U0001f469\u200d\U0001f52c",  # woman scientist: woman, ZWJ, microscope
        "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645 \u0915\u094d\u200d\u0937",  # Persian ZWNJ, Devanagari ZWJ
        "Field notes \U0001f3f4\U000e0067\U000e0062\U000e0077\U000e006c\U000e0073\U000e007f",  # the flag of Wales
    ],
)
def test_joiners_and_flag_tags_survive_parsing_and_display(text: str):
    assert parse_text.line(text, parse_text.MAX_TITLE) == text
    assert parse_text.line(text, parse_text.MAX_TITLE, html=True) == text
    assert parse_text.block(text, parse_text.MAX_ABSTRACT) == text
    assert parse_text.title_display(text) == text


def test_c1_code_points_are_read_as_windows_1252():
    assert (
        parse_text.line("\x93quoted\x94 \x96 dash \x80 \x81gone", 100) == "\u201cquoted\u201d \u2013 dash \u20ac gone"
    )


def test_markup_is_removed_only_where_html_is_allowed():
    assert parse_text.line("<b>x</b> &amp; y", 100, html=True) == "x & y"
    assert parse_text.line("<b>x</b> &amp; y", 100) == "<b>x</b> &amp; y"
    assert parse_text.block("$a<b$ and $c>d$", 100) == "$a<b$ and $c>d$"


def test_limits_cut_with_an_ellipsis_inside_the_limit():
    assert parse_text.line("word " * 10, 12) == "word word w…"
    assert parse_text.line("exactly12chr", 12) == "exactly12chr"
    assert parse_text.block("x" * 50_000, 20_000) == "x" * 19_999 + "…"
    assert parse_text.cut("abc  def", 6) == "abc…"


def test_huge_raw_text_is_bounded_before_cleaning():
    raw = "<p>" + "a" * 1_000_000
    assert parse_text.block(raw, 100, html=True) == "a" * 99 + "…"


def test_display_forms_render_latex_and_stay_clean():
    title = "Speed-up of $5.2\\times$ in $O(n^2)$"
    assert parse_text.title_display(title) == clean_line(latex_to_unicode(title), html_allowed=False)
    assert parse_text.abstract_display("") == ""
    assert parse_text.title_display("") == ""


def test_entries_phrase():
    assert parse_text.entries(1) == "1 entry"
    assert parse_text.entries(3) == "3 entries"

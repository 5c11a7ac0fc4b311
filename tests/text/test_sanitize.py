"""Sanitising untrusted feed text: escapes, controls, invisibles, HTML."""

from __future__ import annotations

import re
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from feedtui.text.sanitize import (
    MAX_COMBINING,
    clean_block,
    clean_line,
    html_to_text,
    looks_like_html,
    one_line,
    strip_controls,
)


@pytest.mark.parametrize(("source", "expected"), [
    ("before\x1b[2Jafter", "beforeafter"),
    ("\x1b[1;31mred\x1b[0m text", "red text"),
    ("a\x1b[?1049hb", "ab"),
    ("8-bit \x9b2Jcsi", "8-bit csi"),
    ("copy\x1b]52;c;ZGF0YQ==\x07paste", "copypaste"),
    ("\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\ text", "link text"),
    ("title\x1b]0;pwned\x9cend", "titleend"),
    ("x\x1bPq#0;2;0;0;0\x1b\\y", "xy"),
    ("x\x1b7y\x1b(Bz", "xyz"),
    ("trailing escape\x1b", "trailing escape"),
], ids=["clear-screen", "colours", "alternate-screen", "8-bit-csi", "osc-52-clipboard",
        "osc-8-hyperlink", "osc-title-st", "dcs", "two-character", "trailing-esc"])
def test_escape_sequences_are_removed_whole(source: str, expected: str) -> None:
    assert strip_controls(source) == expected


def test_an_unterminated_string_sequence_swallows_nothing_but_its_introducer() -> None:
    # A terminal would eat the rest; we keep the (now inert) text instead.
    assert strip_controls("\x1b]0;title\nthe whole abstract") == "0;title\nthe whole abstract"
    assert strip_controls("\x1bPpayload\nmore") == "payload\nmore"


@pytest.mark.parametrize(("source", "expected"), [
    ("a\x00b\x07c\x08d", "abcd"),
    ("a\x7fb", "ab"),
    ("a\x80b\x9fc\x90d", "abcd"),
    ("tab\there", "tab here"),
    ("crlf\r\nline", "crlf\nline"),
    ("cr\rline", "cr\nline"),
    ("nel\x85and\u2028separators\u2029", "nel\nand\nseparators\n"),
    ("vt\x0bff\x0c", "vt\nff\n"),
])
def test_c0_and_c1_controls(source: str, expected: str) -> None:
    assert strip_controls(source) == expected


@pytest.mark.parametrize(("source", "expected"), [
    ("abc\u202edef", "abcdef"),
    ("\u202aembedded\u202c \u202bboth\u202c", "embedded both"),
    ("\u2066isolated\u2069 \u2067rtl\u2069 \u2068first\u2069", "isolated rtl first"),
    ("marks\u200e\u200f\u061c", "marks"),
    ("zero\u200bwidth\u200c\u200d\u2060\ufeff", "zerowidth"),
    ("ascii\u200djoined\u200c", "asciijoined"),
    ("soft\xadhyphen", "softhyphen"),
    ("tag\U000e0041\U000e007f", "tag"),
    ("\U0001f3f4\U000e0041\U000e0042\U000e007f flag of hidden capitals", "\U0001f3f4 flag of hidden capitals"),
    ("\U0001f3f4" + "\U000e0061" * 8 + "\U000e007f too long", "\U0001f3f4 too long"),
    ("\U0001f3f4\U000e0067\U000e0062 unterminated", "\U0001f3f4 unterminated"),
    ("\U000e0067\U000e0062\U000e007f no flag", " no flag"),
    ("invisible\u2062times", "invisibletimes"),
    ("lone\ud800surrogate", "lonesurrogate"),
])
def test_bidi_and_zero_width_characters(source: str, expected: str) -> None:
    assert strip_controls(source) == expected


WOMAN_SCIENTIST = "\U0001f469\u200d\U0001f52c"
ENGLAND = "\U0001f3f4\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f"


@pytest.mark.parametrize("text", [
    f"Robots in the lab \U0001f916{WOMAN_SCIENTIST}",
    "\u2764\ufe0f\u200d\U0001f525 and \U0001f468\U0001f3fd\u200d\U0001f4bb",
    "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645",   # Persian: mi-khaham, ZWNJ after the prefix
    "\u0915\u094d\u200d\u0937",                     # Devanagari half form: ka, virama, ZWJ, ssa
    "\u0915\u093c\u094d\u200d\u0937",              # ... with a nukta too: two marks, then ZWJ
    f"{ENGLAND} and \U0001f3f4\U000e0075\U000e0073\U000e0063\U000e0061\U000e007f flags",
])
def test_joiners_and_flag_tags_are_kept(text: str) -> None:
    assert strip_controls(text) == text
    assert clean_line(text) == text
    assert clean_block(f"<p>{text}</p>") == text


def test_joiners_with_nothing_to_join_go() -> None:
    assert strip_controls("\u200d\U0001f469\u200d") == "\U0001f469"
    assert strip_controls("\U0001f469\u200d\u200c\u200d\U0001f52c") == WOMAN_SCIENTIST
    # A joiner does not survive the invisible character it was next to.
    assert strip_controls("\U0001f469\u200d\u202e\U0001f52c") == WOMAN_SCIENTIST
    assert strip_controls("\U0001f469\u202e\u200dx") == "\U0001f469x"
    assert clean_line("\U0001f469\u200d\u3000\U0001f52c") == "\U0001f469 \U0001f52c"
    assert strip_controls("\u0915\u0301\u0301\u200d\u0301x") == "\u0915\u0301\u0301x"


def test_joiners_cannot_carry_a_combining_flood() -> None:
    assert strip_controls("Z" + "\u0301\u0301\u200d" * 30 + "\u0915") == "Z\u0301\u0301\u200d\u0915"


def test_combining_mark_floods_are_limited() -> None:
    assert strip_controls("Z" + "\u0301" * 50 + "algo") == "Z\u0301\u0301algo"
    # Enclosing marks have combining class 0 but stack all the same.
    assert strip_controls("o" + "\u20dd" * 10) == "o\u20dd\u20dd"
    assert strip_controls("ab\u0301\u0301\u0301\u0301c") == "ab\u0301\u0301c"


@pytest.mark.parametrize("text", [
    "e\u0301te\u0301",        # é decomposed
    "Vie\u0323\u0302t",       # ệ decomposed: two marks
    "Schrödinger, Erdős–Rényi, naïve, “quoted”, ≤ 5×",
    "日本語のテキスト",
    "Привет, мир",
    "क्षत्रिय",
])
def test_ordinary_text_is_kept(text: str) -> None:
    assert strip_controls(text) == text
    assert clean_line(text) == text


def test_clean_ascii_is_returned_equal() -> None:
    text = "A plain abstract, with punctuation (and numbers: 1, 2, 3)."
    assert strip_controls(text) == text
    assert clean_block(text) == text


@pytest.mark.parametrize(("source", "expected"), [
    ("<b>bold</b> and <i>italic</i>", "bold and italic"),
    ("AT&amp;T &lt;tag&gt; caf&eacute; &#233;t&#xe9;", "AT&T <tag> café été"),
    ("<script>alert(1)</script>kept<style>p{}</style>", "kept"),
    ("a<!-- hidden -->b", "ab"),
    ("H<sub>2</sub>O", "H2O"),
    ("<P>Upper</P>", "Upper"),
])
def test_html_to_text(source: str, expected: str) -> None:
    assert html_to_text(source).strip() == expected


@pytest.mark.parametrize("text", [
    "where $k<n$ and $m>2$ holds",
    "if a<b, then b>a",
    "x<y, p<0.05",
    "R&D and Q&A",
    "a < b",
])
def test_text_that_merely_looks_like_markup_is_not_html(text: str) -> None:
    assert not looks_like_html(text)
    assert html_to_text(text) == text
    assert clean_line(text) == text


def test_a_stray_less_than_inside_real_html_survives() -> None:
    source = "<p>where $k<n$ and $m>2$ holds</p><p>next</p>"
    assert clean_block(source) == "where $k<n$ and $m>2$ holds\n\nnext"


def test_entities_cannot_smuggle_controls_in() -> None:
    # html.unescape drops a reference to ESC; the rest is inert text.
    assert clean_line("a&#27;[2Jb &#x202e;c &#8203;d &#x9b;e") == "a[2Jb c d ›e"


def test_clean_line() -> None:
    assert clean_line("  A title\n   wrapped\tover  lines  ") == "A title wrapped over lines"
    assert clean_line("<p>one</p><p>two</p>") == "one two"
    assert clean_line("a<br>b") == "a b"
    assert clean_line(None) == ""
    assert clean_line("") == ""
    assert clean_line("<b>x</b>", html_allowed=False) == "<b>x</b>"


def test_clean_block_keeps_paragraphs_and_unwraps_lines() -> None:
    source = "\n\nFirst paragraph,\nhard wrapped  at\n80 columns.\n\n \n\nSecond\tone.\n\n"
    assert clean_block(source) == "First paragraph, hard wrapped at 80 columns.\n\nSecond one."
    assert clean_block("<p>one</p><p>two <br>lines</p>") == "one\n\ntwo lines"
    assert clean_block("one\r\n\r\ntwo") == "one\n\ntwo"
    assert clean_block(None) == ""
    assert clean_block("<b>x</b>", html_allowed=False) == "<b>x</b>"


def test_one_line() -> None:
    assert one_line("one\n\ntwo  three") == "one two three"


DANGEROUS = st.sampled_from([
    "\x1b", "[", "]", "2J", ";", "\x07", "\\", "\x9b", "\x9c", "\x9d", "\x90", "\x00", "\x7f",
    "\u202e", "\u2066", "\u200b", "\u200c", "\u200d", "\ufeff", "\xad", "\ud800", "\U000e0041",
    "\U0001f3f4", "\U000e0067", "\U000e007f", "\U0001f469",
    "\u0301", "\u20dd", "e", "<p>", "</p>", "<b>", "<br>", "<script>", "&amp;", "&#27;",
    "&#x202e;", "&lt;", "<", ">", "&", "\n", "\r", "\t", "\x85", "\u2028", " ", "a", "é",
])
ANY_TEXT = st.one_of(st.text(), st.lists(DANGEROUS, max_size=50).map("".join))


JOINERS = "\u200c\u200d"
FLAG_SEQUENCE = re.compile("\U0001f3f4[\U000e0030-\U000e0039\U000e0061-\U000e007a]{2,7}\U000e007f")


def _longest_mark_run(text: str) -> int:
    longest = run = 0
    for ch in text:
        if ch in JOINERS:
            continue
        run = run + 1 if unicodedata.category(ch) in ("Mn", "Me") else 0
        longest = max(longest, run)
    return longest


def _joinable(ch: str) -> bool:
    return not ch.isascii() and not ch.isspace()


def _is_safe(text: str, *, newlines: bool) -> bool:
    """No controls; format characters only as a flag's tags or a lone joiner between non-ASCII."""
    text = FLAG_SEQUENCE.sub("\U0001f3f4", text)
    for i, ch in enumerate(text):
        if ch in JOINERS:
            if not (0 < i < len(text) - 1) or not _joinable(text[i - 1]) or not _joinable(text[i + 1]):
                return False
            if text[i + 1] in JOINERS:
                return False
            continue
        category = unicodedata.category(ch)
        if ch == "\n" and newlines:
            continue
        if category in ("Cc", "Cf", "Cs"):
            return False
    return _longest_mark_run(text) <= MAX_COMBINING


@settings(max_examples=500, deadline=None)
@given(ANY_TEXT)
def test_clean_line_output_is_always_safe(source: str) -> None:
    assert _is_safe(clean_line(source), newlines=False)


@settings(max_examples=500, deadline=None)
@given(ANY_TEXT)
def test_clean_block_output_is_always_safe(source: str) -> None:
    result = clean_block(source)
    assert _is_safe(result, newlines=True)
    assert "\n\n\n" not in result


@settings(max_examples=300, deadline=None)
@given(ANY_TEXT)
def test_strip_controls_output_is_always_safe(source: str) -> None:
    assert _is_safe(strip_controls(source), newlines=True)

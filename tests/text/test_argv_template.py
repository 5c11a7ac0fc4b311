"""A command's argument list: placeholders checked when read, filled in as
whole items, never split, never an option."""

from __future__ import annotations

import pytest

from feedtui.text.argv_template import MissingField, OptionLike, expand, fields_used, template_problem


def test_values_go_into_their_own_items_whole_and_braces_can_be_written():
    argv = ["tool", "--doi={doi}", "{id}", "{{literal}}", "{url}"]
    values = {"doi": "10.1234/a b;rm -rf", "id": "2611.00001", "url": "https://arxiv.org/abs/2611.00001v1"}
    assert template_problem(argv) == ""
    assert fields_used(argv) == ["doi", "id", "url"]
    assert expand(argv, values) == [
        "tool", "--doi=10.1234/a b;rm -rf", "2611.00001", "{literal}", "https://arxiv.org/abs/2611.00001v1"
    ]


@pytest.mark.parametrize(
    ("argv", "problem"),
    [
        ([], "an empty list: it needs at least the program to run"),
        (["tool", "{title}"], "item 2: unknown placeholder {title} (placeholders: {id}, {url}, {pdf_url}, {doi}, {bibtex_file})"),
        (["tool", "{id"], "item 2: a '{' at character 1 is never closed (write '{{' for a brace)"),
        (["tool", "a}"], "item 2: a lone '}' at character 2 (write '}}' for a brace)"),
        (["{url}"], "the program (the first item) cannot be a placeholder"),
        (["", "x"], "the program (the first item) is empty"),
    ],
)
def test_a_bad_list_is_named(argv, problem):
    assert template_problem(argv) == problem


def test_a_missing_value_and_one_that_would_be_an_option_are_refused():
    with pytest.raises(MissingField) as missing:
        expand(["tool", "{doi}"], {"id": "2611.00001"})
    assert missing.value.name == "doi"
    with pytest.raises(OptionLike):
        expand(["tool", "{id}"], {"id": "-rf"})
    # After fixed text a value is no option: the item starts with the text.
    assert expand(["tool", "--id={id}"], {"id": "-x"}) == ["tool", "--id=-x"]

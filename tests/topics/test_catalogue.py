from __future__ import annotations

import re

import pytest

from feedtui.topics.catalogue import CatalogueError, load_catalogue, parse_catalogue
from feedtui.topics.query import parse_query
from feedtui.topics.registry import compile_topic

REQUIRED = [
    "Heterogeneous Computing",
    "LLM Inference",
    "Mixture-of-Experts Models",
    "Edge Computing",
    "Edge Inference",
    "Federated Learning",
    "Distributed Training",
    "Pipeline Parallelism",
    "Disaggregated LLM Serving",
    "KV-Cache Management",
    "Compute-in-Memory",
    "FPGA Acceleration",
    "Spiking Neural Networks",
    "Visual SLAM",
    "High-Performance Computing",
    "Reinforcement Learning",
]

# arXiv archives; archives with subject classes take `archive.CLASS`.
_ARCHIVES = (
    "cs|math|stat|econ|eess|q-bio|q-fin|physics|astro-ph|cond-mat|nlin"
    "|gr-qc|hep-ex|hep-lat|hep-ph|hep-th|math-ph|nucl-ex|nucl-th|quant-ph"
)
ARXIV_CATEGORY = re.compile(rf"^(?:{_ARCHIVES})(?:\.(?:[A-Z]{{2}}|[a-z]+(?:-[a-z]+)?))?$")
CAT_TERM = re.compile(r"\bcat:([^\s()]+)")


def test_catalogue_has_at_least_forty_topics():
    assert len(load_catalogue()) >= 40


def test_required_topics_present():
    names = {topic.name for topic in load_catalogue()}
    assert [name for name in REQUIRED if name not in names] == []


def test_names_unique_ignoring_case():
    names = [topic.name.casefold() for topic in load_catalogue()]
    assert len(names) == len(set(names))


def test_every_topic_has_description_definition_and_origin():
    for topic in load_catalogue():
        assert topic.description.strip(), topic.name
        assert topic.description.endswith("."), topic.name
        assert not topic.definition.is_empty, topic.name
        assert topic.origin == "catalogue"


def test_catalogue_spans_the_fields():
    archives = set()
    for topic in load_catalogue():
        cats = list(topic.definition.categories) + CAT_TERM.findall(topic.definition.query)
        archives.update(cat.split(".")[0] for cat in cats)
    for archive in ("cs", "math", "stat", "econ", "q-bio", "quant-ph", "gr-qc", "cond-mat", "physics"):
        assert archive in archives


def test_every_category_looks_like_an_arxiv_category():
    for topic in load_catalogue():
        cats = list(topic.definition.categories) + CAT_TERM.findall(topic.definition.query)
        for cat in cats:
            assert ARXIV_CATEGORY.match(cat), f"{topic.name}: {cat!r}"


def test_queries_are_short_and_balanced():
    for topic in load_catalogue():
        query = topic.definition.query
        assert len(query) <= 400, topic.name
        assert query.count("(") == query.count(")"), topic.name
        assert query.count('"') % 2 == 0, topic.name


def test_load_catalogue_returns_fresh_lists_of_the_same_topics():
    first, second = load_catalogue(), load_catalogue()
    assert first == second
    first.clear()
    assert load_catalogue() == second


def test_every_topic_compiles_without_error():
    for topic in load_catalogue():
        entry = compile_topic(topic)
        assert entry.error == "", entry.error
        assert entry.api_query is not None, topic.name


@pytest.mark.parametrize("topic", load_catalogue(), ids=lambda topic: topic.name)
def test_every_query_round_trips_through_the_api_form(topic):
    """parse -> to_api -> parse gives the same tree, for the topic's own query
    and for what is sent to fetch it (categories included)."""
    for text in (topic.definition.query, compile_topic(topic).api_query.to_api()):
        if not text:
            continue
        tree = parse_query(text)
        assert parse_query(tree.to_api()) == tree
        assert parse_query(str(tree)) == tree


def test_category_only_topic_parses():
    topics = parse_catalogue(
        '[[topic]]\nname = "Number Theory"\ndescription = "All of math.NT."\ncategories = ["math.NT"]\n'
    )
    assert topics[0].definition.categories == ("math.NT",)
    assert topics[0].definition.query == ""


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[[topic]]\nname = "A"\ndescription = "x."\nquery = "ti:a"\n'
         '[[topic]]\nname = "a"\ndescription = "y."\nquery = "ti:b"\n',
         "topic 'a' is defined more than once"),
        ('[[topic]]\nname = "Empty"\ndescription = "x."\n', "topic 'Empty' has no definition"),
        ('[[topic]]\nname = "Blank"\ndescription = "x."\nquery = "  "\n', "topic 'Blank' has no definition"),
        ('[[topic]]\nname = "Quiet"\nquery = "ti:a"\n', "topic 'Quiet' has no description"),
        ('[[topic]]\ndescription = "x."\nquery = "ti:a"\n', "topic #1 has no name"),
        ('[[topic]]\nname = "Typo"\ndescription = "x."\nqeury = "ti:a"\n', "topic 'Typo' has unknown keys: qeury"),
        ('[[topic]]\nname = "Cats"\ndescription = "x."\ncategories = "cs.DC"\n',
         "topic 'Cats': categories must be a list"),
        ('[[topic]]\nname = "Q"\ndescription = "x."\nquery = 3\n', "topic 'Q': query must be a string"),
        ('title = "no topics"\n', "no [[topic]] entries"),
        ('[[topic]\nname = "A"\n', "not valid TOML"),
    ],
)
def test_malformed_catalogue_names_the_problem(text, message):
    with pytest.raises(CatalogueError, match=re.escape(message)):
        parse_catalogue(text, source="test.toml")


def test_the_catalogue_is_read_from_a_zipped_package_too(tmp_path):
    """Beside the module on disk, else through importlib.resources: a package
    imported from a zip has no file to read."""
    import os
    import subprocess
    import sys
    import zipfile
    from pathlib import Path

    import feedtui

    package = Path(feedtui.__file__).parent
    archive = tmp_path / "feedtui.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        for path in package.rglob("*"):
            if path.suffix in (".py", ".toml"):
                zipped.write(path, path.relative_to(package.parent).as_posix())
    script = (
        "from feedtui.topics import catalogue\n"
        "assert '.zip' in catalogue.__file__, catalogue.__file__\n"
        "print(len(catalogue.load_catalogue()))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(archive)}
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) == len(load_catalogue())

"""The config file: every key, every kind of mistake, the messages, the defaults."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from feedtui.config import (
    ENV_API_URL,
    ENV_CONFIG,
    ENV_DATA_DIR,
    ENV_RSS_URL,
    OPTIONS,
    Config,
    config_path,
    data_dir,
    default_config_text,
    default_value,
    load_config,
)
from feedtui.settings import Settings

# A value of each option's kind that differs from its default and passes its check.
GOOD_VALUES = {
    "general.window_weeks": 8,
    "general.refresh_age_hours": 0.5,
    "general.auto_refresh": False,
    "general.open_marks_read": False,
    "general.cache_limit": 5000,
    "general.browser": "firefox --new-tab {url}",
    "general.theme": "nord",
    "general.default_sort": "trending",
    "general.date_format": "%Y-%m-%d",
    "general.command_timeout": 5.0,
    "general.hide": "ti:survey",
    "general.density": "compact",
    "arxiv.api_url": "http://127.0.0.1:8080/api/query",
    "arxiv.rss_url": "http://127.0.0.1:8080/rss/",
    "arxiv.min_interval": 0.25,
    "arxiv.page_size": 50,
    "arxiv.max_results": 300,
    "arxiv.max_query_length": 2000,
    "fetch.timeout": 12.5,
    "fetch.connect_timeout": 2.0,
    "fetch.read_timeout": 4.0,
    "fetch.max_bytes": 1_000_000,
    "fetch.concurrency": 4,
    "fetch.per_host": 2,
    "fetch.retries": 0,
    "fetch.max_redirects": 1,
    "fetch.store_batch": 50,
    "zotero.connector_url": "http://127.0.0.1:23120",
}


def toml(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return repr(value)


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return path


def setting(settings: Settings, path: str):
    target = settings
    for part in path.split("."):
        target = getattr(target, part)
    return target


def messages(config: Config) -> list[str]:
    return [str(p) for p in config.problems]


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch):
    for variable in (ENV_API_URL, ENV_RSS_URL, ENV_CONFIG, ENV_DATA_DIR):
        monkeypatch.delenv(variable, raising=False)


def test_a_missing_file_is_every_default(tmp_path):
    config = load_config(tmp_path / "nowhere.toml")
    assert config.settings == Settings()
    assert config.problems == []
    assert config.topics == []


def test_the_good_values_table_covers_every_option():
    assert set(GOOD_VALUES) == {o.name for o in OPTIONS}
    for option in OPTIONS:
        assert GOOD_VALUES[option.name] != default_value(option), option.name


def test_every_option_is_read_into_its_setting(tmp_path):
    text = ""
    for section in dict.fromkeys(o.section for o in OPTIONS):
        text += f"[{section}]\n"
        for option in (o for o in OPTIONS if o.section == section):
            text += f"{option.key} = {toml(GOOD_VALUES[option.name])}\n"
    config = load_config(write(tmp_path, text))
    assert config.problems == []
    for option in OPTIONS:
        assert setting(config.settings, option.path) == GOOD_VALUES[option.name], option.name
        assert type(setting(config.settings, option.path)) is option.kind


def test_a_whole_number_is_accepted_where_a_fraction_may_go(tmp_path):
    config = load_config(write(tmp_path, "[arxiv]\nmin_interval = 3\n"))
    assert config.problems == []
    assert config.settings.arxiv.min_interval == 3.0
    assert isinstance(config.settings.arxiv.min_interval, float)


@pytest.mark.parametrize(
    ("section", "key", "written", "expected"),
    [
        ("general", "auto_refresh", '"yes"', "expected true or false"),
        ("general", "open_marks_read", "1", "expected true or false"),
        ("general", "window_weeks", '"16"', "expected a number, without quotes"),
        ("general", "window_weeks", "true", "expected a number"),
        ("general", "window_weeks", "2.5", "expected a whole number"),
        ("general", "window_weeks", "0", "expected a number from 1 to 2000"),
        ("general", "window_weeks", "100000000000", "expected a number from 1 to 2000"),
        ("general", "cache_limit", "-5", "expected a number of 1 or more"),
        ("general", "refresh_age_hours", "nan", "expected a finite number"),
        ("general", "refresh_age_hours", "-1", "expected a number from 0 to 100000"),
        ("general", "theme", "3", "expected a string in quotes"),
        ("general", "default_sort", '"newest"', "expected one of 'followed', 'name', 'unread', 'trending'"),
        ("general", "date_format", '"today"', "has no % directive"),
        ("general", "date_format", '"%Q %Y"', "%Q is not a strftime directive"),
        ("general", "date_format", '"%5Q %Y"', "%5Q is not a strftime directive"),
        ("general", "date_format", '"%-_Q %Y"', "%-_Q is not a strftime directive"),
        ("general", "date_format", '"%5000d"', "makes every date empty"),
        ("general", "date_format", '"%%"', "nothing in this one changes with the date"),
        ("general", "date_format", '"%%d %Z"', "nothing in this one changes with the date"),
        ("general", "date_format", '"%+"', "%+ is not a strftime directive"),
        ("general", "date_format", '"%d %!"', "%! is not a strftime directive"),
        ("general", "date_format", '"%Y 5%"', "% is not a strftime directive"),
        ("general", "date_format", '"%d\\u001b[31m"', "text without control characters"),
        ("general", "browser", "\"firefox 'unclosed\"", "a command line as a shell would split it"),
        ("arxiv", "api_url", '"ftp://example.org/api"', "expected an http:// or https:// URL"),
        ("arxiv", "min_interval", "inf", "expected a finite number"),
        ("arxiv", "page_size", "5000", "expected a number from 1 to 2000"),
        ("arxiv", "max_query_length", "10", "expected a number of 200 or more"),
        ("fetch", "timeout", "0", "expected a number of 0.001 or more"),
        ("fetch", "retries", "-1", "expected a number from 0 to 100"),
        ("fetch", "concurrency", "[4]", "expected a number"),
    ],
)
def test_a_bad_value_names_file_line_and_what_was_expected_and_keeps_the_default(tmp_path, section, key, written, expected):
    # Good keys around the bad one, in every section: it spoils nothing else.
    good = {
        "general": ("cache_limit", 7) if key != "cache_limit" else ("theme", '"nord"'),
        "arxiv": ("max_results", 9),
        "fetch": ("max_redirects", 2),
    }
    text = "# my settings\n"
    for name, (good_key, good_value) in good.items():
        text += f"[{name}]\n{good_key} = {good_value}\n"
        if name == section:
            text += f"{key} = {written}\n"
    line = text.splitlines().index(f"{key} = {written}") + 1
    path = write(tmp_path, text)
    config = load_config(path)
    assert len(config.problems) == 1, messages(config)
    message = messages(config)[0]
    assert message.startswith(f"{path}:{line}: {section}.{key} = ")
    assert expected in message
    assert message.endswith("; using the default")
    option = next(o for o in OPTIONS if (o.section, o.key) == (section, key))
    assert setting(config.settings, option.path) == default_value(option)
    assert (config.settings.arxiv.max_results, config.settings.fetch.max_redirects) == (9, 2)
    assert config.settings.cache_limit == 7 or config.settings.theme == "nord"


@pytest.mark.parametrize("written", ["%Y-%m-%d (%a)", "%b %d, %Y", "%-d %b", "%d %b %Y, %H:%M %Z", "100%% %Y"])
def test_date_formats_that_show_the_date_pass(tmp_path, written):
    config = load_config(write(tmp_path, f'[general]\ndate_format = "{written}"\n'))
    assert config.problems == []
    assert config.settings.date_format == written


def test_an_unknown_key_is_named_with_a_suggestion(tmp_path):
    path = write(tmp_path, "[general]\ncache_limt = 10\ntheme = \"nord\"\n")
    config = load_config(path)
    assert messages(config) == [
        f"{path}:2: unknown key 'cache_limt' in [general] — did you mean 'cache_limit'? (keys: "
        + ", ".join(o.key for o in OPTIONS if o.section == "general")
        + ")"
    ]
    assert config.settings.cache_limit == Settings().cache_limit
    assert config.settings.theme == "nord"


def test_a_key_in_the_wrong_section_says_where_it_belongs(tmp_path):
    path = write(tmp_path, "[arxiv]\n\ntimeout = 5\n")
    config = load_config(path)
    assert messages(config) == [f"{path}:3: 'timeout' belongs under [fetch], not [arxiv]"]
    assert config.settings.fetch.timeout == Settings().fetch.timeout


def test_a_key_above_every_section_says_which_section(tmp_path):
    path = write(tmp_path, '# top\ntheme = "nord"\n[general]\nwindow_weeks = 4\n')
    config = load_config(path)
    assert messages(config) == [f'{path}:2: theme = "nord" belongs under [general]: move it below that header']
    assert config.settings.theme == Settings().theme
    assert config.settings.window_weeks == 4


def test_an_unknown_section_is_named(tmp_path):
    path = write(tmp_path, "[general]\nwindow_weeks = 4\n\n[genral]\ntheme = \"nord\"\n")
    config = load_config(path)
    assert messages(config) == [
        f"{path}:4: unknown section [genral] — did you mean 'general'? (sections: general, arxiv, fetch, zotero, keymap, commands, topic)"
    ]
    assert config.settings.theme == Settings().theme
    assert config.settings.window_weeks == 4


def test_a_section_that_is_not_a_table(tmp_path):
    path = write(tmp_path, 'general = "x"\n')
    config = load_config(path)
    assert messages(config) == [f"{path}:1: general must be a table: write [general] on a line of its own, then its keys"]


def test_invalid_toml_points_at_its_line_and_everything_is_default(tmp_path):
    path = write(tmp_path, '[general]\nwindow_weeks = 4\ntheme = "nord\n')
    config = load_config(path)
    assert len(config.problems) == 1
    message = messages(config)[0]
    assert message.startswith(f"{path}:3: not valid TOML: ")
    assert message.endswith("every setting is at its default until this is fixed")
    assert config.settings == Settings()


def test_a_file_that_is_not_utf8(tmp_path):
    path = tmp_path / "config.toml"
    path.write_bytes(b'[general]\ntheme = "caf\xe9"\n')
    config = load_config(path)
    assert messages(config) == [f"{path}: is not UTF-8 text; using the defaults (save it as UTF-8)"]
    assert config.settings == Settings()


def test_a_directory_where_the_file_should_be(tmp_path):
    config = load_config(tmp_path)
    assert messages(config) == [f"{tmp_path}: is a directory, not a config file; using the defaults"]


# -- the keymap ------------------------------------------------------------------


def test_keymap_ids_may_be_quoted_dotted_or_a_subtable(tmp_path):
    path = write(
        tmp_path,
        '[keymap]\n"paper.star" = "x"\npaper.toggle_read = "ctrl+r, R"\n\n[keymap.topic]\nfollow = "F"\n',
    )
    config = load_config(path)
    assert config.problems == []
    assert config.settings.keymap == {"paper.star": "x", "paper.toggle_read": "ctrl+r,R", "topic.follow": "F"}
    assert config.lines["keymap.paper.star"] == 2
    assert config.lines["keymap.paper.toggle_read"] == 3
    assert config.lines["keymap.topic.follow"] == 6


@pytest.mark.parametrize("written", ['""', '"ctrl+ x"', '"x,,y"', "3", "true"])
def test_keys_of_the_wrong_shape_keep_the_default(tmp_path, written):
    path = write(tmp_path, f'[keymap]\npaper.star = "x"\npaper.open = {written}\n')
    config = load_config(path)
    assert [p.line for p in config.problems] == [3]
    assert messages(config)[0].startswith(f"{path}:3: keymap.paper.open = ")
    assert "expected keys like" in messages(config)[0]
    assert config.settings.keymap == {"paper.star": "x"}


# -- topics ----------------------------------------------------------------------


def test_config_topics_are_read(tmp_path):
    path = write(
        tmp_path,
        '[[topic]]\nname = " Sparse Attention "\ndescription = "Skipping."\nquery = \'abs:"sparse attention"\'\n\n'
        '[[topic]]\nname = "Systems"\ncategories = "cs.DC, cs.AR"\n\n'
        '[[topic]]\nname = "Lab"\nfeeds = ["https://example.org/a.xml"]\nquery = "abs:robot*"\n',
    )
    config = load_config(path)
    assert config.problems == []
    assert [(t.name, t.description, t.origin) for t in config.topics] == [
        ("Sparse Attention", "Skipping.", "config"),
        ("Systems", "", "config"),
        ("Lab", "", "config"),
    ]
    assert config.topics[0].definition.query == 'abs:"sparse attention"'
    assert config.topics[1].definition.categories == ("cs.DC", "cs.AR")
    assert config.topics[2].definition.feeds == ("https://example.org/a.xml",)


@pytest.mark.parametrize(
    ("body", "line", "expected"),
    [
        ('description = "no name"\nquery = "ti:x"', 4, "topic #2 needs a name"),
        ('name = "B"', 4, "topic 'B' needs a query, categories or feeds; the topic is left out"),
        ('name = "B"\nquery = 5', 6, "topic 'B': query must be a string in quotes"),
        ('name = "B"\ncategories = [1, 2]', 6, "categories must be a list of strings"),
        ('name = "B"\ncategories = ["cs DC"]', 6, "\"cs DC\" is not valid in categories"),
        ('name = "B"\nfeeds = ["file:///etc/passwd"]', 6, "is not valid in feeds"),
        ('name = "B"\nfeeds = ["http://127.0.0.1:99999/x"]', 6, "is not valid in feeds: it has an invalid port (a port is a number from 1 to 65535)"),
        ('name = "B"\nfeeds = ["http://[::1/x"]', 6, "is not valid in feeds: it is malformed (a host in [ ] must be an IPv6 address"),
        ('name = "B"\nfeeds = ["https://:443/x"]', 6, "is not valid in feeds: it names no host"),
    ],
)
def test_a_bad_topic_is_left_out_with_its_line(tmp_path, body, line, expected):
    path = write(tmp_path, f'[[topic]]\nname = "A"\nquery = "ti:a"\n[[topic]]\n{body}\n')
    config = load_config(path)
    assert len(config.problems) == 1, messages(config)
    assert messages(config)[0].startswith(f"{path}:{line}: ")
    assert expected in messages(config)[0]
    assert [t.name for t in config.topics] == ["A"]


def test_a_topic_with_a_bad_query_is_kept_with_its_error_and_line(tmp_path):
    """docs/queries.md says so: it was left out, and its name then stood for
    whichever topic it began ("Robot" for "Robot Vision")."""
    path = write(tmp_path, '[[topic]]\nname = "A"\nquery = "ti:a"\n[[topic]]\nname = "B"\nquery = "ti:(gpu"\n')
    config = load_config(path)
    assert messages(config) == [
        f"{path}:6: topic 'B': bad query: unbalanced parenthesis at column 4 (this ( is never closed); "
        "the topic tags nothing until it is fixed"
    ]
    assert [(t.name, t.definition.query) for t in config.topics] == [("A", "ti:a"), ("B", "ti:(gpu")]
    assert config.left_out == {}


def test_a_misspelt_name_key_is_named_with_a_suggestion(tmp_path):
    """`nam = "…"` was told only "topic #2 needs a name", where a misspelt
    `querry` is named with a suggestion."""
    path = write(tmp_path, '[[topic]]\nname = "A"\nquery = "ti:a"\n[[topic]]\nnam = "Typo"\nquery = "ti:b"\n')
    config = load_config(path)
    assert sorted(messages(config)) == [
        f'{path}:4: topic #2 needs a name = "…"; it is left out',
        f"{path}:5: topic #2: unknown key 'nam' — did you mean 'name'? (keys: name, description, query, categories, feeds); ignored",
    ]
    assert [t.name for t in config.topics] == ["A"]


def test_feeds_written_as_a_string_is_reported_and_read_as_one_feed(tmp_path):
    """`feeds = "http://…"` passed without a word, split at its commas."""
    path = write(tmp_path, '[[topic]]\nname = "Lab"\nfeeds = "https://example.org/a,b.xml"\n')
    config = load_config(path)
    assert messages(config) == [
        f'{path}:3: topic \'Lab\': feeds is a list, like ["https://example.org/feed.xml"]; '
        '"https://example.org/a,b.xml" is read as its one feed'
    ]
    assert config.topics[0].definition.feeds == ("https://example.org/a,b.xml",)


def test_config_topic_feeds_take_the_scheme_in_any_case(tmp_path):
    path = write(tmp_path, '[[topic]]\nname = "Lab"\nfeeds = ["HTTPS://example.org/A.xml", "Http://b.example.org/"]\n')
    config = load_config(path)
    assert config.problems == []
    assert config.topics[0].definition.feeds == ("https://example.org/A.xml", "http://b.example.org/")


def test_config_topic_names_follow_the_rule_of_every_topic_name(tmp_path):
    """A name repeated but for case, or the reading list's, made a topic the
    app could not tell apart or reach."""
    path = write(
        tmp_path,
        '[[topic]]\nname = "Sparse"\nquery = "ti:a"\n'
        '[[topic]]\nname = "SPARSE"\nquery = "ti:b"\n'
        '[[topic]]\nname = "★ Starred"\nquery = "ti:c"\n',
    )
    config = load_config(path)
    assert [t.name for t in config.topics] == ["Sparse"]
    assert messages(config) == [
        f"{path}:4: topic 'SPARSE': topic 'Sparse' above has this name (case aside); left out",
        f"{path}:8: topic #3: '★ Starred' is the reading list's name; choose another name for a topic; it is left out",
    ]


def test_a_config_topic_replaces_the_catalogue_topic_of_its_name_case_aside(tmp_path):
    from feedtui.core.engine import Engine

    path = write(tmp_path, '[[topic]]\nname = "edge inference"\nquery = "ti:mine"\n')
    engine = Engine(load_config(path), tmp_path / "data")
    names = engine.registry.names()
    assert "edge inference" in names and "Edge Inference" not in names
    assert engine.topic("Edge Inference").topic.definition.query == "ti:mine"
    engine.close()


def test_an_unknown_topic_key_is_ignored_with_a_suggestion(tmp_path):
    path = write(tmp_path, '[[topic]]\nname = "A"\nquery = "ti:a"\ncategory = "cs.DC"\n')
    config = load_config(path)
    assert messages(config) == [
        f"{path}:4: topic 'A': unknown key 'category' — did you mean 'categories'? "
        "(keys: name, description, query, categories, feeds); ignored"
    ]
    assert [t.name for t in config.topics] == ["A"]


def test_topic_written_as_a_single_table(tmp_path):
    path = write(tmp_path, '[topic]\nname = "A"\n')
    assert messages(load_config(path)) == [f"{path}:1: topics are written as [[topic]] tables (two brackets), one per topic"]


# -- the environment and paths -------------------------------------------------------


def test_environment_urls_override_the_file(tmp_path, monkeypatch):
    path = write(tmp_path, '[arxiv]\napi_url = "https://a.example/api"\n')
    monkeypatch.setenv(ENV_API_URL, "http://127.0.0.1:9/api/query")
    monkeypatch.setenv(ENV_RSS_URL, "http://127.0.0.1:9/rss/")
    config = load_config(path)
    assert config.problems == []
    assert config.settings.arxiv.api_url == "http://127.0.0.1:9/api/query"
    assert config.settings.arxiv.rss_url == "http://127.0.0.1:9/rss/"


def test_a_bad_environment_url_is_reported_and_ignored(tmp_path, monkeypatch):
    path = write(tmp_path, '[arxiv]\napi_url = "https://a.example/api"\n')
    monkeypatch.setenv(ENV_API_URL, "localhost:8080")
    config = load_config(path)
    assert messages(config) == [
        "$FEEDTUI_ARXIV_API_URL: 'localhost:8080' is not an http:// or https:// URL; using https://a.example/api"
    ]
    assert config.settings.arxiv.api_url == "https://a.example/api"


def test_config_path_flag_then_environment_then_platform(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    assert config_path() == tmp_path / "xdg" / "feedtui" / "config.toml"
    monkeypatch.setenv(ENV_CONFIG, str(tmp_path / "env.toml"))
    assert config_path() == tmp_path / "env.toml"
    assert config_path(tmp_path / "flag.toml") == tmp_path / "flag.toml"


def test_data_dir_flag_then_environment_then_platform_and_the_demo_apart(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert data_dir() == tmp_path / "xdg" / "feedtui"
    assert data_dir(demo=True) == tmp_path / "xdg" / "feedtui" / "demo"
    monkeypatch.setenv(ENV_DATA_DIR, str(tmp_path / "env"))
    assert data_dir() == tmp_path / "env"
    assert data_dir(tmp_path / "flag", demo=True) == tmp_path / "flag" / "demo"


# -- the commented default file ------------------------------------------------------

SETTING_LINE = re.compile(r"^# ([a-z_]+ = .*)$")


def test_the_default_file_is_valid_toml_and_all_defaults(tmp_path):
    text = default_config_text()
    assert tomllib.loads(text) == {"general": {}, "arxiv": {}, "fetch": {}, "zotero": {}, "keymap": {}}
    config = load_config(write(tmp_path, text))
    assert config.problems == []
    assert config.settings == Settings()


def test_uncommenting_every_setting_gives_the_defaults(tmp_path):
    lines = default_config_text().splitlines()
    uncommented = [SETTING_LINE.sub(r"\1", line) for line in lines]
    settings_written = [line for line in uncommented if re.match(r"^[a-z_]+ = ", line)]
    assert len(settings_written) == len(OPTIONS)
    config = load_config(write(tmp_path, "\n".join(uncommented)))
    assert config.problems == []
    assert config.settings == Settings()
    assert set(config.lines) == {o.name for o in OPTIONS}


def test_every_option_is_documented_in_the_default_file():
    text = default_config_text()
    for option in OPTIONS:
        first_words = " ".join(option.doc.split()[:4])
        assert first_words in text.replace("\n# ", " "), option.name
        assert f"# {option.key} = " in text


def test_the_examples_in_the_default_file_work_when_uncommented(tmp_path):
    examples = [line[4:] for line in default_config_text().splitlines() if line.startswith("#   ")]
    assert examples
    text = "[keymap]\n" + "\n".join(line for line in examples)
    config = load_config(write(tmp_path, text))
    assert config.problems == []
    assert config.settings.keymap == {"paper.toggle_read": "x,ctrl+r"}
    assert config.settings.commands == {"papis": ("papis", "add", "--from", "arxiv", "{id}")}
    assert [t.name for t in config.topics] == ["Sparse Attention", "Lab blog"]


def test_reading_the_config_never_imports_textual(tmp_path):
    """The command-line tools read the config too, and never pay for Textual:
    the checks that need it live in the reader (`feedtui.ui.keymap_check`)."""
    path = write(tmp_path, '[general]\ntheme = "nord"\n[keymap]\npaper.star = "x"\n[[topic]]\nname = "A"\nquery = "ti:a"\n')
    script = (
        "import sys, pathlib, feedtui.config as c\n"
        "config = c.load_config(pathlib.Path(sys.argv[1])); c.default_config_text()\n"
        "assert not config.problems and config.topics and config.settings.keymap, config\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'textual'))\n"
    )
    run = subprocess.run([sys.executable, "-c", script, str(path)], capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "[]"


# -- [commands] ---------------------------------------------------------------------


def test_commands_are_argument_lists_and_a_bad_one_is_left_out_with_its_line(tmp_path):
    path = write(
        tmp_path,
        "[commands]\n"
        'papis = ["papis", "add", "--from", "arxiv", "{id}"]\n'
        'shell = "papis add {id}"\n'
        'title = ["notes", "{title}"]\n'
        'mixed = ["tool", 3]\n'
        '"two.parts" = ["tool"]\n',
    )
    config = load_config(path)
    assert config.settings.commands == {"papis": ("papis", "add", "--from", "arxiv", "{id}")}
    assert [str(p) for p in config.problems] == [
        f"{path}:3: commands.shell: \"papis add {{id}}\" is a string; a command is a list of arguments like "
        '["papis", "add", "--from", "arxiv", "{id}"] (no shell reads it, so quoting and pipes have no meaning); '
        "the command is left out",
        f"{path}:4: commands.title: item 2: unknown placeholder {{title}} (placeholders: {{id}}, {{url}}, "
        "{pdf_url}, {doi}, {bibtex_file}); the command is left out",
        f"{path}:5: commands.mixed: expected a list of strings like [\"papis\", \"add\", \"--from\", \"arxiv\", \"{{id}}\"]; "
        "the command is left out",
        f"{path}:6: commands.two.parts: a command's name is letters, digits, '-' and '_' (at most 40): "
        "it becomes the binding id command.NAME; the command is left out",
    ]


def test_a_command_key_that_clashes_is_refused_and_one_for_no_command_is_unknown(tmp_path):
    from textual.theme import BUILTIN_THEMES

    from feedtui.ui.bindings import keymap_scopes
    from feedtui.ui.keymap_check import check_ui_settings
    from feedtui.ui.user_commands import command_bindings

    path = write(
        tmp_path,
        '[commands]\npapis = ["papis", "{id}"]\nnotes = ["notes", "{url}"]\n'
        '[keymap]\ncommand.papis = "P"\ncommand.notes = "s"\ncommand.gone = "X"\n',
    )
    config = load_config(path)
    scopes = keymap_scopes(command_bindings(config.settings.commands, {}))
    problems = [str(p) for p in check_ui_settings(config, themes=BUILTIN_THEMES, scopes=scopes, list_ids=False)]
    assert config.settings.keymap == {"command.papis": "P"}
    assert (
        f"{path}:6: keymap.command.notes: 's' is also the key of paper.star, detail.star on the same screen, "
        "so command.notes has no key; to give it 's', give paper.star another key in [keymap] too"
    ) in problems
    assert any(p.startswith(f"{path}:7: unknown binding id 'command.gone'") for p in problems)

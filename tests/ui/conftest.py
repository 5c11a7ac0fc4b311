"""A small invented library and a way to open the app on it."""

from __future__ import annotations

from datetime import datetime

import pytest

from feedtui.config import Config
from feedtui.core.engine import Engine
from feedtui.model import UTC, TopicDefinition

from tests.factories import make_paper

NOW = datetime(2026, 11, 27, 18, 0, tzinfo=UTC)


def invented_papers():
    return [
        make_paper(
            "2611.00001", title="Widget sorting at scale", abstract="Widgets sorted by a widget network.",
            published="2026-11-25T10:00:00", authors=(("Ada Quill", ("Institute of Nowhere",)),),
        ),
        make_paper(
            "2611.00002", title="Gadgets and widgets together", abstract="A gadget meets a widget.",
            published="2026-11-24T10:00:00",
        ),
        make_paper(
            "2611.00003", title="Gadget calibration", abstract="Calibrating one gadget at a time.",
            published="2026-11-20T10:00:00",
        ),
        make_paper(
            "2611.00004", title="[bold red]x[/] and [@click=app.quit]", abstract="Markup-looking widget text.",
            published="2026-11-10T10:00:00",
        ),
        make_paper(
            "2610.00005", title="Older widget notes", abstract="An older widget paper.",
            published="2026-10-05T10:00:00",
        ),
    ]


TOPICS = {
    "Widgets": TopicDefinition(query="abs:widget"),
    "Gadgets": TopicDefinition(query="abs:gadget"),
}


@pytest.fixture
def make_engine(tmp_path):
    engines: list[Engine] = []

    def make(papers=None, topics=None, follows=("Widgets",), read=(), data_dir=None) -> Engine:
        config = Config()
        config.settings.auto_refresh = False
        config.settings.arxiv.min_interval = 0.05
        engine = Engine(config, data_dir or tmp_path / "data", clock=lambda: NOW)
        for name, definition in (topics or TOPICS).items():
            engine.add_topic(name, definition)
        engine.cache.store(invented_papers() if papers is None else papers, {}, NOW)
        engine.load_library()
        engine.retag(engine.registry.names())
        for name in follows:
            engine.follow(name)
        engine.mark_read(read)
        engine.state.flush()
        engines.append(engine)
        return engine

    yield make
    for engine in engines:
        try:
            engine.close()
        except Exception:
            pass


@pytest.fixture
def words_only(monkeypatch):
    """Ask ranks by words alone, as when the embedding model is not
    installed: the papers listed are then exactly those whose words match
    (with the model, a topic's papers closest in meaning come too)."""
    from feedtui.discovery import embed

    def missing():
        raise embed.ModelUnavailable("the wordllama package is not installed")

    monkeypatch.setattr(embed, "model_files", missing)

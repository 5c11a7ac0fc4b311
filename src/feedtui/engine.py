"""Old import path of the engine, for ui/screens/main.py and cli.py until
they import feedtui.core (see /work/notes/core_api.md); removed then."""

from feedtui.core.engine import Engine, open_engine
from feedtui.core.events import RefreshProgress
from feedtui.core.topics import QueryError, TopicNameTaken, TopicNotFound, TopicRefused

__all__ = ["Engine", "open_engine", "QueryError", "RefreshProgress", "TopicNameTaken", "TopicNotFound", "TopicRefused"]

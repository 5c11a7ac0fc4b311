"""Old import path of the refresh's activities, for ui/screens/main.py and
cli.py until they import feedtui.core.fetch; removed then."""

from feedtui.core.fetch import Activity, Waiting

__all__ = ["Activity", "Waiting"]

"""The state file's tables, as an export names them (see export/state_json.py).

The names are the state store's own; they are re-exported here so that the
export format is written against the core rather than the store. Which
preferences describe this machine rather than the user is decided here too:
the export leaves them out and a quit does not count them as losses.
"""

from __future__ import annotations

from feedtui.store.shapes import is_iso_time
from feedtui.store.state import FEEDBACK, FOLLOWS, HIDDEN_TOPICS, PREFS, READ, REFRESHED_PREFIX, RENAMED_FROM, STARRED, TABLES, TOPICS

# Preferences that describe this machine's cache rather than the user.
# The reader's session start and its place (topic, card) count as machine notes too:
# never an unsaved change worth asking about at quit, never exported.
MACHINE_PREFS = frozenset({"last_refresh", "demo_seed", "session_started", "last_place"})


def machine_pref(key: str) -> bool:
    """A preference about this machine's cache, not the user: never exported or imported."""
    return key in MACHINE_PREFS or key.startswith(REFRESHED_PREFIX)


__all__ = [
    "FEEDBACK",
    "FOLLOWS",
    "HIDDEN_TOPICS",
    "MACHINE_PREFS",
    "PREFS",
    "READ",
    "REFRESHED_PREFIX",
    "RENAMED_FROM",
    "STARRED",
    "TABLES",
    "TOPICS",
    "is_iso_time",
    "machine_pref",
]

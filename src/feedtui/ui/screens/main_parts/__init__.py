"""The reader's parts: each owns one job of the main screen, which composes them.

A part is a plain object holding the screen (`screen`) and the engine; it
owns its own state and reaches the widgets through the screen's queries.
What the parts share lives on the screen: the topic shown (`current`),
unread only, the focus (`focus_now`), key hints (`_key`), and the ways to
show a topic (`show_topic`, `go_to_topic`, `rebuild_sidebar`).

Parts call one another through the screen, at once, where the order of work
decides where the next key goes (see "Key ordering" in MainScreen's docstring).
What comes from another thread (the state store's reports) arrives as a
message of ui/messages.py, posted to the screen.
"""

"""Topic rules: which topics there are, what may be added, renamed, removed.

The registry merges the catalogue, the config file's [[topic]] tables and the
user's own topics (state.json); the rules here decide what a change to it may
be, so that the CLI, the reader and an import refuse the same things in the
same words.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime, timedelta

from feedtui.model import TopicDefinition
from feedtui.store.state import REFRESHED_PREFIX
from feedtui.text.links import feed_url
from feedtui.text.sanitize import clean_line
from feedtui.topics.catalogue import load_catalogue
from feedtui.topics.names import READING_LIST, is_reading_list_name, name_key, name_problem, same_name
from feedtui.topics.query import QueryError, category_query, parse_query
from feedtui.topics.registry import TopicEntry, TopicRegistry, user_topic

# Marks the app's copy of a config topic (stored by an edit) in state.json.
CONFIG_COPY = "config_copy"

__all__ = [
    "CONFIG_COPY",
    "QueryError",
    "TopicEntry",
    "TopicNameTaken",
    "TopicNotFound",
    "TopicRefused",
    "TopicRules",
    "check_definition",
]


class TopicNotFound(KeyError):
    def __str__(self) -> str:
        return str(self.args[0])


class TopicRefused(ValueError):
    """A topic that cannot be saved as given, and the part of it that is wrong:
    "name", "query" (also for a topic with nothing in it), "categories",
    "feeds", or "" when no one part is (so a form can put the keyboard there).
    A query that does not parse raises QueryError instead."""

    def __init__(self, message: str, field: str = "") -> None:
        super().__init__(message)
        self.field = field


class TopicNameTaken(TopicRefused):
    """A new topic given the name of one there is (but for case)."""

    def __init__(self, taken: str) -> None:
        super().__init__(f"there is a topic called '{taken}' already", "name")
        self.taken = taken


class TopicRules:
    """The Engine's topic methods (see core/engine.py for the state they use)."""

    def _build_registry(self) -> TopicRegistry:
        return TopicRegistry(
            load_catalogue(), self.config.topics, self.state.user_topics(), self.state.hidden_topics(),
            hide=self.settings.hide,
        )

    def reload_topics(self) -> list[str]:
        """Rebuild the registry after a topic change; returns topics needing a retag."""
        self.registry = self._build_registry()
        library = self._library
        if library is None:
            return []
        stored = self.tags.load()
        for name in list(library.members):
            if name not in self.registry:
                library.drop_topic(name)
                self._member_signatures.pop(name, None)
        stale = []
        for entry in self.registry.tagged():
            if self._member_signatures.get(entry.name) == entry.signature:
                continue  # the library holds this definition's papers
            signature, ids = stored.get(entry.name, ("", []))
            if signature == entry.signature:
                # Added, restored or edited elsewhere (the CLI), and tagged there.
                library.set_members(entry.name, ids)
                self._member_signatures[entry.name] = signature
            else:
                stale.append(entry.name)
        return stale

    def topic(self, name: str) -> TopicEntry:
        """The topic called `name`, forgiving case and unambiguous prefixes;
        a name the config file gave a [[topic]] table it left out stands for
        no other topic (it would otherwise be the prefix of one)."""
        if not name.strip():  # the prefix of every topic
            raise TopicNotFound("a topic name is needed (feedtui topics lists them)")
        if is_reading_list_name(name.strip()):
            raise TopicNotFound(f"'{name.strip()}' is the reading list, not a topic (feedtui papers Starred lists it)")
        left_out = same_name(name.strip(), self.config.left_out)
        if left_out and not self.registry.same_name(name.strip()):
            raise TopicNotFound(f"no topic called '{name}': {self.config.left_out[left_out]}")
        try:
            return self.registry.resolve(name)
        except KeyError as error:
            raise TopicNotFound(error.args[0]) from None

    def topics(self) -> list[TopicEntry]:
        return list(self.registry)

    def has_topic(self, name: str) -> bool:
        """Is there a topic of exactly this name?"""
        return name in self.registry

    def topic_names(self) -> list[str]:
        return self.registry.names()

    def topic_entry(self, name: str) -> TopicEntry | None:
        """The topic of exactly this name (None when there is none); `topic`
        forgives case and prefixes."""
        return self.registry.get(name)

    def is_catalogue_topic(self, name: str) -> bool:
        return name in self.registry.catalogue_names

    def renamed_from(self, name: str) -> str:
        """The name this topic had before another feedtui renamed it ("" when none)."""
        return self.state.renamed_from(name)

    def follows(self) -> set[str]:
        """The names followed (a follow may name no topic now: see orphaned_follows)."""
        return self.state.follows()

    def is_following(self, name: str) -> bool:
        return self.state.is_following(name)

    def followed(self) -> list[TopicEntry]:
        return [e for e in self.registry if self.state.is_following(e.name)]

    def note_refreshed(self, entries: Iterable[TopicEntry], at: datetime) -> None:
        """Remember that these topics' sources answered at `at`, for the topics
        as they are defined now (kept in state.json, so every process sees it)."""
        for entry in entries:
            current = self.registry.get(entry.name)
            if current is None or current.signature != entry.signature:
                continue  # removed or redefined while its refresh ran
            self.state.set_pref(
                REFRESHED_PREFIX + entry.name, {"at": at.isoformat(timespec="seconds"), "sig": entry.signature}
            )

    def stale_followed(self) -> list[str]:
        """The followed topics due for a refresh: not refreshed, as they are now
        defined, within `refresh_age_hours` (or refreshed "in the future": the
        clock went back), such as a topic followed since the last refresh. A
        topic whose definition has an error is never due."""
        now = self.clock()
        age = timedelta(hours=self.settings.refresh_age_hours)
        due = []
        for entry in self.followed():
            if entry.error:
                continue
            when = _refreshed_at(self.state.pref(REFRESHED_PREFIX + entry.name), entry.signature)
            if when is None or not timedelta(0) <= now - when <= age:
                due.append(entry.name)
        return due

    def follow(self, name: str) -> TopicEntry:
        entry = self.topic(name)
        self.state.follow(entry.name)
        return entry

    def unfollow(self, name: str) -> TopicEntry:
        entry = self.topic(name)
        self.state.unfollow(entry.name)
        return entry

    def orphaned_follows(self) -> list[str]:
        """The follows of names no topic has now (follows are kept by name:
        a topic renamed in the config file leaves its follow behind)."""
        return sorted(
            (
                name
                for name in self.state.follows()
                if not self.registry.same_name(name) and not same_name(name, self.config.left_out)
            ),
            key=str.casefold,
        )

    def hidden_catalogue_topic(self, name: str) -> str:
        """The hidden catalogue topic that is `name` but for case ("" when none is)."""
        return same_name(name, sorted(self.state.hidden_topics() & self.registry.catalogue_names))

    def orphaned_follow_problem(self, name: str) -> str:
        """Why the follow `name` shows no topic, and what to do about it."""
        hidden = self.hidden_catalogue_topic(name)
        if hidden:
            return (
                f"you follow '{name}', but the catalogue topic '{hidden}' is hidden (removed here or by an import): "
                f"feedtui topic restore '{hidden}' shows it again, feedtui unfollow '{name}' drops the follow"
            )
        return (
            f"you follow '{name}', but no topic is called that now (renamed or removed in the config file?): "
            f"feedtui unfollow '{name}' drops the follow"
        )

    def drop_orphaned_follow(self, name: str) -> str:
        """Unfollow the name no topic has now that is `name` but for case;
        returns it ("" when there is none: `name` is a topic's, or nothing)."""
        orphan = same_name(name.strip(), self.orphaned_follows())
        if orphan:
            self.state.unfollow(orphan)
        return orphan

    @staticmethod
    def topic_name(text: str) -> str:
        """A topic name as it is stored: plain text on one line (names are drawn
        in the sidebar and header)."""
        return clean_line(text, html_allowed=False)

    def name_taken(self, name: str) -> str:
        """The topic, or the reading list, that already has this name but for
        case ("" when none has): a new topic may not take it. The reading list
        has `Starred` too (see is_reading_list_name)."""
        if is_reading_list_name(name):
            return READING_LIST
        return self.registry.same_name(name)

    def check_topic_name(self, name: str, *, replace: bool = False) -> None:
        """The rule for every way of adding a topic (see topics/names.py), for a
        name as stored (see `topic_name`): raises TopicNameTaken when a topic
        has it but for case, TopicRefused for a name that is wrong in itself.
        With `replace`, the topic of exactly this name may be replaced (an
        import merging into it); another spelling of it may not."""
        problem = name_problem(name)
        if problem:
            raise TopicRefused(problem, "name")
        taken = self.name_taken(name)
        if taken and not (replace and taken == name):
            raise TopicNameTaken(taken)

    def topic_name_problem(self, name: str, *, replace: bool = False) -> str:
        """What `check_topic_name` refuses, in words ("" when nothing)."""
        try:
            self.check_topic_name(name, replace=replace)
        except ValueError as error:
            return str(error)
        return ""

    def add_topic(
        self, name: str, definition: TopicDefinition, description: str = "", *, replace: bool = False
    ) -> TopicEntry:
        """Add a topic, or with `replace` change the one of this name; raises
        TopicRefused (TopicNameTaken for a name taken) or QueryError for what
        cannot be used."""
        name = self.topic_name(name)
        description = clean_line(description, html_allowed=False)
        self.check_topic_name(name, replace=replace)
        if definition.is_empty:
            raise TopicRefused("a topic needs a query, a category or a feed", "query")
        definition = check_definition(definition)
        document = {**definition.to_dict(), "description": description}
        if replace and self.config_file_defining(name):
            document[CONFIG_COPY] = True  # so that the table's going is told (_release_orphaned_copies)
        if self._topic_batch is not None:
            self._topic_batch[name] = document
            self.registry.put(user_topic(name, document))
        else:
            self.state.put_topic(name, document)
            self.reload_topics()
        return self.registry.entries[name]

    @contextmanager
    def adding_topics(self) -> Iterator[None]:
        """Many add_topic calls (an import) as one change: each updates the
        registry in place, and state.json and the library take them all at the
        end: rebuilding the registry for each topic would make an import of N
        topics take N² time."""
        self._topic_batch = {}
        try:
            yield
        finally:  # also on an error or Ctrl-C: the topics added before it are kept, as one by one
            batch, self._topic_batch = self._topic_batch, None
            if batch:
                self.state.put_topics(batch)
                self.reload_topics()

    def edit_topic(
        self,
        name: str,
        *,
        query: str | None = None,
        description: str | None = None,
        categories: Sequence[str] | None = None,
        feeds: Sequence[str] | None = None,
        new_name: str | None = None,
    ) -> TopicEntry:
        """Change what is given (None keeps it); the topic is the user's from
        then on. A new name is for a topic of the user's own, and its follow
        goes with it."""
        entry = self.topic(name)
        new = entry.name if new_name is None else self._new_name(entry, new_name)
        old = entry.topic.definition
        definition = TopicDefinition(
            query=old.query if query is None else query,
            categories=old.categories if categories is None else tuple(categories),
            feeds=old.feeds if feeds is None else tuple(feeds),
        )
        if definition.is_empty:
            raise TopicRefused("the topic would have no query, categories or feeds left", "query")
        definition = check_definition(definition)
        text = entry.topic.description if description is None else clean_line(description, html_allowed=False)
        document = {**definition.to_dict(), "description": text}
        if self.config_file_defining(entry.name):
            document[CONFIG_COPY] = True  # so that the table's going is told (_release_orphaned_copies)
        if new != entry.name:
            self.state.rename_topic(entry.name, new, document)
            self.tags.update([], removed=[entry.name])
        else:
            self.state.put_topic(new, document)
        self.reload_topics()
        return self.registry.entries[new]

    def _new_name(self, entry: TopicEntry, new_name: str) -> str:
        """The name a topic is to be given, as stored; raises TopicRefused for a
        topic whose name is not the app's to change, or a name that cannot be used."""
        old, new = entry.name, self.topic_name(new_name)
        if new == old:
            return new
        if refused := self.rename_refused(old):
            raise TopicRefused(refused, "name")
        if name_key(new) != name_key(old):
            self.check_topic_name(new)
        elif problem := name_problem(new):  # a change of case: the name is its own
            raise TopicRefused(problem, "name")
        return new

    def rename_refused(self, name: str) -> str:
        """Why this topic's name cannot be changed here ("" when it can): the
        config file or the catalogue gives it."""
        if where := self.config_file_defining(name):
            return f"{name} is defined in {where}: rename its [[topic]] table there"
        if name in self.registry.catalogue_names:
            return f"{name} is a catalogue topic: its name stays (feedtui topic add names a topic of your own)"
        return ""

    def config_file_defining(self, name: str) -> str:
        """The config file that defines this topic in a [[topic]] table ("" when none does)."""
        if not same_name(name, (topic.name for topic in self.config.topics)):
            return ""
        return str(self.config.path or "the config file")

    def _in_config_file(self, name: str) -> bool:
        """Has the config file a [[topic]] table of this name, used or left out for an error?"""
        return bool(self.config_file_defining(name) or same_name(name, self.config.left_out))

    def config_copy_of(self, name: str) -> str:
        """The config file whose [[topic]] table for this topic the app's copy
        (stored by an edit) overrides ("" when there is no such copy)."""
        return self.config_file_defining(name) if name in self.state.user_topics() else ""

    def removal_refused(self, name: str) -> str:
        """Why this topic cannot be removed here ("" when it can): the config
        file defines it, and the app holds no copy of it to drop."""
        where = self.config_file_defining(name)
        if not where or self.config_copy_of(name):
            return ""
        return f"{name} is defined in {where}: remove its [[topic]] table there"

    def _release_orphaned_copies(self) -> list[str]:
        """The app's copies of config topics whose [[topic]] table is gone:
        each stays as a topic of the user's own, said once."""
        if not self.config.topics_known or self.config.nameless_left_out:
            return []  # its table may be back once the file can be read, or be a nameless one
        released: dict[str, dict] = {}
        for name, document in self.state.user_topics().items():
            if document.get(CONFIG_COPY) and not self._in_config_file(name):
                released[name] = {key: value for key, value in document.items() if key != CONFIG_COPY}
        if released:
            self.state.put_topics(released)
        where = self.config.path or "the config file"
        return [
            f"{name}: its [[topic]] table is gone from {where}; your edited copy of it stays, "
            f"as a topic of your own (feedtui topic rm '{name}' removes it)"
            for name in released
        ]

    def override_note(self, name: str) -> str:
        """After an edit, what it means for a topic the config file defines
        ("" for any other): from now on the edit hides the file's table."""
        where = self.config_file_defining(name)
        if not where:
            return ""
        return (
            f"{name} is defined in {where} too: this edit overrides its [[topic]] table there "
            f"(feedtui topic rm '{name}' drops the copy)"
        )

    def remove_topic(self, name: str) -> TopicEntry:
        """Remove the topic (hide a catalogue topic); for a config topic the
        app holds an edited copy of, drop the copy: its table rules again."""
        entry = self.topic(name)
        refused = self.removal_refused(entry.name)
        if refused:
            raise ValueError(refused)
        if self.config_copy_of(entry.name):
            return self._drop_config_copy(entry)
        self.state.remove_topic(entry.name, hide=entry.name in self.registry.catalogue_names)
        self.state.clear_pref(REFRESHED_PREFIX + entry.name)
        self.reload_topics()
        if self._library is not None:
            self._library.drop_topic(entry.name)
        self.tags.update([], removed=[entry.name])
        return entry

    def _drop_config_copy(self, entry: TopicEntry) -> TopicEntry:
        """The topic as its [[topic]] table defines it, followed as it was."""
        self.state.forget_topic(entry.name)
        self.state.clear_pref(REFRESHED_PREFIX + entry.name)
        self.reload_topics()
        return self.registry.entries[entry.name]

    def restore_topic(self, name: str) -> TopicEntry:
        """Bring back a catalogue topic removed earlier (removing one hides it)."""
        hidden = sorted(self.state.hidden_topics() & self.registry.catalogue_names)
        match = same_name(name.strip(), hidden)
        if not match:
            removed = ", ".join(f"'{h}'" for h in hidden[:8]) + (", …" if len(hidden) > 8 else "") or "none"
            raise TopicNotFound(f"no removed catalogue topic called '{name}' (removed: {removed})")
        self.state.unhide_topic(match)
        self.reload_topics()
        return self.topic(match)



def _refreshed_at(record: object, signature: str) -> datetime | None:
    """The time in a `refreshed:` pref, if it is one and for this definition."""
    if not isinstance(record, dict) or record.get("sig") != signature:
        return None
    try:
        when = datetime.fromisoformat(record["at"])
    except (KeyError, TypeError, ValueError):
        return None
    return when if when.tzinfo is not None else None



def check_definition(definition: TopicDefinition) -> TopicDefinition:
    """The definition as it is stored (feed URLs as `feed_url` gives them);
    raises QueryError or TopicRefused, in words, for what cannot be used."""
    if definition.query:
        parse_query(definition.query)  # raises QueryError pointing at the problem
    for category in definition.categories:
        try:
            category_query(category)
        except ValueError as error:  # something that is not a category
            raise TopicRefused(str(error), "categories") from error
    try:
        feeds = tuple(feed_url(url) for url in definition.feeds)
    except ValueError as error:
        raise TopicRefused(str(error), "feeds") from error
    if feeds == definition.feeds:
        return definition
    return TopicDefinition(query=definition.query, categories=definition.categories, feeds=feeds)


"""Adding, editing and removing topics: the forms and confirmations, and
what the reader shows once one is saved."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from feedtui.topics.names import is_reading_list_name
from feedtui.ui.presenter import STARRED_VIEW, VIRTUAL_VIEWS
from feedtui.ui.screens.main_parts.marks import Undo

if TYPE_CHECKING:
    from textual.screen import Screen

    from feedtui.ui.screens.topic_form import TopicDraft, TopicProblem

READING_LIST_IS_NO_TOPIC = "The reading list holds the papers you starred (s); it is not a topic to edit or remove"


class TopicDialogs:
    """Owns a, E and D: the topic form and the confirmations they open."""

    def __init__(self, screen: Screen) -> None:
        self.screen = screen
        self.engine = screen.engine

    def add(self) -> None:
        from feedtui.ui.screens.topic_form import TopicFormScreen

        self.screen.app.push_screen(TopicFormScreen("New topic", self._save_new_topic))

    def _changeable_topic(self) -> str | None:
        """The topic shown, for E and D; on the reading list, a word on why not."""
        if self.screen.current == STARRED_VIEW:
            self.screen.notify(READING_LIST_IS_NO_TOPIC, markup=False)
            return None
        if self.screen.current in VIRTUAL_VIEWS:
            self.screen.notify("This list is no topic to edit or remove", markup=False)
            return None
        return self.screen.current

    def edit(self) -> None:
        from feedtui.ui.screens.topic_form import TopicDraft, TopicFormScreen

        name = self._changeable_topic()
        if not name:
            return
        topic = self.engine.topic(name).topic
        draft = TopicDraft(topic.name, topic.definition, topic.description)
        form = TopicFormScreen(
            f"Edit {topic.name}",
            lambda typed: self._save_edited_topic(topic.name, typed),
            draft,
            name_fixed=self._why_name_is_fixed(topic.name),
        )
        self.screen.app.push_screen(form)

    def _why_name_is_fixed(self, name: str) -> str:
        """By the name in E's form: why it cannot be changed there ("" when it can)."""
        if not self.engine.rename_refused(name):
            return ""
        if where := self.engine.config_file_defining(name):
            return f"rename its [[topic]] table in {where}"
        return "a catalogue topic keeps its name"

    def remove(self) -> None:
        from feedtui.ui.screens.topic_form import ConfirmScreen

        screen = self.screen
        name = self._changeable_topic()
        if not name:
            return
        refused = self.engine.removal_refused(name)
        if refused:  # said before asking, not after
            screen.notify(refused, markup=False)
            return
        if copy_of := self.engine.config_copy_of(name):
            self._drop_config_copy(name, copy_of)
            return
        catalogue = self.engine.is_catalogue_topic(name)
        question = f"{'Hide the catalogue topic' if catalogue else 'Remove the topic'} {name}?"
        detail = "Its papers stay in the cache, with their read marks and stars."
        followed = self.engine.is_following(name)
        if catalogue:
            detail += " You follow it." if followed else ""
            detail += f" The command feedtui topic restore '{name}' brings it back{', followed' if followed else ''}."
        elif followed:
            detail += " You follow it: removing it unfollows it."

        take_back = self._bring_back(name, catalogue, followed)

        def answered(yes: bool | None) -> None:
            if yes:
                self.engine.remove_topic(name)
                screen.current = None
                screen.asking.close()
                screen.bridge.reload_topics()
                screen.marks.remember(Undo(f"removed the topic {name}", [], take_back=take_back))
                screen.notify(f"Removed {name} — {screen._key('app.undo')} to undo", markup=False)

        screen.app.push_screen(ConfirmScreen(question, detail), answered)

    def _bring_back(self, name: str, catalogue: bool, followed: bool) -> Callable[[], str]:
        """What undoes the removal of topic `name`: a catalogue topic is shown
        again (followed again if it was), a topic of the user's is added again
        as it is now, and followed again if it was. Returns why not, or ""."""
        topic = self.engine.topic(name).topic
        definition, description = topic.definition, topic.description

        def take_back() -> str:
            engine = self.engine
            try:
                if catalogue:
                    engine.restore_topic(name)
                else:
                    engine.add_topic(name, definition, description)
                    if followed:
                        engine.follow(name)
            except (KeyError, ValueError) as error:  # TopicNotFound, TopicRefused, QueryError
                return str(error).strip("'\"")
            self._show_saved(name, said=f"{name} is back" + (", followed" if followed else ""))
            return ""

        return take_back

    def _drop_config_copy(self, name: str, copy_of: str) -> None:
        from feedtui.ui.screens.topic_form import ConfirmScreen

        screen = self.screen
        question = f"Drop your edited copy of {name}?"
        detail = f"It overrides the topic's [[topic]] table in {copy_of}, which then defines it again."

        definition = self.engine.topic(name).topic.definition
        description = self.engine.topic(name).topic.description

        def take_back() -> str:
            try:
                self.engine.edit_topic(
                    name, query=definition.query, categories=definition.categories,
                    feeds=definition.feeds, description=description,
                )
            except (KeyError, ValueError) as error:
                return str(error).strip("'\"")
            self._show_saved(name, said=f"Your edited copy of {name} is back")
            return ""

        def answered(yes: bool | None) -> None:
            if yes:
                self.engine.remove_topic(name)
                screen.bridge.reload_topics()
                screen.marks.remember(Undo(f"dropped your edited copy of {name}", [], take_back=take_back))
                screen.notify(f"{name} is as {copy_of} defines it again — {screen._key('app.undo')} to undo", markup=False)

        screen.app.push_screen(ConfirmScreen(question, detail), answered)

    def _save_new_topic(self, draft: TopicDraft) -> TopicProblem | None:
        from feedtui.ui.screens.topic_form import TopicProblem

        name = self.engine.topic_name(draft.name)
        taken = self.engine.name_taken(name)
        if taken and not is_reading_list_name(taken):  # the reading list's name: add_topic says why
            return TopicProblem(f"There is a topic called {taken} already: {self.screen._key('topic.edit')} edits it.", "name")
        return self._topic_problem(draft, lambda: self.engine.add_topic(name, draft.definition, draft.description))

    def _save_edited_topic(self, name: str, draft: TopicDraft) -> TopicProblem | None:
        """Save topic `name` as typed, renamed if the name was changed (its
        follow goes with it), and keep it the topic shown."""
        definition = draft.definition

        def save() -> None:
            entry = self.engine.edit_topic(
                name,
                query=definition.query,
                categories=definition.categories,
                feeds=definition.feeds,
                description=draft.description,
                new_name=draft.name,
            )
            if self.screen.current == name:
                self.screen.current = entry.name

        return self._topic_problem(draft, save)

    def _topic_problem(self, draft: TopicDraft, save: Callable[[], object]) -> TopicProblem | None:
        """What is wrong with a topic as typed (None once saved, and shown), with
        the field to mend it in, as the engine names it (see TopicRefused).

        The saved topic is shown here, while the form's enter is handled (enter
        is a priority binding of the form, topic_form.save), never in a
        callback of the form's dismissal: that ran after keys typed right after
        enter (K j to move on), and took the sidebar back to the saved topic."""
        from feedtui.core.topics import TopicRefused
        from feedtui.topics.query import QueryError
        from feedtui.ui.screens.topic_form import TopicProblem

        try:
            save()
        except QueryError as error:
            return TopicProblem(f"The query: {error}\n{error.caret_line()}", "query")
        except ValueError as error:
            message = str(error)
            field = error.field if isinstance(error, TopicRefused) else ""
            return TopicProblem(message[:1].upper() + message[1:], field)
        self._show_saved(draft.name)
        return None

    def _show_saved(self, typed: str, said: str = "") -> None:
        screen = self.screen
        name = self.engine.topic_name(typed)
        screen.bridge.reload_topics()  # the registry, the retag of the topic, the sidebar
        screen.asking.close()
        screen.go_to_topic(name)
        following = self.engine.is_following(name)
        said = said or f"Saved {name}" + ("" if following else f" — {screen._key('topic.follow')} follows it")
        screen.notify(said, markup=False)
        if note := self.engine.override_note(name):
            screen.notify(note, severity="warning", markup=False)

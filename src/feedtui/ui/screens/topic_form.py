"""Adding or editing a topic in the app, and confirming a removal.

The form holds no I/O: it hands what was typed (a `TopicDraft`) to the
`submit` callable the main screen gives it, which saves through the engine and
answers with what is wrong (None when saved). The form stays open, showing the
answer with the keyboard in the field to mend, until it is saved or cancelled.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Footer, Input, Label, Static

from feedtui.model import TopicDefinition
from feedtui.ui.crash import Guarded
from feedtui.ui.keymap import key_hint
from feedtui.ui.screens.dismiss_once import DismissOnce


@dataclass(frozen=True, slots=True)
class TopicDraft:
    name: str
    definition: TopicDefinition = TopicDefinition()
    description: str = ""


@dataclass(frozen=True, slots=True)
class TopicProblem:
    """What is wrong with a topic as typed, and the field (a key of FIELDS) to
    mend it in; "" leaves the keyboard where it is."""

    text: str
    field: str = ""


def split_list(text: str, *, commas: bool = True) -> tuple[str, ...]:
    """Categories as typed, separated by spaces and/or commas; feed URLs (which
    may hold commas) by spaces only."""
    return tuple((text.replace(",", " ") if commas else text).split())


FIELDS = (
    ("name", "Name", "Sparse attention"),
    ("query", "arXiv query (narrows the feeds, if any)", 'abs:"sparse attention" AND cat:cs.LG'),
    ("categories", "arXiv categories", "cs.LG cs.CL"),
    ("feeds", "Feed URLs (RSS or Atom)", "https://example.org/feed.xml"),
    ("description", "Description", "One line for the topic's header"),
)


class TopicFormScreen(Guarded, DismissOnce, ModalScreen[str | None]):
    """Dismissed with the saved topic's name, or None when cancelled."""

    BINDINGS = [
        Binding("escape", "cancel", "Cancel", id="topic_form.cancel"),
        # Priority: handled as the key comes, so the keys typed after it go
        # to the next field. Left to bubble up from the field, a tab that came
        # with the text around it ("name⇥query" pasted, or typed fast) was
        # lost on a pushed screen and the query went into the name.
        Binding("tab", "app.focus_next", "Next field", show=False, priority=True, id="topic_form.next"),
        Binding("shift+tab", "app.focus_previous", "Previous field", show=False, priority=True, id="topic_form.previous"),
        # Priority too: the topic is saved and shown as enter comes, so keys
        # typed straight after it (K j to move on) reach the reader, where they
        # went into the field of a form about to close.
        Binding("enter", "enter", "Save", show=False, priority=True, id="topic_form.save"),
    ]

    def __init__(self, title: str, submit: Callable[[TopicDraft], TopicProblem | None], draft: TopicDraft | None = None, *, name_fixed: str = "") -> None:
        """`draft` is the topic being edited (none for a new one); `name_fixed`
        says why its name cannot be changed ("" when it can)."""
        super().__init__()
        self.title_text = title
        self.submit = submit
        self.draft = draft or TopicDraft(name="")
        self.name_fixed = name_fixed
        self.opened_with: TopicDraft | None = None  # what the fields held when the form opened

    def compose(self) -> ComposeResult:
        values = {
            "name": self.draft.name,
            "query": self.draft.definition.query,
            "categories": " ".join(self.draft.definition.categories),
            "feeds": " ".join(self.draft.definition.feeds),
            "description": self.draft.description,
        }
        with Vertical(id="topic-form"):
            yield Static(Text(self.title_text, style="bold"), id="topic-form-title")
            for key, label, example in FIELDS:
                fixed = key == "name" and bool(self.name_fixed)
                # The reason may name a config file, whose path is no markup.
                yield Label(Text(f"{label} ({self.name_fixed})" if fixed else label))
                # The cursor goes to the end of what is there: selected, the
                # whole field went with the first key typed.
                yield Input(
                    values[key], placeholder=example, id=f"topic-{key}", disabled=fixed, select_on_focus=False
                )
            yield Static(id="topic-form-error")
            with Horizontal(id="topic-form-buttons"):
                yield Button("Save", variant="primary", id="topic-form-save")
                yield Button("Cancel", id="topic-form-cancel")
            cancel = key_hint("topic_form.cancel", self.app.engine.settings.keymap, self.BINDINGS)
            yield Static(Text(f"enter saves · {cancel} cancels · a query, categories or feeds, or a mix", style="dim"))
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.opened_with = self.typed()
        first = "topic-query" if self.draft.name else "topic-name"
        for field in self.query(f"#{first}").results(Input):  # none once the app is ending
            field.focus()

    def typed(self) -> TopicDraft:
        def value(key: str) -> str:
            # "" for a field not mounted yet, or removed as the form closes.
            fields = list(self.query(f"#topic-{key}").results(Input))
            return fields[0].value.strip() if fields else ""

        return TopicDraft(
            name=value("name"),
            definition=TopicDefinition(
                query=value("query"),
                categories=split_list(value("categories")),
                feeds=split_list(value("feeds"), commas=False),
            ),
            description=value("description"),
        )

    def save(self) -> None:
        if self.dismissing:  # enter typed after the form was saved or cancelled
            return
        draft = self.typed()
        problem = self.submit(draft)
        if problem:
            error = self.query_one("#topic-form-error", Static)
            error.update(Text(problem.text, style="bold"))
            if problem.field:
                field = self.query_one(f"#topic-{problem.field}", Input)
                if not field.disabled:
                    field.focus()
            # On a short terminal the form scrolls: bring the message into view.
            self.call_after_refresh(error.scroll_visible, animate=False)
        else:
            self.dismiss(draft.name)

    def action_enter(self) -> None:
        """Enter presses the button that has the focus; anywhere else it saves."""
        if isinstance(self.focused, Button):
            self.focused.press()
        else:
            self.save()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.save()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "topic-form-save":
            self.save()
        else:
            self.action_cancel()

    def action_cancel(self) -> None:
        """Escape, or the Cancel button, which enter presses when it has the
        focus (shift+tab from the first field reaches it): edits are dropped,
        but not without a word."""
        if self.dismissing:
            return
        if self.typed() != self.opened_with:
            self.notify("Edits discarded: the topic was not saved", markup=False)
        self.dismiss(None)


class ConfirmScreen(Guarded, DismissOnce, ModalScreen[bool]):
    """A question answered with y, or n (or escape); enter alone is no answer,
    so that a stray key does not remove anything."""

    BINDINGS = [
        Binding("y", "answer(True)", "Yes", id="confirm.yes"),
        Binding("n,escape", "answer(False)", "No", id="confirm.no"),
    ]

    def __init__(self, question: str, detail: str = "") -> None:
        super().__init__()
        self.question = question
        self.detail = detail

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm"):
            yield Static(Text(self.question, style="bold"))
            if self.detail:
                yield Static(Text(self.detail))
            yield Static(Text("y: yes · n: no", style="dim"))
        yield Footer(compact=True)

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class QuitQuestion(ConfirmScreen):
    """"Quit anyway?": q again is a yes. The App's own q does not reach a
    modal screen."""

    BINDINGS = [Binding("q", "answer(True)", "Quit anyway", id="quit_question.quit")]

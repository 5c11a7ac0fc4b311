"""The feedtui Textual application."""

from __future__ import annotations

import asyncio
import threading
from contextlib import ExitStack
from datetime import datetime
from pathlib import Path
from types import FrameType

from textual import events
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.screen import ModalScreen

from feedtui.core.engine import Engine
from feedtui.memory import IdleCollector
from feedtui.settings import Settings
from feedtui.ui.crash import CrashBoundary, Guarded
from feedtui.ui.ending import stop_suspending
from feedtui.ui.keymap import APP_BINDINGS
from feedtui.ui.screens.main import WELCOME_SKIPPED, MainScreen
from feedtui.ui.services import Browser, Copier
from feedtui.ui.user_commands import UserCommands, command_bindings
from feedtui.ui.styles import add_screen_sheets, stylesheets


class FeedtuiApp(Guarded, App):
    TITLE = "feedtui"
    CSS_PATH = stylesheets()
    BINDINGS = APP_BINDINGS

    def __init__(self, engine: Engine) -> None:
        super().__init__()
        self.engine = engine
        self.browser = Browser(engine.settings.browser)
        self.copier = Copier(self.copy_to_clipboard)
        self._check_config()
        if engine.settings.keymap:
            self.set_keymap(with_quit_answer(engine.settings.keymap))
        self.user_commands = UserCommands(self, engine.settings.commands, engine.settings.command_timeout)
        for binding in Binding.make_bindings(b for b in self.command_bindings() if b.key):
            self.bind(binding.key, binding.action, description=binding.description, show=False)
        self.main_screen = MainScreen(engine)
        self.idle_collector = IdleCollector()
        # The signal (SIGTERM, SIGHUP) that ended the app, if one did.
        self.stopped_by: int | None = None
        # "Quit anyway?", while it is asked (changes that cannot be saved).
        self._quit_question: ModalScreen | None = None
        self._event_loop: asyncio.AbstractEventLoop | None = None
        # Set when the app exits, a refresh under way stopped and stored:
        # what is left is Textual's own shutdown (see run.QuitWatch).
        self.leaving = threading.Event()
        self.crash_boundary = CrashBoundary(engine.data_dir)
        # What is held until the first frame is painted (run_tui pauses the
        # collector in it): closed by the main screen once it is on screen.
        self.until_first_paint = ExitStack()

    def _check_config(self) -> None:
        """Theme names and binding ids are only known here: check the config's."""
        from feedtui.ui.keymap_check import check_ui_settings

        # The scopes import every screen, before the first frame; with no
        # [keymap] there is nothing to check against them.
        settings = self.engine.settings
        scopes = {}
        if settings.keymap:
            from feedtui.ui.bindings import keymap_scopes

            scopes = keymap_scopes(command_bindings(settings.commands, {}))
        problems = check_ui_settings(self.engine.config, themes=self.available_themes, scopes=scopes, list_ids=False)
        self.engine.problems.messages.extend(str(p) for p in problems)

    def on_load(self) -> None:
        self._event_loop = asyncio.get_running_loop()
        # A signal between run_tui installing its handler and the event loop
        # starting: quit before the terminal is taken over. (One while the
        # library loads, earlier, is launch's Ctrl-C: see quit_signals.)
        if self.stopped_by:
            self.leaving.set()
            self.exit()

    def stop_for_signal(self, signum: int, _frame: FrameType | None = None) -> None:
        """SIGTERM or SIGHUP (a signal handler, see run_tui): quit as q does,
        without asking, as no one may be there to answer. The handler runs
        in the event loop's thread, between any two of its steps: the quit
        is only scheduled, and the loop woken for it."""
        if self.stopped_by:
            return
        self.stopped_by = signum
        loop = self._event_loop
        if loop is None:
            return
        try:
            loop.call_soon_threadsafe(self.call_next, self.quit_now)
        except RuntimeError:  # the loop has closed: the app has ended already
            pass

    def on_mount(self) -> None:
        self.theme = self._start_theme()
        # Pushed once Textual's start-up batch is over: a screen composed inside
        # it has its first full frame dropped, and the terminal then gets the
        # screen in pieces over the next few frames (about 0.1 s later in full).
        self.call_later(self.push_screen, self.main_screen)
        self.idle_collector.start()
        self.set_interval(1.0, self.idle_collector.tick, name="idle collector")

    def push_screen(self, screen, *args, **kwargs):
        if screen is not self.main_screen:
            add_screen_sheets(self.stylesheet)  # see ui/styles.py
        return super().push_screen(screen, *args, **kwargs)

    def exit(self, *args, **kwargs) -> None:
        stop_suspending()  # the reader is leaving (see ui/ending.py)
        super().exit(*args, **kwargs)

    def on_unmount(self) -> None:
        stop_suspending()  # an exit that did not come through exit()
        self.idle_collector.stop()

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, (events.Key, events.MouseEvent)):
            if not self.screen_stack:
                # Keys typed ahead while the app closes: no screen is left to
                # take them, and Textual's handling would raise.
                return
            self.idle_collector.input_seen()
            if isinstance(event, events.Key):
                self.crash_boundary.key_seen(event)
        await super().on_event(event)

    async def run_action(self, action, default_namespace=None, namespaces=None) -> bool:
        try:
            return await super().run_action(action, default_namespace, namespaces)
        except Exception as error:  # a key action's bug: see ui/crash.py
            if not self.crash_boundary.went_on(self, error, can_go_on=self.main_screen.is_mounted):
                raise
            return True

    def _handle_exception(self, error: Exception) -> None:
        # Textual's exit on any exception, overridden by the crash boundary (ui/crash.py).
        if not self.crash_boundary.went_on(self, error, can_go_on=self.main_screen.is_mounted):
            super()._handle_exception(error)

    def _start_theme(self) -> str:
        """The theme last picked in the app, unless the config's theme line
        changed since (writing in the default theme's name is a change too)."""
        engine, configured = self.engine, self.engine.settings.theme
        picked = engine.pref("theme")
        written = self._theme_written()
        if engine.pref("theme_line") is not None:
            unchanged = engine.pref("theme_line") == written
        else:
            # A pick stored before the line was told from the default kept the
            # default's name for "no theme line" as well as for a line naming
            # it: kept while there is no line, overridden once one is written.
            then = engine.pref("theme_config", written)
            unchanged = written == "" if then == Settings().theme else then == written
        if picked in self.available_themes and unchanged:
            return picked
        return configured

    def _theme_written(self) -> str:
        """The config's `theme` as written, or "" with no such line."""
        return self.engine.settings.theme if "general.theme" in self.engine.config.lines else ""

    def watch_theme(self, theme: str) -> None:
        engine = getattr(self, "engine", None)
        if engine is not None and engine.pref("theme") != theme:
            engine.set_pref("theme", theme)
            engine.set_pref("theme_line", self._theme_written())

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.works_on(self.screen, action)

    def works_on(self, screen: object, action: str) -> bool:
        """Whether an App action does something on this screen: undo and the
        user's commands work from the reader and a paper's detail view, not
        under a form or the help."""
        if action in ("undo", "run_command"):
            if screen is self.main_screen:  # asked at every frame of the footer: the detail view is imported when needed
                return True
            from feedtui.ui.screens.detail import DetailScreen

            return isinstance(screen, DetailScreen)
        return True

    def action_undo(self) -> None:
        from feedtui.ui.screens.detail import DetailScreen

        self.main_screen.action_undo()
        if isinstance(self.screen, DetailScreen):
            self.screen.render_paper()  # its read and starred marks

    def command_bindings(self) -> list[Binding]:
        """The user's commands as bindings, their keys as [keymap] gives them."""
        return command_bindings(self.engine.settings.commands, self.engine.settings.keymap)

    def action_run_command(self, name: str) -> None:
        """A command of [commands], on the paper under the cursor or in the detail view."""
        from feedtui.ui.screens.detail import DetailScreen

        screen = self.screen
        if isinstance(screen, DetailScreen):
            paper_id: str | None = screen.paper_id
        elif screen is self.main_screen:
            paper_id = self.main_screen.topic_view.acted_on_id()
        else:
            return
        if paper_id is not None:
            self.user_commands.run(name, paper_id)

    def action_command_palette(self) -> None:
        """Textual's palette, guarded (see ui/screens/palette.py)."""
        from textual.command import CommandPalette

        from feedtui.ui.screens.palette import GuardedPalette

        # Textual's is_open looks at the top screen only: a second palette
        # (ctrl+p under help opened from the palette) had a duplicate id.
        if self.use_command_palette and not any(isinstance(s, CommandPalette) for s in self.screen_stack):
            self.push_screen(GuardedPalette(id="--command-palette"))

    def search_themes(self) -> None:
        """The palette's theme picker, the same guarded palette."""
        from textual.theme import ThemeProvider

        from feedtui.ui.screens.palette import GuardedPalette

        self.push_screen(GuardedPalette(providers=[ThemeProvider], placeholder="Search for themes…"))

    def action_help(self) -> None:
        from feedtui.ui.bindings import all_bindings
        from feedtui.ui.screens.help import HelpScreen

        self.push_screen(HelpScreen([*all_bindings(), *self.command_bindings()], self.engine.settings.keymap))

    def save_screen_picture(self) -> None:
        """The palette's Screenshot: an SVG of the screen, saved where it can
        be, and a word saying where."""
        if not self.screen_stack:  # q came before the palette's timer: the app is ending
            return
        from feedtui.ui.screenshot import said_path, screenshot_directory, screenshot_name, toast_text_width

        directory = screenshot_directory(self.engine.data_dir)
        width = toast_text_width(self.size.width)
        try:
            directory.mkdir(parents=True, exist_ok=True)
            path = self.save_screenshot(screenshot_name(datetime.now()), path=str(directory))
        except OSError as error:
            self.notify(
                f"Could not save the screenshot in\n{said_path(directory, width)}\n{error.strerror or error}",
                severity="error", markup=False,
            )
            return
        self.notify(f"Screenshot saved to\n{said_path(Path(path), width)}", markup=False)

    def action_welcome(self) -> None:
        from feedtui.ui.screens.welcome import WelcomeScreen

        catalogue = [(e.name, e.topic.description) for e in self.engine.topics()]

        def follow(names: list[str] | None) -> None:
            if not names:
                # "Browse without following anything": not asked again at the next start.
                self.engine.set_pref(WELCOME_SKIPPED, True)
                return
            for name in names:
                self.engine.follow(name)
            if self.leaving.is_set():  # q typed right after: the sidebar is going away
                return
            self.main_screen.rebuild_sidebar(keep=names[0])
            self.main_screen.go_to_topic(names[0])
            self.main_screen.refresh_soon(names)

        self.push_screen(WelcomeScreen(catalogue), follow)

    def get_system_commands(self, screen):
        from textual.actions import parse as parse_action

        from feedtui.ui.keymap import key_labels, mapped

        for command in super().get_system_commands(screen):
            if command.title == "Screenshot":  # Textual's saves to ~/Downloads, failing where there is none
                command = SystemCommand(
                    "Screenshot",
                    "Save an SVG picture of the screen, in Downloads, Pictures or the data directory's screenshots/",
                    lambda: self.set_timer(0.1, self.save_screen_picture),  # once the palette has closed
                )
            yield command
        yield SystemCommand("Help: every key", "Show every key binding, grouped", self.action_help)
        # The actions of the screen the palette was opened on (never those of
        # a screen underneath it), on the main screen its two lists', and the
        # App's (undo). Quit (Textual's) and Help are offered above already.
        offered = {"app.quit", "app.help"}
        targets: list[tuple[object, list]] = [
            (screen, list(getattr(type(screen), "BINDINGS", ()))),
            (self, [*self.BINDINGS, *self.command_bindings()]),
        ]
        if isinstance(screen, MainScreen):
            from feedtui.ui.widgets.paper_list import PaperList
            from feedtui.ui.widgets.topic_list import TopicList

            for widget_class in (PaperList, TopicList):
                targets.append((screen.query_one(widget_class), list(widget_class.BINDINGS)))
        for target, bindings in targets:
            for binding in bindings:
                if not (isinstance(binding, Binding) and binding.id and binding.description) or binding.id in offered:
                    continue
                # Only what the key would do now (Unfollow, not Follow, on a followed
                # topic). The App is asked about the screen the palette was opened
                # on: its own check_action would look at the palette.
                _, action, parameters = parse_action(binding.action)
                if self.works_on(screen, action) if target is self else target.check_action(action, parameters):
                    yield SystemCommand(
                        binding.description,
                        f"{', '.join(key_labels(mapped(binding, self.engine.settings.keymap).key))} · {binding.id}",
                        lambda target=target, action=binding.action: target.run_action(action),
                    )

    async def action_quit(self) -> None:
        """q: quit, once what is pending is saved. When it cannot be (a
        read-only or full disk), say what would be lost and ask; q again, or
        y, quits all the same."""
        if self._quit_question is not None:
            await self.quit_now()
            return
        self.main_screen.remember_session()  # saved with the rest, just below
        why, lost, count = await asyncio.to_thread(self._what_quitting_loses)
        if not lost:
            await self.quit_now()
            return
        from feedtui.ui.screens.topic_form import QuitQuestion

        async def answered(quit_anyway: bool | None) -> None:
            self._quit_question = None
            if quit_anyway:
                await self.quit_now()

        question = f"{lost} {'is' if count == 1 else 'are'} not saved: quit anyway?"
        detail = f"{why[:1].upper()}{why[1:]}. Left open, feedtui saves {'it' if count == 1 else 'them'} once it can."
        self._quit_question = QuitQuestion(question, detail)
        self.push_screen(self._quit_question, answered)

    def _what_quitting_loses(self) -> tuple[str, str, int]:
        """(why saving failed, what it leaves unsaved in words, how many
        changes that is), after trying to save what is pending; ("", "", 0)
        when nothing would be lost."""
        engine = self.engine
        why = engine.save_now() if engine.has_unsaved_changes() else ""
        return (why, *engine.unsaved_changes()) if why else ("", "", 0)

    async def quit_now(self) -> None:
        # A refresh under way stores what it has fetched first (it would be
        # fetched again, but a feed may have moved on by then).
        await self.main_screen.stop_refresh()
        self.user_commands.stop_all()
        self.main_screen.remember_session()
        self.leaving.set()
        self.exit()


def with_quit_answer(keymap: dict[str, str]) -> dict[str, str]:
    """`keymap`, where quit's keys also answer "quit anyway?" (QuitQuestion's
    own binding, which the App's cannot reach on a modal screen; it is no id
    a [keymap] may name, so it always follows quit)."""
    if "app.quit" in keymap:
        return {**keymap, "quit_question.quit": keymap["app.quit"]}
    return keymap

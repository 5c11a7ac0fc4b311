"""The feedtui Textual application."""

from __future__ import annotations

from textual.app import App, SystemCommand
from textual.binding import Binding

from feedtui.engine import Engine
from feedtui.ui.screens.main import MainScreen
from feedtui.ui.services import Browser, Copier
from feedtui.ui.styles import stylesheets


class FeedtuiApp(App):
    TITLE = "feedtui"
    CSS_PATH = stylesheets()
    BINDINGS = [
        Binding("q", "quit", "Quit", id="app.quit"),
        Binding("question_mark", "help", "Help", id="app.help"),
    ]

    def __init__(self, engine: Engine) -> None:
        super().__init__()
        self.engine = engine
        self.browser = Browser(engine.settings.browser)
        self.copier = Copier(self.copy_to_clipboard)
        if engine.settings.keymap:
            self.set_keymap(engine.settings.keymap)
        self.main_screen = MainScreen(engine)

    def on_mount(self) -> None:
        theme = self.engine.state.pref("theme") or self.engine.settings.theme
        if theme in self.available_themes:
            self.theme = theme
        self.push_screen(self.main_screen)

    def watch_theme(self, theme: str) -> None:
        if getattr(self, "engine", None) is not None and self.engine.state.pref("theme") != theme:
            self.engine.state.set_pref("theme", theme)

    def action_help(self) -> None:
        from feedtui.ui.screens.help import HelpScreen
        from feedtui.ui.widgets.paper_list import PaperList
        from feedtui.ui.widgets.topic_list import TopicList
        from feedtui.ui.screens.detail import DetailScreen

        bindings = []
        for source in (FeedtuiApp, MainScreen, TopicList, PaperList, DetailScreen):
            for binding in source.BINDINGS:
                if isinstance(binding, Binding) and binding.id:
                    bindings.append(self._remapped(binding))
        self.push_screen(HelpScreen(bindings))

    def _remapped(self, binding: Binding) -> Binding:
        keys = self._keymap.get(binding.id) if binding.id else None
        if keys:
            return Binding(keys, binding.action, binding.description, show=binding.show, id=binding.id)
        return binding

    def action_welcome(self) -> None:
        from feedtui.ui.screens.welcome import WelcomeScreen

        catalogue = [(e.name, e.topic.description) for e in self.engine.topics()]

        def follow(names: list[str] | None) -> None:
            if not names:
                return
            for name in names:
                self.engine.follow(name)
            self.main_screen.rebuild_sidebar(keep=names[0])
            self.main_screen.refresh_topics(names)

        self.push_screen(WelcomeScreen(catalogue), follow)

    def get_system_commands(self, screen):
        yield from super().get_system_commands(screen)
        yield SystemCommand("Help: every key", "Show every key binding, grouped", self.action_help)
        main = self.main_screen
        for binding in MainScreen.BINDINGS:
            if binding.id and binding.description:
                action = binding.action
                yield SystemCommand(
                    binding.description, f"{self.get_key_display(binding)} · {binding.id}",
                    lambda action=action: main.run_action(action),
                )

    async def action_quit(self) -> None:
        self.exit()

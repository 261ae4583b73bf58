"""The load, rules, settings and results scenes, driven with synthetic events."""

from __future__ import annotations

import dataclasses
import os
import random
import re
from pathlib import Path

import pygame
import pygame_gui
import pytest
import yaml

from game.engine import Match, controller_class, game_ids
from game.ui.markdown import markdown_to_html, split_sections

from savedates import date

SEATS = [{"name": f"P{i}", "kind": "bot"} for i in range(9)]
RULES = Path(__file__).resolve().parents[1] / "game" / "fantasy_expedition" / "rules.md"
SAMPLE_RULES = """# Fantasy Expedition

Nine players, three hidden teams.

## Setup

- Deal the team cards.
- Deal the *positions*.

## Scoring

1. Count **points**.
2. Use `pass` to skip.
"""


# helpers ------------------------------------------------------------------------------
@pytest.fixture
def app(tmp_path, monkeypatch):
    """A 1280x720 App with private saves and settings folders, at the main menu."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("TABLETOP_SAVES", str(tmp_path / "saves"))
    monkeypatch.setenv("TABLETOP_HOME", str(tmp_path / "home"))
    from game.ui.app import App
    application = App(size=(1280, 720))
    application.to_menu()
    application.step([])
    yield application
    pygame.display.quit()  # leave no window behind for the tests that follow


def key(app, code: int, mod: int = 0) -> None:
    app.step([pygame.event.Event(pygame.KEYDOWN, key=code, mod=mod, unicode="")])


def click(app, widget) -> None:
    app.step([pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=widget)])


def pump(app, frames: int = 2) -> None:
    """Let pygame_gui deliver what it posted (dialog results), then draw."""
    for _ in range(frames):
        app.step(pygame.event.get())


def button(scene, text: str):
    found = [w for w, _ in scene.controls.items if getattr(w, "text", None) == text]
    assert found, f"no {text!r} button on {type(scene).__name__}"
    return found[0]


def texts(scene) -> list[str]:
    return [getattr(w, "text", "") for w in scene.controls.others]


def play(match: Match, actions: int | None = None, seed: int = 0) -> Match:
    """Take random legal actions (all of them to the end when ``actions`` is None)."""
    rng = random.Random(seed)
    count = 0
    while not match.is_over() and (actions is None or count < actions):
        seat = match.to_act()[0]
        match.act(seat, rng.choice(match.legal_actions(seat)))
        count += 1
    return match


def make_saves(folder: Path, count: int = 3) -> list[Path]:
    """Real saves, oldest first, with distinct times (inside them and of the files)."""
    folder.mkdir(parents=True, exist_ok=True)
    made = []
    for number in range(count):
        match = play(Match.new("fantasy_expedition", SEATS, seed=3 + number), 2 + number,
                     seed=number)
        path = folder / f"game-{number}.yaml"
        match.save(path)
        date(path, 1_000_000 + number * 100)
        made.append(path)
    return made


# markdown ---------------------------------------------------------------------------
def test_markdown_inline_and_blocks():
    html = markdown_to_html("# Title\n\nA **bold** and *slanted* `x<y` line.\n\n- one\n- two")
    assert "<b>bold</b>" in html and "<i>slanted</i>" in html
    assert "x&lt;y" in html and "\n" not in html
    assert html.count("\u2022") == 2
    assert "pixel_size=28" in html  # the # heading


def test_markdown_lists_paragraphs_and_escaping():
    html = markdown_to_html("1. first\n2. second\n\nline one\nline two & <b>not html</b>")
    assert "1." in html and "2." in html
    assert "line one line two" in html
    assert "&amp;" in html and "&lt;b&gt;" in html and "<b>not" not in html


def test_markdown_code_fence_and_table():
    html = markdown_to_html("```\n## not a heading\n```\n\n| A | B |\n|---|---|\n| 1 | 22 |")
    assert "pixel_size=22" not in html  # the fenced ## stays code
    assert "---" not in html  # the table divider is dropped
    assert "fira_code_symbols" in html


def test_markdown_leaves_snake_case_alone():
    assert "<i>" not in markdown_to_html("use trade_rounds and 2 * 3 * 4")


def test_wide_tables_wrap_their_cells_at_spaces_to_fit_the_page():
    table = ("| name | what it does |\n|---|---|\n"
             "| Freeze | the seat cannot move this round and the next unless assisted |\n"
             "| Fear | back to the start tile |")
    wide = markdown_to_html(table)
    assert wide.count("<br>") == 2, "no room given: one line per row"
    narrow = markdown_to_html(table, table_room=32)
    lines = [re.sub(r"<[^>]+>", "", line).replace("\u00a0", " ").rstrip()
             for line in narrow.split("<br>")]
    assert max(len(line) for line in lines) <= 32
    words = " ".join(lines).split()
    for word in ("Freeze", "assisted", "start", "tile"):
        assert word in words, "words are whole, never broken"
    assert lines[0].startswith("name") and "what it does" in lines[0]
    assert "" in lines, "wrapped rows are set apart by a blank line"


def test_a_table_that_cannot_fit_becomes_a_list():
    table = ("| Monster | Stack | Move | Attack | Ability |\n|---|---|---|---|---|\n"
             "| Villager | 2 | 1 | 1-2 | Rally Cry |\n| Troll | 4 | 1 | 1-6 | Regeneration |")
    html = markdown_to_html(table, table_room=20)
    text = re.sub(r"<[^>]+>", "", html).replace("\u00a0", " ")
    assert "Villager: Stack 2, Move 1, Attack 1-2, Ability Rally Cry" in text
    assert "Troll: Stack 4, Move 1, Attack 1-6, Ability Regeneration" in text


def test_split_sections():
    sections = split_sections(SAMPLE_RULES)
    assert [title for title, _ in sections] == ["Overview", "Setup", "Scoring"]
    assert sections[1][1].startswith("## Setup") and "positions" in sections[1][1]
    assert split_sections("## A\n```\n## B\n```\n") == [("A", "## A\n```\n## B\n```")]
    assert split_sections("# Only\n\nText") == [("Only", "# Only\n\nText")]
    assert split_sections("# Title only\n## A\nx")[0][0] == "A"
    assert split_sections("") == []


# load -------------------------------------------------------------------------------
def test_load_lists_saves_newest_first_with_damaged_file(app, tmp_path):
    from game.ui.scenes.load import LoadScene
    folder = tmp_path / "saves"
    paths = make_saves(folder)
    broken = folder / "broken.yaml"
    broken.write_text("format: tabletop-match\nversion: [1\n")
    os.utime(broken, (1_000_050,) * 2)
    scene = app.push(LoadScene(app))
    app.step([])
    order = [info.path.name for info in scene.saves]
    assert order == ["game-2.yaml", "game-1.yaml", "broken.yaml", "game-0.yaml"]
    shown = texts(scene)
    assert any("is damaged" in text for text in shown)
    assert any(text.startswith("Fantasy Expedition") for text in shown)
    assert any(text.startswith("game-0.yaml") for text in shown)
    damaged = [w for w, info in scene.entry_of.items() if info.path == broken]
    assert not damaged[0].is_enabled  # cannot be opened, only deleted
    assert damaged[1].is_enabled
    app.screenshot(tmp_path / "load.png")
    assert paths[0].exists()


def test_load_opens_with_enter_and_click(app, tmp_path, monkeypatch):
    from game.ui.scenes import load
    paths = make_saves(tmp_path / "saves", 2)
    opened, after = [], []
    monkeypatch.setattr(load, "open_match", lambda _app, path: opened.append(path) or True)
    scene = app.push(load.LoadScene(app, after_load=after.append))
    key(app, pygame.K_RETURN)  # the newest save has the focus
    assert opened == [paths[1]] and after == [paths[1]]
    click(app, scene.rows[1][0])
    assert opened[-1] == paths[0]


def test_load_delete_asks_first(app, tmp_path):
    from game.ui.scenes.load import LoadScene
    paths = make_saves(tmp_path / "saves", 3)
    scene = app.push(LoadScene(app))
    key(app, pygame.K_DELETE)  # on the newest save
    assert scene.dialog is not None and scene.dialog.alive()
    key(app, pygame.K_ESCAPE)  # closes the dialog only
    assert scene.dialog is None and app.stack.top is scene
    assert paths[2].exists()
    key(app, pygame.K_DELETE)
    key(app, pygame.K_RETURN)  # Delete is the selected dialog button
    assert not paths[2].exists() and len(scene.saves) == 2
    # by mouse: the row's Delete button, then the dialog's confirm button
    click(app, scene.rows[1][1])
    dialog = scene.dialog
    click(app, dialog.confirm_button)
    pump(app)
    assert not paths[0].exists() and paths[1].exists()
    assert [info.path for info in scene.saves] == [paths[1]]
    # cancelling by mouse keeps the file
    click(app, scene.rows[0][1])
    click(app, scene.dialog.cancel_button)
    pump(app)
    assert paths[1].exists()


def test_load_scrolls_to_the_focused_row(app, tmp_path):
    from game.ui.scenes.load import LoadScene
    make_saves(tmp_path / "saves", 9)
    scene = app.push(LoadScene(app))
    assert scene.area.container is not None  # nine rows do not fit at 720 pixels
    for _ in range(2 * 9 - 1):
        key(app, pygame.K_TAB)
    pump(app)
    focused = scene.controls.focused()
    assert scene.entry_of[focused] is scene.saves[-1]
    view = scene.area.container.rect
    assert view.top <= focused.rect.top and focused.rect.bottom <= view.bottom


def test_load_empty_folder_and_escape(app, tmp_path):
    from game.ui.scenes.load import LoadScene
    menu = app.stack.top
    scene = app.push(LoadScene(app))
    app.step([])
    assert scene.saves == [] and scene.area is None
    assert [getattr(w, "text", "") for w, _ in scene.controls.items] == ["Back"]
    key(app, pygame.K_ESCAPE)
    assert app.stack.top is menu


def test_friendly_time():
    import datetime as dt
    from game.ui.scenes.load import friendly_time
    now = dt.datetime(2025, 3, 14, 18, 30)
    assert friendly_time("2025-03-14T18:20:00", 0, now) == "10 minutes ago"
    assert friendly_time("2025-03-11T10:00:00", 0, now) == "Tuesday, 10:00"
    assert friendly_time("junk", dt.datetime(2025, 1, 2, 3, 4).timestamp(), now) \
        == "2 Jan, 03:04"
    assert friendly_time("2025-03-14T18:29:00+00:00", 0, now)  # aware times are fine


# rules ------------------------------------------------------------------------------
@pytest.fixture
def rules_file():
    """The real rules document, which every game must have."""
    assert RULES.exists()
    return RULES


def test_rules_sections_by_keyboard_and_mouse(app, rules_file):
    from game.ui.scenes.handbook import RulesScene
    sections = split_sections(rules_file.read_text(encoding="utf-8"))
    assert len(sections) >= 2
    scene = app.push(RulesScene(app, game_id="fantasy_expedition"))
    app.step([])
    names = [getattr(w, "text", "") for w, _ in scene.controls.items]
    games = len(game_ids())
    assert names[:games] == [controller_class(g).title for g in game_ids()]
    assert names[games:games + len(sections)] == [title for title, _ in sections]
    room = scene.table_room(scene.text.relative_rect.width)
    assert scene.text.html_text == markdown_to_html(sections[0][1], room)
    for _ in range(games + 1):  # past the game buttons to the second section
        key(app, pygame.K_DOWN)
    key(app, pygame.K_RETURN)
    assert scene.section == 1
    assert scene.text.html_text == markdown_to_html(sections[1][1], room)
    assert scene.controls.focused().text == sections[1][0]  # focus stays put
    click(app, button(scene, sections[-1][0]))
    assert scene.section == len(sections) - 1
    for code in (pygame.K_PAGEDOWN, pygame.K_END, pygame.K_HOME):
        key(app, code)
    pump(app)


def test_rules_missing_file_says_so(app, tmp_path, monkeypatch):
    from game.ui.scenes import handbook as rules
    monkeypatch.setattr(rules, "rules_path", lambda game_id: tmp_path / "none.md")
    menu = app.stack.top
    scene = app.push(rules.RulesScene(app))
    app.step([])
    assert "Rules not found" in scene.text.html_text
    assert [getattr(w, "text", "") for w, _ in scene.controls.items] == [
        controller_class(g).title for g in game_ids()] + ["Back"]
    click(app, button(scene, "Back"))
    assert app.stack.top is menu


def test_rules_follow_the_window_size(app, rules_file):
    from game.ui.scenes.handbook import RulesScene
    scene = app.push(RulesScene(app))
    key(app, pygame.K_DOWN)
    key(app, pygame.K_RETURN)
    app.apply_settings(dataclasses.replace(app.settings, window="1600x900"))
    pump(app)
    assert scene.text.alive() and scene.text.rect.right == 1600 - 40
    assert scene.section == 0 and scene.controls.focus == 1


# settings ---------------------------------------------------------------------------
def test_settings_cycle_and_save(app, tmp_path):
    from game.ui.scenes.settings import SettingsScene
    menu = app.stack.top
    scene = app.push(SettingsScene(app))
    values = list(scene.value_buttons)
    key(app, pygame.K_DOWN)
    key(app, pygame.K_RETURN)  # animation: normal -> fast
    key(app, pygame.K_DOWN)
    key(app, pygame.K_RETURN)  # handover: on -> off
    click(app, values[3])  # delay 0.6 -> 0.8
    key(app, pygame.K_LEFT)  # the focus is still on the handover button: back to on
    key(app, pygame.K_RIGHT)  # and off again
    assert (scene.draft.animation, scene.draft.handover, scene.draft.bot_delay) == (
        "fast", False, 0.8)
    assert app.settings.animation == "normal"  # nothing applied before Save
    assert values[2].text.strip("‹› ") == "Off"
    click(app, button(scene, "Save"))
    assert app.stack.top is menu
    saved = yaml.safe_load((tmp_path / "home" / "settings.yaml").read_text())
    assert saved == {"window": "1280x720", "animation": "fast", "handover": False,
                     "bot_delay": 0.8, "recap": True, "speak": False, "volume": 0.8,
                     "mute": False, "ui_scale": 100, "theme": "normal"}


def test_settings_window_size_and_cancel(app, tmp_path):
    from game.ui.scenes.settings import SettingsScene, step_value
    scene = app.push(SettingsScene(app))
    key(app, pygame.K_RETURN)  # window 1280x720 -> 1600x900
    assert scene.draft.window == "1600x900"
    key(app, pygame.K_ESCAPE)
    assert app.settings.window == "1280x720"
    assert not (tmp_path / "home" / "settings.yaml").exists()
    scene = app.push(SettingsScene(app))
    key(app, pygame.K_RETURN)
    click(app, button(scene, "Save"))
    assert app.window_size == (1600, 900)
    assert step_value((0.2, 0.4, 0.6), 0.0, 1) == 0.2
    assert step_value((0.2, 0.4, 0.6), 0.6, 1) == 0.2


# results ----------------------------------------------------------------------------
class StubScreen:
    """Just what ResultsScene asks of a game's screen."""

    def __init__(self, match: Match) -> None:
        self.match = match

    def results_table(self, result):
        rows = [[seat["name"], result["teams"][number], str(result["scores"][number])]
                for number, seat in enumerate(self.match.seats)]
        return ["Player", "Team", "Score"], rows

    def results_summary(self, result):
        name = self.match.seats[result["elimination_candidate"]]["name"]
        return [f"{name} is the Elimination Candidate", "Well played, everyone."]


@pytest.fixture
def finished():
    return play(Match.new("fantasy_expedition", SEATS, seed=3), seed=1)


def test_results_draws_and_navigates(app, finished, tmp_path):
    from game.ui.scenes.menu import MainMenu
    from game.ui.scenes.results import ResultsScene
    assert finished.is_over()
    below = app.push(MainMenu(app))  # stands in for the finished board
    scene = app.push(ResultsScene(app, finished, StubScreen(finished)))
    app.screenshot(tmp_path / "results.png")
    assert len(scene.rows) == 9 and scene.summary[0].endswith("Elimination Candidate")
    assert scene.controls.focused().text == "New game"
    click(app, button(scene, "View board"))
    assert app.stack.top is below
    app.push(ResultsScene(app, finished, StubScreen(finished)))
    key(app, pygame.K_ESCAPE)
    assert isinstance(app.stack.top, MainMenu) and len(app.stack.scenes) == 1


def test_results_new_game_opens_setup(app, finished):
    from game.ui.scenes.menu import MainMenu
    from game.ui.scenes.results import ResultsScene
    from game.ui.scenes.setup import SetupScene
    scene = app.push(ResultsScene(app, finished, StubScreen(finished)))
    click(app, button(scene, "New game"))
    bottom, top = app.stack.scenes
    assert isinstance(bottom, MainMenu) and isinstance(top, SetupScene)
    assert top.game_id == "fantasy_expedition"


def test_results_draw_changes_nothing(app, finished):
    from game.ui.scenes.results import ResultsScene
    scene = app.push(ResultsScene(app, finished, StubScreen(finished)))
    before = (list(scene.controls.items), scene.controls.focus, len(app.stack.scenes))
    surface = pygame.Surface((1280, 720))
    scene.draw(surface)
    scene.draw(pygame.Surface((960, 600)))
    assert before == (list(scene.controls.items), scene.controls.focus, len(app.stack.scenes))


def test_rules_start_with_the_focus_on_the_chosen_game(app):
    from game.ui.scenes.handbook import RulesScene
    scene = app.push(RulesScene(app, game_id=game_ids()[-1]))
    app.step([])
    assert scene.controls.focused().text == controller_class(game_ids()[-1]).title

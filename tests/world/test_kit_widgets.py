"""The screen kit, part 4: signature widgets. The Markdown editor and its formatting bar, the
drawing tools (strokes with tool and size, the palette), the docked chat composer and
avatars, and the media player's seek bar, controls and mini player, each on a tiny app
driven on a ``Device`` (helpers: ``test_kit``); a ``Screen``'s ``dock`` and ``fill``."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pytest
from driving import act, fill, press, tap, type_text
from test_kit import check_accessible, element, elements, region, render, start

from phone_gym.actions import PhoneAction
from phone_gym.world import App, Route, Screen
from phone_gym.world import theme as T
from phone_gym.world.kit import (
    Avatar,
    Canvas,
    ChatMessage,
    ChatThread,
    Composer,
    EditHistory,
    EditorView,
    FormatBar,
    MiniPlayer,
    Palette,
    PlayerControls,
    SeekBar,
    Stroke,
    apply_format,
    clock,
    decode_strokes,
    encode_strokes,
    initials,
    markdown_runs,
)
from phone_gym.world.kit.chat import EMOJI
from phone_gym.world.manifest import AppManifest
from phone_gym.world.widgets import Tab, TabBar, TopBar

# --- the Markdown editor ----------------------------------------------------------------------


@dataclass
class NoteUi:
    text: str = "# Title\nSome **bold** words"
    history: EditHistory = field(default_factory=EditHistory)


class NoteApp(App):
    manifest = AppManifest("Note", "com.example.note")
    ui: NoteUi

    def initial_ui(self) -> NoteUi:
        return NoteUi()

    def set_text(self, text: str) -> None:
        self.ui.text = text

    def view(self, route: Route) -> Screen:
        ui = self.ui
        return Screen(top_bar=TopBar("note.md"),
                      content=[EditorView(ui.text, self.set_text, ui.history, id="body",
                                          label="Note text", hint="Start writing")],
                      dock=FormatBar(ui.text, self.set_text, ui.history), fill=True)


def note_ui(app: App) -> NoteUi:
    assert isinstance(app, NoteApp)
    return app.ui


def test_markdown_runs_split_a_line_by_its_markup() -> None:
    assert markdown_runs("## Plan") == [("## Plan", "heading")]
    assert markdown_runs("- [ ] buy **milk** and _eggs_ `now` [shop](x.y)") == [
        ("- [ ] ", "marker"), ("buy ", "plain"), ("**milk**", "bold"), (" and ", "plain"),
        ("_eggs_", "italic"), (" ", "plain"), ("`now`", "code"), (" ", "plain"),
        ("[shop](x.y)", "link")]
    assert markdown_runs("a * b * c") == [("a * b * c", "plain")]  # spaced stars: no italics
    for line in ("#no heading", "x_y_z", "> quote **b**", ""):
        assert "".join(t for t, _ in markdown_runs(line)) == line


def test_formats_wrap_the_last_word_or_toggle_the_last_line() -> None:
    assert apply_format("Bold", "buy milk") == "buy **milk**"
    assert apply_format("Bold", "buy **milk**") == "buy milk"  # again: back to plain
    assert apply_format("Italic", "so ") == "so __"  # no word at the cursor: an empty pair
    assert apply_format("Code", "run ls") == "run `ls`"
    assert apply_format("Link", "see docs") == "see [docs]()"
    assert apply_format("Header", "a\nPlan") == "a\n# Plan"
    assert apply_format("Header", "a\n# Plan") == "a\nPlan"
    assert apply_format("List", "x\nmilk") == "x\n- milk"
    assert apply_format("Checkbox", "x\n- milk") == "x\n- [ ] milk"  # replaces the bullet
    assert apply_format("Checkbox", "- [ ] milk") == "milk"
    with pytest.raises(ValueError, match="Bold, Italic"):
        apply_format("Underline", "x")


def test_the_editor_is_one_edit_text_filling_the_screen_above_its_bar() -> None:
    device = start(NoteApp)
    shown = check_accessible(device)
    body = element(device, "body")
    assert body.class_name == "android.widget.EditText" and body.editable
    assert body.text == "# Title\nSome **bold** words"  # the whole text, markup and all
    bar = [e for e in shown if e.short_id.startswith("format_") and e.clickable]
    assert [e.content_desc for e in bar] == [
        "Bold", "Italic", "Header", "List", "Checkbox", "Code", "Link"]
    undo, redo = element(device, "undo"), element(device, "redo")
    assert (undo.content_desc, redo.content_desc) == ("Undo", "Redo")
    assert not undo.enabled and not redo.enabled  # nothing to undo yet
    bottom = T.SCREEN_H - T.NAV_H
    assert element(device, "format_bar").bounds[3] == bottom  # docked at the bottom
    assert body.bounds[3] >= element(device, "format_bar").bounds[1] - 40  # filled down to it
    assert body.bounds[3] - body.bounds[1] > 1500


def test_the_editor_draws_headings_in_the_accent_colour() -> None:
    device = start(NoteApp)
    body = element(device, "body")
    image = render(device)
    top = region(image, (body.bounds[0], body.bounds[1], body.bounds[2], body.bounds[1] + 90))
    accent = (np.abs(top.astype(int) - T.PRIMARY).sum(axis=-1) < 40).sum()
    assert accent > 200  # "# Title" in the accent colour
    note_ui(device.current_app).text = "Title"  # plain: no accent
    device.invalidate()
    plain = region(render(device), (body.bounds[0], body.bounds[1], body.bounds[2],
                                    body.bounds[1] + 90))
    assert (np.abs(plain.astype(int) - T.PRIMARY).sum(axis=-1) < 40).sum() < 20


def test_the_bar_formats_typed_text_and_undoes_and_redoes() -> None:
    device = start(NoteApp)
    ui = note_ui(device.current_app)
    tap(device, id="body")
    press(device, "enter")  # a new line, not a submit
    type_text(device, "milk")
    assert ui.text.endswith("words\nmilk")
    assert element(device, "format_bar").bounds[3] == T.SCREEN_H - T.NAV_H - T.KEYBOARD_H
    tap(device, desc="Bold")
    assert ui.text.endswith("\n**milk**")
    tap(device, desc="List")
    assert ui.text.endswith("\n- **milk**")
    before = render(device)
    tap(device, desc="Undo")
    assert ui.text.endswith("\n**milk**")
    tap(device, desc="Undo")
    assert ui.text.endswith("\nmilk")
    assert not np.array_equal(render(device), before)
    tap(device, desc="Redo")
    assert ui.text.endswith("\n**milk**") and element(device, "redo").enabled
    type_text(device, "!")  # a new change forgets what could be redone
    assert not element(device, "redo").enabled


def test_edit_history_steps_back_and_forward() -> None:
    h = EditHistory()
    h.record("a", "a")  # no change: nothing to undo
    assert h.step_back("a") == "a"
    h.record("a", "ab")
    h.record("ab", "abc")
    assert h.step_back("abc") == "ab" and h.step_back("ab") == "a"
    assert h.step_back("a") == "a"  # nothing older
    assert h.step_forward("a") == "ab" and h.step_forward("ab") == "abc"
    assert h.step_forward("abc") == "abc"


# --- drawing tools ----------------------------------------------------------------------------

COLORS = {"Black": (28, 28, 32), "Red": (229, 57, 53), "White": (255, 255, 255)}


@dataclass
class SketchUi:
    strokes: list[Stroke] = field(default_factory=list)
    color: str = "Black"


class SketchApp(App):
    manifest = AppManifest("Sketch", "com.example.sketch")
    ui: SketchUi

    def initial_ui(self) -> SketchUi:
        return SketchUi()

    def draw(self, x0: int, y0: int, x1: int, y1: int) -> None:
        tool = "eraser" if self.ui.color == "White" else "brush"
        self.ui.strokes.append(Stroke(x0, y0, x1, y1, COLORS[self.ui.color], 40, tool))

    def pick(self, name: str) -> None:
        self.ui.color = name

    def view(self, route: Route) -> Screen:
        return Screen(top_bar=TopBar("Sketch"),
                      content=[Canvas(self.ui.strokes, self.draw, borderless=True)],
                      dock=Palette(COLORS, self.ui.color, self.pick), fill=True)


def test_strokes_keep_tool_and_size_and_old_ones_still_decode() -> None:
    strokes = [Stroke(1, 2, 3, 4), Stroke(5, 6, 7, 8, (255, 255, 255), 30, "eraser")]
    text = encode_strokes(strokes)
    assert text == "1 2 3 4 28 28 32;5 6 7 8 255 255 255 30 1"  # a default stroke: as before
    assert decode_strokes(text) == strokes
    assert decode_strokes(text + ";junk;1 2 3") == strokes
    assert strokes[1].points == ((5, 6), (7, 8))
    with pytest.raises(ValueError, match="brush, eraser"):
        Stroke(0, 0, 1, 1, tool="spray")
    with pytest.raises(ValueError, match="1..200"):
        Stroke(0, 0, 1, 1, size=0)


def test_a_drag_paints_in_the_palette_colour_and_the_eraser_clears() -> None:
    device = start(SketchApp)
    check_accessible(device)
    swatches = [e for e in elements(device) if e.short_id.startswith("color_")]
    assert [e.content_desc for e in swatches] == ["Color Black", "Color Red", "Color White"]
    assert [e.selected for e in swatches] == [True, False, False]
    canvas = element(device, "canvas")
    x0, y0, x1, y1 = canvas.bounds_norm
    mid = (y0 + y1) // 2
    blank = render(device)
    tap(device, desc="Color Red")
    assert element(device, "color_red").selected
    act(device, PhoneAction("drag", x=x0 + 50, y=mid, x2=x1 - 50, y2=mid))
    ui = device.current_app.ui
    assert isinstance(ui, SketchUi) and ui.strokes[0].color == COLORS["Red"]
    red = render(device)
    band = region(red, canvas.bounds)
    assert (np.abs(band.astype(int) - COLORS["Red"]).sum(axis=-1) < 30).sum() > 500
    tap(device, desc="Color White")  # the eraser paints white over the red line
    act(device, PhoneAction("drag", x=x0 + 20, y=mid, x2=x1 - 20, y2=mid))
    assert ui.strokes[1].tool == "eraser"
    erased = region(render(device), canvas.bounds)
    assert (np.abs(erased.astype(int) - COLORS["Red"]).sum(axis=-1) < 120).sum() == 0
    assert (erased != region(blank, canvas.bounds)).any(axis=-1).mean() < 0.002  # at most AA
    with pytest.raises(ValueError, match="Black, Red, White"):
        Palette(COLORS, "Teal", lambda name: None)


# --- the docked chat composer and avatars -----------------------------------------------------


@dataclass
class TalkUi:
    messages: list[ChatMessage] = field(default_factory=lambda: [
        ChatMessage("Hi there", sender="Ann Lee", time="09:40"),
        ChatMessage("Hello", outgoing=True, time="09:41")])
    draft: str = ""
    log: list[str] = field(default_factory=list)


class TalkApp(App):
    manifest = AppManifest("Talk", "com.example.talk")
    ui: TalkUi

    def initial_ui(self) -> TalkUi:
        return TalkUi()

    def set_draft(self, text: str) -> None:
        self.ui.draft = text

    def send(self, text: str) -> None:
        self.ui.messages.append(ChatMessage(text, outgoing=True))
        self.ui.draft = ""

    def view(self, route: Route) -> Screen:
        ui = self.ui
        return Screen(top_bar=TopBar("Ann Lee"),
                      content=ChatThread(ui.messages, draft=ui.draft, on_draft=self.set_draft,
                                         on_send=self.send, composer=False, avatars=True),
                      dock=Composer(ui.draft, self.set_draft, self.send,
                                    on_more=lambda: ui.log.append("more")))


def test_avatars_sit_beside_incoming_bubbles_only() -> None:
    device = start(TalkApp)
    check_accessible(device)
    avatar = element(device, "avatar_0")
    assert avatar.class_name == "android.widget.ImageView"
    assert avatar.content_desc == "Avatar of Ann Lee" and avatar.text == ""
    assert avatar.bounds[2] <= element(device, "message_0").bounds[0]
    assert "avatar_1" not in {e.short_id for e in elements(device)}  # outgoing: none
    disc = region(render(device), avatar.bounds)
    assert (np.abs(disc.astype(int) - disc[disc.shape[0] // 2, 4]).sum(axis=-1) > 60).any()
    assert initials("Ann Lee") == "AL" and initials("+1 555 0100") == "#"
    with pytest.raises(ValueError, match="non-blank"):
        Avatar("  ")


def test_the_docked_composer_turns_more_into_send_and_inserts_emoji() -> None:
    device = start(TalkApp)
    ui = device.current_app.ui
    assert isinstance(ui, TalkUi)
    bar = element(device, "composer_bar")
    assert bar.bounds[3] == T.SCREEN_H - T.NAV_H  # docked at the bottom
    assert element(device, "attach").content_desc == "Attach"
    assert "send" not in {e.short_id for e in elements(device)}
    tap(device, id="attach")
    assert ui.log == ["more"]
    fill(device, "composer", "See you")
    assert element(device, "composer_bar").bounds[3] == T.SCREEN_H - T.NAV_H - T.KEYBOARD_H
    send = element(device, "send")
    assert send.enabled and send.content_desc == "Send"
    assert "attach" not in {e.short_id for e in elements(device)}
    tap(device, desc="Emoji")
    assert ui.draft == "See you" + EMOJI
    tap(device, id="send")
    assert ui.messages[-1].text == "See you" + EMOJI and ui.draft == ""


# --- media players ----------------------------------------------------------------------------


@dataclass
class TuneUi:
    position: int = 30
    playing: bool = True
    track: int = 1
    player: bool = True


class TuneApp(App):
    manifest = AppManifest("Tune", "com.example.tune")
    ui: TuneUi

    def initial_ui(self) -> TuneUi:
        return TuneUi()

    def seek(self, seconds: int) -> None:
        self.ui.position = seconds

    def toggle(self) -> None:
        self.ui.playing = not self.ui.playing

    def skip(self, delta: int) -> None:
        self.ui.track += delta

    def view(self, route: Route) -> Screen:
        ui = self.ui
        tabs = TabBar([Tab("Home", not ui.player, lambda: setattr(ui, "player", False)),
                       Tab("Player", ui.player, lambda: setattr(ui, "player", True))])
        if not ui.player:
            return Screen(top_bar=TopBar("Home"), content=[], bottom=tabs,
                          dock=MiniPlayer("Heat Waves", "Glass Animals", ui.playing,
                                          self.toggle, on_open=lambda: setattr(ui, "player",
                                                                               True)))
        return Screen(top_bar=TopBar("Now playing"), bottom=tabs, content=[
            SeekBar(ui.position, 200, self.seek),
            PlayerControls(ui.playing, self.toggle, on_next=lambda: self.skip(1))])


def test_the_seek_bar_is_a_seekbar_whose_value_is_the_position() -> None:
    device = start(TuneApp)
    check_accessible(device)
    bar = element(device, "seek_bar")
    assert bar.class_name == "android.widget.SeekBar" and bar.text == "30.0"
    assert bar.content_desc == "Seek bar"
    assert (element(device, "elapsed").text, element(device, "duration").text) == (
        "0:30", "3:20")
    x0, y0, x1, y1 = bar.bounds_norm
    act(device, PhoneAction("drag", x=x0 + 60, y=(y0 + y1) // 2, x2=x1 - 1, y2=(y0 + y1) // 2))
    ui = device.current_app.ui
    assert isinstance(ui, TuneUi) and ui.position == 200  # dragged to the end
    assert element(device, "seek_bar").text == "200.0"
    assert element(device, "elapsed").text == "3:20"


def test_player_controls_toggle_and_skip() -> None:
    device = start(TuneApp)
    ui = device.current_app.ui
    assert isinstance(ui, TuneUi)
    assert element(device, "play_pause").content_desc == "Pause"
    assert not element(device, "previous").enabled  # no handler: disabled
    before = render(device)
    tap(device, desc="Pause")
    assert not ui.playing and element(device, "play_pause").content_desc == "Play"
    assert not np.array_equal(render(device), before)
    tap(device, desc="Next")
    assert ui.track == 2


def test_the_mini_player_docks_above_the_bottom_bar() -> None:
    device = start(TuneApp)
    ui = device.current_app.ui
    assert isinstance(ui, TuneUi)
    tap(device, "Home", kind="tab")
    check_accessible(device)
    mini = element(device, "mini_player")
    assert (mini.text, mini.hint) == ("Heat Waves", "Glass Animals")
    assert mini.bounds[3] == T.SCREEN_H - T.NAV_H - T.TAB_BAR_H  # right above the tabs
    tap(device, id="mini_play_pause")
    assert not ui.playing
    tap(device, id="mini_player")
    assert ui.player


def test_times_and_bad_durations() -> None:
    assert (clock(0), clock(75), clock(3725)) == ("0:00", "1:15", "1:02:05")
    with pytest.raises(ValueError, match=">= 0"):
        clock(-1)
    with pytest.raises(ValueError, match=">= 0"):
        SeekBar(0, -5, lambda s: None)

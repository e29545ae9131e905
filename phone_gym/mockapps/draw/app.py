"""Draw (Simple Draw Pro): a full-screen canvas (``kit.Canvas``: a drag draws a stroke) and
its tools, as in the real app: brush and eraser, the colour (a swatch opening a palette,
``kit.Palette``), the brush size (a slider), undo and clear, and "Save" (a file name and
an extension: png, svg or jpg) into ``/sdcard/Pictures``. Each stroke records its tool,
colour, size and ends (``kit.Stroke``); an eraser's stroke paints the canvas's white.

The drawing being made is transient UI state (``DrawUi.strokes``, encoded strokes: lost
when the app is force-stopped; the app keeps no data of its own); saving writes the picture to
the shared ``system.files`` store as ``File(path, strokes, "image/<ext>")``: PhoneWorld
keeps files as text, so a drawing file's content is its strokes (empty for a blank
canvas). Saving over a taken name asks first.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from ...world.app import App, Route
from ...world.kit import (
    TOOLS,
    Canvas,
    Palette,
    Radio,
    Stroke,
    decode_strokes,
    encode_strokes,
)
from ...world.kit.localize import in_locale
from ...world.system import File
from ...world.widgets import (
    Column,
    Dialog,
    DialogButton,
    Icon,
    Node,
    Row,
    Screen,
    Slider,
    TextField,
    TopBar,
)
from .manifest import MANIFEST

FOLDER = "/sdcard/Pictures"
#: The name the save dialog proposes (the real app proposes ``image_<date>_<time>``).
DEFAULT_NAME = "image_20231015_153400"
EXTENSIONS = ("png", "svg", "jpg")
COLORS: dict[str, tuple[int, int, int]] = {
    "Black": (28, 28, 32), "Red": (229, 57, 53), "Blue": (30, 136, 229),
    "Green": (67, 160, 71), "Yellow": (253, 216, 53), "Purple": (142, 36, 170),
}
#: The brush size slider's range and the size a new drawing starts with (logical pixels).
SIZES = (2, 60)
DEFAULT_SIZE = 10
TOOL_GLYPHS = {"brush": "✎", "eraser": "⌫"}


@dataclass
class DrawUi:
    """The canvas's strokes (encoded, ``kit.encode_strokes``), the tool, color and brush
    size, the dialog showing, and the file name and extension being chosen."""

    strokes: str = ""
    color: str = "Black"
    tool: str = "brush"
    size: int = DEFAULT_SIZE
    dialog: str = ""  # "color", "save", "overwrite"
    name: str = ""
    ext: str = "png"


def file_name(name: str, ext: str) -> str:
    """``name`` with ``.ext`` (not doubled when the name ends with it already)."""
    name = name.strip()
    return name if name.lower().endswith(f".{ext}") else f"{name}.{ext}"


class DrawApp(App):
    manifest = MANIFEST

    ui: DrawUi

    def initial_ui(self) -> DrawUi:
        return DrawUi()

    # updates
    def draw(self, x0: int, y0: int, x1: int, y1: int) -> None:
        ui = self.ui
        color = COLORS[ui.color] if ui.tool == "brush" else (255, 255, 255)
        stroke = Stroke(x0, y0, x1, y1, color, ui.size, ui.tool)
        self.ui.strokes = encode_strokes([*decode_strokes(self.ui.strokes), stroke])

    def undo(self) -> None:
        strokes = decode_strokes(self.ui.strokes)
        if strokes:
            self.ui.strokes = encode_strokes(strokes[:-1])

    def clear(self) -> None:
        if self.ui.strokes:
            self.ui.strokes = ""

    def pick_color(self, name: str) -> None:
        """Choose a colour (from the palette): it also takes the brush back up."""
        if name not in COLORS:
            raise ValueError(f"unknown color {name!r}: expected one of {', '.join(COLORS)}")
        self.ui.color, self.ui.tool, self.ui.dialog = name, "brush", ""

    def pick_tool(self, tool: str) -> None:
        if tool not in TOOLS:
            raise ValueError(f"unknown tool {tool!r}: expected one of {', '.join(TOOLS)}")
        self.ui.tool = tool

    def set_size(self, size: int) -> None:
        self.ui.size = max(SIZES[0], min(SIZES[1], size))

    def ask(self, dialog: str) -> None:
        self.ui.dialog = dialog
        if dialog == "save" and not self.ui.name:
            self.ui.name = DEFAULT_NAME

    def close_dialog(self) -> None:
        self.ui.dialog = ""

    def set_name(self, text: str) -> None:
        self.ui.name = text

    def set_ext(self, ext: str) -> None:
        self.ui.ext = ext

    def path(self) -> str:
        return f"{FOLDER}/{file_name(self.ui.name, self.ui.ext)}"

    def save(self, overwrite: bool = False) -> None:
        name = file_name(self.ui.name, self.ui.ext)
        if not self.ui.name.strip() or "/" in name:
            self.toast(self.t("Invalid file name"))
            return
        path = self.path()
        if path in self.system.files and not overwrite:
            self.ui.dialog = "overwrite"
            return
        self.system.files.put(File(path, self.ui.strokes, f"image/{self.ui.ext}"))
        self.ui.dialog = ""
        self.toast(self.t("Saved as {name}", name=name))

    # views
    def view(self, route: Route) -> Screen:
        """The canvas under its tool bar, the fixed strings in the phone's locale."""
        screen = self.canvas_screen()
        return in_locale(self, screen)

    def canvas_screen(self) -> Screen:
        return Screen(
            top_bar=TopBar("Draw", actions=[
                Icon("↩", "Undo", self.undo, id="undo"),
                Icon("🗑", "Clear", self.clear, id="clear"),
                Icon("💾", "Save", partial(self.ask, "save"), id="save")]),
            content=[Canvas(decode_strokes(self.ui.strokes), self.draw, desc="Drawing",
                            height=900, borderless=True)],
            dock=self.tools(), fill=True,
            dialog=self.dialog(), on_dismiss=self.close_dialog)

    def tools(self) -> Node:
        """The tool bar under the canvas: brush, eraser, the colour swatch, the size."""
        ui = self.ui
        icons = []
        for tool in TOOLS:
            icon = Icon(TOOL_GLYPHS[tool], tool.capitalize(), partial(self.pick_tool, tool),
                        id=tool)
            icon.selected = ui.tool == tool
            icons.append(icon)
        swatch = Icon("", self.t("Color: {color}", color=self.t(ui.color)),
                      partial(self.ask, "color"), id="color")
        swatch.style, swatch.color = "swatch", COLORS[ui.color]
        size = Slider("Brush size", ui.size, *SIZES, self.set_size, id="brush_size")
        size.weight = 3.0
        return Row([*icons, swatch, size], id="tools")

    def dialog(self) -> Node | None:
        ui = self.ui
        if ui.dialog == "color":
            return Dialog("Change color", "", [DialogButton("Cancel", self.close_dialog)],
                          body=[Palette(COLORS, ui.color, self.pick_color, id="colors")])
        if ui.dialog == "save":
            radios = [Radio(ext, ext == ui.ext, partial(self.set_ext, ext), id=f"ext_{ext}")
                      for ext in EXTENSIONS]
            return Dialog("Save as", "", [DialogButton("Cancel", self.close_dialog),
                                          DialogButton("OK", self.save)],
                          body=[TextField(ui.name, self.set_name, id="file_name",
                                          label="File name", on_submit=self.save),
                                Column(radios, id="extensions")])
        if ui.dialog == "overwrite":
            replace = self.t("Replace {name}?", name=file_name(ui.name, ui.ext))
            return Dialog("File exists", replace, [
                DialogButton("Cancel", self.close_dialog),
                DialogButton("Replace", partial(self.save, True))])
        return None


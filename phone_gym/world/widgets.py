"""The widget tree: what an app's view returns.

A view builds plain ``Node`` objects with the constructors below. Event handlers are plain
callables (closures over the app's update functions); the device calls them. Nodes carry
the accessibility properties Android exposes (resource id, class, text, description,
clickable, long-clickable, scrollable, editable, checked, focused, enabled) and, for a
slider, its range (Android's ``RangeInfo``).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

#: A tap (or other event) handler: what it returns is ignored.
Handler = Callable[[], object]
TextHandler = Callable[[str], None]
ValueHandler = Callable[[int], None]
#: A finger stroke on a canvas, from (x0, y0) to (x1, y1), in 0..1000 of the canvas's box.
StrokeHandler = Callable[[int, int, int, int], None]
MenuItem = tuple[str, Handler]

#: Android class names reported in the accessibility tree, per widget kind.
ANDROID_CLASS: dict[str, str] = {
    "column": "android.widget.LinearLayout",
    "row": "android.widget.LinearLayout",
    "text": "android.widget.TextView",
    "button": "android.widget.Button",
    "text_field": "android.widget.EditText",
    "toggle": "android.widget.Switch",
    "checkbox": "android.widget.CheckBox",
    "list": "androidx.recyclerview.widget.RecyclerView",
    "list_item": "android.view.ViewGroup",
    "subtitle": "android.widget.TextView",  # a part of a list item's second line
    "icon": "android.widget.ImageButton",
    "fab": "android.widget.ImageButton",
    "top_bar": "android.view.ViewGroup",
    "tab_bar": "android.widget.HorizontalScrollView",
    "tab": "android.widget.LinearLayout",
    "dialog": "android.widget.FrameLayout",
    "spacer": "android.view.View",
    "key": "android.widget.Button",
    "menu_item": "android.widget.TextView",
    "screen": "android.widget.FrameLayout",
    "status_bar": "android.view.ViewGroup",
    "nav_bar": "android.view.ViewGroup",
    "keyboard": "android.inputmethodservice.KeyboardView",
    "toast": "android.widget.Toast",
    "app_icon": "android.widget.TextView",
    "menu": "android.widget.ListView",
    "slider": "android.widget.SeekBar",
    # screen kit kinds (``phone_gym.world.kit``)
    "radio": "android.widget.RadioButton",
    "chip": "android.widget.CompoundButton",  # a filter chip: checkable
    "chip_group": "android.view.ViewGroup",
    "card": "android.widget.FrameLayout",
    "thumb": "android.widget.ImageView",
    "bubble": "android.widget.TextView",
    "sheet": "android.widget.FrameLayout",
    # media kinds (``phone_gym.world.kit.media``): their pixels, not their text, carry content
    "picture": "android.widget.ImageView",
    "canvas": "android.view.View",
    # map kinds (``world.maps``): a map view, its pins and its floating buttons
    "map": "android.view.View",
    "pin": "android.widget.ImageView",
    "map_button": "android.widget.ImageButton",
    # a camera's full-width preview (Camera2 draws it in a TextureView), its overlays at boxes
    "viewfinder": "android.view.TextureView",
    # pickers and calendar views (``phone_gym.world.kit.pickers``, ``kit.calendars``)
    "dial": "android.view.View",  # a time picker's clock face (ClockFaceView)
    "dial_num": "android.widget.TextView",  # a number on the face
    "day": "android.widget.TextView",  # a day (or a year) in a date picker's grid
    "time_chip": "android.widget.Button",  # the hour, minute or AM/PM of a time picker
    "board": "android.view.ViewGroup",  # children placed at boxes (``Node.at``)
    "event_chip": "android.widget.TextView",  # an event in a calendar's month or day view
    # navigation drawers and speed dials (``kit.drawer``)
    "drawer": "com.google.android.material.navigation.NavigationView",
    "drawer_header": "android.widget.LinearLayout",
    "drawer_item": "android.widget.CheckedTextView",
    "speed_dial": "android.view.ViewGroup",
    "speed_dial_item": "android.widget.Button",
}

#: Kinds whose ``text`` is drawn into the screenshot but never reported in the accessibility
#: tree (Android reports no text for an ImageView or a custom-drawn View): a receipt photo's
#: lines, a video frame's words, a canvas's strokes. An agent reads them from the pixels.
PIXELS_ONLY = frozenset({"picture", "canvas", "map", "viewfinder"})

#: Logical pixels between each end of a slider and the ends of its track (room for the
#: thumb): the drawing and the device's touch handling both use it.
SLIDER_INSET = 40
SLIDER_H = 120
#: The content description of the app bar's drawer toggle (Android's
#: ``ActionBarDrawerToggle``: R.string.nav_drawer_open in most apps, "Open navigation drawer").
DRAWER_TOGGLE_DESC = "Open navigation drawer"
#: Ids of the app bar's navigation button, drawn at its left: the up arrow, the drawer toggle.
NAV_BUTTON_IDS = ("navigate_up", "drawer_toggle")
#: How far from the left edge a drag must start to pull a drawer out (DrawerLayout's 20 dp).
DRAWER_EDGE = 53
#: Text-field styles in which enter starts a new line (a multi-line field, the kit's
#: Markdown editor) instead of submitting the field.
MULTILINE_STYLES = frozenset({"multiline", "markdown"})


@dataclass(eq=False)
class Node:
    """One widget. Layout fills ``height`` when it is 0."""

    kind: str
    text: str = ""
    id: str = ""
    desc: str = ""
    style: str = ""
    hint: str = ""
    children: list[Node] = field(default_factory=list)
    on_click: Handler | None = None
    on_long_click: Handler | None = None
    on_change: TextHandler | None = None
    on_submit: Handler | None = None
    on_slide: ValueHandler | None = None
    on_stroke: StrokeHandler | None = None
    menu: list[MenuItem] | None = None
    checked: bool | None = None
    enabled: bool = True
    selected: bool = False
    copyable: bool = False
    height: int = 0
    weight: float = 1.0
    glyph: str = ""
    color: tuple[int, int, int] | None = None
    range_info: tuple[int, int, int] | None = None  # a slider's (minimum, maximum, value)
    rows: Rows | None = None  # a virtual list's rows (built only where they show)
    #: A child's box: of a ``dial`` or ``board``, in 0..1000 of the parent's box; of a
    #: ``map``, in logical pixels from the map's top left (``layout.place``).
    at: tuple[int, int, int, int] | None = None

    @property
    def clickable(self) -> bool:
        return self.enabled and (
            self.on_click is not None or self.kind == "text_field"
            or (self.kind == "slider" and self.on_slide is not None)
            or self.on_stroke is not None
        )

    @property
    def long_clickable(self) -> bool:
        return self.enabled and (
            self.on_long_click is not None
            or self.menu is not None
            or self.copyable
            or self.kind == "text_field"
        )

    @property
    def editable(self) -> bool:
        return self.kind == "text_field" and self.enabled

    @property
    def checkable(self) -> bool:
        return self.checked is not None


class Headers(list):  # type: ignore[type-arg]
    """A virtual list's ``(i, title)`` headers sorted by ``i`` (each ``i`` once), with
    ``starts``, their rows: ``Rows`` takes them as they are (a list of thousands of days
    made once, not sorted again at every frame)."""

    def __init__(self, pairs: Iterable[tuple[int, str]] = ()) -> None:
        super().__init__(sorted(pairs))
        self.starts = [i for i, _ in self]
        if len(set(self.starts)) != len(self.starts):
            raise ValueError("Headers need one title per row at most")


@dataclass(eq=False)
class Rows:
    """The rows of a virtual list: ``count`` rows of ``height`` pixels, row ``i`` built by
    ``build(i)`` only when it is (nearly) on screen, and section headers: ``headers`` lists
    ``(i, title)``, a caption shown above row ``i``. Like Android's RecyclerView, rows off
    screen do not exist, so a list of thousands costs what its visible rows cost."""

    count: int
    height: int
    build: Callable[[int], Node]
    headers: Sequence[tuple[int, str]] = ()
    header_height: int = 84

    def __post_init__(self) -> None:
        made = self.headers
        if isinstance(made, Headers) and (not made or (made.starts[0] >= 0
                                                       and made.starts[-1] < self.count)):
            self._starts = made.starts
            return
        self.headers = sorted((i, t) for i, t in self.headers if 0 <= i < self.count)
        self._starts = [i for i, _ in self.headers]

    def title(self, i: int) -> str | None:
        """The header shown above row ``i``, if any."""
        at = bisect_left(self._starts, i)
        if at < len(self._starts) and self._starts[at] == i:
            return self.headers[at][1]
        return None

    def headers_before(self, i: int) -> int:
        """How many headers sit above row ``i`` (those at ``i`` included)."""
        return bisect_right(self._starts, i)

    def top(self, i: int) -> int:
        """The y of row ``i`` below the list's top (its headers come first)."""
        return i * self.height + self.headers_before(i) * self.header_height

    @property
    def total(self) -> int:
        return self.count * self.height + len(self.headers) * self.header_height

    def first_below(self, y: int) -> int:
        """The first row whose bottom is below ``y`` (relative to the list's top)."""
        lo, hi = 0, self.count
        while lo < hi:
            mid = (lo + hi) // 2
            if self.top(mid) + self.height <= y:
                lo = mid + 1
            else:
                hi = mid
        return lo


@dataclass(eq=False)
class Screen:
    """What a view returns: the parts of one app screen.

    ``content`` is laid out top to bottom and scrolls when it is taller than the space
    between ``top_bar`` and ``bottom`` (a tab bar). ``dock`` is docked full width below the
    content and above the bottom bar or the keyboard, and never scrolls (a chat composer, a
    mini player, an editor's formatting bar). When ``fill`` is set, the last content node
    grows to reach the bottom of the content area (a full-screen editor or canvas).
    ``dialog`` is shown modally above it (centered; a ``sheet`` node, ``kit.BottomSheet``,
    sits at the bottom, full width); pressing back or tapping outside calls ``on_dismiss``.
    """

    content: list[Node]
    top_bar: Node | None = None
    bottom: Node | None = None
    fab: Node | None = None
    dialog: Node | None = None
    on_dismiss: Handler | None = None
    on_back: Callable[[], bool] | None = None
    dock: Node | None = None
    fill: bool = False


# --- constructors: what app views use ------------------------------------------------------


def Text(text: str, *, style: str = "body", id: str = "", copyable: bool = False) -> Node:
    """A label. Styles: title, body, caption, big (a large number, like a clock)."""
    return Node("text", text=text, style=style, id=id, copyable=copyable)


def Button(
    text: str, on_click: Handler | None, *, id: str = "", style: str = "primary",
    enabled: bool = True,
) -> Node:
    """A full-width button. Styles: primary, secondary, danger."""
    return Node("button", text=text, on_click=on_click, id=id, style=style, enabled=enabled)


def TextField(
    value: str, on_change: TextHandler, *, hint: str = "", id: str, label: str = "",
    on_submit: Handler | None = None, multiline: bool = False,
) -> Node:
    """An editable field; clicking it focuses it and shows the keyboard."""
    return Node(
        "text_field", text=value, on_change=on_change, hint=hint, id=id, desc=label,
        on_submit=on_submit, style="multiline" if multiline else "",
        height=360 if multiline else 0,
    )


def Toggle(label: str, checked: bool, on_toggle: Handler, *, id: str = "",
           desc: str = "") -> Node:
    """A switch row with a label (a switch without one needs ``desc`` for accessibility)."""
    return Node("toggle", text=label, checked=checked, on_click=on_toggle, id=id, desc=desc)


def Slider(
    label: str, value: int, minimum: int, maximum: int, on_change: ValueHandler, *,
    id: str = "",
) -> Node:
    """A horizontal slider (Android's SeekBar) over ``minimum..maximum``, described by
    ``label``. A tap on it, or a drag that starts on it, moves the thumb to the touch's x
    and calls ``on_change`` with the new value (see ``slider_value_at``). Its text is the
    value as a float, as uiautomator reports a SeekBar's progress ("128.0")."""
    value = max(minimum, min(maximum, value))
    return Node("slider", text=f"{float(value)}", desc=label, id=id, hint=f"{minimum}-{maximum}",
                on_slide=on_change, range_info=(minimum, maximum, value), height=SLIDER_H)


def slider_value_at(node: Node, x0: int, x1: int, x: int) -> int:
    """The value a touch at ``x`` gives a slider drawn across ``[x0, x1)``: its track runs
    from ``x0 + SLIDER_INSET`` (minimum) to ``x1 - SLIDER_INSET`` (maximum); touches past
    an end give that end's value."""
    assert node.range_info is not None, "not a slider"
    lo, hi, _ = node.range_info
    start, length = x0 + SLIDER_INSET, max(1, x1 - x0 - 2 * SLIDER_INSET)
    share = min(1.0, max(0.0, (x - start) / length))
    return lo + round(share * (hi - lo))


def slider_x(node: Node, x0: int, x1: int, value: int) -> float:
    """Where on a slider drawn across ``[x0, x1)`` the thumb of ``value`` sits (the inverse
    of ``slider_value_at``)."""
    assert node.range_info is not None, "not a slider"
    lo, hi, _ = node.range_info
    share = (value - lo) / (hi - lo) if hi > lo else 0.0
    return x0 + SLIDER_INSET + share * (x1 - x0 - 2 * SLIDER_INSET)


def Checkbox(label: str, checked: bool, on_toggle: Handler, *, id: str = "") -> Node:
    """A checkbox row with a label."""
    return Node("checkbox", text=label, checked=checked, on_click=on_toggle, id=id)


#: The separator between the ``parts`` of a list item's subtitle.
PART_SEPARATOR = " · "


def ListItem(
    title: str, subtitle: str = "", *, on_click: Handler | None = None,
    on_long_click: Handler | None = None, menu: list[MenuItem] | None = None,
    id: str = "", glyph: str = "", trailing: Node | None = None,
    color: tuple[int, int, int] | None = None, parts: Sequence[tuple[str, str]] = (),
    picture: str = "",
) -> Node:
    """A row in a list: optional avatar glyph, a title, a subtitle, an optional trailing widget.
    With ``picture`` (``pictures.encode(kind, seed)``) the avatar is that drawn picture (a
    contact's photo, an album's cover, a video's thumbnail).

    ``parts`` are ``(id, text)`` pieces of the subtitle that the accessibility tree shows as
    text views of their own (as Android rows hold one ``TextView`` per piece, e.g. an alarm's
    label and its days); the subtitle is then the non-empty pieces joined with `` · ``.
    """
    pieces = [Node("subtitle", text=text, id=pid) for pid, text in parts if text]
    if pieces:
        subtitle = PART_SEPARATOR.join(p.text for p in pieces)
    return Node(
        "list_item", text=title, hint=subtitle, on_click=on_click, on_long_click=on_long_click,
        menu=menu, id=id, glyph=glyph, children=([trailing] if trailing else []) + pieces,
        color=color, style=picture,
    )


def ListView(items: Sequence[Node], *, id: str = "list", empty_text: str = "Nothing here") -> Node:
    """A vertical list of items (scrolls with the screen)."""
    children = list(items) or [Text(empty_text, style="caption", id="empty")]
    return Node("list", id=id, children=children)


def VirtualList(count: int, build: Callable[[int], Node], *, id: str = "list",
                row_height: int = 196, headers: Sequence[tuple[int, str]] = (),
                empty_text: str = "Nothing here") -> Node:
    """A vertical list of ``count`` rows of ``row_height``, row ``i`` built by ``build(i)``
    only when it is on screen (see ``Rows``); ``headers`` are ``(i, title)`` captions shown
    above row ``i``. Use it for lists that may hold hundreds of records."""
    if count <= 0:
        return ListView([], id=id, empty_text=empty_text)
    return Node("list", id=id, rows=Rows(count, row_height, build, headers))


def Icon(
    glyph: str, desc: str, on_click: Handler | None = None, *, id: str = "",
    on_long_click: Handler | None = None,
) -> Node:
    """A small square icon button identified by its content description."""
    return Node(
        "icon", glyph=glyph, desc=desc, on_click=on_click, id=id, on_long_click=on_long_click,
    )


def Fab(glyph: str, desc: str, on_click: Handler, *, id: str = "fab") -> Node:
    """The floating action button at the bottom right."""
    return Node("fab", glyph=glyph, desc=desc, on_click=on_click, id=id)


def TopBar(
    title: str, *, on_back: Handler | None = None, actions: Sequence[Node] = (),
    on_menu: Handler | None = None,
) -> Node:
    """The app bar: an optional up arrow or, with ``on_menu``, the drawer toggle (the
    "menu" icon, ``DRAWER_TOGGLE_DESC``, id ``drawer_toggle``) at its left, a title, action
    icons on the right."""
    if on_back is not None and on_menu is not None:
        raise ValueError("TopBar: on_back or on_menu; accepted: at most one navigation button")
    kids: list[Node] = []
    if on_back is not None:
        kids.append(Icon("<", "Navigate up", on_back, id="navigate_up"))
    if on_menu is not None:
        kids.append(Icon("menu", DRAWER_TOGGLE_DESC, on_menu, id="drawer_toggle"))
    kids.extend(actions)
    return Node("top_bar", text=title, id="toolbar", children=kids)


def Tab(label: str, selected: bool, on_click: Handler, *, id: str = "") -> Node:
    """One tab of a TabBar."""
    return Node("tab", text=label, selected=selected, on_click=on_click, id=id)


def TabBar(tabs: Sequence[Node]) -> Node:
    """A bottom navigation bar of tabs."""
    return Node("tab_bar", id="tab_bar", children=list(tabs))


def Row(children: Sequence[Node], *, id: str = "") -> Node:
    """Children side by side, sharing the width by their ``weight``."""
    return Node("row", id=id, children=list(children))


def Column(children: Sequence[Node], *, id: str = "") -> Node:
    """Children stacked top to bottom."""
    return Node("column", id=id, children=list(children))


def Spacer(height: int = 40) -> Node:
    """Empty vertical space (logical pixels)."""
    return Node("spacer", height=height)


def Dialog(title: str, message: str, buttons: Sequence[Node], *, body: Sequence[Node] = ()) -> Node:
    """A modal dialog with a title, a message, optional body widgets and buttons in a row."""
    kids: list[Node] = [Text(title, style="title", id="alertTitle")]
    if message:
        kids.append(Text(message, id="message"))
    kids.extend(body)
    kids.append(Row(list(buttons), id="buttonPanel"))
    return Node("dialog", text=title, id="dialog", children=kids)


def DialogButton(text: str, on_click: Handler, *, id: str = "") -> Node:
    """A text button for dialogs."""
    return Node("button", text=text, on_click=on_click, id=id or f"button_{text.lower()}",
                style="text")

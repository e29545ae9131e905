"""The screen kit: shared building blocks that apps compose, so that apps look and behave
alike. Each block is a function of values and callbacks returning widget ``Node``s, a list
of content nodes or a whole ``Screen``; the kit keeps no state. Where a block needs
transient state while it is open (a form, a picker), the kit gives a small dataclass that
the app keeps in its ``ui`` and the block's handlers update. Ids are stable and
documented per block, so tasks and tests can find widgets by id.

Lists
    ``SearchList(query, on_query, count, build, headers=section_headers(titles))``
        content: a search field and a virtual list (only visible rows built, section
        headers, ``No results for "<query>"`` when nothing matches).
    ``Tabs(labels, selected, on_select)``: a row of top tabs (ids ``tab_<label>``).
    ``BottomNav(labels, icons, selected, on_select, style=look.nav_style)``: a
        ``Screen(bottom=)`` of 3-5 destinations, a Material icon over each label (ids
        ``tab_<label>``, as ``Tabs``); Material 3's pill or WeChat's green tabs.
    ``Chips(labels, selected, on_toggle)``: filter chips wrapping onto lines.
    ``SettingsList([Section(title, rows)])`` with ``SwitchRow``, ``ValueRow`` (opens a
        ``ChoiceDialog``) and ``NavRow`` rows.

App bars (``kit.searchbar``)
    ``SearchAppBar(SearchField(query, on_query, hint=) | SearchEntry(hint, on_click) |
        Logo(text) | Place(name), actions=)``: an app bar without a title that shows what
        the real app shows instead: a search bar, an omnibox, a logo, the place.

Pages
    ``DetailPage(title, [(label, value) | Detail(...)], on_back=..., actions=[ActionIcon(
        "edit", ...)])``: a Screen with labelled, copyable values and top bar actions.
    ``Card(title, subtitle=, body=, glyph=, actions=[(label, fn)], on_click=)`` and
        ``CardList(cards)``; ``Image(desc, glyph)``: a picture described in text.
    ``ImageGrid([GridItem(label, desc, glyph)], columns=3, on_open=)``: thumbnails.
    ``ChatThread([ChatMessage(text, outgoing, sender, time)], draft=, on_draft=,
        on_send=, composer=, avatars=)``: content: bubbles (beside their sender's
        ``Avatar`` with ``avatars``) and, unless ``composer=False``, a composer;
        ``Composer(draft, on_draft, on_send, on_more=)`` docks one (``Screen(dock=)``):
        emoji, field, and "more" that turns into Send once there is text.
    ``WebPage(parse_page(markup), address=, on_address=, on_go=, on_link=)``: content:
        an address bar, headings, paragraphs, links and images.

Media (pixels only: the accessibility tree shows their description, not their content)
    ``Picture(lines, desc=)``: a photo of a page of text (a receipt, a recipe card).
    ``Canvas(strokes, on_stroke)``: a drawing surface; a drag across it is a ``Stroke``
        (ends, colour, size, tool: brush or eraser); ``Palette(colors, selected, on_pick)``:
        colour swatches.
    ``SeekBar(position, duration, on_seek)``: a player's SeekBar and its times;
        ``PlayerControls(playing, on_toggle, on_previous=, on_next=)``;
        ``MiniPlayer(title, artist, playing, on_toggle, on_open=)``: docked above the
        bottom bar (``Screen(dock=)``).
    ``VideoRow(title, subtitle, picture=, layout="side"|"card", parts=)``: a list item with
        a 16:9 picture left of its text or full width above it (list ``row_height=
        video_row_height(layout)``).
    In ``kit.media``: a camera's ``Viewfinder(picture, on_swipe=, overlays=)`` (edge to
        edge), ``ModeSwitcher(modes, selected, on_select)``, ``Shutter(state, label, fn)``,
        ``PhotoPreview``, ``RoundIcon``; a recorder's ``RoundButton(label, icon, fn, size=)``
        and ``Waveform(seed, seconds, live=)``.

Editor (``editor``)
    ``EditorView(text, on_change, EditHistory())``: a full-screen Markdown editor (an
        EditText drawing its text highlighted; ``Screen(fill=True)``) and
        ``FormatBar(text, on_change, history)``: bold, italic, header, list, checkbox, code,
        link, undo and redo, docked above the keyboard (``Screen(dock=)``).

Navigation (``drawer``)
    ``NavigationDrawer([Destination(label, icon, fn, id=, badge=) | "caption"], selected=,
        title=, on_close=)`` shown with ``with_drawer(screen, drawer, close)`` and opened by
        ``TopBar(on_menu=)`` (the "Open navigation drawer" toggle, or a drag from the left
        edge); ``SpeedDialFab(icon, desc, open)`` and ``SpeedDial([DialAction(label, icon,
        fn)], on_close=)`` shown with ``with_speed_dial``: back and taps outside close them.

Mini-programs (``capsule``; see ``world.app``, "Mini-programs")
    ``with_capsule(app, screen)``: the capsule bar ("···" menu, "⊙" close) on a
        mini-program's screen. ``PaySheet(PayState(amount, payee), on_pin=, on_pay=,
        on_cancel=)`` and ``pay(system, state)``: the host wallet's PIN-confirmed payment;
        ``yuan(cents)`` formats money.

Locales (``localize``)
    ``localize_tree(node, strings)``: the kit's built-in strings in ``node``'s tree (and the
        rows of its virtual lists) in an app's catalogue words (``app.t``'s table).

Forms and dialogs
    ``FormEditor(title, [FormField(key, label, kind, required=)], ui.form, on_save=,
        on_close=, validate=)``: a Screen; keep ``ui.form = FormState.of(values)``. Kinds:
        text, number, multiline, choice (a dialog), chips (under a caption).
        Errors show under the fields, Save calls ``on_save(values)`` only when valid,
        back asks "Discard changes?" when the form is dirty.
    ``ConfirmDialog(title, message, on_confirm=, on_cancel=, confirm=, destructive=)``.
    ``ChoiceDialog(title, options, selected, on_pick, on_cancel)``: radio buttons.
    ``BottomSheet(title, [(label, fn) | SheetOption(...)])``: a panel at the bottom.
    ``MaterialTimePicker(ui.clock, on_done=, on_cancel=, on_change=)`` with ``ui.clock =
        ClockState.of("14:05", is24h=...)``: Android's clock face (or typed fields);
        ``MaterialDatePicker(ui.cal, ...)`` with ``ui.cal = CalendarState.of("2024-03-05",
        today=...)``: Android's month grid (or a typed date). Oracles drive them with
        ``phone_gym.tasks.pickers.pick_time`` / ``pick_date``.

Record apps (``records``)
    ``RecordApp``: an app of one table of records, a sorted (maybe searchable) list with
        multi-select delete, a record's page and its ``FormEditor``; a subclass declares a
        ``RecordLook(noun=, table=, title=, fields=[RecordField(key, label, kind)],
        order=, ...)`` and ``initial_data`` (Broccoli and Pro Expense are two).

Show a dialog or sheet as ``Screen(..., dialog=node, on_dismiss=close)``: back and taps
outside it call ``on_dismiss``. A sketch::

    def view(self, route: Route) -> Screen:
        shown = self.matching(self.ui.query)
        return Screen(
            top_bar=TopBar("Recipes"),
            content=[Chips(TAGS, self.ui.tags, self.toggle_tag),
                     *SearchList(self.ui.query, self.set_query, len(shown),
                                 lambda i: ListItem(shown[i].name, id=f"recipe_{i}"))],
            dialog=self.sheet() if self.ui.sharing else None,
            on_dismiss=lambda: setattr(self.ui, "sharing", False))
"""

from __future__ import annotations

from .bottomnav import BottomNav
from .capsule import PaySheet, PayState, pay, wallet_pin, with_capsule, yuan
from .chat import Avatar, Bubble, ChatMessage, ChatThread, Composer, initials
from .common import slug
from .dialogs import BottomSheet, ChoiceDialog, ConfirmDialog, Radio, SheetOption
from .drawer import (
    Destination,
    DialAction,
    NavigationDrawer,
    SpeedDial,
    SpeedDialFab,
    with_drawer,
    with_speed_dial,
)
from .editor import EditHistory, EditorView, FormatBar, apply_format, markdown_runs
from .forms import FormEditor, FormField, FormState, check_form
from .lists import (
    Chip,
    Chips,
    NavRow,
    SearchList,
    Section,
    SettingsList,
    SwitchRow,
    Tabs,
    ValueRow,
    VideoRow,
    section_headers,
    video_row_height,
)
from .localize import localize_screen, localize_tree
from .media import (
    TOOLS,
    Canvas,
    MiniPlayer,
    Palette,
    Picture,
    PlayerControls,
    SeekBar,
    Stroke,
    clock,
    decode_strokes,
    encode_strokes,
)
from .pages import (
    ACTIONS,
    ActionIcon,
    Block,
    Card,
    CardList,
    Detail,
    DetailPage,
    GridItem,
    Image,
    ImageGrid,
    WebPage,
    detail_rows,
    parse_page,
)
from .pickers import (
    CalendarState,
    ClockState,
    MaterialDatePicker,
    MaterialTimePicker,
)
from .records import RecordApp, RecordField, RecordLook, RecordUi
from .searchbar import Logo, Place, SearchAppBar, SearchEntry, SearchField

__all__ = [
    "Logo", "Place", "SearchAppBar", "SearchEntry", "SearchField",
    "Destination", "DialAction", "NavigationDrawer", "SpeedDial", "SpeedDialFab",
    "with_drawer", "with_speed_dial",
    "Canvas", "Picture", "Stroke", "decode_strokes", "encode_strokes",
    "TOOLS", "MiniPlayer", "Palette", "PlayerControls", "SeekBar", "clock",
    "Avatar", "Composer", "initials",
    "EditHistory", "EditorView", "FormatBar", "apply_format", "markdown_runs",
    "ACTIONS", "ActionIcon", "Block", "BottomSheet", "Bubble", "Card", "CardList",
    "ChatMessage", "ChatThread", "Chip", "Chips", "ChoiceDialog", "ConfirmDialog",
    "Detail", "DetailPage", "FormEditor", "FormField", "FormState",
    "GridItem", "Image", "ImageGrid", "NavRow", "Radio", "SearchList", "Section",
    "SettingsList", "SheetOption", "SwitchRow", "Tabs", "ValueRow",
    "VideoRow", "video_row_height",
    "BottomNav",
    "WebPage", "check_form", "detail_rows", "parse_page", "section_headers", "slug",
    "PaySheet", "PayState", "pay", "wallet_pin", "with_capsule", "yuan",
    "localize_screen", "localize_tree",
    "RecordApp", "RecordField", "RecordLook", "RecordUi",
    "CalendarState", "ClockState", "MaterialDatePicker", "MaterialTimePicker",
]

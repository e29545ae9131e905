from __future__ import annotations

import time

import numpy as np
import pytest
from PIL import Image

from phone_gym.world import theme as T
from phone_gym.world.glyphs import SYMBOLS
from phone_gym.world.keyboard import keyboard_node
from phone_gym.world.layout import Frame, place, place_bar, place_column
from phone_gym.world.render import Renderer, TileCache, rect_to_px, scrimmed
from phone_gym.world.widgets import (
    Button,
    Dialog,
    DialogButton,
    Fab,
    Icon,
    ListItem,
    ListView,
    Node,
    Spacer,
    Tab,
    TabBar,
    Text,
    TextField,
    Toggle,
    TopBar,
)

VIEWPORT = (0, 258, 1080, 1400)


def noop() -> None:
    pass


def noop_text(_: str) -> None:
    pass


def add_bars(f: Frame) -> None:
    f.add(Node("status_bar", text="10:30", hint="WiFi 100%", id="status_bar"), (0, 0, 1080, 90))
    nav = Node("nav_bar", id="navigation_bar", children=[
        Node("icon", glyph=g, desc=d, id=d.lower(), on_click=noop)
        for g, d in (("◀", "Back"), ("●", "Home"), ("■", "Overview"))
    ])
    idx = f.add(nav, (0, 2268, 1080, 2400))
    for i, child in enumerate(nav.children):
        f.add(child, (i * 360 + 90, 2268, (i + 1) * 360 - 90, 2400), parent=idx)


def app_frame(*, dialog: bool = False, selected: int = 2) -> Frame:
    """Top bar, a column of widgets, a list clipped by the viewport, a FAB, bars."""
    f = Frame(package="com.example.notes")
    f.add(Node("screen", id="content"), (0, 0, T.SCREEN_W, T.SCREEN_H))
    bar = TopBar("Notes", on_back=noop, actions=[Icon("⋮", "More options", noop, id="more")])
    place_bar(f, bar, (0, 90, 1080, 258))
    holder = f.add(Node("column", id="content_frame"), VIEWPORT, scrollable=True)
    items = [ListItem(f"Item {i}", "subtitle", id=f"item_{i}", on_click=noop, glyph="AB"[i % 2])
             for i in range(6)]
    items[selected].selected = True
    content = [
        Text("Settings", style="title", id="title"),
        Button("Save", noop, id="save"),
        TextField("hello", noop_text, id="name", label="Name", hint="Your name"),
        Toggle("Wi-Fi", True, noop, id="wifi"),
        Spacer(40),
        ListView(items, id="items"),
    ]
    place_column(f, content, 48, 1032, 278, VIEWPORT, parent=holder, focus_id="name")
    place_bar(f, TabBar([Tab("Home", True, noop), Tab("Search", False, noop)]),
              (0, 2088, 1080, 2268))
    f.add(Fab("+", "New note", noop), (864, 1872, 1032, 2040))
    if dialog:
        box = Dialog("Delete?", "This cannot be undone.",
                     [DialogButton("Cancel", noop), DialogButton("Delete", noop)])
        f.scrim_before = f.modal_from = len(f.items)
        place(f, box, 48, 1032, 900, (0, 0, T.SCREEN_W, T.SCREEN_H), layer=1)
    add_bars(f)
    return f


def find(f: Frame, node_id: str):  # noqa: ANN201
    return next(p for p in f.items if p.node.id == node_id)


def px(arr: np.ndarray, x: int, y: int) -> tuple[int, int, int]:
    """The pixel at logical (x, y) of a 540 x 1200 render."""
    return tuple(int(v) for v in arr[y * 1200 // 2400, x * 540 // 1080])


def test_shape_dtype_and_new_array_each_call() -> None:
    r = Renderer()
    f = app_frame()
    a, b = r.render(f), r.render(f)
    assert a.shape == (1200, 540, 3) and a.dtype == np.uint8
    assert a is not b and np.array_equal(a, b)
    a[:] = 0
    assert np.array_equal(r.render(f), b)
    img = r.render_image(f)
    assert isinstance(img, Image.Image) and img.size == (540, 1200) and img.mode == "RGB"


@pytest.mark.parametrize("size", [(1080, 2400), (360, 800), (123, 457)])
def test_other_sizes(size: tuple[int, int]) -> None:
    w, h = size
    arr = Renderer(w, h).render(app_frame())
    assert arr.shape == (h, w, 3)
    x0, y0, x1, y1 = rect_to_px(find(app_frame(), "status_bar").rect, w, h)
    assert tuple(arr[y1 - 1, 1]) == T.STATUS_BG


@pytest.mark.parametrize("bad", [(0, 100), (100, -5), (540.0, 1200), (True, 1200), ("540", 1)])
def test_bad_size(bad: tuple[object, object]) -> None:
    with pytest.raises(ValueError, match="positive int"):
        Renderer(*bad)  # type: ignore[arg-type]


def test_cached_render_matches_uncached_render() -> None:
    f = app_frame(dialog=True)
    cached = Renderer(cache=TileCache())
    cached.render(f)
    warm = cached.render(f)
    cold = Renderer(cache_tiles=False).render(f)
    assert np.array_equal(warm, cold)


def test_button_toggle_and_field_are_drawn() -> None:
    f = app_frame()
    arr = Renderer().render(f)
    x0, y0, x1, y1 = find(f, "save").rect
    assert px(arr, x0 + 60, (y0 + y1) // 2) == T.PRIMARY  # filled button, left of its label
    x0, y0, x1, y1 = find(f, "wifi").rect
    assert px(arr, x1 - 100, (y0 + y1) // 2) == T.PRIMARY  # switch track, on
    x0, y0, x1, y1 = find(f, "name").rect
    assert px(arr, (x0 + x1) // 2, y1 - 10) == T.PRIMARY  # focused underline
    assert px(arr, 5, 5) == T.STATUS_BG and px(arr, 5, 2390) == T.NAV_BG
    assert px(arr, 5, 120) == T.TOP_BAR_BG


def test_clipped_list_item_draws_only_its_visible_part() -> None:
    f = app_frame(selected=2)
    item = find(f, "item_2")
    assert item.rect[3] == VIEWPORT[3] < item.full[3]  # the viewport cuts it
    assert "item_3" not in {p.node.id for p in f.items}
    arr = Renderer().render(f)
    assert px(arr, 1000, item.rect[1] + 20) == T.SELECTED_BG
    assert px(arr, 1000, VIEWPORT[3] - 4) == T.SELECTED_BG
    assert px(arr, 1000, VIEWPORT[3] + 20) == T.BG  # the cut-off part is not drawn


def test_top_clipped_node_shows_the_bottom_of_its_tile() -> None:
    node = ListItem("Clipped", "the bottom part shows", glyph="C", on_click=noop)
    node.selected = True
    full = (0, 400, 1080, 596)
    whole, cut = Frame(), Frame()
    whole.add(node, full)
    cut.add(node, (0, 500, 1080, 596), full=full)
    r = Renderer()
    a, b = r.render(whole), r.render(cut)
    assert np.array_equal(a[250:298], b[250:298])
    assert (b[200:250] == T.BG).all()
    assert not (a[200:250] == T.BG).all()


def test_adjacent_rects_leave_no_gaps() -> None:
    f = Frame()
    y = 101
    for h in (97, 103, 99, 101):
        f.add(Node("status_bar"), (0, y, 1080, y + h))
        y += h
    for w, h in ((540, 1200), (333, 777), (1001, 2223)):
        arr = Renderer(w, h).render(f)
        top, bottom = rect_to_px((0, 101, 1080, y), w, h)[1::2]
        assert (arr[top:bottom] == T.STATUS_BG).all()
        assert not (arr[bottom:] == T.STATUS_BG).all(axis=-1).any()


def test_scrim_darkens_what_is_below_the_dialog() -> None:
    r = Renderer()
    plain, modal = r.render(app_frame()), r.render(app_frame(dialog=True))
    assert px(plain, 1040, 1300) == T.BG
    assert px(modal, 1040, 1300) == scrimmed(T.BG)
    assert sum(scrimmed(T.BG)) < 0.6 * sum(T.BG)
    assert px(modal, 540, 910) == T.SURFACE  # the dialog box itself is not darkened
    assert px(modal, 5, 5) == T.STATUS_BG  # bars drawn after the dialog are not darkened
    f = app_frame()
    f.scrim_before = len(f.items)  # darken everything at the end
    assert px(r.render(f), 5, 5) == scrimmed(T.STATUS_BG)


def test_fab_and_dialog_blend_over_content() -> None:
    f = app_frame(dialog=True)
    arr = Renderer().render(f)
    x0, y0, x1, y1 = find(f, "fab").rect
    assert px(arr, x0 + 2, y0 + 2) != scrimmed(T.PRIMARY)  # round: the corner shows content
    x0, y0, x1, y1 = find(f, "dialog").rect
    assert px(arr, x0 + 1, y0 + 1) == scrimmed(T.BG)  # rounded corner


def test_launcher_and_keyboard() -> None:
    f = Frame(package="launcher")
    f.add(Node("screen", id="content", color=T.LAUNCHER_BG), (0, 0, 1080, 2400))
    f.add(Text("Monday", id="date"), (48, 400, 1032, 500))
    colors = [(200, 30, 30), (30, 160, 60)]
    for i, color in enumerate(colors):
        f.add(Node("app_icon", text=f"App {i}", glyph="A", color=color, on_click=noop),
              (i * 270, 730, (i + 1) * 270, 1030))
    kb_rect = (0, 1428, 1080, 2268)
    keyboard = keyboard_node(noop_text)
    kb = f.add(keyboard, kb_rect)
    for i, key in enumerate(keyboard.children[2].children):  # ⇧ z x ... ⌫
        f.add(key, (12 + i * 110, 1700, 12 + (i + 1) * 110 - 12, 1850), parent=kb)
    add_bars(f)
    arr = Renderer().render(f)
    assert px(arr, 1000, 600) == T.LAUNCHER_BG
    assert px(arr, 1000, 450) == T.LAUNCHER_BG  # text tiles sit on the screen's color
    for i, color in enumerate(colors):
        x0, y0, x1, y1 = rect_to_px((i * 270, 730, (i + 1) * 270, 1030), 540, 1200)
        assert (arr[y0:y1, x0:x1] == color).all(axis=-1).any()
    assert px(arr, 1070, 1600) == T.KEYBOARD_BG
    assert px(arr, 130, 1710) == T.KEY_BG  # the "z" key, near its top edge


def test_unknown_glyph_falls_back_to_first_letter_of_desc() -> None:
    r = Renderer(cache=TileCache())
    frames = []
    for glyph, desc in (("\ue000", "Snow"), ("S", "other")):  # no font has U+E000
        f = Frame()
        f.add(Icon(glyph, desc, noop), (100, 100, 232, 232))
        frames.append(r.render(f))
    assert np.array_equal(frames[0], frames[1])
    assert not (frames[0] == T.BG).all()


@pytest.mark.parametrize("glyph", ["☃", "🚀", "Ж", "€"])
def test_icon_glyphs_from_fallback_fonts_are_drawn(glyph: str) -> None:
    """An icon glyph the bundled fonts draw (DejaVu Sans, Noto Emoji) is drawn, not replaced
    by its description's first letter."""
    r = Renderer(cache=TileCache())
    frames = []
    for g in (glyph, "R"):
        f = Frame()
        f.add(Icon(g, "Rocket", noop), (100, 100, 232, 232))
        frames.append(r.render(f))
    assert not np.array_equal(frames[0], frames[1])
    assert not (frames[0] == T.BG).all()


def test_text_in_any_script_is_drawn_where_boxes_were() -> None:
    """A line of Latin with accents, Greek, Cyrillic and an emoji differs from the same
    line drawn with missing-glyph boxes, and draws the same pixels each time."""
    r = Renderer(cache=TileCache())
    frames = []
    line = "Zoë Ωμέγα Жук 🚀"
    boxes = "".join(ch if ch.isascii() else "\ue000" for ch in line)  # no font has U+E000
    for text in (line, boxes, line):
        f = Frame()
        f.add(Text(text), (40, 100, 1040, 200))
        frames.append(r.render(f))
    assert not np.array_equal(frames[0], frames[1])
    assert np.array_equal(frames[0], frames[2])


def test_device_chrome_symbols_are_vector_drawn() -> None:
    for ch in "◀●■⋮✎🗑⇧⌫↵<+✓★☆":
        assert ch in SYMBOLS


def test_tile_cache_is_bounded() -> None:
    cache = TileCache(max_tiles=5)
    r = Renderer(cache=cache)
    r.render(app_frame())
    assert len(cache) == 5
    cache = TileCache(max_mb=0.05)
    Renderer(cache=cache).render(app_frame())
    assert cache.nbytes <= 0.05 * 2**20 or len(cache) == 1


def test_warm_render_is_fast() -> None:
    r = Renderer()
    f = app_frame(dialog=True)
    r.render(f)
    times = []
    for _ in range(20):
        t = time.perf_counter()
        r.render(f)
        times.append(time.perf_counter() - t)
    assert sorted(times)[len(times) // 2] < 0.01  # loose: ~0.5 ms on a laptop


@pytest.mark.slow  # a sweep of its own: the full tier runs it
@pytest.mark.parametrize("size", [(16, 16), (17, 33), (108, 240)])
def test_tiny_screenshots_render_every_screen_of_every_oracle(size: tuple[int, int]) -> None:
    """Thin lines that round to nothing at tiny sizes are skipped, not a crash."""
    from phone_gym.envs import PhoneWorldEnv
    from phone_gym.mockapps import TEMPLATES

    for task in TEMPLATES:
        env = PhoneWorldEnv(obs_size=size, task=task)
        obs, _ = env.reset(seed=0)
        for _ in range(40):
            obs, _, terminated, truncated, _ = env.step(env.oracle_action())
            assert obs["screenshot"].shape == (size[1], size[0], 3)
            if terminated or truncated:
                break

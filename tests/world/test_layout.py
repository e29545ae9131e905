"""The layout engine: text wrapping, preferred heights, placing and clipping widget trees,
and hit-testing a frame."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from phone_gym.world import theme as T
from phone_gym.world.layout import (
    Frame,
    chip_width,
    clip,
    measure,
    place,
    place_column,
    text_height,
)
from phone_gym.world.widgets import (
    Button,
    Column,
    Dialog,
    DialogButton,
    Icon,
    ListItem,
    ListView,
    Node,
    Row,
    Spacer,
    Text,
    TextField,
    Toggle,
)

FONT = 100
WIDTH = 600  # 600 / (100 * 0.56) -> 10 characters a line


def noop() -> None:
    pass


# --- wrap_text -------------------------------------------------------------------------------


def test_wrap_width_in_characters() -> None:
    assert T.wrap_text("hello world foo", WIDTH, FONT) == ["hello", "world foo"]
    assert T.wrap_text("abcde fghi", WIDTH, FONT) == ["abcde fghi"]  # exactly 10 fits
    assert T.wrap_text("abcde fghij", WIDTH, FONT) == ["abcde", "fghij"]
    assert T.wrap_text("abcde fghij", 2 * WIDTH, FONT) == ["abcde fghij"]


def test_wrap_splits_long_words() -> None:
    word = "abcdefghijklmnopqrstuvwxy"
    assert T.wrap_text(word, WIDTH, FONT) == ["abcdefghij", "klmnopqrst", "uvwxy"]
    assert T.wrap_text(f"hi {word} ok", WIDTH, FONT) == [
        "hi", "abcdefghij", "klmnopqrst", "uvwxy ok"]
    assert T.wrap_text("abcdefghijabcdefghij", WIDTH, FONT) == ["abcdefghij", "abcdefghij"]


def test_wrap_keeps_newlines_and_empty_lines() -> None:
    assert T.wrap_text("a\n\nb", WIDTH, FONT) == ["a", "", "b"]
    assert T.wrap_text("", WIDTH, FONT) == [""]
    assert T.wrap_text("one two\nthree four five", WIDTH, FONT) == [
        "one two", "three four", "five"]


def test_wrap_at_least_one_character_a_line() -> None:
    assert T.wrap_text("abc d", 1, FONT) == ["a", "b", "c", "d"]


@given(st.text(alphabet="ab \n", max_size=40), st.integers(1, 2000))
def test_wrap_never_overflows_and_keeps_every_character(text: str, width: int) -> None:
    per_line = max(1, int(width / (FONT * T.CHAR_W)))
    lines = T.wrap_text(text, width, FONT)
    assert all(len(line) <= per_line for line in lines)
    assert "".join("".join(lines).split()) == "".join(text.split())
    assert len(lines) >= text.count("\n") + 1


# --- measure -------------------------------------------------------------------------------


def test_measure_text_grows_a_line_at_a_time() -> None:
    one = measure(Text("short"), 1000)
    assert one == T.HEIGHTS["text:body"]
    body_font = T.FONT["body"]
    per_line = int(1000 / (body_font * T.CHAR_W))
    three = Text(" ".join(["x" * per_line] * 3))
    assert measure(three, 1000) == one + 2 * int(body_font * 1.3)
    assert text_height(three, 1000) == measure(three, 1000)
    assert measure(Text("Title", style="title"), 1000) == T.HEIGHTS["text:title"]
    assert measure(Text("Big", style="big"), 1000) == T.HEIGHTS["text:big"]
    assert measure(Text("x", style="unknown"), 1000) == T.HEIGHTS["text:body"]


@pytest.mark.parametrize(("node", "height"), [
    (Button("OK", noop), T.HEIGHTS["button"]),
    (TextField("", lambda v: None, id="f"), T.HEIGHTS["text_field"]),
    (TextField("", lambda v: None, id="f", multiline=True), 360),
    (Toggle("Wi-Fi", True, noop), T.HEIGHTS["toggle"]),
    (ListItem("Ann", "555"), T.HEIGHTS["list_item"]),
    (ListItem("Ann"), T.HEIGHTS["list_item:single"]),
    (Icon("*", "Star"), T.ICON_SIZE),
    (Spacer(77), 77),
    (Row([]), T.HEIGHTS["row"]),
    (Node("mystery"), T.HEIGHTS["text:body"]),
    (Node("button", height=10), 10),
])
def test_measure_kinds(node: Node, height: int) -> None:
    assert measure(node, 1000) == height


def test_measure_containers() -> None:
    col = Column([Text("a"), Button("b", noop), Spacer(40)])
    assert measure(col, 1000) == T.HEIGHTS["text:body"] + T.HEIGHTS["button"] + 40
    assert measure(ListView([ListItem("a"), ListItem("b", "c")]), 1000) == (
        T.HEIGHTS["list_item:single"] + T.HEIGHTS["list_item"])
    assert measure(ListView([]), 1000) == T.HEIGHTS["text:caption"]  # the empty text
    assert measure(Row([Button("a", noop), Spacer(300)]), 1000) == 300
    dialog = Dialog("Title", "", [DialogButton("OK", noop)])
    assert measure(dialog, 1000) == T.HEIGHTS["text:title"] + T.HEIGHTS["row"] + 2 * T.PAD


def test_measure_row_wraps_children_at_their_share() -> None:
    words = " ".join(["word"] * 12)
    alone = measure(Text(words), 1000)
    narrow = Node("text", text=words, style="body", weight=1.0)
    wide = Node("spacer", height=10, weight=3.0)
    assert measure(Row([narrow, wide]), 1000) == measure(Text(words), 250) > alone


# --- place / place_column / clip -----------------------------------------------------------------


def test_clip() -> None:
    assert clip((0, 0, 10, 10), (5, 5, 20, 20)) == (5, 5, 10, 10)
    assert clip((0, 0, 10, 10), (0, 0, 10, 10)) == (0, 0, 10, 10)
    assert clip((0, 0, 10, 10), (10, 0, 20, 10)) is None  # touching edges: nothing left
    assert clip((0, 0, 10, 10), (20, 20, 30, 30)) is None
    assert clip((2, 3, 4, 5), (0, 0, 100, 100)) == (2, 3, 4, 5)


@given(st.tuples(*[st.integers(-50, 50)] * 4), st.tuples(*[st.integers(-50, 50)] * 4))
def test_clip_is_inside_both(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> None:
    out = clip(a, b)
    if out is not None:
        assert out[0] < out[2] and out[1] < out[3]
        for r in (a, b):
            assert r[0] <= out[0] and r[1] <= out[1] and out[2] <= r[2] and out[3] <= r[3]
        assert clip(out, a) == out and clip(b, a) == out


def test_place_column_stacks_and_returns_the_end() -> None:
    frame = Frame()
    nodes = [Text("a", id="a"), Button("b", noop, id="b"), Spacer(40)]
    end = place_column(frame, nodes, 10, 500, 100, (0, 0, 1080, 2400))
    h_text, h_button = T.HEIGHTS["text:body"], T.HEIGHTS["button"]
    assert end == 100 + h_text + h_button + 40
    assert [p.rect for p in frame.items] == [
        (10, 100, 500, 100 + h_text),
        (10, 100 + h_text, 500, 100 + h_text + h_button),
        (10, 100 + h_text + h_button, 500, end),
    ]
    assert all(p.rect == p.full and p.parent == -1 for p in frame.items)


def test_place_clips_to_the_box_and_skips_what_is_outside() -> None:
    frame = Frame()
    box = (0, 200, 1080, 400)
    nodes = [Button(str(i), noop, id=f"b{i}") for i in range(5)]  # 156 high each, from 100
    end = place_column(frame, nodes, 0, 1080, 100, box)
    assert end == 100 + 5 * 156
    assert [p.node.id for p in frame.items] == ["b0", "b1"]  # b2 starts at 412
    first, second = frame.items
    assert first.full == (0, 100, 1080, 256) and first.rect == (0, 200, 1080, 256)
    assert second.full == (0, 256, 1080, 412) and second.rect == (0, 256, 1080, 400)


def test_place_children_of_a_clipped_container_are_clipped_too() -> None:
    frame = Frame()
    col = Column([Button("a", noop, id="a"), Button("b", noop, id="b")], id="col")
    place(frame, col, 0, 1080, 0, (0, 0, 1080, 200))
    assert [(p.node.id, p.rect, p.parent) for p in frame.items] == [
        ("col", (0, 0, 1080, 200), -1),
        ("a", (0, 0, 1080, 156), 0),
        ("b", (0, 156, 1080, 200), 0),
    ]


def test_place_list_items_span_the_screen() -> None:
    frame = Frame()
    lst = ListView([ListItem("a", id="a", trailing=Icon("*", "Star", id="star"))], id="l")
    place(frame, lst, T.PAD, T.SCREEN_W - T.PAD, 0, (0, 0, T.SCREEN_W, T.SCREEN_H))
    by_id = {p.node.id: p for p in frame.items}
    assert by_id["l"].rect[0::2] == (0, T.SCREEN_W)
    assert by_id["a"].rect[0::2] == (0, T.SCREEN_W)
    star = by_id["star"].rect
    assert star[2] == T.SCREEN_W - T.PAD // 2 and star[2] - star[0] == T.ICON_SIZE
    assert by_id["star"].parent == frame.items.index(by_id["a"])


def test_place_row_shares_width_by_weight() -> None:
    frame = Frame()
    a, b = Node("button", id="a", weight=1.0), Node("button", id="b", weight=3.0)
    place(frame, Row([a, b]), 0, 1000, 0, (0, 0, 1080, 2400))
    assert [p.rect for p in frame.items[1:]] == [(0, 0, 250, 156), (250, 0, 1000, 156)]


def test_place_dialog_insets_children_and_marks_focus() -> None:
    frame = Frame()
    field = TextField("", lambda v: None, id="name")
    dialog = Dialog("Rename", "", [DialogButton("OK", noop)], body=[field])
    place(frame, dialog, 0, 1000, 0, (0, 0, 1080, 2400), layer=1, focus_id="name")
    placed = {p.node.id: p for p in frame.items}
    assert placed["name"].rect[0] == T.PAD and placed["name"].rect[2] == 1000 - T.PAD
    assert placed["name"].rect[1] == T.PAD + T.HEIGHTS["text:title"]
    assert placed["name"].focused
    assert not placed["alertTitle"].focused
    assert all(p.layer == 1 for p in frame.items)


# --- Frame.hit ---------------------------------------------------------------------------------


def frame_of(*nodes: tuple[Node, tuple[int, int, int, int]], **flags: bool) -> Frame:
    frame = Frame()
    for node, rect in nodes:
        frame.add(node, rect, **flags)
    return frame


def test_hit_returns_the_topmost_clickable() -> None:
    bottom = Button("under", noop, id="under")
    top = Button("over", noop, id="over")
    label = Text("label", id="label")  # not clickable, and on top
    frame = frame_of((bottom, (0, 0, 100, 100)), (top, (50, 50, 150, 150)),
                     (label, (0, 0, 200, 200)))
    assert frame.hit(10, 10).node is bottom
    assert frame.hit(60, 60).node is top
    assert frame.hit(149, 149).node is top
    assert frame.hit(150, 150) is None  # rects are exclusive at the far edge
    assert frame.hit(190, 10) is None


def test_hit_skips_disabled_and_text_fields_are_clickable() -> None:
    field = TextField("", lambda v: None, id="f")
    off = Button("off", noop, enabled=False)
    frame = frame_of((field, (0, 0, 100, 100)), (off, (0, 0, 100, 100)))
    assert frame.hit(5, 5).node is field


def test_hit_long_click_and_scroll() -> None:
    menu_row = ListItem("row", menu=[("Delete", noop)])
    copy_text = Text("555", copyable=True)
    plain = Button("b", noop)
    frame = frame_of((menu_row, (0, 0, 100, 100)), (copy_text, (0, 100, 100, 200)),
                     (plain, (0, 200, 100, 300)))
    frame.add(Node("column", id="scroller"), (0, 0, 100, 300), scrollable=True)
    assert frame.hit(5, 5, "long_click").node is menu_row
    assert frame.hit(5, 150, "long_click").node is copy_text
    assert frame.hit(5, 250, "long_click") is None
    assert frame.hit(5, 250, "click").node is plain
    assert frame.hit(5, 150, "click") is None
    assert frame.hit(5, 250, "scroll").node.id == "scroller"
    assert frame.hit(5, 350, "scroll") is None


def test_modal_layer_blocks_lower_layers() -> None:
    under = Button("under", noop, id="under")
    frame = frame_of((under, (0, 0, 1000, 1000)))
    frame.modal_from = len(frame.items)
    frame.add(Node("dialog", id="dialog"), (100, 100, 500, 500), layer=1)
    ok = DialogButton("OK", noop)
    frame.add(ok, (100, 400, 500, 500), parent=1, layer=1)
    assert frame.hit(200, 450).node is ok
    assert frame.hit(200, 200) is None  # on the dialog, but not on a button
    assert frame.hit(800, 800) is None  # outside: the button below is blocked
    assert frame.in_modal(200, 200) and not frame.in_modal(800, 800)
    frame.modal_from = None
    assert frame.hit(800, 800).node is under
    assert frame.in_modal(800, 800)  # no modal layer: everything counts


def test_added_nodes_carry_the_frame_package() -> None:
    frame = Frame(package="com.a")
    frame.add(Text("x"), (0, 0, 1, 1))
    frame.package = "com.b"
    frame.add(Text("y"), (0, 0, 1, 1), full=(0, -5, 1, 1))
    assert [p.package for p in frame.items] == ["com.a", "com.b"]
    assert frame.items[1].full == (0, -5, 1, 1)


def test_a_chinese_chip_is_wide_enough_for_its_label() -> None:
    """A wide character (已, 下) takes about two Latin ones (an em, ``1 / CHAR_W``): a chip
    measures it so, and an English chip keeps its width."""
    zh = Node("chip", text="已下载")
    assert chip_width(Node("chip", text="abcde")) < chip_width(zh) \
        < chip_width(Node("chip", text="abcdef"))
    assert chip_width(Node("chip", text="abc")) < chip_width(zh)

from __future__ import annotations

import dataclasses
import json
import xml.etree.ElementTree as ET

from phone_gym.world import theme as T
from phone_gym.world.a11y import (
    XML_HEADER,
    UIElement,
    format_element,
    format_elements,
    parse_xml,
    to_xml,
    ui_elements,
)
from phone_gym.world.layout import Frame, place, place_bar, place_column
from phone_gym.world.widgets import (
    Button,
    Checkbox,
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
    TopBar,
)

PKG = "com.example.notes"
VIEWPORT = (0, 258, 1080, 1400)
ATTRS = ["index", "text", "resource-id", "class", "package", "content-desc", "checkable",
         "checked", "clickable", "enabled", "focusable", "focused", "scrollable",
         "long-clickable", "password", "selected", "bounds"]


def noop() -> None:
    pass


def noop_text(_: str) -> None:
    pass


def sample_frame(*, dialog: bool = False) -> Frame:
    f = Frame(package=PKG)
    f.add(Node("screen", id="content"), (0, 0, T.SCREEN_W, T.SCREEN_H))
    place_bar(f, TopBar("Notes", on_back=noop, actions=[Icon("⋮", "More options", noop,
                                                             id="more")]),
              (0, 90, 1080, 258))
    holder = f.add(Node("column", id="content_frame"), VIEWPORT, scrollable=True)
    items = [ListItem(f"Item {i}", "sub" if i else "", id=f"item_{i}", on_click=noop,
                      menu=[("Delete", noop)]) for i in range(6)]
    content = [
        Text('Say "hi" <b> & bye\nnext line', id="title"),
        Button("Save", noop, id="save"),
        Row([Button("Off", None, id="off", enabled=False), Spacer(10)]),
        TextField("hello", noop_text, id="name", label="Name", hint="Your name"),
        Toggle("Wi-Fi", True, noop, id="wifi"),
        Checkbox("Remember", False, noop, id="remember"),
        ListView(items, id="items"),
    ]
    place_column(f, content, 48, 1032, 278, VIEWPORT, parent=holder, focus_id="name")
    if dialog:
        box = Dialog("Delete?", "Sure?", [DialogButton("Cancel", noop)])
        f.scrim_before = f.modal_from = len(f.items)
        place(f, box, 48, 1032, 900, (0, 0, T.SCREEN_W, T.SCREEN_H), layer=1)
    f.package = "com.android.systemui"
    f.add(Node("status_bar", text="10:30", hint="WiFi 100%", id="status_bar"), (0, 0, 1080, 90))
    return f


def by_id(elements: list[UIElement], short: str) -> UIElement:
    return next(e for e in elements if e.resource_id.endswith(f":id/{short}"))


def test_elements_fields_bounds_and_flags() -> None:
    f = sample_frame()
    els = ui_elements(f)
    assert [e.index for e in els] == list(range(len(els)))
    save = by_id(els, "save")
    placed = next(p for p in f.items if p.node.id == "save")
    assert save.resource_id == f"{PKG}:id/save" and save.package == PKG
    assert save.class_name == "android.widget.Button" and save.text == "Save"
    assert save.bounds == placed.rect
    x0, y0, x1, y1 = placed.rect
    assert save.bounds_norm == (x0 * 1000 // 1080, y0 * 1000 // 2400, x1 * 1000 // 1080,
                                y1 * 1000 // 2400)
    assert save.center_norm == ((x0 + x1) * 500 // 1080, (y0 + y1) * 500 // 2400)
    assert save.clickable and save.enabled and not save.long_clickable and not save.editable

    off = by_id(els, "off")
    assert not off.enabled and not off.clickable
    field = by_id(els, "name")
    assert field.class_name == "android.widget.EditText"
    assert (field.text, field.content_desc, field.hint) == ("hello", "Name", "Your name")
    assert field.editable and field.focused and field.clickable and field.long_clickable
    wifi, remember = by_id(els, "wifi"), by_id(els, "remember")
    assert wifi.checkable and wifi.checked and wifi.class_name == "android.widget.Switch"
    assert remember.checkable and not remember.checked
    assert by_id(els, "content_frame").scrollable
    assert by_id(els, "item_1").long_clickable and by_id(els, "item_1").hint == "sub"
    status = by_id(els, "status_bar")
    assert status.package == "com.android.systemui" and status.text == "10:30"


def test_clipped_items_report_visible_bounds_and_spacers_are_skipped() -> None:
    f = sample_frame()
    els = ui_elements(f)
    clipped = [p for p in f.items if p.rect != p.full]
    assert clipped and all(p.rect[3] == VIEWPORT[3] for p in clipped)
    for p in clipped:
        assert by_id(els, p.node.id).bounds == p.rect
    classes = {e.class_name for e in els}
    assert "android.view.View" not in classes  # the spacer
    assert all(e.resource_id or e.text or e.content_desc or e.clickable for e in els)
    assert len(els) < len(f.items)  # the unnamed row is left out


def test_xml_format_attributes_and_nesting() -> None:
    f = sample_frame(dialog=True)
    xml = to_xml(f, rotation=1)
    assert xml.startswith(XML_HEADER + '<hierarchy rotation="1"><node index="0" text=""')
    assert xml.endswith("</hierarchy>") and "\n" not in xml
    assert " />" in xml  # leaves are self-closing, as uiautomator writes them
    root = ET.fromstring(xml.encode())
    assert root.tag == "hierarchy" and root.get("rotation") == "1"
    nodes = list(root.iter("node"))
    assert len(nodes) == len(f.items)
    for node in nodes:
        assert list(node.attrib) == ATTRS
    tops = list(root)
    assert [n.get("index") for n in tops] == [str(i) for i in range(len(tops))]
    toolbar = next(n for n in tops if n.get("resource-id", "").endswith("/toolbar"))
    kids = [(n.get("index"), n.get("resource-id").split("/")[-1]) for n in toolbar]
    assert kids == [("0", "navigate_up"), ("1", "more")]
    frame_node = next(n for n in tops if n.get("resource-id", "").endswith("/content_frame"))
    assert frame_node.get("scrollable") == "true"
    items = frame_node.find("node[@class='androidx.recyclerview.widget.RecyclerView']")
    assert items is not None and len(items) == len([p for p in f.items
                                                    if p.node.kind == "list_item"])
    title = frame_node.find("node[@resource-id='com.example.notes:id/title']")
    assert title is not None and title.get("text") == 'Say "hi" <b> & bye\nnext line'
    assert "&quot;hi&quot; &lt;b&gt; &amp; bye&#10;next line" in xml
    field = root.find(".//node[@class='android.widget.EditText']")
    assert field is not None and field.get("focused") == field.get("focusable") == "true"
    assert field.get("bounds") == "[{},{}][{},{}]".format(
        *next(p.rect for p in f.items if p.node.id == "name"))
    dialog = next(n for n in tops if n.get("resource-id", "").endswith("/dialog"))
    assert [n.get("resource-id").split("/")[-1] for n in dialog] == [
        "alertTitle", "message", "buttonPanel"]


def test_parse_xml_round_trips() -> None:
    f = sample_frame(dialog=True)
    els = ui_elements(f)
    back = parse_xml(to_xml(f))
    assert back == [dataclasses.replace(e, hint="") for e in els]
    assert parse_xml(to_xml(f), all_nodes=True).__len__() == len(f.items)


def test_parse_xml_screen_size_and_real_dump() -> None:
    dump = (
        "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"0\">"
        '<node index="0" text="" resource-id="" class="android.widget.FrameLayout" '
        'package="com.android.settings" content-desc="" checkable="false" checked="false" '
        'clickable="false" enabled="true" focusable="false" focused="false" '
        'scrollable="false" long-clickable="false" password="false" selected="false" '
        'bounds="[0,0][1440,3120]">'
        '<node index="0" text="Wi‑Fi &amp; more" resource-id="android:id/title" '
        'class="android.widget.TextView" package="com.android.settings" content-desc="" '
        'checkable="false" checked="false" clickable="true" enabled="true" '
        'focusable="true" focused="false" scrollable="false" long-clickable="false" '
        'password="false" selected="false" visible-to-user="true" NAF="true" '
        'bounds="[100,200][700,300]" /></node></hierarchy>'
    )
    els = parse_xml(dump, 1440, 3120)
    assert len(els) == 1  # the anonymous layout is left out
    e = els[0]
    assert (e.index, e.text, e.resource_id, e.bounds) == (0, "Wi‑Fi & more", "android:id/title",
                                                          (100, 200, 700, 300))
    assert e.bounds_norm == (69, 64, 486, 96) and e.center_norm == (277, 80)
    assert e.clickable and not e.editable


def test_format_elements_and_to_dict() -> None:
    els = ui_elements(sample_frame())
    save = by_id(els, "save")
    cx, cy = save.center_norm
    bounds = ",".join(map(str, save.bounds_norm))
    expected = (f'[{save.index}] Button "Save" id=save center=({cx},{cy}) bounds=({bounds}) '
                'clickable')
    assert format_element(save) == expected
    text = format_elements(els)
    lines = text.splitlines()
    assert len(lines) == len(els)
    assert any('EditText "hello" desc="Name" hint="Your name" id=name' in ln for ln in lines)
    assert any("Switch \"Wi-Fi\" id=wifi" in ln and ln.endswith("clickable checked")
               for ln in lines)
    assert any(ln.endswith("disabled") for ln in lines)
    assert '\\"hi\\"' in text and "\\n" in text  # quoted like JSON, one line each
    d = save.to_dict()
    assert d["bounds"] == list(save.bounds) and d["class_name"] == "android.widget.Button"
    assert json.loads(json.dumps(d)) == d

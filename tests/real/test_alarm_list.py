"""Reading a clock's alarm list from ``uiautomator dump`` XML (``phone_gym.real.alarms``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from phone_gym.real.alarms import AlarmPage, PageRow, merge_pages, page_rows, parse_alarm_page
from phone_gym.verifiers.state import AlarmRow, DeviceError

#: A hand-written dump of AOSP DeskClock's alarm tab (see the comment in the file).
DESKCLOCK_XML = (Path(__file__).parent / "data" / "deskclock_alarms.xml").read_text()
DESKCLOCK = "com.android.deskclock"
EXPECTED = [AlarmRow(7, 30, True, "Gym"), AlarmRow(18, 5, False, "")]


def alarms(xml: str, package: str = DESKCLOCK) -> list[AlarmRow]:
    return [r.alarm for r in parse_alarm_page(xml, package).rows]


def test_a_deskclock_dump_reads_every_alarm_on_and_off_with_its_label() -> None:
    page = parse_alarm_page(DESKCLOCK_XML, DESKCLOCK)
    assert [r.alarm for r in page.rows] == EXPECTED  # 6:05 with a separate "PM": 18:05
    assert page.scroll is None and page.package_shown  # the list does not scroll
    assert [(r.top, r.bottom) for r in page.rows] == [(231, 598), (598, 965)]


def test_rows_are_found_without_deskclocks_ids() -> None:
    generic = re.sub(r'resource-id="[^"]*"', 'resource-id=""', DESKCLOCK_XML)
    assert alarms(generic) == EXPECTED  # "Tomorrow", "AM"/"PM", "Mon, Wed, Fri" are no labels


def test_times_in_one_node_and_24_hour_times() -> None:
    one_node = DESKCLOCK_XML.replace('text="6:05"', 'text="6:05\u202fPM"').replace(
        'text="PM"', 'text=""')
    assert alarms(one_node) == EXPECTED
    midnight = DESKCLOCK_XML.replace('text="7:30"', 'text="12:10"')
    assert alarms(midnight)[0] == AlarmRow(0, 10, True, "Gym")
    h24 = DESKCLOCK_XML.replace('text="AM"', 'text=""').replace('text="PM"', 'text=""') \
        .replace('text="6:05"', 'text="18:05"').replace('text="7:30"', 'text="07:30"')
    assert alarms(h24) == EXPECTED


def test_an_expanded_rows_empty_label_reads_as_no_label() -> None:
    expanded = DESKCLOCK_XML.replace('text="Tomorrow" resource-id="com.android.deskclock:id/'
                                     'upcoming_instance_label"',
                                     'text="Label" resource-id="com.android.deskclock:id/'
                                     'edit_label"')
    assert alarms(expanded) == EXPECTED
    renamed = expanded.replace('text="Label" resource', 'text="Run" resource')
    assert alarms(renamed)[1] == AlarmRow(18, 5, False, "Run")


def test_another_app_on_screen_is_no_alarm_list() -> None:
    page = parse_alarm_page(DESKCLOCK_XML, "com.google.android.deskclock")
    assert not page.package_shown and page.rows == ()
    with pytest.raises(DeviceError, match="not a uiautomator dump"):
        parse_alarm_page("ERROR: could not get idle state.", DESKCLOCK)


def test_a_row_without_a_switch_is_an_error() -> None:
    broken = DESKCLOCK_XML.replace('checkable="true"', 'checkable="false"')
    with pytest.raises(DeviceError, match="7:30 alarm row .* no on/off switch"):
        parse_alarm_page(broken, DESKCLOCK)


def node(text: str, bounds: str, *, cls: str = "android.widget.TextView", checked: str = "",
         children: str = "") -> str:
    check = f'checkable="true" checked="{checked}"' if checked else \
        'checkable="false" checked="false"'
    return (f'<node text="{text}" resource-id="" class="{cls}" package="com.example.clock" '
            f'{check} scrollable="false" bounds="{bounds}">{children}</node>')


def test_a_flat_layout_is_read_by_vertical_bands() -> None:
    rows = "".join([
        node("8:15", "[40,300][300,400]"), node("", "[860,310][1040,390]",
                                              cls="android.widget.Switch", checked="false"),
        node("School run", "[40,400][500,450]"), node("Weekdays", "[500,400][800,450]"),
        node("9:00", "[40,500][300,600]"), node("", "[860,510][1040,590]",
                                              cls="android.widget.Switch", checked="true"),
    ])
    screen = node("", "[0,0][1080,2400]", cls="android.widget.LinearLayout", children=rows)
    xml = f"<hierarchy>{screen}</hierarchy>"
    assert alarms(xml, "com.example.clock") == [AlarmRow(8, 15, False, "School run"),
                                                AlarmRow(9, 0, True, "")]


def row(hour: int, top: int, *, label: str = "", edge: str = "") -> PageRow:
    return PageRow(AlarmRow(hour, 0, True, label), top, top + 100, edge == "top",
                   edge == "bottom")


def test_pages_join_where_their_rows_overlap() -> None:
    first = [row(1, 100), row(2, 200), row(3, 300), row(4, 400)]
    second = [row(3, 50), row(4, 150), row(5, 250), row(6, 350)]  # moved up by 250
    assert merge_pages(first, second) == second[2:]
    assert merge_pages(first, [row(7, 100)]) == [row(7, 100)]  # no overlap: all new
    moved_unevenly = [row(3, 50), row(4, 160), row(5, 250)]
    assert merge_pages(first, moved_unevenly) == moved_unevenly  # not the same rows


def test_rows_at_an_edge_count_on_the_first_or_last_page_only() -> None:
    cut = AlarmPage((row(1, 0, edge="top"), row(2, 100), row(3, 200, edge="bottom")),
                    (0, 0, 1080, 300))
    assert [r.alarm.hour for r in page_rows(cut, first=False, last=False)] == [2]
    assert [r.alarm.hour for r in page_rows(cut, first=True, last=True)] == [1, 2, 3]

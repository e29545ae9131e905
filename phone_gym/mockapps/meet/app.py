"""Meet (shown as Zoom): scheduled meetings, joining by meeting ID, in-meeting controls,
recordings, and the microphone and camera permissions.

The app's own data (``MeetData``): ``meetings`` (title, date, time, minutes, invitees'
names from the system contacts, passcode, recurrence, the meeting's number), ``sessions``
(each meeting joined: its number, the display name, whether muted or sending video, chat
messages sent, whether left), ``recordings`` and the two runtime permissions (``ask``,
``allowed`` or ``denied``: Android keeps them per app; the app records the owner's answers).

Screens: the main screen with tabs (Meetings: Join, Schedule and the upcoming list;
Recordings), the meeting editor (as Zoom for Android's "Schedule Meeting": the topic, a
"Starts" row whose tap opens Android's Material date picker and then its time picker, the
duration and the recurrence picked from lists, a contact picker for invitees, the
passcode), the meeting page (copy the invitation, edit, delete, start), the join screen
and the meeting itself (Mute, Video, Chat, Leave), with Android's permission prompts
shown when the microphone or camera is needed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from functools import partial

from ...world.app import App, Route, app_strings
from ...world.data import Store, Table
from ...world.kit import (
    BottomNav,
    CalendarState,
    ChoiceDialog,
    ClockState,
    ConfirmDialog,
    MaterialDatePicker,
    MaterialTimePicker,
    SearchList,
)
from ...world.kit.localize import localize_screen
from ...world.locale import DEFAULT_LOCALE, ZH_WEEKDAYS
from ...world.widgets import (
    Button,
    Checkbox,
    Dialog,
    DialogButton,
    Icon,
    ListItem,
    Node,
    Screen,
    Text,
    TextField,
    Toggle,
    TopBar,
    VirtualList,
)
from .manifest import MANIFEST

#: The durations the editor's list offers, in minutes.
DURATIONS = (15, 30, 45, 60, 90, 120)
RECURRENCES = ("Never", "Daily", "Weekly", "Monthly")
TABS = ("Meetings", "Recordings")
#: The bottom bar's icons (Zoom's meetings camera and the recordings' cloud video).
TAB_ICONS = ("videocam", "video_library")
PROMPTS = {"microphone": "Allow Zoom to record audio?",
           "camera": "Allow Zoom to take pictures and record video?"}


# --- state -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Meeting:
    id: int
    title: str
    date: str  # YYYY-MM-DD
    time: str  # HH:MM
    minutes: int = 30
    invitees: tuple[str, ...] = ()
    passcode: str = ""
    recurrence: str = "Never"
    number: str = ""  # the meeting ID, "851 2345 6789"


@dataclass(frozen=True)
class Session:
    """A meeting joined from this phone."""

    id: int
    number: str
    name: str
    muted: bool = False
    video: bool = False
    chat: tuple[str, ...] = ()
    left: bool = False


@dataclass(frozen=True)
class Recording:
    id: int
    title: str
    date: str
    minutes: int


@dataclass
class MeetData(Store):
    meetings: Table[Meeting] = field(default_factory=lambda: Table(kind=Meeting))
    sessions: Table[Session] = field(default_factory=lambda: Table(kind=Session))
    recordings: Table[Recording] = field(default_factory=lambda: Table(kind=Recording))
    microphone: str = "ask"
    camera: str = "ask"


@dataclass
class Draft:
    """The meeting editor's values."""

    title: str = ""
    date: str = ""
    time: str = "10:00"
    minutes: int = 30
    invitees: tuple[str, ...] = ()
    passcode: str = ""
    recurrence: str = "Never"


@dataclass
class MeetUi:
    tab: str = "Meetings"
    draft: Draft = field(default_factory=Draft)
    dialog: str = ""  # date, time, duration, recurrence, delete, discard, prompt_<perm>
    #: The "Starts" pickers while open: the date picker, then the time picker with the day
    #: the date picker's OK chose (the draft changes only at the time picker's OK).
    date_picker: CalendarState | None = None
    time_picker: ClockState | None = None
    start_day: str = ""
    contact_query: str = ""
    join_number: str = ""
    join_name: str = ""
    video_off: bool = False
    error: str = ""
    session: int | None = None  # the meeting this phone is in
    chat_draft: str = ""


def duration_text(minutes: int) -> str:
    """A duration as Zoom writes it: ``45 min``, ``1 hr``, ``1 hr 30 min``."""
    if isinstance(minutes, bool) or not isinstance(minutes, int) or minutes <= 0:
        raise ValueError(f"minutes must be a positive int, got {minutes!r}")
    hours, rest = divmod(minutes, 60)
    if not hours:
        return f"{rest} min"
    return f"{hours} hr" + (f" {rest} min" if rest else "")


def meeting_number(meeting_id: int, title: str) -> str:
    """A stable 11-digit meeting ID for a new meeting."""
    n = (meeting_id * 7_919_773 + sum(map(ord, title)) * 104_729) % 10**10
    d = f"8{n:010d}"
    return f"{d[:3]} {d[3:7]} {d[7:]}"


def digits_of(text: str) -> str:
    return "".join(c for c in text if c.isdigit())


def add_meeting(data: MeetData, title: str, day: str, time: str, minutes: int = 30, *,
                invitees: tuple[str, ...] = (), passcode: str = "",
                recurrence: str = "Never", number: str = "") -> Meeting:
    m = data.meetings.new(title=title, date=day, time=time, minutes=minutes,
                          invitees=tuple(invitees), passcode=passcode, recurrence=recurrence,
                          number=number)
    if not number:
        m = data.meetings.update(m.id, number=meeting_number(m.id, title))
    return m


def invitation(m: Meeting, locale: str = DEFAULT_LOCALE) -> str:
    """The invitation text "Copy invitation" puts on the clipboard (zh-CN: Zoom's Chinese
    one, 诚邀您参加预定的 Zoom 会议)."""
    day = date.fromisoformat(m.date)
    if locale == "zh-CN":
        return (f"诚邀您参加预定的 Zoom 会议。\n主题：{m.title}\n"
                f"时间：{day.year}年{day.month}月{day.day}日 {m.time}\n"
                f"加入 Zoom 会议\nhttps://zoom.us/j/{digits_of(m.number)}\n"
                f"会议号：{m.number}\n密码：{m.passcode}")
    return (f"You are invited to a scheduled Zoom meeting.\nTopic: {m.title}\n"
            f"Time: {day:%b} {day.day}, {day.year} {m.time}\n"
            f"Join Zoom Meeting\nhttps://zoom.us/j/{digits_of(m.number)}\n"
            f"Meeting ID: {m.number}\nPasscode: {m.passcode}")


def when_text(m: Meeting, locale: str = DEFAULT_LOCALE) -> str:
    """A meeting's day, time and length: "Fri, Oct 16 · 10:00 · 30 min" (zh-CN: "10月16日
    周五 · 10:00 · 30分钟", as Zoom's Chinese UI)."""
    try:
        day = date.fromisoformat(m.date)
    except ValueError:
        return m.date
    if locale == "zh-CN":
        return f"{zh_day(day)} · {m.time} · {m.minutes}分钟"
    return f"{day:%a, %b} {day.day} · {m.time} · {m.minutes} min"


def zh_day(day: date, year: bool = False) -> str:
    """``day`` as Chinese apps write it in a list: "10月16日 周五" (with the year first when
    ``year``)."""
    text = f"{day.month}月{day.day}日 周{ZH_WEEKDAYS[day.weekday()][-1]}"
    return f"{day.year}年{text}" if year else text


# --- the app -------------------------------------------------------------------------------
class MeetApp(App):
    manifest = MANIFEST

    data: MeetData
    ui: MeetUi

    def initial_data(self) -> MeetData:
        return MeetData()

    def initial_ui(self) -> MeetUi:
        return MeetUi()

    def today(self) -> date:
        return self.system.now.date()

    def upcoming(self) -> list[Meeting]:
        today = self.today().isoformat()
        return sorted((m for m in self.data.meetings if m.date >= today),
                      key=lambda m: (m.date, m.time, m.id))

    # --- updates ---------------------------------------------------------------------------
    def set_ui(self, **changes: object) -> None:
        for key, value in changes.items():
            setattr(self.ui, key, value)

    def set_draft(self, **changes: object) -> None:
        for key, value in changes.items():
            setattr(self.ui.draft, key, value)

    def open_editor(self, meeting_id: int | None) -> None:
        m = self.data.meetings.get(meeting_id) if meeting_id is not None else None
        if m is not None:
            self.ui.draft = Draft(m.title, m.date, m.time, m.minutes, m.invitees, m.passcode,
                                  m.recurrence)
        else:
            self.ui.draft = Draft(date=self.today().isoformat())
        self.close_dialog()
        self.go("edit", meeting_id)

    def save(self, meeting_id: int | None) -> None:
        d = self.ui.draft
        if not d.title.strip():
            self.toast(self.t("Enter a topic"))
            return
        if meeting_id is None:
            add_meeting(self.data, d.title.strip(), d.date, d.time, d.minutes,
                        invitees=d.invitees, passcode=d.passcode, recurrence=d.recurrence)
            self.toast(self.t("Meeting scheduled"))
        elif self.data.meetings.get(meeting_id) is not None:
            m = self.data.meetings[meeting_id]
            new = dict(title=d.title.strip(), date=d.date, time=d.time, minutes=d.minutes,
                       invitees=d.invitees, passcode=d.passcode, recurrence=d.recurrence)
            if any(getattr(m, k) != v for k, v in new.items()):
                self.data.meetings.update(meeting_id, **new)
        self.ui.dialog = ""
        self.back()

    def edited(self, meeting_id: int | None) -> bool:
        m = self.data.meetings.get(meeting_id) if meeting_id is not None else None
        base = (Draft(m.title, m.date, m.time, m.minutes, m.invitees, m.passcode, m.recurrence)
                if m else Draft(date=self.today().isoformat()))
        return self.ui.draft != base

    def leave_editor(self, meeting_id: int | None) -> bool:
        if self.ui.dialog:
            self.close_dialog()
        elif self.edited(meeting_id):
            self.ui.dialog = "discard"
        else:
            self.back()
        return True

    def discard(self) -> None:
        self.ui.dialog = ""
        self.back()

    def is24h(self) -> bool:
        """The system's 12/24-hour setting (``system.time_12_24``), which Zoom follows."""
        return self.system.get_setting("system", "time_12_24") != "12"

    def open_start(self) -> None:
        """The "Starts" row: Android's date picker at the draft's day (today when it has
        none), its OK then opening the time picker."""
        d, today = self.ui.draft, self.today()
        try:
            self.ui.date_picker = CalendarState.of(d.date, today=today)
        except ValueError:
            self.ui.date_picker = CalendarState(today, today)
        self.ui.time_picker, self.ui.start_day, self.ui.dialog = None, "", "date"

    def picked_day(self, iso: str) -> None:
        """The date picker's OK: keep the day, then the time picker at the draft's time."""
        self.ui.start_day, self.ui.date_picker = iso, None
        self.ui.time_picker = ClockState.of(self.ui.draft.time, is24h=self.is24h())
        self.ui.dialog = "time"

    def picked_time(self, hhmm: str) -> None:
        """The time picker's OK: the meeting starts on the day picked, at ``hhmm``."""
        self.set_draft(date=self.ui.start_day or self.ui.draft.date, time=hhmm)
        self.close_dialog()

    def picked(self, which: str, value: str) -> None:
        """A choice list's pick: the duration (its label) or the recurrence."""
        if which == "minutes":
            by_label = {duration_text(m): m for m in DURATIONS}
            if value not in by_label:
                raise ValueError(f"duration {value!r}; accepted: {', '.join(by_label)}")
            self.ui.draft.minutes = by_label[value]
        elif which == "recurrence":
            if value not in RECURRENCES:
                raise ValueError(f"recurrence {value!r}; accepted: {', '.join(RECURRENCES)}")
            self.ui.draft.recurrence = value
        else:
            raise ValueError(f"which {which!r}; accepted: minutes, recurrence")
        self.ui.dialog = ""

    def toggle_invitee(self, name: str) -> None:
        d = self.ui.draft
        d.invitees = (tuple(n for n in d.invitees if n != name) if name in d.invitees
                      else (*d.invitees, name))

    def delete(self, meeting_id: int) -> None:
        if self.data.meetings.get(meeting_id) is not None:
            self.data.meetings.remove(meeting_id)
            self.toast(self.t("Meeting deleted"))
        self.ui.dialog = ""
        if self.route.name == "meeting":
            self.back()

    def copy_invitation(self, meeting_id: int) -> None:
        m = self.data.meetings.get(meeting_id)
        if m is not None:
            self.system.clipboard = invitation(m, self.system.locale)
            self.toast(self.t("Invitation copied"))

    # joining
    def start_join(self, number: str = "") -> None:
        self.ui.join_number, self.ui.error = number, ""
        self.go("join")

    def join(self) -> None:
        """Check the ID, then ask for the permissions the meeting needs, then enter it."""
        number = digits_of(self.ui.join_number)
        if not 9 <= len(number) <= 11:
            self.ui.error = "Invalid meeting ID. Please check and try again."
            return
        if not self.ui.join_name.strip():
            self.ui.error = "Enter your name"
            return
        self.ui.error = ""
        self.next_prompt()

    def next_prompt(self) -> None:
        if self.data.microphone == "ask":
            self.ui.dialog = "prompt_microphone"
        elif not self.ui.video_off and self.data.camera == "ask":
            self.ui.dialog = "prompt_camera"
        else:
            self.ui.dialog = ""
            self.enter()

    def answer_prompt(self, perm: str, allow: bool) -> None:
        setattr(self.data, perm, "allowed" if allow else "denied")
        self.next_prompt()

    def enter(self) -> None:
        d = digits_of(self.ui.join_number)
        number = f"{d[:3]} {d[3:7]} {d[7:]}" if len(d) == 11 else d
        s = self.data.sessions.new(
            number=number, name=self.ui.join_name.strip(),
            muted=self.data.microphone != "allowed",
            video=not self.ui.video_off and self.data.camera == "allowed")
        self.ui.session = s.id
        self.replace("in_meeting", s.id)

    def session(self) -> Session | None:
        return self.data.sessions.get(self.ui.session) if self.ui.session is not None else None

    def toggle_mute(self) -> None:
        s = self.session()
        if s is None:
            return
        if s.muted and self.data.microphone != "allowed":
            self.toast(self.t("Zoom has no access to the microphone"))
            return
        self.data.sessions.update(s.id, muted=not s.muted)

    def toggle_video(self) -> None:
        s = self.session()
        if s is None:
            return
        if not s.video and self.data.camera == "ask":
            self.ui.dialog = "prompt_camera_in"
            return
        if not s.video and self.data.camera != "allowed":
            self.toast(self.t("Zoom has no access to the camera"))
            return
        self.data.sessions.update(s.id, video=not s.video)

    def camera_in_meeting(self, allow: bool) -> None:
        self.data.camera = "allowed" if allow else "denied"
        self.ui.dialog = ""
        s = self.session()
        if allow and s is not None:
            self.data.sessions.update(s.id, video=True)

    def send_chat(self) -> None:
        s, text = self.session(), self.ui.chat_draft.strip()
        if s is not None and text:
            self.data.sessions.update(s.id, chat=(*s.chat, text))
            self.ui.chat_draft = ""

    def ask_leave(self) -> bool:
        self.ui.dialog = "leave"
        return True

    def leave(self) -> None:
        s = self.session()
        if s is not None:
            self.data.sessions.update(s.id, left=True)
        self.ui.session, self.ui.dialog = None, ""
        self.stack = [Route("main")]

    # --- views ---------------------------------------------------------------------------
    def view(self, route: Route) -> Screen:
        screen = self.screen(route)
        if self.system.locale != DEFAULT_LOCALE:  # the fixed strings, the kit's included
            if self.system.locale == "zh-CN" and self.ui.date_picker is not None:
                zh_date_picker(screen.dialog, self.ui.date_picker)
            localize_screen(screen, dict(app_strings(type(self), self.system.locale).strings))
        return screen

    def screen(self, route: Route) -> Screen:
        if route.name == "edit":
            return self.editor(route.arg)
        if route.name == "invitees":
            return self.invitee_picker()
        if route.name == "meeting":
            return self.meeting_page(route.arg)
        if route.name == "join":
            return self.join_screen()
        if route.name == "in_meeting":
            return self.in_meeting()
        if route.name == "chat":
            return self.chat()
        return self.main()

    def close_dialog(self) -> None:
        """Cancel, back or a tap outside: the dialog closes, the draft as it was."""
        self.ui.dialog = ""
        self.ui.date_picker = self.ui.time_picker = None
        self.ui.start_day = ""

    def main(self) -> Screen:
        ui = self.ui
        content: list[Node] = []
        if ui.tab == "Recordings":
            recs = sorted(self.data.recordings, key=lambda r: r.date, reverse=True)
            content.append(VirtualList(len(recs), lambda i: ListItem(
                recs[i].title, self.t("{date} · {n} min", date=recs[i].date, n=recs[i].minutes),
                glyph="⏺",
                id=f"recording_{recs[i].id}"), id="recordings", empty_text="No recordings"))
        else:
            shown = self.upcoming()
            content += [Button("Join", self.start_join, id="join"),
                        Button("Schedule", partial(self.open_editor, None), id="schedule",
                               style="secondary"),
                        Text("Upcoming", style="title", id="upcoming_title"),
                        VirtualList(len(shown), lambda i: ListItem(
                            shown[i].title, when_text(shown[i], self.system.locale), glyph="▣",
                            id=f"meeting_{shown[i].id}",
                            on_click=partial(self.go, "meeting", shown[i].id)),
                            id="meetings", empty_text="No upcoming meetings")]
        return Screen(top_bar=TopBar(ui.tab), content=content,
                      bottom=BottomNav(TABS, TAB_ICONS, ui.tab, lambda t: self.set_ui(tab=t)))

    def starts_text(self) -> str:
        """The "Starts" row's value as Zoom shows it: ``Today, 10:00`` or ``Fri, Oct 16,
        2026, 2:30 PM`` (the phone's 12/24-hour setting)."""
        d = self.ui.draft
        try:
            day = date.fromisoformat(d.date)
        except ValueError:
            return self.t("{day}, {time}", day=d.date or self.t("Not set"), time=d.time)
        hour, minute = (int(x) for x in d.time.split(":"))
        clock = (f"{hour:02d}:{minute:02d}" if self.is24h()
                 else self.t("{h}:{mm} {period}", h=hour % 12 or 12, mm=f"{minute:02d}",
                             period=self.t("PM" if hour >= 12 else "AM")))
        today = self.today()
        if day == today:
            return self.t("Today, {time}", time=clock)
        if self.system.locale == "zh-CN":
            return f"{zh_day(day, year=day.year != today.year)} {clock}"
        shown = f"{day:%a, %b} {day.day}" + (f", {day.year}" if day.year != today.year else "")
        return f"{shown}, {clock}"

    def value_row(self, title: str, value: str, id: str, on_click: Callable[[], None]) -> Node:
        """An editor row: its title, its value (id ``<id>_value``); a tap opens its picker."""
        return ListItem(title, id=id, parts=[(f"{id}_value", value)], on_click=on_click)

    def editor(self, meeting_id: int | None) -> Screen:
        d, ui = self.ui.draft, self.ui
        invited = self.t(", ").join(d.invitees) or self.t("None")
        content: list[Node] = [
            TextField(d.title, lambda v: self.set_draft(title=v), hint="Topic", id="topic",
                      label="Topic"),
            self.value_row("Starts", self.starts_text(), "starts", self.open_start),
            self.value_row("Duration", duration_text(d.minutes), "duration",
                           partial(self.set_ui, dialog="duration")),
            self.value_row("Repeat", d.recurrence, "recurrence",
                           partial(self.set_ui, dialog="recurrence")),
            ListItem("Invitees", invited, id="invitees",
                     on_click=partial(self.go, "invitees")),
            TextField(d.passcode, lambda v: self.set_draft(passcode=v), hint="Passcode",
                      id="passcode", label="Passcode"),
        ]
        dialog: Node | None = None
        if ui.dialog == "date" and ui.date_picker is not None:
            dialog = MaterialDatePicker(ui.date_picker, on_done=self.picked_day,
                                        on_cancel=self.close_dialog)
        elif ui.dialog == "time" and ui.time_picker is not None:
            dialog = MaterialTimePicker(ui.time_picker, on_done=self.picked_time,
                                        on_cancel=self.close_dialog)
        elif ui.dialog == "duration":
            dialog = ChoiceDialog("Duration", [duration_text(m) for m in DURATIONS],
                                  duration_text(d.minutes), partial(self.picked, "minutes"),
                                  self.close_dialog)
        elif ui.dialog == "recurrence":
            dialog = ChoiceDialog("Repeat", RECURRENCES, d.recurrence,
                                  partial(self.picked, "recurrence"), self.close_dialog)
        elif ui.dialog == "discard":
            dialog = ConfirmDialog("Discard changes?", "Your changes will be lost.",
                                   on_confirm=self.discard, on_cancel=self.close_dialog,
                                   confirm="Discard", cancel="Keep editing", destructive=True)
        title = "Schedule meeting" if meeting_id is None else "Edit meeting"
        back: Callable[[], bool] = partial(self.leave_editor, meeting_id)
        return Screen(top_bar=TopBar(title, on_back=back, actions=[
                          Icon("✓", "Save", partial(self.save, meeting_id), id="save")]),
                      content=content, dialog=dialog, on_dismiss=self.close_dialog,
                      on_back=back)

    def invitee_picker(self) -> Screen:
        q = self.ui.contact_query.strip().lower()
        people = sorted(c.name for c in self.system.contacts if q in c.name.lower())
        chosen = self.ui.draft.invitees

        def build(i: int) -> Node:
            name = people[i]
            return Checkbox(name, name in chosen, partial(self.toggle_invitee, name),
                            id=f"invite_{i}")
        return Screen(top_bar=TopBar("Add invitees", on_back=self.back, actions=[
                          Icon("✓", "Done", self.back, id="done")]),
                      content=[Text(self.t("{n} selected", n=len(chosen)), style="caption",
                                    id="selected_count"),
                               *SearchList(self.ui.contact_query,
                                           lambda v: self.set_ui(contact_query=v),
                                           len(people), build, id="contacts",
                                           search_id="contact_search", hint="Search contacts",
                                           row_height=140, empty_text="No contacts")])

    def meeting_page(self, meeting_id: int) -> Screen:
        m = self.data.meetings.get(meeting_id)
        if m is None:
            return Screen(top_bar=TopBar("Meeting", on_back=self.back),
                          content=[Text("This meeting was deleted", id="missing")])
        content: list[Node] = [
            Text(m.title, style="title", id="meeting_title"),
            Text(when_text(m, self.system.locale), id="meeting_when"),
            Text(self.t("Meeting ID: {number}", number=m.number), id="meeting_number",
                 copyable=True),
            Text(self.t("Passcode: {passcode}", passcode=m.passcode or self.t("none")),
                 id="meeting_passcode"),
            Text(self.t("Repeat: {repeat}", repeat=self.t(m.recurrence)), id="meeting_repeat"),
            Text(self.t("Invitees: {names}",
                        names=self.t(", ").join(m.invitees) or self.t("none")),
                 id="meeting_invitees"),
            Button("Start", partial(self.start_join, m.number), id="start"),
            Button("Copy invitation", partial(self.copy_invitation, m.id),
                   id="copy_invitation", style="secondary"),
        ]
        dialog = None
        if self.ui.dialog == "delete":
            dialog = ConfirmDialog("Delete this meeting?", "Invitees will not be notified.",
                                   on_confirm=partial(self.delete, m.id),
                                   on_cancel=self.close_dialog, confirm="Delete",
                                   destructive=True)
        return Screen(top_bar=TopBar("Meeting", on_back=self.back, actions=[
                          Icon("✎", "Edit", partial(self.open_editor, m.id), id="edit"),
                          Icon("🗑", "Delete", partial(self.set_ui, dialog="delete"),
                               id="delete")]),
                      content=content, dialog=dialog, on_dismiss=self.close_dialog)

    def prompt(self, perm: str, on_answer: Callable[[bool], None]) -> Node:
        return Dialog(PROMPTS[perm], "", [
            DialogButton("Don't allow", partial(on_answer, False), id="button_deny"),
            DialogButton("Allow", partial(on_answer, True), id="button_allow")])

    def join_screen(self) -> Screen:
        ui = self.ui
        content: list[Node] = [
            TextField(ui.join_number, lambda v: self.set_ui(join_number=v), hint="Meeting ID",
                      id="meeting_id", label="Meeting ID"),
            TextField(ui.join_name, lambda v: self.set_ui(join_name=v), hint="Your name",
                      id="display_name", label="Your name"),
            Toggle("Turn off my video", ui.video_off,
                   lambda: self.set_ui(video_off=not ui.video_off), id="video_off"),
            Button("Join", self.join, id="join_button")]
        if ui.error:
            content.append(Text(ui.error, style="error", id="join_error"))
        dialog = None
        if ui.dialog.startswith("prompt_"):
            perm = ui.dialog.removeprefix("prompt_")
            if perm in PROMPTS:
                dialog = self.prompt(perm, partial(self.answer_prompt, perm))

        def back() -> bool:
            self.ui.dialog = ""
            self.back()
            return True
        return Screen(top_bar=TopBar("Join meeting", on_back=self.back), content=content,
                      dialog=dialog, on_dismiss=self.close_dialog, on_back=back)

    def in_meeting(self) -> Screen:
        s = self.session()
        if s is None:
            return Screen(top_bar=TopBar("Zoom", on_back=self.leave),
                          content=[Text("You left the meeting", id="left")])
        dialog = None
        if self.ui.dialog == "prompt_camera_in":
            dialog = self.prompt("camera", self.camera_in_meeting)
        elif self.ui.dialog == "leave":
            dialog = ConfirmDialog("Leave meeting?", "", on_confirm=self.leave,
                                   on_cancel=self.close_dialog, confirm="Leave meeting",
                                   destructive=True)
        return Screen(
            top_bar=TopBar(self.t("Meeting {number}", number=s.number)),
            content=[Text(self.t("You are in the meeting as {name}", name=s.name),
                          id="in_meeting_as"),
                     Text("Muted" if s.muted else "Microphone on", id="mic_state"),
                     Text("Video on" if s.video else "Video off", id="video_state"),
                     Button("Unmute" if s.muted else "Mute", self.toggle_mute, id="mute"),
                     Button("Stop Video" if s.video else "Start Video", self.toggle_video,
                            id="video", style="secondary"),
                     Button("Chat", partial(self.go, "chat"), id="chat", style="secondary"),
                     Button("Leave", partial(self.set_ui, dialog="leave"), id="leave",
                            style="danger")],
            dialog=dialog, on_dismiss=self.close_dialog,
            on_back=self.ask_leave)

    def chat(self) -> Screen:
        s = self.session()
        sent = s.chat if s else ()
        return Screen(top_bar=TopBar("Chat", on_back=self.back), content=[
            VirtualList(len(sent), lambda i: ListItem(sent[i], "Me to Everyone",
                                                      id=f"chat_{i}"),
                        id="chat_list", empty_text="No messages yet"),
            TextField(self.ui.chat_draft, lambda v: self.set_ui(chat_draft=v),
                      hint="Type message here...", id="chat_input", label="Message"),
            Button("Send", self.send_chat, id="send")])


def zh_date_picker(dialog: Node | None, state: CalendarState) -> None:
    """Android's date picker as it shows in zh-CN: the headline "10月16日 周五", the month
    "2026年10月", the weekday initials 日 一 二 ... (its fixed words come from the
    catalogue)."""
    if dialog is None:
        return
    sel = state.selected
    texts = {"mtrl_picker_header_selection_text":
             f"{sel.month}月{sel.day}日 周{ZH_WEEKDAYS[sel.weekday()][-1]}",
             "month_navigation_fragment_toggle": f"{state.year}年{state.month}月 ▾"}
    week = "日一二三四五六"

    def visit(node: Node) -> None:
        if node.id in texts:
            node.text = texts[node.id]
        elif node.id == "mtrl_calendar_days_of_week":
            for cell, day in zip(node.children, week, strict=False):
                for n in (cell, *cell.children):
                    if n.text and n.text.isascii():
                        n.text = day
        for child in node.children:
            visit(child)
    visit(dialog)

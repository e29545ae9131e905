"""Multi-hop workflows: work over three or more apps, in stages.

A template declares its stages (``Workflow.stages``), each a milestone: its criteria, the
changes it may make and the oracle steps that reach it. ``info["progress"]`` counts the
criteria that hold, and a change no stage allows is collateral damage. A conditional
workflow returns the stages of the branch its params take, so the other branch's changes
fail. The oracle runs the stages' steps in order with ``carry`` (the params, and what
earlier steps read off the screen: a forecast, a meeting ID); the texts the stage makers
below type are format strings over it::

    def stages(self, p):
        return [schedule(p), email(p["to"], "Invitation", {"body": IdOf(meeting_of(p))},
                                   mailing(p["to"], "Invitation", "Meeting ID {number}"))]

A Zoom meeting's ID is made when the meeting is saved, so a field that must hold it
(``IdOf``) is checked on the final state (``HoldsMeetingId``): the text must hold that
meeting's ID and no other meeting's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta
from typing import Any

from ...actions import PhoneAction
from ...mockapps.calendar import fixtures as calendar
from ...mockapps.chat import fixtures as chat
from ...mockapps.clock.fixtures import COLLECTION as ALARMS
from ...mockapps.clock.fixtures import new_alarm as clock_new_alarm
from ...mockapps.mail import fixtures as mail
from ...mockapps.meet import fixtures as meet
from ...mockapps.messages import fixtures as messages
from ...mockapps.notes import fixtures as notes
from ...mockapps.todo import fixtures as todos
from ...tasks.driver import Driver, OracleError
from ...tasks.families import record_keys
from ...tasks.task import Task
from ...verifiers import (
    Allow,
    Allowed,
    Criterion,
    Matcher,
    NearMiss,
    Record,
    lookup,
    mentions,
    plain,
    rows,
    same_phone,
    same_text,
)
from ...verifiers.criteria import matching
from ...verifiers.negatives import shift_text, table_at
from ..common import chat_text, compose_mail, new_event

#: The oracle steps of a stage: ``steps(ui, carry)``.
Step = Callable[[Driver, dict[str, Any]], Iterator[PhoneAction]]


# --- criteria --------------------------------------------------------------------------------
@dataclass(frozen=True)
class HoldsMeetingId:
    """Exactly ``count`` records of ``collection`` match ``where``, and one of them has a
    ``field`` (text) holding the meeting ID of the Zoom meeting matching ``meeting`` (read
    from the same state: its digits as a whole number, ``mentions.number_spans``, not
    negated) and no other meeting's ID."""

    collection: str
    where: Mapping[str, Any]
    field: str
    meeting: Mapping[str, Any]
    count: int | None = 1

    def check(self, state: Mapping[str, Any], answer: str | None) -> tuple[bool, str]:
        found = matching(state, meet.MEETINGS, self.meeting)
        if len(found) != 1:
            return False, f"{len(found)} meetings like {dict(self.meeting)}, expected 1"
        want = meet.digits_of(str(found[0].get("number", "")))
        others = [meet.digits_of(str(m.get("number", "")))
                  for m in rows(state, meet.MEETINGS).values()]
        others = [n for n in others if n and n != want]
        found_rows = matching(state, self.collection, self.where)
        if not found_rows:
            return False, f"no {self.collection} record like {dict(self.where)}"
        if self.count is not None and len(found_rows) != self.count:
            return False, f"{len(found_rows)} {self.collection} records, expected {self.count}"
        for row in found_rows:
            text = str(row.get(self.field, ""))
            spans = mentions.number_spans(text, want)
            if spans and not mentions.negated(text, spans) \
                    and not any(mentions.number_spans(text, n) for n in others):
                return True, f"{self.collection} {self.field} holds the meeting ID"
        return False, f"{self.collection} {self.field} does not hold just the meeting ID"

    def near_misses(self, final: Mapping[str, Any], answer: str | None) -> list[NearMiss]:
        """``final`` with each text that holds the meeting's ID made wrong: its digits
        shifted (no ID), or another meeting's ID added (a dump of IDs)."""
        mine = matching(final, meet.MEETINGS, self.meeting)
        want = meet.digits_of(str(mine[0].get("number", ""))) if len(mine) == 1 else ""
        other = next((str(m.get("number", "")) for m in rows(final, meet.MEETINGS).values()
                      if m not in mine), "")
        out: list[NearMiss] = []
        for key in record_keys(final, self.collection, self.where):
            text = str(lookup(final, f"{self.collection}.{key}.{self.field}") or "")
            if not want or want not in meet.digits_of(text):
                continue
            wrong = [(shift_text(text), "no meeting ID")]
            wrong += [(f"{text} {other}", "another meeting's ID too")] if other else []
            for value, why in wrong:
                state = plain(final)
                table_at(state, self.collection)[key][self.field] = value  # type: ignore[index]
                out.append(NearMiss(state, answer, f"{self.collection} {key} with {why}"))
        return out


@dataclass(frozen=True)
class IdOf:
    """A text field's expectation: it holds the ID of the Zoom meeting ``meeting`` picks,
    and no other meeting's (``HoldsMeetingId``)."""

    meeting: Mapping[str, Any]


@dataclass(frozen=True)
class NewRecord:
    """A record of ``collection`` like ``where`` added: one more than the start held (a
    leftover first try is one too many)."""

    collection: str
    where: Mapping[str, Any]

    def at(self, initial: Mapping[str, Any]) -> Record:
        before = len(record_keys(initial, self.collection, self.where))
        return Record(self.collection, self.where, count=before + 1)


def made(collection: str, where: Mapping[str, Any], expect: Mapping[str, Any] | None = None,
         count: int | None = 1) -> Criterion:
    """``count`` records of ``collection`` like ``where``, one with the ``expect`` fields
    (a field that must hold a meeting's ID: ``IdOf``)."""
    expect = dict(expect or {})
    ids = [(name, v.meeting) for name, v in expect.items() if isinstance(v, IdOf)]
    if ids:
        (name, meeting), = ids
        return HoldsMeetingId(collection, where, name, meeting, count)
    return Record(collection, where, expect, count=count)


# --- the family ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Stage:
    """One milestone: what holds once it is reached (``checks``: criteria, or ``NewRecord``),
    the changes it may make (``allow``) and the oracle's ``steps`` (None: a milestone the
    oracle reaches on the way)."""

    checks: tuple[Any, ...] = ()
    allow: tuple[Allowed, ...] = ()
    steps: Step | None = None


def merged(rules: Iterable[Allowed]) -> list[Allowed]:
    """``rules``, the ``Allow`` rules that differ only in ``max`` made one with the maxes
    added (three stages that each text someone: three SMS added)."""
    out: list[Allowed] = []
    for rule in rules:
        for i, old in enumerate(out):
            if (isinstance(old, Allow) and isinstance(rule, Allow)
                    and replace(old, max=0) == replace(rule, max=0)):
                out[i] = replace(old, max=old.max + rule.max)
                break
        else:
            out.append(rule)
    return out


class Workflow(Task):
    """A workflow over three or more apps, as its ``stages``: their criteria in order, the
    changes they allow (nothing else may change), and an oracle that runs their steps."""

    tags = frozenset({"multihop", "handoff"})

    def stages(self, params: Mapping[str, Any]) -> Sequence[Stage]:
        """The stages in order (a conditional workflow: those of the params' branch)."""
        raise NotImplementedError

    def criteria(self, params: Mapping[str, Any],
                 initial: Mapping[str, Any]) -> Sequence[Criterion]:
        return [c.at(initial) if isinstance(c, NewRecord) else c
                for stage in self.stages(params) for c in stage.checks]

    def allowed(self, params: Mapping[str, Any],
                initial: Mapping[str, Any]) -> Sequence[Allowed]:
        return merged(rule for stage in self.stages(params) for rule in stage.allow)

    def declared_near_misses(self, initial: Mapping[str, Any], final: Mapping[str, Any],
                             params: Mapping[str, Any], answer: str | None) -> list[NearMiss]:
        """Beside the derived ones: each text that must hold a meeting's ID holding none, or
        two (``HoldsMeetingId.near_misses``)."""
        return [*(miss for c in self.criteria(params, initial) if isinstance(c, HoldsMeetingId)
                  for miss in c.near_misses(final, answer)),
                *super().declared_near_misses(initial, final, params, answer)]

    def route(self, carry: Carry) -> Sequence[Step]:
        """The oracle's steps, stage after stage. The default reads them off ``stages``
        (which may read every param); a grounded template lists its steps here, reading
        from ``carry`` only the params the instruction states."""
        return [stage.steps for stage in self.stages(carry.params) if stage.steps is not None]

    def oracle(self, ui: Driver, params: Mapping[str, Any]) -> Iterator[PhoneAction]:
        carry = Carry(params)
        for steps in self.route(carry):
            yield from steps(ui, carry)
        yield from ui.finish()


class Carry(dict[str, Any]):
    """What the oracle carries between stages: the values earlier steps read off the screen
    (a forecast, a meeting ID), over the params, each read only when asked for (so a param
    the instruction does not state is never read unless a step asks for it)."""

    def __init__(self, params: Mapping[str, Any]) -> None:
        super().__init__()
        self.params = params

    def __missing__(self, key: str) -> Any:
        return self.params[key]

    def get(self, key: str, default: Any = None) -> Any:  # type: ignore[override]
        return self[key] if key in self else default

    def __contains__(self, key: object) -> bool:
        return dict.__contains__(self, key) or key in self.params


# --- oracle steps ----------------------------------------------------------------------------
def fill(text: str, carry: Mapping[str, Any]) -> str:
    """``text`` (a format string) filled from ``carry``, reading only the keys it names."""
    return text.format_map(carry)

def listed(ui: Driver, text: str) -> bool:
    """Whether a row showing ``text`` is on screen now (a record already made: a script
    started over does not make it twice)."""
    return ui.find(text, kind="list_item") is not None


def read_id(title: str, start: bool = True) -> Step:
    """Open the Zoom meeting ``title`` (``start``: opening Zoom first): its ID goes in
    ``carry["number"]``, its topic in ``carry["topic"]``."""
    def steps(ui: Driver, carry: dict[str, Any]) -> Iterator[PhoneAction]:
        if start:
            yield from meet.start(ui)
        yield from ui.tap(title, kind="list_item")
        carry["number"] = ui.must(id="meeting_number").text.split(":", 1)[1].strip()
        carry["topic"] = title
    return steps


def mail_row(ui: Driver, sender: str, about: str = "") -> Any:
    """The inbox row on screen from ``sender`` (its name, as the row shows it) whose subject
    holds ``about``, or None."""
    return next((e for e in ui.find_all(kind="list_item")
                 if (e.text or "").startswith(sender) and about in (e.hint or "")), None)


def open_mail_from(ui: Driver, sender: str, about: str = "") -> Iterator[PhoneAction]:
    """In the open inbox, scroll to the mail from ``sender`` about ``about`` and open it."""
    for _ in range(8):
        row = mail_row(ui, sender, about)
        if row is not None and ui.usable(row):
            break
        before = [(e.text, e.bounds) for e in ui.find_all()]
        yield PhoneAction("scroll", x=500, y=500, direction="down")
        if [(e.text, e.bounds) for e in ui.find_all()] == before:
            break
    row = mail_row(ui, sender, about)
    if row is None:
        raise OracleError(f"no mail from {sender} about {about!r} in the inbox")
    ui.why(f"The inbox shows the mail from {sender}, \"{(row.hint or '').split(' · ')[0]}\": "
           "opening it")
    x, y = row.center_norm
    yield PhoneAction("click", x=x, y=y)


def texting(name: str, text: str, back: bool = False) -> Step:
    """Text ``text`` to the contact ``name`` from a new conversation (``back``: from the
    thread just sent, back to the list first)."""
    def steps(ui: Driver, carry: dict[str, Any]) -> Iterator[PhoneAction]:
        if back:
            yield from ui.press("back")
        yield from messages.send_sms(ui, name, fill(text, carry))
    return steps


def mailing(to: str, subject: str, body: str) -> Step:
    """Send a new e-mail to ``to`` (addresses, comma separated)."""
    def steps(ui: Driver, carry: dict[str, Any]) -> Iterator[PhoneAction]:
        yield from compose_mail(ui, to, subject, fill(body, carry))
    return steps


# --- stages ----------------------------------------------------------------------------------
def hop(collection: str, where: Mapping[str, Any], expect: Mapping[str, Any] | None = None,
        steps: Step | None = None, count: int | None = 1) -> Stage:
    """A stage that adds one record to ``collection`` (``made``'s criterion)."""
    return Stage((made(collection, where, expect, count),), (Allow(collection, "added"),),
                 steps)


def sent_to(phone: str) -> dict[str, Any]:
    """The where-clause of an SMS sent to ``phone``."""
    return {"address": same_phone(phone), "box": "sent"}


def sms(name: str, phone: str, body: Any, text: str, *, back: bool = False) -> Stage:
    """One text to the contact ``name`` (number ``phone``) whose body is ``body`` (a value,
    a matcher or ``IdOf``); the oracle sends ``text`` (``texting``)."""
    return hop(messages.COLLECTION, sent_to(phone), {"body": body}, texting(name, text, back))


def texts(people: Sequence[tuple[str, str]], body: Any, text: str = "{text}") -> Stage:
    """A text whose body is ``body`` to each of ``people`` (name, number), one more each
    than the start held; the oracle sends ``text`` to each, one after another."""
    sms_ = messages.COLLECTION
    checks = tuple(NewRecord(sms_, {**sent_to(phone), "body": body}) for _, phone in people)
    return Stage(checks, (Allow(sms_, "added", max=len(people)),),
                 texting_all([name for name, _ in people], text))


def texting_all(names: Sequence[str], text: str = "{text}") -> Step:
    """Send ``text`` to each contact of ``names``, one after another."""
    def steps(ui: Driver, carry: dict[str, Any]) -> Iterator[PhoneAction]:
        for i, name in enumerate(names):
            ui.why(f"Texting {name} what I noted" if i == 0 else
                   f"Sent; now the same text to {name}, in a conversation of its own")
            yield from texting(name, text, back=i > 0)(ui, carry)
    return steps


def note(title: str, body: Any, text: str = "{note}") -> Stage:
    """A new note ``title`` whose body is ``body``, not pinned; the oracle writes ``text``."""
    where = {"title": same_text(title)}
    return hop(notes.COLLECTION, where, {"body": body, "pinned": False},
               noting(title, text))


def noting(title: str, text: str = "{note}") -> Step:
    """Write ``text`` in a new note ``title`` in Notes, unless the list shows one."""
    def steps(ui: Driver, carry: dict[str, Any]) -> Iterator[PhoneAction]:
        ui.why(f'Opening Notes to keep it in a new note "{title}"')
        yield from ui.open_app("Notes")
        if listed(ui, title):
            return
        words = fill(text, carry)
        ui.why(f'Writing the note "{title}": {words}')
        yield from ui.tap(id="new_note")
        yield from ui.fill("title", title)
        yield from ui.fill("body", words)
        yield from ui.tap(id="save")
    return steps


def todo(title: Any, due: str | None = None, text: str | None = None) -> Stage:
    """A new to-do titled ``title`` (a text or a matcher), not done, due ``due``; the oracle
    types ``text`` (default: the title)."""
    where = {"title": same_text(title) if isinstance(title, str) else title}
    expect = {"due": due, "done": False} if due else {"done": False}
    return hop(todos.COLLECTION, where, expect, adding_todo(text or title, due))


def adding_todo(text: str, due: str | None = None) -> Step:
    """Add a to-do ``text`` (a format string over the carry) due ``due`` in Tasks, unless
    the list shows it."""
    def steps(ui: Driver, carry: dict[str, Any]) -> Iterator[PhoneAction]:
        words = fill(text, carry)
        ui.why(f'Opening Tasks to add the to-do "{words}"')
        yield from ui.open_app("Todo")
        if listed(ui, words):
            return
        ui.why(f'Adding the to-do "{words}"' + (f", due {due}" if due else ""))
        yield from ui.tap(id="new_item")
        yield from ui.fill("title", words)
        if due:
            yield from todos.set_due(ui, due)
        yield from ui.tap(id="save")
    return steps


def alarm(hour: int, minute: int, label: str = "") -> Stage:
    """A new alarm at ``hour``:``minute``, on (labelled ``label``), set in Clock unless one
    rings then already."""
    def steps(ui: Driver, carry: dict[str, Any]) -> Iterator[PhoneAction]:
        yield from alarming(ui, hour, minute, label)
    expect = {"label": same_text(label), "enabled": True} if label else {"enabled": True}
    return hop(ALARMS, {"hour": hour, "minute": minute}, expect, steps)


def alarming(ui: Driver, hour: int, minute: int, label: str = "") -> Iterator[PhoneAction]:
    """Set an alarm at ``hour``:``minute`` (labelled ``label``) in Clock."""
    ui.why(f"Setting an alarm at {hour:02d}:{minute:02d}" + (f' labelled "{label}"' if label
                                                            else ""))
    yield from clock_new_alarm(ui, hour, minute, label)


def event(title: str, first: datetime, last: datetime, expect: Mapping[str, Any] | None = None,
          description: str = "") -> Stage:
    """A new calendar event ``title`` from ``first`` to ``last`` (with the ``expect``
    fields); the oracle writes ``description``. An event asked for without a description
    must have none (text typed into it afterwards is over-doing)."""
    where = {"title": same_text(title), "start": calendar.iso(first), "end": calendar.iso(last)}
    if not description and "description" not in (expect or {}):
        expect = {**(expect or {}), "description": NO_DESCRIPTION}
    return hop(calendar.COLLECTION, where, expect, adding_event(title, first, last, description))


def adding_event(title: str, first: datetime, last: datetime, description: str = "") -> Step:
    """Add the calendar event ``title`` from ``first`` to ``last`` (``description``: a
    format string over the carry)."""
    def steps(ui: Driver, carry: dict[str, Any]) -> Iterator[PhoneAction]:
        words = fill(description, carry)
        ui.why(f'Adding the calendar event "{title}", {first:%a %d %b %H:%M}-{last:%H:%M}'
               + (f", its description: {words}" if words else ""))
        yield from new_event(ui, title, first, last, words)
    return steps


NO_DESCRIPTION = Matcher(lambda v: not v, "no description")


def email(to: Any, subject: Any, expect: Mapping[str, Any], steps: Step | None = None) -> Stage:
    """A sent e-mail to ``to`` (an address or a matcher) about ``subject`` (a text, a
    matcher, or None: any) with the ``expect`` fields."""
    where = {"folder": "sent", "to": same_text(to) if isinstance(to, str) else to}
    if subject is not None:
        where["subject"] = same_text(subject) if isinstance(subject, str) else subject
    return hop(mail.COLLECTION, where, expect, steps)


def post(chat_id: int, title: str, text: str, meeting: Mapping[str, Any]) -> Stage:
    """A message of mine in WeChat's chat ``chat_id`` (titled ``title``) holding the ID of
    the meeting ``meeting`` picks; the oracle sends ``text``."""
    def steps(ui: Driver, carry: dict[str, Any]) -> Iterator[PhoneAction]:
        yield from chat_text(ui, title, fill(text, carry))
    where = {"chat": chat_id, "sender": chat.ME}
    return hop(chat.MESSAGES, where, {"text": IdOf(meeting)}, steps, count=None)


# --- Zoom meetings ---------------------------------------------------------------------------
def meeting_of(p: Mapping[str, Any]) -> dict[str, Any]:
    """The where-clause of the meeting ``p`` describes (``title``, ``date``, ``time``)."""
    return {"title": same_text(p["title"]), "date": p["date"], "time": p["time"]}


def span(day: date, time: str, minutes: int) -> tuple[datetime, datetime]:
    """Start and end of ``minutes`` from ``time`` (``HH:MM``) on ``day``."""
    hour, minute = map(int, time.split(":"))
    first = calendar.at(day, hour, minute)
    return first, first + timedelta(minutes=minutes)


def schedule(fill: Mapping[str, Any], expect: Mapping[str, Any] | None = None) -> Stage:
    """A Zoom meeting scheduled from ``fill`` (``title``, ``date``, ``time``; ``minutes``
    and ``invitees`` when given), with the ``expect`` fields; the oracle schedules it unless
    it is there, then opens it (``read_id``)."""
    return hop(meet.MEETINGS, meeting_of(fill), expect, scheduling(fill))


def scheduling(fill: Mapping[str, Any] | None = None, key: str | None = None) -> Step:
    """Schedule the Zoom meeting ``fill`` (or the carried ``carry[key]``, or the carry
    itself) unless the list shows it, then open it (``read_id``)."""
    def steps(ui: Driver, carry: dict[str, Any]) -> Iterator[PhoneAction]:
        what = fill if fill is not None else carry[key] if key else carry
        title = what["title"]
        ui.why(f'Opening Zoom to schedule "{title}"')
        yield from meet.start(ui)
        if ui.find(id="schedule") is None:
            ui.why("A meeting's page is open: back to the list of meetings")
            yield from ui.press("back")  # from a meeting's page to the list
        if ui.find(title, kind="list_item") is None:
            ui.why(f'Scheduling "{title}" on {what["date"]} at {what["time"]}')
            yield from meet.fill_meeting(ui, what)
        ui.why(f'"{title}" is saved: opening it to read its meeting ID')
        yield from read_id(title, start=False)(ui, carry)
    return steps

"""Consistency across apps: records two apps keep must agree (a booking and its calendar
event, a payment and its expense, an order and its to-do).

A template declares what it asks of each app's records (``asks``): a record made
(``made``), fields edited (``edited``), a record removed (``removed``), or a record that must
agree with a record of another app (``agreeing`` an ``Agrees``: the two records, each found
by content, by key or as the one added during the task, and the relation between them: the
fields the one must hold given the other). The family turns that into criteria and allowed
changes after the ones of the single-app template it extends, and into near misses (each
agreeing field of the final record changed, a second copy of it):

    class CrossBankPayeeToExpense(Consistency, BankPaySavedPayee):  # pay, then log it
        def asks(self, p, initial):
            payment = Pick(PAYMENTS, {"payee": p["payee"]}, old=tuple(rows(initial, PAYMENTS)))
            expense = Pick(EXPENSES, {"name": same_text(p["expense"])})
            return [agreeing(Agrees(expense, payment, same_amount_and_date))]

The oracle steps several such templates share are here too (an event's times set, the
listed record deleted, an alarm set, a single-app oracle as the first stage of a longer one).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, ClassVar

from ...actions import PhoneAction
from ...mockapps.calendar import fixtures as calendar
from ...mockapps.clock.fixtures import new_alarm as clock_new_alarm
from ...tasks.driver import Driver, OracleError
from ...tasks.task import Task
from ...verifiers import (
    Allow,
    Allowed,
    Criterion,
    Matcher,
    NearMiss,
    Record,
    Value,
    field_ok,
    rows,
)
from ...verifiers.negatives import rejected, table_at

Row = Mapping[str, Any]
#: Finds one record in a state: the record, or None and why not.
Source = Callable[[Mapping[str, Any]], tuple[Row | None, str]]
#: The fields (literals or matchers) a record must hold, given the record it agrees with and
#: the whole state.
Relation = Callable[[Row, Mapping[str, Any]], Mapping[str, Any]]

#: A field left empty, false or unset (no location, not all-day, not done).
EMPTY = Matcher(lambda v: not v, "empty")
#: A field that is set (done, paid).
SET = Matcher(bool, "set")


def key_of(state: Mapping[str, Any], collection: str, **where: Any) -> str:
    """The key of the first record of ``collection`` in a snapshot whose fields match
    ``where`` (literals or matchers): the setup's record a template's checks name."""
    return next(k for k, r in rows(state, collection).items()
                if all(field_ok(v, r.get(f)) for f, v in where.items()))


@dataclass(frozen=True)
class Pick:
    """How a check finds one record of ``collection`` in a state: by ``key`` (of the initial
    state; it must still match ``where``), or as the one record ``where`` picks, among those
    added during the task when ``old`` (the initial keys) is given. ``what`` names the
    records in reasons."""

    collection: str
    where: Mapping[str, Any] = field(default_factory=dict)
    key: str = ""
    old: tuple[str, ...] | None = None
    what: str = "records"

    def find(self, state: Mapping[str, Any]) -> tuple[str | None, str]:
        """The record's key, or None and why not."""
        table = rows(state, self.collection)
        keys = [self.key] if self.key else [k for k in table if k not in (self.old or ())]
        hits = [k for k in keys if k in table
                and all(field_ok(v, table[k].get(f)) for f, v in self.where.items())]
        if self.key and not hits:
            return None, f"{self.collection}.{self.key} is gone or no longer as it should be"
        if len(hits) != 1:
            new = " new" if self.old is not None else ""
            return None, f"{len(hits)}{new} {self.what} like {dict(self.where)}, expected 1"
        return hits[0], ""

    def __call__(self, state: Mapping[str, Any]) -> tuple[Row | None, str]:
        key, why = self.find(state)
        return (None, why) if key is None else (rows(state, self.collection)[key], "")


@dataclass(frozen=True)
class Agrees:
    """The one record ``record`` picks agrees with the one ``source`` picks (in another
    app): it holds ``fields`` and what ``relation`` gives for the source (literals or
    matchers). A source whose fields make no sense (no valid date) fails."""

    record: Pick
    source: Source
    relation: Relation
    fields: Mapping[str, Any] = field(default_factory=dict)

    def expected(self, state: Mapping[str, Any]) -> tuple[dict[str, Any] | None, str]:
        """The fields the record must hold in ``state``, or None and why not."""
        source, why = self.source(state)
        if source is None:
            return None, why
        try:
            return {**self.fields, **self.relation(source, state)}, ""
        except (KeyError, TypeError, ValueError) as exc:
            return None, f"the record to agree with is not valid ({exc!r})"

    def check(self, state: Mapping[str, Any], answer: str | None) -> tuple[bool, str]:
        record, why = self.record(state)
        if record is None:
            return False, why
        want, why = self.expected(state)
        if want is None:
            return False, why
        wrong = [k for k, v in want.items() if not field_ok(v, record.get(k))]
        if wrong:
            has, expected = ({k: r.get(k) for k in wrong} for r in (record, want))
            return False, f"the {self.record.what} has {has}, expected {expected}"
        return True, f"the {self.record.what} agrees with the other app's record"

    def near_misses(self, final: Mapping[str, Any], answer: str | None) -> list[NearMiss]:
        """The agreeing record of ``final`` with each checked field changed to a value the
        check rejects, and (when it is found by content) a second copy of it."""
        key, _ = self.record.find(final)
        want, _ = self.expected(final)
        if key is None or want is None:
            return []
        out = []
        path = f"{self.record.collection}.{key}"
        for name, value in {**self.record.where, **want}.items():
            state = copy.deepcopy(final)
            table = table_at(state, self.record.collection)
            if table is None or name not in table[key]:
                continue
            changed = rejected(value, table[key][name])
            if changed is None:
                continue
            table[key] = {**table[key], name: changed}
            out.append(NearMiss(state, answer, f"{path}.{name} changed to {changed!r}"))
        if not self.record.key:
            state = copy.deepcopy(final)
            table = table_at(state, self.record.collection)
            if table is not None:
                twin = {**table[key]}
                if "id" in twin:
                    twin["id"] = f"{key}_copy"
                table[f"{key}_copy"] = twin
                out.append(NearMiss(state, answer, f"a second copy of {path}"))
        return out


@dataclass(frozen=True)
class Ask:
    """What a task asks of one app's records: the checks that must hold after it, and the
    changes it allows (``Allow`` rules, ``Becomes`` values)."""

    checks: tuple[Criterion, ...] = ()
    allows: tuple[Allowed, ...] = ()


def made(collection: str, where: Mapping[str, Any], fields: Mapping[str, Any] | None = None,
         *, count: int = 1) -> Ask:
    """A record like ``where`` with ``fields`` added (``count`` such records in the end)."""
    return Ask((Record(collection, where, dict(fields or {}), count=count),),
               (Allow(collection, "added"),))


def edited(collection: str, key: str, changes: Mapping[str, Any],
           also: tuple[str, ...] = ()) -> Ask:
    """The record ``key``'s fields set to ``changes`` (``also``: fields free to change with
    them); nothing else of it changes."""
    return Ask(tuple(Value(f"{collection}.{key}.{name}", value)
                     for name, value in changes.items()),
               (Allow(collection, "modified", key=key, fields=(*changes, *also)),))


def removed(collection: str, key: str) -> Ask:
    """The record ``key`` deleted."""
    return Ask((Value(f"{collection}.{key}", None),), (Allow(collection, "removed", key=key),))


def agreeing(check: Agrees, allow: Allowed | None = None) -> Ask:
    """The record ``check`` finds agrees with the other app's record: it is added (default)
    or changed as ``allow`` says."""
    return Ask((check,), (allow or Allow(check.record.collection, "added"),))


def along(*allows: Allowed) -> Ask:
    """Changes the task may make on the way, with nothing to check (a mail marked read)."""
    return Ask((), allows)


class Consistency(Task):
    """Records two or more apps keep must agree. ``asks`` lists what the task asks of
    each app's records; the criteria and allowed changes are the base template's (when
    ``extends``: a single-app task this one carries on) followed by the asks'."""

    #: The kind of cross-app task (``Task.tags``): state one app keeps that another shows.
    tags: ClassVar[frozenset[str]] = frozenset({"persistent"})
    #: Whether the base template's own criteria and allowed changes count (False where the
    #: base only seeds its apps).
    extends: ClassVar[bool] = True

    def asks(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> Sequence[Ask]:
        raise NotImplementedError

    def criteria(self, p: Mapping[str, Any],
                 initial: Mapping[str, Any]) -> Sequence[Criterion]:
        base = super().criteria(p, initial) if self.extends else ()
        return [*base, *(c for ask in self.asks(p, initial) for c in ask.checks)]

    def allowed(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> Sequence[Allowed]:
        base = super().allowed(p, initial) if self.extends else ()
        return [*base, *(a for ask in self.asks(p, initial) for a in ask.allows)]

    def declared_near_misses(self, initial: Mapping[str, Any], final: Mapping[str, Any],
                             params: Mapping[str, Any], answer: str | None) -> list[NearMiss]:
        """Each agreeing record off in one checked field, or twice over."""
        return [*super().declared_near_misses(initial, final, params, answer),
                *(miss for c in self.criteria(params, initial) if isinstance(c, Agrees)
                  for miss in c.near_misses(final, answer))]


# --- oracle steps --------------------------------------------------------------------------------
def steps(oracle: Iterator[PhoneAction]) -> Iterator[PhoneAction]:
    """A single-app template's oracle without its ``finish``: the first stage of a longer
    one."""
    for action in oracle:
        if action.type == "finish":
            return
        yield action


def set_span(ui: Driver, first: datetime, last: datetime) -> Iterator[PhoneAction]:
    """On the calendar's open event: its start and end set to ``first`` and ``last``,
    saved."""
    yield from calendar.set_date(ui, "start_date", first.date())
    yield from calendar.set_time(ui, "start_time", first)
    yield from calendar.set_date(ui, "end_date", last.date())
    yield from calendar.set_time(ui, "end_time", last)
    yield from ui.tap(id="save")


def delete_listed(ui: Driver, title: str) -> Iterator[PhoneAction]:
    """Delete the record listed on screen as ``title`` (its page: Delete, confirmed), if it
    is listed (scrolling to it)."""
    try:
        yield from ui.reveal(title, kind="list_item")
    except OracleError:
        return
    if ui.find(title, kind="list_item") is not None:
        yield from ui.tap(title, kind="list_item")
        yield from ui.tap(id="delete")
        yield from ui.tap(id="button_delete")


def new_alarm(ui: Driver, hour: int, minute: int, label: str) -> Iterator[PhoneAction]:
    """Set a one-time alarm in Clock: +, the time on the clock face, the label, Save."""
    yield from clock_new_alarm(ui, hour, minute, label)

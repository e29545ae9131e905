"""AndroidWorld's Simple Calendar Pro tasks and their counterparts on the Calendar app
(``phone_gym/mockapps/calendar``), kept by that app's authors."""

from __future__ import annotations

_ADD = ("exactly one new event with that start and end, title, description, no location "
        "and no repeat; ")
_IR = ("typed answer check; the other events' titles are candidates (a dump fails); plus "
       "AndroidWorld's 75 random events within 15 days of the clock, none of which changes "
       "the answer (its exclusion conditions, made strict: none that would make the answer "
       "ambiguous)")

MAPPED: dict[str, tuple[str, str]] = {
    "SimpleCalendarAddOneEvent": (
        "SimpleCalendarAddOneEvent",
        _ADD + "1-20 other events (not 0-20, so that damage to one can be checked); changes "
        "to them fail; titles are a subject plus a person or topic; PhoneWorld only (from a "
        "real phone's own date, setting an October 2023 date can exceed the 34 steps)"),
    "SimpleCalendarAddOneEventInTwoWeeks": (
        "SimpleCalendarAddOneEventInTwoWeeks",
        _ADD + "October 29 (two weeks after the fixed date); PhoneWorld only (a real "
        "phone's clock is not AndroidWorld's)"),
    "SimpleCalendarAddOneEventRelativeDay": (
        "SimpleCalendarAddOneEventRelativeDay",
        _ADD + "'this <weekday>' 1-6 days ahead; PhoneWorld only (relative to the fixed "
        "date)"),
    "SimpleCalendarAddOneEventTomorrow": (
        "SimpleCalendarAddOneEventTomorrow",
        _ADD + "October 16; PhoneWorld only (relative to the fixed date)"),
    "SimpleCalendarAddRepeatingEvent": (
        "SimpleCalendarAddRepeatingEvent",
        "the new event's rule must be FREQ=DAILY or FREQ=WEEKLY;BYDAY=<start's weekday> "
        "(an RFC 5545 rule instead of Simple Calendar's interval and bit mask); PhoneWorld "
        "only (the rule is not read over adb)"),
    "SimpleCalendarDeleteEvents": (
        "SimpleCalendarDeleteEvents",
        "same check (the 3 events of the day gone, the 20 others untouched); deleting more "
        "fails; PhoneWorld only (from a real phone's own date, October 2023 is too many month "
        "pages away for the step budget)"),
    "SimpleCalendarDeleteEventsOnRelativeDay": (
        "SimpleCalendarDeleteEventsOnRelativeDay",
        "same check (the 2 events of 'this <weekday>' gone, 20 others untouched); "
        "PhoneWorld only"),
    "SimpleCalendarDeleteOneEvent": (
        "SimpleCalendarDeleteOneEvent",
        "same check (only that event gone); the hour is 7-21 (not 0-23); also on real "
        "phones (found by search, any clock)"),
    "SimpleCalendarEventsOnDate": (
        "SimpleCalendarEventsOnDate",
        "one event on the day, 5 on other days; answer: its title (set match); " + _IR),
    "SimpleCalendarNextEvent": (
        "SimpleCalendarNextEvent",
        "the next event after 15:34 today among earlier and later ones; " + _IR),
    "SimpleCalendarEventOnDateAtTime": (
        "SimpleCalendarEventOnDateAtTime",
        "decoys at other times that day and at that time on other days; " + _IR),
    "SimpleCalendarAnyEventsOnDate": (
        "SimpleCalendarAnyEventsOnDate",
        "three events on the day, all three titles in any order (set match); " + _IR),
    "SimpleCalendarNextMeetingWithPerson": (
        "SimpleCalendarNextMeetingWithPerson",
        "the answer must hold the right date and the right time (two typed checks); a past "
        "and a later meeting with the same person and meetings with others are decoys; "
        + _IR.split("; ", 1)[1]),
    "SimpleCalendarLocationOfEvent": (
        "SimpleCalendarLocationOfEvent",
        "the question names the title only (it is unique); free-text location match "
        "(same_text, not a similarity ratio); also on real phones (found by search); "
        + _IR.split("; ", 1)[1]),
    "SimpleCalendarEventsInNextWeek": (
        "SimpleCalendarEventsInNextWeek",
        "2 events in Oct 16-22, decoys today, the week after and before; set match; "
        + _IR),
    "SimpleCalendarFirstEventAfterStartTime": (
        "SimpleCalendarFirstEventAfterStartTime",
        "an earlier event, later ones and one the next day as decoys; " + _IR),
    "SimpleCalendarEventsInTimeRange": (
        "SimpleCalendarEventsInTimeRange",
        "1-2 evening events between the start time and 20:00, decoys before and after; set "
        "match; " + _IR),
}

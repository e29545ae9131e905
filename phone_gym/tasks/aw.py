"""What the AndroidWorld counterparts share: the fixed device date, and days said the way
AndroidWorld's information-retrieval tasks say them.

AndroidWorld (google-research/android_world, ``env/device_constants.py``) fixes the phone's
clock at Sunday Oct 15 2023 15:34 UTC; its calendar, expense and retrieval data are built
around that day, and its questions name days relatively ("tomorrow", "this Wednesday"). A
counterpart template sets ``start = AW_START`` so that its phone shows the same day. Free
text is compared as AndroidWorld's ``fuzzy_match`` intends with ``verifiers.same_text``
(case, punctuation and spacing aside), never by a similarity ratio (a ratio lets a near
miss through).
"""

from __future__ import annotations

from datetime import date, datetime, timedelta

import numpy as np

from .vocab import pick

#: AndroidWorld's device clock (UTC; PhoneWorld's clock runs in UTC).
AW_START = datetime(2023, 10, 15, 15, 34, 0)
AW_TODAY = AW_START.date()
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December")
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
#: How a day may be named in an instruction (``day_phrase``).
PHRASINGS = ("date", "date_year", "relative")


def long_date(day: date, *, year: bool = False) -> str:
    """``October 20`` (``October 20, 2023`` with ``year``)."""
    text = f"{MONTHS[day.month - 1]} {day.day}"
    return f"{text}, {day.year}" if year else text


def day_phrase(day: date, how: str, today: date = AW_TODAY) -> str:
    """``day`` as an instruction names it: ``date`` (October 20), ``date_year`` (October 20,
    2023) or ``relative`` (today, tomorrow, this Wednesday within the next six days, else
    the date). Raises ``ValueError`` for another ``how``."""
    if how == "date":
        return long_date(day)
    if how == "date_year":
        return long_date(day, year=True)
    if how != "relative":
        raise ValueError(f"unknown day phrasing {how!r}; use one of {', '.join(PHRASINGS)}")
    delta = (day - today).days
    if delta == 0:
        return "today"
    if delta == 1:
        return "tomorrow"
    if 1 < delta < 7:
        return f"this {WEEKDAYS[day.weekday()]}"
    return long_date(day)


def sample_day(rng: np.random.Generator, first: int = 0, last: int = 14,
               today: date = AW_TODAY) -> date:
    """A day ``first``..``last`` days after ``today`` (both ends included)."""
    return today + timedelta(days=int(rng.integers(first, last + 1)))


def sample_phrasing(rng: np.random.Generator) -> str:
    return str(pick(rng, PHRASINGS))


def week_of(day: date) -> tuple[date, date]:
    """The Monday-to-Sunday week holding ``day`` (AndroidWorld's weeks start on Monday)."""
    monday = day - timedelta(days=day.weekday())
    return monday, monday + timedelta(days=6)


__all__ = ["AW_START", "AW_TODAY", "MONTHS", "PHRASINGS", "WEEKDAYS", "day_phrase",
           "long_date", "sample_day", "sample_phrasing", "week_of"]

"""The phone's locale: which language its screens speak and how they write dates, times,
numbers and money, and the per-locale string catalogues they read.

``LOCALES`` are the locales a phone may run in. en-US is the source language: its strings
are the English ones written in the code, so it needs no catalogue. Any other locale reads
every visible string from a catalogue, a JSON object of ``{English string or id:
translation}``: the system UI's (``world/strings/<locale>.json``) and each app's
(``mockapps/<app>/strings/<locale>.json``). ``Catalogue.t`` of a key missing from a declared
locale's catalogue raises ``MissingString``: a missing string is an error, never a silent
English fallback (the catalogue test walks every screen).

Dates, times, numbers and money follow CLDR's patterns for each locale (Babel is not a
dependency; the few patterns the phone draws are tabled here from CLDR 44:
``dateFormatLong``, ``currencyFormat``): en-US writes "October 15, 2026" and "$12.50";
zh-CN writes "2026年10月15日" and "¥12.50" (or "12.50元" in running text). Times are 24-hour
("09:30") in both, as the phone's clock has always shown them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import date, datetime
from functools import cache
from pathlib import Path

#: The locales a phone may run in; the first is the default.
LOCALES: tuple[str, ...] = ("en-US", "zh-CN")
DEFAULT_LOCALE = LOCALES[0]
#: Where the system UI's catalogues live.
SYSTEM_STRINGS = Path(__file__).parent / "strings"
#: Chinese numerals 0..10 (counts in instructions: 三 for 3).
ZH_DIGITS = "零一二三四五六七八九十"
ZH_WEEKDAYS = ("星期一", "星期二", "星期三", "星期四", "星期五", "星期六", "星期日")
EN_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
             "September", "October", "November", "December")


class MissingString(KeyError):
    """A string a screen shows has no entry in its locale's catalogue."""

    def __str__(self) -> str:
        return str(self.args[0])


def catalogue_datum(data: Mapping[str, Mapping[str, str]], app: str, folder: str,
                    locale: str, text: str, *, kept_localized: bool = False) -> str:
    """The seeded datum ``text`` in ``locale`` from an app's data catalogues ``data``
    (``{locale: {English datum: datum}}``, its ``strings/<locale>.data.json``): itself in
    en-US (and, with ``kept_localized``, when it is one of the catalogue's own words, as a
    template's param already localized is); ``MissingString`` naming the file to add it to
    when the catalogue lacks it, never English on another locale's phone."""
    if locale == DEFAULT_LOCALE:
        return text
    table = data.get(locale, {})
    if kept_localized and text in table.values():
        return text
    try:
        return str(table[text])
    except KeyError:
        raise MissingString(f"{app}: no {locale} datum for {text!r} (add it to "
                            f"{folder}/strings/{locale}.data.json)") from None


def english_datum(data: Mapping[str, Mapping[str, str]], text: str) -> str:
    """The English datum that a localized one of an app's data catalogues ``data`` stands
    for (a zh-CN param: 马拉松 -> Marathon); ``text`` itself when no catalogue has it (it
    is English already)."""
    for table in data.values():
        for key, value in table.items():
            if value == text:
                return str(key)
    return text


def check_locale(locale: str) -> str:
    """``locale`` if the phone supports it, else ValueError naming the accepted ones."""
    if locale not in LOCALES:
        raise ValueError(f"locale {locale!r} is not supported; accepted: {', '.join(LOCALES)}")
    return locale


@cache
def load_catalogue(folder: str, locale: str) -> dict[str, str]:
    """The catalogue ``<folder>/<locale>.json`` ({} when there is none)."""
    path = Path(folder) / f"{locale}.json"
    if not path.exists():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or not all(isinstance(k, str) and isinstance(v, str)
                                             for k, v in data.items()):
        raise ValueError(f"{path}: a catalogue is a JSON object of strings to strings")
    return data


class Catalogue:
    """The strings of one owner (the system UI or an app) in one locale.

    ``t(key)`` is the text to show for the English string or id ``key``: the key itself in
    en-US; the catalogue's entry otherwise (``MissingString`` when there is none). Keys may
    hold ``{name}`` fields, filled from ``fields`` after the lookup."""

    def __init__(self, owner: str, folder: str | Path, locale: str) -> None:
        self.owner = owner
        self.locale = check_locale(locale)
        self.folder = str(folder)
        self.strings = load_catalogue(self.folder, locale) if locale != DEFAULT_LOCALE else {}

    def t(self, key: str, **fields: object) -> str:
        if self.locale == DEFAULT_LOCALE:
            text = key
        else:
            try:
                text = self.strings[key]
            except KeyError:
                raise MissingString(f"{self.owner}: no {self.locale} string for {key!r} (add it "
                                    f"to {self.folder}/{self.locale}.json)") from None
        return text.format(**fields) if fields else text


def system_strings(locale: str) -> Catalogue:
    """The system UI's catalogue (launcher, status bar, shade, recents, dialogs)."""
    return _system(check_locale(locale))


@cache
def _system(locale: str) -> Catalogue:
    return Catalogue("system UI", SYSTEM_STRINGS, locale)


# --- formats ------------------------------------------------------------------------------
def format_date(day: date, locale: str, *, year: bool = True, weekday: bool = False) -> str:
    """A calendar date as the locale writes it: "October 15, 2026" / "2026年10月15日"
    (``year=False``: "October 15" / "10月15日"; ``weekday``: with the day of the week)."""
    check_locale(locale)
    if locale == "zh-CN":
        text = f"{day.year}年{day.month}月{day.day}日" if year else f"{day.month}月{day.day}日"
        return text + " " + ZH_WEEKDAYS[day.weekday()] if weekday else text
    text = f"{EN_MONTHS[day.month - 1]} {day.day}" + (f", {day.year}" if year else "")
    return f"{day.strftime('%A')}, {text}" if weekday else text


def format_time(moment: datetime, locale: str) -> str:
    """A time of day: 24-hour "09:30" in both locales (the phone's clock setting)."""
    check_locale(locale)
    return moment.strftime("%H:%M")


def format_number(value: float, locale: str, decimals: int = 0) -> str:
    """A number with the locale's grouping: "1,234.50" in both en-US and zh-CN (CLDR)."""
    check_locale(locale)
    return f"{value:,.{decimals}f}"


def format_money(cents: int, locale: str, *, symbol: bool = True) -> str:
    """An amount in cents: "$12.50" / "¥12.50"; zh-CN ``symbol=False``: "12.50元"."""
    check_locale(locale)
    amount = format_number(abs(cents) / 100, locale, 2)
    sign = "-" if cents < 0 else ""
    if locale == "zh-CN":
        return f"{sign}¥{amount}" if symbol else f"{sign}{amount}元"
    return f"{sign}${amount}"


def zh_count(n: int) -> str:
    """A small count as written in Chinese prose: 三 for 3 (两 before a measure word is the
    caller's choice); numbers above ten stay in digits."""
    if not 0 <= n <= 10:
        return str(n)
    return ZH_DIGITS[n]


def money_forms(cents: int, locale: str) -> tuple[str, ...]:
    """Every way the locale writes the amount ``cents`` (what a verifier accepts)."""
    check_locale(locale)
    plain = f"{cents / 100:.2f}"
    short = plain.rstrip("0").rstrip(".")  # 12.5, 12
    forms = {plain, short, format_money(cents, locale)}
    if locale == "zh-CN":
        forms |= {f"{plain}元", f"{short}元", f"¥{short}", f"￥{plain}", f"￥{short}",
                  f"{short}块"}
    else:
        forms |= {f"${short}"}
    return tuple(sorted(forms))


def date_forms(day: date, locale: str) -> tuple[str, ...]:
    """Every way the locale writes the date ``day`` (with and without the year)."""
    check_locale(locale)
    forms = {format_date(day, locale), format_date(day, locale, year=False), day.isoformat()}
    if locale == "zh-CN":
        forms |= {f"{day.month}月{day.day}号", f"{day.month:02d}月{day.day:02d}日"}
    return tuple(sorted(forms))


def count_forms(n: int, locale: str) -> tuple[str, ...]:
    """Every way the locale writes the count ``n``: "3" and "三" (and 两 for 2) in zh-CN."""
    check_locale(locale)
    forms = {str(n)}
    if locale == "zh-CN":
        forms.add(zh_count(n))
        if n == 2:
            forms.add("两")
    return tuple(sorted(forms))


__all__ = [
    "catalogue_datum",
    "DEFAULT_LOCALE", "LOCALES", "Catalogue", "MissingString", "check_locale", "count_forms",
    "date_forms", "format_date", "format_money", "format_number", "format_time",
    "load_catalogue", "money_forms", "system_strings", "zh_count",
]

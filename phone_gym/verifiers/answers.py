"""Typed answer matching: an agent's free-text answer against the expected value of one kind.

A correct answer written in a usual format passes; a loose one (every candidate dumped, an
extra claim, a value only inside a longer one) fails. ``match_answer(kind, expected, answer)``
gives ``(ok, reason)``; ``answer_matcher`` wraps it as a ``Matcher``; ``answer_variants`` and
``wrong_answers`` list answers that must pass and must fail (for tests and judge matrices).

Rules shared by every kind:

* At most 2000 characters (longer: rejected unread); no ``eval``; every regex is linear.
* Structured answers: a JSON object (optionally in ```` ```json ```` fences) gives the value
  of ``field`` when present, else its only value; with several keys and no usable ``field``
  it fails. Values may be strings, numbers, bools, or lists (for ``list``/``set``).
* Value kinds (number, count, phone, time, date, duration, money) extract every value of the
  kind from the text and accept iff there is at least one, every one equals the expected
  value, no bare number is joined to one by a disjunction ("7 or 8 pm", "March 5-6") or by
  a comma where it could be a value of the kind ("March 5, 6"), and no negation ("not",
  "n't", "never", ...) shares a clause with one. Other words around the value are a lead-in
  or a remark ("It's 07:30", "Answer: 3"); a value repeated in another format is one value.
* Text kinds (name, text, list, set) compare the whole answer after an optional lead-in: at
  most 8 words ending in "is", "was", "are", "called", "named", "it's"-style contractions,
  ":", "=", or a spaced dash, with no digits, separators (",", ";", "/", newline, "or",
  "and") or negation in it.

zh-CN forms of every kind ("25分钟", "共3条", "12元5角", "2026年10月15日", "下午3点半",
"是/没有", "张 伟") are read as the same value (``answers_zh``); "¥" is yuan or yen.

Per kind:

* number: digits with sign, thousands commas and decimals, or number words (zero..twenty,
  thirty..ninety, hundred, "twenty-one", "none"); equal within 1e-9.
* count: like number; the expected value is a non-negative integer.
* phone: runs of digits, spaces, ``().-`` with at least 5 digits; equal digits, or equal after
  dropping a country code written as ``+CC `` (or NANP's leading 1 on 11 digits) from one
  side and a trunk 0 from the other. A digit run is never searched inside a longer one.
* time: "7:30", "07:30", "7.30", "7h30", "7:30 am", "7:30pm", "7 p.m.", "19:30",
  "7 o'clock", "7:30 in the evening", "noon", "midnight"; without am/pm "7:30" is 07:30.
* date: ISO "2026-03-05", US "03/05/2026", "March 5, 2026", "5 March 2026", "Mar 5",
  "the 5th of March"; a missing year is the expected one; any weekday named must be right.
* duration: expected seconds; "90 minutes", "1 h 30 min", "1 hour and 30 minutes",
  "1.5 hours", "an hour and a half", "half an hour", "1:30" (h:mm), "1h30", "45 s"; the
  parts of one expression (falling units, joined by space, comma or "and") sum.
* money: "$12.50", "12.50", "12.5 dollars", "USD 12.50", "€12,50" (comma decimals only as
  ",dd" with no other separator), "12.50 EUR", "50 cents"; equal to the cent; an expected
  ``(amount, "EUR")`` also needs any stated currency to match.
* yes_no: exactly one polarity among yes/yeah/yep/true/correct/affirmative and
  no/nope/false/incorrect/not/n't ("not true" counts as no).
* name: lower-cased, whitespace-collapsed, surrounding quotes and punctuation dropped;
  equal to the expected name.
* text: like name, but compared as word and punctuation tokens (``match_text`` with
  ``loose_punct=True`` ignores inner punctuation too).
* list: items split on ",", ";", newlines, "and" (Oxford comma too) and bullets ("- ",
  "* ", "1. "), each normalised like a name, equal in order; a JSON list also works.
  Expected items that contain a separator ("salt and pepper") still match whole.
* set: like list, order-free, duplicates collapse; exactly the expected items.
"""

from __future__ import annotations

import datetime as dt
import json
import numbers
import re
from bisect import bisect_right
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from .answers_zh import CJK, zh_forms, zh_name_key
from .claims import LEAD_BAD, LEAD_END, WORD, claims_before, restates, second_claim
from .criteria import Matcher
from .mentions import NEGATION, negated

ANSWER_TYPES: tuple[str, ...] = ("number", "count", "phone", "time", "date", "duration", "money",
                                 "name", "yes_no", "list", "set", "text")

MAX_ANSWER_CHARS = 2000
MAX_STRUCTURED_CHARS = 4000

_Result = tuple[bool, str]

_I = re.IGNORECASE
_STRIP = " \t\r\n\"'“”‘’`*_.,!?;:。，！？；：、「」《》"


# ---------------------------------------------------------------- structured answers


def parse_structured(answer: str) -> dict[str, Any] | None:
    """The answer as a JSON object (keys lower-cased and stripped), else None."""
    if not isinstance(answer, str) or len(answer) > MAX_STRUCTURED_CHARS:
        return None
    text = _unfence(answer)
    if not text.startswith("{"):
        return None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(data, dict):
        return None
    return {str(key).strip().lower(): value for key, value in data.items()}


def _unfence(answer: str) -> str:
    """The text inside ```` ``` ```` fences (with an optional language tag), stripped."""
    text = answer.strip()
    if text.startswith("```") and text.endswith("```") and len(text) >= 6:
        text = text[3:-3]
        tag = re.match(r"json\b|[A-Za-z]*(?=\r?\n)", text, _I)
        text = text[tag.end() if tag else 0:]
    return text.strip()


def _scalar_text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value)


def _pick(kind: str, answer: str, field: str | None) -> tuple[Any, str | None]:
    """The value to match: the answer text, or the chosen value of a structured answer."""
    data = parse_structured(answer)
    if data is None:
        return answer, None
    key = field.strip().lower() if field else None
    if key is not None and key in data:
        value = data[key]
    elif len(data) == 1:
        value = next(iter(data.values()))
    else:
        return None, f"structured answer needs the field {(field or kind)!r}"
    if value is None or isinstance(value, dict):
        return None, "structured answer has no usable value"
    if isinstance(value, list):
        if kind not in ("list", "set"):
            return None, f"structured answer gives a list, expected one {kind}"
        if any(isinstance(v, (list, dict)) for v in value):
            return None, "structured list has nested values"
        return [_scalar_text(v) for v in value], None
    return _scalar_text(value), None


# ---------------------------------------------------------------- shared helpers


@dataclass(frozen=True)
class _Found:
    """A value found in the answer (None: written like one but not valid) and where."""

    value: Any
    start: int
    end: int
    text: str


def _longest_first(found: list[_Found]) -> list[_Found]:
    """Non-overlapping finds, preferring the earliest and then the longest."""
    out: list[_Found] = []
    for item in sorted(found, key=lambda f: (f.start, -(f.end - f.start))):
        if not out or item.start >= out[-1].end:
            out.append(item)
    return out


_BARE_NUMBER = re.compile(r"(?<![A-Za-z\d.,:])\d+(?:[.,:]\d+)*(?:st|nd|rd|th)?(?![A-Za-z\d])")
_DISJUNCTION = re.compile(
    r"\b(?:or|and|to|maybe|perhaps|possibly|either|versus|vs)\b|[/&|;+\-–—]", _I)
_NEGATION = NEGATION


def _inside(spans: list[_Found], starts: list[int], start: int, end: int) -> bool:
    """Whether ``[start, end)`` overlaps one of ``spans`` (sorted, not overlapping; ``starts``
    their starts)."""
    i = bisect_right(starts, start)
    return bool(i and spans[i - 1].end > start) or (i < len(spans) and spans[i].start < end)


def _competing_number(text: str, found: list[_Found], rival: Callable[[str], bool] | None,
                      context: list[_Found]) -> str | None:
    """A bare number joined to a found value by a disjunction ("7 or 8 pm", "March 5-6"), or
    by a comma when ``rival`` says it could be a value of the kind ("March 5, 6"). Numbers
    inside ``context`` (values of other kinds: the date next to a time) do not compete."""
    starts, ends = [f.start for f in found], [f.end for f in found]
    context_starts = [f.start for f in context]
    for m in _BARE_NUMBER.finditer(text):
        if _inside(found, starts, m.start(), m.end()) \
                or _inside(context, context_starts, m.start(), m.end()):
            continue
        i = bisect_right(starts, m.start())
        gaps = []
        if i and m.start() - ends[i - 1] <= 24:
            gaps.append(text[ends[i - 1]:m.start()])
        if i < len(found) and starts[i] - m.end() <= 24:
            gaps.append(text[m.end():starts[i]])
        for gap in gaps:
            if re.search(r"[\d\n]", gap):
                continue
            if _DISJUNCTION.search(gap) or ("," in gap and rival and rival(m.group())):
                return m.group()
    return None


def _negated(text: str, found: list[_Found]) -> bool:
    """Whether a negation shares a clause with a found value ("not 07:30", "isn't 3")."""
    return negated(text, [(f.start, f.end) for f in found])


def _small_int(low: int, high: int) -> Callable[[str], bool]:
    """A rival test: a plain integer (ordinal suffix allowed) in ``[low, high]``."""
    def test(text: str) -> bool:
        plain = re.fullmatch(r"(\d+)(?:st|nd|rd|th)?", text)
        return bool(plain) and low <= int(plain.group(1)) <= high if plain else False
    return test


def _judge(label: str, expected_text: str, text: str, found: list[_Found],
           same: Callable[[Any], bool], rival: Callable[[str], bool] | None = None,
           context: list[_Found] | None = None) -> _Result:
    """Accept iff values were found, all equal the expected one, and none is contested."""
    if not found:
        return False, f"no {label} found in the answer"
    if any(f.value is None or not same(f.value) for f in found):
        if len(found) == 1:
            return False, f"answer gives {label} {found[0].text!r}, expected {expected_text}"
        shown = ", ".join(repr(f.text) for f in found)
        return False, f"answer gives {len(found)} {label} values ({shown}), expected only " \
            f"{expected_text}"
    other = _competing_number(text, found, rival, context or [])
    if other is not None:
        return False, f"answer also offers {other!r} next to the {label}"
    if _negated(text, found):
        return False, f"answer negates the {label}"
    second = second_claim(text, [(f.start, f.end) for f in found],
                          [(f.start, f.end) for f in context or []])
    if second is not None:
        return False, f"answer also claims {second[:60]!r}"
    return True, f"{label} {found[0].text!r} is correct"


def _norm(text: str) -> str:
    """Lower case, single spaces, no surrounding quotes, emphasis or punctuation."""
    return re.sub(r"\s+", " ", text).strip(_STRIP).lower()


def _lead_splits(text: str) -> Iterator[tuple[str, str]]:
    """``(lead-in, rest)`` splits of the answer, the empty lead-in first; a lead-in never
    holds a claim of its own (``claims``: "The answer is WRONG. The answer is")."""
    yield "", text
    for m in LEAD_END.finditer(text):
        lead = text[:m.end()]
        if m.end() > 200 or len(WORD.findall(lead)) > 8 or LEAD_BAD.search(lead) \
                or _NEGATION.search(lead) or claims_before(lead):
            return  # a longer lead-in contains this one
        yield lead, text[m.end():]


_RESTATE_CUT = re.compile(r"[,;.!?\n(]|\s[-–—]\s")


def _whole_answer(label: str, expected: str, text: str, same: Callable[[str], bool]) -> _Result:
    """The answer is a lead-in and the value, maybe said again (``claims.restates``)."""
    for lead, rest in _lead_splits(text):
        after = f" (after the lead-in {lead!r})" if lead else ""
        if same(rest):
            return True, f"{label} is correct{after}"
        longest = 2 * len(expected) + 16  # what a value and its spacing can span
        for cut in _RESTATE_CUT.finditer(rest, 0, longest):
            if same(rest[:cut.start()]) and restates(rest[cut.start():], same, longest):
                return True, f"{label} is correct{after}, and said again"
    return False, f"answer {text[:80]!r} is not the {label} {expected!r}"


# ---------------------------------------------------------------- numbers

_SMALL = {w: i for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen".split())}
_TENS = {w: 10 * i for i, w in enumerate(
    "twenty thirty forty fifty sixty seventy eighty ninety".split(), start=2)}
_NUMBER_WORDS = {*_SMALL, *_TENS, "hundred", "none"}
_DIGIT_NUMBER = re.compile(
    r"(?P<sign>(?<![\w.,+\-−])[-+−])?(?<![\w.,])(?P<int>\d{1,3}(?:,\d{3})+|\d+)"
    r"(?:\.(?P<frac>\d+))?(?!\w|[.,]\d)")


def _below_hundred(words: list[str], i: int) -> tuple[int, int] | None:
    """A value under 100 at ``words[i]`` ("seven", "twenty-one"), and the next index."""
    if i >= len(words):
        return None
    word = words[i]
    if word in _TENS:
        value = _TENS[word]
        if i + 1 < len(words) and 1 <= _SMALL.get(words[i + 1], 0) <= 9:
            return value + _SMALL[words[i + 1]], i + 2
        return value, i + 1
    if word in _SMALL and word != "zero":
        return _SMALL[word], i + 1
    return None


def _parse_words(words: list[str]) -> list[tuple[int, int, int]]:
    """``(value, first, end)`` of the numbers in a run of number words (and "and")."""
    out: list[tuple[int, int, int]] = []
    i = 0
    while i < len(words):
        word, first = words[i], i
        if word in ("zero", "none"):
            out.append((0, first, i + 1))
            i += 1
            continue
        if word == "and":
            i += 1
            continue
        part = _below_hundred(words, i)
        value, i = (part if part else (1, i))
        if i < len(words) and words[i] == "hundred" and (part is None or value < 10):
            value *= 100
            i += 1
            j = i + 1 if i < len(words) and words[i] == "and" else i
            tail = _below_hundred(words, j)
            if tail:
                value, i = value + tail[0], tail[1]
        elif part is None:
            i += 1
            continue
        out.append((value, first, i))
    return out


def _word_numbers(text: str) -> list[_Found]:
    """Numbers written in words: "three", "twenty-one", "one hundred and five"."""
    tokens = [m for m in re.finditer(r"[A-Za-z]+", text)
              if m.group().lower() in _NUMBER_WORDS or m.group().lower() == "and"]
    runs: list[list[re.Match[str]]] = []
    for m in tokens:
        if runs and re.fullmatch(r"[ \t\-]+", text[runs[-1][-1].end():m.start()]):
            runs[-1].append(m)
        else:
            runs.append([m])
    out: list[_Found] = []
    for run in runs:
        words = [m.group().lower() for m in run]
        for value, first, end in _parse_words(words):
            start, stop = run[first].start(), run[end - 1].end()
            out.append(_Found(float(value), start, stop, text[start:stop]))
    return out


def _numbers(text: str) -> list[_Found]:
    out = _word_numbers(text)
    for m in _DIGIT_NUMBER.finditer(text):
        value = float(m.group("int").replace(",", "") + "." + (m.group("frac") or "0"))
        if m.group("sign") in ("-", "−"):
            value = -value
        out.append(_Found(value, m.start(), m.end(), m.group()))
    return sorted(out, key=lambda f: f.start)


def _to_number(expected: Any) -> float:
    if isinstance(expected, numbers.Real) and not isinstance(expected, bool):
        return float(expected)
    if isinstance(expected, str):
        return float(expected.replace(",", "").strip())
    raise TypeError(f"expected a number, got {expected!r}")


def _fmt_number(value: float) -> str:
    if value == int(value) and abs(value) < 1e15:
        return str(int(value))
    text = repr(float(value))
    return text if "e" not in text else f"{value:.12f}".rstrip("0").rstrip(".")


def _rule_number(expected: Any, text: str) -> _Result:
    target = _to_number(expected)
    return _judge("number", _fmt_number(target), text, _numbers(text),
                  lambda v: abs(v - target) < 1e-9)


def _to_count(expected: Any) -> int:
    value = _to_number(expected)
    if value < 0 or value != int(value):
        raise ValueError(f"a count is a non-negative integer, got {expected!r}")
    return int(value)


def _rule_count(expected: Any, text: str) -> _Result:
    target = _to_count(expected)
    return _judge("count", str(target), text, _numbers(text), lambda v: v == target)


# ---------------------------------------------------------------- phone numbers

_PHONE_RUN = re.compile(r"(?<![A-Za-z0-9_+])\+?\d(?:[\d \t()\-]|\.(?=\d))*")  # after 是 too


@dataclass(frozen=True)
class _Phone:
    digits: str
    country: str | None  # a country code written as "+CC " (or NANP's leading 1)

    @property
    def national(self) -> str:
        rest = self.digits[len(self.country or ""):]
        return rest[1:] if rest.startswith("0") else rest


def _phone(raw: str) -> _Phone:
    found = re.sub(r"\D", "", raw)
    code = re.match(r"\s*\+(\d{1,3})[^\d]", raw)
    if code and len(found) - len(code.group(1)) >= 6:
        return _Phone(found, code.group(1))
    if len(found) == 11 and found.startswith("1"):
        return _Phone(found, "1")
    if len(found) == 13 and found.startswith("861") and raw.lstrip().startswith("+"):
        return _Phone(found, "86")  # a Chinese mobile as E.164: +8613800138000
    return _Phone(found, None)


def _same_phone(a: _Phone, b: _Phone) -> bool:
    if a.digits == b.digits:
        return True
    if a.country and b.country:
        if {a.country, b.country} == {"86", "1"}:  # a Chinese mobile without its +86 reads
            china, bare = (a, b) if a.country == "86" else (b, a)  # as NANP's 1 + ten digits
            return bare.digits == china.national
        return a.country == b.country and a.national == b.national
    if not (a.country or b.country):
        return False
    coded, plain = (a, b) if a.country else (b, a)
    local = plain.digits[1:] if plain.digits.startswith("0") else plain.digits
    return len(local) >= 6 and coded.national == local


def _phones(text: str) -> list[_Found]:
    out = []
    for m in _PHONE_RUN.finditer(text):
        raw = m.group().rstrip(" \t()-.")
        if sum(ch.isdigit() for ch in raw) >= 5:
            out.append(_Found(_phone(raw), m.start(), m.start() + len(raw), raw))
    return out


def _rule_phone(expected: Any, text: str) -> _Result:
    target = _phone(str(expected))
    if len(target.digits) < 5:
        raise ValueError(f"expected a phone number, got {expected!r}")
    return _judge("phone number", repr(str(expected)), text, _phones(text),
                  lambda v: _same_phone(v, target), lambda t: sum(c.isdigit() for c in t) >= 3)


# ---------------------------------------------------------------- times of day

_AMPM = r"(?P<ap>[ap])\.?\s?m(?![a-z])\.?"
_DAYPART = r"\s+in\s+the\s+(?P<part>morning|afternoon|evening)"
_TIME_HM = re.compile(
    r"(?<![\w.:])(?P<h>\d{1,2})[:.h](?P<m>\d{2})(?::(?P<s>\d{2}))?(?![\d:])"
    rf"(?:\s*{_AMPM}|{_DAYPART})?", _I)
_TIME_H = re.compile(
    rf"(?<![\w.:])(?P<h>\d{{1,2}})\s*(?:{_AMPM}|o['’]clock(?:{_DAYPART})?)", _I)
_TIME_WORD = re.compile(r"\b(?:noon|midday|midnight)\b", _I)


def _clock(h: int, m: int, s: int, ap: str | None, part: str | None) -> tuple[int, int] | None:
    if m > 59 or s > 59:
        return None
    if ap:
        if not 1 <= h <= 12:
            return None
        h = h % 12 + (12 if ap.lower() == "p" else 0)
    elif part and part.lower() in ("afternoon", "evening") and 1 <= h <= 11:
        h += 12
    return None if h > 23 or s else (h, m)


def _times(text: str) -> list[_Found]:
    found = []
    for regex in (_TIME_HM, _TIME_H):
        for m in regex.finditer(text):
            groups = m.groupdict()
            value = _clock(int(groups["h"]), int(groups.get("m") or 0),
                           int(groups.get("s") or 0), groups.get("ap"), groups.get("part"))
            found.append(_Found(value, m.start(), m.end(), m.group().strip()))
    for m in _TIME_WORD.finditer(text):
        value = (0, 0) if m.group().lower() == "midnight" else (12, 0)
        found.append(_Found(value, m.start(), m.end(), m.group()))
    return _longest_first(found)


def _to_time(expected: Any) -> tuple[int, int]:
    if isinstance(expected, dt.time):
        return expected.hour, expected.minute
    if isinstance(expected, (tuple, list)) and len(expected) == 2:
        h, m = int(expected[0]), int(expected[1])
        if 0 <= h <= 23 and 0 <= m <= 59:
            return h, m
    if isinstance(expected, str):
        values = {f.value for f in _times(expected)}
        if len(values) == 1 and None not in values:
            return values.pop()
    raise ValueError(f"expected a time of day as 'HH:MM' or (hour, minute), got {expected!r}")


def _rule_time(expected: Any, text: str) -> _Result:
    target = _to_time(expected)
    return _judge("time", "{:02d}:{:02d}".format(*target), text, _times(text),
                  lambda v: v == target, _small_int(0, 24), _dates(text, 2000))


# ---------------------------------------------------------------- dates

_MONTHS = {name: i for i, name in enumerate(
    "january february march april may june july august september october november december"
    .split(), start=1)}
_MONTHS.update({name[:3]: i for name, i in list(_MONTHS.items())})
_MONTHS["sept"] = 9
_MONTH = "(?:" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + ")"
_DAYS = "monday tuesday wednesday thursday friday saturday sunday".split()
_WEEKDAY = r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday" \
    r"|mon|tues|tue|wed|thurs|thur|thu|fri|sat|sun)"
_WD = rf"(?:\b(?P<wd>{_WEEKDAY})\.?,?\s+)?"
_DATES = (
    re.compile(_WD + r"(?<![\d/.\-])(?P<y>\d{4})(?P<sep>[-/])(?P<mo>\d{1,2})(?P=sep)"
               r"(?P<d>\d{1,2})(?!\d)", _I),
    re.compile(_WD + r"(?<![\d/.\-])(?P<mo>\d{1,2})/(?P<d>\d{1,2})/(?P<y>\d{4}|\d{2})(?![\d/])",
               _I),
    re.compile(_WD + rf"\b(?P<mon>{_MONTH})\b\.?\s+(?P<d>\d{{1,2}})(?:st|nd|rd|th)?(?!\d)"
               r"(?:,?\s+(?P<y>\d{4})(?!\d))?", _I),
    re.compile(_WD + r"(?<![\d.:/])(?P<d>\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?"
               rf"(?P<mon>{_MONTH})\b\.?(?:,?\s+(?P<y>\d{{4}})(?!\d))?", _I),
)
_FULL_WEEKDAY = re.compile(r"\b(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b",
                           _I)


def _dates(text: str, year: int) -> list[_Found]:
    found = []
    for regex in _DATES:
        for m in regex.finditer(text):
            g = m.groupdict()
            month = _MONTHS[g["mon"].lower()] if g.get("mon") else int(g["mo"])
            y = g.get("y")
            full_year = year if y is None else int(y) + (2000 if len(y) == 2 else 0)
            try:
                value: dt.date | None = dt.date(full_year, month, int(g["d"]))
            except ValueError:
                value = None
            if value and g.get("wd") and _DAYS[value.weekday()][:3] != g["wd"][:3].lower():
                value = None
            found.append(_Found(value, m.start(), m.end(), m.group()))
    return _longest_first(found)


def _to_date(expected: Any) -> dt.date:
    if isinstance(expected, dt.datetime):
        return expected.date()
    if isinstance(expected, dt.date):
        return expected
    if isinstance(expected, str):
        return dt.date.fromisoformat(expected.strip()[:10])
    raise TypeError(f"expected a date or an ISO date string, got {expected!r}")


def _rule_date(expected: Any, text: str) -> _Result:
    target = _to_date(expected)
    ok, reason = _judge("date", target.isoformat(), text, _dates(text, target.year),
                        lambda v: v == target,
                        lambda t: _small_int(1, 31)(t) or _small_int(1900, 2199)(t),
                        _times(text))
    if ok:
        for m in _FULL_WEEKDAY.finditer(text):
            if m.group().lower() != _DAYS[target.weekday()]:
                return False, f"answer names {m.group()!r}, but {target} is a " \
                    f"{_DAYS[target.weekday()].capitalize()}"
    return ok, reason


# ---------------------------------------------------------------- durations

_UNIT_SECONDS = {"d": 86400, "h": 3600, "m": 60, "s": 1}
_SHORT_UNIT = re.compile(
    r"\s*(?P<u>days?|d|hours?|hrs?|h|minutes?|mins?|m|seconds?|secs?|s)(?![a-z])", _I)
_LONG_UNIT = re.compile(r"\s+(?P<u>days?|hours?|hrs?|minutes?|mins?|seconds?|secs?)(?![a-z])",
                        _I)
_DURATION_NUMBER = re.compile(r"(?<![\d.:,])(?:(?<=[hmdHMD])|(?<![A-Za-z]))\d+(?:\.\d+)?")
_ARTICLE = re.compile(r"\b(?:half\s+an?|an?)\b", _I)
_CLOCK_DURATION = re.compile(
    r"(?<![\d.:])(?P<a>\d{1,3}):(?P<b>[0-5]\d)(?::(?P<c>[0-5]\d))?(?![\d:])"
    r"(?:\s*(?P<u>hours?|hrs?|h|minutes?|mins?|m)(?![a-z]))?", _I)
_H_MM = re.compile(
    r"(?<![\d.:])(?P<h>\d+)\s?h\s?(?P<m>[0-5]\d)(?![\d:.])"
    r"(?!\s*(?:m|mins?|minutes?|s|secs?|seconds?)(?![a-z]))", _I)
_AND_A_HALF = re.compile(r"\s+and\s+a\s+half\b", _I)
_JOIN = re.compile(r"\s*(?:,\s*)?(?:and\s+)?", _I)


def _duration_parts(text: str, taken: list[_Found]) -> list[tuple[float, str, int, int]]:
    """``(seconds, unit, start, end)`` of each "number unit" part outside ``taken``."""
    numbers_: list[tuple[float, int, int, bool]] = [
        (float(m.group()), m.start(), m.end(), True) for m in _DURATION_NUMBER.finditer(text)]
    numbers_ += [(f.value, f.start, f.end, False) for f in _word_numbers(text)]
    for m in _ARTICLE.finditer(text):
        numbers_.append((0.5 if m.group().lower().startswith("half") else 1.0,
                         m.start(), m.end(), False))
    parts = []
    for value, start, end, short in numbers_:
        half = _AND_A_HALF.match(text, end)
        if half:
            value, end, short = value + 0.5, half.end(), False
        unit = (_SHORT_UNIT if short else _LONG_UNIT).match(text, end)
        if unit is None or any(f.start < unit.end() and start < f.end for f in taken):
            continue
        stop = unit.end()
        half = None if value != int(value) else _AND_A_HALF.match(text, stop)
        if half:
            value, stop = value + 0.5, half.end()
        key = unit.group("u")[0].lower()
        parts.append((value * _UNIT_SECONDS[key], key, start, stop))
    return sorted(parts, key=lambda p: p[2])


def _durations(text: str) -> list[_Found]:
    found: list[_Found] = []
    for m in _CLOCK_DURATION.finditer(text):
        a, b, c = int(m.group("a")), int(m.group("b")), int(m.group("c") or 0)
        in_minutes = (m.group("u") or "h")[0].lower() == "m" and m.group("c") is None
        seconds = a * 60 + b if in_minutes else a * 3600 + b * 60 + c
        found.append(_Found(float(seconds), m.start(), m.end(), m.group()))
    for m in _H_MM.finditer(text):
        seconds = int(m.group("h")) * 3600 + int(m.group("m")) * 60
        found.append(_Found(float(seconds), m.start(), m.end(), m.group()))
    found = _longest_first(found)
    group: list[tuple[float, str, int, int]] = []
    for part in _duration_parts(text, found) + [(0.0, "", len(text) + 1, len(text) + 1)]:
        if group:
            last = group[-1]
            joined = _JOIN.fullmatch(text[last[3]:part[2]]) is not None
            if part[1] and joined and "dhms".index(part[1]) > "dhms".index(last[1]):
                group.append(part)
                continue
            start, end = group[0][2], group[-1][3]
            found.append(_Found(sum(p[0] for p in group), start, end, text[start:end]))
        group = [part]
    return _longest_first(found)


def _to_seconds(expected: Any) -> float:
    if isinstance(expected, dt.timedelta):
        return expected.total_seconds()
    if isinstance(expected, numbers.Real) and not isinstance(expected, bool) \
            and float(expected) >= 0:
        return float(expected)
    raise TypeError(f"expected a duration in seconds, got {expected!r}")


def _rule_duration(expected: Any, text: str) -> _Result:
    target = _to_seconds(expected)
    return _judge("duration", f"{_fmt_number(target)} s", text, _durations(text),
                  lambda v: abs(v - target) < 1e-6, lambda t: bool(re.fullmatch(r"[\d.]+", t)),
                  _longest_first(_times(text) + _dates(text, 2000)))


# ---------------------------------------------------------------- money

_SYMBOLS = {"$": "USD", "€": "EUR", "£": "GBP", "¥": "¥"}  # ¥: yuan (CNY) or yen (JPY)
_CODES = ("USD", "EUR", "GBP", "JPY", "CAD", "AUD", "CHF", "CNY", "INR", "MXN")
_WORDS = {"dollar": "USD", "buck": "USD", "euro": "EUR", "pound": "GBP", "yen": "JPY"}
_CODE = "|".join(_CODES)
_MONEY = re.compile(
    rf"(?P<sign>(?<![\w.,\-])- ?)?(?:(?P<pre>[$€£¥]|\b(?:{_CODE})\b) ?)?(?<![A-Za-z0-9_.,])"
    r"(?P<amt>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+,\d{2}(?![\d,.])|\d+(?:\.\d+)?)"
    r"(?!(?!元|块)\w|[.,]\d)"  # zh-CN writes "12.50元" / "12块": the unit right after
    rf"(?: ?(?P<post>[$€£¥]|元|块钱?|(?:{_CODE}|dollars?|bucks?|euros?|pounds?|yen|cents?)\b))?",
    _I)


def _currency(token: str | None) -> str | None:
    if not token:
        return None
    token = token.lower()
    if token in _SYMBOLS:
        return _SYMBOLS[token]
    return _WORDS.get(token.rstrip("s"), token.upper() if token.upper() in _CODES else None)


def _amounts(text: str) -> list[_Found]:
    out = []
    for m in _MONEY.finditer(text):
        raw = m.group("amt")
        amount = float(raw.replace(",", ".") if re.fullmatch(r"\d+,\d{2}", raw)
                       else raw.replace(",", ""))
        post = m.group("post") or ""
        if post.lower().startswith("cent"):
            amount /= 100
        if m.group("sign"):
            amount = -amount
        currency = _currency(m.group("pre")) or _currency(post)
        out.append(_Found((amount, currency), m.start(), m.end(), m.group().strip()))
    return out


def _to_money(expected: Any) -> tuple[float, str | None]:
    if isinstance(expected, (tuple, list)) and len(expected) == 2:
        return _to_number(expected[0]), str(expected[1]).upper() if expected[1] else None
    return _to_number(expected), None


def _rule_money(expected: Any, text: str) -> _Result:
    amount, currency = _to_money(expected)

    def same(value: tuple[float, str | None]) -> bool:
        if currency and value[1] and value[1] != currency \
                and not (value[1] == "¥" and currency in ("CNY", "JPY")):
            return False
        return round(value[0] * 100) == round(amount * 100)

    shown = f"{amount:.2f}" + (f" {currency}" if currency else "")
    return _judge("amount", shown, text, _amounts(text), same)


# ---------------------------------------------------------------- yes / no

_YES = re.compile(r"\b(?:yes|yeah|yep|true|correct|affirmative)\b", _I)
_NO = re.compile(r"\b(?:no|nope|false|incorrect|not|cannot)\b|n['’]t\b", _I)
_NOT_YES = re.compile(r"(?:\bnot|n['’]t)\s+(?:true|correct)\b", _I)


def _to_bool(expected: Any) -> bool:
    if isinstance(expected, bool):
        return expected
    if isinstance(expected, str) and expected.strip().lower() in ("yes", "true", "no", "false"):
        return expected.strip().lower() in ("yes", "true")
    raise TypeError(f"expected a bool, got {expected!r}")


def _rule_yes_no(expected: Any, text: str) -> _Result:
    target = _to_bool(expected)
    text = _NOT_YES.sub(lambda m: " no".ljust(len(m.group())), text)
    said = [*_YES.finditer(text)], [*_NO.finditer(text)]
    yes, no = bool(said[0]), bool(said[1])
    if yes == no:
        return False, "answer says both yes and no" if yes else "answer says neither yes nor no"
    if yes != target:
        return False, f"answer says {'yes' if yes else 'no'}, expected {'yes' if target else 'no'}"
    second = second_claim(text, [m.span() for m in said[0] or said[1]])
    if second is not None:
        return False, f"answer also claims {second[:60]!r}"
    return True, f"answer says {'yes' if yes else 'no'}"


# ---------------------------------------------------------------- names and text


def _to_text(expected: Any) -> str:
    if not isinstance(expected, str) or not _norm(expected):
        raise TypeError(f"expected a non-empty string, got {expected!r}")
    return expected


#: A Chinese lead-in before a name: "答案是", "他叫", "名字是", "是" (no negation, no
#: alternative, no digits, no clause end in it).
_ZH_LEAD = re.compile(r"[^\d,，;；/\n、。.!?！？]{0,12}?(?:叫做|名叫|叫|名为|是|为)[:：]?\s*"
                      r"|[^\d,，;；/\n、。.!?！？]{0,12}?[:：]\s*")
_ZH_LEAD_BAD = re.compile(r"不|没|非|或|还是|和|与|及|跟|\b(?:or|and|not)\b", _I)


def _rule_name(expected: Any, text: str) -> _Result:
    target = zh_name_key(_norm(_to_text(expected)))

    def same(rest: str) -> bool:
        return zh_name_key(_norm(rest)) == target

    ok, reason = _whole_answer("name", expected, text, same)
    if ok or not CJK.search(text):
        return ok, reason
    for m in _ZH_LEAD.finditer(text.strip()):
        if m.start() == 0 and not _ZH_LEAD_BAD.search(m.group()) and same(text.strip()[m.end():]):
            return True, f"name is correct (after the lead-in {m.group()!r})"
    return ok, reason


def _text_tokens(text: str, loose_punct: bool) -> list[str]:
    tokens = re.findall(r"\w+|[^\w\s]", _norm(text))
    return [t for t in tokens if re.match(r"\w", t)] if loose_punct else tokens


def match_text(expected: str, answer: str, *, loose_punct: bool = False) -> _Result:
    """The ``text`` rule; ``loose_punct`` also ignores punctuation inside the text."""
    target = _text_tokens(_to_text(expected), loose_punct)
    return _whole_answer("text", expected, answer,
                         lambda rest: _text_tokens(rest, loose_punct) == target)


def _rule_text(expected: Any, text: str) -> _Result:
    return match_text(expected, text)


# ---------------------------------------------------------------- lists and sets

_BULLET = re.compile(r"^[ \t]*(?:[-*•+][ \t]+|\d{1,3}[.)][ \t]+)", re.M)
_ITEM_SEPARATOR = re.compile(r"(\s*(?:,\s*and\s+|[,;\n]|\s+and\s+)\s*)", _I)


def _to_items(expected: Any) -> list[str]:
    if isinstance(expected, (str, bytes)) or not isinstance(expected, Sequence) \
            and not isinstance(expected, (set, frozenset)):
        raise TypeError(f"expected a sequence of strings, got {expected!r}")
    items = [str(item) for item in expected]
    if not items or not all(_norm(item) for item in items):
        raise ValueError(f"expected non-empty items, got {expected!r}")
    return items


def _pieces(text: str) -> tuple[list[str], list[str]]:
    """The answer split on item separators: pieces and the separators between them."""
    parts = _ITEM_SEPARATOR.split(_BULLET.sub("", text))
    return parts[0::2], parts[1::2]


def _segments(pieces: list[str], seps: list[str], j: int,
              longest: int) -> Iterator[tuple[str, int]]:
    """Normalised runs of pieces from ``j`` (rejoined with their separators) and the end."""
    raw = pieces[j]
    for k in range(j, len(pieces)):
        if k > j:
            raw += seps[k - 1] + pieces[k]
        norm = _norm(raw)
        if len(norm) > longest:
            return
        yield norm, k + 1


def _parse_list(text: str, items: list[str]) -> bool:
    """Whether ``text`` lists exactly ``items`` in order (items may contain separators)."""
    want = [_norm(item) for item in items]
    pieces, seps = _pieces(text)
    states, seen = [(0, 0)], {(0, 0)}
    while states:
        j, i = states.pop()
        if j == len(pieces):
            if i == len(want):
                return True
            continue
        nexts = [(j + 1, i)] if not _norm(pieces[j]) else []
        if i < len(want):
            nexts += [(end, i + 1) for norm, end in _segments(pieces, seps, j, len(want[i]))
                      if norm == want[i]]
        for state in nexts:
            if state not in seen:
                seen.add(state)
                states.append(state)
    return False


def _parse_set(text: str, items: list[str]) -> bool:
    """Whether ``text`` lists exactly the set ``items`` (any order, repeats allowed)."""
    want = {_norm(item) for item in items}
    longest = max(len(w) for w in want)
    pieces, seps = _pieces(text)
    start: tuple[int, frozenset[str]] = (0, frozenset())
    states, seen = [start], {start}
    while states and len(seen) < 20000:
        j, got = states.pop()
        if j == len(pieces):
            if got == want:
                return True
            continue
        nexts = [(j + 1, got)] if not _norm(pieces[j]) else []
        nexts += [(end, got | {norm}) for norm, end in _segments(pieces, seps, j, longest)
                  if norm in want]
        for state in nexts:
            if state not in seen:
                seen.add(state)
                states.append(state)
    return False


def _json_list(text: str) -> list[str] | None:
    inner = _unfence(text)
    if not inner.startswith("[") or len(inner) > MAX_STRUCTURED_CHARS:
        return None
    try:
        data = json.loads(inner)
    except (ValueError, RecursionError):
        return None
    if not isinstance(data, list) or any(isinstance(v, (list, dict)) for v in data):
        return None
    return [_scalar_text(v) for v in data]


def _match_items(kind: str, expected: Any, value: Any,
                 parse: Callable[[str, list[str]], bool]) -> _Result:
    items = _to_items(expected)
    given = value if isinstance(value, list) else _json_list(value)
    if given is not None:
        got = [_norm(v) for v in given]
        want = [_norm(v) for v in items]
        ok = got == want if kind == "list" else set(got) == set(want)
        return ok, f"{kind} is correct" if ok else f"answer lists {given}, expected {items}"
    for lead, rest in _lead_splits(value):
        if parse(rest, items):
            return True, f"{kind} is correct" + (f" (after the lead-in {lead!r})" if lead else "")
    pieces = [p for p in (_norm(p) for p in _pieces(value)[0]) if p]
    return False, f"answer lists {pieces[:20]}, expected {items}"


def _rule_list(expected: Any, value: Any) -> _Result:
    return _match_items("list", expected, value, _parse_list)


def _rule_set(expected: Any, value: Any) -> _Result:
    return _match_items("set", expected, value, _parse_set)


# ---------------------------------------------------------------- the API

_RULES: dict[str, Callable[[Any, Any], _Result]] = {
    "number": _rule_number, "count": _rule_count, "phone": _rule_phone, "time": _rule_time,
    "date": _rule_date, "duration": _rule_duration, "money": _rule_money, "name": _rule_name,
    "yes_no": _rule_yes_no, "list": _rule_list, "set": _rule_set, "text": _rule_text,
}


def _check_kind(kind: str) -> Callable[[Any, Any], _Result]:
    rule = _RULES.get(kind)
    if rule is None:
        raise ValueError(f"unknown answer kind {kind!r}; accepted kinds: {', '.join(ANSWER_TYPES)}")
    return rule


def match_answer(kind: str, expected: Any, answer: str | None, *,
                 field: str | None = None, today: dt.date | None = None) -> tuple[bool, str]:
    """``(ok, reason)``: whether ``answer`` states exactly the ``expected`` value of ``kind``
    (``today``: the phone's date, to read a date's relative words, "明天", "下周一")."""
    rule = _check_kind(kind)
    if answer is None:
        return False, "no answer was given"
    if not isinstance(answer, str):
        answer = _scalar_text(answer)
    if len(answer) > MAX_ANSWER_CHARS:
        return False, f"answer is too long ({len(answer)} characters, at most {MAX_ANSWER_CHARS})"
    if not answer.strip():
        return False, "the answer is empty"
    value, error = _pick(kind, answer, field)
    if error is not None:
        return False, error
    if isinstance(value, str):
        value = zh_forms(kind, value, today)
    return rule(expected, value)


def answer_matcher(kind: str, expected: Any, field: str | None = None, *,
                   today: dt.date | str | None = None) -> Matcher:
    """A ``Matcher`` accepting what ``match_answer`` accepts (also on record field values);
    ``today`` (a date, or an ISO date or date-time: the phone's) reads relative dates."""
    _check_kind(kind)
    day = _to_date(today) if today is not None else None

    def test(value: Any) -> bool:
        text = None if value is None else value if isinstance(value, str) else _scalar_text(value)
        return match_answer(kind, expected, text, field=field, today=day)[0]

    return Matcher(test, f"{kind} answer {expected!r}")


# ---------------------------------------------------------------- variants and wrong answers


def _fmt(kind: str, value: Any) -> str:
    """The plain way of writing ``value`` as an answer of ``kind``."""
    if kind in ("number", "count"):
        return _fmt_number(_to_number(value))
    if kind == "time":
        return "{:02d}:{:02d}".format(*_to_time(value))
    if kind == "date":
        return _to_date(value).isoformat()
    if kind == "duration":
        return _say_duration(_to_seconds(value), long=True)
    if kind == "money":
        amount, currency = _to_money(value)
        return _say_money(amount, currency)
    if kind == "yes_no":
        return "Yes" if _to_bool(value) else "No"
    if kind in ("list", "set"):
        return ", ".join(_to_items(value)) if not isinstance(value, str) else value
    return str(value)


def _say_duration(seconds: float, long: bool) -> str:
    units = (("day", "d", 86400), ("hour", "h", 3600), ("minute", "min", 60),
             ("second", "s", 1))
    if seconds != int(seconds):
        return f"{_fmt_number(seconds)} seconds"
    rest, parts = int(seconds), []
    for word, short, size in units:
        count, rest = divmod(rest, size)
        if count:
            parts.append(f"{count} {word}{'s' if count != 1 else ''}" if long
                         else f"{count} {short}")
    return " ".join(parts) if parts else ("0 seconds" if long else "0 s")


def _say_money(amount: float, currency: str | None) -> str:
    text = f"{abs(amount):,.2f}"
    sign = "-" if amount < 0 else ""
    if currency in (None, "USD"):
        return f"{sign}${text}"
    return f"{sign}{text} {currency}"


def _key(field: str | None) -> str:
    return field or "answer"


def _structured(field: str | None, value: Any) -> str:
    return json.dumps({_key(field): value}, ensure_ascii=False)


def _shift_letter(text: str) -> str:
    """``text`` with its last letter (else digit) changed."""
    for i in range(len(text) - 1, -1, -1):
        ch = text[i]
        if ch.isalpha() and ch.isascii():
            base = ord("a") if ch.islower() else ord("A")
            return text[:i] + chr((ord(ch) - base + 1) % 26 + base) + text[i + 1:]
    for i in range(len(text) - 1, -1, -1):
        if text[i].isdigit():
            return text[:i] + str((int(text[i]) + 1) % 10) + text[i + 1:]
    return text + "x"


def _variants(kind: str, expected: Any, field: str | None) -> list[str]:
    if kind in ("number", "count"):
        value = _to_count(expected) if kind == "count" else _to_number(expected)
        s = _fmt_number(value)
        out = [s, f"The answer is {s}.", f"Answer: {s}", _structured(field, value)]
        if kind == "count":
            out += [f"{s} items", f"There are {s}."]
        if value == int(value) and 0 <= value <= 99:
            n = int(value)
            tens = [k for k, v in _TENS.items() if v == n - n % 10]
            small = [k for k, v in _SMALL.items() if v == (n if n < 20 else n % 10)]
            word = small[0] if n < 20 else tens[0] + (f"-{small[0]}" if n % 10 else "")
            out.append(word.capitalize() + ".")
        if abs(value) >= 1000:
            out.append(f"{value:,}".rstrip("0").rstrip(".") if value != int(value)
                       else f"{int(value):,}")
        return out
    if kind == "phone":
        raw = str(expected)
        d = re.sub(r"\D", "", raw)
        nanp = d[1:] if len(d) == 11 and d[0] == "1" else d if len(d) == 10 else None
        if nanp:
            a, b, c = nanp[:3], nanp[3:6], nanp[6:]
            return [nanp, f"({a}) {b}-{c}", f"+1 {a} {b} {c}", f"1-{a}-{b}-{c}",
                    f"The number is {a}-{b}-{c}.", _structured(field, f"{a}-{b}-{c}")]
        return [raw, d, f"The number is {raw}.", _structured(field, raw),
                " ".join(d[i:i + 3] for i in range(0, len(d), 3))]
    if kind == "time":
        h, m = _to_time(expected)
        h12, ap = (h % 12 or 12), ("am" if h < 12 else "pm")
        out = [f"{h:02d}:{m:02d}", f"{h}:{m:02d}", f"{h12}:{m:02d} {ap}",
               f"{h12}:{m:02d}{ap.upper()}", f"{h12}:{m:02d} {ap[0]}.m.", f"It's {h:02d}:{m:02d}.",
               f"{h}h{m:02d}", _structured(field, f"{h:02d}:{m:02d}")]
        if m == 0:
            out.append(f"{h12} {ap}")
        if (h, m) in ((12, 0), (0, 0)):
            out.append("noon" if h == 12 else "midnight")
        return out
    if kind == "date":
        d8 = _to_date(expected)
        month = d8.strftime("%B")
        wd = _DAYS[d8.weekday()].capitalize()
        return [d8.isoformat(), f"{month} {d8.day}, {d8.year}", f"{d8.day} {month} {d8.year}",
                f"{wd}, {month} {d8.day}, {d8.year}", f"{d8.month:02d}/{d8.day:02d}/{d8.year}",
                f"{month[:3]} {d8.day}", f"The date is {month} {d8.day}, {d8.year}.",
                _structured(field, d8.isoformat())]
    if kind == "duration":
        seconds = _to_seconds(expected)
        long, short = _say_duration(seconds, True), _say_duration(seconds, False)
        out = [long, short, f"It takes {long}.", _structured(field, long)]
        if seconds == int(seconds):
            out.append(f"{int(seconds)} seconds")
            if seconds % 60 == 0:
                minutes = int(seconds // 60)
                out += [f"{minutes} minutes", f"{minutes // 60}:{minutes % 60:02d}"]
            if (seconds * 1000 / 3600) == int(seconds * 1000 / 3600) and seconds >= 3600:
                out.append(f"{_fmt_number(seconds / 3600)} hours")
        return out
    if kind == "money":
        amount, currency = _to_money(expected)
        plain = f"{amount:.2f}"
        out = [plain, _say_money(amount, currency), f"The total is {_say_money(amount, currency)}.",
               _structured(field, amount)]
        code = currency or "EUR"
        out += [f"{plain} {code}", f"{currency or 'USD'} {plain}"]
        if currency in (None, "USD"):
            out += [f"{_fmt_number(amount)} dollars"]
        if currency in (None, "EUR") and 0 <= amount < 1000:
            out.append("€" + plain.replace(".", ","))
        return out
    if kind == "yes_no":
        if _to_bool(expected):
            return ["Yes", "yes.", "Yes, it is.", "Correct", "true", _structured(field, True)]
        return ["No", "no.", "No, it is not.", "Nope", "false", "Incorrect",
                _structured(field, False)]
    if kind in ("name", "text"):
        text = _to_text(expected)
        label = "name" if kind == "name" else "answer"
        return [text, text.lower(), f"The {label} is {text}.", f'It is called "{text}".',
                f"{label.capitalize()}: {text}", f"`{text}`", _structured(field, text)]
    items = _to_items(expected)
    out = [", ".join(items), "; ".join(items), "\n".join(f"- {i}" for i in items),
           "\n".join(f"{n}. {i}" for n, i in enumerate(items, 1)),
           f"The items are: {', '.join(items)}", _structured(field, items),
           json.dumps(items, ensure_ascii=False)]
    if len(items) >= 2:
        out.append(", ".join(items[:-1]) + " and " + items[-1])
        out.append(f"The items are {', '.join(items[:-1])} and {items[-1]}.")
    if len(items) >= 3:
        out.append(", ".join(items[:-1]) + ", and " + items[-1])
    if kind == "set":
        out += [", ".join(reversed(items)), ", ".join([items[0], *items])]
    return out


def answer_variants(kind: str, expected: Any, field: str | None = None) -> list[str]:
    """Correct answers in the usual formats, distinct, all accepted by ``match_answer``."""
    _check_kind(kind)
    return [v for v in dict.fromkeys(_variants(kind, expected, field))
            if match_answer(kind, expected, v, field=field)[0]]


def _near(kind: str, expected: Any) -> list[Any]:
    """Values one step off the expected one."""
    if kind in ("number", "count"):
        value = _to_number(expected)
        out: list[Any] = [value + 1, value - 1 if value >= 1 or kind == "number" else value + 2]
        if value != int(value):
            out.append(round(value + 0.1, 10))
        return out
    if kind == "phone":
        raw = str(expected)
        d = re.sub(r"\D", "", raw)
        return [_shift_letter(raw), d[:-1], d + "9", d[:-2] + d[-1] + d[-2]]
    if kind == "time":
        h, m = _to_time(expected)
        return [(h, (m + 1) % 60), ((h + 1) % 24, m), ((h + 12) % 24, m)]
    if kind == "date":
        d8 = _to_date(expected)
        return [d8 + dt.timedelta(days=1), d8 - dt.timedelta(days=1),
                d8.replace(year=d8.year + 1) if not (d8.month == 2 and d8.day == 29)
                else d8 + dt.timedelta(days=365)]
    if kind == "duration":
        seconds = _to_seconds(expected)
        return [seconds + 60, seconds * 2 or 60, seconds + 3600]
    if kind == "money":
        amount, currency = _to_money(expected)
        return [(amount + 0.01, currency), (amount * 10 or 1.0, currency),
                (amount + 1, currency)]
    if kind == "yes_no":
        return [not _to_bool(expected)]
    if kind in ("name", "text"):
        text = _to_text(expected)
        out = [_shift_letter(text), text + "s"]
        if " " in text.strip():
            out.append(text.split()[0])
        elif len(text) > 1:
            out.append(text[:-1])
        return out
    items = _to_items(expected)
    changed = [*items[:-1], _shift_letter(items[-1])]
    out = [changed, [*items, "something else"]]
    if len(items) > 1:
        out.append(items[:-1])
        if kind == "list" and _norm(items[0]) != _norm(items[1]):
            out.append([items[1], items[0], *items[2:]])
    if kind == "list":
        out.append([items[0], *items])
    return out


def _structured_value(kind: str, value: Any) -> Any:
    if kind in ("number", "count"):
        return _to_number(value)
    if kind == "yes_no":
        return value
    if kind in ("list", "set"):
        return list(value)
    return _fmt(kind, value)


def wrong_answers(kind: str, expected: Any, candidates: Sequence[Any] = (),
                  field: str | None = None) -> list[str]:
    """Answers that must be rejected: near values, extra claims, candidate dumps, negations,
    an empty answer, a structured answer with a wrong value."""
    _check_kind(kind)
    right = _fmt(kind, expected)
    near = _near(kind, expected)
    near_text = [_fmt(kind, v) for v in near]
    out = ["", *near_text, _structured(field, _structured_value(kind, near[0]))]
    if kind == "yes_no":
        out += ["Yes and no", "Maybe", "Yes / No", "No, yes."]
    elif kind in ("list", "set"):
        items = _to_items(expected)
        extras = [str(c) for c in candidates if _norm(str(c)) not in {_norm(i) for i in items}]
        for extra in extras[:3]:
            out.append(", ".join([*items, extra]))
        if extras:
            everything = [*items, *extras]
            out += [", ".join(everything), " / ".join(everything), "\n".join(everything)]
    else:
        other = near_text[0]
        out += [f"{right} or {other}", f"{right}, maybe {other}", f"{other} / {right}",
                f"Not {right}", f"{other} is wrong, the answer is {right}"]
        if kind == "count":
            out.append(f"{right} open, {_fmt_number(_to_count(expected) + 1)} done")
        if kind == "date":
            d8 = _to_date(expected)
            wrong_day = _DAYS[(d8.weekday() + 1) % 7].capitalize()
            out += [f"{wrong_day}, {d8.strftime('%B')} {d8.day}, {d8.year}",
                    f"{d8.strftime('%B')} {d8.day} or {(d8.day % 28) + 1}"]
            if d8.day <= 12 and d8.day != d8.month:
                out.append(f"{d8.day:02d}/{d8.month:02d}/{d8.year}")
        if kind == "duration":
            out.append(_fmt_number(_to_seconds(expected)))
        if kind == "money" and _to_money(expected)[1] not in (None, "USD"):
            out.append(f"{_to_money(expected)[0]:.2f} USD")
        if kind == "phone":
            digits_ = re.sub(r"\D", "", str(expected))
            out.append(digits_ + "7")
        shown = [_fmt(kind, c) for c in candidates]
        if shown:
            if not any(match_answer(kind, expected, s)[0] for s in shown):
                shown.insert(min(1, len(shown)), right)
            out += [", ".join(shown), " / ".join(shown), "\n".join(shown)]
    return [w for w in dict.fromkeys(out)
            if not match_answer(kind, expected, w, field=field)[0]]

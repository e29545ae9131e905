"""Where a free text names a value: whole tokens and numbers, and negation.

A message, note or post "names" a value when the value's text occurs in it (case and runs of
spaces aside) as whole tokens: the characters around it are not letters or digits of the
same word, and a number is not part of a longer one (train "EC 107" is not named by
"EC 1077", room "12" not by "120" nor "12.5"). Scripts without spaces between words (Chinese)
have no word boundary: their characters never block a mention.

A mention is negated when a negation ("not", "n't", "never", "no longer"...) shares its
clause ("not EC 107", "it isn't Room 12"; clauses end at ``; : ! ?``, a line break, ``.`` or
``,`` before a space, and "but").
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence

#: A letter or digit that belongs to a space-separated word (Latin scripts, digits).
_WORD_CHAR = re.compile(r"[0-9a-z\u00c0-\u024f]")
NEGATION = re.compile(r"\b(?:not|never|nor|neither|cannot|no\s+longer)\b|n['’]t\b", re.I)
CLAUSE_END = re.compile(r"[;:!?\n]|[.,](?=\s|$)|\bbut\b", re.I)
_STRIP = " \t\r\n.!?,;:\"'“”‘’`*_"

Span = tuple[int, int]


def fold(text: object) -> str:
    """``text`` lower-cased with every run of whitespace one space (lengths may change: use
    the folded text for positions)."""
    return re.sub(r"\s+", " ", str(text)).lower()


def _key(value: object) -> str:
    """A value as it is looked for: folded, without surrounding spaces, quotes or
    punctuation."""
    return fold(value).strip(_STRIP)


def _word(ch: str) -> bool:
    return bool(_WORD_CHAR.match(ch))


def _bounded(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` stands as whole tokens in ``text``."""
    first, last = text[start], text[end - 1]
    if start and _word(first) and _word(text[start - 1]):
        return False
    if end < len(text) and _word(last) and _word(text[end]):
        return False
    if first.isdigit() and re.search(r"\d[.,]$", text[max(0, start - 2):start]):
        return False  # the end of a longer number ("1.12", "3,120")
    return not (last.isdigit() and re.match(r"[.,]\d", text[end:end + 2]))


def spans(text: object, value: object) -> list[Span]:
    """Where ``value`` occurs in ``fold(text)`` as whole tokens (no overlaps)."""
    haystack, needle = fold(text), _key(value)
    if not needle:
        return []
    out: list[Span] = []
    at = haystack.find(needle)
    while at >= 0:
        end = at + len(needle)
        if _bounded(haystack, at, end):
            out.append((at, end))
            at = haystack.find(needle, end)
        else:
            at = haystack.find(needle, at + 1)
    return out


def names(text: object, value: object) -> bool:
    """Whether ``text`` names ``value`` (whole tokens, case and spacing aside)."""
    return bool(spans(text, value))


_DIGIT_RUN = re.compile(r"(?<![\d.,])\d+(?:[ -]\d+)*(?!\d|[.,]\d)")


def number_spans(text: object, number: object) -> list[Span]:
    """Where the digits of ``number`` stand in ``str(text)`` as whole digit groups of a run
    of groups (an ID "802 4412 0438" also written "802-4412-0438" or "80244120438"; not
    inside "802 4412 04387", nor "12" inside "$12.50")."""
    raw, want = str(text), re.sub(r"\D", "", str(number))
    out: list[Span] = []
    if not want:
        return out
    for run in _DIGIT_RUN.finditer(raw):
        groups = [(run.start() + g.start(), run.start() + g.end(), g.group())
                  for g in re.finditer(r"\d+", run.group())]
        for i, (start, _, _) in enumerate(groups):
            digits = ""
            for _, end, group in groups[i:]:
                digits += group
                if len(digits) >= len(want):
                    if digits == want:
                        out.append((start, end))
                    break
    return out


def negated(text: str, found: Iterable[Span]) -> bool:
    """Whether a negation shares a clause with one of the ``found`` spans of ``text``."""
    bounds = list(CLAUSE_END.finditer(text))
    bound_starts, bound_ends = [b.start() for b in bounds], [b.end() for b in bounds]
    negations = list(NEGATION.finditer(text))
    neg_starts = [n.start() for n in negations]
    for start, end in found:
        k = bisect_right(bound_ends, start)
        clause_start = bound_ends[k - 1] if k else 0
        k = bisect_left(bound_starts, end)
        clause_end = bound_starts[k] if k < len(bounds) else len(text)
        j = bisect_left(neg_starts, clause_start)
        if j < len(negations) and negations[j].end() <= start:
            return True
        j = bisect_left(neg_starts, end)
        if j < len(negations) and negations[j].end() <= clause_end:
            return True
    return False


def told(text: object, value: object) -> bool:
    """``text`` names ``value`` and no mention of it is negated."""
    found = spans(text, value)
    return bool(found) and not negated(fold(text), found)


#: What ``blank`` puts in place of a mention: no word, number or clause end.
BLANK = " · "


def blank(text: object, values: Sequence[object]) -> str:
    """``fold(text)`` with every whole-token mention of ``values`` (the longest first)
    replaced by ``BLANK`` (what is left around them does not join, and a clause goes on:
    "it isn't X at 18:00" still negates the time)."""
    out = fold(text)
    for value in sorted({_key(v) for v in values if _key(v)}, key=len, reverse=True):
        for start, end in reversed(spans(out, value)):
            out = out[:start] + BLANK + out[end:]
    return out


def rivals_named(text: object, expected: object, others: Iterable[object]) -> list[str]:
    """The ``others`` (not ``expected`` itself) that ``text`` names; one that is part of
    ``expected`` counts only outside the mentions of ``expected``."""
    want = _key(expected)
    rest = blank(text, [expected])
    found = []
    for other in others:
        key = _key(other)
        if not key or key == want:
            continue
        if spans(rest if spans(want, key) else text, key):
            found.append(str(other))
    return found

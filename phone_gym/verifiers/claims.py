"""One claim per answer: the second claims that make an answer fail (``answers``).

A *claim* is a clause (sentences end at ``. ! ?`` before a space, ``;`` or a line break;
clauses at ``,``) that says what something is: a lead-in of at most 8 words ending in
"is", "was", "are", "called", "named", an "it's"-style contraction, ":", "=" or a spaced
dash (no digits, "or", "and" or negation in it), then words. Its *subject* is the lead-in's
words, contractions spelt out and leading fillers ("actually", "so", "sorry") dropped.

An answer states one value. Another clause that claims something about the same subject
(the same words, or one ending with the other: "it is" and "actually it is") or about the
answer itself ("the answer is", "answer:") is a second, conflicting claim: "The answer is
WRONG. The answer is RIGHT." fails. Saying the value again
is a restatement, not a second claim ("It's Tuesday, Tuesday the 5th": a restatement may add
a day of the month, never another word that could name something else); other remarks are
not claims about the answer ("It's 15:30. The office closes then.").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from .mentions import NEGATION

_I = re.IGNORECASE
LEAD_END = re.compile(
    r"\b(?:is|was|are|called|named)\b|[:=]|(?<=\s)[-–—](?=\s)"
    r"|\b(?:it|that|this|here|he|she|they)['’](?:s|re)\b", _I)
LEAD_BAD = re.compile(r"[\d,;/\n]|\b(?:or|and)\b", _I)
WORD = re.compile(r"[A-Za-z'’]+")
SENTENCE_END = re.compile(r"[.!?](?=\s|$)|[;\n]")
_CLAUSE_END = re.compile(r"[.!?](?=\s|$)|[;\n,]")
_FILLERS = frozenset("actually so well sorry oh ok okay wait hmm um correction then yes no "
                     "i think believe guess mean".split())
_CONTRACTIONS = {"s": "is", "re": "are"}
#: What a restatement may add after the value: a day of the month ("the 5th of March").
_RESTATE_EXTRA = re.compile(
    r"(?:\s+|^)(?:the|on|of|in|\d{1,2}(?:st|nd|rd|th)?|january|february|march|april|may|june|"
    r"july|august|september|october|november|december)(?=\s|$)", _I)

_GAP = re.compile(r"\s\S")

Subject = tuple[str, ...]


def subject(lead: str) -> Subject:
    """The words of a lead-in, contractions spelt out, leading fillers dropped (":" and "="
    leave the words before them: "Answer:" is ``("answer",)``)."""
    words: list[str] = []
    for word in WORD.findall(lead.lower().replace("’", "'")):
        head, _, tail = word.partition("'")
        words += [head, _CONTRACTIONS[tail]] if tail in _CONTRACTIONS else [word]
    while words and words[0] in _FILLERS:
        words.pop(0)
    return tuple(words)


def conflict(mine: Subject, other: Subject) -> bool:
    """Whether a claim about ``other`` conflicts with the answer's claim about ``mine``:
    ``other`` is about the answer ("the answer is"), or both are about the same thing (one
    ends with the other: "it is" and "so it is"). A bare value (no subject) conflicts with
    answer claims only ("Yes. It is likely to rain." is one claim)."""
    if "answer" in other:
        return True
    if not mine:
        return False
    short, long = sorted((mine, other), key=len)
    return long[len(long) - len(short):] == short


def lead_in(text: str) -> re.Match[str] | None:
    """The lead-in's end in ``text`` (the first ``LEAD_END`` with a valid lead before it)."""
    for m in LEAD_END.finditer(text):
        lead = text[:m.end()]
        if len(WORD.findall(lead)) > 8 or LEAD_BAD.search(lead) or NEGATION.search(lead):
            return None
        return m
    return None


def claim(clause: str) -> tuple[Subject, str] | None:
    """``(subject, what it claims)`` when ``clause`` is a claim, else None."""
    m = lead_in(clause)
    if m is None:
        return None
    rest = clause[m.end():].strip(" \t\"'“”‘’`*_.,!?;:")
    return (subject(clause[:m.end()]), rest) if re.search(r"\w", rest) else None


def _spans(regex: re.Pattern[str], text: str, start: int, end: int) -> list[tuple[int, int]]:
    out, at = [], start
    for m in regex.finditer(text, start, end):
        out.append((at, m.start()))
        at = m.end()
    return [*out, (at, end)]


def _lead_of(text: str, s_start: int, value: int) -> tuple[Subject, int]:
    """The subject of the value at ``value`` in the sentence from ``s_start``, and where its
    lead-in starts: its clause's lead-in, else (a bare value) its sentence's."""
    c_start = max(c for c, _ in _spans(_CLAUSE_END, text, s_start, value + 1))
    for base in (c_start, s_start):
        m = lead_in(text[base:value])
        if m is not None:
            return subject(text[base:base + m.end()]), base
    return (), c_start


def second_claim(text: str, values: Sequence[tuple[int, int]],
                 remarks: Sequence[tuple[int, int]] = ()) -> str | None:
    """A clause of ``text`` holding none of the ``values`` (the spans of the answer's
    value) nor ``remarks`` (values of other kinds: the day next to a time) that claims
    something else about the value's subject, or None. A value's subject is its clause's
    lead-in; a bare value's, its sentence's ("It's on Tuesday, at 15:30")."""
    subjects: list[Subject] = []
    others: list[tuple[Subject, str]] = []
    for s_start, s_end in _spans(SENTENCE_END, text, 0, len(text)):
        mine = [_lead_of(text, s_start, s) for s, _ in values if s_start <= s < s_end]
        subjects += [m[0] for m in mine]
        first = next((v for v, _ in values if s_start <= v < s_end), None)
        for start, end in _spans(_CLAUSE_END, text, s_start, s_end):
            if any(start <= v < end for v, _ in [*values, *remarks]):
                continue
            if first is not None and mine[0][1] == s_start and end <= first:
                continue  # part of the lead-in of the value's sentence
            found = claim(text[start:end])
            if found is not None:
                others.append((found[0], text[start:end].strip()))
    for other, shown in others:
        if any(conflict(mine, other) for mine in subjects or [()]):
            return shown
    return None


#: What a sentence before a text answer's lead-in may say ("Sure. The answer is ...").
_COURTESY = frozenset("sure ok okay alright all right yes yeah well so got it here thanks thank "
                      "you done found let me check see i have hmm um oh".split())


def claims_before(lead: str) -> bool:
    """Whether a text answer's lead-in holds a claim before its own ("The answer is WRONG.
    The answer is"): any of its sentences but the last is a claim or says anything but a
    courtesy ("Sure.", "Let me check."): "Blue Door. The answer is Copper Kettle" names a
    value first."""
    ends = [m.end() for m in SENTENCE_END.finditer(lead)]
    start = 0
    for end in ends:
        sentence = lead[start:end]
        said = WORD.sub(lambda w: "" if w.group().lower() in _COURTESY else "x", sentence)
        if claim(sentence) is not None or re.search(r"\w", said):
            return True
        start = end
    return False


def restates(tail: str, same: Callable[[str], bool], longest: int) -> bool:
    """Whether ``tail`` (what follows the value in a text answer) only says the value again:
    pieces between separators, each the value (at most ``longest`` characters) after an
    optional lead-in, with at most a day of the month added ("Tuesday the 5th")."""
    pieces = [p.strip() for p in re.split(r"[,;.!?\n()]|\s[-–—]\s", tail)]
    if not any(pieces):
        return False
    return all(_restatement(piece, same, longest) for piece in pieces if piece)


def _restatement(piece: str, same: Callable[[str], bool], longest: int) -> bool:
    m = lead_in(piece)
    rests = [piece] + ([piece[m.end():]] if m else [])
    for rest in rests:
        rest = rest.strip()
        cuts = [len(rest)] + [w.start() for w in _GAP.finditer(rest, 0, longest)]
        for cut in cuts:
            if cut > longest:
                continue
            head, extra = rest[:cut], rest[cut:]
            if same(head) and _RESTATE_EXTRA.sub("", extra).strip() == "":
                return True
    return False

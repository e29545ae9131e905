"""Verdicts, declarative criteria over state, and state diffs."""

from __future__ import annotations

from .criteria import (
    DEFAULT_IGNORE,
    Answer,
    Criterion,
    Matcher,
    NoRecord,
    Record,
    Value,
    check,
    contains,
    digits,
    lookup,
    normalize_text,
    same_phone,
    same_text,
)
from .diff import Change, diff, matches, unexpected
from .state import AlarmRow, ContactRow, DeviceError, DeviceState, Watch, observe
from .verdict import Verdict, failed, passed

__all__ = [
    "DEFAULT_IGNORE", "AlarmRow", "Answer", "Change", "ContactRow", "Criterion",
    "DeviceError", "DeviceState", "Matcher", "NoRecord", "Record", "Value", "Verdict",
    "Watch", "observe", "check", "contains", "diff", "digits", "failed", "lookup", "matches",
    "normalize_text", "passed", "same_phone", "same_text", "unexpected",
]

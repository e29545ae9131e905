"""Verdicts, declarative criteria over state, and state diffs; how typed values
(``fields``), free text (``mentions``) and answers (``answers``, ``claims``) compare
(``docs/tasks.md``)."""

from __future__ import annotations

from .criteria import (
    DEFAULT_IGNORE,
    Allow,
    Allowed,
    Answer,
    Becomes,
    Criterion,
    Matcher,
    NoRecord,
    Record,
    Value,
    check,
    collateral,
    contains,
    digits,
    field_ok,
    lookup,
    matching,
    matching_keys,
    naming_only,
    normalize_text,
    rows,
    same_phone,
    same_text,
)
from .diff import Change, diff, matches, unexpected
from .negatives import NearMiss, derive_negatives
from .snap import TableSnap, plain
from .state import (
    AccountRow,
    AlarmRow,
    CallRow,
    ContactRow,
    DeviceError,
    DeviceState,
    EventRow,
    MessageRow,
    NotificationRow,
    Unsupported,
    Watch,
    observe,
)
from .verdict import Verdict, failed, passed

__all__ = [
    "DEFAULT_IGNORE", "AccountRow", "AlarmRow", "Allow", "Allowed", "Answer", "Becomes",
    "CallRow", "Change",
    "ContactRow", "Criterion", "DeviceError", "DeviceState", "EventRow", "Matcher",
    "MessageRow", "NearMiss", "NoRecord", "NotificationRow", "Record", "TableSnap",
    "Unsupported", "Value", "Verdict", "Watch", "check", "collateral", "contains",
    "derive_negatives", "diff", "digits", "failed", "field_ok", "lookup", "matches", "rows",
    "matching", "matching_keys", "naming_only", "normalize_text", "observe", "passed",
    "plain", "same_phone", "same_text",
    "unexpected",
]

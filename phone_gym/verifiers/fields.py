"""How a typed value compares, per kind of field: the trimming and case rules of the app that
keeps it (``docs/tasks.md`` has the same list as a table).

Android's text fields keep what was typed, spaces at the ends included; apps differ in what
they save, and in what a person would call the same value:

- names and titles (contact and passenger names; event, meeting, note, list and playlist
  titles; labels; subjects; a message or note the task dictates): spaces at the ends
  ignored, inner runs one space (Contacts trims names on save), case ignored: ``same_text``;
- text that tells a value (a message, note or post reporting a hotel, a train, an ID): the
  value as whole tokens, not negated, no other candidate (``mentions``), case ignored:
  ``naming_only``, ``crossapp.common.holds``;
- text files' content (Markor notes, documents): each line's trailing spaces and the blank
  lines and spaces at the ends ignored, case ignored (AndroidWorld compares a note's text
  stripped and case-insensitively: ``android_world/utils/file_utils.py``,
  ``check_file_content``, ``fuzzy_match(..., ignore_case=True)``; its 0.9 similarity is
  not copied: other words fail): ``content_is`` on a file's ``text_sha1``;
- file and folder names: spaces at the ends ignored (Markor and Files trim the name), case
  kept (ext4 tells "Report.txt" from "report.txt"): exact;
- codes (meeting passcodes, PINs, booking and tracking codes; a date or amount typed as
  text): spaces at the ends ignored (a code has none), case kept ("nwEqqU" is not
  "NWEQQU"): ``same_code``;
- search queries: the apps trim them and match either case (the app's search, not a check);
- e-mail addresses: spaces at the ends and case ignored: ``same_text``;
- phone numbers: digits only: ``same_phone``.
"""

from __future__ import annotations

import hashlib
from typing import Any

from .criteria import Matcher


def same_code(expected: str) -> Matcher:
    """A code typed into a field: equal to ``expected`` once spaces at the ends are dropped,
    case kept."""
    want = str(expected).strip()
    return Matcher(lambda v: isinstance(v, str) and v.strip() == want, f"code {want!r}")


def content_text(data: bytes | str) -> str:
    """A text file's content as compared: line breaks ``\\n``, each line without trailing
    spaces, no blank lines or spaces at the ends, case folded."""
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return "\n".join(line.rstrip() for line in lines).strip().casefold()


def content_digest(data: bytes | str) -> str:
    """The SHA-1 of ``content_text(data)``: what a snapshot shows of a file as
    ``text_sha1``."""
    return hashlib.sha1(content_text(data).encode("utf-8")).hexdigest()


def content_is(*texts: Any) -> Matcher:
    """A matcher of a file's ``text_sha1``: the file holds one of ``texts`` (``content_text``
    rules)."""
    digests = frozenset(content_digest(str(t)) for t in texts)
    shown = " or ".join(repr(str(t)) for t in texts[:2])
    return Matcher(lambda v: v in digests, f"text {shown}")

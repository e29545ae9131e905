"""AndroidWorld's Markor tasks and their phone-gym counterparts (the Markor app: notes are
files in ``/sdcard/Documents/Markor``). Text is checked by the SHA-1 of the file (the exact
text, trailing whitespace and one final line break aside) instead of AndroidWorld's fuzzy
match, so the same check reads a phone over adb. Bystander notes are AndroidWorld's 1 to 20
where its task seeds noise files (the rename tasks excepted, below); they hold a sentence
and are titled from a list of everyday titles (AndroidWorld's are empty, and 15% of their
names are look-alikes of the target's name)."""

from __future__ import annotations

_RENAME = ("the rename AndroidWorld's instruction and checker require (the old name gone, "
           "the new name holding the text); 2-4 bystander notes instead of 1-20: PhoneWorld's "
           "actions are finer than AndroidWorld's input_text (which taps, clears and types "
           "in one), so the new note, its text and the old note's deletion take 11 of the 12 "
           "steps, leaving none to scroll a longer list; the other notes must stay unchanged")

MAPPED: dict[str, tuple[str, str]] = {
    "MarkorAddNoteHeader": (
        "MarkorAddNoteHeader",
        "header, blank line, then the original text, as AndroidWorld checks; " + _RENAME),
    "MarkorChangeNoteContent": (
        "MarkorChangeNoteContent",
        "the note's text replaced by a 20-character string (the original is a sentence, "
        "AndroidWorld's 20 random characters); " + _RENAME),
    "MarkorCreateFolder": (
        "MarkorCreateFolder",
        "same check (the folder exists in Markor's folder), read from the files store: a "
        "folder Markor creates holds a hidden .keep file; 1-20 bystander notes; PhoneWorld "
        "only"),
    "MarkorCreateNote": (
        "MarkorCreateNote",
        "same check (the named note holds the text), exact text instead of a fuzzy match; "
        "exactly one new file; runs on real phones"),
    "MarkorCreateNoteFromClipboard": (
        "MarkorCreateNoteFromClipboard",
        "the clipboard is seeded directly (no Clipper app needed; PhoneWorld only); the note "
        "must hold exactly the clipboard's text"),
    "MarkorDeleteAllNotes": (
        "MarkorDeleteAllNotes",
        "same check (no note left in Markor's folder; its setup clears that folder first, "
        "as AndroidWorld's); files in Download and Documents are bystanders that must "
        "survive"),
    "MarkorDeleteNewestNote": (
        "MarkorDeleteNewestNote",
        "the same 2-6 notes dated -500..+500 minutes around the clock (Markor keeps the "
        "times, PhoneWorld only); deleting any other note fails"),
    "MarkorDeleteNote": (
        "MarkorDeleteNote",
        "same check (the note is gone), with 1-20 bystander notes that must survive "
        "(deleting everything fails)"),
    "MarkorEditNote": (
        "MarkorEditNote",
        "same three edits (header, footer, replace); a header or footer may sit on the next "
        "line or after a blank line; 1-20 other notes, guarded"),
    "MarkorMergeNotes": (
        "MarkorMergeNotes",
        "same check (the new note is the three texts joined by blank lines, 5 lines); the "
        "new note's name is given with its .md extension"),
    "MarkorMoveNote": (
        "MarkorMoveNote",
        "same check (gone from the source folder, in the destination with the same text), "
        "with 1-20 bystander notes in the source folder, and more in the destination and "
        "Markor's own"),
}

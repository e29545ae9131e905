"""``verifiers.fields``: typed values compare after the rules of the field's app (issue 26,
item 5): codes trimmed with their case kept, text files' content trimmed per line and
case-insensitive, and what a snapshot shows of a file (``text_sha1``)."""

from __future__ import annotations

import hashlib

from phone_gym.verifiers.fields import content_digest, content_is, content_text, same_code
from phone_gym.world.system import File


def test_a_code_ignores_spaces_at_the_ends_and_keeps_its_case() -> None:
    code = same_code("nwEqqU")
    assert code("nwEqqU") and code(" nwEqqU ") and code("nwEqqU\n")
    assert not code("NWEQQU") and not code("nwEq qU") and not code(None)
    assert same_code("2026-11-07")("2026-11-07 ")


def test_a_note_compares_per_line_and_case_aside() -> None:
    assert content_text("Buy milk \r\nEggs\t\n\n") == "buy milk\neggs"
    assert content_text(b"  Hi\n") == "hi"
    note = content_is("Yoga class\nTeam standup")
    for same in ("Yoga class\nTeam standup", "yoga class \nTeam Standup\n", "YOGA CLASS\r\n"
                 "TEAM STANDUP"):
        assert note(content_digest(same)), same
    for other in ("Yoga class Team standup", "Yoga class\n\nTeam standup", "Team standup",
                  "Yoga class\nTeam standup\nTennis"):
        assert not note(content_digest(other)), other


def test_a_file_snapshot_shows_both_digests() -> None:
    row = File("/sdcard/Documents/a.md", "Hello \n").__plain__()
    assert row["sha1"] == hashlib.sha1(b"Hello \n").hexdigest()
    assert row["text_sha1"] == content_digest("hello")

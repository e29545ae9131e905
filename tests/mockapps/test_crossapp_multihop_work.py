"""Direct tests of what the multihop_work templates rely on: the meeting-ID criterion read
from the final state (and its near misses), the recipients matcher, the Friday arithmetic,
the workflow family adding up its stages' allowed changes, and one template's criteria
failing on an untouched phone and passing after its oracle."""

from __future__ import annotations

from datetime import date

import numpy as np

from phone_gym.crossapp.families.multihop import HoldsMeetingId, IdOf, made, merged, sms
from phone_gym.crossapp.multihop_work import (
    TEMPLATES as WORK,
)
from phone_gym.crossapp.multihop_work import addresses_are, next_friday
from phone_gym.mockapps import REGISTRY, TEMPLATES, Episode
from phone_gym.mockapps.meet.fixtures import MEETINGS
from phone_gym.verifiers import Allow
from phone_gym.world import Device


def state(body: str) -> dict:
    meetings = {"1": {"title": "Data review", "date": "2026-10-16", "time": "10:00",
                      "number": "851 2345 6789"},
                "2": {"title": "Vendor call", "date": "2026-10-17", "time": "11:00",
                      "number": "852 0000 1111"}}
    notes = {"1": {"title": "Prep", "body": body}}
    return {"apps": {"Meet": {"meetings": meetings}, "Notes": {"notes": notes}}}


def test_the_note_must_hold_that_meeting_id_and_no_other() -> None:
    crit = HoldsMeetingId("apps.Notes.notes", {"title": "Prep"}, "body",
                          {"title": "Data review", "date": "2026-10-16", "time": "10:00"})
    assert MEETINGS == "apps.Meet.meetings"
    assert crit.check(state("Data review: 85123456789"), None)[0]
    assert crit.check(state("ID 851 2345 6789"), None)[0]
    assert not crit.check(state("851 2345 6789 or 852 0000 1111"), None)[0]
    assert not crit.check(state("no id here"), None)[0]


def test_recipients_and_fridays() -> None:
    m = addresses_are("a@x.com", "b@y.org")
    assert m("b@y.org, a@x.com") and m("A@x.com;b@y.org")
    assert not m("a@x.com") and not m("a@x.com, b@y.org, c@z.net")
    assert next_friday(date(2026, 10, 15)) == date(2026, 10, 16)
    assert next_friday(date(2026, 10, 16)) == date(2026, 10, 23)


def test_every_template_is_multihop_over_three_apps() -> None:
    assert len(WORK) >= 16
    for t in WORK:
        assert "multihop" in t.tags and len(set(t.apps)) >= 3, t.id
        assert TEMPLATES[t.id] is not None
    # 5 since Meet's Material pickers (CrossMarkorAgendaToZoomMail's oracle: 24 steps)
    assert sum("long_horizon" in t.tags for t in WORK) >= 5


def test_the_invite_fails_untouched_and_passes_after_its_oracle() -> None:
    device = Device(REGISTRY.apps)
    ep = Episode(TEMPLATES["CrossMeetEventMailInvite"], device, np.random.default_rng(4))
    assert not ep.verify(None).success
    ep.solve()
    assert ep.verify(None).success


def test_the_family_adds_up_stages_and_checks_ids_on_the_final_state() -> None:
    texts = [sms("A", "555 0100", "hi", "hi"), sms("B", "555 0101", "hi", "hi")]
    assert merged(r for s in texts for r in s.allow) == [Allow("messages", "added", max=2)]
    assert merged([Allow("files", "added", where={"name": "a"}),
                   Allow("files", "added", where={"name": "b"})]) == [
        Allow("files", "added", where={"name": "a"}), Allow("files", "added", where={"name": "b"})]
    meeting = {"title": "Data review", "date": "2026-10-16", "time": "10:00"}
    crit = made("apps.Notes.notes", {"title": "Prep"}, {"body": IdOf(meeting)})
    assert crit == HoldsMeetingId("apps.Notes.notes", {"title": "Prep"}, "body", meeting)
    final = state("Data review: 851 2345 6789")
    misses = crit.near_misses(final, None)
    assert crit.check(final, None)[0] and len(misses) == 2
    assert not any(crit.check(m.state, None)[0] for m in misses)

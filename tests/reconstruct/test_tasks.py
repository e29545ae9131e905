"""Issue 32: tasks and verifiers generated from the state changes traces show. Contacts traces
recorded in-process (the oracles of ContactsCreate and ContactsDelete played on a virtual
phone over its adb shell) rebuild an app whose ``tasks.py`` holds a create and a delete
template, and, from a ContactsLookupPhone trace, a look-up (the phone number a contact's screen
showed): each passes ``check_task`` on the rebuilt app, and wrong end states (another value,
an extra record, another record deleted, another contact's number) fail its verifier."""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
import pytest

from phone_gym.reconstruct.build import build_model, write_package
from phone_gym.reconstruct.fidelity import load_app
from phone_gym.reconstruct.loop import record_episodes
from phone_gym.reconstruct.trace import load_traces
from phone_gym.tasks.task import Episode
from phone_gym.testing import check_task
from phone_gym.world import Device

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def rebuilt(tmp_path_factory: pytest.TempPathFactory) -> Any:
    root = tmp_path_factory.mktemp("gen")
    traces = load_traces(record_episodes(
        ["ContactsCreate:0", "ContactsCreate:1", "ContactsDelete:0", "ContactsLookupPhone:0"],
        root / "traces"))
    return load_app(write_package(build_model(traces), traces, root / "rebuilt"))


def template(module: Any, kind: str) -> Any:
    return next(t for t in module.TEMPLATES if t.spec["kind"] == kind)


def solved(module: Any, kind: str, seed: int = 0) -> tuple[Any, Episode]:
    t = template(module, kind)
    ep = Episode(t, Device([module.APP]), np.random.default_rng(seed))
    answer, _ = ep.solve()
    assert ep.verify(answer, ep.end_status).success, ep.verify(answer).reason
    return t, ep


def test_generated_templates_pass_check_task(rebuilt: Any) -> None:
    kinds = sorted(t.spec["kind"] for t in rebuilt.TEMPLATES)
    assert kinds == ["create", "delete", "lookup"]
    create = template(rebuilt, "create")
    assert set(create.spec["fields"]) == {"name", "phone"}
    # params are values seen typed in the traces
    seen = {v["name"] for v in create.spec["values"]}
    assert Episode(create, Device([rebuilt.APP]), np.random.default_rng(1)).params["name"] in seen
    for t in rebuilt.TEMPLATES:
        report = check_task(t, 4, apps=[rebuilt.APP], starts=(0, 3))
        assert report.solved == 4 and report.negatives > 0


def test_lookup_answers_a_value_the_record_screen_showed(rebuilt: Any) -> None:
    t = template(rebuilt, "lookup")
    assert (t.spec["field"], t.spec["answer"]) == ("phone", "phone")
    assert "phone" in t.template and "{name}" in t.template
    report = check_task(t, 20, apps=[rebuilt.APP])
    assert report.solved == 20 and not report.problems, report
    t, ep = solved(rebuilt, "lookup")
    value = ep.params["value"]
    final = ep.host.snapshot(t)
    digits = "".join(c for c in value if c.isdigit())
    assert t.judge(ep.initial, final, ep.params, digits, "success").success  # another format
    assert not t.judge(ep.initial, final, ep.params, "+1 555-999-0000", "success").success
    assert not t.judge(ep.initial, final, ep.params, None, "success").success
    changed = copy.deepcopy(final)  # a look-up changes nothing
    recs = changed["apps"][rebuilt.APP.name]["records"]
    del recs[next(iter(recs))]
    assert not t.judge(ep.initial, changed, ep.params, value, "success").success


def test_wrong_end_states_fail_the_generated_verifiers(rebuilt: Any) -> None:
    t, ep = solved(rebuilt, "create")
    final = ep.host.snapshot(t)
    coll = final["apps"][rebuilt.APP.name]["records"]
    new = next(k for k, r in coll.items() if r["text"] == ep.params["name"])
    assert t.judge(ep.initial, final, ep.params, None, "success").success

    other = copy.deepcopy(final)  # a different phone number saved
    rec = other["apps"][rebuilt.APP.name]["records"][new]
    rec["values"] = [[k, "+1 555-999-0000" if k == "phone" else v] for k, v in rec["values"]]
    assert not t.judge(ep.initial, other, ep.params, None, "success").success

    extra = copy.deepcopy(final)  # an extra record besides the one asked for
    extra["apps"][rebuilt.APP.name]["records"]["999"] = {**coll[new], "id": 999,
                                                         "text": "Someone Else"}
    assert not t.judge(ep.initial, extra, ep.params, None, "success").success

    t, ep = solved(rebuilt, "delete")
    final = ep.host.snapshot(t)
    rows = final["apps"][rebuilt.APP.name]["records"]
    bystander = next(k for k, r in rows.items() if r["text"] != ep.params["name"])
    damaged = copy.deepcopy(final)  # another record deleted too
    del damaged["apps"][rebuilt.APP.name]["records"][bystander]
    assert not t.judge(ep.initial, damaged, ep.params, None, "success").success
    kept = copy.deepcopy(ep.initial)  # the record left in place
    assert not t.judge(ep.initial, kept, ep.params, None, "success").success


@pytest.fixture(scope="module")
def markor(tmp_path_factory: pytest.TempPathFactory) -> Any:
    root = tmp_path_factory.mktemp("markor")
    traces = load_traces(record_episodes(
        ["MarkorCreateNote:0", "MarkorDeleteNote:0", "MarkorEditNote:0"], root / "traces"))
    return load_app(write_package(build_model(traces), traces, root / "rebuilt"))


def test_edit_saves_a_value_into_the_record_opened(markor: Any) -> None:
    t = template(markor, "edit")
    assert t.spec["field"] == "editor_body" and t.spec["values"]
    report = check_task(t, 20, apps=[markor.APP])
    assert report.solved == 20 and report.negatives > 0 and not report.problems, report
    t, ep = solved(markor, "edit")
    final = ep.host.snapshot(t)
    recs = final["apps"][markor.APP.name]["records"]
    key = next(k for k, r in recs.items() if r["text"] == ep.params["name"])
    assert dict(map(tuple, recs[key]["values"]))["editor_body"] == ep.params["value"]
    assert t.judge(ep.initial, final, ep.params, None, "success").success

    other = copy.deepcopy(final)  # another text saved
    rec = other["apps"][markor.APP.name]["records"][key]
    rec["values"] = [[k, "Something else." if k == "editor_body" else v]
                     for k, v in rec["values"]]
    assert not t.judge(ep.initial, other, ep.params, None, "success").success
    renamed = copy.deepcopy(final)  # the note renamed too
    renamed["apps"][markor.APP.name]["records"][key]["text"] = "renamed.md"
    assert not t.judge(ep.initial, renamed, ep.params, None, "success").success
    bystander = copy.deepcopy(final)  # another note deleted
    del bystander["apps"][markor.APP.name]["records"][next(k for k in recs if k != key)]
    assert not t.judge(ep.initial, bystander, ep.params, None, "success").success
    assert not t.judge(ep.initial, copy.deepcopy(ep.initial), ep.params, None,
                       "success").success  # nothing saved

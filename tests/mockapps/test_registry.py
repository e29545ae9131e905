"""The registry: built-in apps and templates found by discovery, lookups with suggestions,
the package map from the manifests, and clashes refused."""

from __future__ import annotations

import types

import pytest

from phone_gym.mockapps import REGISTRY, TEMPLATES, Registry
from phone_gym.mockapps.notes import TEMPLATES as NOTES_TEMPLATES
from phone_gym.tasks.registry import builtin_modules
from phone_gym.world import App
from phone_gym.world.manifest import AppManifest


def test_every_app_folder_is_found() -> None:
    modules = builtin_modules()
    assert "phone_gym.mockapps.notes" in modules and "phone_gym.crossapp.handoff" in modules
    assert not any(m.endswith("_template") for m in modules)
    names = [m.name for m in REGISTRY.manifests]
    orders = [m.order for m in REGISTRY.manifests]
    assert orders == sorted(orders)  # manifest order
    assert names.index("Contacts") < names.index("Clock") < names.index("Notes") < names.index(
        "Settings") < names.index("Files")
    assert {"Todo", "Calendar", "Markor", "Messages", "Phone"} <= set(names)
    for t in TEMPLATES.values():
        assert set(t.apps) <= set(names), t.id


def test_lookups_suggest_names_and_the_listing_command() -> None:
    assert REGISTRY.app("tasks").manifest.name == "Todo"  # by label, any case
    assert REGISTRY.app("com.android.contacts").manifest.name == "Contacts"
    with pytest.raises(ValueError, match="did you mean 'Notes'.*phone-gym tasks"):
        REGISTRY.app("Note")
    with pytest.raises(ValueError, match="did you mean 'NotesPinNote'"):
        REGISTRY.template("NotesPinNot")


def test_the_package_map_comes_from_the_manifests() -> None:
    packages = REGISTRY.package_map()
    assert packages["Clock"] == "com.google.android.deskclock"
    assert packages["Tasks"] == packages["Todo"] == "org.tasks"


def test_clashes_are_refused() -> None:
    registry = Registry()
    notes = types.ModuleType("fake_notes")
    notes.TEMPLATES = NOTES_TEMPLATES  # type: ignore[attr-defined]
    registry.add_module(notes, builtin=True)
    with pytest.raises(ValueError, match="taken"):
        registry.add_module(notes, builtin=False)

    class Copycat(App):
        manifest = AppManifest("Notes2", "com.example.notes")

    first = types.ModuleType("first")
    first.APP = REGISTRY.app("Notes").app  # type: ignore[attr-defined]
    registry.add_module(first, builtin=True)
    copy = types.ModuleType("copy")
    copy.APP = Copycat  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="'com.example.notes' is taken"):
        registry.add_module(copy, builtin=False)
    junk = types.ModuleType("junk")
    junk.TEMPLATES = ["not a task"]  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="not a Task"):
        registry.add_module(junk, builtin=False)

"""What the artifact-with-media templates rely on: Chat's "+" picker sends a picture or a
file from shared storage, and "Save to phone" writes a received picture or file there (once),
so that the other apps (Social, Gallery, Mail) can use it."""

from __future__ import annotations

import numpy as np
import pytest
from driving import long_press, open_app, press, shown, tap

from phone_gym.crossapp.artifact_media import TEMPLATES
from phone_gym.mockapps import APPS
from phone_gym.mockapps.chat.app import (
    ME,
    SAVED_FILES,
    SAVED_PICTURES,
    ChatApp,
    attachable,
    saved_path,
)
from phone_gym.mockapps.chat.fixtures import say, seed_social
from phone_gym.mockapps.social.app import SocialApp
from phone_gym.verifiers.state import DeviceState
from phone_gym.world import Device
from phone_gym.world.state import WorldState
from phone_gym.world.system import File


def chat_of(device: Device) -> ChatApp:
    app = device.app("Chat")
    assert isinstance(app, ChatApp)
    return app


@pytest.fixture
def device() -> Device:
    """Friends Li Na and Tom Reed; Li Na sent a picture and a file; a photo and a PDF in
    shared storage."""
    dev = Device(APPS)
    state: DeviceState = WorldState(dev)
    chats = seed_social(state, np.random.default_rng(0), ["Li Na", "Tom Reed"], ["Family"])
    say(state, chats["Li Na"], "Li Na", "cat_on_sofa.jpg", "image", time="11:00",
        content="A grey cat asleep on a sofa")
    say(state, chats["Li Na"], "Li Na", "menu.pdf", "file", time="11:01",
        content="Contents of menu.pdf")
    state.write_file("/sdcard/DCIM/Camera/IMG_20231015_101500.jpg", b"A beach")
    state.write_file("/sdcard/Download/notes.pdf", b"Some notes")
    return dev


def last_message(device: Device) -> tuple[int, str, str, str, str]:
    m = list(chat_of(device).data.messages)[-1]
    return m.chat, m.sender, m.text, m.kind, m.content


def test_the_picker_lists_pictures_and_files_apart(device: Device) -> None:
    files = device.system.files
    assert [f.name for f in attachable(files, "Album")] == ["IMG_20231015_101500.jpg"]
    assert [f.name for f in attachable(files, "File")] == ["notes.pdf"]


def test_sending_a_photo_and_a_file_from_the_phone(device: Device) -> None:
    open_app(device, "WeChat")
    tap(device, "Tom Reed", kind="list_item")
    tap(device, id="attach")
    tap(device, "IMG_20231015_101500.jpg", kind="list_item")
    assert last_message(device) == (2, ME, "IMG_20231015_101500.jpg", "image", "A beach")
    assert shown(device, id="composer")  # back in the thread
    tap(device, id="attach")
    tap(device, id="tab_file", kind="tab")
    tap(device, "notes.pdf", kind="list_item")
    assert last_message(device) == (2, ME, "notes.pdf", "file", "Some notes")


def test_saving_a_received_picture_and_file(device: Device) -> None:
    open_app(device, "WeChat")
    tap(device, "Li Na", kind="list_item")
    long_press(device, "[Image] cat_on_sofa.jpg")
    tap(device, "Save to phone", kind="menu_item")
    saved = device.system.files.get(f"{SAVED_PICTURES}/cat_on_sofa.jpg")
    assert saved is not None and saved.content == "A grey cat asleep on a sofa"
    assert saved.mime == "image/jpeg"
    long_press(device, "[File] menu.pdf")
    tap(device, "Save to phone", kind="menu_item")
    assert f"{SAVED_FILES}/menu.pdf" in device.system.files
    count = len(device.system.files)
    long_press(device, "[Image] cat_on_sofa.jpg")
    tap(device, "Save to phone", kind="menu_item")  # saved once: a second save adds nothing
    assert len(device.system.files) == count
    press(device, "back")


def test_a_picture_without_a_file_name_is_saved_under_a_made_up_one() -> None:
    from phone_gym.mockapps.chat.app import Msg
    m = Msg(7, 1, "Li Na", "photo of a cat", "image")
    assert saved_path(m) == f"{SAVED_PICTURES}/WeChat_IMG_7.jpg"
    assert saved_path(Msg(8, 1, "Li Na", "a/b.pdf", "file")) == f"{SAVED_FILES}/a_b.pdf"


def test_the_saved_picture_shows_in_social_and_gallery_pickers(device: Device) -> None:
    device.system.files.put(File(f"{SAVED_PICTURES}/x.jpg", "X", "image/jpeg"))
    social = device.app("Social")
    assert isinstance(social, SocialApp)
    assert f"{SAVED_PICTURES}/x.jpg" in social.gallery()


def test_the_module_has_its_kinds() -> None:
    ids = [t.id for t in TEMPLATES]
    assert len(ids) == len(set(ids)) >= 16
    assert all("artifact" in t.tags and len(set(t.apps)) >= 2 for t in TEMPLATES)
    assert sum("long_horizon" in t.tags for t in TEMPLATES) >= 3
    assert sum("safety" in t.tags for t in TEMPLATES) >= 1

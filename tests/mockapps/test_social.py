"""The Social app (X) driven through phone actions: timelines, posting (with a picture and
a poll), replies, likes and bookmarks, profiles (follow, mute, block), search, direct
messages and muted words."""

from __future__ import annotations

import pytest
from driving import act, fill, press, shown, tap

from phone_gym.actions import PhoneAction
from phone_gym.mockapps.social.app import ME, SocialApp, age_text, timeline
from phone_gym.testing import check_app
from phone_gym.world import Device


def social(device: Device) -> SocialApp:
    app = device.apps["Social"]
    assert isinstance(app, SocialApp)
    return app


@pytest.fixture
def device() -> Device:
    """Three accounts (Maya followed), four posts (ids 1..4, newest last), one DM."""
    dev = Device([SocialApp])
    data = social(dev).data
    data.accounts.new(handle="maya", name="Maya Chen", following=True)
    data.accounts.new(handle="omar", name="Omar Haddad")
    data.accounts.new(handle="omar2", name="Omar Haddad")
    data.posts.new(author="maya", text="Marathon training starts today", likes=10, age=300)
    data.posts.new(author="omar", text="Sourdough loaf number six", likes=4, age=200)
    data.posts.new(author="omar2", text="Spoiler: the butler did it", likes=1, age=100)
    data.posts.new(author="maya", text="Coffee number three", likes=7, age=50)
    data.dms.new(handle="omar", text="See you at the market?")
    dev.system.write_file("/sdcard/DCIM/Camera/beach.jpg", "a beach at sunset", "image/jpeg")
    dev.invalidate()
    act(dev, PhoneAction("open_app", app="Social"))
    return dev


def test_home_is_newest_first_and_following_filters(device: Device) -> None:
    rows = [p.node.text for p in device.frame().items if p.node.kind == "list_item"]
    assert rows == ["Maya Chen", "Omar Haddad", "Omar Haddad", "Maya Chen"]
    tap(device, id="tab_following")
    assert [p.text for p in timeline(social(device).data, "Following")] == [
        "Coffee number three", "Marathon training starts today"]
    assert shown(device, id="post_4") and not shown(device, id="post_2")
    assert age_text(50) == "50m" and age_text(300) == "5h" and age_text(3000) == "2d"


def test_post_with_a_picture_and_a_poll(device: Device) -> None:
    tap(device, id="compose")
    fill(device, "post_text", "Which beach? #Weekend")
    tap(device, id="add_image")
    tap(device, id="button_deny")  # the permission prompt: denied, nothing to pick
    assert social(device).data.photos_access == "denied" and not shown(device, "beach.jpg")
    tap(device, id="add_image")
    tap(device, id="button_allow")
    tap(device, "beach.jpg", kind="list_item")
    tap(device, id="add_poll")
    fill(device, "option1", "North")
    fill(device, "option2", "South")
    tap(device, id="send")
    post = social(device).data.posts.values()[-1]
    assert (post.author, post.text, post.image, post.poll, post.reply_to) == (
        ME, "Which beach? #Weekend", "/sdcard/DCIM/Camera/beach.jpg", "North / South", 0)
    assert social(device).data.photos_access == "allowed"


def test_reply_like_and_bookmark(device: Device) -> None:
    tap(device, id="post_1")
    tap(device, id="like")
    tap(device, id="bookmark")
    tap(device, id="reply")
    fill(device, "post_text", "Good luck!")
    tap(device, id="send")
    data = social(device).data
    assert data.posts[1].liked and data.posts[1].likes == 11 and data.posts[1].bookmarked
    reply = data.posts.values()[-1]
    assert (reply.reply_to, reply.text) == (1, "Good luck!")
    assert shown(device, id="reply_5")  # back on the post, the reply under it
    tap(device, id="like")
    assert not data.posts[1].liked and data.posts[1].likes == 10


def test_follow_mute_and_block_from_a_profile(device: Device) -> None:
    tap(device, id="nav_search")
    fill(device, "search", "omar")
    tap(device, id="tab_people")
    assert shown(device, id="person_2") and shown(device, id="person_3")
    tap(device, id="person_2")
    tap(device, id="follow")
    tap(device, id="profile_more")
    tap(device, id="option_mute")
    tap(device, id="profile_more")
    tap(device, id="option_block")
    tap(device, id="button_block")
    omar = social(device).data.accounts[2]
    assert omar.muted and omar.blocked and not omar.following
    assert social(device).data.accounts[3].blocked is False


def test_muted_words_hide_posts(device: Device) -> None:
    tap(device, id="muted_words")
    fill(device, "new_word", "spoiler")
    tap(device, id="add_word")
    press(device, "back")
    assert not shown(device, id="post_3")
    assert [w.word for w in social(device).data.muted_words] == ["spoiler"]


def test_direct_message(device: Device) -> None:
    tap(device, id="nav_messages")
    tap(device, "Omar Haddad", kind="list_item")
    fill(device, "composer", "Yes, at ten")
    tap(device, id="send")
    last = social(device).data.dms.values()[-1]
    assert (last.handle, last.text, last.outgoing) == ("omar", "Yes, at ten", True)


def test_check_app() -> None:
    report = check_app(SocialApp, 1500)
    assert report.steps == 1500

"""On a zh-CN phone the seeded people have Chinese mobile numbers (+86 136 0415 0123: 11
digits from 13x to 19x) and Chinese mail addresses (digits at qq.com, 163.com, 126.com), the
same draws as en-US; a number matches typed with or without +86 and spaces."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from phone_gym.mockapps import APPS, REGISTRY
from phone_gym.mockapps.contacts.fixtures import zh_email, zh_phone
from phone_gym.tasks.task import Episode
from phone_gym.verifiers.answers import match_answer
from phone_gym.verifiers.criteria import national, same_phone
from phone_gym.world import Device

MOBILE = re.compile(r"(\+86 ?)?1[3-9]\d( ?\d{4}){2}")
MAIL = re.compile(r"\d{8,10}@(qq|163|126)\.com")
PEOPLE = [t for t in ("ContactsAddContact", "ContactsLookupPhone", "ContactsEditPhone",
                      "SimpleSmsResend", "SimpleSmsReply", "SimpleSmsSend")]


def values(value: Any, key: str = "") -> Iterator[tuple[str, str]]:
    """``(key, text)`` of every string in params."""
    if isinstance(value, str):
        yield key, value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from values(v, k)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from values(v, key)


@pytest.mark.parametrize("template_id", PEOPLE)
def test_zh_people_have_chinese_numbers_and_mail(template_id: str) -> None:
    for seed in range(3):
        zh = Episode(REGISTRY.template(template_id), Device(APPS, locale="zh-CN"),
                     np.random.default_rng(seed)).params
        en = Episode(REGISTRY.template(template_id), Device(APPS),
                     np.random.default_rng(seed)).params
        numbers = [v for k, v in values(zh) if k in ("phone", "number", "number2")
                   or re.fullmatch(r"\+?[\d ]{10,}", v)]
        assert numbers
        assert all(MOBILE.fullmatch(n) for n in numbers), numbers
        assert all(MAIL.fullmatch(v) for k, v in values(zh) if k == "email" and v)
        en_numbers = [v for k, v in values(en) if k in ("phone", "number", "number2")]
        assert all(n.startswith("+1") for n in en_numbers)  # en-US unchanged


def test_chinese_numbers_keep_distinct_numbers_apart() -> None:
    us = [f"+1 {a}-555-01{s:02d}" for a in ("415", "212", "718") for s in range(100)]
    assert len({zh_phone(n) for n in us}) == len(us)
    assert zh_phone("+1 415-555-0123") == "+86 136 0415 0123"
    assert zh_phone("+14155550123") == "+8613604150123"
    assert MAIL.fullmatch(zh_email("chloe.tanaka@example.net"))
    assert zh_email("someone@work.cn") == "someone@work.cn"


@pytest.mark.parametrize("typed", ["13604150123", "136 0415 0123", "+8613604150123",
                                   "+86 136 0415 0123"])
def test_a_chinese_number_matches_with_or_without_86(typed: str) -> None:
    for expected in ("+86 136 0415 0123", "+8613604150123", "13604150123"):
        assert same_phone(expected)(typed)
        assert match_answer("phone", expected, f"号码是{typed}。")[0]
        assert national(typed) == national(expected)
    assert not same_phone("+86 136 0415 0123")("13604150124")
    assert not match_answer("phone", "+86 136 0415 0123", "13604150124")[0]

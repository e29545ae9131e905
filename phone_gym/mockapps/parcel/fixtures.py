"""Public fixtures of the Parcel Delivery mini-program: couriers, an address book and
parcels with their timelines."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import date, timedelta
from typing import Any

import numpy as np

from ...tasks.task import data_catalogue
from ...tasks.vocab import pick
from ...world.locale import DEFAULT_LOCALE, MissingString
from ..chat.fixtures import DATA as CHAT_DATA
from .app import Contact, Courier, Parcel, ParcelApp

COURIERS = "apps.Parcel.couriers"
CONTACTS = "apps.Parcel.contacts"
PARCELS = "apps.Parcel.parcels"
LOCATION = "apps.Parcel.location"
COURIER_NAMES = ("SF Express", "ZTO Express", "YTO Express", "JD Logistics", "EMS",
                 "Yunda Express", "Best Express")
SENDERS = ("Taobao: Uniqlo", "JD.com", "Xiaomi Store", "Pinduoduo: Fresh Farm",
           "Taobao: Muji", "Dangdang Books", "Nike Official", "Apple Store")
STREETS = ("Wenhua St", "Renmin Rd", "Jiefang Rd", "Zhongshan Rd", "Binjiang Ave",
           "Xueyuan Rd")
CITIES = ("Hangzhou", "Shanghai", "Beijing", "Shenzhen", "Chengdu")


#: The seeded data in zh-CN (``strings/zh-CN.data.json``: couriers, shops, streets, cities,
#: timeline entries; people's names from Chat's): the fixtures write what they are given
#: and draw through ``datum``, so the same draws give a Chinese phone Chinese parcels.
DATA: dict[str, Any] = {"zh-CN": data_catalogue(__file__, "zh-CN")}
ADDRESS = re.compile(r"(\d+) (.+), (.+)")


def datum(state: Any, text: str) -> str:
    """The seeded text ``text`` in the phone's locale: as it is on an en-US phone (and the
    user's own "Me" everywhere); the data catalogue's entry otherwise, a street address
    "99 Xueyuan Rd, Shanghai" as 上海市学院路99号 (``MissingString`` when it has none)."""
    locale = getattr(state, "locale", DEFAULT_LOCALE)
    if locale == DEFAULT_LOCALE or text in ("", "Me"):
        return text
    table = {**CHAT_DATA[locale], **DATA[locale]}
    if text in table:
        return str(table[text])
    if text in table.values():  # a template's params in the locale already
        return text
    m = ADDRESS.fullmatch(text)
    if m and m[2] in table and m[3] in table:
        return f"{table[m[3]]}{table[m[2]]}{m[1]}号"
    raise MissingString(f"Parcel: no {locale} datum for {text!r} (add it to "
                        f"parcel/strings/{locale}.data.json)")


def parcel_app(state: Any) -> ParcelApp:
    app = state.app("Parcel")
    assert isinstance(app, ParcelApp)
    return app


def phone_number(rng: np.random.Generator) -> str:
    return "13" + "".join(str(int(d)) for d in rng.integers(0, 10, 9))


def street_address(rng: np.random.Generator) -> str:
    return f"{int(rng.integers(1, 300))} {pick(rng, STREETS)}, {pick(rng, CITIES)}"


def tracking(rng: np.random.Generator, courier: str) -> str:
    return courier[:2].upper() + "".join(str(int(d)) for d in rng.integers(0, 10, 10))


def add_courier(state: Any, name: str, base: int, per_kg: int, days: int) -> Courier:
    return parcel_app(state).data.couriers.new(name=datum(state, name), base=base,
                                               per_kg=per_kg, days=days)


def add_contact(state: Any, name: str, phone: str, address: str) -> Contact:
    return parcel_app(state).data.contacts.new(name=datum(state, name), phone=phone,
                                               address=datum(state, address))


def seed_couriers(state: Any, specs: Sequence[tuple[str, int, int, int]]) -> list[Courier]:
    """Couriers from ``(name, base cents, per-kg cents, days)`` specs."""
    return [add_courier(state, *spec) for spec in specs]


def add_parcel(state: Any, rng: np.random.Generator, today: date, *, direction: str,
               status: str, courier: str, sender: str = "Me", recipient: str = "Me",
               eta_days: int = 2, number: str = "", price: int = 0, address: str = "",
               phone: str = "") -> Parcel:
    """A parcel with a plausible timeline for its status (latest event first)."""
    eta = (today + timedelta(days=eta_days)).isoformat()
    stamps = [(today - timedelta(days=d)).isoformat() for d in (3, 2, 1, 0)]
    story = ["Shipped by sender", "Arrived at sorting center", "In transit to your city",
             "Out for delivery" if status == "Out for delivery" else "At local station"]
    if status == "Awaiting pickup":
        story = ["Order placed, waiting for the courier"]
    elif status == "Delivered":
        story = [*story[:3], "Delivered, signed by recipient"]
    events = tuple(f"{stamps[i]} 09:{10 + i * 7:02d} {datum(state, text)}"
                   for i, text in enumerate(story))[::-1]
    return parcel_app(state).data.parcels.new(
        number=number or tracking(rng, courier), direction=direction,
        courier=datum(state, courier), status=status, sender=datum(state, sender),
        recipient=datum(state, recipient), eta=eta,
        address=datum(state, address or street_address(rng)), phone=phone or phone_number(rng),
        price=price, events=events)


def rows(initial: Mapping[str, Any], path: str) -> list[Mapping[str, Any]]:
    app, table = path.split(".")[1:]
    got = initial.get("apps", {}).get(app, {}).get(table, {})
    return [r for r in got.values() if isinstance(r, Mapping)]

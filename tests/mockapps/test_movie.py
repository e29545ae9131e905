"""The Movie Tickets mini-program driven through phone actions: reached from WeChat, the
location prompt, showtime filters and sorting, the seat map (taken and couple seats), snacks
and coupons, paying with the WeChat Pay PIN, refunds and changes, the capsule."""

from __future__ import annotations

from datetime import timedelta

import numpy as np
import pytest
from driving import fill, open_app, press, shown, tap

from phone_gym.actions import PhoneAction
from phone_gym.mockapps import APPS
from phone_gym.mockapps.chat.fixtures import set_wallet
from phone_gym.mockapps.movie.app import MovieApp, couple_pair, order_total, showtimes
from phone_gym.mockapps.movie.fixtures import (
    add_cinema,
    add_coupon,
    add_film,
    add_show,
    add_ticket,
    random_taken,
    together,
)
from phone_gym.mockapps.movie.tasks import free_run
from phone_gym.testing import check_app
from phone_gym.world import Device
from phone_gym.world.state import WorldState


def movie_of(device: Device) -> MovieApp:
    app = device.app("Movie")
    assert isinstance(app, MovieApp)
    return app


@pytest.fixture
def device() -> Device:
    """One film at three cinemas tomorrow (and one the day after), a coupon; ¥1000 in the
    wallet, PIN 135790."""
    dev = Device(APPS)
    state = WorldState(dev)
    day = (dev.system.now.date() + timedelta(days=1)).isoformat()
    later = (dev.system.now.date() + timedelta(days=2)).isoformat()
    film = add_film(state, "Paper Dragons", "Animation", 96, 88, "G")
    add_film(state, "Quiet Rooms", "Horror", 99, 71, "R")
    near = add_cinema(state, "Jinyi Cinema", 1200, 44, ("Dolby",))
    far = add_cinema(state, "CGV Cinemas", 6500, 48, ("IMAX",))
    mid = add_cinema(state, "UME Cineplex", 2500, 41)
    add_show(state, film, near, day, "19:10", 5500, hall=2, taken=("E5", "E6"))
    add_show(state, film, far, day, "18:30", 4500, format="IMAX", hall=1)
    add_show(state, film, mid, day, "21:15", 6000, format="3D", hall=4)
    add_show(state, film, near, later, "20:30", 5500, hall=3)
    add_show(state, film, near, day, "22:00", 5500, hall=5)
    add_coupon(state, "¥20 off weekend", 2000, 10_000)
    set_wallet(state, 100_000, "135790")
    return dev


def to_film(device: Device, allow: bool = True) -> None:
    open_app(device, "Chat")
    tap(device, id="tab_discover")
    tap(device, id="mini_programs")
    tap(device, id="mini_movie")
    assert shown(device, id="button_allow")
    tap(device, id="button_allow" if allow else "button_dont_allow")
    tap(device, "Paper Dragons", kind="list_item")


def times(device: Device) -> list[str]:
    app = movie_of(device)
    return [s.time for s in showtimes(app.data, app.ui, 1)]


def test_location_prompt_and_showtime_filters(device: Device) -> None:
    to_film(device)
    assert movie_of(device).data.location == "allowed"
    assert times(device) == ["18:30", "19:10", "21:15", "22:00"]
    tap(device, id="tab_lowest_price")
    assert times(device) == ["18:30", "19:10", "22:00", "21:15"]
    tap(device, id="chip_within_5_km")
    assert times(device) == ["19:10", "22:00", "21:15"]
    tap(device, id="chip_3d")
    assert times(device) == ["21:15"]
    tap(device, id="chip_3d")
    tap(device, id="tab_top_rated")
    assert times(device)[0] == "19:10"
    assert shown(device, "4 showtimes") is False and shown(device, "3 showtimes")


def test_denied_location_hides_distances_until_allowed(device: Device) -> None:
    to_film(device, allow=False)
    assert movie_of(device).data.location == "denied"
    tap(device, id="chip_within_3_km")
    assert shown(device, id="button_allow")  # asked again
    tap(device, id="button_allow")
    tap(device, id="chip_within_3_km")
    assert times(device) == ["19:10", "21:15", "22:00"]


def test_seats_pay_and_refund(device: Device) -> None:
    to_film(device)
    tap(device, id="show_1")
    tap(device, id="seat_E5")  # taken: nothing happens
    assert movie_of(device).ui.seats == ()
    tap(device, id="seat_G3")  # a couple seat: its pair comes along
    assert movie_of(device).ui.seats == ("G3", "G4")
    tap(device, id="seat_G4")
    assert movie_of(device).ui.seats == ()
    tap(device, id="seat_D4")
    tap(device, id="seat_D5")
    tap(device, id="confirm_seats")
    tap(device, id="snacks")
    tap(device, "Popcorn & Cola", kind="radio")
    tap(device, id="coupon")
    tap(device, "¥20 off weekend", kind="radio")
    assert shown(device, "Total ¥125.00")
    tap(device, id="pay")
    fill(device, "pay_pin", "000000")
    press(device, "back")
    tap(device, id="button_pay")
    assert shown(device, "Incorrect PIN") and not list(movie_of(device).data.tickets)
    fill(device, "pay_pin", "135790")
    press(device, "back")
    tap(device, id="button_pay")
    [ticket] = list(movie_of(device).data.tickets)
    assert (ticket.seats, ticket.snack, ticket.coupon, ticket.total, ticket.hall) == (
        ("D4", "D5"), "Popcorn & Cola", "¥20 off weekend", 12_500, 2)
    assert device.system.wallet.balance == 87_500
    assert movie_of(device).data.coupons.get(1).used  # type: ignore[union-attr]
    assert {"D4", "D5"} <= set(movie_of(device).data.shows.get(1).taken)  # type: ignore[union-attr]
    assert shown(device, id="loading") and not shown(device, id="refund_ticket")
    device.step(PhoneAction("wait", seconds=30))
    assert shown(device, id="loading")
    device.step(PhoneAction("wait", seconds=30))
    assert shown(device, f"Ticket code {ticket.code}")
    tap(device, id="refund_ticket")
    tap(device, id="button_refund")
    assert movie_of(device).data.tickets.get(ticket.id).status == "refunded"  # type: ignore[union-attr]
    assert device.system.wallet.balance == 100_000
    assert "D4" not in movie_of(device).data.shows.get(1).taken  # type: ignore[union-attr]


def test_change_to_a_later_show_and_no_refund_close_to_the_show(device: Device) -> None:
    state = WorldState(device)
    app = movie_of(device)
    ticket = add_ticket(state, app.data.shows.get(1), ["C3", "C4"])  # type: ignore[arg-type]
    open_app(device, "Chat")
    tap(device, id="tab_discover")
    tap(device, id="mini_programs")
    tap(device, id="mini_movie")
    tap(device, id="button_allow")
    tap(device, id="tab_my_tickets")
    tap(device, id=f"ticket_{ticket.id}")
    tap(device, id="change_ticket")
    assert shown(device, id="option_" + "_".join(
        app.data.shows.get(5).day.split("-")) + "_22_00_2d_hall_5")  # type: ignore[union-attr]
    tap(device, kind="radio", text=f"{app.data.shows.get(5).day} 22:00 · 2D · Hall 5")  # type: ignore[union-attr]
    tap(device, id="seat_A1")
    tap(device, id="seat_A2")
    tap(device, id="confirm_seats")
    tap(device, id="button_change")
    changed = app.data.tickets.get(ticket.id)
    assert changed is not None and (changed.show, changed.time, changed.hall, changed.seats,
                                    changed.changed) == (5, "22:00", 5, ("A1", "A2"), True)
    assert "C3" not in app.data.shows.get(1).taken  # type: ignore[union-attr]
    assert not shown(device, id="change_ticket")  # once only
    device.system.now = device.system.now.replace(hour=0, minute=0) + timedelta(
        days=1, hours=21, minutes=30)
    tap(device, id="capsule_close")
    tap(device, id="mini_movie")
    tap(device, id="tab_my_tickets")
    tap(device, id=f"ticket_{ticket.id}")
    assert not shown(device, id="refund_ticket")  # within an hour of 22:00


def test_capsule_closes_back_to_wechat(device: Device) -> None:
    to_film(device)
    tap(device, id="capsule_close")
    assert device.foreground == "Chat" and shown(device, id="mini_movie")


def test_helpers() -> None:
    rng = np.random.default_rng(0)
    taken = random_taken(rng, keep=("D3", "D4", "D5"))
    assert not {"D3", "D4", "D5"} & set(taken)
    run = free_run({"rows": 7, "cols": 10, "taken": taken}, 3)
    assert together(run, 3) and not together(["D3", "D5"], 2) and not together("D3", 1)
    assert together(["E4", "E5"], 2, "E") and not together(["E4", "F5"], 2)
    show = movie_of_app().data.shows.new(film=1, cinema=1, day="2026-01-01", time="10:00",
                                          format="2D", language="English", hall=1, price=5000)
    assert couple_pair(show, "G4") == ("G3", "G4") and couple_pair(show, "F4") == ("F4",)
    assert order_total(show, 2, "Nachos combo", None) == 14_200


def movie_of_app() -> MovieApp:
    return movie_of(Device(APPS))


def test_check_app() -> None:
    assert check_app("Movie", 1500).steps == 1500

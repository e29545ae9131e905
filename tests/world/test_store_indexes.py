"""Indexes kept on write (``Table.grouping``, ``Listing`` reversed) follow every add, edit and
delete, and equal both a fresh rebuild and the whole-table computation the screens did before."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

from phone_gym.mockapps.files.app import (
    categories,
    category_of,
    list_folder,
    move_file,
    rename_file,
)
from phone_gym.mockapps.messages.app import conversation, conversations
from phone_gym.mockapps.phone.app import recent_calls
from phone_gym.world.data import Grouping, Journal, Listing, Ordered, Table, total
from phone_gym.world.system import File, Message, SystemState, message_order, thread_key


@dataclass(frozen=True)
class Item:
    id: int
    group: str
    rank: int


def group_of(item: Item) -> str | None:
    return None if item.group == "none" else item.group


def rank_of(item: Item) -> int:
    return item.rank


def brute(table: Table[Item]) -> dict[str, list[Item]]:
    """Groups as a whole-table pass computes them (ties in insertion order)."""
    out: dict[str, list[Item]] = {}
    for item in table:
        if group_of(item) is not None:
            out.setdefault(item.group, []).append(item)
    return {g: sorted(items, key=rank_of) for g, items in out.items()}


def same(grouping: Grouping[Item], table: Table[Item]) -> None:
    want = brute(table)
    assert {g: grouping.members(g) for g in want} == want
    assert {g: list(grouping.view(g)) for g in want} == want
    assert len(grouping) == len(want)
    # groups by their last member, highest first (that member's rank, then insertion order)
    seq = {item.id: i for i, item in enumerate(table)}
    ranked = sorted(want, key=lambda g: (rank_of(want[g][-1]), seq[want[g][-1].id]),
                    reverse=True)
    assert list(grouping.ranked()) == ranked
    assert list(grouping.ranked(newest_first=False)) == ranked[::-1]
    rebuilt: Grouping[Item] = Grouping(group_of, rank_of)
    rebuilt.attach(table)
    assert {g: rebuilt.members(g) for g in want} == {g: grouping.members(g) for g in want}
    assert list(rebuilt.ranked()) == list(grouping.ranked())


def test_grouping_follows_adds_edits_and_deletes() -> None:
    table: Table[Item] = Table(kind=Item)
    table.new(group="a", rank=5)
    grouping = table.grouping("g", group_of, rank_of)  # made over existing records
    rng = np.random.default_rng(7)
    for step in range(400):
        op = int(rng.integers(4))
        keys = table.keys()
        if op == 0 or not keys:
            table.new(group=str(rng.choice(["a", "b", "c", "none"])), rank=int(rng.integers(9)))
        elif op == 1:
            table.update(keys[int(rng.integers(len(keys)))], rank=int(rng.integers(9)))
        elif op == 2:
            table.update(keys[int(rng.integers(len(keys)))],
                         group=str(rng.choice(["a", "b", "d", "none"])))
        else:
            table.remove(keys[int(rng.integers(len(keys)))])
        if step % 20 == 0:
            same(grouping, table)
    same(grouping, table)
    assert table.grouping("g", group_of, rank_of) is grouping  # one per name
    assert grouping.members("unknown") == [] and grouping.last("unknown") is None
    assert "unknown" not in grouping


def test_grouping_and_listing_names_do_not_mix() -> None:
    table: Table[Item] = Table(kind=Item)
    table.index("x", rank_of)
    with pytest.raises(ValueError, match="Listing"):
        table.grouping("x", group_of, rank_of)
    table.grouping("y", group_of, rank_of)
    with pytest.raises(ValueError, match="Grouping"):
        table.index("y", rank_of)


def test_listing_reverse_view_and_ordered() -> None:
    table: Table[Item] = Table(kind=Item)
    for i in range(10):
        table.new(group="a" if i % 2 else "b", rank=(i * 7) % 10)
    listing: Listing[Item] = table.index("by_rank", lambda r: r.rank,
                                         text=lambda r: r.group)
    table.update(3, rank=42)
    table.remove(4)
    want = sorted(table, key=lambda r: (r.rank, str(r.id)))
    assert list(listing.view(table)) == want
    back = listing.view(table, reverse=True)
    assert list(back) == want[::-1]
    assert back[-1] == want[0] and back[2:5] == want[::-1][2:5]
    assert back[::-2] == want[::-1][::-2]
    with pytest.raises(IndexError):
        back[len(want)]
    assert list(listing.view(table, "a", reverse=True)) == [r for r in want if r.group == "a"][::-1]
    assert isinstance(back, Ordered)


def old_conversations(system: SystemState) -> list[tuple[str, str, tuple[Message, ...]]]:
    """The Messages list as the screen built it before: every message, every step."""
    groups: dict[str, list[Message]] = {}
    for m in system.messages:
        if m.box != "draft":
            groups.setdefault(thread_key(m.address), []).append(m)
    names = {thread_key(c.phone): c.name for c in system.contacts if c.phone}
    out = []
    for key, found in groups.items():
        found.sort(key=message_order)
        out.append((key, names.get(key, found[-1].address), tuple(found)))
    out.sort(key=lambda c: message_order(c[2][-1]), reverse=True)
    return out


def test_thread_index_equals_a_rebuild_of_every_conversation() -> None:
    system = SystemState()
    system.attach(Journal())
    system.threads()
    system.numbers()
    rng = np.random.default_rng(3)
    numbers = ["+1 415-555-0101", "4155550101", "+1 212-555-0199", "555-0123", "Bank"]
    for step in range(300):
        op = int(rng.integers(5))
        ids = system.messages.keys()
        if op <= 1 or not ids:
            system.messages.new(address=str(rng.choice(numbers)), body=f"m{step}",
                                date=f"2026-10-{1 + int(rng.integers(9)):02d}T10:00:00",
                                box=str(rng.choice(["inbox", "sent", "draft"])),
                                read=bool(rng.integers(2)))
        elif op == 2:
            system.messages.update(ids[int(rng.integers(len(ids)))], read=True,
                                   address=str(rng.choice(numbers)))
        elif op == 3:
            system.messages.remove(ids[int(rng.integers(len(ids)))])
        else:
            contacts = system.contacts.keys()
            if contacts and rng.integers(2):
                system.contacts.remove(contacts[int(rng.integers(len(contacts)))])
            else:
                system.add_contact(f"Person {step}", str(rng.choice(numbers + [""])))
        if step % 25 == 0 or step == 299:
            want = old_conversations(system)
            got = [(c.key, c.name, c.messages) for c in conversations(system)]
            assert got == want
            for key, name, messages in want:
                found = conversation(system, key)
                assert found is not None and found.messages == messages and found.name == name


def test_folder_and_category_indexes_follow_renames_moves_and_deletes() -> None:
    system = SystemState()
    system.attach(Journal())
    system.folders()
    cats = categories(system.files)
    for i in range(30):
        folder = ("Download", "Documents", "Pictures")[i % 3]
        ext = ("txt", "jpg", "PDF", "mp3")[i % 4]
        system.write_file(f"/sdcard/{folder}/f{(i * 13) % 30:02d}.{ext}", f"data {i}")
    system.write_file("/data/app/x.txt", "private")
    assert rename_file(system.files, "/sdcard/Download/f00.txt", "Zed.txt") is None
    assert move_file(system.files, "/sdcard/Documents/f13.jpg", "/sdcard/Download/") is None
    system.files.remove("/sdcard/Pictures/f26.jpg")
    system.write_file("/sdcard/Pictures/f26.jpg", "back")
    for folder in ("/sdcard/Download/", "/sdcard/Documents/", "/sdcard/Pictures/",
                   "/data/app/", "/sdcard/Music/"):
        assert [f.path for f in system.folders().view(folder)] == \
            list_folder(system.files, folder)
    for label in {category_of(f) for f in system.files} - {""}:
        want = sorted((f for f in system.files if f.path.startswith("/sdcard/")
                       and category_of(f) == label),
                      key=lambda f: (f.name.casefold(), f.path))
        assert list(cats.view(label)) == want
    assert not any(f.path.startswith("/data/") for label in ("Documents", "Images")
                   for f in cats.view(label))


def test_recent_calls_follow_the_log() -> None:
    system = SystemState()
    system.attach(Journal())
    recent_calls(system)
    dates = [f"2026-10-0{d}T09:00:00" for d in (3, 1, 2, 2, 5)]
    for i, date in enumerate(dates):
        system.calls.new(number=f"555-01{i:02d}", date=date)
    system.calls.update(2, date="2026-10-09T00:00:00")
    system.calls.remove(4)
    want: list[Any] = sorted(system.calls, key=lambda c: (c.date, c.id), reverse=True)
    assert list(recent_calls(system)) == want
    assert recent_calls(system)[0].id == 2


def test_files_record_listing_is_a_file_table() -> None:
    files: Table[File] = Table(kind=File, key="path")
    files.put(File("/sdcard/a.txt", "x"))
    assert categories(files).members("Documents") == [files["/sdcard/a.txt"]]


@dataclass(frozen=True)
class Named:
    id: int = 0
    name: str = ""


def test_listing_search_follows_writes_and_rewinds_without_rebuilding() -> None:
    """A search after writes finds what a scan of every record finds, in order; the joined
    search text made at ``mark`` is kept while few records change (they are tested one by
    one), so a search after one edit of 1,000 records reads that edit, not every record."""
    rng = np.random.default_rng(3)
    words = ["ann", "bob", "anna", "cab", "nab", "ob"]

    def name() -> str:
        return f"{rng.choice(words)} {rng.choice(words)}"

    table: Table[Named] = Table(kind=Named)
    listing = table.index("by_name", lambda r: (r.name, r.id), lambda r: r.name)
    for _ in range(1000):
        table.new(name=name())
    table.mark()
    joined = listing._blob
    assert joined is not None  # made at the mark, not at the first search
    table.update(5, name="zz top")
    assert [r.id for r in listing.view(table, "ZZ")] == [5]
    assert [r.id for r in listing.view(table, "ob")] == sorted(
        (r.id for r in table if "ob" in r.name), key=lambda k: (table[k].name, k))
    assert listing._blob is joined  # one edit: the joined text kept
    for step in range(200):
        op, keys = rng.random(), table.keys()
        if op < 0.3:
            table.new(name=name())
        elif op < 0.5:
            table.remove(keys[int(rng.integers(len(keys)))])
        elif op < 0.8:
            table.update(keys[int(rng.integers(len(keys)))], name=name() + name())
        elif op < 0.83:
            table.rewind()
        query = str(rng.choice([*words, "AN", "b a", "zz"]))
        want = sorted((r for r in table if query.casefold() in r.name.casefold()),
                      key=lambda r: (r.name, r.id))
        assert list(listing.view(table, query)) == want, step


def test_rewind_after_a_record_added_and_removed_since_the_mark() -> None:
    table: Table[Named] = Table(kind=Named)
    table.new(name="kept")
    table.mark()
    added = table.new(name="gone again")
    table.remove(added.id)
    table.rewind()
    assert [r.name for r in table] == ["kept"] and table.next_id == 2


@dataclass(frozen=True)
class Spend:
    id: int = 0
    kind: str = ""
    amount: int = 0


def test_listing_totals_are_kept_on_write_and_rewind() -> None:
    """``Listing.total`` (a list's total line: expenses, tracks) follows adds, edits,
    deletes and a rewind, for the whole table and a listing that keeps some records."""
    rng = np.random.default_rng(5)
    table: Table[Spend] = Table(kind=Spend)
    every = table.index("all", lambda r: r.id)
    food = table.index("food", lambda r: r.id, keep=lambda r: r.kind == "food")
    assert every.total("amount") == 0 and food.total("amount") == 0  # asked before writes
    for _ in range(300):
        table.new(kind=str(rng.choice(["food", "rent"])), amount=int(rng.integers(1, 999)))
    table.mark()
    for step in range(200):
        op, keys = rng.random(), table.keys()
        if op < 0.3:
            table.new(kind="food", amount=int(rng.integers(1, 999)))
        elif op < 0.5:
            table.remove(keys[int(rng.integers(len(keys)))])
        elif op < 0.9:
            table.update(keys[int(rng.integers(len(keys)))], amount=int(rng.integers(999)),
                         kind=str(rng.choice(["food", "rent"])))
        else:
            table.rewind()
        assert every.view(table).total("amount") == sum(r.amount for r in table), step
        assert total(food.view(table), "amount") == \
            sum(r.amount for r in table if r.kind == "food"), step
    assert total([Spend(1, "x", 5), Spend(2, "y", 7)], "amount") == 12


def test_song_indexes_equal_parsing_and_sorting_every_file() -> None:
    """Retro Music's library (``songs_of``, ``titled``, the home page's total, a search)
    read from indexes kept on the files table equals the whole-table pass it replaced
    (parse every file in /sdcard/Music, sort by title then path; a title's first song for
    the player, its last for a playlist's lengths), through writes, renames and rewinds."""
    from phone_gym.mockapps.music.app import (
        MUSIC_DIR,
        is_song,
        parse_song,
        song_file,
        song_index,
        song_seconds,
        songs_of,
        titled,
    )

    rng = np.random.default_rng(11)
    titles = ["Blue Hour", "blue hour", "Copper Rain", "Amber", "Ämber", "Glass"]
    files: Table[File] = Table(kind=File, key="path")

    def write() -> None:
        title = str(rng.choice(titles))
        path, text = song_file(title, str(rng.choice(["Juno", "Mira Straße"])),
                               int(rng.integers(60, 400)))
        where = str(rng.choice([MUSIC_DIR, MUSIC_DIR, "/sdcard/Download"]))
        name = f"{title} {int(rng.integers(40))}.{rng.choice(['mp3', 'MP3', 'txt'])}"
        files.put(File(f"{where}/{name}", text if rng.random() < 0.9 else "no tags"))

    for _ in range(100):
        write()
    files.mark()
    for step in range(120):
        op, keys = rng.random(), files.keys()
        if op < 0.4:
            write()
        elif op < 0.6:
            files.remove(keys[int(rng.integers(len(keys)))])
        elif op < 0.95:
            old = files[keys[int(rng.integers(len(keys)))]]
            files.put(File(old.path, old.content.replace("duration: ", "duration: 1")))
        else:
            files.rewind()
        every = sorted((parse_song(f) for f in files if is_song(f)),
                       key=lambda s: (s.title.lower(), s.path))
        assert list(songs_of(files)) == every, step
        assert songs_of(files)[1:3] == every[1:3]
        listing, _ = song_index(files)
        assert listing.total("seconds", song_seconds) == sum(s.seconds for s in every)
        first = {s.title: s for s in reversed(every)}
        last = {s.title: s for s in every}
        for title in titles:
            assert titled(files, title) == first.get(title), (step, title)
            assert titled(files, title, last=True) == last.get(title), (step, title)
        q = str(rng.choice(["blue", "ämber", "ss", "STRASSE", "juno"])).strip().lower()
        want = [s.title for s in every if q in s.title.lower() or q in s.artist.lower()]
        found = [s for s in map(parse_song, listing.view(files, q))
                 if q in s.title.lower() or q in s.artist.lower()]
        assert [s.title for s in found] == want, (step, q)


def test_shop_order_indexes_equal_sorting_and_scanning() -> None:
    """Shop's order list (newest first) and an order's lines (``lines_of``) read from indexes
    kept on write equal the sort and the scan of every line they replaced."""
    from phone_gym.mockapps.shop.app import ShopData, lines_of, newest_orders

    rng = np.random.default_rng(12)
    data = ShopData()

    def order() -> None:
        o = data.orders.new(number="1", total=1, card_id=1, address_id=1,
                            placed=f"2026-0{int(rng.integers(1, 4))}-1{int(rng.integers(10))}",
                            arrives="2026-05-01")
        for _ in range(int(rng.integers(1, 4))):
            data.order_lines.new(order_id=o.id, product_id=int(rng.integers(9)))

    for _ in range(100):
        order()
    data.orders.mark()
    data.order_lines.mark()
    for step in range(150):
        op = rng.random()
        if op < 0.4:
            order()
        elif op < 0.6:
            keys = data.order_lines.keys()
            data.order_lines.remove(keys[int(rng.integers(len(keys)))])
        elif op < 0.9:
            keys = data.order_lines.keys()
            data.order_lines.update(keys[int(rng.integers(len(keys)))],
                                    order_id=int(rng.integers(1, 20)))
        else:
            data.orders.rewind()
            data.order_lines.rewind()
        assert list(newest_orders(data)) == sorted(data.orders, key=lambda o: (o.placed, o.id),
                                                   reverse=True), step
        by_order: dict[int, list[Any]] = {}
        for line in data.order_lines:  # what ``where(order_id=...)`` finds, for every order
            by_order.setdefault(line.order_id, []).append(line)
        for o in data.orders:
            assert list(lines_of(data, o.id)) == by_order.get(o.id, []), step


def other_app_orders() -> list[tuple[str, Any, Any, dict[str, Any]]]:
    """(app, its data, ``newest_orders``, an order's fields) of the apps whose order lists
    read ``newest_orders`` (newest first by id; Delivery's by the time placed)."""
    from phone_gym.mockapps.delivery import app as delivery
    from phone_gym.mockapps.foodorder import app as foodorder
    from phone_gym.mockapps.meituan import app as meituan
    from phone_gym.mockapps.pinduoduo import app as pinduoduo
    from phone_gym.mockapps.taobao import app as taobao

    return [
        ("Delivery", delivery.DeliveryData(), delivery.newest_orders,
         {"restaurant_id": 1, "ref": "4101", "address": "Home", "tip_percent": 15, "total": 1}),
        ("FoodOrder", foodorder.FoodData(), foodorder.newest_orders,
         {"restaurant": 1, "restaurant_name": "A", "items": (), "address": "Home", "total": 1}),
        ("Meituan", meituan.MeituanData(), meituan.newest_orders,
         {"shop": 1, "shop_name": "A", "items": (), "address": "家", "total": 1, "eta": "12:00"}),
        ("Pinduoduo", pinduoduo.PddData(), pinduoduo.newest_orders,
         {"product": 1, "product_name": "A", "kind": "单独购买", "price": 1}),
        ("Taobao", taobao.TaobaoData(), taobao.newest_orders,
         {"product": 1, "title": "A", "sku": "x", "qty": 1, "total": 1, "shop": "S"}),
    ]


@pytest.mark.parametrize("case", range(5))
def test_other_apps_order_lists_equal_sorting(case: int) -> None:
    """Delivery's, Food Order's, 美团's, 拼多多's and 淘宝's order lists (``newest_orders``,
    an index kept on write) equal the sort of every order per frame they replaced, through
    orders added, changed, removed and rewound to a mark."""
    app, data, newest, fields = other_app_orders()[case]
    rng = np.random.default_rng(case)

    def sort_key(o: Any) -> Any:  # what the screens sorted by, newest first
        if app == "Delivery":
            return data.placed.get(o.id, "2000-01-01T00:00:00"), o.id
        return o.id

    def order() -> None:
        if app == "Delivery":  # the time first, as the app and its fixtures write it
            data.placed[data.orders.next_id] = f"2026-05-{int(rng.integers(1, 29)):02d}T12:00:00"
        data.orders.new(**fields)

    newest(data)  # made at install, as ``make_indexes`` does
    for _ in range(60):
        order()
    data.orders.mark()
    for step in range(120):
        op = rng.random()
        if op < 0.4:
            order()
        elif op < 0.6 and data.orders:
            keys = data.orders.keys()
            data.orders.remove(keys[int(rng.integers(len(keys)))])
        elif op < 0.9 and data.orders:
            keys = data.orders.keys()
            money = "price" if "price" in fields else "total"
            data.orders.update(keys[int(rng.integers(len(keys)))],
                               **{money: int(rng.integers(9))})
        else:
            data.orders.rewind()
        shown = newest(data)
        assert list(shown) == sorted(data.orders, key=sort_key, reverse=True), (app, step)
        assert [shown[i] for i in range(len(shown))] == list(shown)


def test_gallery_albums_equal_scanning_every_file() -> None:
    """Gallery's albums and an album's pictures (``album_index``, a grouping kept on write)
    equal the scans of every file they replaced, through pictures and other files written,
    renamed, removed and rewound to a mark."""
    from phone_gym.mockapps.gallery.app import (
        album_label,
        album_pictures,
        albums,
        is_image,
        rename_picture,
    )

    rng = np.random.default_rng(5)
    system = SystemState()
    files = system.files
    names = ["a.jpg", "B.png", "c.txt", "Ä.webp", "d.JPG", "e", "f.gif"]
    folders = ["/sdcard/DCIM", "/sdcard/DCIM/Camera", "/sdcard/Pictures", "/sdcard/Download"]

    def write() -> None:
        name = f"{int(rng.integers(30))}{names[int(rng.integers(len(names)))]}"
        mime = "image/png" if rng.random() < 0.1 else "text/plain"
        system.write_file(f"{folders[int(rng.integers(len(folders)))]}/{name}", "x", mime)

    albums(files)  # made before the writes, as ``index_system`` does at a reset
    for _ in range(80):
        write()
    files.mark()
    for step in range(150):
        op = rng.random()
        keys = files.keys()
        if op < 0.4 or not keys:
            write()
        elif op < 0.6:
            files.remove(keys[int(rng.integers(len(keys)))])
        elif op < 0.8:
            rename_picture(files, keys[int(rng.integers(len(keys)))], f"r{step}.jpg")
        else:
            files.rewind()
        every = list(files)
        found = {f.folder for f in every if is_image(f)}
        assert albums(files) == sorted(found, key=lambda d: (album_label(d).casefold(), d))
        for folder in folders:
            want = sorted((f.path for f in every if f.folder == folder and is_image(f)),
                          key=lambda p: (p.rsplit("/", 1)[-1].casefold(), p))
            assert album_pictures(files, folder) == want, (step, folder)

"""Cross-app templates on the Chinese work and music apps: a leave request 元宝 (Yuanbao)
writes, submitted as a 钉钉 (DingTalk) 审批; a song a WeChat friend recommends, collected
into a 网易云音乐 (NeteaseMusic) playlist; a 钉钉 日程 copied into the phone's calendar.
Chinese instructions; the apps through their public ``fixtures`` only.

The leave check reads the reply in the final state (``families.assistant.HoldsReply``): the
approval's 事由 must be exactly the leave request 元宝 wrote for these dates, so a stale
clipboard or a reason typed by hand fails.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from datetime import datetime
from typing import Any

import numpy as np

from ..actions import PhoneAction
from ..mockapps.assistant import fixtures as yuanbao
from ..mockapps.chat.fixtures import say, seed_social
from ..mockapps.dingtalk import fixtures as ding
from ..mockapps.neteasemusic import fixtures as music
from ..tasks.driver import Driver, OracleError
from ..tasks.families import EditRecord
from ..tasks.task import Task
from ..tasks.vocab import pick
from ..verifiers import Allowed, Becomes, Matcher
from .common import new_event
from .families.assistant import YuanbaoHandoff, ask_yuanbao, reply_id
from .families.calendar import an_event
from .families.consistency import Ask, Consistency
from .families.wechat import NAMES, ZhTask, asked


class CrossYuanbaoLeaveToDingTalk(ZhTask, YuanbaoHandoff):
    """The paper's leave request, taken to work: 元宝 writes it, 钉钉 submits it as a 请假
    审批 with the dates and its text as the 事由. The clipboard holds an older request."""

    apps = ("Yuanbao", "DingTalk")
    tags = frozenset({"handoff"})
    template = ("在元宝里发送“{prompt}”，然后在钉钉提交一个{leave_type}的请假审批，日期是{start}"
                "到{end}，请假事由粘贴元宝写好的请假条。")
    complexity, max_steps = 3, 28
    collection, field, kind = ding.APPROVALS, "reason", "leave"

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        month, day = int(rng.integers(10, 12)), int(rng.integers(16, 26))
        last = day + int(rng.integers(1, 4))
        start, end = yuanbao.md(month, day), yuanbao.md(month, last)
        reason, stale = pick(rng, yuanbao.REASONS, 2)
        return {"office": ding.sample_office(rng), "start": start, "end": end,
                "first": f"2026-{month:02d}-{day:02d}", "last": f"2026-{month:02d}-{last:02d}",
                "reason": reason, "stale": stale,
                "leave_type": pick(rng, ("年假", "事假", "病假", "调休")),
                "prompt": yuanbao.leave_prompt(start, end, reason)}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        ding.write_office(state, params["office"])
        old = yuanbao.ask_assistant(state, yuanbao.leave_prompt(
            params["start"], params["end"], params["stale"]))
        state.set_clipboard(old.text)

    def where(self, p: Mapping[str, Any]) -> dict[str, Any]:
        return {"kind": "请假", "applicant": ding.ME, "leave_type": p["leave_type"],
                "start": p["first"], "end": p["last"], "status": "审批中"}

    def parts(self, p: Mapping[str, Any]) -> tuple[str, ...]:
        return (f"{p['start']}至{p['end']}", f"因{p['reason']}，")

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ask_yuanbao(ui, p["prompt"])
        ui.why("复制元宝刚写好的请假条")
        yield from ui.tap(id=f"copy_{reply_id(ui, p['start'], p['end'], p['reason'])}")
        yield from ding.open_approvals(ui, "发起申请")
        yield from ui.tap(id="new_leave")
        yield from ui.tap(p["leave_type"], kind="chip")
        yield from ui.fill("start", p["start"])
        yield from ui.fill("end", p["end"])
        yield from ui.long_press(id="reason", kind="text_field")
        yield from ui.tap(ui.system_label("Paste"), kind="menu_item")
        yield from ui.press("back")
        yield from ui.tap(id="submit")
        yield from ui.finish()


RECOMMEND = re.compile(r"《(.+?)》")


class CrossWeChatSongToPlaylist(ZhTask, EditRecord):
    """A friend recommends a song in WeChat (by title, in 《》); it goes into the named
    网易云音乐 playlist, after the two songs there. Playing it on the way is allowed."""

    apps = ("Chat", "NeteaseMusic")
    tags = frozenset({"handoff"})
    template = "{friend}在微信上给我推荐了一首歌，把它收藏到网易云音乐的“{playlist}”歌单里。"
    complexity, max_steps = 3, 18
    collection = music.PLAYLISTS

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        songs = music.sample_songs(rng, 8)
        index, a, b = (int(i) for i in rng.choice(len(songs), 3, replace=False))
        friends = pick(rng, NAMES, 3)
        return {"songs": songs, "index": index, "kept": [a, b], "friend": friends[0],
                "friends": list(friends), "playlist": pick(rng, music.PLAYLIST_NAMES),
                "title": songs[index]["title"], "artist": songs[index]["artist"]}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        chats = seed_social(state, rng, params["friends"])
        say(state, chats[params["friend"]], params["friend"],
            f"推荐你听{params['artist']}的《{params['title']}》，超好听！", time="11:20")
        made = list(music.write_songs(state, params["songs"]).values())
        music.add_playlist(state, params["playlist"], [made[i] for i in params["kept"]])

    def target(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"name": p["playlist"]}

    def changes(self, p: Mapping[str, Any]) -> Mapping[str, Any]:
        want = [i + 1 for i in p["kept"]] + [p["index"] + 1]
        return {"songs": Matcher(lambda v: isinstance(v, (list, tuple)) and list(v) == want,
                                 f"the songs {want}")}

    def allowed(self, params: Mapping[str, Any],
                initial: Mapping[str, Any]) -> Sequence[Allowed]:
        song = params["index"] + 1
        return [*super().allowed(params, initial),
                Becomes(music.NOW_PLAYING, Matcher(lambda v: v == song, f"song {song}"))]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        title = (yield from asked(ui, p["friend"], RECOMMEND)).group(1)
        ui.why(f"{p['friend']}推荐的是《{title}》")
        yield from music.play_song(ui, title)
        yield from ui.tap(id="collect")
        yield from ui.tap(id=music.playlist_id(ui, p["playlist"]))
        yield from ui.finish()


class CrossDingScheduleToCalendar(ZhTask, Consistency):
    """A 钉钉 日程 copied into the phone's calendar: an event of the same title, day and
    times."""

    apps = ("DingTalk", "Calendar")
    tags = frozenset({"handoff"})
    template = "把钉钉里“{title}”这个日程加到手机日历里，标题、日期和时间都和钉钉一致。"
    complexity, max_steps = 3, 30
    extends = False

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        office = ding.sample_office(rng)
        index = int(rng.integers(len(office["events"])))
        e = office["events"][index]
        return {"office": office, "index": index, "title": e["title"]}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        ding.write_office(state, params["office"])

    def asks(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> list[Ask]:
        e = p["office"]["events"][p["index"]]
        return [an_event(p["title"], datetime.fromisoformat(f"{e['day']}T{e['start']}"),
                         datetime.fromisoformat(f"{e['day']}T{e['end']}"))]

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        yield from ding.to_tab(ui, "工作台")
        yield from ui.tap(id="schedule")
        row = ding.row_of(ui, "event_", p["title"])
        when = ui.must(id=row.replace("event_", "when_")).text
        found = re.fullmatch(r"(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2})-(\d{2}:\d{2})", when)
        if found is None:
            raise OracleError(f"no day and times in {when!r}")
        day, t0, t1 = found.groups()
        ui.why(f"“{p['title']}”在{day} {t0}-{t1}")
        yield from new_event(ui, p["title"], datetime.fromisoformat(f"{day}T{t0}"),
                             datetime.fromisoformat(f"{day}T{t1}"))
        yield from ui.finish()


TEMPLATES: list[Task] = [
    CrossYuanbaoLeaveToDingTalk(), CrossWeChatSongToPlaylist(), CrossDingScheduleToCalendar(),
]

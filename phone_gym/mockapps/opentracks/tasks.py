"""Counterparts of AndroidWorld's OpenTracks information-retrieval tasks: counts, categories,
durations and distances of recorded activities on a day, this week or between two days.

Every template seeds its target activities plus decoys that miss the question's condition
(the same category on other days, other categories on the same days), so only reading the
right activities answers it. AndroidWorld accepts distances within 10 m; here distances are
whole tens of meters that the app shows exactly (``5.23 km``), so the answer in meters must
be exact (a tolerance would let a value one meter off pass, which the judge matrix forbids).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from datetime import date, datetime, timedelta
from typing import Any, ClassVar

import numpy as np

from ...actions import PhoneAction
from ...tasks.aw import AW_START, AW_TODAY, day_phrase, sample_phrasing, week_of
from ...tasks.driver import Driver, OracleError
from ...tasks.families import Lookup, scan
from ...tasks.task import Task, data_catalogue, localize_data
from ...tasks.vocab import Draws, pick
from ...world.app import app_strings
from .app import CATEGORIES, OpenTracksApp
from .fixtures import activity_sizes, random_activity, start_day, start_on, write_activity

Row = dict[str, Any]
DECOYS = 20  # decoy activities per phone, as AndroidWorld's
MONDAY, SUNDAY = week_of(AW_TODAY)  # this week: Oct 9-15 2023


def iso(day: date) -> str:
    return day.isoformat()


def when(day: date, how: str) -> str:
    phrase = day_phrase(day, how)
    return phrase if phrase in ("today", "tomorrow") else f"on {phrase}"


def named_day(phrase: str, today: date) -> date:
    """The day an instruction names (``today``, ``on October 5``), from the phone's date:
    the day before or on ``today`` that ``when`` names so."""
    for back in range(60):
        day = today - timedelta(days=back)
        if any(when(day, how) == phrase for how in ("date", "date_year", "relative")):
            return day
    raise OracleError(f"no day before {today} is {phrase!r}")


class TracksLookup(Lookup):
    """A question about the recorded activities: ``targets`` answer it; decoys (random
    ones, or ``near`` ones sharing part of the condition) are those ``hit`` rejects."""

    apps = ("OpenTracks",)
    start = AW_START
    complexity, max_steps = 1, 10
    answer_type = "number"
    span: ClassVar[tuple[int, int]] = (-21, 0)  # days around AW's today decoys start on
    filter_category = True  # the oracle filters the list by the category first
    #: The activities' names and notes in zh-CN (their categories stay the app's keys: the
    #: app shows them in its words).
    data = {"zh-CN": data_catalogue(__file__, "zh-CN")}

    def localize_params(self, params: dict[str, Any], table: Mapping[str, str]
                        ) -> dict[str, Any]:
        """Names and notes in Chinese; ``kind_shown``, the category as the zh-CN app names
        it (跑步), for the instruction and the oracle."""
        p: dict[str, Any] = localize_data(params, table)
        if "category" in p:
            p["kind_shown"] = app_strings(OpenTracksApp, "zh-CN").t(p["category"])
        return p

    def localize(self, params: Mapping[str, Any], locale: str) -> Mapping[str, Any]:
        """The category in the instruction as the app names it (跑步)."""
        return {**params, "kind": params["kind_shown"]} if "kind_shown" in params else params

    def category_asked(self, p: Mapping[str, Any]) -> str:
        """The category the instruction names (a zh-CN one read back to the app's key)."""
        if "kind_shown" in p:
            return category_named(p["kind_shown"])
        return str(p["category"])

    def question(self, rng: np.random.Generator) -> dict[str, Any]:
        category = pick(rng, CATEGORIES)
        return {"category": category, "kind": category.lower()}

    def targets(self, rng: np.random.Generator, q: Mapping[str, Any]) -> list[Row]:
        raise NotImplementedError

    def hit(self, row: Row, q: Mapping[str, Any]) -> bool:
        raise NotImplementedError

    def forced(self, fields: Row, q: Mapping[str, Any]) -> bool:
        """Whether ``fields`` alone make an activity a ``hit`` (a decoy of them is never
        found: its 100 tries' draws are made, no activity built)."""
        return False

    def near(self, rng: np.random.Generator, q: Mapping[str, Any]) -> list[Row]:
        return []

    def answer(self, targets: list[Row], q: Mapping[str, Any]) -> Any:
        raise NotImplementedError

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        q = self.question(rng)
        first, last = (AW_TODAY + timedelta(days=d) for d in self.span)
        targets = [{**random_activity(rng, first, last), **fields}
                   for fields in self.targets(rng, q)]
        decoys: list[Row] = []
        kinds = [*self.near(rng, q), *({} for _ in range(DECOYS))][:DECOYS]
        with Draws(rng) as draw:  # the decoys' draws fetched in bulk: the same numbers
            draw.reserve(8 * 10 * len(kinds))  # 8 an activity; most tries are redrawn
            sizes = activity_sizes(first, last)
            for fields in kinds:
                if self.forced(fields, q):
                    draw.skip(sizes, 100)
                    continue
                for _ in range(100):
                    row = {**random_activity(draw, first, last), **fields}
                    if not self.hit(row, q):
                        decoys.append(row)
                        break
        rows = targets + decoys
        order = [int(i) for i in rng.permutation(len(rows))]
        return {**q, "rows": [rows[i] for i in order], "answer": self.answer(targets, q)}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        for row in params["rows"]:
            write_activity(state, **row)

    def expected(self, p: Mapping[str, Any]) -> Any:
        return p["answer"]

    def candidates(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> list[Any]:
        key = "duration_min" if "duration" in self.id.lower() else "distance_m"
        return list(dict.fromkeys(r[key] for r in p["rows"]))

    def asked(self, p: Mapping[str, Any]) -> dict[str, Any]:
        """The question's terms as ``hit`` takes them, from the instruction (and the phone's
        date for "today" and "this week"): default, the category."""
        return {"category": self.category_asked(p)}

    def since(self, q: Mapping[str, Any]) -> str | None:
        """The first day (ISO) the question reaches back to: the list, newest first, is read
        down to the first row before it (``None``: to its end)."""
        return None

    def answers(self, row: Row, q: Mapping[str, Any]) -> bool:
        """Whether a row the list shows answers the question (default: ``hit``)."""
        return self.hit(row, q)

    def tell(self, rows: list[Row], q: Mapping[str, Any]) -> str:
        """The answer from the rows (as ``activities_shown`` reads them) that ``hit``
        keeps."""
        raise NotImplementedError

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        q = self.asked(p)
        ui.why("Opening OpenTracks: each row of its list shows the activity's category, "
               "start, duration and distance")
        yield from ui.open_app("OpenTracks")
        for category in CATEGORIES:  # filter by the task's category (or by none)
            chip = ui.find(id=chip_id(category))
            wanted = self.filter_category and category == q["category"]
            if chip is not None and chip.checked != wanted:
                ui.why(f"Showing only the {category} activities" if wanted else
                       f"Clearing the {category} filter to see every activity")
                yield from ui.tap(id=chip_id(category))
        oldest = self.since(q)
        ui.why("Reading every row of the list (newest first), scrolling to its end"
               if oldest is None else
               f"Reading the rows (newest first) down to the first one before {oldest}")
        read = yield from scan(ui, activities_shown, until=None if oldest is None else (
            lambda rows: any(r["day"] < oldest for r in rows.values())))
        rows = [r for r in read.values() if self.answers(r, q)]
        ui.why(f"Of the {len(read)} activities read, {len(rows)} answer the question"
               + "".join(f"; {r['name']}: {r['category']} on {r['day']}, "
                         f"{r['duration_min']} min, {r['distance_m']} m" for r in rows))
        yield from ui.answer(self.tell(rows, q))


def category_named(word: str) -> str:
    """The category key the zh-CN app shows as ``word`` (跑步: Running)."""
    strings = app_strings(OpenTracksApp, "zh-CN").strings
    return next(c for c in CATEGORIES if strings[c] == word)


def activities_shown(ui: Driver) -> dict[int, Row]:
    """The activity rows on screen now, as the list shows them: ``{id: {"name", "category",
    "start", "day", "duration_min", "distance_m"}}`` from each row's title and its second
    line (``Climbing · Thu, Oct 12, 2023 06:15 · 1:40 h · 18.48 km``; in zh-CN ``攀岩 ·
    2023年10月12日 周四 06:15 · 1:40 小时 · 18.48 公里``, the category read back to its key)."""
    words = {v: k for k, v in app_strings(OpenTracksApp, "zh-CN").strings.items()
             if k in CATEGORIES}
    rows: dict[int, Row] = {}
    for e in ui.elements():
        key, _, tail = e.short_id.partition("_")
        parts = e.hint.split(" · ")
        if key != "activity" or not tail.isdigit() or len(parts) != 4:
            continue
        category, started, duration, distance = parts
        if category in words:
            zh = re.fullmatch(r"(\d+)年(\d+)月(\d+)日 周. (\d\d):(\d\d)", started)
            if zh is None:
                raise OracleError(f"an activity's start reads {started!r}")
            year, month, day, hour, minute = (int(x) for x in zh.groups())
            start = datetime(year, month, day, hour, minute)
            category = words[category]
        else:
            start = datetime.strptime(started, "%a, %b %d, %Y %H:%M")
        km = distance.removesuffix(" km").removesuffix(" 公里")
        rows[int(tail)] = {"name": e.text, "category": category,
                           "start": start.isoformat(timespec="minutes"),
                           "day": iso(start.date()), "duration_min": read_minutes(duration),
                           "distance_m": round(float(km) * 1000)}
    return rows


def read_minutes(text: str) -> int:
    """A duration as the app shows it (``1:40 h``, ``45 min``; ``1:40 小时``, ``45 分钟``)
    in minutes."""
    if text.endswith((" h", " 小时")):
        hours, minutes = text.removesuffix(" h").removesuffix(" 小时").split(":")
        return int(hours) * 60 + int(minutes)
    return int(text.removesuffix(" min").removesuffix(" 分钟"))


def chip_id(category: str) -> str:
    return f"chip_{category.lower().replace(' ', '_')}"


def this_week(row: Row) -> bool:
    return MONDAY <= start_day(row) <= SUNDAY


def week_days(rng: np.random.Generator, k: int) -> list[date]:
    return [MONDAY + timedelta(days=int(rng.integers(0, 7))) for _ in range(k)]


class SportsTrackerActivitiesCountForWeek(TracksLookup):
    template = ("In OpenTracks, how many {kind} activities did I record this week "
                "(Monday to today)? Answer with the number.")
    locales = ("en-US", "zh-CN")
    instructions = {"zh-CN": "在 OpenTracks 里，我这周（周一到今天）记录了几次{kind}？请回答次数。"}
    answer_type, answer_field = "count", "count"

    def question(self, rng: np.random.Generator) -> dict[str, Any]:
        return {**super().question(rng), "count": int(rng.integers(1, 5))}

    def targets(self, rng: np.random.Generator, q: Mapping[str, Any]) -> list[Row]:
        return [{"category": q["category"], "start": start_on(d, rng)}
                for d in week_days(rng, q["count"])]

    def hit(self, row: Row, q: Mapping[str, Any]) -> bool:
        return bool(row["category"] == q["category"] and this_week(row))

    def near(self, rng: np.random.Generator, q: Mapping[str, Any]) -> list[Row]:
        return [{"category": q["category"]}, {"category": q["category"]},
                {"start": start_on(AW_TODAY, rng)}]

    def answer(self, targets: list[Row], q: Mapping[str, Any]) -> Any:
        return len(targets)

    derivations = {"answer": "the count of the listed activities of the category started "
                             "Monday to today"}

    def tell(self, rows: list[Row], q: Mapping[str, Any]) -> str:
        return str(len(rows))

    def since(self, q: Mapping[str, Any]) -> str | None:
        return iso(MONDAY)

    def candidates(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> list[Any]:
        rows = p["rows"]
        return [len(rows), sum(this_week(r) for r in rows),
                sum(r["category"] == p["category"] for r in rows), p["answer"] + 1]


class SportsTrackerActivitiesOnDate(TracksLookup):
    template = ("In OpenTracks, which kinds of activity did I record {when}? Answer with "
                "their categories.")
    answer_type = "set"
    complexity, max_steps = 2, 20
    span = (-21, -2)  # Sep 24 - Oct 13 2023
    filter_category = False

    def question(self, rng: np.random.Generator) -> dict[str, Any]:
        day = AW_TODAY + timedelta(days=int(rng.integers(-21, -1)))
        return {"day": iso(day), "when": when(day, sample_phrasing(rng)),
                "categories": pick(rng, CATEGORIES, 2)}

    def targets(self, rng: np.random.Generator, q: Mapping[str, Any]) -> list[Row]:
        day = date.fromisoformat(q["day"])
        return [{"category": c, "start": start_on(day, rng)} for c in q["categories"]]

    def hit(self, row: Row, q: Mapping[str, Any]) -> bool:
        return iso(start_day(row)) == q["day"]

    def near(self, rng: np.random.Generator, q: Mapping[str, Any]) -> list[Row]:
        day = date.fromisoformat(q["day"])
        return [{"start": start_on(day + timedelta(days=1), rng)},
                {"start": start_on(day - timedelta(days=1), rng)}]

    def answer(self, targets: list[Row], q: Mapping[str, Any]) -> Any:
        return [r["category"] for r in targets]

    def candidates(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> list[Any]:
        return list(dict.fromkeys(r["category"] for r in p["rows"]
                                  if r["category"] not in p["answer"]))

    def asked(self, p: Mapping[str, Any]) -> dict[str, Any]:
        return {"day": iso(named_day(p["when"], self.start.date()))}

    def since(self, q: Mapping[str, Any]) -> str | None:
        return str(q["day"])

    def tell(self, rows: list[Row], q: Mapping[str, Any]) -> str:
        return ", ".join(dict.fromkeys(r["category"] for r in rows))


class SportsTrackerActivityDuration(TracksLookup):
    template = ("In OpenTracks, how many minutes did my {kind} activity {when} last? "
                "Answer with the number of minutes.")
    max_steps = 12
    span = (-10, 0)  # Oct 5-15 2023
    derivations = {"answer": "the duration the activity's row shows (h:mm or min), in "
                             "minutes"}

    def asked(self, p: Mapping[str, Any]) -> dict[str, Any]:
        return {"category": p["category"],
                "day": iso(named_day(p["when"], self.start.date()))}

    def since(self, q: Mapping[str, Any]) -> str | None:
        return str(q["day"])

    def answers(self, row: Row, q: Mapping[str, Any]) -> bool:
        return bool(row["category"] == q["category"] and row["day"] == q["day"])

    def tell(self, rows: list[Row], q: Mapping[str, Any]) -> str:
        if len(rows) != 1:
            raise OracleError(f"{len(rows)} {q['category']} activities on {q['day']}")
        return str(rows[0]["duration_min"])

    def question(self, rng: np.random.Generator) -> dict[str, Any]:
        day = AW_TODAY + timedelta(days=int(rng.integers(-10, 1)))
        return {**super().question(rng), "day": iso(day),
                "when": when(day, sample_phrasing(rng))}

    def targets(self, rng: np.random.Generator, q: Mapping[str, Any]) -> list[Row]:
        return [{"category": q["category"],
                 "start": start_on(date.fromisoformat(q["day"]), rng)}]

    def hit(self, row: Row, q: Mapping[str, Any]) -> bool:
        return bool(row["category"] == q["category"] or iso(start_day(row)) == q["day"])

    def forced(self, fields: Row, q: Mapping[str, Any]) -> bool:
        return bool(fields.get("category") == q["category"]
                    or ("start" in fields and iso(start_day(fields)) == q["day"]))

    def near(self, rng: np.random.Generator, q: Mapping[str, Any]) -> list[Row]:
        return [{"category": q["category"]}, {"start": start_on(date.fromisoformat(q["day"]),
                                                                rng)}]

    def answer(self, targets: list[Row], q: Mapping[str, Any]) -> Any:
        return targets[0]["duration_min"]


class SportsTrackerLongestDistanceActivity(TracksLookup):
    template = ("In OpenTracks, what was the longest distance I covered in one {kind} "
                "activity this week (Monday to today)? Answer in meters.")
    locales = ("en-US", "zh-CN")
    instructions = {"zh-CN": "在 OpenTracks 里，我这周（周一到今天）单次{kind}最远是多少距离？"
                             "请以米为单位回答。"}

    def targets(self, rng: np.random.Generator, q: Mapping[str, Any]) -> list[Row]:
        k = int(rng.integers(1, 4))
        return [{"category": q["category"], "start": start_on(d, rng)}
                for d in week_days(rng, k)]

    def hit(self, row: Row, q: Mapping[str, Any]) -> bool:
        return bool(row["category"] == q["category"] and this_week(row))

    def near(self, rng: np.random.Generator, q: Mapping[str, Any]) -> list[Row]:
        return [{"category": q["category"], "distance_m": 24_990},
                {"start": start_on(AW_TODAY, rng), "distance_m": 24_980}]

    def answer(self, targets: list[Row], q: Mapping[str, Any]) -> Any:
        return max(r["distance_m"] for r in targets)

    derivations = {"answer": "the largest distance (km) among the listed activities of the "
                             "category this week, in meters"}

    def tell(self, rows: list[Row], q: Mapping[str, Any]) -> str:
        return str(max(r["distance_m"] for r in rows))

    def since(self, q: Mapping[str, Any]) -> str | None:
        return iso(MONDAY)


class SportsTrackerTotalDistanceForCategoryOverInterval(TracksLookup):
    template = ("In OpenTracks, what total distance did my {kind} activities cover from "
                "{first} to {last} (both included)? Answer in meters.")
    complexity, max_steps = 2, 22
    derivations = {"answer": "the sum of the distances (km) of the listed activities of the "
                             "category in the interval, in meters"}

    def asked(self, p: Mapping[str, Any]) -> dict[str, Any]:
        return {"category": p["category"], "first_day": p["first_day"],
                "last_day": p["last_day"]}

    def since(self, q: Mapping[str, Any]) -> str | None:
        return str(q["first_day"])

    def tell(self, rows: list[Row], q: Mapping[str, Any]) -> str:
        return str(sum(r["distance_m"] for r in rows))

    def question(self, rng: np.random.Generator) -> dict[str, Any]:
        first = date(2023, 10, int(rng.integers(1, 10)))
        last = date(2023, 10, int(rng.integers(10, 16)))
        return {**super().question(rng), "first_day": iso(first), "last_day": iso(last),
                "first": day_phrase(first, "date"), "last": day_phrase(last, "date")}

    def inside(self, row: Row, q: Mapping[str, Any]) -> bool:
        return q["first_day"] <= iso(start_day(row)) <= q["last_day"]

    def targets(self, rng: np.random.Generator, q: Mapping[str, Any]) -> list[Row]:
        first, last = date.fromisoformat(q["first_day"]), date.fromisoformat(q["last_day"])
        days = [first + timedelta(days=int(rng.integers(0, (last - first).days + 1)))
                for _ in range(2)]
        return [{"category": q["category"], "start": start_on(d, rng)} for d in days]

    def hit(self, row: Row, q: Mapping[str, Any]) -> bool:
        return bool(row["category"] == q["category"] and self.inside(row, q))

    def near(self, rng: np.random.Generator, q: Mapping[str, Any]) -> list[Row]:
        first, last = date.fromisoformat(q["first_day"]), date.fromisoformat(q["last_day"])
        return [{"category": q["category"], "start": start_on(first - timedelta(days=1), rng)},
                {"category": q["category"], "start": start_on(last + timedelta(days=1), rng)}
                if last < AW_TODAY else {"category": q["category"]},
                {"start": start_on(first, rng)}]

    def answer(self, targets: list[Row], q: Mapping[str, Any]) -> Any:
        return sum(r["distance_m"] for r in targets)


class SportsTrackerTotalDurationForCategoryThisWeek(TracksLookup):
    template = ("In OpenTracks, how many minutes of {kind} did I record in total this "
                "week (Monday to today)? Answer with the number of minutes.")
    locales = ("en-US", "zh-CN")
    instructions = {"zh-CN": "在 OpenTracks 里，我这周（周一到今天）一共记录了多少分钟的{kind}？"
                             "请回答分钟数。"}
    complexity, max_steps = 2, 16
    derivations = {"answer": "the sum of the durations of the listed activities of the "
                             "category this week, in minutes"}

    def tell(self, rows: list[Row], q: Mapping[str, Any]) -> str:
        return str(sum(r["duration_min"] for r in rows))

    def since(self, q: Mapping[str, Any]) -> str | None:
        return iso(MONDAY)

    def targets(self, rng: np.random.Generator, q: Mapping[str, Any]) -> list[Row]:
        return [{"category": q["category"], "start": start_on(d, rng)}
                for d in week_days(rng, 2)]

    def hit(self, row: Row, q: Mapping[str, Any]) -> bool:
        return bool(row["category"] == q["category"] and this_week(row))

    def near(self, rng: np.random.Generator, q: Mapping[str, Any]) -> list[Row]:
        return [{"category": q["category"]}, {"category": q["category"]},
                {"start": start_on(AW_TODAY, rng)}]

    def answer(self, targets: list[Row], q: Mapping[str, Any]) -> Any:
        return sum(r["duration_min"] for r in targets)


TEMPLATES: list[Task] = [
    SportsTrackerActivitiesCountForWeek(), SportsTrackerActivitiesOnDate(),
    SportsTrackerActivityDuration(), SportsTrackerLongestDistanceActivity(),
    SportsTrackerTotalDistanceForCategoryOverInterval(),
    SportsTrackerTotalDurationForCategoryThisWeek(),
]

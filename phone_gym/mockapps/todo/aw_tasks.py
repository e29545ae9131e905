"""Counterparts of AndroidWorld's information-retrieval tasks on its Tasks app (org.tasks):
questions about due dates, priorities and completion dates among a few dozen tasks.

Every template seeds its target tasks plus random decoys that miss the question's condition
(decoys that would make the question ambiguous, such as a completed task due on the asked
day when the question is about tasks due that day, are never drawn), so only reading the
right rows answers it. Days are said as AndroidWorld says them (``aw.day_phrase``) against
its fixed clock (``AW_START``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from datetime import date, timedelta
from typing import Any, ClassVar

import numpy as np

from ...actions import PhoneAction
from ...tasks.aw import AW_START, AW_TODAY, PHRASINGS, day_phrase, sample_phrasing, week_of
from ...tasks.driver import Driver, OracleError
from ...tasks.families import Lookup, scan
from ...tasks.vocab import pick
from .app import MONTHS, NO_PRIORITY, PRIORITIES
from .fixtures import write_item

Row = dict[str, Any]

#: Task titles (none holds a list separator) and notes, as AndroidWorld's pools go.
AW_TITLES = ("Buy groceries", "Call the bank", "Pay electricity bill", "Renew car insurance",
             "Schedule dentist visit", "Finish quarterly report", "Book hotel room",
             "Prepare slides", "Water the garden", "Return rental car", "Email the landlord",
             "Submit expense report", "Order printer ink", "Clean the fridge",
             "Update project plan", "Pick up dry cleaning", "Review pull request",
             "Plan team lunch", "Fix leaking tap", "Buy birthday card", "Cancel magazine",
             "Walk the dog", "Read chapter five", "Backup laptop", "Sign permission slip",
             "Replace air filter", "Study for exam", "Call the plumber", "Mow the lawn",
             "Send thank-you notes")
NOTES = ("Check the receipt first", "Needs two people", "Ask Maria for the details",
         "Before the meeting", "Bring the blue folder", "Use the company card",
         "Online is faster", "Low effort", "Remember the password", "Follow up next week",
         "Takes about an hour", "Only on weekdays")
TIMES = ("08:00", "09:30", "10:00", "11:15", "12:00", "13:45", "14:00", "15:30", "16:00",
         "17:15", "18:00", "19:30", "20:00")
DECOYS = 20  # decoy tasks per phone, as AndroidWorld's


def iso(day: date) -> str:
    return day.isoformat()


def when(day: date, how: str) -> str:
    """``today``, ``tomorrow``, ``this Friday`` or ``on October 20``."""
    phrase = day_phrase(day, how)
    return phrase if phrase in ("today", "tomorrow") or phrase.startswith("this ") \
        else f"on {phrase}"


def random_task(rng: np.random.Generator, title: str) -> Row:
    """A task with random fields: due within a week before to two weeks after AW's today
    (or none), some done (completed in the week before today)."""
    due = "" if rng.random() < 0.15 else iso(AW_TODAY + timedelta(days=int(rng.integers(-7,
                                                                                           15))))
    done = bool(rng.random() < 0.3)
    completed = iso(AW_TODAY - timedelta(days=int(rng.integers(0, 8)))) if done else ""
    return {"title": title, "note": pick(rng, NOTES), "done": done, "due": due,
            "due_time": pick(rng, TIMES) if due else "", "priority": int(rng.integers(0, 4)),
            "completed": completed, "hide_until": ""}


def items_shown(ui: Driver) -> dict[int, Row]:
    """The task rows on screen now, as the list shows them: ``{id: {"title", "done",
    "due", "due_time", "priority", "completed"}}`` from each row's title, its second line
    (``Due Oct 22, 2023 18:00 · High priority · Completed Oct 9, 2023``) and its box."""
    rows: dict[int, Row] = {}
    for e in ui.elements():
        key, _, tail = e.short_id.partition("_")
        if not tail.isdigit():
            continue
        if key == "item":
            rows[int(tail)] = {"title": e.text, **read_subtitle(e.hint)}
        elif key == "done" and int(tail) in rows:
            rows[int(tail)]["done"] = e.checked
    return rows


def read_subtitle(line: str) -> Row:
    """A row's second line as fields (days as ISO dates, the priority as its index)."""
    row: Row = {"due": "", "due_time": "", "priority": NO_PRIORITY, "completed": ""}
    for part in line.split(" · "):
        if part.startswith("Due "):
            words = part[4:].split()
            row["due"] = read_day(" ".join(words[:3]))
            row["due_time"] = words[3] if len(words) > 3 else ""
        elif part.startswith("Completed "):
            row["completed"] = read_day(part[len("Completed "):])
        elif part.endswith(" priority") and part[:-9] in PRIORITIES:
            row["priority"] = PRIORITIES.index(part[:-9])
    return row


def read_day(text: str) -> str:
    """``Oct 22, 2023`` as ``2023-10-22`` ("" when it is not a day)."""
    try:
        month, day, year = text.replace(",", "").split()
        return date(int(year), MONTHS.index(month) + 1, int(day)).isoformat()
    except ValueError:
        return ""


def named_day(phrase: str, today: date) -> date:
    """The day an instruction names (``today``, ``this Friday``, ``on October 20``), from
    the phone's date: the day near ``today`` that the phrasing names so."""
    for delta in range(-30, 31):
        day = today + timedelta(days=delta)
        if any(when(day, how) == phrase for how in PHRASINGS):
            return day
    raise OracleError(f"no day near {today} is {phrase!r}")


class TasksLookup(Lookup):
    """A question about the tasks on the phone: ``targets`` rows (answering it) and decoys
    (random, or ``near`` ones sharing part of the condition) that ``hit`` rejects; rows that
    ``ambiguous`` holds are never drawn."""

    apps = ("Todo",)
    start = AW_START
    complexity, max_steps = 1, 10
    answer_type = "set"
    tab: ClassVar[str] = ""  # the id of the tab (or chip) the oracle opens before answering

    def question(self, rng: np.random.Generator) -> dict[str, Any]:
        """The question's own params."""
        return {}

    def targets(self, rng: np.random.Generator, q: Mapping[str, Any]) -> list[Row]:
        raise NotImplementedError

    def hit(self, row: Row, q: Mapping[str, Any]) -> bool:
        raise NotImplementedError

    def ambiguous(self, row: Row, q: Mapping[str, Any]) -> bool:
        return False

    def near(self, rng: np.random.Generator, q: Mapping[str, Any]) -> list[Row]:
        """Partial rows of decoys that share part of the condition."""
        return []

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        q = self.question(rng)
        titles = pick(rng, AW_TITLES, DECOYS + 6)
        targets = []
        for fields in self.targets(rng, q):
            targets.append({**random_task(rng, titles.pop()), **fields})
        decoys: list[Row] = []
        wanted = [*self.near(rng, q), *({} for _ in range(DECOYS))][:DECOYS]
        for fields in wanted:
            title = titles.pop()
            for _ in range(100):
                row = {**random_task(rng, title), **fields}
                if not self.hit(row, q) and not self.ambiguous(row, q):
                    decoys.append(row)
                    break
        rows = targets + decoys
        order = [int(i) for i in rng.permutation(len(rows))]
        return {**q, "rows": [rows[i] for i in order],
                "answer": [r["title"] for r in targets]}

    def setup(self, state: Any, params: Mapping[str, Any], rng: np.random.Generator) -> None:
        for row in params["rows"]:
            write_item(state, **row)

    def expected(self, p: Mapping[str, Any]) -> Any:
        return list(p["answer"])

    def candidates(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> list[Any]:
        return [r["title"] for r in p["rows"] if r["title"] not in p["answer"]]

    def say(self, p: Mapping[str, Any]) -> str:
        return ", ".join(p["answer"])

    def asked(self, p: Mapping[str, Any]) -> dict[str, Any]:
        """The question's terms, as ``hit`` takes them, from the instruction and the
        phone's date (default: none)."""
        return {}

    def tell(self, titles: list[str]) -> str:
        """The answer from the titles of the rows that answer the question."""
        return ", ".join(titles)

    def oracle(self, ui: Driver, p: Mapping[str, Any]) -> Iterator[PhoneAction]:
        ui.why("Opening Tasks: each row shows its due date, priority and completion")
        yield from ui.open_app("Todo")
        if self.tab.startswith("tab_"):  # a filter of the side drawer
            ui.why(f"Showing only the {self.tab[4:]} tasks, from the side drawer")
            yield from ui.tap(desc="Open navigation drawer")
            yield from ui.tap(id=self.tab)
        elif self.tab and not ui.must(id=self.tab).checked:
            ui.why("Filtering the list to high-priority tasks")
            yield from ui.tap(id=self.tab)
        q = self.asked(p)
        ui.why("Reading every row of the list, scrolling to its end")
        rows = yield from scan(ui, items_shown)
        titles = [r["title"] for r in rows.values()
                  if self.hit({"done": False, **r}, q)]
        ui.why(f"Of the {len(rows)} tasks listed, {len(titles)} answer the question: "
               + (", ".join(titles) or "none"))
        yield from ui.answer(self.tell(titles))


class TasksCountLookup(TasksLookup):
    """A question answered with a count."""

    answer_type, answer_field = "count", "count"

    def expected(self, p: Mapping[str, Any]) -> Any:
        return len(p["answer"])

    def candidates(self, p: Mapping[str, Any], initial: Mapping[str, Any]) -> list[Any]:
        n = len(p["answer"])
        return [len(p["rows"]), sum(not r["done"] for r in p["rows"]), n + 1, n]

    def say(self, p: Mapping[str, Any]) -> str:
        return str(len(p["answer"]))

    def tell(self, titles: list[str]) -> str:
        return str(len(titles))


class DayQuestion(TasksLookup):
    """A question about one day: ``first``..``last`` days after AW's today."""

    first, last = 0, 14

    def question(self, rng: np.random.Generator) -> dict[str, Any]:
        day = AW_TODAY + timedelta(days=int(rng.integers(self.first, self.last + 1)))
        return {"day": iso(day), "when": when(day, sample_phrasing(rng))}

    def asked(self, p: Mapping[str, Any]) -> dict[str, Any]:
        """The day the instruction names, from the phone's date."""
        return {"day": iso(named_day(p["when"], self.start.date()))}


class TasksCompletedTasksForDate(DayQuestion):
    template = "In Tasks, which tasks were completed {when}? Answer with their titles."
    first, last = -5, 0  # a completion date is never in the future
    tab = "tab_completed"

    def targets(self, rng: np.random.Generator, q: Mapping[str, Any]) -> list[Row]:
        return [{"done": True, "completed": q["day"]} for _ in range(3)]

    def hit(self, row: Row, q: Mapping[str, Any]) -> bool:
        return bool(row["done"]) and row["completed"] == q["day"]

    def near(self, rng: np.random.Generator, q: Mapping[str, Any]) -> list[Row]:
        return [{"done": False, "completed": "", "due": q["day"]}, {"done": True}]


class TasksDueNextWeek(TasksCountLookup):
    template = ("In Tasks, how many tasks are due next week (Monday to Sunday)? "
                "Answer with the number.")
    max_steps = 12
    derivations = {"answer": "the count of the listed open tasks due Monday to Sunday of "
                             "next week"}

    def asked(self, p: Mapping[str, Any]) -> dict[str, Any]:
        """Next week, Monday to Sunday, from the phone's date."""
        monday, sunday = week_of(self.start.date() + timedelta(days=7))
        return {"monday": iso(monday), "sunday": iso(sunday)}

    def question(self, rng: np.random.Generator) -> dict[str, Any]:
        monday, sunday = week_of(AW_TODAY + timedelta(days=7))
        return {"monday": iso(monday), "sunday": iso(sunday),
                "count": int(rng.integers(2, 7))}

    def targets(self, rng: np.random.Generator, q: Mapping[str, Any]) -> list[Row]:
        monday = date.fromisoformat(q["monday"])
        return [{"done": False, "completed": "",
                 "due": iso(monday + timedelta(days=int(rng.integers(0, 7))))}
                for _ in range(q["count"])]

    def in_week(self, row: Row, q: Mapping[str, Any]) -> bool:
        return bool(row["due"]) and q["monday"] <= row["due"] <= q["sunday"]

    def hit(self, row: Row, q: Mapping[str, Any]) -> bool:
        return self.in_week(row, q) and not row["done"]

    def ambiguous(self, row: Row, q: Mapping[str, Any]) -> bool:
        return self.in_week(row, q)  # a done task due next week: does it count?

    def near(self, rng: np.random.Generator, q: Mapping[str, Any]) -> list[Row]:
        return [{"due": iso(AW_TODAY)}, {"due": iso(AW_TODAY + timedelta(days=8))}]


class TasksDueOnDate(DayQuestion):
    template = "In Tasks, which tasks are due {when}? Answer with their titles."

    def targets(self, rng: np.random.Generator, q: Mapping[str, Any]) -> list[Row]:
        return [{"due": q["day"], "done": False, "completed": "",
                 "priority": int(rng.integers(0, 3))} for _ in range(3)]

    def hit(self, row: Row, q: Mapping[str, Any]) -> bool:
        return bool(row["due"] == q["day"])

    def near(self, rng: np.random.Generator, q: Mapping[str, Any]) -> list[Row]:
        day = date.fromisoformat(q["day"])
        return [{"due": iso(day + timedelta(days=1))}, {"due": iso(day - timedelta(days=1))}]


class TasksHighPriorityTasks(TasksLookup):
    template = "In Tasks, which tasks have high priority? Answer with their titles."
    tab = "chip_high_priority"

    def targets(self, rng: np.random.Generator, q: Mapping[str, Any]) -> list[Row]:
        due = AW_TODAY + timedelta(days=int(rng.integers(1, 8)))
        hide = AW_TODAY - timedelta(days=int(rng.integers(0, 6)))
        return [{"priority": 0, "done": False, "completed": "", "due": iso(due),
                 "hide_until": iso(hide)}]

    def hit(self, row: Row, q: Mapping[str, Any]) -> bool:
        return bool(row["priority"] == 0)

    def near(self, rng: np.random.Generator, q: Mapping[str, Any]) -> list[Row]:
        return [{"priority": 1, "done": False}, {"priority": 1, "done": False}]


class TasksHighPriorityTasksDueOnDate(DayQuestion):
    template = "In Tasks, which high-priority tasks are due {when}? Answer with their titles."
    tab = "chip_high_priority"

    def targets(self, rng: np.random.Generator, q: Mapping[str, Any]) -> list[Row]:
        return [{"priority": 0, "due": q["day"], "done": False, "completed": ""}
                for _ in range(int(rng.integers(1, 3)))]

    def hit(self, row: Row, q: Mapping[str, Any]) -> bool:
        return bool(row["priority"] == 0 and row["due"] == q["day"])

    def near(self, rng: np.random.Generator, q: Mapping[str, Any]) -> list[Row]:
        return [{"due": q["day"], "priority": 1}, {"due": q["day"], "priority": 2},
                {"priority": 0}, {"priority": 0}]


class TasksIncompleteTasksOnDate(DayQuestion):
    template = ("In Tasks, which tasks due {when} are not completed yet? "
                "Answer with their titles.")
    tab = "tab_open"

    def targets(self, rng: np.random.Generator, q: Mapping[str, Any]) -> list[Row]:
        return [{"due": q["day"], "done": False, "completed": "",
                 "priority": int(rng.integers(0, 4))} for _ in range(int(rng.integers(1, 4)))]

    def hit(self, row: Row, q: Mapping[str, Any]) -> bool:
        return bool(row["due"] == q["day"] and not row["done"])

    def near(self, rng: np.random.Generator, q: Mapping[str, Any]) -> list[Row]:
        return [{"due": q["day"], "done": True, "completed": iso(AW_TODAY)},
                {"due": q["day"], "done": True, "completed": iso(AW_TODAY)}]


AW_TEMPLATES: list[Lookup] = [TasksCompletedTasksForDate(), TasksDueNextWeek(),
                              TasksDueOnDate(), TasksHighPriorityTasks(),
                              TasksHighPriorityTasksDueOnDate(), TasksIncompleteTasksOnDate()]

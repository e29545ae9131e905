"""AndroidWorld's information-retrieval tasks on Tasks (org.tasks), OpenTracks and Joplin,
and their phone-gym counterparts: the To-do app grown into the Tasks app (due dates and
times, priorities, completion and hide-until dates), and the new OpenTracks and Joplin apps.
All three keep their data privately (as the real apps keep SQLite databases), so these run
in PhoneWorld only. Answers are matched by type (titles as a set, counts, numbers, yes/no,
text), and dumping every value the phone shows fails."""

from __future__ import annotations

_DECOYS = "AndroidWorld's 20 random decoys, each missing the condition"

MAPPED: dict[str, tuple[str, str]] = {
    "TasksCompletedTasksForDate": (
        "TasksCompletedTasksForDate",
        "completion days Oct 10-15 only (a task cannot be completed in the future; "
        f"AndroidWorld draws up to Oct 20); {_DECOYS}; titles matched as a set"),
    "TasksDueNextWeek": (
        "TasksDueNextWeek",
        "the count varies 2-6 instead of always 6, so a fixed guess fails; no completed task "
        f"is due next week (it would make the count ambiguous); {_DECOYS}"),
    "TasksDueOnDate": (
        "TasksDueOnDate",
        "same question and date range, said as AndroidWorld says days; no completed task is "
        f"due on the day (ambiguous); {_DECOYS}; titles matched as a set"),
    "TasksHighPriorityTasks": (
        "TasksHighPriorityTasks",
        "same seeding (one high-priority task hidden until Oct 10-15, due Oct 16-22; decoys "
        f"never high priority); {_DECOYS}"),
    "TasksHighPriorityTasksDueOnDate": (
        "TasksHighPriorityTasksDueOnDate",
        "1-2 targets; decoys include high-priority tasks on other days and other priorities "
        "on the day; titles matched as a set"),
    "TasksIncompleteTasksOnDate": (
        "TasksIncompleteTasksOnDate",
        "asks for open tasks due on the day (1-3 of them); decoys include completed tasks due "
        "that day; titles matched as a set"),
    "SportsTrackerActivitiesCountForWeek": (
        "SportsTrackerActivitiesCountForWeek",
        "the count varies 1-4 instead of always 2; decoys: the category in the week before, "
        f"other categories this week; {_DECOYS}"),
    "SportsTrackerActivitiesOnDate": (
        "SportsTrackerActivitiesOnDate",
        "same date range (Sep 24 - Oct 13) and 2 activities of different categories; decoys "
        "on the days around it; categories matched as a set"),
    "SportsTrackerActivityDuration": (
        "SportsTrackerActivityDuration",
        "no other activity shares the category or the day, so the question has one answer; "
        "minutes matched exactly as a number"),
    "SportsTrackerLongestDistanceActivity": (
        "SportsTrackerLongestDistanceActivity",
        "1-3 activities of the category this week plus longer decoys (same category last "
        "week, other categories this week); distances are whole tens of meters the app shows "
        "exactly, so the meters must be exact instead of within 10 m"),
    "SportsTrackerTotalDistanceForCategoryOverInterval": (
        "SportsTrackerTotalDistanceForCategoryOverInterval",
        "same intervals and 2 targets; decoys just outside the interval and of other "
        "categories inside it; exact meters instead of within 10 m (the distances are shown "
        "exactly)"),
    "SportsTrackerTotalDurationForCategoryThisWeek": (
        "SportsTrackerTotalDurationForCategoryThisWeek",
        "same question; decoys of the category last week and of other categories this week; "
        "the list's totals row covers every date, so the week must still be picked out"),
    "NotesIsTodo": (
        "NotesIsTodo",
        "AndroidWorld's 100 noise notes, plus 3 look-alike notes of the other kind; answered "
        "yes or no (true/false also pass)"),
    "NotesMeetingAttendeeCount": (
        "NotesMeetingAttendeeCount",
        "the note states the count among other numbers (time, day, topics), and two other "
        "meeting notes state other counts; 100 noise notes"),
    "NotesRecipeIngredientCount": (
        "NotesRecipeIngredientCount",
        "the quantity must be the note's text exactly (case and spacing aside) instead of a "
        "fuzzy match; another recipe lists the same ingredient with another quantity; 100 "
        "noise notes"),
    "NotesTodoItemCount": (
        "NotesTodoItemCount",
        "1-5 to-dos instead of 3; of the 100 noise notes about a quarter are plain notes in "
        "the notebook, and other notebooks hold to-dos"),
}

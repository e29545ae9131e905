"""The Markor app's manifest: markdown and text notes kept as files in shared storage."""

from __future__ import annotations

from ...world.manifest import AppLook, AppManifest
from ...world.theme import make_palette

#: Where Markor keeps its notes (AndroidWorld's Markor folder) and the subfolders tasks use.
MARKOR_FOLDER = "/sdcard/Documents/Markor"
SUBFOLDERS = ("BookNotes", "CodeSnippets", "DailyNotes", "FitnessPlans", "MeetingMinutes",
              "PersonalJournal", "RecipeCollections", "StudyGuides", "TravelItineraries",
              "WorkProjects")

MANIFEST = AppManifest(
    name="Markor",
    package="net.gsantner.markor",
    labels={"zh-CN": "Markor"},
    icon="edit_note",
    color=(26, 42, 92),
    reads=("files",),
    folders=(MARKOR_FOLDER, *(f"{MARKOR_FOLDER}/{f}" for f in SUBFOLDERS)),
    description="Markdown and plain-text notes as files in Documents/Markor: a file browser "
                "with folders, a note editor, and select, rename, move and delete.",
    order=32,
    locales=("zh-CN",),
    look=AppLook(
        models="Markor 2.11",
        title="Markor",
        dark="system",
        light=make_palette((231, 88, 82), bar=(30, 32, 53)),
        dark_palette=make_palette((231, 88, 82), dark=True, bg=(33, 33, 36), bar=(30, 32, 53)),
        actions=("create_new_folder", "sort", "more_vert"),
        navigation="bottom_bar",
        nav_items=("Files", "To-Do", "QuickNote", "More"),
        row_leading="icon",
        two_line=True,
        simplifies=(
            "the editor is a boxed field, not a full-screen highlighted editor with a formatting "
            "bar",
        ),
    ),
)

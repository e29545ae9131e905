"""AndroidWorld mapping of the visual apps: Simple Gallery Pro, Simple Draw Pro, the Chrome
browser tasks and OsmAnd (kept by those apps' authors)."""

from __future__ import annotations

_FILES = ("as AndroidWorld's instruction says, task.html is opened from the file manager "
          "(Files, Download) and, asked, with Chrome (Files' \"Open with\" sheet), and "
          "Chrome must be on screen at the end, as AndroidWorld checks; Chrome's own "
          "Downloads page lists the file too (AndroidWorld's freshly cleared Chrome does "
          "not); ")
_PLACE = ("the place is a town's name or, half the time, its raw 'lat, lon' coordinates, as "
          "AndroidWorld's (4 decimals instead of 7); 1-3 other favourites and markers are "
          "seeded (AndroidWorld clears them)")

MAPPED: dict[str, tuple[str, str]] = {
    "SaveCopyOfReceiptTaskEval": (
        "SaveCopyOfReceiptTaskEval",
        "same job (the receipt copied from DCIM into Download under its name); phone-gym also "
        "checks the copy's content and that the original stays, with decoy photos guarded"),
    "SimpleDrawProCreateDrawing": (
        "SimpleDrawProCreateDrawing",
        "same check (the named file in Pictures), plus: it must not be empty (something "
        "drawn) and it must be the only file added"),
    "BrowserDraw": (
        "BrowserDraw",
        _FILES + "solved is read from the page's state (strokes in all three colors, then "
        "Submit), not from the screen"),
    "BrowserMaze": (
        "BrowserMaze",
        _FILES + "a seeded 4x4 maze drawn as a picture (6-8 moves); solved is read from the "
        "page's state (the marker reached the goal), not from the screen"),
    "BrowserMultiply": (
        "BrowserMultiply",
        _FILES + "solved only when all five numbers were revealed and their product "
        "submitted, read from the page's state, not from the screen"),
    "OsmAndFavorite": (
        "OsmAndFavorite",
        "same check by coordinates (0.001 degrees) on the app's favourites, exactly one "
        "added; " + _PLACE),
    "OsmAndMarker": (
        "OsmAndMarker",
        "same check by coordinates (0.001 degrees) on the app's markers, exactly one added; "
        + _PLACE),
    "OsmAndTrack": (
        "OsmAndTrack",
        "same check (a saved track passing the waypoints in order, 0.001 degrees), exactly one "
        "track added; the track is planned point by point from search"),
}

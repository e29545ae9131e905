"""App names (as the action space's ``open_app``/``close_app`` take them) and their Android
packages. ``RealPhoneEnv`` uses the mock apps' manifests (PhoneWorld's apps carry the real
apps' package names) plus the stock apps below; extend per phone:
``RealPhoneEnv(packages={"Markor": "net.gsantner.markor"})``.

The same app has other packages on other phones: AOSP builds and emulator images ship
``com.android.contacts``, Pixels Google's ``com.google.android.contacts``.
``PACKAGE_ALTERNATIVES`` lists the known ones per mock app; at connect time ``RealPhoneEnv``
resolves each app to the one the phone has with a launcher entry (``real.profile``)."""

from __future__ import annotations

from collections.abc import Mapping

#: Stock Android / Pixel apps that PhoneWorld has no mock of (the mock apps' packages come
#: from their manifests).
STOCK_PACKAGES: dict[str, str] = {
    "Chrome": "com.android.chrome",
    "Camera": "com.android.camera2",
    "Calendar": "com.google.android.calendar",
    "Messages": "com.google.android.apps.messaging",
    "Phone": "com.google.android.dialer",
    "Gmail": "com.google.android.gm",
    "Maps": "com.google.android.apps.maps",
    "Photos": "com.google.android.apps.photos",
    "YouTube": "com.google.android.youtube",
    "Play Store": "com.android.vending",
}

#: The Android packages each mock app has across phones, in order of preference: Google's
#: apps (Pixels and many Android One phones), AOSP's (AOSP builds, emulator images), then
#: Samsung's. Files: Files by Google has a launcher icon; DocumentsUI (AOSP
#: ``packages/apps/DocumentsUI``: its ``LauncherActivity`` is enabled only where a device
#: overlays ``@bool/is_launcher_enabled`` to true) often has none on Pixels.
PACKAGE_ALTERNATIVES: dict[str, tuple[str, ...]] = {
    "Contacts": ("com.google.android.contacts", "com.android.contacts",
                 "com.samsung.android.app.contacts"),
    "Clock": ("com.google.android.deskclock", "com.android.deskclock",
              "com.sec.android.app.clockpackage"),
    "Files": ("com.google.android.apps.nbu.files", "com.google.android.documentsui",
              "com.android.documentsui", "com.sec.android.app.myfiles"),
    "Settings": ("com.android.settings",),
}

LAUNCHER_PACKAGES = frozenset({
    "com.google.android.apps.nexuslauncher", "com.android.launcher3",
    "com.sec.android.app.launcher", "com.miui.home",
})


def app_packages(extra: Mapping[str, str] | None = None,
                 manifests: Mapping[str, str] | None = None) -> dict[str, str]:
    """``STOCK_PACKAGES``, then the mock apps' ``manifests`` (name -> package), updated with
    ``extra`` (which may override a name)."""
    packages = {**STOCK_PACKAGES, **(manifests or {})}
    for name, package in (extra or {}).items():
        if not isinstance(name, str) or not isinstance(package, str) or not name or not _valid(
                package):
            raise ValueError(f"packages: {name!r}: {package!r} is not an app name mapped to an "
                             "Android package such as 'com.example.app'")
        packages[name] = package
    return packages


def _valid(package: str) -> bool:
    parts = package.split(".")
    return len(parts) >= 2 and all(p and (p[0].isalpha() or p[0] == "_") and
                                   all(c.isalnum() or c == "_" for c in p) for p in parts)


def is_package_name(package: str) -> bool:
    """Whether ``package`` is a well-formed Android package name (safe to pass to a shell)."""
    return isinstance(package, str) and _valid(package)


def package_candidates(app: str, manifest_package: str | None = None) -> tuple[str, ...]:
    """The packages app ``app`` may have on a phone: ``PACKAGE_ALTERNATIVES`` (or only its
    manifest's package for an app without alternatives), the manifest's package included."""
    known = PACKAGE_ALTERNATIVES.get(app, ())
    extra = (manifest_package,) if manifest_package and manifest_package not in known else ()
    return (*known, *extra)

"""Real phones over adb: backends (adbutils, uiautomator2), the action-to-adb mapping, the
safety guard, device-state queries, real-device task templates, and the virtual adb device
that serves PhoneWorld phones to the same client libraries."""

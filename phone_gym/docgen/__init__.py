"""Pages of ``docs/`` generated from the code (a test checks each is up to date):
``real_tasks`` writes ``docs/real-device-tasks.md`` (what every real-device template reads
from a phone and what its reset changes, recorded against the virtual adb device). They sit
above the envs and the virtual device, which they drive; nothing imports them."""

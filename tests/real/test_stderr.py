"""A warning on stderr is not a setting's value: on some vendor builds Android's dynamic
linker writes "WARNING: linker: ..." to stderr before every program runs (bionic
``linker``'s ``DL_WARN``); ``settings get`` must still read the value alone, over adb's
shell protocol v2 (stdout kept apart), over the joined output of an older shell, and in a
whole episode."""

from __future__ import annotations

import pytest

pytest.importorskip("adbutils")

from phone_gym.envs.real_phone import RealPhoneEnv  # noqa: E402
from phone_gym.real.backend import AdbBackend  # noqa: E402
from phone_gym.real.base import ShellResult  # noqa: E402
from phone_gym.real.state import AdbState, stdout_of  # noqa: E402
from phone_gym.virtual import LocalBackend, VirtualAdbServer, VirtualPhone  # noqa: E402

WARNING = ('WARNING: linker: /system/bin/app_process64: unused DT entry: type 0x6ffffffe '
           'arg 0x1234')


def noisy_phone() -> VirtualPhone:
    phone = VirtualPhone("emulator-5554")
    phone.linker_warning = WARNING
    return phone


def test_the_virtual_phone_warns_on_stderr_before_programs_not_builtins() -> None:
    phone = noisy_phone()
    code, out, err = phone.shell("settings get global wifi_on")
    assert code == 0 and out.decode().strip() in ("0", "1") and err.decode() == WARNING + "\n"
    assert phone.shell("cd / && pwd")[2] == b""  # shell builtins load nothing


@pytest.mark.parametrize("v2", [True, False])
def test_settings_get_reads_the_value_alone_over_adb(v2: bool) -> None:
    phone = noisy_phone()
    with VirtualAdbServer([phone]) as server:
        backend = AdbBackend(serial=phone.serial, port=server.port, timeout=10.0)
        backend._v2 = v2  # the shell protocol the phone offers (v1: one joined stream)
        state = AdbState(backend)
        value = state.get_setting("global", "wifi_on")
        assert value == phone.device.system.get_setting("global", "wifi_on")
        assert WARNING in backend.shell("settings get global wifi_on").output  # it arrives


def test_stdout_of_joined_output_drops_only_linker_lines() -> None:
    joined = ShellResult(0, f"{WARNING}\n1\n")
    assert stdout_of(joined) == "1\n"
    assert stdout_of(ShellResult(0, f"{WARNING}\n1\n", "1\n")) == "1\n"
    assert stdout_of(ShellResult(0, "WARNING: low battery\n")) == "WARNING: low battery\n"


def test_a_whole_episode_on_a_noisy_phone() -> None:
    phone = noisy_phone()
    env = RealPhoneEnv(backend=LocalBackend(phone), task="SettingsWifiOff", settle=0.0,
                       screenshot=False)
    env.reset(seed=0)
    for _ in range(env.episode.template.max_steps):  # type: ignore[union-attr]
        _, reward, terminated, truncated, info = env.step(env.oracle_action())
        assert info["device_error"] is None, info["device_error"]
        if terminated or truncated:
            break
    assert reward == 1.0
    env.close()

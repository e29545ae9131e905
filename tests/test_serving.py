"""phone_gym.serving: the Host, Origin and token rules both servers apply (the servers
themselves, with real clients: tests/play/test_play_server.py and
tests/integrations/test_openenv.py)."""

from __future__ import annotations

import pytest

from phone_gym.serving import (
    AccessPolicy,
    json_refusal,
    new_token,
    normalize_origin,
    served_url,
    split_token,
)

LOCAL = ("127.0.0.1", 8765)


def status(policy: AccessPolicy, host: str | None = "127.0.0.1:8765",
           origin: str | None = None, local: tuple[str, int] = LOCAL, **token: str) -> int:
    refusal = policy.check(host=host, origin=origin, local=local, **token)
    return 200 if refusal is None else refusal.status


def test_origins_loopback_and_the_served_address_only() -> None:
    policy = AccessPolicy(None, server_host="192.168.1.5")
    for origin in ("http://127.0.0.1:8765", "http://localhost:8765", "http://[::1]:8765",
                   "http://LOCALHOST:8765", "http://192.168.1.5:8765", None):
        assert status(policy, origin=origin) == 200, origin
    for origin in ("http://evil.example", "http://127.0.0.1:8766", "https://127.0.0.1:8765",
                   "http://localhost", "null", "", "http://127.0.0.1:8765/x",
                   "http://user@127.0.0.1:8765", "file://", "http://127.0.0.1:99999"):
        assert status(policy, origin=origin) == 403, origin
    # a server on all addresses answers the address the request came in on
    wide = AccessPolicy(None, server_host="0.0.0.0")
    assert status(wide, origin="http://10.0.0.7:8765", host="10.0.0.7:8765",
                  local=("10.0.0.7", 8765)) == 200
    assert status(wide, origin="http://0.0.0.0:8765") == 403
    refusal = policy.check(host="127.0.0.1:8765", origin="http://evil.example", local=LOCAL)
    assert refusal and "--allow-origin http://evil.example" in refusal.message


def test_host_names_this_server_only() -> None:
    policy = AccessPolicy(None, server_host="127.0.0.1")
    for host in ("127.0.0.1:8765", "localhost:8765", "[::1]:8765", "localhost",
                 "localhost:9000"):  # a loopback name at any port (an ssh tunnel)
        assert status(policy, host=host) == 200, host
    for host in ("evil.example:8765", "evil.example", "127.0.0.1.evil.example:8765",
                 "evil.example@127.0.0.1:8765", "127.0.0.1:8765/x", ""):
        assert status(policy, host=host) in (400, 403), host
    assert status(policy, host=None) == 400
    assert status(AccessPolicy(None, server_host="myhost.lan"), host="myhost.lan:8765") == 200
    assert status(AccessPolicy(None, server_host="myhost.lan"), host="myhost.lan:80") == 403


def test_allow_origin_widens_origin_and_host() -> None:
    policy = AccessPolicy(None, ["https://lab.example/", "http://box:9000"])
    assert policy.allow_origins == ("https://lab.example", "http://box:9000")
    assert status(policy, host="lab.example", origin="https://lab.example") == 200
    assert status(policy, host="box:9000", origin="http://box:9000") == 200
    assert status(policy, host="box:9001") == 403
    assert status(policy, origin="http://lab.example") == 403  # another scheme, another port
    with pytest.raises(ValueError, match="scheme://host"):
        AccessPolicy(None, ["lab.example"])
    for bad in ("ftp://x", "http://x/path", "http://x?q", "*", "null"):
        with pytest.raises(ValueError, match="accepted: an origin"):
            normalize_origin(bad)
    assert normalize_origin("HTTP://[::1]:80") == "http://[::1]"


def test_the_token_comes_as_a_query_a_bearer_or_a_cookie() -> None:
    token = new_token()
    assert len(token) >= 40 and token != new_token()
    policy = AccessPolicy(token)
    assert status(policy) == 401
    assert status(policy, query_token=token) == 200
    assert status(policy, authorization=f"Bearer {token}") == 200
    assert status(policy, authorization=f"bearer  {token} ") == 200
    assert status(policy, cookie_token=token) == 200
    for wrong in ({"query_token": token[:-1]}, {"authorization": token},
                  {"authorization": f"Basic {token}"}, {"cookie_token": ""}):
        assert status(policy, **wrong) == 401, wrong
    # the token never lets a foreign page or host through
    assert status(policy, origin="http://evil.example", query_token=token) == 403
    assert status(policy, host="evil.example:8765", query_token=token) == 403
    cookie = policy.set_cookie(8765)
    assert cookie == f"phone_gym_token_8765={token}; Path=/; HttpOnly; SameSite=Strict"
    assert AccessPolicy(None).set_cookie(8765) is None
    with pytest.raises(ValueError, match="non-empty string"):
        AccessPolicy("")


def test_urls_and_content_types() -> None:
    assert served_url("127.0.0.1", 8765, "abc") == "http://127.0.0.1:8765/?token=abc"
    assert served_url("0.0.0.0", 80, None, "/replay") == "http://127.0.0.1:80/replay"
    assert served_url("::1", 8000, "t") == "http://[::1]:8000/?token=t"
    assert split_token("http://h:8000/?token=abc") == ("http://h:8000/", "abc")
    assert split_token("ws://h:8000/ws?a=1&token=x") == ("ws://h:8000/ws?a=1", "x")
    assert split_token("http://h:8000") == ("http://h:8000", None)
    assert json_refusal("application/json") is None
    assert json_refusal("Application/JSON; charset=utf-8") is None
    for bad in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data", None):
        refusal = json_refusal(bad)
        assert refusal and refusal.status == 415 and "application/json" in refusal.message

"""Request limits on the real web servers (gunicorn with deploy/gunicorn.conf.py): clients that stall
half way through their body neither stop the server nor hold their connections for ever, and a body
over the limit is a 413."""

from __future__ import annotations

import json
import socket
import uuid
from collections.abc import Iterator

import httpx
import pytest

from shared.http.auth import issue_token
from shared.testing.polling import wait_for
from tests.e2e.stack import JWT_SECRET, Stack

pytestmark = pytest.mark.e2e

SLOW_CLIENTS = 30
# a server that answers at all answers /healthz in milliseconds; before the gevent worker it did not
# answer within minutes while the slow clients held every thread
ANSWERS_WITHIN = 10.0


def stalled_request(url: str, token: str) -> socket.socket:
    """A client that sends a valid request's headers declaring 1,000 body bytes, then 10 of them,
    and then nothing."""
    host, port = url.removeprefix("http://").split(":")
    sock = socket.create_connection((host, int(port)))
    head = (
        f"POST /games/{uuid.uuid4()}/result HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bearer {token}\r\n"
        "Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n"
    )
    sock.sendall(head.encode() + b'{"outcome"')
    sock.setblocking(False)
    return sock


@pytest.fixture
def slow_clients(stack: Stack) -> Iterator[list[socket.socket]]:
    token = issue_token(JWT_SECRET, uuid.uuid4())
    socks = [stalled_request(stack.urls["clocks"], token) for _ in range(SLOW_CLIENTS)]
    yield socks
    for sock in socks:
        sock.close()


def answer(sock: socket.socket, received: dict[socket.socket, bytes]) -> None:
    """Read what the server sent so far; b"" marks a connection it closed."""
    try:
        while chunk := sock.recv(4096):
            received[sock] = received.get(sock, b"") + chunk
        received.setdefault(sock, b"")
        received[sock] += b"<closed>"
    except BlockingIOError:
        pass


def test_stalled_bodies_neither_stop_the_server_nor_hold_their_connections(stack: Stack, slow_clients):
    url = stack.urls["clocks"]
    for _ in range(3):
        assert httpx.get(f"{url}/healthz", timeout=ANSWERS_WITHIN).status_code == 200
    games = httpx.get(f"{url}/tournaments/{uuid.uuid4()}/games", timeout=ANSWERS_WITHIN)
    assert games.status_code == 200 and games.json() == {"games": []}

    received: dict[socket.socket, bytes] = {}

    def all_answered() -> bool:
        for sock in slow_clients:
            if not received.get(sock, b"").endswith(b"<closed>"):
                answer(sock, received)
        return all(received.get(sock, b"").endswith(b"<closed>") for sock in slow_clients)

    timeout = float(stack.env["ARBITER_BODY_TIMEOUT_SECONDS"])
    wait_for(all_answered, timeout=timeout + 30, interval=0.2, what="the stalled clients to be timed out")
    for sock in slow_clients:
        head, _, body = received[sock].removesuffix(b"<closed>").partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 408"), received[sock]
        assert json.loads(body)["type"] == "/problems/request-timeout"


def test_a_body_over_the_limit_is_a_413(stack: Stack):
    url = stack.urls["clocks"]
    headers = {"Authorization": f"Bearer {issue_token(JWT_SECRET, uuid.uuid4())}"}
    limit = int(stack.env["ARBITER_MAX_BODY_BYTES"])
    big = {"outcome": "1-0", "reason": "x" * limit}
    declared = httpx.post(f"{url}/games/{uuid.uuid4()}/result", json=big, headers=headers, timeout=30)
    assert declared.status_code == 413, declared.text
    assert declared.headers["Content-Type"] == "application/problem+json"
    assert declared.json()["type"] == "/problems/content-too-large"

    def chunks() -> Iterator[bytes]:  # no Content-Length: the server counts as it reads
        data = json.dumps(big).encode()
        for i in range(0, len(data), 64 * 1024):
            yield data[i : i + 64 * 1024]

    chunked = httpx.post(f"{url}/games/{uuid.uuid4()}/result", content=chunks(), headers=headers, timeout=30)
    assert chunked.status_code == 413, chunked.text
    assert chunked.json()["type"] == "/problems/content-too-large"
    # the server still answers on new connections, and a body within the limit gets through
    small = httpx.post(
        f"{url}/games/{uuid.uuid4()}/result",
        json={"outcome": "1-0", "reason": "resignation"},
        headers=headers,
    )
    assert small.status_code == 404 and small.json()["type"] == "/problems/game-not-found"

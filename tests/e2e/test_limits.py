"""Request limits on the real web servers (gunicorn with deploy/gunicorn.conf.py and its worker,
shared/http/worker.py): clients that stall half way through their head or their body neither stop the
server nor hold their connections for ever, a body over the limit is a 413, and what gunicorn itself
refuses (a malformed request, a URI or headers too large) is answered with problem+json."""

from __future__ import annotations

import io
import json
import socket
import uuid
from collections.abc import Iterator

import httpx
import pytest

from shared.http.auth import issue_token
from shared.testing.polling import wait_for
from tests.e2e.stack import JWT_SECRET, Stack, raise_descriptor_limit

pytestmark = pytest.mark.e2e

SLOW_CLIENTS = 30
# more than the stack's clocks web server has places for (2 workers × 1,000 connections)
SLOW_HEADS = 2_100
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


def slow_head(url: str) -> socket.socket:
    """A client that sends half a request head (the request line and one header) and stops there."""
    host, port = url.removeprefix("http://").split(":")
    sock = socket.create_connection((host, int(port)))
    sock.sendall(f"GET /tournaments/{uuid.uuid4()}/games HTTP/1.1\r\nHost: {host}\r\nX-Slow: ".encode())
    sock.setblocking(False)
    return sock


def trickle(sock: socket.socket) -> None:
    """One more byte of the header, as a slow client sends it; nothing if the server closed it."""
    try:
        sock.send(b"a")
    except OSError:
        pass


def test_slow_heads_neither_stop_the_server_nor_hold_their_connections(stack: Stack):
    """2,100 connections that each send half a request head and then a header byte now and then: the
    server keeps answering /healthz while they are there, and closes every one of them with a 408 once
    its head is late (or sooner, to make room for a new connection)."""
    assert raise_descriptor_limit(SLOW_HEADS + 1_000) >= SLOW_HEADS + 1_000, "too few file descriptors"
    url = stack.urls["clocks"]
    heads = [slow_head(url) for _ in range(SLOW_HEADS)]
    received: dict[socket.socket, bytes] = {}
    health: list[int] = []
    try:

        def all_closed() -> bool:
            for sock in heads:
                if not received.get(sock, b"").endswith(b"<closed>"):
                    trickle(sock)
                    answer(sock, received)
            # each time: the server answers at once, however many slow heads it holds
            health.append(httpx.get(f"{url}/healthz", timeout=ANSWERS_WITHIN).status_code)
            return all(received.get(sock, b"").endswith(b"<closed>") for sock in heads)

        timeout = float(stack.env["ARBITER_HEAD_TIMEOUT_SECONDS"])
        wait_for(all_closed, timeout=timeout + 60, interval=0.5, what="the slow heads to be timed out")
    finally:
        for sock in heads:
            sock.close()
    assert health and set(health) == {200}, health
    for sock in heads:
        head, _, body = received[sock].removesuffix(b"<closed>").partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 408"), received[sock]
        assert b"Content-Type: application/problem+json" in head
        assert json.loads(body)["type"] == "/problems/request-timeout"
    # the server serves requests as before
    games = httpx.get(f"{url}/tournaments/{uuid.uuid4()}/games", timeout=ANSWERS_WITHIN)
    assert games.status_code == 200 and games.json() == {"games": []}


def raw_exchange(url: str, request: bytes) -> tuple[bytes, bytes]:
    """Send ``request`` as it is; the response's head and body (the server closes the connection)."""
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=ANSWERS_WITHIN) as sock:
        sock.sendall(request)
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    return head, body


@pytest.mark.parametrize(
    ("request_bytes", "status", "slug"),
    [
        (b"GET /healthz HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n", 400, "bad-request"),
        (b"GET /\x01 HTTP/1.1\r\nHost: x\r\n\r\n", 400, "bad-request"),
        (b"GET /healthz?q=" + b"a" * 9000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 414, "uri-too-long"),
        (
            b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 9000 + b"\r\n\r\n",
            431,
            "request-header-fields-too-large",
        ),
        (
            b"GET /healthz HTTP/1.1\r\nHost: x\r\n"
            + b"".join(b"X-%d: 1\r\n" % i for i in range(120))
            + b"\r\n",
            431,
            "request-header-fields-too-large",
        ),
    ],
    ids=["bad-header", "bad-request-line", "uri-too-long", "header-too-large", "too-many-headers"],
)
def test_what_gunicorn_refuses_is_answered_with_problem_json(stack: Stack, request_bytes, status, slug):
    for service in ("clocks", "standings"):
        head, body = raw_exchange(stack.urls[service], request_bytes)
        assert head.startswith(f"HTTP/1.1 {status} ".encode()), head
        assert b"Content-Type: application/problem+json" in head, head
        problem = json.loads(body)
        assert problem["type"] == f"/problems/{slug}" and problem["status"] == status, problem


def read_response(stream: io.BufferedReader) -> bytes:
    """One response with a Content-Length, read off a kept-alive connection."""
    head = b""
    while not head.endswith(b"\r\n\r\n"):
        line = stream.readline()
        assert line, "the server closed the connection"
        head += line
    length = next(
        int(h.split(b":")[1]) for h in head.split(b"\r\n") if h.lower().startswith(b"content-length")
    )
    return head + stream.read(length)


def test_a_kept_alive_connection_may_idle_but_its_next_head_has_the_deadline(stack: Stack):
    """The head deadline runs from a head's first byte: a kept-alive connection waits for its next
    request longer than that (up to keepalive), pipelined requests are served, and a next head that
    starts and stalls is answered 408."""
    url = stack.urls["clocks"]
    host, port = url.removeprefix("http://").split(":")
    limit = float(stack.env["ARBITER_HEAD_TIMEOUT_SECONDS"])
    request = f"GET /healthz HTTP/1.1\r\nHost: {host}\r\n\r\n".encode()
    with socket.create_connection((host, int(port)), timeout=ANSWERS_WITHIN) as sock:
        stream = sock.makefile("rb")
        sock.sendall(request * 2)  # pipelined: the second is in the server's buffer already
        assert read_response(stream).startswith(b"HTTP/1.1 200")
        assert read_response(stream).startswith(b"HTTP/1.1 200")
        sock.settimeout(limit + 2)  # idle longer than a head may take: the server keeps the connection
        with pytest.raises(TimeoutError):
            sock.recv(1)
        sock.settimeout(ANSWERS_WITHIN)
        sock.sendall(request)
        assert read_response(stream).startswith(b"HTTP/1.1 200")
        sock.sendall(request[:20])  # a next head that stalls half way
        sock.settimeout(limit + 30)
        late = b""
        while chunk := sock.recv(65536):
            late += chunk
    assert late.startswith(b"HTTP/1.1 408"), late
    assert json.loads(late.partition(b"\r\n\r\n")[2])["type"] == "/problems/request-timeout"

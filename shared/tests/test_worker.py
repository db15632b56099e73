"""The web worker's own answers (shared/http/worker.py): what gunicorn refuses before the app sees a
request is problem+json with a stable type, as every other error. The worker's deadlines and its room
for new connections are tested on a real gunicorn (tests/e2e/test_limits.py)."""

from __future__ import annotations

import json

import pytest
from gunicorn.http import errors

from shared.http.worker import problem_bytes, refusal


@pytest.mark.parametrize(
    ("exc", "expected"),
    [
        (errors.LimitRequestLine(9000, 8190), (414, "uri-too-long", "URI Too Long")),
        (
            errors.LimitRequestHeaders("too many headers"),
            (431, "request-header-fields-too-large", "Request Header Fields Too Large"),
        ),
        (errors.InvalidRequestLine("GET"), (400, "bad-request", "Bad Request")),
        (errors.InvalidHeaderName("Bad Header"), (400, "bad-request", "Bad Request")),
        (errors.InvalidHTTPVersion("HTTP/9"), (400, "bad-request", "Bad Request")),
        (errors.UnsupportedTransferCoding("gzip"), (501, "not-implemented", "Not Implemented")),
        (errors.InvalidResponseHeaderName("x"), None),  # the app's fault: a 500
        (ValueError("boom"), None),
    ],
)
def test_what_gunicorn_refuses_gets_its_status_and_a_stable_type(exc, expected):
    assert refusal(exc) == expected


def test_the_answer_is_a_whole_problem_response_that_closes_the_connection():
    data = problem_bytes(414, "uri-too-long", "URI Too Long", "the request line is too long")
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode().split("\r\n")
    assert lines[0] == "HTTP/1.1 414 URI Too Long"
    assert {
        "Connection: close",
        "Content-Type: application/problem+json",
        f"Content-Length: {len(body)}",
    } <= set(lines[1:])
    assert json.loads(body) == {
        "type": "/problems/uri-too-long",
        "title": "URI Too Long",
        "status": 414,
        "detail": "the request line is too long",
    }

"""Gunicorn settings shared by the four web processes; the bind address comes from the command line
or ARBITER_BIND.

The gevent worker serves each connection in its own greenlet, so clients that send their request
slowly (or stall half way through the body) wait without holding a thread: the server keeps
answering everyone else, /healthz included. The apps bound how long a body may take to arrive
(ARBITER_BODY_TIMEOUT_SECONDS, then 408 and the connection closes) and how large it may be
(ARBITER_MAX_BODY_BYTES, else 413): shared/http/limits.py. psycopg 3 (from 3.1.14) and redis-py
cooperate with gevent's monkeypatching; the web processes do not talk to RabbitMQ."""

import multiprocessing
import os

bind = os.environ.get("ARBITER_BIND", "0.0.0.0:8000")
workers = int(os.environ.get("ARBITER_WEB_WORKERS", max(2, multiprocessing.cpu_count())))
worker_class = "gevent"
# connections one worker holds at once (idle keep-alive ones included); requests beyond the database
# pool (shared/database.py) wait for a pooled connection
worker_connections = int(os.environ.get("ARBITER_WEB_CONNECTIONS", 1000))
timeout = 30
# idle keep-alive connections stay open longer than clients keep them (httpx: 5 s), so a client never
# sends a request on a connection the server is closing at that moment (reset, request lost)
keepalive = int(os.environ.get("ARBITER_KEEPALIVE_SECONDS", 75))
graceful_timeout = 20
accesslog = "-" if os.environ.get("ARBITER_ACCESS_LOG") else None

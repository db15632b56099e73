"""Gunicorn settings shared by the four web processes; the bind address comes from the command line
or ARBITER_BIND."""

import multiprocessing
import os

bind = os.environ.get("ARBITER_BIND", "0.0.0.0:8000")
workers = int(os.environ.get("ARBITER_WEB_WORKERS", max(2, multiprocessing.cpu_count())))
threads = int(os.environ.get("ARBITER_WEB_THREADS", 4))
worker_class = "gthread"
timeout = 30
# idle keep-alive connections stay open longer than clients keep them (httpx: 5 s), so a client never
# sends a request on a connection the server is closing at that moment (reset, request lost)
keepalive = int(os.environ.get("ARBITER_KEEPALIVE_SECONDS", 75))
graceful_timeout = 20
accesslog = "-" if os.environ.get("ARBITER_ACCESS_LOG") else None

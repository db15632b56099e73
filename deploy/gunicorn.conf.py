"""Gunicorn settings shared by the four web processes; the bind address comes from the command line
or ARBITER_BIND."""

import multiprocessing
import os

bind = os.environ.get("ARBITER_BIND", "0.0.0.0:8000")
workers = int(os.environ.get("ARBITER_WEB_WORKERS", max(2, multiprocessing.cpu_count())))
threads = int(os.environ.get("ARBITER_WEB_THREADS", 4))
worker_class = "gthread"
timeout = 30
graceful_timeout = 20
accesslog = "-" if os.environ.get("ARBITER_ACCESS_LOG") else None

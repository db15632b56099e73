"""Gunicorn settings shared by the four web processes; the bind address comes from the command line
or ARBITER_BIND.

The worker is gunicorn's gevent worker with guards of its own (shared/http/worker.py): each connection
waits in its own greenlet, so clients that send their request slowly wait without holding a thread;
a request head must arrive within ARBITER_HEAD_TIMEOUT_SECONDS of its first byte (a connection's
first head: of the connection), else 408 and the connection closes; a worker whose connections are
all taken closes the one waiting longest for a head, so it keeps accepting (/healthz included); and
gunicorn's own refusals (400, 414, 431) are problem+json. The apps bound how long a body may take to
arrive (ARBITER_BODY_TIMEOUT_SECONDS, then 408 and the connection closes) and how large it may be
(ARBITER_MAX_BODY_BYTES, else 413): shared/http/limits.py. In front, a buffering proxy (nginx in
compose, the ingress controller in Kubernetes) holds slow clients and caps connections per client:
docs/operations.md, "Slow clients". psycopg 3 (from 3.1.14) and redis-py cooperate with gevent's
monkeypatching; the web processes do not talk to RabbitMQ.

Workers and database connections are sized from the CPU and memory the process may use (a pod's
limits, through the downward API: shared/http/sizing.py, and docs/operations.md for the arithmetic). Logs are JSON lines
(shared/logs.py), gunicorn's own included. Metrics: every worker writes its counters to files in
PROMETHEUS_MULTIPROC_DIR (one directory per gunicorn: cleared at start), and /metrics adds them up."""

import os
import re
import shutil
import tempfile
from pathlib import Path

from shared import logs
from shared.http import sizing

ENVIRONMENT = (
    "ARBITER_BIND",
    "ARBITER_WEB_WORKERS",
    "ARBITER_WEB_CONNECTIONS",
    "ARBITER_KEEPALIVE_SECONDS",
    "ARBITER_ACCESS_LOG",
    "ARBITER_CPU_LIMIT_MILLICORES",
    "ARBITER_MEMORY_LIMIT_MIB",
)
"""What this file reads besides the services' settings (tests/test_deploy.py holds the manifests to it)."""

bind = os.environ.get("ARBITER_BIND", "0.0.0.0:8000")
workers = int(
    os.environ.get("ARBITER_WEB_WORKERS") or sizing.workers_for(sizing.cpu_limit(), sizing.memory_limit_mib())
)
worker_class = "shared.http.worker.ArbiterWorker"
# connections one worker holds at once (idle keep-alive ones included); requests beyond the database
# pool wait for a pooled connection
worker_connections = int(os.environ.get("ARBITER_WEB_CONNECTIONS", 1000))
os.environ.setdefault("ARBITER_DATABASE_POOL_SIZE", str(sizing.POOL_SIZE))
os.environ.setdefault("ARBITER_DATABASE_MAX_OVERFLOW", str(sizing.MAX_OVERFLOW))
timeout = 30
# workers' heartbeat files in memory: a read-only root filesystem has no /tmp of its own, and a busy
# disk must not make a worker look dead
worker_tmp_dir = "/dev/shm" if os.path.isdir("/dev/shm") else None
# idle keep-alive connections stay open longer than clients keep them (httpx: 5 s), so a client never
# sends a request on a connection the server is closing at that moment (reset, request lost)
# (at least 1: with 0, gunicorn reads a request head with no deadline at all)
keepalive = max(1, int(os.environ.get("ARBITER_KEEPALIVE_SECONDS", 75)))
# the request line (the URI with its query) and the headers gunicorn reads; beyond: 414 and 431
limit_request_line = 8190
limit_request_fields = 100
limit_request_field_size = 8190
graceful_timeout = 20
# no control socket (gunicornc): nobody uses it, several gunicorns on one machine would share its
# default path (~/.gunicorn/gunicorn.ctl), and a read-only root filesystem has no place for it
control_socket_disable = True
accesslog = "-" if os.environ.get("ARBITER_ACCESS_LOG") else None
access_log_format = '%(h)s "%(r)s" %(s)s %(b)s %(M)sms request_id=%({x-request-id}o)s'
logconfig_dict = logs.dict_config(
    os.environ.get("ARBITER_LOG_LEVEL", "INFO"),
    "text" if os.environ.get("ARBITER_LOG_FORMAT") == "text" else "json",
    gunicorn=True,
)

# -- metrics: the client's multiprocess mode -------------------------------------------------------------
# Set before any worker imports prometheus_client (it picks its mode at import). Without a directory
# given, each gunicorn makes its own and removes it at exit; a given one (Kubernetes: an emptyDir,
# the root filesystem being read-only) is emptied at start, since files of dead workers would count.
_own_metrics_dir = "PROMETHEUS_MULTIPROC_DIR" not in os.environ
if _own_metrics_dir:
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="arbiter-metrics-")
_metrics_dir = Path(os.environ["PROMETHEUS_MULTIPROC_DIR"])


def on_starting(server):
    _metrics_dir.mkdir(parents=True, exist_ok=True)
    for stale in _metrics_dir.glob("*.db"):
        stale.unlink()
    match = re.match(r"services\.(\w+)\.", getattr(server.app, "app_uri", None) or "")
    logs.identify(match.group(1) if match else "web", "web")


def child_exit(server, worker):
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid)


def on_exit(server):
    if _own_metrics_dir:
        shutil.rmtree(_metrics_dir, ignore_errors=True)

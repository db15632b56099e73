"""A TCP proxy for outage tests: a process talks to a server through it, and the test takes the server
away (:meth:`TcpProxy.cut`: every connection dropped, new ones refused) and brings it back
(:meth:`TcpProxy.restore`) without touching the shared server itself."""

from __future__ import annotations

import contextlib
import socket
import struct
import threading
from urllib.parse import urlsplit, urlunsplit

from shared.testing.ports import free_port


class TcpProxy:
    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.port = free_port()
        self._listener: socket.socket | None = None
        self._sockets: set[socket.socket] = set()
        self._lock = threading.Lock()

    @classmethod
    def to(cls, url: str, default_port: int) -> TcpProxy:
        """A proxy to the server of ``url`` (its host and port)."""
        parts = urlsplit(url)
        return cls(parts.hostname or "127.0.0.1", parts.port or default_port)

    def url(self, url: str) -> str:
        """``url`` with its host and port replaced by the proxy's."""
        parts = urlsplit(url)
        credentials = parts.netloc.rpartition("@")[0]
        netloc = f"{credentials}@127.0.0.1:{self.port}" if credentials else f"127.0.0.1:{self.port}"
        return urlunsplit(parts._replace(netloc=netloc))

    @property
    def connections(self) -> int:
        """How many connections pass through it now."""
        with self._lock:
            return len(self._sockets) // 2

    def start(self) -> TcpProxy:
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(64)
        self._listener = listener
        threading.Thread(target=self._accept, args=(listener,), name="proxy-accept", daemon=True).start()
        return self

    restore = start

    def cut(self) -> None:
        """The server goes away: connections are reset, new ones refused."""
        with self._lock:
            listener, self._listener = self._listener, None
            sockets, self._sockets = self._sockets, set()
        if listener is not None:
            with contextlib.suppress(OSError):
                listener.shutdown(socket.SHUT_RDWR)
            listener.close()
        for s in sockets:
            with contextlib.suppress(OSError):
                s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))  # a reset
            with contextlib.suppress(OSError):
                s.close()

    close = cut

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return  # cut
            try:
                upstream = socket.create_connection(self.target, timeout=5)
            except OSError:
                client.close()
                continue
            upstream.settimeout(None)
            with self._lock:
                if self._listener is not listener:
                    client.close()
                    upstream.close()
                    return
                self._sockets |= {client, upstream}
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(a, b), name="proxy-pump", daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for s in (source, sink):
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)
            with self._lock:
                self._sockets -= {source, sink}

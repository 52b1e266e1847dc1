"""Pass TCP connections on: ``nat_forward.py LOCALPORT=HOST:PORT ...`` listens at
127.0.0.1:LOCALPORT and connects each client to HOST:PORT (e2e/netlab.py runs it in a home
namespace, so a page there reaches the public network's site and tracker through the NAT at
an address its Content-Security-Policy allows).  Prints "ready" once listening; ends with a
signal or when its stdin closes."""

from __future__ import annotations

import contextlib
import socket
import sys
import threading


def pump(src: socket.socket, dst: socket.socket) -> None:
    try:
        while data := src.recv(65536):
            dst.sendall(data)
    except OSError:
        pass
    finally:
        for s in (src, dst):
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)


def serve(listener: socket.socket, host: str, port: int) -> None:
    while True:
        client, _ = listener.accept()
        try:
            upstream = socket.create_connection((host, port), timeout=10)
        except OSError:
            client.close()
            continue
        upstream.settimeout(None)
        threading.Thread(target=pump, args=(client, upstream), daemon=True).start()
        threading.Thread(target=pump, args=(upstream, client), daemon=True).start()


def main() -> None:
    for spec in sys.argv[1:]:
        local, _, target = spec.partition("=")
        host, _, port = target.rpartition(":")
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", int(local)))
        listener.listen(64)
        threading.Thread(target=serve, args=(listener, host, int(port)), daemon=True).start()
    print("ready", flush=True)
    sys.stdin.read()


if __name__ == "__main__":
    main()

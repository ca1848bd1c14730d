# h12-probe-py -- hostile561 fixture: a student who looks at its box.
#
# On every move: says in one line ("h561 probe {json}") what a program can
# see of its surroundings: its uid and gid, capabilities, no_new_privs, its
# environment, its open file descriptors, its limits, its namespaces, its
# cgroup, the network interfaces, how many processes /proc shows, whether
# /root, /home and /etc/shadow can be read and whether /, /usr, /etc, /tmp
# and /var/tmp may be written (asked with access(2), never done); tries
# setuid(0). Then plays as s01-first-py. It harms nothing.
# Expected in a box: not root, no capabilities, no_new_privs 1, environment
# PATH, HOME (its folder) and LANG only, fds 0-2, 512 open files, 256 MiB
# files, namespaces of its own, only the loopback interface; it plays
# exactly as s01-first-py.
#
# Run it only through `duel referee` / `duel tournament`, in a box.
import fcntl
import json
import os
import resource
import socket
import sys

sys.dont_write_bytecode = True  # leave no __pycache__ in the folder
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# s01-first-py's move generator and this class's kit, copied beside this
# file when the test builds the class (tests/python/test_hostile_class.py).
from first_move import *  # noqa: E402,F401,F403
from hostile_kit import *  # noqa: E402,F401,F403


def status():
    out = {}
    for line in (read("/proc/self/status") or b"").decode().splitlines():
        key, _, value = line.partition(":")
        if key in ("Uid", "Gid", "CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb",
                   "NoNewPrivs", "Seccomp"):
            out[key] = value.split()
    return out


def writable(path):
    return os.access(path, os.W_OK)  # asks; writes nothing


def attack():
    mark("probe")
    p = {"uid": os.getuid(), "euid": os.geteuid(), "gid": os.getgid(), "status": status(),
         "environ": dict(os.environ), "cwd": os.getcwd()}
    fds = []
    for fd in range(0, 1024):
        try:
            fcntl.fcntl(fd, fcntl.F_GETFD)
            fds.append(fd)
        except OSError:
            pass
    p["fds"] = fds
    p["rlimits"] = {name: resource.getrlimit(getattr(resource, name))
                    for name in ("RLIMIT_NOFILE", "RLIMIT_NPROC", "RLIMIT_FSIZE", "RLIMIT_CORE",
                                 "RLIMIT_AS")}
    ns = {}
    for kind in ("pid", "net", "mnt", "ipc", "uts", "user", "cgroup"):
        try:
            ns[kind] = os.readlink("/proc/self/ns/" + kind)
        except OSError:
            ns[kind] = None
    p["namespaces"] = ns
    p["cgroup"] = (read("/proc/self/cgroup") or b"").decode()
    try:
        p["interfaces"] = sorted(name for _, name in socket.if_nameindex())
    except OSError:
        p["interfaces"] = None
    p["processes"] = sum(1 for e in os.listdir("/proc") if e.isdigit())
    p["hostname"] = socket.gethostname()
    p["read"] = {path: read(path, 64) is not None for path in ("/etc/shadow",)}
    for path in ("/root", "/home"):
        try:
            p["read"][path] = sorted(os.listdir(path))
        except OSError:
            p["read"][path] = None
    p["write"] = {path: writable(path) for path in ("/", "/usr", "/etc", "/tmp", "/var/tmp")}
    try:
        os.setuid(0)
        p["setuid0"] = True
    except OSError:
        p["setuid0"] = False
    say("probe", json.dumps(p, sort_keys=True))


if __name__ == "__main__":
    run(attack)

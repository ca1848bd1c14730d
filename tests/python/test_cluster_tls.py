"""A Dask cluster that speaks only TLS (docs/cluster.md, "Keeping the cluster
private"): `duel tournament --scheduler tls://... --tls-ca --tls-cert --tls-key`
plays the same table there as locally, and without the certificates it is
refused in one line instead of running anything.

The certificates are made here with openssl: a CA of the test's own and one
key and certificate (for 127.0.0.1) that the scheduler, the worker and duel
all use, as a small cluster would.
"""

import os
import shutil
import signal
import socket
import subprocess
import sys
import time

import pytest

from conftest import duel_bin

pytest.importorskip("distributed", reason="python3-distributed is not installed")
DASK = shutil.which("dask") or "/usr/bin/dask"
OPENSSL = shutil.which("openssl") or "/usr/bin/openssl"

TOURNAMENT = ["tournament", "gardner", "--agent", "engine:nodes=3000", "--agent", "random",
              "--games", "2", "--seed", "3", "--quiet"]


def certificates(folder):
    """ca.pem, and node.pem / node.key signed by it for 127.0.0.1."""
    def ssl(*args):
        subprocess.run([OPENSSL, *args], cwd=folder, check=True, capture_output=True)
    ssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem",
        "-days", "2", "-subj", "/CN=duel test CA")
    ssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", "node.key", "-out", "node.csr",
        "-subj", "/CN=127.0.0.1")
    (folder / "san.ext").write_text("subjectAltName=IP:127.0.0.1\n")
    ssl("x509", "-req", "-in", "node.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
        "-CAcreateserial", "-out", "node.pem", "-days", "2", "-extfile", "san.ext")
    return [str(folder / f) for f in ("ca.pem", "node.pem", "node.key")]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def workers(address, tls):
    code = ("from distributed import Client; from distributed.security import Security; "
            "s = Security(tls_ca_file=%r, tls_client_cert=%r, tls_client_key=%r, "
            "require_encryption=True); c = Client(%r, timeout=5, security=s); "
            "print(len(c.scheduler_info()['workers'])); c.close()" % (*tls, address))
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    return int(r.stdout.strip() or 0)


@pytest.fixture
def tls_cluster(tmp_path):
    tls = certificates(tmp_path)
    port = free_port()
    address = f"tls://127.0.0.1:{port}"
    flags = ["--tls-ca-file", tls[0], "--tls-cert", tls[1], "--tls-key", tls[2]]
    clean = {k: v for k, v in os.environ.items() if k != "DUEL_BIN"}
    procs = []
    with open(tmp_path / "cluster.log", "w") as log:
        procs.append(subprocess.Popen(
            [DASK, "scheduler", "--host", "127.0.0.1", "--port", str(port), "--protocol", "tls",
             "--no-dashboard", *flags], stdout=log, stderr=log, env=clean,
            start_new_session=True))
        procs.append(subprocess.Popen(
            [DASK, "worker", address, "--nthreads", "1", "--no-nanny", "--no-dashboard",
             *flags], stdout=log, stderr=log, env=clean, start_new_session=True))
    try:
        deadline = time.monotonic() + 60
        while workers(address, tls) < 1:
            assert time.monotonic() < deadline, (tmp_path / "cluster.log").read_text()
            time.sleep(0.3)
        yield address, tls
    finally:
        for p in procs:
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            p.wait()


def run(*args):
    return subprocess.run([duel_bin(), *args], capture_output=True, text=True, timeout=300)


def test_a_tls_cluster_plays_the_local_table_and_refuses_a_client_without_certificates(
        tmp_path, tls_cluster):
    address, (ca, cert, key) = tls_cluster
    local = run(*TOURNAMENT, "--out", str(tmp_path / "local"))
    assert local.returncode == 0, local.stderr
    dask = run(*TOURNAMENT, "--out", str(tmp_path / "dask"), "--scheduler", address,
               "--tls-ca", ca, "--tls-cert", cert, "--tls-key", key)
    assert dask.returncode == 0, dask.stderr
    assert ((tmp_path / "dask" / "results.csv").read_text()
            == (tmp_path / "local" / "results.csv").read_text())
    bare = run(*TOURNAMENT, "--out", str(tmp_path / "bare"), "--scheduler", address)
    assert bare.returncode != 0
    assert len(bare.stderr.strip().splitlines()) == 1, bare.stderr
    assert not (tmp_path / "bare" / "results.csv").exists()

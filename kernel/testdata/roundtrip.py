"""Measure grundy's kernel latency through Debian's jupyter_client.

Usage: /usr/bin/python3 kernel/testdata/roundtrip.py [--binary PATH]... [-n N] [--rounds R] [--code CODE]

  startup:   process start -> first kernel_info_reply (median of 5 starts per round)
  roundtrip: execute_request sent -> status idle received, for a trivial
             cell (default "1"), median / p90 / min over N runs after warm-up

Without --binary it runs the kernelspec "grundy" (see `grundy install`).
With several --binary (say, a build of main and one of a branch) their
kernels run side by side and take turns, cell by cell (and start by
start), so that a noisy machine weighs on each alike; each is compared
with the first.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import zmq
from jupyter_client.blocking import BlockingKernelClient
from jupyter_client.connect import write_connection_file
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.session import Session


def binary_from_kernelspec():
    spec = KernelSpecManager().get_kernel_spec("grundy")
    return spec.argv[0]


def start_once(binary):
    """Seconds from Popen to the first kernel_info_reply."""
    d = tempfile.mkdtemp(prefix="grundy-rt-")
    cf, info = write_connection_file(os.path.join(d, "kernel.json"))
    session = Session(key=info["key"].encode() if isinstance(info["key"], str) else info["key"])
    ctx = zmq.Context.instance()
    sock = ctx.socket(zmq.DEALER)
    # Retry quickly so the measurement is the kernel's, not libzmq's 100 ms
    # reconnect interval.
    sock.setsockopt(zmq.RECONNECT_IVL, 1)
    sock.setsockopt(zmq.LINGER, 0)
    sock.connect("tcp://%s:%d" % (info["ip"], info["shell_port"]))
    t0 = time.perf_counter()
    proc = subprocess.Popen([binary, "kernel", cf], stderr=subprocess.DEVNULL)
    try:
        session.send(sock, "kernel_info_request", {})
        poller = zmq.Poller()
        poller.register(sock, zmq.POLLIN)
        if not poller.poll(10000):
            raise SystemExit("no kernel_info_reply within 10 s")
        idents, msg = session.recv(sock)
        took = time.perf_counter() - t0
        assert msg["msg_type"] == "kernel_info_reply", msg["msg_type"]
    finally:
        sock.close()
        proc.kill()
        proc.wait()
    return took


class Kernel:
    """A kernel process and a client connected to it."""

    def __init__(self, binary):
        d = tempfile.mkdtemp(prefix="grundy-rt-")
        cf, info = write_connection_file(os.path.join(d, "kernel.json"))
        self.proc = subprocess.Popen([binary, "kernel", cf], stderr=subprocess.DEVNULL)
        self.kc = BlockingKernelClient(connection_file=cf)
        self.kc.load_connection_file()
        self.kc.start_channels()
        self.kc.wait_for_ready(timeout=30)

    def once(self, code):
        """Seconds from execute_request to the status idle it causes."""
        kc = self.kc
        t0 = time.perf_counter()
        msg_id = kc.execute(code)
        while True:
            m = kc.get_iopub_msg(timeout=10)
            if (m["msg_type"] == "status" and m["content"]["execution_state"] == "idle"
                    and m["parent_header"].get("msg_id") == msg_id):
                break
        dt = time.perf_counter() - t0
        kc.get_shell_msg(timeout=10)
        return dt

    def close(self):
        self.kc.stop_channels()
        self.proc.kill()
        self.proc.wait()


def roundtrips(binaries, n, code):
    """n trivial cells on each binary's kernel, all kernels up at once and
    taking turns cell by cell, so that the machine's load at any moment
    weighs on each alike."""
    kernels = [Kernel(b) for b in binaries]
    try:
        for k in kernels:
            for _ in range(20):
                k.once(code)
        times = [[] for _ in kernels]
        for _ in range(n):
            for i, k in enumerate(kernels):
                times[i].append(k.once(code))
        return dict(zip(binaries, times))
    finally:
        for k in kernels:
            k.close()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", action="append")
    ap.add_argument("-n", type=int, default=300)
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--code", default="1")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    binaries = a.binary or [binary_from_kernelspec()]
    starts = {b: [] for b in binaries}
    rts = {b: [] for b in binaries}
    per_round = max(1, a.n // a.rounds)
    for _ in range(a.rounds):
        for b in binaries:
            starts[b] += [start_once(b) for _ in range(5)]
        for b, t in roundtrips(binaries, per_round, a.code).items():
            rts[b] += t
    results = []
    for b in binaries:
        r = sorted(rts[b])
        results.append({
            "binary": b,
            "startup_ms_median": statistics.median(starts[b]) * 1e3,
            "startup_ms_max": max(starts[b]) * 1e3,
            "roundtrip_ms_median": statistics.median(r) * 1e3,
            "roundtrip_ms_p90": r[int(len(r) * 0.9)] * 1e3,
            "roundtrip_ms_min": r[0] * 1e3,
            "n": len(r),
            "starts": len(starts[b]),
            "code": a.code,
        })
    if a.json:
        print(json.dumps(results if len(results) > 1 else results[0]))
        return
    for res in results:
        print(res["binary"])
        print("  first kernel_info_reply after process start: median %.1f ms, max %.1f ms (%d starts)" % (
            res["startup_ms_median"], res["startup_ms_max"], res["starts"]))
        print("  trivial cell %r execute_request -> idle: median %.2f ms, p90 %.2f ms, min %.2f ms (n=%d)" % (
            res["code"], res["roundtrip_ms_median"], res["roundtrip_ms_p90"], res["roundtrip_ms_min"], res["n"]))
    base = results[0]
    for res in results[1:]:
        print("%s / %s: round trip median x%.3f, start-up median x%.3f" % (
            res["binary"], base["binary"], res["roundtrip_ms_median"] / base["roundtrip_ms_median"],
            res["startup_ms_median"] / base["startup_ms_median"]))


if __name__ == "__main__":
    main()

"""Measure grundy's kernel latency through Debian's jupyter_client.

Usage: /usr/bin/python3 kernel/testdata/roundtrip.py [--binary PATH] [-n N] [--code CODE]

  startup:   process start -> first kernel_info_reply (median of 5 starts)
  roundtrip: execute_request sent -> status idle received, for a trivial
             cell (default "1"), median / p90 / min over N runs after warm-up

Without --binary it runs the kernelspec "grundy" (see `grundy install`).
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


def roundtrips(binary, n, code):
    d = tempfile.mkdtemp(prefix="grundy-rt-")
    cf, info = write_connection_file(os.path.join(d, "kernel.json"))
    proc = subprocess.Popen([binary, "kernel", cf], stderr=subprocess.DEVNULL)
    kc = BlockingKernelClient(connection_file=cf)
    kc.load_connection_file()
    kc.start_channels()
    try:
        kc.wait_for_ready(timeout=30)

        def once():
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

        for _ in range(20):
            once()
        return [once() for _ in range(n)]
    finally:
        kc.stop_channels()
        proc.kill()
        proc.wait()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary")
    ap.add_argument("-n", type=int, default=300)
    ap.add_argument("--code", default="1")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    binary = a.binary or binary_from_kernelspec()
    starts = [start_once(binary) for _ in range(5)]
    rts = sorted(roundtrips(binary, a.n, a.code))
    res = {
        "startup_ms_median": statistics.median(starts) * 1e3,
        "startup_ms_max": max(starts) * 1e3,
        "roundtrip_ms_median": statistics.median(rts) * 1e3,
        "roundtrip_ms_p90": rts[int(len(rts) * 0.9)] * 1e3,
        "roundtrip_ms_min": rts[0] * 1e3,
        "n": len(rts),
        "code": a.code,
    }
    if a.json:
        print(json.dumps(res))
    else:
        print("first kernel_info_reply after process start: median %.1f ms, max %.1f ms (5 starts)" % (res["startup_ms_median"], res["startup_ms_max"]))
        print("trivial cell %r execute_request -> idle: median %.2f ms, p90 %.2f ms, min %.2f ms (n=%d)" % (
            a.code, res["roundtrip_ms_median"], res["roundtrip_ms_p90"], res["roundtrip_ms_min"], res["n"]))


if __name__ == "__main__":
    main()

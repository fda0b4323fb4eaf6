#!/usr/bin/env python3
"""One account's slow work beside another account's quick reads (issue 19, item 3).

Account A keeps 8 slow operations going: 4 loops replaying dead letters to an endpoint that
never answers (each waits the 10 s webhook timeout) and 4 loops posting 10,000-row consent
batches (CPU and database work). Account B reads GET /v1/accounts/me in a loop on one
keep-alive connection, 50 a second. Rounds alternate: B alone, then B beside A's load. Printed per round:
B's requests, p50 and p99 latency, and the API's CPU time (from /proc); then the medians of
the alternating rounds. Everything goes to 127.0.0.1. Standard library only.
"""
import argparse
import http.client
import http.server
import json
import os
import statistics
import threading
import time
import uuid


def call(conn, method, path, key=None, body=None):
    headers = {"Connection": "keep-alive"}
    if key:
        headers["Authorization"] = "Bearer " + key
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    conn.request(method, path, body=data, headers=headers)
    response = conn.getresponse()
    raw = response.read()
    return response.status, (json.loads(raw) if raw else None)


def connect(api):
    host, port = api.replace("http://", "").split(":")
    return http.client.HTTPConnection(host, int(port), timeout=120)


def sign_up(api):
    conn = connect(api)
    status, body = call(conn, "POST", "/v1/accounts", body={
        "name": "Bench", "email": "bench+%s@example.ca" % uuid.uuid4().hex,
        "password": "a long passphrase", "accept_terms": True})
    assert status == 201, body
    keys = {k["mode"]: k["key"] for k in body["api_keys"]}
    return body["account"]["id"], keys["TEST"]


class Endpoint(http.server.BaseHTTPRequestHandler):
    """Answers 500 while `failing`, then holds every request without answering."""
    failing = True

    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        if Endpoint.failing:
            self.send_response(500)
            self.send_header("Content-Length", "0")
            self.end_headers()
        else:
            time.sleep(15)  # past the API's 10 s webhook timeout

    def log_message(self, *args):
        pass


def dead_letters(api, key, url, count):
    conn = connect(api)
    status, hook = call(conn, "POST", "/v1/webhooks", key,
                        {"url": url, "events": ["message.queued"]})
    assert status == 201, hook
    for _ in range(count):
        call(conn, "POST", "/v1/messages", key, {"from": "+14165550100", "to": "+14162220124",
                                                  "body": "hi", "skip_consent_check": True})
    path = "/v1/webhooks/" + hook["id"]
    for _ in range(600):
        if call(conn, "GET", path, key)[1]["failed_events"] >= count:
            break
        time.sleep(0.1)
    call(conn, "PATCH", path, key, {"active": False})
    letters = call(conn, "GET", path + "/dead-letters", key)[1]["data"]
    return ["/v1/webhooks/dead-letters/%s/replay" % l["id"] for l in letters]


def batch_body(size):
    return {"attested": True,
            "defaults": {"consent_type": "express", "source_description": "bench"},
            "rows": [{"phone_number": "+1416%07d" % (2000000 + i)} for i in range(size)]}


def api_cpu_seconds(pid):
    with open("/proc/%d/stat" % pid) as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def quick_reads(api, key, seconds, rate):
    """B's reads at a steady `rate` a second (under the 100 a second an account may make)."""
    conn = connect(api)
    latencies = []
    start = time.monotonic()
    for n in range(int(seconds * rate)):
        due = start + n / rate
        time.sleep(max(0.0, due - time.monotonic()))
        started = time.monotonic()
        status, _ = call(conn, "GET", "/v1/accounts/me", key)
        latencies.append((time.monotonic() - started) * 1000)
        assert status == 200, status
    return latencies


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p / 100))]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--api", default="http://127.0.0.1:8180")
    parser.add_argument("--api-pid", type=int, required=True)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=int, default=20)
    parser.add_argument("--batch-rows", type=int, default=10000)
    parser.add_argument("--rate", type=int, default=50, help="B's reads per second")
    args = parser.parse_args()

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Endpoint)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    _, slow_key = sign_up(args.api)
    _, quick_key = sign_up(args.api)
    replays = dead_letters(args.api, slow_key, "http://127.0.0.1:%d/hook" % server.server_port, 4)
    Endpoint.failing = False
    batch = batch_body(args.batch_rows)

    stop = threading.Event()
    slow_done = {"replays": 0, "batches": 0, "refused": 0}

    def replay_loop(path):
        conn = connect(args.api)
        while not stop.is_set():
            status, _ = call(conn, "POST", path, slow_key)
            slow_done["refused" if status == 429 else "replays"] += 1

    def batch_loop():
        conn = connect(args.api)
        while not stop.is_set():
            status, _ = call(conn, "POST", "/v1/compliance/consent-batches", slow_key, batch)
            slow_done["refused" if status == 429 else "batches"] += 1

    rows = []
    for round_number in range(args.rounds):
        for loaded in (False, True):
            threads = []
            if loaded:
                stop.clear()
                threads = [threading.Thread(target=replay_loop, args=(p,)) for p in replays]
                threads += [threading.Thread(target=batch_loop) for _ in range(4)]
                for t in threads:
                    t.start()
                time.sleep(2)  # every slow loop under way
            cpu_before = api_cpu_seconds(args.api_pid)
            latencies = quick_reads(args.api, quick_key, args.seconds, args.rate)
            cpu = api_cpu_seconds(args.api_pid) - cpu_before
            stop.set()
            for t in threads:
                t.join()
            row = {"round": round_number + 1, "load": "8 slow ops" if loaded else "none",
                   "reads": len(latencies), "p50_ms": percentile(latencies, 50),
                   "p99_ms": percentile(latencies, 99), "max_ms": max(latencies),
                   "api_cpu_s": cpu}
            rows.append(row)
            print("round %(round)d  A's load: %(load)-10s  B: %(reads)5d reads  p50 %(p50_ms)6.1f ms"
                  "  p99 %(p99_ms)6.1f ms  max %(max_ms)7.1f ms  API CPU %(api_cpu_s)5.1f s" % row,
                  flush=True)
    print("A's slow work done while loaded: %(replays)d replays (each 10 s), %(batches)d batches "
          "of %%d rows, %(refused)d refused with 429" % slow_done % args.batch_rows)
    for load in ("none", "8 slow ops"):
        chosen = [r for r in rows if r["load"] == load]
        print("median of %d rounds, A's load %-10s: B p50 %.1f ms, p99 %.1f ms, %d reads per round"
              % (len(chosen), load, statistics.median(r["p50_ms"] for r in chosen),
                 statistics.median(r["p99_ms"] for r in chosen),
                 statistics.median(r["reads"] for r in chosen)))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""The deployment test: deploy/compose.yaml as production runs it, under podman.

It starts the compose file with tests/deploy/compose.test.yaml (a carrier and a customer played
by the simulator): 3 Kafka brokers, PostgreSQL, the balancer, 2 API instances and 2 of every
worker, all in production mode with secrets made here. Through the balancer (TLS) it runs the
README's tour, then LIVE sends with inbound texts and webhooks while it kills an API container,
kills a broker container and restarts PostgreSQL's. It then checks that every message was
accepted once, handed to the carrier once, charged once and delivered; every inbound text
received once; every webhook event delivered; every container running and healthy. Last, `down`
and `up` again: the data is still there.

Usage: tests/deploy/deployment_test.py [--build] [--sends 2000] [--inbound 200] [--keep]
  --build  build the images first (ops/deploy images)
  --keep   leave the deployment up at the end (`ops/deploy compose down -v` with the same
           COMPOSE_PROJECT and COMPOSE_FILES removes it)
Traffic goes to 127.0.0.1 and to the compose networks only.
"""
import argparse
import base64
import concurrent.futures
import json
import os
import re
import secrets
import shutil
import ssl
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PROJECT = os.environ.get("DEPLOY_TEST_PROJECT", "smsgw-test")
WORK = Path(os.environ.get("DEPLOY_TEST_DIR", "/var/tmp/smsgw-deploy/test"))
LB_PORT = int(os.environ.get("DEPLOY_TEST_LB_PORT", "18443"))
SIM_PORT = int(os.environ.get("DEPLOY_TEST_SIM_PORT", "18490"))
API = f"https://localhost:{LB_PORT}"
SIM = f"http://127.0.0.1:{SIM_PORT}"
PROMETHEUS = f"http://127.0.0.1:{int(os.environ.get('DEPLOY_TEST_PROMETHEUS_PORT', '19090'))}"
# Documentation ranges for compose.test.yaml's customer network (DEPLOY_CUSTOMER_NET).
CUSTOMER_NETS = ["198.51.100", "203.0.113"]
# The spec paces a local number at 10 parts a minute: 90 accounts with 2 numbers each carry
# 2,000 sends in about a minute. (ops/bench/seed.sql gives account i recipients in exchange
# 220 + i: a 91st would meet 311, a reserved N11 exchange.)
ACCOUNTS, RECIPIENTS = 90, 12
# The process kinds, each with its own PostgreSQL role (smsgw_<kind>) and Kafka user.
KINDS = ["api", "sender", "receipt", "inbound_keyword", "webhook_dispatcher", "rent_billing"]
EVENTS = ["message.queued", "message.sent", "message.delivered", "message.received"]
started = time.monotonic()


def say(text):
    print(f"[deploy-test {time.monotonic() - started:6.1f}s] {text}", flush=True)


def run(args, env=None, input=None, check=True, quiet=False):
    result = subprocess.run(args, env=env, input=input, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE if quiet else None)
    if check and result.returncode != 0:
        raise RuntimeError(f"{' '.join(map(str, args))} exited {result.returncode}"
                           + (f":\n{result.stderr[-3000:]}" if quiet else ""))
    return result


class Deployment:
    """The compose project: its settings, its containers, its database."""

    def __init__(self):
        self.env = dict(os.environ)
        self.ssl = None

    def prepare(self):
        """Secrets, certificates and the trust bundle, made fresh for each run."""
        WORK.mkdir(parents=True, exist_ok=True)
        deploy = str(REPO / "ops/deploy")
        run([deploy, "cert", str(WORK / "lb"), "lb", "localhost", "127.0.0.1"])
        shutil.rmtree(WORK / "kafka-tls", ignore_errors=True)  # ops/deploy makes them anew
        self.customer_net = customer_net()
        self.endpoint = f"https://{self.customer_net}.10:8443/sim/webhook-inbox"
        run([deploy, "cert", str(WORK / "endpoint"), f"{self.customer_net}.10"])
        (WORK / "endpoint/endpoint.cfg").write_text(
            (REPO / "tests/deploy/customer-endpoint.cfg").read_text())
        bundle = WORK / "ca-bundle.pem"
        bundle.write_text(Path("/etc/ssl/certs/ca-certificates.crt").read_text() +
                          (WORK / "lb/ca.pem").read_text())
        os.chmod(bundle, 0o644)
        seed, public = ed25519_pair()
        self.env.update({
            "COMPOSE_PROJECT": PROJECT,
            "COMPOSE_FILES": str(REPO / "tests/deploy/compose.test.yaml"),
            "LB_CERT_DIR": str(WORK / "lb"), "LB_PUBLISH": f"127.0.0.1:{LB_PORT}",
            "KAFKA_TLS_DIR": str(WORK / "kafka-tls"),
            "DEPLOY_ENDPOINT_DIR": str(WORK / "endpoint"), "DEPLOY_CA_BUNDLE": str(bundle),
            "DEPLOY_SIM_PORT": str(SIM_PORT), "DEPLOY_CUSTOMER_NET": self.customer_net, "PROMETHEUS_PUBLISH": PROMETHEUS[len("http://"):],
            "POSTGRES_PASSWORD": secrets.token_urlsafe(24),
            **{f"POSTGRES_{kind.upper()}_PASSWORD": secrets.token_urlsafe(24) for kind in KINDS},
            "CARRIER_BASE_URL": "http://carrier-sim:8090",
            "CARRIER_API_KEY": "KEY" + secrets.token_hex(16),
            "SIM_WEBHOOK_PRIVATE_KEY": seed, "TELNYX_PUBLIC_KEY": public,
            "TELNYX_MESSAGING_PROFILE_ID": str(uuid.uuid4()),
            "VERIFICATION_CODE_SECRET": secrets.token_urlsafe(32),
            "PUBLIC_BASE_URL": API, "OAUTH_FORM_SECRET": secrets.token_urlsafe(32),
        })
        self.ssl = ssl.create_default_context(cafile=str(bundle))
        # For whoever looks at a kept deployment: `source` it, then `ops/deploy compose ps`.
        names = ["COMPOSE_PROJECT", "COMPOSE_FILES", "LB_CERT_DIR", "LB_PUBLISH", "KAFKA_TLS_DIR",
                 "DEPLOY_ENDPOINT_DIR", "DEPLOY_CA_BUNDLE", "DEPLOY_SIM_PORT", "PROMETHEUS_PUBLISH",
                 "DEPLOY_CUSTOMER_NET",
                 "POSTGRES_PASSWORD", *[f"POSTGRES_{kind.upper()}_PASSWORD" for kind in KINDS],
                 "CARRIER_BASE_URL", "CARRIER_API_KEY", "SIM_WEBHOOK_PRIVATE_KEY",
                 "TELNYX_PUBLIC_KEY", "TELNYX_MESSAGING_PROFILE_ID", "VERIFICATION_CODE_SECRET",
                 "PUBLIC_BASE_URL", "OAUTH_FORM_SECRET"]
        env_file = WORK / "env"
        env_file.write_text("".join(f"export {n}='{self.env[n]}'\n" for n in names))
        os.chmod(env_file, 0o600)

    def compose(self, *args, check=True):
        return run([str(REPO / "ops/deploy"), "compose", *args], env=self.env, check=check,
                   quiet=True)

    def up(self):
        run([str(REPO / "ops/deploy"), "up"], env=self.env)

    def containers(self):
        """{name: (service, state)} for every container of the project."""
        out = run(["podman", "ps", "-a", "--filter", f"label=io.podman.compose.project={PROJECT}",
                   "--format", "json"], quiet=True).stdout
        return {c["Names"][0]: (c["Labels"].get("com.docker.compose.service", ""), c["State"])
                for c in json.loads(out or "[]")}

    def container(self, service):
        names = sorted(n for n, (s, _) in self.containers().items() if s == service)
        if not names:
            raise RuntimeError(f"no container for {service}")
        return names[0]

    def crash(self, service):
        """SIGKILL to the container's process from outside the engine, as a crash: `podman
        kill` counts as the operator's stop, after which no restart policy restarts it."""
        pid = run(["podman", "inspect", "--format", "{{.State.Pid}}", self.container(service)],
                  quiet=True).stdout.strip()
        os.kill(int(pid), 9)

    def psql(self, sql):
        return run(["podman", "exec", "-i", "-e", f"PGPASSWORD={self.env['POSTGRES_PASSWORD']}",
                    self.container("postgres"), "psql", "-U", "smsgw",
                    "-d", "smsgw", "-v", "ON_ERROR_STOP=1", "-At", "-F", "\t", "-c", sql],
                   quiet=True).stdout.strip()

    def refusal_as(self, kind, sql):
        """What PostgreSQL answers `sql` run as the process kind's role: its error, or "" when
        it ran."""
        result = run(["podman", "exec", "-e",
                      f"PGPASSWORD={self.env[f'POSTGRES_{kind.upper()}_PASSWORD']}",
                      self.container("postgres"), "psql", "-h", "127.0.0.1", "-U",
                      f"smsgw_{kind}", "-d", "smsgw", "-c", sql], check=False, quiet=True)
        return result.stderr if result.returncode != 0 else ""

    def psql_file(self, path, variables):
        args = ["podman", "exec", "-i", "-e", f"PGPASSWORD={self.env['POSTGRES_PASSWORD']}",
                self.container("postgres"), "psql", "-U", "smsgw",
                "-d", "smsgw", "-q", "-v", "ON_ERROR_STOP=1"]
        for name, value in variables.items():
            args += ["-v", f"{name}={value}"]
        run(args, input=Path(path).read_text(), quiet=True)

    def request(self, method, path, key=None, body=None, headers=None, base=API, timeout=15):
        """(status, parsed body, headers); status 0 when no answer came."""
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(base + path, data=data, method=method)
        if key:
            req.add_header("Authorization", f"Bearer {key}")
        if data is not None:
            req.add_header("Content-Type", "application/json")
        for name, value in (headers or {}).items():
            req.add_header(name, value)
        try:
            context = self.ssl if base.startswith("https") else None
            with urllib.request.urlopen(req, timeout=timeout, context=context) as answer:
                return answer.status, parse(answer.read()), answer.headers
        except urllib.error.HTTPError as error:
            return error.code, parse(error.read()), error.headers
        except (urllib.error.URLError, OSError):
            return 0, None, {}

    def wait_ready(self, what, limit=240):
        """Until the balancer answers a public read and every gateway container is healthy."""
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            if self.request("GET", "/dashboard")[0] == 200 and not self.unhealthy():
                return
            time.sleep(2)
        raise RuntimeError(f"{what}: not ready in {limit} s; unhealthy: {self.unhealthy()}")

    def unhealthy(self):
        """Containers that should run and do not, or whose health check fails (ops/deploy
        health runs the checks: the engine's timers need systemd)."""
        result = run([str(REPO / "ops/deploy"), "health"], env=self.env, check=False, quiet=True)
        return result.stdout.split("\n")[:-1] if result.returncode else []


def parse(raw):
    try:
        return json.loads(raw or b"null")
    except ValueError:
        return raw


def remove_leftovers():
    """What an earlier run of this project left (--keep, or a run cut short): containers,
    volumes and networks, so that none of its state or addresses is met again."""
    label = f"label=io.podman.compose.project={PROJECT}"
    for kind, listing in (("container", ["ps", "-aq"]), ("volume", ["volume", "ls", "-q"])):
        ids = run(["podman", *listing, "--filter", label], quiet=True).stdout.split()
        if ids:
            run(["podman", kind, "rm", "-f", *ids], check=False, quiet=True)
    networks = run(["podman", "network", "ls", "--format", "{{.Name}}"], quiet=True).stdout
    ours = [n for n in networks.split() if n.startswith(f"{PROJECT}_")]
    if ours:
        run(["podman", "network", "rm", "-f", *ours], check=False, quiet=True)


def customer_net():
    """A documentation /24 that no name this machine fetches from resolves into and no route
    already covers: here the package mirrors answer at 203.0.113.80, and a bridge on that
    range would cut the machine off from them while the deployment is up."""
    names = ["deb.debian.org", "registry.npmjs.org", "pypi.org", "repo1.maven.org"]
    used = set()
    for name in names:
        result = run(["getent", "ahostsv4", name], check=False, quiet=True)
        used |= {line.split()[0].rsplit(".", 1)[0] for line in result.stdout.splitlines()}
    routes = run(["ip", "-4", "route"], quiet=True).stdout
    for net in CUSTOMER_NETS:
        if net not in used and f"{net}.0/24" not in routes:
            return net
    raise RuntimeError(f"every documentation range is in use here: {CUSTOMER_NETS}")


def ed25519_pair():
    """A fresh Ed25519 key: the simulator's signing seed and the gateway's public key, each
    the 32 raw bytes in base64, as the settings take them."""
    with tempfile.TemporaryDirectory() as folder:
        key = Path(folder) / "key.pem"
        run(["openssl", "genpkey", "-algorithm", "ed25519", "-out", str(key)], quiet=True)
        private = subprocess.run(["openssl", "pkey", "-in", str(key), "-outform", "DER"],
                                 capture_output=True, check=True).stdout
        public = subprocess.run(["openssl", "pkey", "-in", str(key), "-pubout", "-outform", "DER"],
                                capture_output=True, check=True).stdout
    return base64.b64encode(private[-32:]).decode(), base64.b64encode(public[-32:]).decode()


def run_tour(d):
    """The README's tour and docs/tour.md, as written, through the balancer. The staff steps
    run smsgw-admin inside a worker's container, as an operator would (`compose exec`)."""
    tools = WORK / "tour-build/ops"
    tools.mkdir(parents=True, exist_ok=True)
    admin = tools / "smsgw-admin"
    admin.write_text(f'#!/bin/sh\nexec podman exec {d.container("rent-billing")} smsgw-admin "$@"\n')
    admin.chmod(0o755)
    env = dict(d.env, API_URL=API, SIM_URL=SIM, PG_PORT="5432", TOUR_WEBHOOK_URL=d.endpoint,
               CURL_CA_BUNDLE=d.env["DEPLOY_CA_BUNDLE"])
    tour = run(["bash", str(REPO / "tests/tour/readme-tour.sh"), str(WORK / "tour-build")],
               env=env)
    say(tour.stdout.strip().split("\n")[-1])


class Load:
    """LIVE sends from the bench's seeded accounts, each retried with its Idempotency-Key until
    answered (a killed instance, a restarting database), and inbound texts at the carrier."""

    def __init__(self, d, sends, inbound):
        self.d, self.sends, self.inbound = d, sends, inbound
        self.run_id = secrets.token_hex(4)
        self.accepted = {}  # send index -> message id
        self.answers = []  # monotonic time of each accepted send
        self.lock = threading.Lock()
        self.retries = 0
        self.fault_times = []  # (name, monotonic time)

    def seed(self):
        permissions = ('{"messages":"rwmd","compliance":"rwmd","phone_numbers":"rwmd",'
                       '"webhooks":"rwmd"}')
        self.d.psql_file(REPO / "ops/bench/seed.sql", {"accounts": ACCOUNTS,
                                                       "recipients": RECIPIENTS,
                                                       "permissions": permissions})
        self.mark = self.d.psql("SELECT now()")
        self.keys = [f"mk_live_{i:032d}" for i in range(1, ACCOUNTS + 1)]
        for key in self.keys:
            status, body, _ = self.d.request("POST", "/v1/webhooks", key,
                                             {"url": self.d.endpoint, "events": EVENTS})
            if status != 201:
                raise RuntimeError(f"webhook registration answered {status}: {body}")

    def route(self, i):
        """(key, from, to) of send or inbound text i, as ops/bench/seed.sql numbers them."""
        account = i % ACCOUNTS + 1
        recipient = (i // ACCOUNTS) % RECIPIENTS + 1
        sender = f"+1613{4000000 + account * 10 + 1 + i % 2}"
        return self.keys[account - 1], sender, f"+1514{2200000 + account * 10000 + recipient}"

    def send(self, i):
        key, sender, to = self.route(i)
        body = {"from": sender, "to": to, "body": f"deploy {self.run_id} send {i}"}
        headers = {"Idempotency-Key": f"deploy-{self.run_id}-{i}"}
        delay = 0.2
        while True:
            status, answer, head = self.d.request("POST", "/v1/messages", key, body, headers)
            if status in (200, 201, 202):
                with self.lock:
                    self.accepted[i] = answer["id"]
                    self.answers.append(time.monotonic())
                return
            if status not in (0, 429, 500, 502, 503, 504):
                raise RuntimeError(f"send {i} answered {status}: {answer}")
            with self.lock:
                self.retries += 1
            time.sleep(float(head.get("Retry-After", delay)) if head else delay)
            delay = min(delay * 2, 3)

    def text_in(self, j):
        _, number, customer = self.route(j)
        while True:  # the simulator itself stays up; its callbacks are what the faults meet
            status, _, _ = self.d.request("POST", "/sim/inbound", body={
                "from": customer, "to": number, "text": f"deploy {self.run_id} inbound {j}"},
                base=SIM)
            if 200 <= status < 300:
                return
            time.sleep(0.5)

    def drive(self, faults):
        """The sends on 8 threads and the inbound texts beside them; each fault runs when its
        share of the sends has been accepted."""
        pending = sorted(faults, key=lambda f: f[0])
        every = max(1, self.sends // max(1, self.inbound))
        with concurrent.futures.ThreadPoolExecutor(8) as pool:
            futures = []
            for i in range(self.sends):
                futures.append(pool.submit(self.send, i))
                if i % every == 0 and i // every < self.inbound:
                    futures.append(pool.submit(self.text_in, i // every))
                while pending and len(self.accepted) >= pending[0][0] * self.sends:
                    share, name, action = pending.pop(0)
                    say(f"fault at {len(self.accepted)} sends: {name}")
                    self.fault_times.append((name, time.monotonic()))
                    action()
                while len(futures) - sum(f.done() for f in futures) > 64:
                    time.sleep(0.05)
            for future in futures:
                future.result()

    def stalls(self):
        """The longest time without an accepted send after each fault (until the next one),
        and overall."""
        times = sorted(self.answers)
        gaps = [(b - a, a) for a, b in zip(times, times[1:])]
        report = {"longest": max(gaps)[0] if gaps else 0}
        bounds = [at for _, at in self.fault_times] + [float("inf")]
        for (name, at), until in zip(self.fault_times, bounds[1:]):
            after = [g for g, start in gaps if at - 1 <= start < until]
            report[name] = max(after) if after else 0
        return report


def settle(d, load, limit=300):
    """Until every send is final, the outbox is empty and every webhook owed was delivered."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        row = d.psql(f"""SELECT
            (SELECT count(*) FROM messages WHERE created_at >= '{load.mark}'
               AND status IN ('QUEUED', 'SENDING')),
            (SELECT count(*) FROM outbox_pending),
            (SELECT count(*) FROM messages WHERE direction = 'INBOUND'
               AND body LIKE 'deploy {load.run_id} inbound %'),
            (SELECT count(*) FROM events e JOIN webhooks w ON w.account_id = e.account_id
               AND w.events ? e.type WHERE e.created_at >= '{load.mark}'
               AND NOT EXISTS (SELECT 1 FROM webhook_deliveries x WHERE x.event_id = e.id
                               AND x.webhook_id = w.id AND x.success))""")
        unsettled, outbox, inbound, undelivered = map(int, row.split("\t"))
        if unsettled == 0 and outbox == 0 and inbound == load.inbound and undelivered == 0:
            return
        time.sleep(3)
    raise RuntimeError(f"not settled in {limit} s: unsettled, outbox, inbound, webhooks owed: {row}")


def check(d, load):
    """Every promise, counted exactly. Returns the list of what failed."""
    failures = []

    def expect(what, got, want):
        say(f"{what}: {got}" + ("" if got == want else f" (expected {want})"))
        if got != want:
            failures.append(what)

    expect("sends accepted", len(load.accepted), load.sends)
    expect("distinct message ids", len(set(load.accepted.values())), load.sends)
    ours = f"body LIKE 'deploy {load.run_id} send %'"
    expect("messages in the database",
           int(d.psql(f"SELECT count(*) FROM messages WHERE {ours}")), load.sends)
    expect("statuses", d.psql(f"SELECT string_agg(status || '=' || n, ' ') FROM (SELECT status, "
                              f"count(*) n FROM messages WHERE {ours} GROUP BY 1) s"),
           f"DELIVERED={load.sends}")
    expect("charges, one per message",
           d.psql(f"""SELECT count(*) || ' rows, ' || count(DISTINCT l.reference_id) || ' messages'
                      FROM ledger_entries l JOIN messages m ON m.id = l.reference_id
                      WHERE m.{ours} AND l.kind = 'sms_outbound'"""),
           f"{load.sends} rows, {load.sends} messages")
    expect("balance = ledger", d.psql("""SELECT count(*) FROM accounts a WHERE balance_cents <>
           (SELECT coalesce(sum(amount_cents), 0) FROM ledger_entries l
            WHERE l.account_id = a.id)"""), "0")
    carried = {}
    status, answer, _ = d.request("GET", "/sim/messages", base=SIM, timeout=60)
    for message in answer["data"] if status == 200 else []:
        if message["text"].startswith(f"deploy {load.run_id} send "):
            carried[message["text"]] = carried.get(message["text"], 0) + 1
    expect("texts the carrier took", len(carried), load.sends)
    expect("texts the carrier took twice", sum(1 for n in carried.values() if n > 1), 0)
    expect("inbound texts received once", d.psql(
        f"SELECT count(*) || '/' || count(DISTINCT body) FROM messages WHERE direction = "
        f"'INBOUND' AND body LIKE 'deploy {load.run_id} inbound %'"),
        f"{load.inbound}/{load.inbound}")
    owed = set(d.psql(f"""SELECT e.id FROM events e JOIN webhooks w ON w.account_id = e.account_id
                         AND w.events ? e.type WHERE e.created_at >= '{load.mark}'""").split())
    status, tally, _ = d.request("GET", "/sim/webhook-inbox/tally", base=SIM, timeout=60)
    received = tally["deliveries"] if status == 200 else {}
    expect("webhook events owed and not received", len(owed - set(received)), 0)
    say(f"webhook events owed {len(owed)}; received more than once "
        f"{sum(1 for e in owed if received.get(e, 0) > 1)} (at least once, by design)")
    expect("containers down or unhealthy", d.unhealthy(), [])
    # Each process kind signs in to PostgreSQL as its own role, which may not change the schema.
    expect("PostgreSQL roles the processes sign in as", d.psql(
        "SELECT string_agg(DISTINCT usename, ' ' ORDER BY usename) FROM pg_stat_activity "
        "WHERE backend_type = 'client backend' AND application_name <> 'psql'"),
        " ".join(sorted(f"smsgw_{kind}" for kind in KINDS)))
    expect("the sender's role refused a DROP TABLE",
           "must be owner" in d.refusal_as("sender", "DROP TABLE messages"), True)
    # And a kind may touch only its tables (db/grants.sql): the dispatcher reads no API key.
    expect("the webhook dispatcher's role refused the API keys",
           "permission denied for table api_keys"
           in d.refusal_as("webhook_dispatcher", "SELECT key_hash FROM api_keys"), True)
    # Kafka takes no one without a certificate, and a process kind only what its ACLs allow.
    outsider = run(["podman", "run", "--rm", "--network", f"{PROJECT}_back", "-e",
                    "KAFKA_BROKERS=kafka-1:9092", "smsgw:latest", "smsgw-admin", "topics", "check"],
                   check=False, quiet=True)
    expect("a Kafka client without a certificate let in", outsider.returncode == 0, False)
    grant = run(["podman", "exec", d.container("sender"), "smsgw-admin", "topics", "create",
                 "--acls"], check=False, quiet=True)
    refused = grant.returncode != 0 and "needs ALTER permission" in grant.stderr
    expect("the sender's certificate refused the cluster's ACLs", refused, True)
    expect("processes Prometheus scrapes, and fails to", prometheus_targets(d), (12, 0))
    status, rules, _ = d.request("GET", "/api/v1/rules?type=alert", base=PROMETHEUS)
    alerts = {r["name"] for g in (rules or {}).get("data", {}).get("groups", []) for r in g["rules"]}
    wanted = set(re.findall(r"- alert: (\w+)", (REPO / "ops/observe/rules.yml").read_text()))
    expect("alert rules of ops/observe/rules.yml not loaded", sorted(wanted - alerts), [])
    return failures


def prometheus_targets(d, limit=60):
    """(targets up, targets down) once every one has been scraped, or when `limit` passes:
    2 API instances and 2 of each of the 5 workers, found through the network's DNS."""
    deadline = time.monotonic() + limit
    while True:
        status, answer, _ = d.request("GET", "/api/v1/targets?state=active", base=PROMETHEUS)
        targets = (answer or {}).get("data", {}).get("activeTargets", []) if status == 200 else []
        up = sum(1 for t in targets if t["health"] == "up")
        if (targets and up == len(targets) and len(targets) >= 12) or time.monotonic() > deadline:
            return up, len(targets) - up
        time.sleep(3)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", action="store_true")
    parser.add_argument("--sends", type=int, default=2000)
    parser.add_argument("--inbound", type=int, default=200)
    parser.add_argument("--keep", action="store_true")
    args = parser.parse_args()
    remove_leftovers()
    d = Deployment()
    if args.build:
        say("building the images (ops/deploy images)")
        run([str(REPO / "ops/deploy"), "images"])
    d.prepare()
    failures = []
    try:
        say("compose up")
        d.up()
        d.wait_ready("first start")
        say(f"up: {len(d.containers())} containers")
        run_tour(d)
        say("tour passed")
        load = Load(d, args.sends, args.inbound)
        load.seed()
        faults = [
            (0.2, "API instance killed", lambda: d.crash("api-1")),
            (0.45, "broker killed", lambda: d.crash("kafka-2")),
            (0.7, "PostgreSQL restarted", lambda: run(["podman", "restart",
                                                        d.container("postgres")], quiet=True)),
        ]
        load.drive(faults)
        say(f"{len(load.accepted)} sends accepted, {load.retries} retried requests")
        for name, seconds in load.stalls().items():
            say(f"stall ({name}): {seconds:.2f} s without an accepted send")
        settle(d, load)
        d.wait_ready("after the faults", limit=120)
        failures += check(d, load)
        say("compose down, then up: the data stays")
        d.compose("down")
        d.up()
        d.wait_ready("second start")
        key, _, _ = load.route(0)
        status, answer, _ = d.request("GET", f"/v1/messages/{load.accepted[0]}", key)
        if status != 200 or answer.get("status") != "DELIVERED":
            failures.append("a message after down and up")
        say(f"after down and up: message {load.accepted[0]} answered {status} "
            f"{answer.get('status') if isinstance(answer, dict) else answer}")
    finally:
        if not args.keep:
            d.compose("down", "-v", check=False)
    say(f"{'PASSED' if not failures else 'FAILED: ' + ', '.join(failures)} "
        f"in {time.monotonic() - started:.0f} s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

"""The outbox's designs side by side (issue 51, item 1), on PostgreSQL alone.

(a) logical decoding: each record is written with pg_logical_emit_message inside the business
    transaction (no table); the relay reads them in commit order from a replication slot with
    pgoutput (messages only: its publication has no table) through the SQL interface, and
    confirms its position with pg_replication_slot_advance once a batch is "published".
(b) the table as it ran until migration 0030 (0018, bound to its cluster by 0029): a row per record in the
    business transaction; the relay reads after its position in (txid, id) order below the
    oldest running transaction and moves the position; the retention purge deletes the rows.

(c) the table with commit stamps, as production runs it since migration 0030: as (b), plus a
    deferred constraint trigger that, at the commit of a transaction that wrote records, gives
    the transaction a number from a sequence (one row in outbox_commits). A transaction waiting
    on another's lock reaches its commit only after the other's commit: its stamp is higher,
    even when it took its transaction id first. The relay publishes in (stamp, id) order up to
    a bound (topics/commit_bound.h): the last stamp handed out, once every transaction that
    was running after it was read has ended. The trigger and the horizon are the repository's
    own functions (db/functions).

Each design runs on a cluster of its own (wal_level logical for (a), replica for (b), as each
would run in production), started here in a scratch folder. A round writes N business
transactions (one row of a messages-like table and one record each) with pgbench, then relays
them all in batches of 500, then (b) purges them. The figure is PostgreSQL's CPU per message
(user and system time of every server process, from /proc), split by phase, and WAL bytes per
message. Rounds alternate a, b, c, a, b, c…; medians at the end.
Usage: outbox_designs.py [--messages 20000] [--rounds 6] [--clients 4]
"""
import argparse
import os
import statistics
import subprocess
import tempfile
import threading
import time

import psycopg2

BIN = sorted(
    (os.path.join("/usr/lib/postgresql", v, "bin") for v in os.listdir("/usr/lib/postgresql")),
    key=lambda p: int(p.split("/")[-2]))[-1]
TICK = os.sysconf("SC_CLK_TCK")
PAYLOAD = '{"v":1,"message_id":"msg_0VcJZaisoLlsoVs95cLdiJdG","from":"+15145550100",' \
          '"to":"+14165550123","parts":1,"request_id":"req_0VcJZaisoLlsoVs95cLdiJdG"}'


def as_server_user(cmd):
    return (["runuser", "-u", "postgres", "--"] + cmd) if os.geteuid() == 0 else cmd


class Cluster:
    def __init__(self, port, wal_level):
        self.dir = tempfile.mkdtemp(prefix="outbox-bench-")
        self.port = port
        if os.geteuid() == 0:
            subprocess.run(["chown", "postgres:postgres", self.dir], check=True)
        subprocess.run(as_server_user([f"{BIN}/initdb", "-D", self.dir, "-U", "postgres", "-A",
                                       "trust", "-E", "UTF8", "--locale=C.UTF-8"]),
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        opts = (f"-p {port} -c listen_addresses=127.0.0.1 -k {self.dir} -c fsync=off "
                f"-c wal_level={wal_level} -c max_replication_slots=4 -c max_wal_senders=4 "
                "-c shared_buffers=256MB")
        subprocess.run(as_server_user([f"{BIN}/pg_ctl", "-D", self.dir, "-l",
                                       f"{self.dir}/server.log", "-w", "start", "-o", opts]),
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.url = f"host=127.0.0.1 port={port} dbname=postgres user=postgres"

    def postmaster(self):
        with open(f"{self.dir}/postmaster.pid") as f:
            return int(f.readline())

    def cpu_seconds(self):
        """Every server process's user and system time, the exited ones included."""
        pm = self.postmaster()
        total = 0
        for pid in os.listdir("/proc"):
            if not pid.isdigit():
                continue
            try:
                with open(f"/proc/{pid}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            ppid = int(fields[1])
            if int(pid) == pm:
                total += sum(int(x) for x in fields[11:15])  # utime stime cutime cstime
            elif ppid == pm:
                total += int(fields[11]) + int(fields[12])
        return total / TICK

    def stop(self):
        subprocess.run(as_server_user([f"{BIN}/pg_ctl", "-D", self.dir, "-m", "immediate",
                                       "stop"]), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        subprocess.run(["rm", "-rf", self.dir])


SCHEMA = """
CREATE TABLE messages (id bigserial PRIMARY KEY, body text NOT NULL,
                       created_at timestamptz NOT NULL DEFAULT now());
CREATE TABLE outbox (txid xid8 NOT NULL DEFAULT pg_current_xact_id(), id bigserial,
  topic text NOT NULL, record_key text NOT NULL, payload text NOT NULL, request_id text,
  created_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (txid, id));
CREATE TABLE outbox_relay_position (txid xid8 NOT NULL, id bigint NOT NULL,
  highest_published_id bigint NOT NULL DEFAULT 0, moved_at timestamptz NOT NULL DEFAULT now());
INSERT INTO outbox_relay_position VALUES ('1', 0);
CREATE PUBLICATION outbox_messages;  -- no table: pgoutput sends the messages alone
"""

FUNCTIONS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "db",
                         "functions")
STAMPS = """
CREATE SEQUENCE outbox_commit_stamp;
CREATE TABLE outbox_commits (txid xid8 PRIMARY KEY, stamp bigint NOT NULL);
CREATE INDEX outbox_commits_stamp ON outbox_commits (stamp);
ALTER TABLE outbox_relay_position ADD COLUMN stamp bigint NOT NULL DEFAULT 0;
""" + "".join(open(os.path.join(FUNCTIONS, name)).read()
              for name in ("stamp_outbox_commit.sql", "outbox_commit_horizon.sql")) + """
CREATE CONSTRAINT TRIGGER outbox_commit_stamp AFTER INSERT ON outbox
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION stamp_outbox_commit();
"""

WRITE_TABLE = ("BEGIN;\nINSERT INTO messages (body) VALUES ('hello');\n"
               "INSERT INTO outbox (topic, record_key, payload, request_id) VALUES "
               f"('sms.outbound', '+15145550100', '{PAYLOAD}', 'req_x');\nCOMMIT;\n")
WRITE = {
    "a": "BEGIN;\nINSERT INTO messages (body) VALUES ('hello');\n"
         f"SELECT pg_logical_emit_message(true, 'sms.outbound', '{PAYLOAD}');\nCOMMIT;\n",
    "b": "BEGIN;\nINSERT INTO messages (body) VALUES ('hello');\n"
         "INSERT INTO outbox (topic, record_key, payload, request_id) VALUES "
         f"('sms.outbound', '+15145550100', '{PAYLOAD}', 'req_x');\nCOMMIT;\n",
    "c": WRITE_TABLE,
}


def relay_a(conn, batch):
    cur = conn.cursor()
    relayed = statements = 0
    while True:
        cur.execute("SELECT lsn, data FROM pg_logical_slot_peek_binary_changes('outbox', NULL, "
                    "%s, 'proto_version', '1', 'publication_names', 'outbox_messages', "
                    "'messages', 'true')", (batch,))
        rows = cur.fetchall()
        statements += 1
        got = sum(1 for _, data in rows if bytes(data[:1]) == b"M")
        if not rows:
            return relayed, statements
        cur.execute("SELECT pg_replication_slot_advance('outbox', %s)", (rows[-1][0],))
        statements += 1
        relayed += got


def relay_b(conn, batch):
    cur = conn.cursor()
    cur.execute("SELECT txid::text, id FROM outbox_relay_position")
    txid, last_id = cur.fetchone()
    relayed = statements = 0
    while True:
        cur.execute("SELECT txid::text AS txid_text, id, topic, record_key, payload, request_id "
                    "FROM outbox "
                    "WHERE (txid, id) > (%s::xid8, %s) AND "
                    "txid < pg_snapshot_xmin(pg_current_snapshot()) ORDER BY txid, id LIMIT %s",
                    (txid, last_id, batch))
        rows = cur.fetchall()
        statements += 1
        if not rows:
            return relayed, statements
        txid, last_id = rows[-1][0], rows[-1][1]
        cur.execute("UPDATE outbox_relay_position SET txid = %s::xid8, id = %s, moved_at = now(), "
                    "highest_published_id = greatest(highest_published_id, %s)",
                    (txid, last_id, max(r[1] for r in rows)))
        statements += 1
        relayed += len(rows)


class StampBound:
    """topics/commit_bound.h: a candidate (the last stamp, the newest transaction then running)
    is safe once the oldest transaction running is past that newest one."""

    def __init__(self):
        self.waiting = []  # (stamp, running) pairs, oldest first
        self.bound = 0

    def advance(self, cur):
        cur.execute("SELECT stamp, running::text, oldest::text FROM outbox_commit_horizon()")
        stamp, running, oldest = cur.fetchone()
        while self.waiting and self.waiting[0][1] < int(oldest):
            self.bound = max(self.bound, self.waiting.pop(0)[0])
        if running is None or int(running) < int(oldest):
            self.bound, self.waiting = max(self.bound, stamp), []
        elif not self.waiting or self.waiting[-1][0] < stamp:
            self.waiting.append((stamp, int(running)))
        return self.bound


def relay_c(conn, batch):
    cur = conn.cursor()
    cur.execute("SELECT stamp, id FROM outbox_relay_position")
    stamp, last_id = cur.fetchone()
    bound = StampBound()
    relayed = statements = 0
    idle = 0
    while True:
        limit = bound.advance(cur)
        statements += 1
        # The relay's read as topics/outbox_relay.cpp writes it. A plain join of the two tables,
        # planned on the statistics of an outbox the purge had emptied, scanned the whole outbox
        # once per transaction: 3.9 to 6.7 ms per message in rounds after the first.
        cur.execute("SELECT c.stamp, o.id, o.topic, o.record_key, o.payload, o.request_id "
                    "FROM (SELECT txid, stamp FROM outbox_commits WHERE stamp >= %(from)s AND "
                    "stamp <= %(bound)s ORDER BY stamp LIMIT %(commits)s) c CROSS JOIN LATERAL "
                    "(SELECT id, topic, record_key, payload, request_id FROM outbox WHERE "
                    "txid = c.txid AND (c.stamp > %(from)s OR id > %(id)s) OFFSET 0) o "
                    "ORDER BY c.stamp, o.id LIMIT %(batch)s",
                    {"from": stamp, "bound": limit, "id": last_id, "batch": batch,
                     "commits": batch + 1})
        rows = cur.fetchall()
        statements += 1
        if not rows:
            idle += 1
            if idle == 3:  # the bound needs a statement or two to reach the last stamp
                return relayed, statements
            continue
        idle = 0
        stamp, last_id = rows[-1][0], rows[-1][1]
        cur.execute("UPDATE outbox_relay_position SET stamp = %s, id = %s, moved_at = now()",
                    (stamp, last_id))
        statements += 1
        relayed += len(rows)


def purge_c(conn):
    cur = conn.cursor()
    cur.execute("WITH done AS (DELETE FROM outbox_commits c USING outbox_relay_position p "
                "WHERE c.stamp < p.stamp RETURNING c.txid) "
                "DELETE FROM outbox o USING done WHERE o.txid = done.txid")
    return cur.rowcount


def order_each_design_keeps(cluster, design):
    """Two writers of one key: the second takes its transaction id first, then waits for the
    key's row, which the first holds; the first commits first. Which record leaves first?"""
    first, second = psycopg2.connect(cluster.url), psycopg2.connect(cluster.url)
    a, b = first.cursor(), second.cursor()
    a.execute("CREATE TABLE IF NOT EXISTS keys (k text PRIMARY KEY, n int)")
    a.execute("INSERT INTO keys VALUES ('+15145550100', 0) ON CONFLICT DO NOTHING")
    first.commit()
    b.execute("INSERT INTO messages (body) VALUES ('second writer')")  # its id is taken here
    a.execute("UPDATE keys SET n = n + 1 WHERE k = '+15145550100'")
    a.execute("INSERT INTO outbox (topic, record_key, payload) VALUES "
              "('sms.outbound', '+15145550100', 'committed first')")
    waiter = threading.Thread(target=lambda: (
        b.execute("UPDATE keys SET n = n + 1 WHERE k = '+15145550100'"),
        b.execute("INSERT INTO outbox (topic, record_key, payload) VALUES "
                  "('sms.outbound', '+15145550100', 'committed second')"),
        second.commit()))
    waiter.start()
    time.sleep(0.5)  # the second writer now waits for the key's row
    first.commit()
    waiter.join()
    first.close()
    second.close()
    conn = psycopg2.connect(cluster.url)
    cur = conn.cursor()
    if design == "b":
        cur.execute("SELECT payload FROM outbox WHERE payload LIKE 'committed %' "
                    "ORDER BY txid, id")
    else:
        cur.execute("SELECT o.payload FROM outbox o JOIN outbox_commits c ON c.txid = o.txid "
                    "WHERE o.payload LIKE 'committed %' ORDER BY c.stamp, o.id")
    order = [r[0] for r in cur.fetchall()]
    cur.execute("DELETE FROM outbox WHERE payload LIKE 'committed %'")
    conn.commit()
    conn.close()
    return order


def purge_b(conn):
    cur = conn.cursor()
    cur.execute("DELETE FROM outbox o USING outbox_relay_position p "
                "WHERE (o.txid, o.id) <= (p.txid, p.id)")
    return cur.rowcount


def round_of(design, cluster, messages, clients):
    conn = psycopg2.connect(cluster.url)
    conn.autocommit = True
    cur = conn.cursor()
    cur.execute("SELECT pg_current_wal_lsn()")
    wal_before = cur.fetchone()[0]
    script = f"/tmp/outbox-bench-{design}.sql"
    with open(script, "w") as f:
        f.write(WRITE[design])
    cpu0, t0 = cluster.cpu_seconds(), time.time()
    subprocess.run([f"{BIN}/pgbench", "-n", "-h", "127.0.0.1", "-p", str(cluster.port),
                    "-U", "postgres", "-c", str(clients), "-j", "2",
                    "-t", str(messages // clients), "-f", script, "postgres"],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    cpu1, t1 = cluster.cpu_seconds(), time.time()
    cur.execute("SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), %s)", (wal_before,))
    wal = float(cur.fetchone()[0])
    relayed, statements = {"a": relay_a, "b": relay_b, "c": relay_c}[design](conn, 500)
    cpu2 = cluster.cpu_seconds()
    purged = {"a": lambda c: 0, "b": purge_b, "c": purge_c}[design](conn)
    if design != "a":
        cur.execute("VACUUM outbox")
    if design == "c":
        cur.execute("VACUUM outbox_commits")
    cpu3 = cluster.cpu_seconds()
    conn.close()
    n = messages // clients * clients
    if relayed != n:
        raise SystemExit(f"design {design}: relayed {relayed} of {n}")
    return {"write_us": (cpu1 - cpu0) / n * 1e6, "relay_us": (cpu2 - cpu1) / n * 1e6,
            "purge_us": (cpu3 - cpu2) / n * 1e6, "total_us": (cpu3 - cpu0) / n * 1e6,
            "wal_bytes": wal / n, "relay_statements": statements / n, "rate": n / (t1 - t0),
            "purged": purged}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--messages", type=int, default=20000)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--port", type=int, default=25700)
    args = parser.parse_args()
    clusters = {"a": Cluster(args.port, "logical"), "b": Cluster(args.port + 1, "replica"),
                "c": Cluster(args.port + 2, "replica")}
    try:
        for design, cluster in clusters.items():
            conn = psycopg2.connect(cluster.url)
            conn.autocommit = True
            conn.cursor().execute(SCHEMA)
            if design == "a":
                conn.cursor().execute(
                    "SELECT pg_create_logical_replication_slot('outbox', 'pgoutput')")
            if design == "c":
                conn.cursor().execute(STAMPS)
            conn.close()
        for design in "bc":
            print(f"({design}) two writers of one key, the second with the lower transaction id:"
                  f" published {order_each_design_keeps(clusters[design], design)}", flush=True)
        results = {"a": [], "b": [], "c": []}
        for r in range(args.rounds):
            design = "abc"[r % 3]
            res = round_of(design, clusters[design], args.messages, args.clients)
            results[design].append(res)
            print(f"round {r + 1} ({design}): write {res['write_us']:.1f} us, relay "
                  f"{res['relay_us']:.1f} us, purge and vacuum {res['purge_us']:.1f} us, total "
                  f"{res['total_us']:.1f} us of PostgreSQL CPU per message; "
                  f"{res['wal_bytes']:.0f} WAL bytes; {res['relay_statements']:.4f} relay "
                  f"statements per message; written at {res['rate']:.0f}/s", flush=True)
        print("medians (PostgreSQL CPU per message, microseconds):")
        for design, name in (("a", "logical decoding"), ("b", "table"),
                             ("c", "table with commit stamps")):
            rs = results[design]
            med = {k: statistics.median(x[k] for x in rs) for k in rs[0]}
            print(f"  ({design}) {name}: write {med['write_us']:.1f}, relay {med['relay_us']:.1f},"
                  f" purge {med['purge_us']:.1f}, total {med['total_us']:.1f}; "
                  f"WAL {med['wal_bytes']:.0f} bytes; written at {med['rate']:.0f}/s")
    finally:
        for cluster in clusters.values():
            cluster.stop()


if __name__ == "__main__":
    main()

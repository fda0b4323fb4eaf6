#!/usr/bin/env python3
"""Fails when a source file includes a folder its layer may not use (README "What is here"),
when a file of the HTTP edge runs SQL itself, when a worker writes SQL or opens a
transaction, when a file outside services/messaging makes a message or changes its status,
when a SQL function (db/functions) writes a message status of its own instead of the one it is
handed from the lifecycle's table, or when a statement reads the database's clock (now()).

Each top-level folder may include only the folders listed for it; the HTTP edge's pure part
(smsgw_http_edge) only domain/ and itself. Run by CTest (label unit).
"""
import os
import re
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))

ALLOWED = {
    "domain": {"domain"},
    "adapters": {"domain", "adapters"},
    "db": {"domain", "adapters", "db"},
    "topics": {"domain", "adapters", "db", "topics"},
    "services": {"domain", "adapters", "db", "topics", "services"},
    "api": {"domain", "adapters", "db", "topics", "services", "api"},
    "workers": {"domain", "adapters", "db", "topics", "services", "workers"},
    # ops/ sits above the workers (README "What is here"): smsgw-admin replay hands over to one.
    "ops": {"domain", "adapters", "db", "topics", "services", "workers", "ops", "tests"},
}
# The edge's parts that need neither Pistache nor the database (api/CMakeLists.txt).
HTTP_EDGE = {"api_types", "client_connection", "edge_request", "error_body", "request_framer",
             "request_text", "router", "slow_lane"}
INCLUDE = re.compile(r'^\s*#include\s+"([^"/]+)/([^"]+)"', re.M)
# The HTTP edge parses, authenticates, calls a service and maps the answer: it runs no SQL
# (who a key is comes from services/accounts/key_callers). So does the staff command line: it
# parses, calls a service and prints, and staff change nothing a service does not.
NO_SQL = ("api", "ops/admin")
RUNS_SQL = re.compile(r'#include\s+<soci/|db::Session|\bsql\s*<<|\*sql\s*<<')
# A worker consumes, calls a service and acknowledges: the statements and the transaction they
# run in are the service's (a message's status is written by services/messaging alone). It may
# lease a connection to hand to a service that works inside the caller's connection.
NO_STATEMENTS = ("workers",)
WRITES_SQL = re.compile(r'#include\s+<soci/|\bsoci::|\bsql\s*<<|\*sql\s*<<')
# A message is made and its status changed by services/messaging alone (its README says which
# file makes which move); the SQL functions it calls are held to its transition table by
# tests/integration/message_lifecycle_test.cpp.
MESSAGE_WRITER = os.path.join("services", "messaging") + os.sep
WRITES_MESSAGE = re.compile(
    r'INSERT\s+INTO\s+messages\b|UPDATE\s+(?:ONLY\s+)?messages\s+(?:(?:AS\s+)?\w+\s+)?SET\b'
    r'[^;]{0,300}?\bstatus\s*=',
    re.S | re.I)
# An account's status is moved by services/accounts alone: a first top-up activates it
# (top_ups.cpp), staff suspend, reinstate and close it (account_standing.cpp).
ACCOUNT_STATUS_WRITER = os.path.join("services", "accounts") + os.sep
WRITES_ACCOUNT_STATUS = re.compile(
    r'UPDATE\s+(?:ONLY\s+)?accounts\s+(?:(?:AS\s+)?\w+\s+)?SET\b[^;"]{0,300}?\bstatus\s*=',
    re.S | re.I)

# A SQL function that makes a message or moves it is handed the status (lifecycle.h): in the
# SET list of an UPDATE of messages, or anywhere in an INSERT into it, no status is a literal.
# Guards (WHERE status = 'QUEUED') are held to the table by message_lifecycle_test.
STATUS_LITERAL = re.compile(r"'(?:QUEUED|SENDING|SENT|DELIVERED|FAILED|UNDELIVERED|RECEIVED)'")
MESSAGE_SET_LIST = re.compile(
    r'UPDATE\s+(?:ONLY\s+)?messages\s+(?:(?:AS\s+)?\w+\s+)?SET\b(.*?)(?:\bWHERE\b|;)', re.S | re.I)
MESSAGE_INSERT = re.compile(r'INSERT\s+INTO\s+messages\b(.*?);', re.S | re.I)

# Statements take the time from the caller's clock (a TimePoint bound as :now), so tests move a
# clock instead of sleeping or backdating rows; db/functions take p_now the same way. A string
# literal of C++ holding now() is a statement reading the database's clock.
READS_DATABASE_CLOCK = re.compile(r'"(?:[^"\\\n]|\\.)*(?<![\w.])now\(\)(?:[^"\\\n]|\\.)*"')
DATABASE_CLOCK_ALLOWED = {
    # A column default in the migrations' own bookkeeping table: DDL, not a statement's time.
    "db/migrator.cpp",
    # Ages and horizons over the database's own stamps (outbox.created_at by its column default,
    # pg_stat_activity.xact_start): both sides of each comparison in one clock.
    "db/outbox.cpp",
}


def sql_status_literals(text):
    """The statements of a SQL function's text that write a literal message status."""
    found = []
    for match in MESSAGE_SET_LIST.finditer(text):
        if re.search(r"\bstatus\s*=\s*'", match.group(1), re.I):
            found.append("UPDATE messages ... SET status = '...'")
    for match in MESSAGE_INSERT.finditer(text):
        if STATUS_LITERAL.search(match.group(1)):
            found.append("INSERT INTO messages ... with a literal status")
    return found


def in_any(relative, folders):
    """Whether the file lies in one of the folders (paths from the root, "/" between parts)."""
    path = relative.replace(os.sep, "/")
    return any(path.startswith(folder + "/") for folder in folders)


def allowed_for(relative):
    parts = relative.split(os.sep)
    if parts[:2] == ["api", "http"] and os.path.splitext(parts[2])[0] in HTTP_EDGE:
        return {"domain"}, {"api/http/" + name for name in HTTP_EDGE}
    return ALLOWED.get(parts[0]), None


def main():
    broken = []
    checked = 0
    for folder in ALLOWED:
        for directory, _, files in os.walk(os.path.join(ROOT, folder)):
            for name in files:
                if not name.endswith((".h", ".cpp", ".inc")):
                    continue
                path = os.path.join(directory, name)
                relative = os.path.relpath(path, ROOT)
                folders, files_allowed = allowed_for(relative)
                with open(path, encoding="utf-8") as source:
                    text = source.read()
                checked += 1
                if in_any(relative, NO_SQL) and RUNS_SQL.search(text):
                    broken.append("%s runs SQL: it calls services instead" % relative)
                if in_any(relative, NO_STATEMENTS) and WRITES_SQL.search(text):
                    broken.append("%s writes SQL or a transaction: services do" % relative)
                if (relative.replace(os.sep, "/") not in DATABASE_CLOCK_ALLOWED
                        and READS_DATABASE_CLOCK.search(text)):
                    broken.append("%s reads the database's clock (now()): bind the caller's "
                                  "time" % relative)
                if not relative.startswith(MESSAGE_WRITER) and WRITES_MESSAGE.search(text):
                    broken.append("%s writes a message: services/messaging does" % relative)
                if (not relative.startswith(ACCOUNT_STATUS_WRITER)
                        and WRITES_ACCOUNT_STATUS.search(text)):
                    broken.append("%s moves an account's status: services/accounts does"
                                  % relative)
                for top, rest in INCLUDE.findall(text):
                    included = top + "/" + rest
                    if files_allowed is not None:
                        stem = os.path.splitext(included)[0]
                        if top in folders or stem in files_allowed:
                            continue
                    elif top in folders:
                        continue
                    broken.append("%s includes %s" % (relative, included))
    functions = os.path.join(ROOT, "db", "functions")
    for name in sorted(os.listdir(functions)):
        if not name.endswith(".sql"):
            continue
        with open(os.path.join(functions, name), encoding="utf-8") as source:
            text = source.read()
        checked += 1
        for what in sql_status_literals(text):
            broken.append("db/functions/%s: %s; hand it the lifecycle's status" % (name, what))
    for line in broken:
        print(line)
    print("%d files checked, %d rules broken" % (checked, len(broken)))
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())

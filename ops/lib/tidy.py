#!/usr/bin/env python3
"""clang-tidy over every C++ file the build compiles, for ops/check.

Each file is checked with its own compile command (compile_commands.json) and the repository's
.clang-tidy, warnings from our headers included. A clean result is remembered under a key made
of what could change it: clang-tidy's version, .clang-tidy, the compile command, the file and
every header of ours it includes (read from the compiler's depfile). So a second run checks only
what changed, and a cold run (a new machine) checks everything. Only clean results are kept: a
file with findings is checked again every time until it is clean.

A full pass that finds nothing can be recorded (--record-clean): the commit it checked is
written to ops/lib/tidy-clean-at, to be committed. --since-clean then checks only the files that
anything changed since that commit could affect: the file itself or one of our headers it
includes, or a .clang-tidy (then every file). That is CI's pass: a new machine has no cache, and a
full pass there takes about 23 minutes on two cores.

Usage: tidy.py BUILD_DIR [--jobs N] [--since-clean | --record-clean] [FILE...]
(files: only these, repository-relative). Exit status 1 when any file has a finding; each finding
is printed as clang-tidy prints it.
"""
import argparse
import concurrent.futures
import hashlib
import json
import os
import re
import shlex
import subprocess
import sys
import time

REPO = os.path.realpath(os.path.join(os.path.dirname(__file__), "..", ".."))
FOLDERS = "adapters|api|db|domain|services|topics|workers|ops|tests"
HEADER_FILTER = "^" + re.escape(REPO) + "/(" + FOLDERS + ")/"
# Every .clang-tidy of ours; tests/ adds its own to the root's (it applies to tests/ alone).
CONFIGS = (".clang-tidy", "tests/.clang-tidy")


def config_of(entry, configs):
    """The configuration text that applies to this entry's file."""
    text = configs[".clang-tidy"]
    if entry["file"].startswith(os.path.join(REPO, "tests") + "/"):
        text += configs["tests/.clang-tidy"]
    return text
CLEAN_AT = os.path.join(REPO, "ops", "lib", "tidy-clean-at")
CACHE = os.path.join(os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")),
                     "smsgw", "clang-tidy")


def our_dependencies(entry):
    """The repository files the compiler read for this entry (its depfile), sorted."""
    args = shlex.split(entry["command"])
    output = args[args.index("-o") + 1]
    depfile = os.path.join(entry["directory"], output + ".d")
    if not os.path.exists(depfile):
        return None  # not built yet: no key, always checked
    with open(depfile) as f:
        text = f.read().replace("\\\n", " ")
    paths = set()
    for token in text.split(":", 1)[1].split():
        path = os.path.realpath(os.path.join(entry["directory"], token))
        if path.startswith(REPO + "/"):
            paths.add(path)
    return sorted(paths)


def cache_key(entry, version, config):
    """Where the checkout is changes nothing: paths are taken relative to the repository, so
    another clone of the same commit finds the same keys."""
    dependencies = our_dependencies(entry)
    if dependencies is None:
        return None
    relative = lambda text: text.replace(REPO, "<repo>")
    digest = hashlib.sha256()
    for part in (version, config, relative(entry["command"]), relative(entry["file"])):
        digest.update(part.encode())
        digest.update(b"\0")
    for path in [entry["file"]] + dependencies:
        digest.update(relative(path).encode())
        with open(path, "rb") as f:
            digest.update(hashlib.sha256(f.read()).digest())
    return digest.hexdigest()


def git(*args):
    return subprocess.run(["git", "-C", REPO] + list(args), capture_output=True, text=True)


def changed_since_clean():
    """The repository files changed since the last clean full pass (committed or not), or None
    when there is no such pass to start from (then everything is checked)."""
    if not os.path.exists(CLEAN_AT):
        return None
    with open(CLEAN_AT) as f:
        commit = f.read().split()[0]
    if git("cat-file", "-e", commit + "^{commit}").returncode != 0:
        return None
    changed = git("diff", "--name-only", commit).stdout.split()
    changed += git("ls-files", "--others", "--exclude-standard").stdout.split()
    return {os.path.join(REPO, name) for name in changed}


def affected(entry, changed):
    dependencies = our_dependencies(entry)
    if dependencies is None:
        return True
    return bool(changed.intersection([entry["file"]] + dependencies))


def check(entry):
    result = subprocess.run(
        ["clang-tidy", "-p", entry["directory"], "--quiet", "--header-filter=" + HEADER_FILTER,
         # The compiler's own warnings are the build's (gcc, -Werror): clang's would add only
         # its dialect's complaints (librdkafka's macros are GNU statement expressions). The
         # sanitizers' headers come with gcc, not with clang-tidy: the analysis needs none.
         "--extra-arg=-w", "--extra-arg=-fno-sanitize=all", entry["file"]],
        capture_output=True, text=True, cwd=entry["directory"])
    findings = [line for line in result.stdout.splitlines()
                if re.search(r": (warning|error): ", line)]
    return result.returncode, findings, result.stdout


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("build_dir")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    scope = parser.add_mutually_exclusive_group()
    scope.add_argument("--since-clean", action="store_true")
    scope.add_argument("--record-clean", action="store_true")
    parser.add_argument("files", nargs="*")
    options = parser.parse_intermixed_args()

    with open(os.path.join(options.build_dir, "compile_commands.json")) as f:
        entries = json.load(f)
    wanted = {os.path.join(REPO, name) for name in options.files}
    entries = [e for e in entries
               if e["file"].startswith(REPO + "/")
               and not e["file"].startswith(os.path.realpath(options.build_dir) + "/")
               and (not wanted or e["file"] in wanted)]
    if options.since_clean:
        changed = changed_since_clean()
        if changed is None:
            print("clang-tidy: no clean full pass on record here; checking every file")
        elif not changed.intersection(os.path.join(REPO, name) for name in CONFIGS):
            total = len(entries)
            entries = [e for e in entries if affected(e, changed)]
            print(f"clang-tidy: {total - len(entries)} of {total} files untouched since the clean "
                  f"pass of {open(CLEAN_AT).read().split()[0][:12]}", flush=True)
    version = subprocess.run(["clang-tidy", "--version"], capture_output=True, text=True).stdout
    configs = {}
    for name in CONFIGS:
        with open(os.path.join(REPO, name)) as f:
            configs[name] = f.read()
    os.makedirs(CACHE, exist_ok=True)

    started = time.monotonic()
    due = []
    for entry in entries:
        key = cache_key(entry, version, config_of(entry, configs))
        if key is None or not os.path.exists(os.path.join(CACHE, key)):
            due.append((entry, key))
    print(f"clang-tidy: {len(entries)} files, {len(entries) - len(due)} unchanged since a clean "
          f"check, {len(due)} to check", flush=True)

    failed = 0
    with concurrent.futures.ThreadPoolExecutor(options.jobs) as pool:
        futures = {pool.submit(check, entry): (entry, key) for entry, key in due}
        for future in concurrent.futures.as_completed(futures):
            entry, key = futures[future]
            status, findings, output = future.result()
            name = os.path.relpath(entry["file"], REPO)
            if findings or status != 0:
                failed += 1
                print(f"--- {name}: {len(findings)} findings", flush=True)
                print("\n".join(findings) if findings else output, flush=True)
            elif key:
                open(os.path.join(CACHE, key), "w").close()
    seconds = time.monotonic() - started
    print(f"clang-tidy: {failed} of {len(entries)} files with findings ({seconds:.0f} s)")
    if options.record_clean and not failed and not options.files:
        head = git("rev-parse", "HEAD").stdout.strip()
        if git("status", "--porcelain", "--untracked-files=no").stdout.strip():
            print("clang-tidy: clean, but the work tree has changes: not recorded (commit first)")
        else:
            with open(CLEAN_AT, "w") as f:
                f.write(head + "\n")
            print(f"clang-tidy: clean at {head[:12]}; commit {os.path.relpath(CLEAN_AT, REPO)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

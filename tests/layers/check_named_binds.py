#!/usr/bin/env python3
"""Every value a statement takes is bound by its name (soci::use(value, "name")), so a value
can neither reach another placeholder nor be left out when a statement changes.

Binding by place was the rule before (issue 53): the files that still do are listed in
positional_binds.txt with how many such binds each holds. The list only shrinks: a file may
not bind more by place than its line allows, a file not listed binds none, and a file that now
binds fewer must have its line lowered (or removed), so what was mended stays mended.
Usage: check_named_binds.py [--write]  (--write rewrites the list from the tree: after mending)
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FOLDERS = ("api", "workers", "services", "topics", "db", "adapters", "ops")
ALLOWANCES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "positional_binds.txt")
USE = re.compile(r"\bsoci::use\(")
# The name, as a literal or as the variable a helper binding by name holds it in (`name`).
NAME = re.compile(r'^\s*("[A-Za-z_][A-Za-z_0-9]*"|[a-z_]*name)\s*$')


def arguments(text, start):
    """The top-level arguments of the call whose '(' is at text[start - 1]."""
    depth, args, current, i = 0, [], [], start
    in_string = False
    while i < len(text):
        c = text[i]
        if in_string:
            current.append(c)
            if c == "\\":
                current.append(text[i + 1])
                i += 1
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
            current.append(c)
        elif c in "([{":
            depth += 1
            current.append(c)
        elif c in ")]}":
            if depth == 0:
                args.append("".join(current))
                return args
            depth -= 1
            current.append(c)
        elif c == "," and depth == 0:
            args.append("".join(current))
            current = []
        else:
            current.append(c)
        i += 1
    return args


def positional_binds(text):
    count = 0
    for match in USE.finditer(text):
        args = arguments(text, match.end())
        if len(args) < 2 or not NAME.match(args[-1]):
            count += 1
    return count


def tree_counts():
    counts = {}
    for folder in FOLDERS:
        for directory, _, files in os.walk(os.path.join(ROOT, folder)):
            for name in files:
                if not name.endswith((".cpp", ".h")):
                    continue
                path = os.path.join(directory, name)
                with open(path, encoding="utf-8") as source:
                    count = positional_binds(source.read())
                if count:
                    counts[os.path.relpath(path, ROOT).replace(os.sep, "/")] = count
    return counts


def read_allowances():
    allowed = {}
    with open(ALLOWANCES, encoding="utf-8") as listing:
        for line in listing:
            line = line.split("#", 1)[0].strip()
            if line:
                count, path = line.split()
                allowed[path] = int(count)
    return allowed


def main():
    counts = tree_counts()
    if sys.argv[1:] == ["--write"]:
        with open(ALLOWANCES, "w", encoding="utf-8") as listing:
            listing.write("# Files that still bind values by place, and how many binds each: the\n"
                          "# list only shrinks (check_named_binds.py).\n")
            for path in sorted(counts):
                listing.write("%d %s\n" % (counts[path], path))
        print("%d files, %d positional binds" % (len(counts), sum(counts.values())))
        return 0
    allowed = read_allowances()
    broken = []
    for path in sorted(set(counts) | set(allowed)):
        have, may = counts.get(path, 0), allowed.get(path, 0)
        if have > may:
            broken.append("%s binds %d values by place (%d allowed): bind them by name, "
                          'soci::use(value, "name")' % (path, have, may))
        elif have < may:
            broken.append("%s binds %d values by place now: lower its line in "
                          "tests/layers/positional_binds.txt to %d (the list only shrinks)"
                          % (path, have, have))
    for line in broken:
        print(line)
    print("%d positional binds in %d files (of %d allowed), %d rules broken"
          % (sum(counts.values()), len(counts), sum(allowed.values()), len(broken)))
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())

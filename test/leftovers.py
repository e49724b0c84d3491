#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Tests leave nothing behind (docs/testing.md).

    leftovers.py snapshot <build folder>   before the run (CTEST_CUSTOM_PRE_TEST)
    leftovers.py check <build folder>      after every other test (the test_run_left_nothing test)

The snapshot empties the build tree's test-tmp/ folder (scratch an interrupted run may have
left), then lists every path in the build tree and the urc-named entries of the temporary
folder. The check fails, naming them, on paths that appeared in the build tree during the run
(in test-tmp/ or anywhere else) and on urc-named entries that appeared in /tmp. /tmp is shared with every other program on the machine, so only names starting with
"urc" or "ur_" count there; tests make their files under test-tmp/ (urc_test_temp_dir), which
the build-tree check covers whatever the name."""

import os
import shutil
import sys
import tempfile
import time

STATE = os.path.join("Testing", "urc-leftovers-snapshot.txt")
SCRATCH = "test-tmp"
# ctest's own records; the snapshot itself lives there too.
IGNORED_TOP = {"Testing"}
TMP_PREFIXES = ("urc", "ur_", "ur-")


def build_paths(build):
    out = set()
    for top, dirs, files in os.walk(build):
        rel_top = os.path.relpath(top, build)
        if rel_top == ".":
            dirs[:] = [d for d in dirs if d not in IGNORED_TOP]
            files = [f for f in files if f not in IGNORED_TOP]
        for name in dirs + files:
            out.add(os.path.normpath(os.path.join(rel_top, name)))
    return out


def tmp_dirs():
    dirs = {"/tmp", tempfile.gettempdir()}
    return sorted(d for d in dirs if os.path.isdir(d))


def tmp_entries():
    out = set()
    for d in tmp_dirs():
        try:
            names = os.listdir(d)
        except OSError:
            continue
        out.update(os.path.join(d, n) for n in names if n.lower().startswith(TMP_PREFIXES))
    return out


def snapshot(build):
    # test-tmp/ is scratch: what an interrupted earlier run left there goes before this one.
    scratch = os.path.join(build, SCRATCH)
    shutil.rmtree(scratch, ignore_errors=True)
    os.makedirs(scratch, exist_ok=True)
    os.makedirs(os.path.join(build, "Testing"), exist_ok=True)
    with open(os.path.join(build, STATE), "w") as f:
        f.write("%f\n" % time.time())
        for p in sorted(build_paths(build)):
            f.write("B %s\n" % p)
        for p in sorted(tmp_entries()):
            f.write("T %s\n" % p)
    return 0


def check(build):
    path = os.path.join(build, STATE)
    if not os.path.exists(path):
        print("no snapshot (%s): run the whole suite with ctest, whose pre-test step takes it" % path)
        return 0
    with open(path) as f:
        lines = f.read().splitlines()
    start = float(lines[0])
    before_build = {l[2:] for l in lines[1:] if l.startswith("B ")}
    before_tmp = {l[2:] for l in lines[1:] if l.startswith("T ")}

    problems = []
    new = sorted(build_paths(build) - before_build)
    # A new folder shows with everything in it; name the top-most new paths only.
    tops = [p for p in new if os.path.dirname(p) not in new]
    problems += ["left in the build tree: %s" % os.path.join(build, p) for p in tops]

    def tmp_new():
        found = set()
        for p in tmp_entries() - before_tmp:
            try:
                if os.lstat(p).st_mtime >= start - 1:
                    found.add(p)
            except OSError:
                pass
        return found

    # Another program's run may be using such a name right now: what is still there a moment
    # later, and was made during this run, is a leftover.
    candidates = tmp_new()
    if candidates:
        time.sleep(2)
        candidates &= tmp_new()
    problems += ["left in the temporary folder: %s" % p for p in sorted(candidates)]

    for p in problems[:40]:
        print(p)
    if len(problems) > 40:
        print("... and %d more" % (len(problems) - 40))
    if problems:
        print("A test must remove what it makes: put temporary files in a folder from "
              "urc_test_temp_dir (docs/testing.md).")
        if candidates:
            print("(/tmp is shared: a urc-named entry another program made during this run "
                  "shows here too.)")
        return 1
    print("nothing left behind in %s or the temporary folder" % build)
    return 0


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("snapshot", "check"):
        print(__doc__, file=sys.stderr)
        return 2
    build = os.path.abspath(sys.argv[2])
    return snapshot(build) if sys.argv[1] == "snapshot" else check(build)


if __name__ == "__main__":
    sys.exit(main())

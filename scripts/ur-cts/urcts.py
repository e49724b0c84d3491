#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Run UR's conformance binaries with one adapter and record every test's outcome,
or compare two such records.

  urcts.py run  --bins DIR --libs DIR --kernels DIR --adapter PATH --selector SEL
                --out FILE.json [--jobs N] [--timeout S] [--only a,b]
  urcts.py diff UR.json URC.json

A binary that crashes or hangs does not lose the tests after the one that died: the
runner reruns the binary on the tests that have no outcome yet, so each test ends as
PASS, FAIL, SKIP, CRASH (the binary died in it) or HANG (killed at the timeout in it).
"""
import argparse
import json
import os
import re
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

RESULT_RE = re.compile(r"^\[\s+(OK|FAILED|SKIPPED)\s+\] (\S+)")
RUN_RE = re.compile(r"^\[ RUN      \] (\S+)")
MAX_FILTER = 100000  # one argument may hold 128 KiB on Linux


def list_tests(binary, env):
    out = subprocess.run([binary, "--gtest_list_tests"], env=env, capture_output=True,
                         text=True, errors="replace", timeout=120)
    if out.returncode != 0:
        raise RuntimeError("listing failed (rc %d): %s" % (out.returncode, out.stderr[-500:]))
    tests, suite = [], None
    for line in out.stdout.splitlines():
        if not line.strip() or line.startswith(("Running main", "[")):
            continue
        if not line.startswith(" "):
            # A suite line is "Name." (maybe "  # TypeParam = ..."); anything else is noise.
            head = line.split("#")[0].strip()
            suite = head if re.fullmatch(r"[\w/]+\.", head) else None
        elif suite:
            tests.append(suite + line.split("#")[0].strip())
    return tests


def make_filter(pending, all_by_suite):
    # Whole suites by wildcard, partial ones test by test, within one argument's limit.
    by_suite = {}
    for t in pending:
        by_suite.setdefault(t.split(".", 1)[0] + ".", []).append(t)
    parts = []
    for suite, names in by_suite.items():
        if len(names) == len(all_by_suite.get(suite, ())):
            parts.append(suite + "*")
        else:
            parts.extend(names)
    text, used = [], 0
    for p in parts:
        if used + len(p) + 1 > MAX_FILTER:
            break
        text.append(p)
        used += len(p) + 1
    return ":".join(text)


def run_binary(binary, env, timeout, deadline, extra):
    name = os.path.basename(binary)
    try:
        tests = list_tests(binary, env)
    except Exception as e:  # listing itself crashed or hung
        return name, {"<list>": "CRASH"}, str(e)
    all_by_suite = {}
    for t in tests:
        all_by_suite.setdefault(t.split(".", 1)[0] + ".", []).append(t)
    results, log = {}, []
    pending = list(tests)
    while pending:
        left = min(timeout, deadline - time.time())
        if left <= 5:
            for t in pending:
                results[t] = "NOTRUN"
            break
        filt = make_filter(pending, all_by_suite)
        proc = subprocess.Popen([binary, "--gtest_color=no", "--gtest_filter=" + filt] + extra,
                                env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                start_new_session=True)
        try:
            out, _ = proc.communicate(timeout=left)
            hung = False
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            out, _ = proc.communicate()
            hung = True
        text = out.decode("utf-8", "replace")
        current = None
        progressed = False
        for line in text.splitlines():
            m = RUN_RE.match(line)
            if m:
                current = m.group(1)
                continue
            m = RESULT_RE.match(line)
            # A parameterised failure reads "[  FAILED  ] name, where GetParam() = ...".
            done = m.group(2).rstrip(",") if m else None
            if done and done in all_by_suite.get(done.split(".", 1)[0] + ".", ()):
                results[done] = {"OK": "PASS", "FAILED": "FAIL", "SKIPPED": "SKIP"}[m.group(1)]
                progressed = True
                if done == current:
                    current = None
        if current is not None and current not in results:
            results[current] = "HANG" if hung else "CRASH"
            log.append("%s %s rc=%s\n%s" % (results[current], current, proc.returncode,
                                           "\n".join(text.splitlines()[-15:])))
            progressed = True
        elif proc.returncode not in (0, 1) or hung:
            log.append("rc=%s outside a test\n%s" % (proc.returncode, "\n".join(text.splitlines()[-15:])))
        pending = [t for t in pending if t not in results]
        if not progressed:
            for t in pending:
                results[t] = "NOTRUN"
            log.append("no progress; last output:\n" + "\n".join(text.splitlines()[-20:]))
            break
    return name, results, "\n".join(log)


def cmd_run(a):
    env = dict(os.environ)
    env["LD_LIBRARY_PATH"] = a.libs + (":" + env["LD_LIBRARY_PATH"] if env.get("LD_LIBRARY_PATH") else "")
    env["UR_ADAPTERS_FORCE_LOAD"] = a.adapter
    env["ONEAPI_DEVICE_SELECTOR"] = a.selector
    env.pop("UR_LOG_LOADER", None)
    bins = sorted(os.path.join(a.bins, b) for b in os.listdir(a.bins)
                  if b.endswith("-test") and (not a.only or b[:-5] in a.only.split(",")))
    deadline = time.time() + a.budget
    out = {"adapter": a.adapter, "selector": a.selector, "binaries": {}}
    logs = []
    with ThreadPoolExecutor(max_workers=a.jobs) as pool:
        extra = ["--kernel_directory=" + a.kernels] if a.kernels else []
        futs = [pool.submit(run_binary, b, env, a.timeout, deadline, extra)
                for b in bins]
        for f in futs:
            name, res, log = f.result()
            out["binaries"][name] = res
            if log:
                logs.append("== %s\n%s" % (name, log))
            counts = {}
            for s in res.values():
                counts[s] = counts.get(s, 0) + 1
            print("%-40s %s" % (name, " ".join("%s=%d" % kv for kv in sorted(counts.items()))),
                  flush=True)
    with open(a.out, "w") as f:
        json.dump(out, f, indent=0, sort_keys=True)
    with open(a.out + ".log", "w") as f:
        f.write("\n".join(logs))


def load(path):
    with open(path) as f:
        data = json.load(f)
    flat = {}
    for b, res in data["binaries"].items():
        for t, s in res.items():
            flat[b + ":" + t] = s
    return flat


def cmd_diff(a):
    ur, urc = load(a.ur), load(a.urc)

    def counts(d):
        c = {}
        for s in d.values():
            c[s] = c.get(s, 0) + 1
        return " ".join("%s=%d" % kv for kv in sorted(c.items()))
    print("UR : " + counts(ur))
    print("urc: " + counts(urc))
    bad = ("FAIL", "CRASH", "HANG", "NOTRUN")
    lost = sorted(t for t, s in ur.items() if s == "PASS" and urc.get(t, "MISSING") != "PASS")
    claimed = sorted(t for t, s in urc.items() if s in bad and ur.get(t) in ("SKIP", None))
    gained = sorted(t for t, s in urc.items() if s == "PASS" and ur.get(t) != "PASS")
    both = sorted(t for t, s in urc.items() if s in bad and ur.get(t) in bad)
    print("\nLOST (pass with UR, not with urc): %d" % len(lost))
    for t in lost:
        print("  %-6s %s" % (urc.get(t, "MISSING"), t))
    print("\nCLAIMED (skip with UR, fail with urc): %d" % len(claimed))
    for t in claimed:
        print("  %-6s %s" % (urc[t], t))
    print("\nfail with both: %d; pass only with urc: %d" % (len(both), len(gained)))
    if a.verbose:
        for t in gained:
            print("  gained %-6s %s" % (ur.get(t), t))
    return 1 if lost or claimed else 0


def main():
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("--bins", required=True)
    r.add_argument("--libs", required=True)
    r.add_argument("--kernels", default="")
    r.add_argument("--adapter", required=True)
    r.add_argument("--selector", required=True)
    r.add_argument("--out", required=True)
    r.add_argument("--jobs", type=int, default=2)
    r.add_argument("--timeout", type=float, default=300)
    r.add_argument("--budget", type=float, default=3600)
    r.add_argument("--only", default="")
    d = sub.add_parser("diff")
    d.add_argument("ur")
    d.add_argument("urc")
    d.add_argument("-v", "--verbose", action="store_true")
    a = p.parse_args()
    if a.cmd == "run":
        cmd_run(a)
        return 0
    return cmd_diff(a)


if __name__ == "__main__":
    sys.exit(main())

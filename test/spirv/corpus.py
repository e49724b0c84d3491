#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The SPIR-V corpus test (docs/spirv.md): every module translates to PTX and ptxas accepts it.

  corpus.py --helper urc-spirv-ptx --work DIR [--ptxas PTXAS] [--builtins FILE] [--jobs N]
            [--sample N] INPUT...

An INPUT is a .spv file, a folder (searched for .spv files and wheels), a wheel (.whl: its
shared libraries are carved) or any other file (carved). Carving finds SPIR-V modules inside a
binary by their magic number: from each 0x07230203 word, instructions are walked while they
look like SPIR-V, and the module ends after its last OpFunctionEnd. Carved modules go to
DIR/carved; PTX to DIR/ptx.

Exit status 0 when every module translated (and passed ptxas where it was found), 1 otherwise.
Modules that fail only because a builtin is neither in libclc nor in urc's builtins library
are listed but do not fail the run unless --builtins names an existing file (then every
builtin is expected).
"""
import argparse
import atexit
import collections
import concurrent.futures
import hashlib
import os
import random
import shutil
import struct
import statistics
import subprocess
import sys
import time
import zipfile

MAGIC = 0x07230203
# The project's modules that import a function from another module (program linking): they
# translate for a link (--library), where an undefined function is the linker's business.
LINK_INPUTS = {"vf_kernel.spv"}
OP_FUNCTION_END = 56


def carve(data):
    """Yields the SPIR-V modules found in `data` (little endian, as SYCL images are)."""
    needle = struct.pack("<I", MAGIC)
    at = data.find(needle)
    while at >= 0:
        end = module_end(data, at)
        if end is not None:
            yield data[at:end]
            at = data.find(needle, end)
        else:
            at = data.find(needle, at + 4)


def module_end(data, start):
    if start + 20 > len(data):
        return None
    version, _gen, bound, schema = struct.unpack_from("<4I", data, start + 4)
    if version & 0xFF0000FF or (version >> 16) != 1 or bound == 0 or bound > 1 << 24 or schema:
        return None
    i = start + 20
    last_end = None
    while i + 4 <= len(data):
        (word,) = struct.unpack_from("<I", data, i)
        if word == MAGIC:
            break  # the next module of a concatenated image table
        count, op = word >> 16, word & 0xFFFF
        if count == 0 or op > 0x1900 or i + 4 * count > len(data):
            break
        i += 4 * count
        if op == OP_FUNCTION_END and count == 1:
            last_end = i
    return last_end


def inputs(paths, work, seen=None, found=None):
    """Yields (name, bytes) for every distinct module of the inputs (by SHA-1): the same kernel
    image sits in several of dpnp's libraries. `found` counts every module met."""
    carved = os.path.join(work, "carved")
    os.makedirs(carved, exist_ok=True)
    seen = set() if seen is None else seen
    found = collections.Counter() if found is None else found

    def emit(name, module):
        found["modules"] += 1
        digest = hashlib.sha1(module).digest()
        if digest in seen:
            return None
        seen.add(digest)
        return (name, module)

    for path in paths:
        if os.path.isdir(path):
            for root, _dirs, files in os.walk(path):
                for f in sorted(files):
                    full = os.path.join(root, f)
                    if f.endswith(".spv") or f.endswith(".whl") or ".so" in f:
                        yield from inputs([full], work, seen, found)
        elif path.endswith(".spv"):
            with open(path, "rb") as fh:
                item = emit(os.path.basename(path), fh.read())
            if item:
                yield item
        elif path.endswith(".whl"):
            with zipfile.ZipFile(path) as z:
                for info in z.infolist():
                    if ".so" not in info.filename:
                        continue
                    data = z.read(info)
                    base = os.path.basename(path).split("-")[0]
                    for n, m in enumerate(carve(data)):
                        item = emit("%s:%s#%d" % (base, os.path.basename(info.filename), n), m)
                        if item:
                            yield item
        else:
            with open(path, "rb") as fh:
                data = fh.read()
            for n, m in enumerate(carve(data)):
                item = emit("%s#%d" % (os.path.basename(path), n), m)
                if item:
                    yield item


def translate(job):
    name, module, args, work = job
    safe = "".join(c if c.isalnum() or c in "._-#" else "_" for c in name)
    spv = os.path.join(work, "carved", safe + ".spv")
    ptx = os.path.join(work, "ptx", safe + ".ptx")
    with open(spv, "wb") as fh:
        fh.write(module)
    cmd = [args.helper, "--sm", "80"] + (["--library"] if name in LINK_INPUTS else [])
    if args.builtins and os.path.exists(args.builtins):
        cmd += ["--builtins", args.builtins]
    if args.libclc:
        cmd += ["--libclc", args.libclc]
    began = time.monotonic()
    r = subprocess.run(cmd + [spv, ptx], capture_output=True, text=True, timeout=600)
    secs = time.monotonic() - began
    if r.returncode != 0:
        return (name, "translate", r.returncode, r.stderr.strip(), secs)
    if args.ptxas:
        # A link input is relocatable code (-c): its imports resolve at link time.
        compile_only = ["-c"] if name in LINK_INPUTS else []
        p = subprocess.run([args.ptxas, "-arch=sm_90"] + compile_only + [ptx, "-o", os.devnull],
                           capture_output=True, text=True, timeout=600)
        if p.returncode != 0:
            return (name, "ptxas", p.returncode, p.stderr.strip(), secs)
    # Neither file is needed any more: a whole-corpus run would otherwise fill the folder.
    os.unlink(spv)
    os.unlink(ptx)
    return (name, "ok", 0, "", secs)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--helper", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--ptxas")
    ap.add_argument("--builtins")
    ap.add_argument("--libclc")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--sample", type=int, default=0,
                    help="translate a random sample of this many carved modules (0: all)")
    ap.add_argument("paths", nargs="+")
    args = ap.parse_args()
    # Tests leave nothing in the build tree (docs/testing.md): the folder goes when the script
    # ends, unless URC_TEST_KEEP is set to look at what it made.
    if not os.environ.get("URC_TEST_KEEP"):
        atexit.register(shutil.rmtree, args.work, True)
    os.makedirs(os.path.join(args.work, "ptx"), exist_ok=True)
    if args.ptxas and not os.access(args.ptxas, os.X_OK):
        args.ptxas = None
    began = time.monotonic()
    found = collections.Counter()
    modules = list(inputs([p for p in args.paths if os.path.exists(p)], args.work, None, found))
    own = [m for m in modules if ":" not in m[0] and "#" not in m[0]]
    carved = [m for m in modules if m not in own]
    distinct = len(carved)
    # A fixed shuffle: a sample, or the part of a run seen before it was stopped, is spread over
    # all the libraries.
    random.Random(24).shuffle(carved)
    if args.sample and len(carved) > args.sample:
        carved = carved[:args.sample]
    jobs = [(n, m, args, args.work) for n, m in own + carved]
    print("corpus: %d modules found, %d distinct (%d of the project's, %d carved); "
          "translating %d carved%s with %d jobs; ptxas: %s"
          % (found["modules"], len(modules), len(own), distinct, len(carved),
             " (a sample)" if len(carved) < distinct else "", args.jobs,
             args.ptxas or "not found, skipped"), flush=True)
    strict = bool(args.builtins and os.path.exists(args.builtins))
    results = collections.Counter()
    missing = collections.Counter()
    failures = []
    times = []
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for name, what, rc, err, secs in pool.map(translate, jobs):
            times.append(secs)
            if len(times) % 1000 == 0:
                print("  %d of %d after %.0f s" % (len(times), len(jobs), time.monotonic() - began),
                      flush=True)
            if what == "ok":
                results["ok"] += 1
                continue
            undefined = [l.split()[-1] for l in err.splitlines() if "undefined function" in l]
            only_builtins = (what == "translate" and rc == 3 and undefined
                             and all("undefined function" in l or "neither in libclc" in l
                                     for l in err.splitlines()))
            if only_builtins and not strict:
                results["missing builtins"] += 1
                missing.update(undefined)
            else:
                results[what + " failed"] += 1
                failures.append((name, what, rc, err.splitlines()[-3:]))
                print("  failed: %s (%s, status %d)" % (name, what, rc), flush=True)
    print("corpus results:", dict(results))
    if times:
        times.sort()
        print("translation per module: median %.3f s, 90th percentile %.3f s, max %.3f s; "
              "whole run %.0f s" % (statistics.median(times), times[len(times) * 9 // 10],
                                    times[-1], time.monotonic() - began))
    if missing:
        print("builtins neither libclc nor urc's library has (modules needing each):")
        for fn, n in missing.most_common(40):
            print("  %5d %s" % (n, fn))
    for name, what, rc, err in failures[:40]:
        print("FAILED %s (%s, status %d): %s" % (name, what, rc, " | ".join(err)))
    return 1 if failures or not jobs else 0


if __name__ == "__main__":
    sys.exit(main())

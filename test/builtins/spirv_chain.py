#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The SPIR-V -> PTX chain of the CUDA adapter, re-enacted with the LLVM 15 command-line tools,
to test urc's builtins library (docs/spirv-builtins.md):

  OpenCL C --clang-15 (spir64)--> SPIR-V --llvm-spirv-15 -r (CL2.0)--> LLVM IR
  --retarget--> nvptx64 IR --llvm-link-15 (library, libclc)--> opt-15 -O2 --> llc-15 --> PTX
  --> ptxas -arch=sm_90

and to report every builtin left undefined after linking.

    spirv_chain.py --lib BC --clc BC --out DIR [--scratch] [--ptxas PTXAS] kernels KERNEL.cl...
        translates each file; fails on any undefined builtin or a ptxas error; the PTX of each
        lands in DIR/<name>.ptx.
    spirv_chain.py --lib BC --clc BC --out DIR [--scratch] [--ptxas PTXAS] [--sample N] [--provided NAME]...
                   carve FILE...
        carves the SPIR-V modules in binaries or in the shared libraries of wheels (the magic
        word 0x07230203), translates each
        and lists the builtins still undefined; fails when one is, or when a module cannot be
        translated or its PTX is refused.

The retargeting is a text rewrite good for these kernels, not the adapter's own. A kernel file
whose first lines say "spirv-chain: uniform-group-rewrite" gets its SPIR-V rewritten into the
SPV_KHR_uniform_group_instructions operations (spirv-dis, spirv-as; see rewrite_uniform).
"""
import argparse
import os
import random
import re
import shutil
import struct
import subprocess
import sys
import zipfile

NVPTX_LAYOUT = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
EXTENSIONS = (
    "-cl-ext=+cl_khr_subgroups,+cl_intel_subgroups,+cl_khr_subgroup_ballot,+cl_khr_fp16,"
    "+cl_khr_fp64,+__opencl_c_atomic_scope_all_devices,+cl_ext_float_atomics,"
    "+__opencl_c_ext_fp32_global_atomic_add,+__opencl_c_ext_fp64_global_atomic_add,"
    "+__opencl_c_ext_fp32_global_atomic_min_max,+__opencl_c_ext_fp64_global_atomic_min_max,"
    "+__opencl_c_ext_fp32_local_atomic_add,+__opencl_c_ext_fp64_local_atomic_add,"
    "+__opencl_c_ext_fp32_local_atomic_min_max,+__opencl_c_ext_fp64_local_atomic_min_max,"
    "+cl_intel_subgroups_char,+cl_intel_subgroups_short,+cl_intel_subgroups_long,"
    "+cl_khr_int64_base_atomics,+cl_khr_int64_extended_atomics"
)


def run(cmd, what):
    try:
        r = subprocess.run(cmd, capture_output=True, text=True)
    except OSError as e:
        raise RuntimeError("%s cannot run: %s" % (what, e))
    if r.returncode != 0:
        raise RuntimeError("%s failed (%d): %s\n%s" % (what, r.returncode, " ".join(cmd),
                                                       (r.stderr or r.stdout)[-2000:]))
    return r.stdout


def retarget(text):
    """SPIR (generic 4, constant 2) to NVPTX (generic 0, global 1), as the helper maps them;
    kernels annotated."""
    kernels = re.findall(r"^define [^@]*spir_kernel [^@]*@([\w.$]+)\(", text, re.M)
    text = re.sub(r"^target datalayout = .*$", 'target datalayout = "%s"' % NVPTX_LAYOUT, text,
                  flags=re.M)
    text = re.sub(r"^target triple = .*$", 'target triple = "nvptx64-nvidia-cuda"', text,
                  flags=re.M)
    text = text.replace("spir_kernel ", "").replace("spir_func ", "")
    text = text.replace("addrspace(4)", "addrspace(@G@)").replace("addrspace(2)", "addrspace(1)")
    text = text.replace(" addrspace(@G@)", "").replace("addrspace(@G@)", "")
    # Intrinsic names spell their pointers' address spaces.
    text = re.sub(r"(@llvm\.[\w.]*?)\.p4", r"\1.p0", text)
    text = re.sub(r"(@llvm\.[\w.]*?)\.p2", r"\1.p1", text)

    # A cast between private and generic is now a cast within one space.
    def cast(m):
        src, dst = m.group(1), m.group(2)
        if "addrspace(" not in src and "addrspace(" not in dst:
            return "bitcast %s to %s" % (src, dst)
        return m.group(0)

    ty = r'(?:%"[^"]*"|[^,\n)"])*\*'
    text = re.sub(r"addrspacecast (%s [^\n]*?) to (%s)" % (ty, ty), cast, text)
    lines, seen = [], set()
    for line in text.split("\n"):
        if line.startswith("declare "):
            name = re.search(r"@([\w.$]+)\(", line)
            if name and name.group(1) in seen:
                continue
            if name:
                seen.add(name.group(1))
        lines.append(line)
    text = "\n".join(lines)
    if kernels:
        nodes = ["!{ptr @%s, !\"kernel\", i32 1}" % k for k in kernels]
        ids = ["!%d" % (9000 + i) for i in range(len(nodes))]
        text += "\n!nvvm.annotations = !{%s}\n" % ", ".join(ids)
        text += "".join("%s = %s\n" % (i, n) for i, n in zip(ids, nodes))
    return text


def translate_spirv(spv, stem, args):
    """SPIR-V module -> (undefined builtins, PTX path)."""
    rbc, nvll, nvbc = stem + ".r.bc", stem + ".nv.ll", stem + ".nv.bc"
    run(["llvm-spirv-15", "-r", "--spirv-target-env=CL2.0", spv, "-o", rbc], "llvm-spirv-15 -r")
    text = run(["llvm-dis-15", rbc, "-o", "-"], "llvm-dis-15")
    with open(nvll, "w") as f:
        f.write(retarget(text))
    run(["llvm-as-15", "-opaque-pointers", nvll, "-o", nvbc], "llvm-as-15 (retargeted)")
    linked = stem + ".linked.bc"
    run(["llvm-link-15", nvbc, "--only-needed", args.lib, "--only-needed", args.clc, "-o",
         linked], "llvm-link-15")
    ir = run(["llvm-dis-15", linked, "-o", "-"], "llvm-dis-15")
    undefined = sorted(
        n for n in re.findall(r"^declare [^@]*@([\w.$]+)\(", ir, re.M) if not n.startswith("llvm.")
    )
    if undefined:  # PTX would only fail in ptxas, naming one of them
        return undefined, None
    opt = stem + ".opt.bc"
    run(["opt-15", "-O2", linked, "-o", opt], "opt-15")
    ptx = stem + ".ptx"
    run(["llc-15", "-mcpu=sm_80", "-mattr=+ptx72", opt, "-o", ptx], "llc-15")
    if args.ptxas:
        run([args.ptxas, "-arch=sm_90", ptx, "-o", os.devnull], "ptxas")
    return undefined, ptx


UNIFORM_OPS = {
    "mul": ("OpGroupIMulKHR", "OpGroupFMulKHR"),
    "bitwise_and": ("OpGroupBitwiseAndKHR", None),
    "bitwise_or": ("OpGroupBitwiseOrKHR", None),
    "bitwise_xor": ("OpGroupBitwiseXorKHR", None),
}
LOGICAL_OPS = {"logical_and": "OpGroupLogicalAndKHR", "logical_or": "OpGroupLogicalOrKHR",
               "logical_xor": "OpGroupLogicalXorKHR"}


def rewrite_uniform(text):
    """SPV_KHR_uniform_group_instructions from group additions and group any (see
    coverage_uniform.cl): each kernel's name says what its operations become."""
    out, current, anys = [], None, 0
    for line in text.split("\n"):
        m = re.match(r"\s*%(\w+) = OpFunction ", line)
        if m:
            current, anys = m.group(1), 0
        elif "OpFunctionEnd" in line:
            current = None
        elif current is not None:
            op = current.rsplit("_", 1)[0]
            if op in UNIFORM_OPS:
                integer, floating = UNIFORM_OPS[op]
                line = line.replace("OpGroupIAdd ", integer + " ")
                if floating:
                    line = line.replace("OpGroupFAdd ", floating + " ")
            elif current in LOGICAL_OPS:
                m = re.match(r"(\s*%\w+ = )OpGroupAny (%\w+) (%\w+) (%\w+)$", line)
                if m:
                    kind = ("Reduce", "InclusiveScan", "ExclusiveScan")[anys % 3]
                    anys += 1
                    line = "%s%s %s %s %s %s" % (m.group(1), LOGICAL_OPS[current], m.group(2),
                                                 m.group(3), kind, m.group(4))
        out.append(line)
    text = "\n".join(out)
    text = text.replace("OpCapability Kernel", "OpCapability Kernel\n"
                        "OpCapability GroupUniformArithmeticKHR", 1)
    return re.sub(r"^(\s*%\w+ = OpExtInstImport|\s*OpMemoryModel)",
                  'OpExtension "SPV_KHR_uniform_group_instructions"\n\\1', text, count=1,
                  flags=re.M)


def compile_kernel(cl, stem):
    bc, spv = stem + ".spir.bc", stem + ".spv"
    run(["clang-15", "-cc1", "-triple", "spir64-unknown-unknown", "-no-opaque-pointers",
         "-cl-std=CL2.0", "-finclude-default-header", EXTENSIONS, "-O2", "-disable-llvm-passes",
         "-emit-llvm-bc", cl, "-o", bc], "clang-15")
    run(["llvm-spirv-15", "--spirv-ext=+all", bc, "-o", spv], "llvm-spirv-15")
    if "spirv-chain: uniform-group-rewrite" in open(cl).read(1000):
        text = run(["spirv-dis", spv], "spirv-dis")
        with open(stem + ".spvasm", "w") as f:
            f.write(rewrite_uniform(text))
        run(["spirv-as", "--target-env", "spv1.0", stem + ".spvasm", "-o", spv], "spirv-as")
    return spv


def binaries(path):
    """(name, bytes) of a binary, or of every shared library inside a wheel."""
    if path.endswith(".whl"):
        with zipfile.ZipFile(path) as z:
            for name in sorted(z.namelist()):
                if ".so" in os.path.basename(name):
                    yield name, z.read(name)
    else:
        with open(path, "rb") as f:
            yield path, f.read()


def carve(data, out, first, sample, rng):
    """SPIR-V modules inside a binary: from a magic word to the end of the last function the
    translator accepts; with `sample`, that many magic words picked at random."""
    starts, at = [], data.find(b"\x03\x02\x23\x07")
    while at >= 0:
        starts.append(at)
        at = data.find(b"\x03\x02\x23\x07", at + 4)
    if sample:
        rng.shuffle(starts)
    found, n = [], first
    for at in starts:
        if sample and len(found) >= sample:
            break
        version, _, bound, schema = struct.unpack_from("<4I", data, at + 4)
        ends, p = [], at + 20
        if version >> 16 == 1 and schema == 0 and 0 < bound < 10**7:
            while p + 4 <= len(data):
                word = struct.unpack_from("<I", data, p)[0]
                count = word >> 16
                if count == 0 or p + 4 * count > len(data):
                    break
                p += 4 * count
                if word == (1 << 16 | 56):  # OpFunctionEnd
                    ends.append(p)
        # Images sit back to back: the module ends at one of the last few function ends seen.
        for end in reversed(ends[-64:]):
            spv = os.path.join(out, "carved%04d.spv" % n)
            with open(spv, "wb") as f:
                f.write(data[at:end])
            r = subprocess.run(["llvm-spirv-15", "-r", "--spirv-target-env=CL2.0", spv, "-o",
                                os.devnull], capture_output=True)
            if r.returncode == 0:
                found.append(spv)
                n += 1
                break
            os.remove(spv)
    return found


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lib", required=True)
    ap.add_argument("--clc", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--ptxas")
    ap.add_argument("--sample", type=int, default=0,
                    help="carve: at most this many modules per binary, picked at random")
    ap.add_argument("--provided", action="append", default=[],
                    help="carve: a function the adapter's translation defines itself")
    ap.add_argument("--scratch", action="store_true",
                    help="remove --out at the end (a test leaves nothing behind)")
    ap.add_argument("mode", choices=["kernels", "carve"])
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    try:
        return run_mode(args)
    finally:
        if args.scratch:
            shutil.rmtree(args.out, ignore_errors=True)


def run_mode(args):
    failures = 0
    if args.mode == "kernels":
        for cl in args.files:
            name = os.path.splitext(os.path.basename(cl))[0]
            stem = os.path.join(args.out, name)
            try:
                undefined, ptx = translate_spirv(compile_kernel(cl, stem), stem, args)
            except RuntimeError as e:
                print("FAIL %s: %s" % (name, e))
                failures += 1
                continue
            if undefined:
                print("FAIL %s: undefined after linking: %s" % (name, " ".join(undefined)))
                failures += 1
            else:
                print("ok %s -> %s" % (name, ptx))
    else:
        modules, rng, binaries_seen = [], random.Random(24), 0
        for path in args.files:
            for _, data in binaries(path):
                binaries_seen += 1
                modules += carve(data, args.out, len(modules), args.sample, rng)
        left = {}
        for spv in modules:
            stem = spv[:-4]
            try:
                undefined, _ = translate_spirv(spv, stem, args)
            except RuntimeError as e:
                print("FAIL %s: %s" % (os.path.basename(spv), e))
                failures += 1
                continue
            for u in undefined:
                if u not in args.provided:
                    left.setdefault(u, []).append(os.path.basename(spv))
        print("carved %d SPIR-V modules from %d binaries" % (len(modules), binaries_seen))
        if left:
            failures += 1
            print("left undefined after libclc and urc's builtins:")
            for u in sorted(left):
                print("  %s (%d modules)" % (u, len(left[u])))
        else:
            print("no builtin left undefined")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

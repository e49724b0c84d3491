#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""dpnp.tensor operations on one SYCL device, checked against NumPy on the host.

  dpnp_tensor_ops.py [--device FILTER] [--size N] [--reps N] [--ops NAME,...]

Runs elementwise arithmetic and math (float32, float64, int32), reductions (sum, max,
argmax), cumulative sums, sort and argsort, where, take and put, and matmul through dpnp's own
kernels, on the device that FILTER selects (a dpctl filter string such as "cuda:gpu" or
"opencl:cpu"; default: dpctl's default device). Each operation's first call (which builds its
kernel: on urc's CUDA adapter, the SPIR-V translation) and the median of its later calls are
timed (the operation and a wait for the queue; not the copy of the result back), and its result
is compared with the same operation in NumPy on the host: integers,
sorting and indexing exactly, floating point within a tolerance of a few ulps per element
(sums: of the magnitude summed).

Prints one line per operation and a summary; exits 0 when every result matched, 1 otherwise.

dpnp's top-level module needs oneMKL's wheels; dpnp.tensor does not, and is loaded on its own
(see bare_package).
"""
import argparse
import importlib
import importlib.util
import statistics
import sys
import time
import types
from pathlib import Path

import numpy as np


def bare_package(name):
    """Puts a module for package `name` in sys.modules without running its __init__.py.

    Its submodules then import from the package's folder as usual. An __init__.py that fails
    half-way (dpnp's, without oneMKL) must not run at all: the extension modules it imported
    stay loaded, and importing them again under fresh parents gives a second set of classes
    that the first set does not recognise.
    """
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.find_spec(name)
    if spec is None or spec.submodule_search_locations is None:
        raise SystemExit(f"{name} is not an installed package")
    module = types.ModuleType(name)
    module.__path__ = list(spec.submodule_search_locations)
    sys.modules[name] = module
    return module


def load_dpnp_tensor():
    """Imports dpnp.tensor without dpnp's top level, which needs oneMKL's wheels."""
    bare_package("dpnp")
    return importlib.import_module("dpnp.tensor")


def host_data(rng, dtype, n):
    if np.issubdtype(dtype, np.integer):
        return rng.integers(-1000, 1000, n, dtype=dtype)
    return (rng.random(n, dtype=np.float64) * 4 - 2).astype(dtype)


def cases(dpt, size):
    """(name, dtype, inputs(rng) -> host arrays, device fn, host fn, comparison)."""
    rng = np.random.default_rng(1234)
    out = []

    def add(name, dtype, make, dev, host, compare="close"):
        out.append((name, np.dtype(dtype), make, dev, host, compare))

    for dt in (np.float32, np.float64, np.int32):
        two = lambda dt=dt: (host_data(rng, dt, size), host_data(rng, dt, size))
        one = lambda dt=dt: (host_data(rng, dt, size),)
        add("add", dt, two, dpt.add, np.add, "exact" if dt == np.int32 else "close")
        add("multiply", dt, two, dpt.multiply, np.multiply, "exact" if dt == np.int32 else "close")
        add("maximum", dt, two, dpt.maximum, np.maximum, "exact")
        add("abs", dt, one, dpt.abs, np.abs, "exact")
        add("sum", dt, one, dpt.sum, np.sum, "exact" if dt == np.int32 else "sum")
        add("max", dt, one, dpt.max, np.max, "exact")
        add("argmax", dt, one, dpt.argmax, np.argmax, "exact")
        add("cumulative_sum", dt, one, dpt.cumulative_sum, np.cumsum,
            "exact" if dt == np.int32 else "cumsum")
        if dt != np.int32:
            add("divide", dt, two, dpt.divide, np.divide)
            add("sin", dt, one, dpt.sin, np.sin)
            add("exp", dt, one, dpt.exp, np.exp)
            add("sqrt", dt, lambda dt=dt: (np.abs(host_data(rng, dt, size)),), dpt.sqrt, np.sqrt)
    # Distinct keys, so that argsort has one right answer.
    for dt in (np.float32, np.int32):
        perm = lambda dt=dt: (rng.permutation(size).astype(dt),)
        add("sort", dt, perm, dpt.sort, np.sort, "exact")
        add("argsort", dt, perm, dpt.argsort, np.argsort, "exact")
    add("where", np.float32,
        lambda: (host_data(rng, np.float32, size) > 0, host_data(rng, np.float32, size),
                 host_data(rng, np.float32, size)),
        dpt.where, np.where, "exact")
    add("take", np.float64,
        lambda: (host_data(rng, np.float64, size), rng.integers(0, size, size // 2)),
        dpt.take, np.take, "exact")

    def dev_put(x, idx, vals):
        y = dpt.copy(x)
        dpt.put(y, idx, vals)
        return y

    def host_put(x, idx, vals):
        y = x.copy()
        np.put(y, idx, vals)
        return y

    # Distinct indices: with repeats, which value lands is unspecified.
    add("put", np.int32,
        lambda: (host_data(rng, np.int32, size), rng.permutation(size)[: size // 4],
                 host_data(rng, np.int32, size // 4)),
        dev_put, host_put, "exact")
    side = 256
    add("matmul", np.float32,
        lambda: (host_data(rng, np.float32, side * side).reshape(side, side),
                 host_data(rng, np.float32, side * side).reshape(side, side)),
        dpt.matmul, np.matmul, "matmul")
    return out


def matches(compare, got, want, inputs):
    got = np.asarray(got)
    want = np.asarray(want)
    if got.shape != want.shape:
        return False, f"shape {got.shape} != {want.shape}"
    if compare == "exact":
        bad = np.count_nonzero(got != want)
        return bad == 0, f"{bad} elements differ"
    eps = np.finfo(want.dtype).eps
    if compare == "close":
        tol = 4 * eps * np.maximum(np.abs(want), np.finfo(want.dtype).tiny)
    elif compare == "sum":
        tol = 4 * eps * np.sum(np.abs(inputs[0])) * np.log2(inputs[0].size + 1)
    elif compare == "cumsum":
        tol = 4 * eps * np.cumsum(np.abs(inputs[0])) * np.log2(inputs[0].size + 1)
    else:  # matmul: each element sums `side` products
        k = inputs[0].shape[1]
        tol = 4 * eps * (np.abs(inputs[0]) @ np.abs(inputs[1])) * np.log2(k + 1)
    err = np.abs(got.astype(np.float64) - want.astype(np.float64))
    bad = np.count_nonzero(err > tol)
    return bad == 0, f"{bad} elements off (max error {err.max():.3g})"


def timed(fn):
    start = time.perf_counter()
    value = fn()
    return value, (time.perf_counter() - start) * 1e3


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", help="dpctl filter string (default: dpctl's default device)")
    parser.add_argument("--size", type=int, default=1 << 20, help="elements per array")
    parser.add_argument("--reps", type=int, default=10, help="timed calls after the first")
    parser.add_argument("--ops", help="comma-separated operation names (default: all)")
    args = parser.parse_args()

    dpt = load_dpnp_tensor()
    import dpctl

    device = dpctl.SyclDevice(args.device) if args.device else dpctl.select_default_device()
    queue = dpctl.SyclQueue(device)
    print(f"device: {device.name} [{device.backend.name}:{device.device_type.name}], "
          f"driver {device.driver_version}")
    wanted = set(args.ops.split(",")) if args.ops else None
    failed = 0
    ran = 0
    print(f"{'operation':<16}{'dtype':<9}{'first ms':>10}{'later ms':>10}{'numpy ms':>10}  result")
    for name, dtype, make, dev_fn, host_fn, compare in cases(dpt, args.size):
        if wanted and name not in wanted:
            continue
        if dtype == np.float64 and not device.has_aspect_fp64:
            print(f"{name:<16}{dtype.name:<9}  skipped: the device has no fp64")
            continue
        ran += 1
        inputs = make()
        try:
            dev_inputs = [dpt.asarray(a, sycl_queue=queue) for a in inputs]
            queue.wait()

            def run():
                result = dev_fn(*dev_inputs)
                queue.wait()
                return result

            result, first = timed(run)
            later = statistics.median(timed(run)[1] for _ in range(args.reps))
            got = dpt.asnumpy(result)
            want, host_ms = timed(lambda: host_fn(*inputs))
            ok, why = matches(compare, got, want, inputs)
        except Exception as error:  # an operation that cannot run is a failure, not the end
            ok, why, first, later, host_ms = False, f"{type(error).__name__}: {error}", 0, 0, 0
        failed += not ok
        print(f"{name:<16}{dtype.name:<9}{first:>10.1f}{later:>10.2f}{host_ms:>10.2f}  "
              + ("equal" if ok else f"DIFFERENT: {why}"), flush=True)
    print(f"summary: {ran - failed} of {ran} operations equal to NumPy's on {device.name}")
    return 0 if failed == 0 and ran > 0 else 1


if __name__ == "__main__":
    sys.exit(main())

# SPDX-License-Identifier: MIT
"""check_dpctl.py <venv> <simulated driver folder>: run with the virtual environment's Python.
dpctl lists a CUDA device; the CUDA adapter libsycl mapped is urc's, from inside the venv, over
the simulated driver; a device USM allocation round-trips bytes, and a shared one is visible
from the host."""
import os
import sys

import dpctl
import dpctl.memory

venv, sim = (os.path.realpath(p) for p in sys.argv[1:3])


def mapped(name):
    paths = set()
    with open("/proc/self/maps") as f:
        for line in f:
            p = line.split()[-1]
            if p.endswith("/" + name):
                paths.add(os.path.realpath(p))
    return paths


devices = dpctl.get_devices(backend="cuda")
print("cuda devices:", [d.name for d in devices])
assert devices, "dpctl lists no CUDA device"
adapters = mapped("libur_adapter_cuda.so.0")
print("CUDA adapter mapped:", adapters)
assert len(adapters) == 1, adapters
assert next(iter(adapters)).startswith(venv + os.sep), "the CUDA adapter is not the venv's"
drivers = mapped("libcuda.so.1")
assert drivers and all(p.startswith(sim + os.sep) for p in drivers), drivers

q = dpctl.SyclQueue(devices[0])
assert q.sycl_device.backend.name == "cuda"
data = bytes(range(256)) * 16
dev = dpctl.memory.MemoryUSMDevice(len(data), queue=q)
dev.copy_from_host(data)
back = bytearray(len(data))
dev.copy_to_host(back)
assert bytes(back) == data, "device USM round trip changed the bytes"
shared = dpctl.memory.MemoryUSMShared(len(data), queue=q)
shared.copy_from_device(dev)
assert bytes(memoryview(shared)) == data, "shared USM does not show the copied bytes"
print("USM round trip: ok")

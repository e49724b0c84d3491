# SPDX-License-Identifier: MIT
"""python -m urc [--check] [urinfo arguments...]

Without --check: where urc is installed, then what urc sees (urinfo over every adapter of
urc's in this install). With --check: whether Intel's SYCL runtime (libsycl.so.9 of
intel-sycl-rt) in this environment will load urc's adapters, and why not; the exit status is 0
when it will load urc's CUDA adapter, 1 when it will not.
"""

import os
import subprocess
import sys
from pathlib import Path

import urc

ADAPTER_NAMES = {
    "cuda": "libur_adapter_cuda.so.0",
    "level_zero": "libur_adapter_level_zero.so.0",
    "opencl": "libur_adapter_opencl.so.0",
}


def _same(a, b):
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def describe():
    print(f"urc {urc.__version__}")
    print(f"  package folder:     {urc.package_dir}")
    print(f"  loader:             {urc.lib_dir / 'libur_loader.so.0'}")
    adapters = urc.adapter_paths()
    for name in ADAPTER_NAMES:
        where = adapters.get(name)
        print(f"  {name + ' adapter:':20}{where if where else '(not in this install)'}")
    print(f"  headers:            {urc.include_dir}")
    print(f"  pkg-config:         {urc.lib_dir / 'pkgconfig'}  (PKG_CONFIG_PATH)")
    print(f"  CMake package:      {urc.lib_dir / 'cmake' / 'urc'}  (urc_DIR)")
    print()


def run_urinfo(args):
    urinfo = urc.bin_dir / "urinfo"
    if not urinfo.is_file():
        print(f"urc: {urinfo} is missing; reinstall urc", file=sys.stderr)
        return 1
    env = dict(os.environ)
    # Every adapter of this install, and no other (Intel's share names with urc's).
    env["UR_ADAPTERS_FORCE_LOAD"] = urc.force_load_value()
    print(f"urinfo with UR_ADAPTERS_FORCE_LOAD={env['UR_ADAPTERS_FORCE_LOAD']}", flush=True)
    return subprocess.call([str(urinfo), *args], env=env)


def _find_libsycl():
    for folder in (urc.env_lib_dir(), Path(sys.prefix) / "lib"):
        p = folder / "libsycl.so.9"
        if p.is_file():
            return p
    return None


def _selector_allows_cuda(value):
    """ONEAPI_DEVICE_SELECTOR: whether any CUDA device can pass it (backend level only)."""
    positive, negative = [], []
    for term in value.split(";"):
        term = term.strip()
        if not term:
            continue
        backend = term.lstrip("!").split(":", 1)[0].strip().lower()
        (negative if term.startswith("!") else positive).append(backend)
    if any(b == "cuda" for b in negative):
        return False
    if not positive:
        return True
    return any(b in ("cuda", "*") for b in positive)


def _loads_libcuda():
    import ctypes
    try:
        ctypes.CDLL("libcuda.so.1")
        return True
    except OSError:
        return False


def _probe(libsycl):
    """Ask libsycl itself, in a child process: which adapter libraries does it map, and which
    backends do its devices have. None when dpctl is not installed."""
    code = (
        "import dpctl\n"
        "devs = dpctl.get_devices()\n"
        "for d in devs: print('device', d.backend.name, d.name)\n"
        "for line in open('/proc/self/maps'):\n"
        "    p = line.split()[-1]\n"
        "    if 'libur_adapter_' in p or p.endswith('/libsycl.so.9'): print('maps', p)\n")
    try:
        import importlib.util
        if importlib.util.find_spec("dpctl") is None:
            return None
    except Exception:
        return None
    try:
        r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           timeout=300)
    except subprocess.TimeoutExpired:
        return {"error": ["dpctl did not list its devices within 300 s"]}
    if r.returncode != 0:
        return {"error": (r.stderr or r.stdout).strip().splitlines()[-1:] or ["no output"]}
    devices, maps = [], set()
    for line in r.stdout.splitlines():
        kind, _, rest = line.partition(" ")
        if kind == "device":
            devices.append(rest)
        elif kind == "maps":
            maps.add(rest)
    return {"devices": devices, "maps": sorted(maps)}


def check():
    ok = True
    problems = []

    def say(mark, text):
        print(f"[{mark}] {text}")

    adapters = urc.adapter_paths()
    cuda = adapters.get("cuda")
    libsycl = _find_libsycl()
    if libsycl is None:
        say("no", "intel-sycl-rt is not installed in this environment (no libsycl.so.9 in "
            f"{urc.env_lib_dir()}): pip install intel-sycl-rt")
        return 1
    say("ok", f"libsycl: {libsycl}")
    if cuda is None:
        say("no", "urc's CUDA adapter is missing from this install; reinstall urc")
        return 1
    if _same(cuda.parent, libsycl.parent):
        say("ok", f"urc's CUDA adapter is beside libsycl: {cuda}")
    else:
        ok = False
        problems.append("urc's CUDA adapter is not in libsycl's folder")
        say("no", f"urc's CUDA adapter ({cuda}) is not in libsycl's folder ({libsycl.parent}): "
            "install urc and intel-sycl-rt into the same environment")

    force = os.environ.get("UR_ADAPTERS_FORCE_LOAD")
    if force:
        named = [p for p in force.split(",") if p]
        if any(_same(p, cuda) for p in named):
            say("ok", "UR_ADAPTERS_FORCE_LOAD names urc's CUDA adapter")
        else:
            ok = False
            say("no", "UR_ADAPTERS_FORCE_LOAD is set and does not name urc's CUDA adapter: "
                "libsycl opens only the libraries it names")
    else:
        # libsycl tries UR_ADAPTERS_SEARCH_PATH's folders before its own; LD_LIBRARY_PATH only
        # after its own folder, so it cannot shadow an adapter installed beside libsycl.
        for folder in os.environ.get("UR_ADAPTERS_SEARCH_PATH", "").split(","):
            if not folder:
                continue
            other = Path(folder) / ADAPTER_NAMES["cuda"]
            if other.is_file() and not _same(other, cuda):
                ok = False
                say("no", f"{other} (UR_ADAPTERS_SEARCH_PATH) comes before libsycl's folder "
                    "and shadows urc's CUDA adapter")
                break
    selector = os.environ.get("ONEAPI_DEVICE_SELECTOR")
    if selector is not None and not _selector_allows_cuda(selector):
        ok = False
        say("no", f"ONEAPI_DEVICE_SELECTOR={selector} selects no CUDA device, so libsycl "
            "does not load the CUDA adapter")
    if _loads_libcuda():
        say("ok", "libcuda.so.1 (NVIDIA's driver) opens")
    else:
        say("--", "libcuda.so.1 (NVIDIA's driver) does not open here: urc's CUDA adapter "
            "loads and reports no device")

    intel_l0 = libsycl.parent / ADAPTER_NAMES["level_zero"]
    if intel_l0.is_file():
        say("--", f"Level Zero: Intel's adapter ({intel_l0}, intel-cmplr-lib-ur) serves it")
    for name in ("level_zero", "opencl"):
        if name in adapters:
            say("--", f"urc's {name} adapter is not loaded by libsycl by default; to use it: "
                f"UR_ADAPTERS_FORCE_LOAD={adapters[name]}")

    probe = _probe(libsycl)
    if probe is None:
        say("--", "dpctl is not installed: libsycl was not asked (pip install dpctl)")
    elif "error" in probe:
        ok = False
        say("no", "loading libsycl through dpctl failed: " + " ".join(probe["error"]))
    else:
        mapped_cuda = [p for p in probe["maps"] if p.endswith("/" + ADAPTER_NAMES["cuda"])]
        if any(_same(p, cuda) for p in mapped_cuda):
            say("ok", "libsycl (through dpctl) loaded urc's CUDA adapter")
        elif mapped_cuda:
            ok = False
            say("no", f"libsycl loaded another CUDA adapter: {', '.join(mapped_cuda)}")
        elif force is None or any(_same(p, cuda) for p in force.split(",") if p):
            ok = False
            say("no", "libsycl (through dpctl) did not load urc's CUDA adapter")
        cuda_devices = [d for d in probe["devices"] if d.startswith("cuda ")]
        for d in probe["devices"]:
            print(f"     device: {d}")
        if not cuda_devices:
            say("--", "libsycl lists no CUDA device")
    print("libsycl will load urc's CUDA adapter" if ok else
          "libsycl will not load urc's CUDA adapter")
    return 0 if ok else 1


def sycl_launcher():
    """The urc-sycl command: runs a program with urc's SYCL interposer preloaded, so libsycl
    offers SPIR-V kernels to NVIDIA GPUs through urc's CUDA adapter (docs/sycl-nvidia.md)."""
    argv = sys.argv[1:]
    if not argv or argv[0] in ("-h", "--help"):
        print("usage: urc-sycl <program> [arguments...]   (example: urc-sycl python script.py)",
              file=sys.stderr)
        sys.exit(0 if argv else 2)
    interposer = urc.lib_dir / "liburc_sycl_interpose.so"
    if not interposer.is_file():
        sys.exit(f"urc-sycl: {interposer} is missing; reinstall urc")
    cuda = urc.adapter_paths().get("cuda")
    if cuda is not None:
        os.environ.setdefault("URC_SYCL_CUDA_ADAPTER", str(cuda))
    preload = os.environ.get("LD_PRELOAD")
    os.environ["LD_PRELOAD"] = str(interposer) + (":" + preload if preload else "")
    try:
        os.execvp(argv[0], argv)
    except OSError as e:
        sys.exit(f"urc-sycl: {argv[0]}: {e.strerror}")


def main(argv):
    if argv and argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0
    if argv and argv[0] == "--check":
        return check()
    describe()
    return run_urinfo(argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

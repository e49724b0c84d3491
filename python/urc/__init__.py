# SPDX-License-Identifier: MIT
"""urc, a Unified Runtime (API 0.12) loader and adapters in C, installed by pip.

The package folder holds urc's loader (lib/libur_loader.so.0), its OpenCL and Level Zero
adapters, urinfo (bin/), the headers (include/), pkg-config and CMake files (lib/pkgconfig,
lib/cmake/urc). The CUDA adapter lives in the environment's lib/ folder, beside
intel-sycl-rt's libsycl.so.9, which opens it by name. ``python -m urc`` describes the install;
docs/wheel.md in urc's source tells the layout and why.
"""

import sys
from pathlib import Path

__all__ = ["package_dir", "lib_dir", "bin_dir", "include_dir", "adapter_paths", "env_lib_dir",
           "installed_files"]

package_dir = Path(__file__).resolve().parent
lib_dir = package_dir / "lib"
bin_dir = package_dir / "bin"
include_dir = package_dir / "include"


def installed_files():
    """Every file pip installed for urc, as absolute paths (empty outside an install)."""
    try:
        from importlib import metadata
        files = metadata.files("urc") or []
    except Exception:  # not installed by pip (a source tree on sys.path)
        return []
    return [Path(f.locate()).resolve() for f in files]


def env_lib_dir():
    """The lib/ folder the wheel's data files went to (where libsycl.so.9 is expected)."""
    for f in installed_files():
        if f.name == "libur_adapter_cuda.so.0":
            return f.parent
    return Path(sys.prefix) / "lib"


def adapter_paths():
    """urc's adapters in this install: {"cuda": path, "level_zero": path, "opencl": path}."""
    found = {}
    cuda = env_lib_dir() / "libur_adapter_cuda.so.0"
    if cuda.is_file():
        found["cuda"] = cuda
    for name in ("level_zero", "opencl"):
        p = lib_dir / f"libur_adapter_{name}.so.0"
        if p.is_file():
            found[name] = p
    return found


def force_load_value():
    """A UR_ADAPTERS_FORCE_LOAD value naming every adapter of urc's in this install."""
    return ",".join(str(p) for p in adapter_paths().values())


def _version():
    try:
        from importlib import metadata
        return metadata.version("urc")
    except Exception:
        return "unknown"


__version__ = _version()

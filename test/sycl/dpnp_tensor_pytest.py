# SPDX-License-Identifier: MIT
"""A pytest plugin for dpnp's tensor suite (dpnp/tests/tensor) without dpnp's top level.

  python -m pytest -p dpnp_tensor_pytest ...   (this folder on PYTHONPATH)

The suite's conftest takes one fixture, suppress_invalid_numpy_warnings, from dpnp's own
tests/conftest.py, which imports dpnp's top level and so needs oneMKL's wheels. When that
cannot be imported, this plugin gives the fixture the same meaning (NumPy ignores invalid
floating-point operations while the test runs) under the module name the suite imports.
scripts/gpu-python-check installs dpnp's wheel without that file (scripts/pack-gpu-python).
"""
import importlib
import sys
import types

import numpy
import pytest

try:
    importlib.import_module("dpnp.tests.conftest")
except ImportError:

    @pytest.fixture
    def suppress_invalid_numpy_warnings():
        old = numpy.seterr(invalid="ignore")
        yield
        numpy.seterr(**old)

    stand_in = types.ModuleType("dpnp.tests.conftest")
    stand_in.suppress_invalid_numpy_warnings = suppress_invalid_numpy_warnings
    sys.modules["dpnp.tests.conftest"] = stand_in

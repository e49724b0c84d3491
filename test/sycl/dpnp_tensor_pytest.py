# SPDX-License-Identifier: MIT
"""A pytest plugin for dpnp's tensor suite (dpnp/tests/tensor) without dpnp's top level.

  python -m pytest -p dpnp_tensor_pytest ...   (this folder on PYTHONPATH)

dpnp's top level and the package files of dpnp/tests import oneMKL-backed parts of dpnp. The
plugin puts dpnp and dpnp.tests in place without running either __init__.py (see
dpnp_tensor_ops.bare_package), and stands in for the one fixture the tensor suite's conftest
takes from dpnp/tests/conftest.py: suppress_invalid_numpy_warnings (NumPy ignores invalid
floating-point operations while the test runs).
"""
import sys
import types

import numpy
import pytest

from dpnp_tensor_ops import bare_package

bare_package("dpnp")
bare_package("dpnp.tests")


@pytest.fixture
def suppress_invalid_numpy_warnings():
    old = numpy.seterr(invalid="ignore")
    yield
    numpy.seterr(**old)


stand_in = types.ModuleType("dpnp.tests.conftest")
stand_in.suppress_invalid_numpy_warnings = suppress_invalid_numpy_warnings
sys.modules["dpnp.tests.conftest"] = stand_in

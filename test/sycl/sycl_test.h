// SPDX-License-Identifier: MIT
// Helpers of the suites that drive Intel's SYCL runtime (libsycl.so.9 from intel-sycl-rt)
// through dpctl's C interface over urc's adapters.
//
// Every suite runs with UR_ADAPTERS_FORCE_LOAD naming one urc library and URC_SYCL_BACKEND
// (`opencl` or `cuda`) naming the backend it expects. Each test first proves that urc serves
// SYCL (st_require_urc): the forced library is mapped, every mapped UR library comes from urc's
// folder, and SYCL sees one platform of that backend. A silent fallback to libsycl's built-in
// OpenCL adapter fails. Check forks each test, and nothing touches SYCL before the fork, so each
// test starts libsycl afresh and reads ONEAPI_DEVICE_SELECTOR set inside it.
#ifndef URC_TEST_SYCL_SYCL_TEST_H
#define URC_TEST_SYCL_SYCL_TEST_H

#include <check.h>
#include <stdbool.h>
#include <stddef.h>

#include "dpctl_sycl_interface.h"
#include "urc_test.h"

/// The backend the suite runs on, from URC_SYCL_BACKEND (default opencl).
typedef enum st_backend_t { ST_OPENCL, ST_CUDA } st_backend_t;
st_backend_t st_backend(void);
/// "opencl" or "cuda": the backend's name in ONEAPI_DEVICE_SELECTOR and filter strings.
const char *st_backend_name(void);
/// DPCTL_OPENCL or DPCTL_CUDA.
DPCTLSyclBackendType st_dpctl_backend(void);

/// Fails the test unless every library of UR_ADAPTERS_FORCE_LOAD is mapped into this process
/// (compared by device and inode) and every mapped libur_* file lies in the folder of one of
/// them. Starts SYCL first (it lists the platforms).
void st_require_urc_mapped(void);

/// st_require_urc_mapped, and SYCL lists exactly one platform of the expected backend (a second
/// would be libsycl's built-in adapter's).
void st_require_urc(void);

/// The first device of the backend (a filter selector "<backend>:0"); never NULL in a test.
DPCTLSyclDeviceRef st_device(void);

/// A queue on `device` in a new context of its own with DPCTL queue properties `props`.
DPCTLSyclQueueRef st_queue(DPCTLSyclDeviceRef device, int props);

/// The number of devices SYCL lists in this process for DPCTL device identifier `id`
/// (backend | type bits).
size_t st_device_count(int id);

/// Sets or unsets (value NULL) an environment variable; fails the test when that fails.
void st_setenv(const char *name, const char *value);

/// The text of a file (NUL-terminated, malloc'd), or NULL.
char *st_read_text(const char *path);

/// A test case with the suite's fixture: st_require_urc before each test, a 120 s limit.
TCase *st_tcase(const char *name);

/// Runs the suite, after a probe in a forked child: exits 77 when the backend has no device
/// here (no CUDA GPU), and fails when UR_ADAPTERS_FORCE_LOAD is unset or, with
/// URC_SYCL_REQUIRE_DEVICE=1 (CTest on the CPU runtime), when SYCL finds no device.
int st_main(Suite *suite);

#endif // URC_TEST_SYCL_SYCL_TEST_H

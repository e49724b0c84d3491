// SPDX-License-Identifier: MIT
// Fixture of the OpenCL adapter suites: the loader initialised with only the OpenCL adapter,
// the first platform and device, a context and an in-order queue; device programs built from
// test/kernels; and what the device offers, so tests can expect the clean refusal instead of
// skipping.
#ifndef URC_TEST_CONFORMANCE_OPENCL_OCLT_H
#define URC_TEST_CONFORMANCE_OPENCL_OCLT_H

#include <stdbool.h>
#include <stddef.h>

#include "urc_fixture.h"

typedef struct oclt_t {
    ur_adapter_handle_t adapter;
    ur_platform_handle_t platform;
    ur_device_handle_t device;
    ur_context_handle_t context;
    ur_queue_handle_t queue;
    bool intel;   // Intel's CPU runtime (else PoCL or another)
    bool il;      // the device takes SPIR-V
    bool usm;     // cl_intel_unified_shared_memory
    bool globals; // UR_DEVICE_INFO_GLOBAL_VARIABLE_SUPPORT
} oclt_t;

/// Set up by the fixture for each test.
extern oclt_t T;

void oclt_setup(void);
void oclt_teardown(void);

/// A test case running oclt_setup/oclt_teardown around each test (in the forked child).
TCase *oclt_tcase(const char *name);

/// Exit 77 when no OpenCL platform exists (probed in a child process, so the parent never
/// initialises a runtime before Check forks), else runs the suite.
int oclt_main(Suite *suite);

/// The contents of a built kernel file (test/kernels, built into OCLT_KERNEL_DIR); NULL if
/// absent. Free with free().
void *oclt_read_kernel(const char *file, size_t *size);

/// A program of `base` (e.g. "add_one") in the fixture's context, not built: from SPIR-V when
/// the device takes it, else from SPIR 1.2 bitcode. NULL (test fails) when neither exists.
ur_program_handle_t oclt_program(const char *base, const ur_program_properties_t *props);

/// oclt_program for a kernel file of another folder (the end-to-end suites' own).
ur_program_handle_t oclt_program_in(const char *dir, const char *base,
                                    const ur_program_properties_t *props);

/// oclt_program + urProgramBuild; fails the test on error.
ur_program_handle_t oclt_built_program(const char *base);

/// Reads a uint32 device query.
uint32_t oclt_device_u32(ur_device_info_t what);

#endif // URC_TEST_CONFORMANCE_OPENCL_OCLT_H

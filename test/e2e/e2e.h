// SPDX-License-Identifier: MIT
// Helpers of the end-to-end suites (device images, device globals, fallback assert) on the
// OpenCL adapter: the conformance fixture (oclt.h: loader, platform, device, context, queue)
// plus device code from test/kernels built into E2E_KERNEL_DIR, SYCL metadata builders,
// launches and a log counter.
#ifndef URC_TEST_E2E_E2E_H
#define URC_TEST_E2E_E2E_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "oclt.h"

/// A SYCL byte array: an 8-byte little-endian bit count, then the payload.
typedef struct e2e_bytes_t {
    uint8_t data[72];
    size_t size;
} e2e_bytes_t;

e2e_bytes_t e2e_bytes(const void *payload, size_t n);

/// A payload of uint32 values (aspects, sub-group and work-group sizes).
e2e_bytes_t e2e_u32s(const uint32_t *values, size_t n);

/// Runs `setenv(name, value)` and then the fixture set-up: the adapter reads its environment
/// when the loader first loads it, in each test's own process.
void e2e_setup_with_env(const char *name, const char *value);

/// A program of `base` from E2E_KERNEL_DIR: `<base>.spv` through urProgramCreateWithIL when the
/// device takes SPIR-V, else `<base>.bc` through urProgramCreateWithBinary. Not built. NULL when
/// the file is absent (device code tools missing).
ur_program_handle_t e2e_program(const char *base, const ur_program_properties_t *props);

/// urProgramGetBuildInfo(LOG) for the fixture's device, in a static buffer.
const char *e2e_build_log(ur_program_handle_t program);

/// urAdapterGetLastError's message, in a static buffer.
const char *e2e_last_error(int32_t *code);

/// Launches `kernel` over `global` work-items (`local` may be 0 for the runtime's choice) with
/// one buffer argument, without events.
void e2e_launch_buffer(ur_kernel_handle_t kernel, ur_mem_handle_t buffer, size_t global,
                       size_t local);

/// A read-write buffer holding `n` ints copied from `values`.
ur_mem_handle_t e2e_int_buffer(const int *values, size_t n);

/// Counts the OpenCL adapter's log messages (all levels, through urAdapterSetLoggerCallback)
/// that contain `needle`.
void e2e_count_log(const char *needle);
int e2e_log_count(void);

#endif // URC_TEST_E2E_E2E_H

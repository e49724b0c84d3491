// SPDX-License-Identifier: MIT
// Fixture of the CUDA adapter suites: the real loader with only the CUDA adapter
// (UR_ADAPTERS_FORCE_LOAD), the first platform and device, a context and an in-order queue;
// programs from the PTX, cubin and fatbin files built from kernels/ at build time.
//
// Without a CUDA device every suite exits 77 (CTest: skipped), except the adapter suite,
// which checks that a machine without a driver or GPU still gets an adapter and no platform.
#ifndef URC_TEST_CONFORMANCE_CUDA_CUDAT_H
#define URC_TEST_CONFORMANCE_CUDA_CUDAT_H

#include <stdbool.h>
#include <stddef.h>

#include "md_builder.h"
#include "urc_fixture.h"

typedef struct cudat_t {
    ur_adapter_handle_t adapter;
    ur_platform_handle_t platform;
    ur_device_handle_t device;
    ur_context_handle_t context;
    ur_queue_handle_t queue;
    ur_program_handle_t program; // globals.ptx, built, with cudat_program_tcase
} cudat_t;

/// Set up by the fixture for each test.
extern cudat_t T;

void cudat_setup(void);
void cudat_teardown(void);

/// A test case running cudat_setup/cudat_teardown around each test (in the forked child).
TCase *cudat_tcase(const char *name);

/// As cudat_tcase, and the fixture also builds globals.ptx into T.program.
TCase *cudat_program_tcase(const char *name);

/// Runs the suite, or exits 77 without a CUDA platform (probed in a child process, so the
/// parent never initialises CUDA before Check forks) or, when `needs_kernels`, without the
/// device code (nvcc was absent at build time).
int cudat_main(Suite *suite, bool needs_kernels);

/// The folder holding the built device code: $URC_CUDA_TEST_KERNELS when set (scripts/gpu-check
/// rebuilds the kernels with the GPU machine's nvcc), else the build folder's.
const char *cudat_kernel_dir(void);

/// The contents of a built kernel file, e.g. "globals.ptx"; fails the test when absent.
void *cudat_read_kernel(const char *file, size_t *size);

/// A program of the file in the fixture's context (not built), with optional metadata.
ur_program_handle_t cudat_program(const char *file, const md_list_t *metadata);

/// cudat_program + urProgramBuild, failing the test on error.
ur_program_handle_t cudat_built_program(const char *file, const md_list_t *metadata);

/// Adds UR's "<id>@global_id_mapping" entry naming `symbol`, with a correct size header.
void cudat_map_global(md_list_t *md, const char *id, const char *symbol);

/// The CUDA suites' names of the kernel-argument helpers of test/support (urc_test.h).
#define cudat_arg_pointer urc_test_arg_pointer
#define cudat_arg_value   urc_test_arg_value
#define cudat_arg_local   urc_test_arg_local

/// A 1-D launch on `queue`.
ur_result_t cudat_launch(ur_queue_handle_t queue, ur_kernel_handle_t kernel, size_t global,
                         const size_t *local, uint32_t num_args,
                         const ur_exp_kernel_arg_properties_t *args, uint32_t num_events,
                         const ur_event_handle_t *events, ur_event_handle_t *event);

/// The command type of an event.
ur_command_t cudat_event_command(ur_event_handle_t event);

#endif // URC_TEST_CONFORMANCE_CUDA_CUDAT_H

// SPDX-License-Identifier: MIT
// What the adapter suites' fixtures share (test/conformance/<adapter>, test/e2e): the probe
// that skips a suite without a platform, and the usual handles (loader, adapter, first
// platform and device, a context and an in-order queue).
#ifndef URC_TEST_SUPPORT_URC_FIXTURE_H
#define URC_TEST_SUPPORT_URC_FIXTURE_H

#include <stdbool.h>
#include <stddef.h>

#include "urc_test.h"

/// Whether the loader finds a platform, probed in a forked child so that the parent never
/// starts a runtime before Check forks for each test: 1 when it does, 0 when not, -1 when the
/// probe itself failed.
int urc_test_probe_platform(void);

/// Runs the suite when urc_test_probe_platform finds a platform; otherwise skips it with
/// "<why>: skipped" (EXIT_FAILURE when the probe failed).
int urc_test_main_with_platform(Suite *suite, const char *why);

/// urLoaderInit, then the first adapter, its first platform, that platform's first device, a
/// context of that device and an in-order queue on it; each step asserted. Also recorded in
/// urc_test_opened.
void urc_test_open(ur_adapter_handle_t *adapter, ur_platform_handle_t *platform,
                   ur_device_handle_t *device, ur_context_handle_t *context,
                   ur_queue_handle_t *queue);

/// The usual handles of a suite's fixture, as urc_test_open makes them.
typedef struct urc_test_handles_t {
    ur_adapter_handle_t adapter;
    ur_platform_handle_t platform;
    ur_device_handle_t device;
    ur_context_handle_t context;
    ur_queue_handle_t queue;
} urc_test_handles_t;

/// What the latest urc_test_open made: the handles cases shared by several adapters' suites
/// (test/conformance/common/*_cases.c) run on, whichever adapter's fixture opened them.
extern urc_test_handles_t urc_test_opened;

/// Zeroes `h`, then urc_test_open into it: a checked fixture's set-up.
void urc_test_handles_open(urc_test_handles_t *h);

/// Releases what urc_test_handles_open made (as far as it got; each release asserted), then
/// urLoaderTearDown: a checked fixture's tear-down, also right in a forked child.
void urc_test_handles_close(urc_test_handles_t *h);

/// A boolean device query (UR_DEVICE_INFO_*_SUPPORT...), asserted to answer.
bool urc_test_device_says(ur_device_handle_t device, ur_device_info_t what);

/// Whether the device is one of the simulated drivers' (its name says "simulated").
bool urc_test_device_simulated(ur_device_handle_t device);

/// Asserts that urDeviceGetInfo answers every query value up to 0x9000, or refuses it as an
/// invalid or unsupported enumeration, and that an answer's size is the same for the size query,
/// the exact buffer and a larger one. Returns how many it answered.
int urc_test_assert_device_info_sizes(ur_device_handle_t device);

/// The device queries a SYCL runtime makes of every device at start-up; each must answer.
extern const ur_device_info_t urc_test_sycl_startup_queries[];
extern const size_t urc_test_sycl_startup_query_count;

/// Asserts that the device answers each query (its size, through urDeviceGetInfo).
void urc_test_assert_device_answers(ur_device_handle_t device, const ur_device_info_t *queries,
                                    size_t n);

/// Updates kernel argument `index` of command `cmd` in `cb` to `size` bytes at `value`, then
/// enqueues `cb` on `queue`.
void urc_test_update_value_and_replay(ur_exp_command_buffer_handle_t cb,
                                      ur_exp_command_buffer_command_handle_t cmd, uint32_t index,
                                      size_t size, const void *value, ur_queue_handle_t queue);

/// urBindlessImagesImageAllocateExp that must succeed.
ur_exp_image_mem_native_handle_t urc_test_image_alloc(ur_context_handle_t context,
                                                      ur_device_handle_t device,
                                                      const ur_image_format_t *f,
                                                      const ur_image_desc_t *d);

/// urProgramGetBuildInfo's STATUS and BINARY_TYPE of `program` on `device`, asserted to answer.
ur_program_build_status_t urc_test_build_status(ur_program_handle_t program,
                                                ur_device_handle_t device);
ur_program_binary_type_t urc_test_binary_type(ur_program_handle_t program,
                                              ur_device_handle_t device);

#endif // URC_TEST_SUPPORT_URC_FIXTURE_H

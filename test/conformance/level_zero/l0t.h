// SPDX-License-Identifier: MIT
// Fixture of the Level Zero adapter suites: the loader with only the Level Zero adapter, which
// the real Level Zero loader points at the simulated driver (ZE_ENABLE_ALT_DRIVERS); the first
// platform and device, a context and an in-order queue; the simulator's inspection API; device
// programs built at build time. Teardown releases everything and checks that the simulator has
// no live handle and no allocation left, so every test is a leak check.
#ifndef URC_TEST_CONFORMANCE_LEVEL_ZERO_L0T_H
#define URC_TEST_CONFORMANCE_LEVEL_ZERO_L0T_H

#include <stdbool.h>
#include <stddef.h>

#include "urc_fixture.h"
#include "ze_sim.h"

typedef struct l0t_t {
    ur_adapter_handle_t adapter;
    ur_platform_handle_t platform;
    ur_device_handle_t device;
    ur_context_handle_t context;
    ur_queue_handle_t queue;
    ze_sim_api_t sim;
    ze_event_pool_handle_t user_pool; // for l0t_user_event, destroyed at teardown
    uint32_t user_events;
} l0t_t;

/// Set up by the fixture for each test.
extern l0t_t T;

void l0t_setup(void);
void l0t_teardown(void);

/// A test case running l0t_setup/l0t_teardown around each test (in the forked child).
TCase *l0t_tcase(const char *name);

/// Exit 77 when the simulated driver gives no platform (probed in a child), else runs the suite.
int l0t_main(Suite *suite);

/// The bytes of a device-code file built for the tests ("add_one.spv", "globals.spv", ...);
/// fails the test when it is missing. Free with free().
void *l0t_read(const char *file, size_t *size);

/// A program of `file` (SPIR-V) in the fixture's context, not built.
ur_program_handle_t l0t_program(const char *file, const ur_program_properties_t *props);

/// l0t_program + urProgramBuild; fails the test on error.
ur_program_handle_t l0t_built(const char *file);

/// A queue of the fixture's context and device with these flags.
ur_queue_handle_t l0t_queue(ur_queue_flags_t flags);

/// The build log of a program on the fixture's device (malloc'd).
char *l0t_log(ur_program_handle_t program);

/// A "user event": a Level Zero event the test signals itself (zeEventHostSignal on *ze),
/// wrapped with urEventCreateWithNativeHandle (owned: urEventRelease destroys it).
ur_event_handle_t l0t_user_event(ze_event_handle_t *ze);

/// The event's command type and status.
ur_command_t l0t_command(ur_event_handle_t event);
ur_event_status_t l0t_status(ur_event_handle_t event);

#endif // URC_TEST_CONFORMANCE_LEVEL_ZERO_L0T_H

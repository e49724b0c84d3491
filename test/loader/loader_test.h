// SPDX-License-Identifier: MIT
// Helpers shared by the loader suites: where the fake adapters are, a clean environment per
// test, and short ways to initialise the loader with fakes and list what it loaded.
#ifndef URC_TEST_LOADER_LOADER_TEST_H
#define URC_TEST_LOADER_LOADER_TEST_H

#include <stdbool.h>
#include <stddef.h>

#include "fake_inspect.h"
#include "urc_test.h"

// Three builds of the fake: "a" poses as OpenCL, "b" as CUDA, "c" as Level Zero.
#define FAKE_A     URC_FAKE_DIR "/libur_adapter_fake_a.so"
#define FAKE_B     URC_FAKE_DIR "/libur_adapter_fake_b.so"
#define FAKE_C     URC_FAKE_DIR "/libur_adapter_fake_c.so"
#define NO_GETTERS URC_FAKE_DIR "/libur_adapter_nogetters.so"

/// Unsets every variable the loader reads, so each test starts from UR's defaults.
void lt_clean_env(void);

/// Sets (or with NULL unsets) a variable.
void lt_setenv(const char *name, const char *value);

/// urLoaderInit(0, NULL) with UR_ADAPTERS_FORCE_LOAD set to `force_load`.
void lt_init_forced(const char *force_load);

/// Loads fakes A and B (in that order) and opens their inspection APIs.
void lt_init_two(fake_api_t *a, fake_api_t *b);

/// The adapters urAdapterGet returns (at most `max`); their count.
uint32_t lt_adapters(ur_adapter_handle_t *out, uint32_t max);

/// Each loaded adapter's backend, in load order (at most `max`); their count.
uint32_t lt_backends(ur_backend_t *out, uint32_t max);

/// The platforms of an adapter (at most `max`); their count.
uint32_t lt_platforms(ur_adapter_handle_t adapter, ur_platform_handle_t *out, uint32_t max);

/// The first platform of the first adapter whose backend is `backend`, or NULL.
ur_platform_handle_t lt_platform_of(ur_backend_t backend);

/// A fresh folder for the test's temporary files (urc_test_temp_dir), written into `out`.
void lt_temp_dir(char *out, size_t size);

/// The whole of a small file as a string (static buffer; "" when it cannot be read).
const char *lt_read_file(const char *path);

/// Check's suite with one test case per name, a checked fixture running lt_clean_env.
TCase *lt_tcase(const char *name);

#endif // URC_TEST_LOADER_LOADER_TEST_H

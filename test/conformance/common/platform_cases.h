// SPDX-License-Identifier: MIT
// The platform and device cases every adapter's suite shares (test_cuda_device,
// test_l0_platform, test_opencl_platform, test_opencl_device): what a platform reports of its
// backend and adapter, native-handle round trips, and the size rule of a device query. They
// run on the handles of the adapter's fixture (urc_test_opened).
#ifndef URC_TEST_CONFORMANCE_COMMON_PLATFORM_CASES_H
#define URC_TEST_CONFORMANCE_COMMON_PLATFORM_CASES_H

#include "urc_fixture.h"

/// platform_backend_and_adapter: the platform answers `backend` and the fixture's adapter.
void platform_cases_add_backend(TCase *tc, ur_backend_t backend);

/// platform_native_handle_round_trip (adapters that implement urPlatformGetNativeHandle).
void platform_cases_add_native(TCase *tc);

/// device_info_small_buffer_is_invalid_size.
void platform_cases_add_device_info(TCase *tc);

/// device_native_handle_round_trip.
void platform_cases_add_device_native(TCase *tc);

#endif // URC_TEST_CONFORMANCE_COMMON_PLATFORM_CASES_H

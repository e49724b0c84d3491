// SPDX-License-Identifier: MIT
// The rules the adapters share for host registration, import and peer access (UR's USM
// extensions), checked before the driver, and one wording of each refusal.
#ifndef URC_COMMON_MEMORY_USM_IMPORT_PEER_H
#define URC_COMMON_MEMORY_USM_IMPORT_PEER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <ur_api.h>

/// urUSMHostAllocRegisterExp: a non-empty range that does not wrap (INVALID_VALUE) and known
/// flags (INVALID_ENUMERATION); *read_only says whether READ_ONLY was asked.
ur_result_t urc_usm_host_register_check(const void *p, size_t size,
                                        const ur_exp_usm_host_alloc_register_properties_t *props,
                                        bool *read_only);

/// urUSMImportExp: a non-empty range that does not wrap (INVALID_SIZE, as UR specifies).
ur_result_t urc_usm_import_check(const void *p, size_t size);

/// Registering (or importing) memory twice, or memory the driver already owns: INVALID_VALUE.
ur_result_t urc_usm_host_registered_already(const void *p, int32_t native);

/// Unregistering (or releasing) what is not registered: INVALID_VALUE.
ur_result_t urc_usm_host_not_registered(const void *p, int32_t native);

/// Peer access where the driver says the command device cannot reach the peer:
/// UNSUPPORTED_FEATURE.
ur_result_t urc_peer_unreachable(uint32_t command, uint32_t peer, int32_t native);

/// Enabling peer access twice (enabled true) or disabling it when it is not enabled:
/// INVALID_OPERATION.
ur_result_t urc_peer_state_wrong(bool enabled, int32_t native);

#endif // URC_COMMON_MEMORY_USM_IMPORT_PEER_H

// SPDX-License-Identifier: MIT
// Exportable device memory of the simulated driver (mem_export.c), as memory.c uses it.
#ifndef URC_TEST_ZE_SIM_MEM_EXPORT_H
#define URC_TEST_ZE_SIM_MEM_EXPORT_H

#include "ze_sim_internal.h"

/// The export types a zeMemAllocDevice chain asks for (0: none); UNSUPPORTED_ENUMERATION for
/// types the simulator cannot export.
ze_result_t sim_export_types(const void *pnext, ze_external_memory_type_flags_t *types);
/// Shared memory of a memfd, `size` bytes at `alignment`; NULL when out of memory.
void *sim_export_map(size_t size, size_t alignment, ze_external_memory_type_flags_t types);
/// Unmaps `base` when it is exportable memory (1), else 0.
int sim_export_unmap(void *base);
/// zeMemGetAllocProperties' ze_external_memory_export_fd_t in `pnext`, for the allocation at
/// `base`: a new descriptor, or INVALID_ARGUMENT for memory that is not exportable.
ze_result_t sim_export_fill(const void *base, void *pnext);

#endif // URC_TEST_ZE_SIM_MEM_EXPORT_H

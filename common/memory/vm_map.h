// SPDX-License-Identifier: MIT
// The virtual address ranges an adapter reserved (urVirtualMemReserve, exportable memory) and
// the pieces of them with physical memory mapped, so that the rules no driver checks reliably
// are urc's: a reservation is not given back while memory is mapped in it, a range is not
// unmapped twice, urUSMFree refuses virtual memory, and the range check of USM commands sees
// pieces mapped side by side as one run of memory. One record per adapter library.
#ifndef URC_COMMON_MEMORY_VM_MAP_H
#define URC_COMMON_MEMORY_VM_MAP_H

#include <stdbool.h>
#include <stddef.h>

#include "ur_api.h"

/// Records a reservation the driver has just made (OUT_OF_HOST_MEMORY).
ur_result_t urc_vm_reserve_note(const void *start, size_t size);

/// Takes the reservation [start, start + size) out of the record before the driver frees it:
/// INVALID_VALUE (with a message) while any of it still has memory mapped. A range urc never
/// reserved is left to the driver (SUCCESS, `*known` false). When the driver then fails, the
/// caller puts the reservation back with urc_vm_reserve_note.
ur_result_t urc_vm_free_claim(const void *start, size_t size, bool *known);

/// Claims [start, start + size) of a known reservation for a map before the driver maps it:
/// INVALID_VALUE when part of it is mapped already. A range outside every reservation urc made
/// is left to the driver (SUCCESS, `*known` false). A failed driver map gives the claim back
/// with urc_vm_unmap_note.
ur_result_t urc_vm_map_claim(const void *start, size_t size, bool *known);

/// Takes [start, start + size) out of the mapped pieces before the driver unmaps it:
/// INVALID_VALUE when any byte of it inside a known reservation is not mapped (a second unmap).
/// `*known` as above; a failed driver unmap puts the pieces back with urc_vm_map_claim.
ur_result_t urc_vm_unmap_claim(const void *start, size_t size, bool *known);

/// Forgets mapped pieces in [start, start + size) (a map the driver refused after its claim).
void urc_vm_unmap_note(const void *start, size_t size);

/// True when `ptr` lies inside a reservation urc made (mapped or not).
bool urc_vm_holds(const void *ptr);

/// The run of mapped bytes holding `ptr`, pieces that touch joined into one: false when `ptr`
/// is in no mapped piece. Reads nothing when no reservation exists.
bool urc_vm_mapped_run(const void *ptr, const void **base, size_t *size);

/// The range check of the urVirtualMem* calls that take a range of a reservation (map, unmap,
/// free, set access, get info), before the driver sees it: INVALID_VALUE for exportable memory
/// (its reservation is urMemoryExport*'s, not the caller's), INVALID_SIZE for a range that
/// wraps or starts inside a reservation urc made and runs past its end; with `mapped`,
/// INVALID_VALUE too for a range of a known reservation not all mapped. A range outside every
/// reservation urc made is left to the driver (SUCCESS).
ur_result_t urc_vm_check_user_range(const void *start, size_t size, bool mapped);

/// urVirtualMemGetInfo's range check: urc_vm_check_user_range with `mapped`, and INVALID_VALUE
/// for a start outside every reservation urc made (a query of device USM: NVIDIA's driver
/// answers one, UR names an error).
ur_result_t urc_vm_check_info_range(const void *start, size_t size);

/// INVALID_VALUE (with a message naming `call`) when `ptr` lies in exportable or reserved
/// virtual memory, which no USM-only call (urIPCGetMemHandleExp, for one) may take.
ur_result_t urc_vm_refuse_for(const void *ptr, const char *call);

/// urUSMFree's refusal of memory that has its own free (INVALID_MEM_OBJECT, with a message):
/// exportable memory (urMemoryExportFreeExportableMemoryExp) and reserved virtual memory
/// (urVirtualMemUnmap, urVirtualMemFree). SUCCESS for anything else.
ur_result_t urc_usm_free_not_virtual(const void *ptr);

#endif // URC_COMMON_MEMORY_VM_MAP_H

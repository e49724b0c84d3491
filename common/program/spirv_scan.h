// SPDX-License-Identifier: MIT
// A SPIR-V module's header and the facts a runtime needs before any translation: its kernels
// (names, required work-group sizes, ContractionOff), its specialization constant ids. The
// whole instruction stream is walked, so a truncated or garbled module is refused here with a
// reason instead of reaching a translator that may abort on it.
#ifndef URC_COMMON_PROGRAM_SPIRV_SCAN_H
#define URC_COMMON_PROGRAM_SPIRV_SCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define URC_SPIRV_MAGIC 0x07230203u

typedef struct urc_spirv_kernel_t {
    uint32_t id;          // the OpFunction's result id
    char *name;           // the entry point's name
    uint32_t local[3];    // ExecutionMode LocalSize; 0 when not given
    bool contraction_off; // ExecutionMode ContractionOff
} urc_spirv_kernel_t;

typedef struct urc_spirv_info_t {
    uint32_t version; // the header's version word (0x00MMmm00)
    uint32_t kernel_count;
    urc_spirv_kernel_t *kernels;
    uint32_t spec_count;
    uint32_t *spec_ids;   // SpecId decorations, as they appear
    bool contraction_off; // any kernel has ContractionOff
} urc_spirv_info_t;

/// True when the bytes start with SPIR-V's magic number in either byte order.
bool urc_spirv_is(const void *data, size_t size);

/// Walks a module. True with *info filled (urc_spirv_info_free releases it); false with a
/// reason in `err`: size not a multiple of 4 or shorter than the header, wrong magic, version
/// outside 1.0–1.6, an id bound of 0, an instruction of 0 words or running past the end, an
/// entry-point name without its terminating NUL, a capability number outside SPIR-V's
/// registered ranges, or no memory. A module without kernels
/// (a library for linking) is valid.
bool urc_spirv_scan(const void *data, size_t size, urc_spirv_info_t *info, char *err,
                    size_t err_size);

void urc_spirv_info_free(urc_spirv_info_t *info);

/// A copy of the module in the host's byte order (the translator reads either, the cache key
/// hashes this form); NULL when out of memory. `size` must be a multiple of 4.
uint32_t *urc_spirv_native_words(const void *data, size_t size);

#endif // URC_COMMON_PROGRAM_SPIRV_SCAN_H

// SPDX-License-Identifier: MIT
// SYCL device images as program metadata (docs/device-images.md).
//
// A SYCL runtime that holds a device image as DPC++'s offload wrapper lays it out (the
// `sycl_device_binary_struct` of sycl/source/detail/compiler.hpp) can turn the image's property
// sets into the ur_program_metadata_t array urc's adapters read, one entry per property, named
// "<property set>/<property>":
//
//     ur_program_metadata_t *md; uint32_t n;
//     if (urcMetadataFromDeviceBinary(image, &md, &n) == UR_RESULT_SUCCESS) {
//         ur_program_properties_t props = {UR_STRUCTURE_TYPE_PROGRAM_PROPERTIES, NULL, n, md};
//         urProgramCreateWithIL(ctx, il, il_size, &props, &program);
//         urcMetadataArrayFree(md);
//     }
//
// The structures below have exactly DPC++'s layout (field names are urc's).
#ifndef URC_DEVICE_IMAGE_H
#define URC_DEVICE_IMAGE_H

#include <stddef.h>
#include <stdint.h>

#include "ur_api.h"

#ifdef __cplusplus
extern "C" {
#endif

/// `sycl_property_type`: how a property's value is stored.
typedef enum urc_sycl_property_type_t {
    URC_SYCL_PROPERTY_TYPE_UNKNOWN = 0,
    URC_SYCL_PROPERTY_TYPE_UINT32 = 1,     ///< the value itself is `size`; `value` is NULL
    URC_SYCL_PROPERTY_TYPE_BYTE_ARRAY = 2, ///< 8-byte little-endian bit count, then the payload
    URC_SYCL_PROPERTY_TYPE_STRING = 3,     ///< a NUL-terminated string at `value`
} urc_sycl_property_type_t;

/// `_sycl_offload_entry_struct` (the 32-byte layout; SYCL only reads `name`).
typedef struct urc_sycl_offload_entry_t {
    void *addr;
    char *name;
    size_t size;
    int32_t flags;
    int32_t reserved;
} urc_sycl_offload_entry_t;

/// `_sycl_device_binary_property_struct` (32 bytes on LP64).
typedef struct urc_sycl_property_t {
    char *name;
    void *value;   ///< ValAddr
    uint32_t type; ///< urc_sycl_property_type_t
    uint64_t size; ///< ValSize: the UINT32 value, or the bytes at `value` (header included)
} urc_sycl_property_t;

/// `_sycl_device_binary_property_set_struct` (24 bytes on LP64).
typedef struct urc_sycl_property_set_t {
    char *name;
    urc_sycl_property_t *properties_begin;
    urc_sycl_property_t *properties_end;
} urc_sycl_property_set_t;

/// `sycl_device_binary_struct`.
typedef struct urc_sycl_device_binary_t {
    uint16_t version;               ///< 1
    uint8_t kind;                   ///< 4: SYCL
    uint8_t format;                 ///< 0 none, 1 native, 2 SPIR-V, 3 LLVM bitcode, 4 compressed
    const char *device_target_spec; ///< "spir64", "nvptx64", ...
    const char *compile_options;
    const char *link_options;
    const char *manifest_start;
    const char *manifest_end;
    const unsigned char *binary_start;
    const unsigned char *binary_end;
    urc_sycl_offload_entry_t *entries_begin;
    urc_sycl_offload_entry_t *entries_end;
    urc_sycl_property_set_t *property_sets_begin;
    urc_sycl_property_set_t *property_sets_end;
} urc_sycl_device_binary_t;

/// `sycl_device_binaries_struct`: what __sycl_register_lib receives.
typedef struct urc_sycl_device_binaries_t {
    uint16_t version; ///< 1
    uint16_t num_device_binaries;
    urc_sycl_device_binary_t *device_binaries;
    urc_sycl_offload_entry_t **host_entries_begin;
    urc_sycl_offload_entry_t **host_entries_end;
} urc_sycl_device_binaries_t;

/// Turns every property of `pBinary` into one ur_program_metadata_t named
/// "<property set>/<property>", in set and property order:
///   - UINT32 → UR_PROGRAM_METADATA_TYPE_UINT32, data32 = the value (from `size`);
///   - BYTE_ARRAY → UR_PROGRAM_METADATA_TYPE_BYTE_ARRAY, pData = `value`, size = `size`
///     (the 8-byte header included);
///   - STRING → UR_PROGRAM_METADATA_TYPE_STRING, pString = `value`, size = its length + 1.
/// Names are copied; values are not, so `pBinary`'s data must outlive the array (which
/// urProgramCreateWithIL/WithBinary do not keep: urc's adapters copy what they need).
/// A binary without property sets gives `*pCount == 0` and `*ppMetadata == NULL`.
///
/// @returns
///   - UR_RESULT_ERROR_INVALID_NULL_POINTER when `pBinary`, `ppMetadata` or `pCount` is NULL
///   - UR_RESULT_ERROR_INVALID_VALUE when the descriptor is malformed: a range with only one
///     end NULL or its end before its begin, a NULL set or property name, a property type
///     other than 1-3, a UINT32 value above UINT32_MAX, a NULL value for a BYTE_ARRAY with a
///     non-zero size or for a STRING, more than UINT32_MAX properties
///   - UR_RESULT_ERROR_OUT_OF_HOST_MEMORY
UR_APIEXPORT ur_result_t UR_APICALL urcMetadataFromDeviceBinary(
    const urc_sycl_device_binary_t *pBinary, ur_program_metadata_t **ppMetadata, uint32_t *pCount);

/// Frees an array made by urcMetadataFromDeviceBinary (NULL is allowed).
UR_APIEXPORT void UR_APICALL urcMetadataArrayFree(ur_program_metadata_t *pMetadata);

#ifdef __cplusplus
}
#endif

#endif // URC_DEVICE_IMAGE_H

// SPDX-License-Identifier: MIT
// The device-binary descriptors Intel's SYCL runtime (libsycl.so.9) takes through
// __sycl_register_lib, and the NVIDIA twins urc's interposer registers beside them
// (docs/sycl-nvidia.md). The layouts are those libsycl.so.9 of intel-sycl-rt 2026.2 reads:
// images 80 bytes apart, with no manifest fields (image version 3).
#ifndef URC_TOOLS_SYCL_INTERPOSER_SYCL_TWINS_H
#define URC_TOOLS_SYCL_INTERPOSER_SYCL_TWINS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/// The only versions whose layout this file describes.
#define URC_SYCL_DESCRIPTOR_VERSION 1
#define URC_SYCL_IMAGE_VERSION      3
/// Image kinds and formats (libsycl's enums).
#define URC_SYCL_KIND_SYCL      4
#define URC_SYCL_FORMAT_NONE    0
#define URC_SYCL_FORMAT_NATIVE  1
#define URC_SYCL_FORMAT_SPIRV   2
#define URC_SYCL_TARGET_SPIRV64 "spir64"
#define URC_SYCL_TARGET_NVPTX64 "nvptx64"
#define URC_SPIRV_MAGIC         0x07230203u

/// One device image (libsycl's sycl_device_binary_struct). Entries and property sets are
/// only carried along, never read.
typedef struct urc_sycl_image_t {
    uint16_t version;
    uint8_t kind;
    uint8_t format;
    const char *target;
    const char *compile_options;
    const char *link_options;
    const unsigned char *binary_start;
    const unsigned char *binary_end;
    void *entries_begin;
    void *entries_end;
    void *property_sets_begin;
    void *property_sets_end;
} urc_sycl_image_t;

/// All images of one library (libsycl's sycl_device_binaries_struct).
typedef struct urc_sycl_descriptor_t {
    uint16_t version;
    uint16_t count;
    urc_sycl_image_t *images;
    void *host_entries_begin;
    void *host_entries_end;
} urc_sycl_descriptor_t;

typedef enum urc_sycl_twins_result_t {
    URC_SYCL_TWINS_MADE,    ///< *twin holds one NVIDIA twin per SPIR-V image
    URC_SYCL_TWINS_NONE,    ///< no image to twin (no spir64 SPIR-V image, or no image)
    URC_SYCL_TWINS_UNKNOWN, ///< a version this file does not describe: leave it alone
    URC_SYCL_TWINS_NO_MEMORY,
} urc_sycl_twins_result_t;

/// Whether `image` is a plain SPIR-V image for every 64-bit SPIR-V device: target "spir64",
/// format none or SPIR-V, bytes that start with SPIR-V's magic number.
bool urc_sycl_image_is_spirv64(const urc_sycl_image_t *image);

/// Builds a new descriptor of twins for `desc`: for each spir64 SPIR-V image, a copy labelled
/// nvptx64 in the native format that shares its bytes, entries, options and property sets.
/// `desc` is not changed. Free the result with urc_sycl_twins_free.
urc_sycl_twins_result_t urc_sycl_twins_make(const urc_sycl_descriptor_t *desc,
                                            urc_sycl_descriptor_t **twin);
void urc_sycl_twins_free(urc_sycl_descriptor_t *twin);

/// libsycl's register and unregister functions, as the registry calls them.
typedef void (*urc_sycl_register_fn)(urc_sycl_descriptor_t *desc);

/// What the registry did with one descriptor, for the log.
typedef struct urc_sycl_register_report_t {
    urc_sycl_twins_result_t result;
    unsigned twins;
} urc_sycl_register_report_t;

/// Registers `desc` through `reg` untouched and then, when `with_twins`, its twins as a second
/// descriptor, remembered until urc_sycl_registry_remove. Thread-safe.
urc_sycl_register_report_t urc_sycl_registry_add(urc_sycl_descriptor_t *desc,
                                                 urc_sycl_register_fn reg, bool with_twins);
/// Unregisters the twins of `desc` (if any) and frees them, then `desc` itself through `unreg`.
void urc_sycl_registry_remove(urc_sycl_descriptor_t *desc, urc_sycl_register_fn unreg);
/// How many descriptors have twins registered now.
size_t urc_sycl_registry_size(void);

#endif

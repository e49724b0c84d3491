// SPDX-License-Identifier: MIT
// NVIDIA twins of SPIR-V device images, and the registry that pairs each library's descriptor
// with its twins until the library unregisters.
#include "sycl_twins.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

// libsycl.so.9 steps through images 80 bytes apart: the struct must match exactly.
_Static_assert(sizeof(urc_sycl_image_t) == 80, "device image layout");
_Static_assert(sizeof(urc_sycl_descriptor_t) == 32, "descriptor layout");

bool urc_sycl_image_is_spirv64(const urc_sycl_image_t *image) {
    if (image->kind != URC_SYCL_KIND_SYCL || image->target == NULL ||
        strcmp(image->target, URC_SYCL_TARGET_SPIRV64) != 0)
        return false;
    if (image->format != URC_SYCL_FORMAT_NONE && image->format != URC_SYCL_FORMAT_SPIRV)
        return false;
    if (image->binary_start == NULL || image->binary_end < image->binary_start + 4)
        return false;
    uint32_t magic;
    memcpy(&magic, image->binary_start, sizeof magic);
    return magic == URC_SPIRV_MAGIC;
}

urc_sycl_twins_result_t urc_sycl_twins_make(const urc_sycl_descriptor_t *desc,
                                            urc_sycl_descriptor_t **twin) {
    *twin = NULL;
    if (desc == NULL || desc->version != URC_SYCL_DESCRIPTOR_VERSION)
        return URC_SYCL_TWINS_UNKNOWN;
    if (desc->count > 0 && desc->images == NULL)
        return URC_SYCL_TWINS_UNKNOWN;
    // Every image must have the known layout before any is read past its first word.
    for (uint16_t i = 0; i < desc->count; ++i)
        if (desc->images[i].version != URC_SYCL_IMAGE_VERSION)
            return URC_SYCL_TWINS_UNKNOWN;
    uint16_t n = 0;
    for (uint16_t i = 0; i < desc->count; ++i)
        n += urc_sycl_image_is_spirv64(&desc->images[i]);
    if (n == 0)
        return URC_SYCL_TWINS_NONE;

    urc_sycl_descriptor_t *t = calloc(1, sizeof *t);
    urc_sycl_image_t *images = calloc(n, sizeof *images);
    if (t == NULL || images == NULL) {
        free(t);
        free(images);
        return URC_SYCL_TWINS_NO_MEMORY;
    }
    uint16_t k = 0;
    for (uint16_t i = 0; i < desc->count; ++i) {
        if (!urc_sycl_image_is_spirv64(&desc->images[i]))
            continue;
        images[k] = desc->images[i];
        // Native: libsycl offers it to CUDA devices as is (urProgramCreateWithBinary), and
        // urc's CUDA adapter recognises SPIR-V by its magic number.
        images[k].target = URC_SYCL_TARGET_NVPTX64;
        images[k].format = URC_SYCL_FORMAT_NATIVE;
        ++k;
    }
    t->version = desc->version;
    t->count = n;
    t->images = images;
    // Host entries are unused by SYCL; the twins add none.
    *twin = t;
    return URC_SYCL_TWINS_MADE;
}

void urc_sycl_twins_free(urc_sycl_descriptor_t *twin) {
    if (twin == NULL)
        return;
    free(twin->images);
    free(twin);
}

// Registered pairs: few (one per SYCL library), so a list under one lock; registration
// happens at library load and unload only.
typedef struct pair_t {
    struct pair_t *next;
    urc_sycl_descriptor_t *desc;
    urc_sycl_descriptor_t *twin;
} pair_t;

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static pair_t *registry;
static size_t registry_count;

urc_sycl_register_report_t urc_sycl_registry_add(urc_sycl_descriptor_t *desc,
                                                 urc_sycl_register_fn reg, bool with_twins) {
    urc_sycl_register_report_t report = {URC_SYCL_TWINS_NONE, 0};
    reg(desc);
    if (!with_twins)
        return report;
    urc_sycl_descriptor_t *twin;
    report.result = urc_sycl_twins_make(desc, &twin);
    if (report.result != URC_SYCL_TWINS_MADE)
        return report;
    pair_t *p = malloc(sizeof *p);
    if (p == NULL) {
        urc_sycl_twins_free(twin);
        report.result = URC_SYCL_TWINS_NO_MEMORY;
        return report;
    }
    reg(twin);
    report.twins = twin->count;
    p->desc = desc;
    p->twin = twin;
    pthread_mutex_lock(&registry_lock);
    p->next = registry;
    registry = p;
    ++registry_count;
    pthread_mutex_unlock(&registry_lock);
    return report;
}

void urc_sycl_registry_remove(urc_sycl_descriptor_t *desc, urc_sycl_register_fn unreg) {
    pthread_mutex_lock(&registry_lock);
    pair_t *found = NULL;
    for (pair_t **pp = &registry; *pp != NULL; pp = &(*pp)->next) {
        if ((*pp)->desc == desc) {
            found = *pp;
            *pp = found->next;
            --registry_count;
            break;
        }
    }
    pthread_mutex_unlock(&registry_lock);
    // Reverse order of registration: the twins share the original's entries.
    if (found != NULL) {
        unreg(found->twin);
        urc_sycl_twins_free(found->twin);
        free(found);
    }
    unreg(desc);
}

size_t urc_sycl_registry_size(void) {
    pthread_mutex_lock(&registry_lock);
    size_t n = registry_count;
    pthread_mutex_unlock(&registry_lock);
    return n;
}

// SPDX-License-Identifier: MIT
// SYCL device binary descriptors → ur_program_metadata_t arrays (include/urc_device_image.h).
// The descriptor is walked twice: once to validate it and measure the names, once to fill one
// allocation holding the array followed by the names, so one free releases everything.
#include "urc_device_image.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#if UINTPTR_MAX == UINT64_MAX
// The layout facts of anchor-behaviour §4.1 (LP64).
_Static_assert(sizeof(urc_sycl_property_t) == 32, "property layout");
_Static_assert(sizeof(urc_sycl_property_set_t) == 24, "property set layout");
_Static_assert(sizeof(urc_sycl_offload_entry_t) == 32, "offload entry layout");
_Static_assert(offsetof(urc_sycl_device_binary_t, device_target_spec) == 8, "binary layout");
_Static_assert(offsetof(urc_sycl_device_binary_t, property_sets_begin) == 80, "binary layout");
_Static_assert(sizeof(urc_sycl_device_binary_t) == 96, "binary layout");
#endif

// A [begin, end) range is valid when both ends are NULL or end is not before begin.
#define RANGE_OK(b, e) (((b) == NULL && (e) == NULL) || ((b) != NULL && (e) != NULL && (e) >= (b)))

static bool property_ok(const urc_sycl_property_t *p) {
    if (p->name == NULL)
        return false;
    switch (p->type) {
    case URC_SYCL_PROPERTY_TYPE_UINT32:
        return p->size <= UINT32_MAX;
    case URC_SYCL_PROPERTY_TYPE_BYTE_ARRAY:
        return (p->value != NULL || p->size == 0) && p->size <= SIZE_MAX;
    case URC_SYCL_PROPERTY_TYPE_STRING:
        return p->value != NULL;
    default:
        return false;
    }
}

static bool add(size_t *total, size_t n) {
    if (n > SIZE_MAX - *total)
        return false;
    *total += n;
    return true;
}

UR_APIEXPORT ur_result_t UR_APICALL urcMetadataFromDeviceBinary(
    const urc_sycl_device_binary_t *pBinary, ur_program_metadata_t **ppMetadata, uint32_t *pCount) {
    if (pBinary == NULL || ppMetadata == NULL || pCount == NULL)
        return UR_RESULT_ERROR_INVALID_NULL_POINTER;
    *ppMetadata = NULL;
    *pCount = 0;
    const urc_sycl_property_set_t *sb = pBinary->property_sets_begin;
    const urc_sycl_property_set_t *se = pBinary->property_sets_end;
    if (!RANGE_OK(sb, se))
        return UR_RESULT_ERROR_INVALID_VALUE;

    // Pass 1: validate and measure.
    size_t count = 0, names = 0;
    for (const urc_sycl_property_set_t *s = sb; s != se; ++s) {
        if (s->name == NULL || !RANGE_OK(s->properties_begin, s->properties_end))
            return UR_RESULT_ERROR_INVALID_VALUE;
        size_t set_len = strlen(s->name);
        for (const urc_sycl_property_t *p = s->properties_begin; p != s->properties_end; ++p) {
            if (!property_ok(p))
                return UR_RESULT_ERROR_INVALID_VALUE;
            if (!add(&names, set_len) || !add(&names, strlen(p->name) + 2))
                return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
            count++;
        }
    }
    if (count > UINT32_MAX)
        return UR_RESULT_ERROR_INVALID_VALUE;
    if (count == 0)
        return UR_RESULT_SUCCESS;
    if (count > (SIZE_MAX - names) / sizeof(ur_program_metadata_t))
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;

    // Pass 2: the array, then every "<set>/<property>\0" after it.
    ur_program_metadata_t *md = malloc(count * sizeof(*md) + names);
    if (md == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    char *cursor = (char *)(md + count);
    size_t i = 0;
    for (const urc_sycl_property_set_t *s = sb; s != se; ++s) {
        size_t set_len = strlen(s->name);
        for (const urc_sycl_property_t *p = s->properties_begin; p != s->properties_end; ++p) {
            ur_program_metadata_t *m = &md[i++];
            size_t name_len = strlen(p->name);
            memcpy(cursor, s->name, set_len);
            cursor[set_len] = '/';
            memcpy(cursor + set_len + 1, p->name, name_len + 1);
            m->pName = cursor;
            cursor += set_len + name_len + 2;
            memset(&m->value, 0, sizeof(m->value));
            switch (p->type) {
            case URC_SYCL_PROPERTY_TYPE_UINT32:
                // DPC++ stores a UINT32 inline in ValSize.
                m->type = UR_PROGRAM_METADATA_TYPE_UINT32;
                m->size = sizeof(uint32_t);
                m->value.data32 = (uint32_t)p->size;
                break;
            case URC_SYCL_PROPERTY_TYPE_BYTE_ARRAY:
                m->type = UR_PROGRAM_METADATA_TYPE_BYTE_ARRAY;
                m->size = (size_t)p->size;
                m->value.pData = p->value;
                break;
            default:
                m->type = UR_PROGRAM_METADATA_TYPE_STRING;
                m->size = strlen(p->value) + 1;
                m->value.pString = p->value;
                break;
            }
        }
    }
    *ppMetadata = md;
    *pCount = (uint32_t)count;
    return UR_RESULT_SUCCESS;
}

UR_APIEXPORT void UR_APICALL urcMetadataArrayFree(ur_program_metadata_t *pMetadata) {
    free(pMetadata);
}

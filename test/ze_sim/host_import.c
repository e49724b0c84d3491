// SPDX-License-Identifier: MIT
// Intel's host-pointer import extension, reached by name through
// zeDriverGetExtensionFunctionAddress: zexDriverImportExternalPointer makes plain host memory
// known to the driver (on hardware: pinned and mapped for the GPU), zexDriverReleaseImportedPointer
// forgets it, zexDriverGetHostPointerBaseAddress finds the start of an imported range. Here
// every device reads host memory anyway, so the ranges are only bookkeeping: a range that
// overlaps one already imported and a release of what is not imported are refused.
#include "ze_sim_entry.h"
#include "ze_sim_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct sim_imported {
    uintptr_t base;
    size_t size;
    struct sim_imported *next;
} sim_imported_t;

static pthread_mutex_t import_lock = PTHREAD_MUTEX_INITIALIZER;
static sim_imported_t *imports;

// The range holding p, or NULL; import_lock held.
static sim_imported_t *holding(uintptr_t p) {
    for (sim_imported_t *i = imports; i != NULL; i = i->next)
        if (p - i->base < i->size)
            return i;
    return NULL;
}

static ze_result_t ZE_APICALL import_external_pointer(ze_driver_handle_t hDriver, void *ptr,
                                                      size_t size) {
    ze_result_t r;
    if (!sim_obj(hDriver, SIM_KIND_DRIVER, &r))
        return r;
    if (ptr == NULL)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    uintptr_t p = (uintptr_t)ptr;
    if (size == 0 || size > UINTPTR_MAX - p)
        return ZE_RESULT_ERROR_INVALID_SIZE;
    if (sim_mem_lookup(ptr, NULL))
        return ZE_RESULT_ERROR_INVALID_ARGUMENT; // USM is the driver's already
    sim_imported_t *n = malloc(sizeof *n);
    if (n == NULL)
        return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    pthread_mutex_lock(&import_lock);
    r = ZE_RESULT_SUCCESS;
    for (sim_imported_t *i = imports; i != NULL; i = i->next)
        if (p < i->base + i->size && i->base < p + size)
            r = ZE_RESULT_ERROR_INVALID_ARGUMENT;
    if (r == ZE_RESULT_SUCCESS) {
        *n = (sim_imported_t){p, size, imports};
        imports = n;
    }
    pthread_mutex_unlock(&import_lock);
    if (r != ZE_RESULT_SUCCESS)
        free(n);
    return r;
}

static ze_result_t ZE_APICALL release_imported_pointer(ze_driver_handle_t hDriver, void *ptr) {
    ze_result_t r;
    if (!sim_obj(hDriver, SIM_KIND_DRIVER, &r))
        return r;
    if (ptr == NULL)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    sim_imported_t *found = NULL;
    pthread_mutex_lock(&import_lock);
    for (sim_imported_t **at = &imports; *at != NULL; at = &(*at)->next)
        if ((*at)->base == (uintptr_t)ptr) {
            found = *at;
            *at = found->next;
            break;
        }
    pthread_mutex_unlock(&import_lock);
    free(found);
    return found != NULL ? ZE_RESULT_SUCCESS : ZE_RESULT_ERROR_INVALID_ARGUMENT;
}

static ze_result_t ZE_APICALL get_host_pointer_base_address(ze_driver_handle_t hDriver, void *ptr,
                                                            void **base) {
    ze_result_t r;
    if (!sim_obj(hDriver, SIM_KIND_DRIVER, &r))
        return r;
    if (ptr == NULL)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    pthread_mutex_lock(&import_lock);
    sim_imported_t *i = holding((uintptr_t)ptr);
    if (i != NULL && base != NULL)
        *base = (void *)i->base;
    pthread_mutex_unlock(&import_lock);
    return i != NULL ? ZE_RESULT_SUCCESS : ZE_RESULT_ERROR_INVALID_ARGUMENT;
}

void *sim_host_import_function(const char *name) {
    static const struct {
        const char *name;
        void *fn;
    } table[] = {
        {"zexDriverImportExternalPointer", (void *)import_external_pointer},
        {"zexDriverReleaseImportedPointer", (void *)release_imported_pointer},
        {"zexDriverGetHostPointerBaseAddress", (void *)get_host_pointer_base_address},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; ++i)
        if (strcmp(name, table[i].name) == 0)
            return table[i].fn;
    return NULL;
}

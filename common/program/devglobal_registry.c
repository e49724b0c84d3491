// SPDX-License-Identifier: MIT
// The device global database of seed 004, built on the public UR API only, so it works over
// any adapter the loader dispatches to. Only the loader links this file (urc_loader_exports).
//
// Locking: one registry mutex guards the table and every list hanging off it. It is never held
// across a call that waits for a device or allocates device memory; only the reference-count
// bumps urContextRetain/urProgramRetain run under it. Variables are reference-counted so a
// copy can use one after dropping the lock while another thread unregisters it.
#include "urc_device_global.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "program/devglobal.h"
#include "core/enum_names.h"
#include "core/error.h"

/// The USM buffer of a variable without device_image_scope in one (context, device).
typedef struct dg_alloc_t {
    struct dg_alloc_t *next;
    ur_context_handle_t context; // retained
    ur_device_handle_t device;
    void *ptr;
} dg_alloc_t;

/// A built program that holds a device_image_scope variable, for one device.
typedef struct dg_holder_t {
    struct dg_holder_t *next;
    ur_program_handle_t program; // retained
    ur_context_handle_t context;
    ur_device_handle_t device;
} dg_holder_t;

typedef struct dg_var_t {
    struct dg_var_t *next; // hash chain
    atomic_uint refs;      // the table's reference plus one per call using it
    const void *host;
    char *id;
    size_t size;
    bool image_scope;
    dg_alloc_t *allocs;
    dg_holder_t *holders;
} dg_var_t;

#define REG_INITIAL_BUCKETS 64

static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static dg_var_t **reg_buckets;
static size_t reg_nbuckets; // a power of two, or 0 before the first registration
static size_t reg_count;

static size_t hash_address(const void *p) {
    uint64_t x = (uint64_t)(uintptr_t)p;
    x ^= x >> 33; // mix the high bits down: host variables are often 8-byte aligned neighbours
    x *= 0xff51afd7ed558ccdu;
    x ^= x >> 33;
    return (size_t)x;
}

static dg_var_t **find_slot(const void *host) {
    if (reg_nbuckets == 0)
        return NULL;
    dg_var_t **slot = &reg_buckets[hash_address(host) & (reg_nbuckets - 1)];
    while (*slot != NULL && (*slot)->host != host)
        slot = &(*slot)->next;
    return slot;
}

static dg_var_t *find_var(const void *host) {
    dg_var_t **slot = find_slot(host);
    return slot != NULL ? *slot : NULL;
}

static bool grow_table(void) {
    size_t n = reg_nbuckets != 0 ? reg_nbuckets * 2 : REG_INITIAL_BUCKETS;
    dg_var_t **fresh = urc_calloc(n, sizeof *fresh);
    if (fresh == NULL)
        return false;
    for (size_t i = 0; i < reg_nbuckets; ++i) {
        dg_var_t *v = reg_buckets[i];
        while (v != NULL) {
            dg_var_t *next = v->next;
            size_t b = hash_address(v->host) & (n - 1);
            v->next = fresh[b];
            fresh[b] = v;
            v = next;
        }
    }
    free(reg_buckets);
    reg_buckets = fresh;
    reg_nbuckets = n;
    return true;
}

// Device-side resources are freed outside the lock, after they were unlinked under it.
static void free_allocs(dg_alloc_t *a) {
    while (a != NULL) {
        dg_alloc_t *next = a->next;
        urUSMFree(a->context, a->ptr);
        urContextRelease(a->context);
        free(a);
        a = next;
    }
}

static void free_holders(dg_holder_t *h) {
    while (h != NULL) {
        dg_holder_t *next = h->next;
        urProgramRelease(h->program);
        free(h);
        h = next;
    }
}

static void var_ref(dg_var_t *v) {
    atomic_fetch_add_explicit(&v->refs, 1, memory_order_relaxed);
}

// Called without the lock: the last reference frees the device buffers too.
static void var_unref(dg_var_t *v) {
    if (atomic_fetch_sub_explicit(&v->refs, 1, memory_order_acq_rel) != 1)
        return;
    free_allocs(v->allocs);
    free_holders(v->holders);
    free(v->id);
    free(v);
}

// Finds a registered variable and takes a reference for the caller.
static dg_var_t *acquire_var(const void *host) {
    pthread_mutex_lock(&reg_lock);
    dg_var_t *v = find_var(host);
    if (v != NULL)
        var_ref(v);
    pthread_mutex_unlock(&reg_lock);
    return v;
}

static ur_result_t queue_target(ur_queue_handle_t queue, ur_context_handle_t *context,
                                ur_device_handle_t *device) {
    ur_result_t r = urQueueGetInfo(queue, UR_QUEUE_INFO_CONTEXT, sizeof *context, context, NULL);
    if (r == UR_RESULT_SUCCESS)
        r = urQueueGetInfo(queue, UR_QUEUE_INFO_DEVICE, sizeof *device, device, NULL);
    if (r != UR_RESULT_SUCCESS)
        return urc_error_set(r, 0, "urQueueGetInfo on queue %p returned %s", (void *)queue,
                             urc_result_name(r));
    return UR_RESULT_SUCCESS;
}

static ur_result_t call_failed(ur_result_t r, const char *call, const dg_var_t *v) {
    return urc_error_set(r, 0, "%s for device global '%s' returned %s", call, v->id,
                         urc_result_name(r));
}

ur_result_t UR_APICALL urcDeviceGlobalRegister(const void *pHostAddress, const char *pUniqueId,
                                               size_t size, bool deviceImageScope) {
    if (pHostAddress == NULL || pUniqueId == NULL)
        return UR_RESULT_ERROR_INVALID_NULL_POINTER;
    if (pUniqueId[0] == '\0')
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "device global at %p has an empty unique id", pHostAddress);
    if (size == 0)
        return urc_error_set(UR_RESULT_ERROR_INVALID_SIZE, 0, "device global '%s' has size 0",
                             pUniqueId);

    dg_var_t *fresh = URC_NEW(dg_var_t);
    char *id = urc_strdup(pUniqueId);
    if (fresh == NULL || id == NULL) {
        free(fresh);
        free(id);
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    atomic_init(&fresh->refs, 1);
    fresh->host = pHostAddress;
    fresh->id = id;
    fresh->size = size;
    fresh->image_scope = deviceImageScope;

    ur_result_t r = UR_RESULT_SUCCESS;
    pthread_mutex_lock(&reg_lock);
    dg_var_t *same = find_var(pHostAddress);
    if (same != NULL) {
        if (strcmp(same->id, pUniqueId) != 0 || same->size != size ||
            same->image_scope != deviceImageScope)
            r = urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                              "host address %p is already registered as device global '%s' "
                              "(%zu bytes%s)",
                              pHostAddress, same->id, same->size,
                              same->image_scope ? ", device_image_scope" : "");
        goto done;
    }
    // Ids are unique by construction (__builtin_sycl_unique_stable_id); a clash means two
    // copies of one variable, and copies would silently go to only one of them.
    for (size_t i = 0; i < reg_nbuckets && r == UR_RESULT_SUCCESS; ++i)
        for (const dg_var_t *v = reg_buckets[i]; v != NULL; v = v->next)
            if (strcmp(v->id, pUniqueId) == 0) {
                r = urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                                  "device global '%s' is already registered at host address %p",
                                  pUniqueId, v->host);
                break;
            }
    if (r != UR_RESULT_SUCCESS)
        goto done;
    if (reg_count + 1 > reg_nbuckets - reg_nbuckets / 4 && !grow_table() && reg_nbuckets == 0) {
        r = UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
        goto done;
    }
    dg_var_t **head = &reg_buckets[hash_address(pHostAddress) & (reg_nbuckets - 1)];
    fresh->next = *head;
    *head = fresh;
    reg_count++;
    fresh = NULL;
done:
    pthread_mutex_unlock(&reg_lock);
    if (fresh != NULL) {
        free(fresh->id);
        free(fresh);
    }
    return r;
}

ur_result_t UR_APICALL urcDeviceGlobalUnregister(const void *pHostAddress) {
    if (pHostAddress == NULL)
        return UR_RESULT_ERROR_INVALID_NULL_POINTER;
    pthread_mutex_lock(&reg_lock);
    dg_var_t **slot = find_slot(pHostAddress);
    dg_var_t *v = slot != NULL ? *slot : NULL;
    if (v != NULL) {
        *slot = v->next;
        reg_count--;
    }
    if (reg_count == 0) {
        // The last variable is gone: give the table back too, so a process that unregisters
        // everything (a library being unloaded) leaves nothing behind.
        URC_FREE(reg_buckets);
        reg_nbuckets = 0;
    }
    pthread_mutex_unlock(&reg_lock);
    if (v == NULL)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "no device global is registered at host address %p", pHostAddress);
    var_unref(v);
    return UR_RESULT_SUCCESS;
}

// The variable's USM buffer for (context, device), allocated and zeroed on first need. The
// allocation runs without the lock; when two threads race, the first to insert wins and the
// other frees its buffer.
static ur_result_t usm_buffer(dg_var_t *v, ur_queue_handle_t queue, ur_context_handle_t context,
                              ur_device_handle_t device, void **out) {
    pthread_mutex_lock(&reg_lock);
    for (const dg_alloc_t *a = v->allocs; a != NULL; a = a->next)
        if (a->context == context && a->device == device) {
            *out = a->ptr;
            pthread_mutex_unlock(&reg_lock);
            return UR_RESULT_SUCCESS;
        }
    pthread_mutex_unlock(&reg_lock);

    dg_alloc_t *fresh = URC_NEW(dg_alloc_t);
    if (fresh == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    ur_result_t r = urUSMDeviceAlloc(context, device, NULL, NULL, v->size, &fresh->ptr);
    if (r != UR_RESULT_SUCCESS) {
        r = call_failed(r, "urUSMDeviceAlloc", v);
        goto fail_alloc;
    }
    // Seed 004: the value starts zeroed, like a C++ global with a trivial constructor.
    static const uint8_t zero = 0;
    ur_event_handle_t filled = NULL;
    r = urEnqueueUSMFill(queue, fresh->ptr, 1, &zero, v->size, 0, NULL, &filled);
    if (r == UR_RESULT_SUCCESS) {
        r = urEventWait(1, &filled);
        urEventRelease(filled);
    }
    if (r != UR_RESULT_SUCCESS) {
        r = call_failed(r, "zero-filling the USM buffer", v);
        goto fail_fill;
    }
    r = urContextRetain(context);
    if (r != UR_RESULT_SUCCESS) {
        r = call_failed(r, "urContextRetain", v);
        goto fail_fill;
    }
    fresh->context = context;
    fresh->device = device;

    pthread_mutex_lock(&reg_lock);
    const dg_alloc_t *winner = NULL;
    for (const dg_alloc_t *a = v->allocs; a != NULL && winner == NULL; a = a->next)
        if (a->context == context && a->device == device)
            winner = a;
    if (winner == NULL) {
        fresh->next = v->allocs;
        v->allocs = fresh;
        *out = fresh->ptr;
        fresh = NULL;
    } else {
        *out = winner->ptr;
    }
    pthread_mutex_unlock(&reg_lock);
    if (fresh != NULL)
        free_allocs(fresh); // lost the race
    return UR_RESULT_SUCCESS;

fail_fill:
    urUSMFree(context, fresh->ptr);
fail_alloc:
    free(fresh);
    return r;
}

// Whether `program` holds the variable on `device`: asks for its address, and when the adapter
// cannot answer that, reads one byte of it. "Not found" is INVALID_VALUE from urc's adapters
// and UR's CTS; UR's OpenCL adapter says INVALID_ARGUMENT for an unknown name in enqueues.
static ur_result_t program_holds(ur_queue_handle_t queue, ur_device_handle_t device,
                                 ur_program_handle_t program, const dg_var_t *v, bool *holds) {
    void *address = NULL;
    ur_result_t r = urProgramGetGlobalVariablePointer(device, program, v->id, NULL, &address);
    if (r == UR_RESULT_ERROR_UNSUPPORTED_FEATURE) {
        uint8_t byte;
        r = urEnqueueDeviceGlobalVariableRead(queue, program, v->id, true, 1, 0, &byte, 0, NULL,
                                              NULL);
    }
    *holds = r == UR_RESULT_SUCCESS;
    if (r == UR_RESULT_SUCCESS || r == UR_RESULT_ERROR_INVALID_VALUE ||
        r == UR_RESULT_ERROR_INVALID_ARGUMENT)
        return UR_RESULT_SUCCESS;
    return urc_error_set(r, 0, "looking for device global '%s' in program %p returned %s", v->id,
                         (void *)program, urc_result_name(r));
}

static ur_result_t add_holder(dg_var_t *v, ur_program_handle_t program, ur_context_handle_t context,
                              ur_device_handle_t device) {
    dg_holder_t *fresh = URC_NEW(dg_holder_t);
    if (fresh == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    fresh->program = program;
    fresh->context = context;
    fresh->device = device;
    bool known = false;
    pthread_mutex_lock(&reg_lock);
    for (const dg_holder_t *h = v->holders; h != NULL && !known; h = h->next)
        known = h->program == program && h->device == device;
    ur_result_t r = known ? UR_RESULT_SUCCESS : urProgramRetain(program);
    if (!known && r == UR_RESULT_SUCCESS) {
        fresh->next = v->holders;
        v->holders = fresh;
        fresh = NULL;
    }
    pthread_mutex_unlock(&reg_lock);
    free(fresh);
    return r == UR_RESULT_SUCCESS ? r : call_failed(r, "urProgramRetain", v);
}

static ur_result_t init_var(dg_var_t *v, ur_queue_handle_t queue, ur_program_handle_t program,
                            ur_context_handle_t context, ur_device_handle_t device) {
    bool holds = false;
    ur_result_t r = program_holds(queue, device, program, v, &holds);
    if (r != UR_RESULT_SUCCESS || !holds)
        return r;
    if (v->image_scope)
        return add_holder(v, program, context, device);

    void *buffer = NULL;
    r = usm_buffer(v, queue, context, device, &buffer);
    if (r != UR_RESULT_SUCCESS)
        return r;
    // The device-side variable is a struct whose first member is the pointer (seed 004).
    r = urEnqueueDeviceGlobalVariableWrite(queue, program, v->id, true, sizeof buffer, 0, &buffer,
                                           0, NULL, NULL);
    return r == UR_RESULT_SUCCESS ? r : call_failed(r, "urEnqueueDeviceGlobalVariableWrite", v);
}

ur_result_t UR_APICALL urcDeviceGlobalProgramBuilt(ur_queue_handle_t hQueue,
                                                   ur_program_handle_t hProgram) {
    if (hQueue == NULL || hProgram == NULL)
        return UR_RESULT_ERROR_INVALID_NULL_HANDLE;
    ur_context_handle_t context;
    ur_device_handle_t device;
    ur_result_t r = queue_target(hQueue, &context, &device);
    if (r != UR_RESULT_SUCCESS)
        return r;

    // Work on a snapshot so the driver calls below run without the lock.
    pthread_mutex_lock(&reg_lock);
    size_t n = reg_count;
    dg_var_t **vars = urc_calloc(n, sizeof *vars);
    if (vars != NULL) {
        size_t k = 0;
        for (size_t i = 0; i < reg_nbuckets; ++i)
            for (dg_var_t *v = reg_buckets[i]; v != NULL; v = v->next) {
                var_ref(v);
                vars[k++] = v;
            }
    }
    pthread_mutex_unlock(&reg_lock);
    if (vars == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;

    for (size_t i = 0; i < n && r == UR_RESULT_SUCCESS; ++i)
        r = init_var(vars[i], hQueue, hProgram, context, device);
    for (size_t i = 0; i < n; ++i)
        var_unref(vars[i]);
    free(vars);
    return r;
}

// Unlinks, under the lock, every buffer and holder that matches; frees them after.
static void drop_matching(ur_context_handle_t context, ur_program_handle_t program) {
    dg_alloc_t *allocs = NULL;
    dg_holder_t *holders = NULL;
    pthread_mutex_lock(&reg_lock);
    for (size_t i = 0; i < reg_nbuckets; ++i)
        for (dg_var_t *v = reg_buckets[i]; v != NULL; v = v->next) {
            for (dg_alloc_t **a = &v->allocs; *a != NULL;) {
                if (context != NULL && (*a)->context == context) {
                    dg_alloc_t *gone = *a;
                    *a = gone->next;
                    gone->next = allocs;
                    allocs = gone;
                } else {
                    a = &(*a)->next;
                }
            }
            for (dg_holder_t **h = &v->holders; *h != NULL;) {
                if ((context != NULL && (*h)->context == context) ||
                    (program != NULL && (*h)->program == program)) {
                    dg_holder_t *gone = *h;
                    *h = gone->next;
                    gone->next = holders;
                    holders = gone;
                } else {
                    h = &(*h)->next;
                }
            }
        }
    pthread_mutex_unlock(&reg_lock);
    free_allocs(allocs);
    free_holders(holders);
}

ur_result_t UR_APICALL urcDeviceGlobalForgetProgram(ur_program_handle_t hProgram) {
    if (hProgram == NULL)
        return UR_RESULT_ERROR_INVALID_NULL_HANDLE;
    drop_matching(NULL, hProgram);
    return UR_RESULT_SUCCESS;
}

ur_result_t UR_APICALL urcDeviceGlobalReleaseContext(ur_context_handle_t hContext) {
    if (hContext == NULL)
        return UR_RESULT_ERROR_INVALID_NULL_HANDLE;
    drop_matching(hContext, NULL);
    return UR_RESULT_SUCCESS;
}

// The one program built for (context, device) that holds an image-scope variable, retained.
static ur_result_t image_program(dg_var_t *v, ur_context_handle_t context,
                                 ur_device_handle_t device, ur_program_handle_t *out) {
    size_t found = 0;
    pthread_mutex_lock(&reg_lock);
    for (const dg_holder_t *h = v->holders; h != NULL; h = h->next)
        if (h->context == context && h->device == device && found++ == 0)
            *out = h->program;
    ur_result_t r = found == 1 ? urProgramRetain(*out) : UR_RESULT_SUCCESS;
    pthread_mutex_unlock(&reg_lock);
    if (found == 0)
        return urc_error_set(UR_RESULT_ERROR_INVALID_OPERATION, 0,
                             "device global '%s' has device_image_scope and no program passed "
                             "to urcDeviceGlobalProgramBuilt for this context and device holds it",
                             v->id);
    if (found > 1)
        return urc_error_set(UR_RESULT_ERROR_INVALID_OPERATION, 0,
                             "More than one image exists with the device_global '%s'", v->id);
    return r == UR_RESULT_SUCCESS ? r : call_failed(r, "urProgramRetain", v);
}

// A zero-byte copy still orders itself after the wait list and yields an event.
static ur_result_t empty_copy(ur_queue_handle_t queue, bool blocking, uint32_t n,
                              const ur_event_handle_t *wait, ur_event_handle_t *event) {
    if (!blocking)
        return urEnqueueEventsWait(queue, n, wait, event);
    ur_event_handle_t done = NULL;
    ur_result_t r = urEnqueueEventsWait(queue, n, wait, &done);
    if (r != UR_RESULT_SUCCESS)
        return r;
    r = urEventWait(1, &done);
    if (r == UR_RESULT_SUCCESS && event != NULL)
        *event = done;
    else
        urEventRelease(done);
    return r;
}

static ur_result_t copy(bool to_device, ur_queue_handle_t queue, const void *host, void *data,
                        size_t bytes, size_t offset, bool blocking, uint32_t n,
                        const ur_event_handle_t *wait, ur_event_handle_t *event) {
    if (queue == NULL)
        return UR_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (host == NULL || data == NULL)
        return UR_RESULT_ERROR_INVALID_NULL_POINTER;
    if ((wait == NULL) != (n == 0))
        return UR_RESULT_ERROR_INVALID_EVENT_WAIT_LIST;
    for (uint32_t i = 0; i < n; ++i)
        if (wait[i] == NULL)
            return UR_RESULT_ERROR_INVALID_EVENT_WAIT_LIST;

    dg_var_t *v = acquire_var(host);
    if (v == NULL)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "no device global is registered at host address %p", host);
    ur_result_t r = urc_dg_check_range(v->id, v->size, offset, bytes);
    ur_context_handle_t context = NULL;
    ur_device_handle_t device = NULL;
    if (r == UR_RESULT_SUCCESS)
        r = queue_target(queue, &context, &device);
    if (r != UR_RESULT_SUCCESS)
        goto done;
    if (bytes == 0) {
        r = empty_copy(queue, blocking, n, wait, event);
        goto done;
    }

    if (v->image_scope) {
        ur_program_handle_t program = NULL;
        r = image_program(v, context, device, &program);
        if (r != UR_RESULT_SUCCESS)
            goto done;
        r = to_device ? urEnqueueDeviceGlobalVariableWrite(queue, program, v->id, blocking, bytes,
                                                           offset, data, n, wait, event)
                      : urEnqueueDeviceGlobalVariableRead(queue, program, v->id, blocking, bytes,
                                                          offset, data, n, wait, event);
        urProgramRelease(program);
        if (r != UR_RESULT_SUCCESS)
            r = call_failed(r,
                            to_device ? "urEnqueueDeviceGlobalVariableWrite"
                                      : "urEnqueueDeviceGlobalVariableRead",
                            v);
    } else {
        void *buffer = NULL;
        r = usm_buffer(v, queue, context, device, &buffer);
        if (r != UR_RESULT_SUCCESS)
            goto done;
        char *at = (char *)buffer + offset;
        r = urEnqueueUSMMemcpy(queue, blocking, to_device ? at : data, to_device ? data : at, bytes,
                               n, wait, event);
        if (r != UR_RESULT_SUCCESS)
            r = call_failed(r, "urEnqueueUSMMemcpy", v);
    }
done:
    var_unref(v);
    return r;
}

ur_result_t UR_APICALL urcDeviceGlobalCopyTo(ur_queue_handle_t hQueue, const void *pHostAddress,
                                             const void *pSrc, size_t numBytes, size_t offset,
                                             bool blocking, uint32_t numEventsInWaitList,
                                             const ur_event_handle_t *phEventWaitList,
                                             ur_event_handle_t *phEvent) {
    // The source is only read; `copy` shares one pointer for both directions.
    return copy(true, hQueue, pHostAddress, (void *)(uintptr_t)pSrc, numBytes, offset, blocking,
                numEventsInWaitList, phEventWaitList, phEvent);
}

ur_result_t UR_APICALL urcDeviceGlobalCopyFrom(ur_queue_handle_t hQueue, const void *pHostAddress,
                                               void *pDst, size_t numBytes, size_t offset,
                                               bool blocking, uint32_t numEventsInWaitList,
                                               const ur_event_handle_t *phEventWaitList,
                                               ur_event_handle_t *phEvent) {
    return copy(false, hQueue, pHostAddress, pDst, numBytes, offset, blocking, numEventsInWaitList,
                phEventWaitList, phEvent);
}

ur_result_t UR_APICALL urcDeviceGlobalGetLastError(const char **ppMessage) {
    if (ppMessage == NULL)
        return UR_RESULT_ERROR_INVALID_NULL_POINTER;
    urc_error_get(ppMessage, NULL);
    return UR_RESULT_SUCCESS;
}

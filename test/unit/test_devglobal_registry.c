// SPDX-License-Identifier: MIT
// The device global database (include/urc_device_global.h) over a fake UR defined here: USM is
// host memory, a program is a list of named variables, and every retain, release, allocation
// and event is counted so the tests can see that nothing leaks. The same code runs in the
// loader over real adapters; the end-to-end tests exercise that.
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "urc_device_global.h"
#include "urc_test.h"

// ---------------------------------------------------------------------------------------------
// The fake UR

typedef struct fake_handle_t {
    int tag;
} fake_handle_t;

static fake_handle_t ctx_a, ctx_b, dev_a, dev_b;
#define CTX_A ((ur_context_handle_t)&ctx_a)
#define CTX_B ((ur_context_handle_t)&ctx_b)
#define DEV_A ((ur_device_handle_t)&dev_a)
#define DEV_B ((ur_device_handle_t)&dev_b)

typedef struct fake_queue_t {
    ur_context_handle_t context;
    ur_device_handle_t device;
} fake_queue_t;

typedef struct fake_var_t {
    const char *name;
    size_t size;
    uint8_t data[64];
} fake_var_t;

typedef struct fake_program_t {
    fake_var_t vars[4];
    int nvars;
    ur_result_t lookup_error; // non-zero: every lookup fails with it
} fake_program_t;

static struct {
    atomic_int usm_allocs, usm_frees;
    atomic_int ctx_retains, ctx_releases;
    atomic_int prog_retains, prog_releases;
    atomic_int events, event_releases;
    atomic_int fills;
    bool pointer_query_unsupported;
} fake;

static ur_queue_handle_t queue_of(fake_queue_t *q) {
    return (ur_queue_handle_t)q;
}

static ur_program_handle_t program_of(fake_program_t *p) {
    return (ur_program_handle_t)p;
}

static void fake_add_var(fake_program_t *p, const char *name, size_t size) {
    p->vars[p->nvars].name = name;
    p->vars[p->nvars].size = size;
    memset(p->vars[p->nvars].data, 0, sizeof p->vars[p->nvars].data);
    p->nvars++;
}

static fake_var_t *fake_find(ur_program_handle_t program, const char *name, ur_result_t *r) {
    fake_program_t *p = (fake_program_t *)program;
    *r = p->lookup_error != UR_RESULT_SUCCESS ? p->lookup_error : UR_RESULT_ERROR_INVALID_VALUE;
    if (p->lookup_error != UR_RESULT_SUCCESS)
        return NULL;
    for (int i = 0; i < p->nvars; ++i)
        if (strcmp(p->vars[i].name, name) == 0) {
            *r = UR_RESULT_SUCCESS;
            return &p->vars[i];
        }
    return NULL;
}

static void new_event(ur_event_handle_t *event) {
    if (event == NULL)
        return;
    atomic_fetch_add(&fake.events, 1);
    *event = (ur_event_handle_t)malloc(1);
}

ur_result_t urQueueGetInfo(ur_queue_handle_t hQueue, ur_queue_info_t propName, size_t propSize,
                           void *pPropValue, size_t *pPropSizeRet) {
    (void)propSize;
    (void)pPropSizeRet;
    fake_queue_t *q = (fake_queue_t *)hQueue;
    if (propName == UR_QUEUE_INFO_CONTEXT)
        *(ur_context_handle_t *)pPropValue = q->context;
    else if (propName == UR_QUEUE_INFO_DEVICE)
        *(ur_device_handle_t *)pPropValue = q->device;
    else
        return UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION;
    return UR_RESULT_SUCCESS;
}

ur_result_t urUSMDeviceAlloc(ur_context_handle_t hContext, ur_device_handle_t hDevice,
                             const ur_usm_desc_t *pUSMDesc, ur_usm_pool_handle_t pool, size_t size,
                             void **ppMem) {
    (void)hContext;
    (void)hDevice;
    (void)pUSMDesc;
    (void)pool;
    *ppMem = malloc(size);
    memset(*ppMem, 0xab, size); // device memory starts as garbage
    atomic_fetch_add(&fake.usm_allocs, 1);
    return UR_RESULT_SUCCESS;
}

ur_result_t urUSMFree(ur_context_handle_t hContext, void *pMem) {
    (void)hContext;
    free(pMem);
    atomic_fetch_add(&fake.usm_frees, 1);
    return UR_RESULT_SUCCESS;
}

ur_result_t urEnqueueUSMFill(ur_queue_handle_t hQueue, void *pMem, size_t patternSize,
                             const void *pPattern, size_t size, uint32_t numEventsInWaitList,
                             const ur_event_handle_t *phEventWaitList, ur_event_handle_t *phEvent) {
    (void)hQueue;
    (void)numEventsInWaitList;
    (void)phEventWaitList;
    ck_assert_uint_eq(patternSize, 1);
    memset(pMem, *(const uint8_t *)pPattern, size);
    atomic_fetch_add(&fake.fills, 1);
    new_event(phEvent);
    return UR_RESULT_SUCCESS;
}

ur_result_t urEnqueueUSMMemcpy(ur_queue_handle_t hQueue, bool blocking, void *pDst,
                               const void *pSrc, size_t size, uint32_t numEventsInWaitList,
                               const ur_event_handle_t *phEventWaitList,
                               ur_event_handle_t *phEvent) {
    (void)hQueue;
    (void)blocking;
    (void)numEventsInWaitList;
    (void)phEventWaitList;
    memcpy(pDst, pSrc, size);
    new_event(phEvent);
    return UR_RESULT_SUCCESS;
}

ur_result_t urEnqueueEventsWait(ur_queue_handle_t hQueue, uint32_t numEventsInWaitList,
                                const ur_event_handle_t *phEventWaitList,
                                ur_event_handle_t *phEvent) {
    (void)hQueue;
    (void)numEventsInWaitList;
    (void)phEventWaitList;
    new_event(phEvent);
    return UR_RESULT_SUCCESS;
}

ur_result_t urEventWait(uint32_t numEvents, const ur_event_handle_t *phEventWaitList) {
    (void)numEvents;
    (void)phEventWaitList;
    return UR_RESULT_SUCCESS;
}

ur_result_t urEventRelease(ur_event_handle_t hEvent) {
    free(hEvent);
    atomic_fetch_add(&fake.event_releases, 1);
    return UR_RESULT_SUCCESS;
}

ur_result_t urContextRetain(ur_context_handle_t hContext) {
    (void)hContext;
    atomic_fetch_add(&fake.ctx_retains, 1);
    return UR_RESULT_SUCCESS;
}

ur_result_t urContextRelease(ur_context_handle_t hContext) {
    (void)hContext;
    atomic_fetch_add(&fake.ctx_releases, 1);
    return UR_RESULT_SUCCESS;
}

ur_result_t urProgramRetain(ur_program_handle_t hProgram) {
    (void)hProgram;
    atomic_fetch_add(&fake.prog_retains, 1);
    return UR_RESULT_SUCCESS;
}

ur_result_t urProgramRelease(ur_program_handle_t hProgram) {
    (void)hProgram;
    atomic_fetch_add(&fake.prog_releases, 1);
    return UR_RESULT_SUCCESS;
}

ur_result_t urProgramGetGlobalVariablePointer(ur_device_handle_t hDevice,
                                              ur_program_handle_t hProgram,
                                              const char *pGlobalVariableName,
                                              size_t *pGlobalVariableSizeRet,
                                              void **ppGlobalVariablePointerRet) {
    (void)hDevice;
    if (fake.pointer_query_unsupported)
        return UR_RESULT_ERROR_UNSUPPORTED_FEATURE;
    ur_result_t r;
    fake_var_t *v = fake_find(hProgram, pGlobalVariableName, &r);
    if (v == NULL)
        return r;
    if (pGlobalVariableSizeRet != NULL)
        *pGlobalVariableSizeRet = v->size;
    *ppGlobalVariablePointerRet = v->data;
    return UR_RESULT_SUCCESS;
}

static ur_result_t fake_dg_copy(ur_program_handle_t program, const char *name, size_t count,
                                size_t offset, void *dst, const void *src,
                                ur_event_handle_t *event) {
    ur_result_t r;
    fake_var_t *v = fake_find(program, name, &r);
    if (v == NULL)
        return r;
    if (offset > v->size || count > v->size - offset)
        return UR_RESULT_ERROR_INVALID_VALUE;
    memcpy(dst != NULL ? dst : v->data + offset, src != NULL ? src : v->data + offset, count);
    new_event(event);
    return UR_RESULT_SUCCESS;
}

ur_result_t urEnqueueDeviceGlobalVariableWrite(ur_queue_handle_t hQueue,
                                               ur_program_handle_t hProgram, const char *name,
                                               bool blockingWrite, size_t count, size_t offset,
                                               const void *pSrc, uint32_t numEventsInWaitList,
                                               const ur_event_handle_t *phEventWaitList,
                                               ur_event_handle_t *phEvent) {
    (void)hQueue;
    (void)blockingWrite;
    (void)numEventsInWaitList;
    (void)phEventWaitList;
    return fake_dg_copy(hProgram, name, count, offset, NULL, pSrc, phEvent);
}

ur_result_t urEnqueueDeviceGlobalVariableRead(ur_queue_handle_t hQueue,
                                              ur_program_handle_t hProgram, const char *name,
                                              bool blockingRead, size_t count, size_t offset,
                                              void *pDst, uint32_t numEventsInWaitList,
                                              const ur_event_handle_t *phEventWaitList,
                                              ur_event_handle_t *phEvent) {
    (void)hQueue;
    (void)blockingRead;
    (void)numEventsInWaitList;
    (void)phEventWaitList;
    return fake_dg_copy(hProgram, name, count, offset, pDst, NULL, phEvent);
}

// ---------------------------------------------------------------------------------------------
// Helpers

static fake_queue_t queue_aa = {CTX_A, DEV_A}, queue_ab = {CTX_A, DEV_B}, queue_ba = {CTX_B, DEV_A};

// Host instances of the variables, as a SYCL program would have them.
static uint64_t host_x[2], host_y, host_z;

static void *usm_pointer_in(fake_program_t *p, const char *name) {
    ur_result_t r;
    fake_var_t *v = fake_find(program_of(p), name, &r);
    ck_assert_ptr_nonnull(v);
    void *ptr;
    memcpy(&ptr, v->data, sizeof ptr);
    return ptr;
}

static const char *last_error(void) {
    const char *msg = NULL;
    ck_assert_ur_ok(urcDeviceGlobalGetLastError(&msg));
    return msg;
}

// Everything the registry took is given back once every variable is unregistered.
static void assert_balanced(void) {
    ck_assert_int_eq(fake.usm_allocs, fake.usm_frees);
    ck_assert_int_eq(fake.ctx_retains, fake.ctx_releases);
    ck_assert_int_eq(fake.prog_retains, fake.prog_releases);
    ck_assert_int_eq(fake.events, fake.event_releases);
}

// ---------------------------------------------------------------------------------------------
// urcDeviceGlobalRegister / Unregister

START_TEST(register_and_unregister) {
    ck_assert_ur_ok(urcDeviceGlobalRegister(host_x, "x", sizeof host_x, false));
    ck_assert_ur_ok(urcDeviceGlobalRegister(&host_z, "z", sizeof host_z, true));
    ck_assert_ur_ok(urcDeviceGlobalUnregister(host_x));
    ck_assert_ur_ok(urcDeviceGlobalUnregister(&host_z));
    ck_assert_ur(urcDeviceGlobalUnregister(&host_z), UR_RESULT_ERROR_INVALID_VALUE);
}
END_TEST

START_TEST(register_bad_arguments) {
    ck_assert_ur(urcDeviceGlobalRegister(NULL, "x", 8, false),
                 UR_RESULT_ERROR_INVALID_NULL_POINTER);
    ck_assert_ur(urcDeviceGlobalRegister(&host_y, NULL, 8, false),
                 UR_RESULT_ERROR_INVALID_NULL_POINTER);
    ck_assert_ur(urcDeviceGlobalRegister(&host_y, "y", 0, false), UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur(urcDeviceGlobalRegister(&host_y, "", 8, false), UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(urcDeviceGlobalUnregister(NULL), UR_RESULT_ERROR_INVALID_NULL_POINTER);
}
END_TEST

START_TEST(register_twice) {
    ck_assert_ur_ok(urcDeviceGlobalRegister(&host_y, "y", 8, false));
    ck_assert_ur_ok(urcDeviceGlobalRegister(&host_y, "y", 8, false)); // same: nothing happens
    ck_assert_ur(urcDeviceGlobalRegister(&host_y, "y", 4, false), UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(urcDeviceGlobalRegister(&host_y, "y", 8, true), UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(urcDeviceGlobalRegister(&host_y, "w", 8, false), UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(urcDeviceGlobalRegister(&host_z, "y", 8, false), UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ptr_nonnull(strstr(last_error(), "'y' is already registered at host address"));
    ck_assert_ur_ok(urcDeviceGlobalUnregister(&host_y));
    ck_assert_ur(urcDeviceGlobalUnregister(&host_y), UR_RESULT_ERROR_INVALID_VALUE);
}
END_TEST

START_TEST(register_many) {
    // Enough to grow the table; each one still found and removed.
    static char hosts[1000];
    char id[16];
    for (int i = 0; i < 1000; ++i) {
        snprintf(id, sizeof id, "v%d", i);
        ck_assert_ur_ok(urcDeviceGlobalRegister(&hosts[i], id, 1, false));
    }
    uint8_t byte = 7;
    ck_assert_ur_ok(
        urcDeviceGlobalCopyTo(queue_of(&queue_aa), &hosts[999], &byte, 1, 0, true, 0, NULL, NULL));
    for (int i = 0; i < 1000; ++i)
        ck_assert_ur_ok(urcDeviceGlobalUnregister(&hosts[i]));
    assert_balanced();
}
END_TEST

// ---------------------------------------------------------------------------------------------
// urcDeviceGlobalProgramBuilt

START_TEST(built_writes_zeroed_usm_pointer) {
    fake_program_t p = {0};
    fake_add_var(&p, "x", sizeof(void *));
    ck_assert_ur_ok(urcDeviceGlobalRegister(host_x, "x", sizeof host_x, false));
    ck_assert_ur_ok(urcDeviceGlobalProgramBuilt(queue_of(&queue_aa), program_of(&p)));
    uint8_t *usm = usm_pointer_in(&p, "x");
    ck_assert_ptr_nonnull(usm);
    for (size_t i = 0; i < sizeof host_x; ++i)
        ck_assert_uint_eq(usm[i], 0);
    ck_assert_int_eq(fake.usm_allocs, 1);
    ck_assert_int_eq(fake.fills, 1);
    ck_assert_ur_ok(urcDeviceGlobalUnregister(host_x));
    assert_balanced();
}
END_TEST

START_TEST(built_skips_variables_not_in_program) {
    fake_program_t p = {0};
    fake_add_var(&p, "x", sizeof(void *));
    ck_assert_ur_ok(urcDeviceGlobalRegister(host_x, "x", sizeof host_x, false));
    ck_assert_ur_ok(urcDeviceGlobalRegister(&host_y, "y", sizeof host_y, false));
    ck_assert_ur_ok(urcDeviceGlobalRegister(&host_z, "z", sizeof host_z, true));
    ck_assert_ur_ok(urcDeviceGlobalProgramBuilt(queue_of(&queue_aa), program_of(&p)));
    ck_assert_int_eq(fake.usm_allocs, 1); // nothing for y, which no program holds
    ck_assert_int_eq(fake.prog_retains, 0);
    ck_assert_ur_ok(urcDeviceGlobalUnregister(host_x));
    ck_assert_ur_ok(urcDeviceGlobalUnregister(&host_y));
    ck_assert_ur_ok(urcDeviceGlobalUnregister(&host_z));
    assert_balanced();
}
END_TEST

START_TEST(built_shares_buffer_between_programs) {
    fake_program_t p1 = {0}, p2 = {0};
    fake_add_var(&p1, "x", sizeof(void *));
    fake_add_var(&p2, "x", sizeof(void *));
    ck_assert_ur_ok(urcDeviceGlobalRegister(host_x, "x", sizeof host_x, false));
    ck_assert_ur_ok(urcDeviceGlobalProgramBuilt(queue_of(&queue_aa), program_of(&p1)));
    ck_assert_ur_ok(urcDeviceGlobalProgramBuilt(queue_of(&queue_aa), program_of(&p2)));
    ck_assert_ptr_eq(usm_pointer_in(&p1, "x"), usm_pointer_in(&p2, "x"));
    ck_assert_int_eq(fake.usm_allocs, 1);
    ck_assert_ur_ok(urcDeviceGlobalUnregister(host_x));
    assert_balanced();
}
END_TEST

START_TEST(built_one_buffer_per_context_and_device) {
    fake_program_t p1 = {0}, p2 = {0}, p3 = {0};
    fake_add_var(&p1, "x", sizeof(void *));
    fake_add_var(&p2, "x", sizeof(void *));
    fake_add_var(&p3, "x", sizeof(void *));
    ck_assert_ur_ok(urcDeviceGlobalRegister(host_x, "x", sizeof host_x, false));
    ck_assert_ur_ok(urcDeviceGlobalProgramBuilt(queue_of(&queue_aa), program_of(&p1)));
    ck_assert_ur_ok(urcDeviceGlobalProgramBuilt(queue_of(&queue_ab), program_of(&p2)));
    ck_assert_ur_ok(urcDeviceGlobalProgramBuilt(queue_of(&queue_ba), program_of(&p3)));
    ck_assert_int_eq(fake.usm_allocs, 3);
    ck_assert_ptr_ne(usm_pointer_in(&p1, "x"), usm_pointer_in(&p2, "x"));
    ck_assert_ptr_ne(usm_pointer_in(&p1, "x"), usm_pointer_in(&p3, "x"));
    ck_assert_int_eq(fake.ctx_retains, 3);
    ck_assert_ur_ok(urcDeviceGlobalUnregister(host_x));
    assert_balanced();
}
END_TEST

START_TEST(built_probe_falls_back_to_read) {
    // An adapter without urProgramGetGlobalVariablePointer: a one-byte read tells instead.
    fake.pointer_query_unsupported = true;
    fake_program_t p = {0};
    fake_add_var(&p, "x", sizeof(void *));
    ck_assert_ur_ok(urcDeviceGlobalRegister(host_x, "x", sizeof host_x, false));
    ck_assert_ur_ok(urcDeviceGlobalRegister(&host_y, "y", sizeof host_y, false));
    ck_assert_ur_ok(urcDeviceGlobalProgramBuilt(queue_of(&queue_aa), program_of(&p)));
    ck_assert_ptr_nonnull(usm_pointer_in(&p, "x"));
    ck_assert_int_eq(fake.usm_allocs, 1);
    ck_assert_ur_ok(urcDeviceGlobalUnregister(host_x));
    ck_assert_ur_ok(urcDeviceGlobalUnregister(&host_y));
    assert_balanced();
}
END_TEST

START_TEST(built_reports_lookup_errors) {
    fake_program_t p = {.lookup_error = UR_RESULT_ERROR_INVALID_PROGRAM_EXECUTABLE};
    ck_assert_ur_ok(urcDeviceGlobalRegister(host_x, "x", sizeof host_x, false));
    ck_assert_ur(urcDeviceGlobalProgramBuilt(queue_of(&queue_aa), program_of(&p)),
                 UR_RESULT_ERROR_INVALID_PROGRAM_EXECUTABLE);
    ck_assert_ptr_nonnull(strstr(last_error(), "looking for device global 'x' in program"));
    ck_assert_ur_ok(urcDeviceGlobalUnregister(host_x));
    assert_balanced();
}
END_TEST

START_TEST(built_null_handles) {
    fake_program_t p = {0};
    ck_assert_ur(urcDeviceGlobalProgramBuilt(NULL, program_of(&p)),
                 UR_RESULT_ERROR_INVALID_NULL_HANDLE);
    ck_assert_ur(urcDeviceGlobalProgramBuilt(queue_of(&queue_aa), NULL),
                 UR_RESULT_ERROR_INVALID_NULL_HANDLE);
    ck_assert_ur_ok(urcDeviceGlobalProgramBuilt(queue_of(&queue_aa), program_of(&p)));
}
END_TEST

// ---------------------------------------------------------------------------------------------
// urcDeviceGlobalCopyTo / CopyFrom without device_image_scope

START_TEST(copy_round_trip_through_usm) {
    fake_program_t p = {0};
    fake_add_var(&p, "x", sizeof(void *));
    ck_assert_ur_ok(urcDeviceGlobalRegister(host_x, "x", sizeof host_x, false));
    ck_assert_ur_ok(urcDeviceGlobalProgramBuilt(queue_of(&queue_aa), program_of(&p)));
    uint64_t in = 0x1122334455667788u, out = 0;
    ck_assert_ur_ok(
        urcDeviceGlobalCopyTo(queue_of(&queue_aa), host_x, &in, sizeof in, 8, true, 0, NULL, NULL));
    // The kernel would see it through the pointer the program holds.
    uint64_t *usm = usm_pointer_in(&p, "x");
    ck_assert_uint_eq(usm[0], 0);
    ck_assert_uint_eq(usm[1], in);
    ur_event_handle_t ev = NULL;
    ck_assert_ur_ok(urcDeviceGlobalCopyFrom(queue_of(&queue_aa), host_x, &out, sizeof out, 8, false,
                                            0, NULL, &ev));
    ck_assert_ptr_nonnull(ev);
    urEventRelease(ev);
    ck_assert_uint_eq(out, in);
    ck_assert_ur_ok(urcDeviceGlobalUnregister(host_x));
    assert_balanced();
}
END_TEST

START_TEST(copy_allocates_on_first_need) {
    ck_assert_ur_ok(urcDeviceGlobalRegister(host_x, "x", sizeof host_x, false));
    uint64_t out[2] = {1, 1};
    ck_assert_ur_ok(urcDeviceGlobalCopyFrom(queue_of(&queue_aa), host_x, out, sizeof out, 0, true,
                                            0, NULL, NULL));
    ck_assert_uint_eq(out[0], 0);
    ck_assert_uint_eq(out[1], 0);
    ck_assert_int_eq(fake.usm_allocs, 1);
    // Later programs get the same buffer.
    fake_program_t p = {0};
    fake_add_var(&p, "x", sizeof(void *));
    ck_assert_ur_ok(urcDeviceGlobalProgramBuilt(queue_of(&queue_aa), program_of(&p)));
    ck_assert_int_eq(fake.usm_allocs, 1);
    ck_assert_ur_ok(urcDeviceGlobalUnregister(host_x));
    assert_balanced();
}
END_TEST

START_TEST(copy_past_end) {
    ck_assert_ur_ok(urcDeviceGlobalRegister(host_x, "_Z5x_var", sizeof host_x, false));
    uint8_t buf[32] = {0};
    ck_assert_ur(
        urcDeviceGlobalCopyTo(queue_of(&queue_aa), host_x, buf, 8, 12, true, 0, NULL, NULL),
        UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_str_eq(last_error(),
                     "copy of 8 bytes at offset 12 exceeds device global '_Z5x_var' of 16 bytes");
    ck_assert_ur(
        urcDeviceGlobalCopyFrom(queue_of(&queue_aa), host_x, buf, 2, SIZE_MAX, true, 0, NULL, NULL),
        UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(
        urcDeviceGlobalCopyFrom(queue_of(&queue_aa), host_x, buf, 17, 0, true, 0, NULL, NULL),
        UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_int_eq(fake.usm_allocs, 0); // refused before anything was allocated
    ck_assert_ur_ok(urcDeviceGlobalUnregister(host_x));
}
END_TEST

START_TEST(copy_unregistered_address) {
    uint8_t buf[8] = {0};
    ck_assert_ur(
        urcDeviceGlobalCopyTo(queue_of(&queue_aa), &host_y, buf, 8, 0, true, 0, NULL, NULL),
        UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ptr_nonnull(strstr(last_error(), "no device global is registered at host address"));
}
END_TEST

START_TEST(copy_bad_arguments) {
    ck_assert_ur_ok(urcDeviceGlobalRegister(&host_y, "y", sizeof host_y, false));
    uint8_t buf[8] = {0};
    ur_queue_handle_t q = queue_of(&queue_aa);
    ur_event_handle_t null_event = NULL, some_event = (ur_event_handle_t)&ctx_a;
    ck_assert_ur(urcDeviceGlobalCopyTo(NULL, &host_y, buf, 8, 0, true, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_NULL_HANDLE);
    ck_assert_ur(urcDeviceGlobalCopyTo(q, NULL, buf, 8, 0, true, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_NULL_POINTER);
    ck_assert_ur(urcDeviceGlobalCopyTo(q, &host_y, NULL, 8, 0, true, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_NULL_POINTER);
    ck_assert_ur(urcDeviceGlobalCopyFrom(q, &host_y, NULL, 8, 0, true, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_NULL_POINTER);
    ck_assert_ur(urcDeviceGlobalCopyTo(q, &host_y, buf, 8, 0, true, 1, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_EVENT_WAIT_LIST);
    ck_assert_ur(urcDeviceGlobalCopyTo(q, &host_y, buf, 8, 0, true, 0, &some_event, NULL),
                 UR_RESULT_ERROR_INVALID_EVENT_WAIT_LIST);
    ck_assert_ur(urcDeviceGlobalCopyFrom(q, &host_y, buf, 8, 0, true, 1, &null_event, NULL),
                 UR_RESULT_ERROR_INVALID_EVENT_WAIT_LIST);
    ck_assert_ur_ok(urcDeviceGlobalCopyTo(q, &host_y, buf, 8, 0, true, 1, &some_event, NULL));
    ck_assert_ur_ok(urcDeviceGlobalUnregister(&host_y));
}
END_TEST

START_TEST(copy_zero_bytes) {
    ck_assert_ur_ok(urcDeviceGlobalRegister(&host_y, "y", sizeof host_y, false));
    uint8_t buf[1];
    ur_event_handle_t ev = NULL;
    ck_assert_ur_ok(
        urcDeviceGlobalCopyTo(queue_of(&queue_aa), &host_y, buf, 0, 8, false, 0, NULL, &ev));
    ck_assert_ptr_nonnull(ev); // still an event the caller can wait on
    urEventRelease(ev);
    ck_assert_ur_ok(
        urcDeviceGlobalCopyFrom(queue_of(&queue_aa), &host_y, buf, 0, 0, true, 0, NULL, NULL));
    ck_assert_int_eq(fake.usm_allocs, 0);
    ck_assert_ur_ok(urcDeviceGlobalUnregister(&host_y));
    assert_balanced();
}
END_TEST

#define COPY_THREADS 16

static void *first_copy_worker(void *arg) {
    uintptr_t i = (uintptr_t)arg;
    uint8_t byte = (uint8_t)(i + 1);
    ur_result_t r =
        urcDeviceGlobalCopyTo(queue_of(&queue_aa), host_x, &byte, 1, i, true, 0, NULL, NULL);
    return (void *)(uintptr_t)r;
}

START_TEST(copy_concurrent_first_use) {
    // All threads find no buffer and allocate at once; one buffer must survive, with every
    // thread's byte in it, and the losers' buffers freed.
    ck_assert_ur_ok(urcDeviceGlobalRegister(host_x, "x", sizeof host_x, false));
    pthread_t threads[COPY_THREADS];
    for (uintptr_t i = 0; i < COPY_THREADS; ++i)
        ck_assert_int_eq(pthread_create(&threads[i], NULL, first_copy_worker, (void *)i), 0);
    for (int i = 0; i < COPY_THREADS; ++i) {
        void *r;
        pthread_join(threads[i], &r);
        ck_assert_int_eq((int)(uintptr_t)r, UR_RESULT_SUCCESS);
    }
    ck_assert_int_eq(fake.usm_allocs - fake.usm_frees, 1);
    uint8_t out[COPY_THREADS];
    ck_assert_ur_ok(urcDeviceGlobalCopyFrom(queue_of(&queue_aa), host_x, out, sizeof out, 0, true,
                                            0, NULL, NULL));
    for (int i = 0; i < COPY_THREADS; ++i)
        ck_assert_uint_eq(out[i], i + 1);
    ck_assert_ur_ok(urcDeviceGlobalUnregister(host_x));
    assert_balanced();
}
END_TEST

// ---------------------------------------------------------------------------------------------
// device_image_scope variables

START_TEST(image_scope_copies_into_program) {
    fake_program_t p = {0};
    fake_add_var(&p, "z", sizeof host_z);
    ck_assert_ur_ok(urcDeviceGlobalRegister(&host_z, "z", sizeof host_z, true));
    ck_assert_ur_ok(urcDeviceGlobalProgramBuilt(queue_of(&queue_aa), program_of(&p)));
    uint32_t in = 0xcafe, out = 0;
    ck_assert_ur_ok(urcDeviceGlobalCopyTo(queue_of(&queue_aa), &host_z, &in, sizeof in, 4, true, 0,
                                          NULL, NULL));
    ck_assert_uint_eq(p.vars[0].data[4], 0xfe);
    ck_assert_ur_ok(urcDeviceGlobalCopyFrom(queue_of(&queue_aa), &host_z, &out, sizeof out, 4, true,
                                            0, NULL, NULL));
    ck_assert_uint_eq(out, in);
    ck_assert_int_eq(fake.usm_allocs, 0);
    ck_assert_int_eq(fake.prog_retains - fake.prog_releases, 1); // the registry's reference
    ck_assert_ur_ok(urcDeviceGlobalUnregister(&host_z));
    assert_balanced();
}
END_TEST

START_TEST(image_scope_no_program) {
    ck_assert_ur_ok(urcDeviceGlobalRegister(&host_z, "z", sizeof host_z, true));
    uint32_t in = 1;
    ck_assert_ur(
        urcDeviceGlobalCopyTo(queue_of(&queue_aa), &host_z, &in, sizeof in, 0, true, 0, NULL, NULL),
        UR_RESULT_ERROR_INVALID_OPERATION);
    ck_assert_ptr_nonnull(strstr(last_error(), "no program passed to urcDeviceGlobalProgramBuilt"));
    ck_assert_ur_ok(urcDeviceGlobalUnregister(&host_z));
}
END_TEST

START_TEST(image_scope_in_two_programs) {
    fake_program_t p1 = {0}, p2 = {0};
    fake_add_var(&p1, "z", sizeof host_z);
    fake_add_var(&p2, "z", sizeof host_z);
    ck_assert_ur_ok(urcDeviceGlobalRegister(&host_z, "z", sizeof host_z, true));
    ck_assert_ur_ok(urcDeviceGlobalProgramBuilt(queue_of(&queue_aa), program_of(&p1)));
    ck_assert_ur_ok(urcDeviceGlobalProgramBuilt(queue_of(&queue_aa), program_of(&p2)));
    ck_assert_ur_ok(urcDeviceGlobalProgramBuilt(queue_of(&queue_aa), program_of(&p2))); // again
    uint32_t in = 1;
    ck_assert_ur(
        urcDeviceGlobalCopyTo(queue_of(&queue_aa), &host_z, &in, sizeof in, 0, true, 0, NULL, NULL),
        UR_RESULT_ERROR_INVALID_OPERATION);
    ck_assert_str_eq(last_error(), "More than one image exists with the device_global 'z'");
    ck_assert_int_eq(fake.prog_retains - fake.prog_releases, 2);
    // Forgetting one makes the other the only holder.
    ck_assert_ur_ok(urcDeviceGlobalForgetProgram(program_of(&p1)));
    ck_assert_ur_ok(urcDeviceGlobalCopyTo(queue_of(&queue_aa), &host_z, &in, sizeof in, 0, true, 0,
                                          NULL, NULL));
    ck_assert_uint_eq(p2.vars[0].data[0], 1);
    ck_assert_ur_ok(urcDeviceGlobalUnregister(&host_z));
    assert_balanced();
}
END_TEST

START_TEST(image_scope_per_device) {
    // One image built separately for two devices: each device has its own holder.
    fake_program_t pa = {0}, pb = {0};
    fake_add_var(&pa, "z", sizeof host_z);
    fake_add_var(&pb, "z", sizeof host_z);
    ck_assert_ur_ok(urcDeviceGlobalRegister(&host_z, "z", sizeof host_z, true));
    ck_assert_ur_ok(urcDeviceGlobalProgramBuilt(queue_of(&queue_aa), program_of(&pa)));
    ck_assert_ur_ok(urcDeviceGlobalProgramBuilt(queue_of(&queue_ab), program_of(&pb)));
    uint8_t a = 0xa, b = 0xb;
    ck_assert_ur_ok(
        urcDeviceGlobalCopyTo(queue_of(&queue_aa), &host_z, &a, 1, 0, true, 0, NULL, NULL));
    ck_assert_ur_ok(
        urcDeviceGlobalCopyTo(queue_of(&queue_ab), &host_z, &b, 1, 0, true, 0, NULL, NULL));
    ck_assert_uint_eq(pa.vars[0].data[0], 0xa);
    ck_assert_uint_eq(pb.vars[0].data[0], 0xb);
    ck_assert_ur(urcDeviceGlobalCopyTo(queue_of(&queue_ba), &host_z, &a, 1, 0, true, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_OPERATION);
    ck_assert_ur_ok(urcDeviceGlobalUnregister(&host_z));
    assert_balanced();
}
END_TEST

START_TEST(image_scope_past_end) {
    fake_program_t p = {0};
    fake_add_var(&p, "z", sizeof host_z);
    ck_assert_ur_ok(urcDeviceGlobalRegister(&host_z, "z", sizeof host_z, true));
    ck_assert_ur_ok(urcDeviceGlobalProgramBuilt(queue_of(&queue_aa), program_of(&p)));
    uint8_t buf[16];
    ck_assert_ur(
        urcDeviceGlobalCopyFrom(queue_of(&queue_aa), &host_z, buf, 9, 0, true, 0, NULL, NULL),
        UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_str_eq(last_error(),
                     "copy of 9 bytes at offset 0 exceeds device global 'z' of 8 bytes");
    ck_assert_ur_ok(urcDeviceGlobalUnregister(&host_z));
    assert_balanced();
}
END_TEST

// ---------------------------------------------------------------------------------------------
// urcDeviceGlobalReleaseContext / ForgetProgram

START_TEST(release_context_frees_its_buffers) {
    fake_program_t pa = {0}, pb = {0};
    fake_add_var(&pa, "x", sizeof(void *));
    fake_add_var(&pa, "z", sizeof host_z);
    fake_add_var(&pb, "x", sizeof(void *));
    ck_assert_ur_ok(urcDeviceGlobalRegister(host_x, "x", sizeof host_x, false));
    ck_assert_ur_ok(urcDeviceGlobalRegister(&host_z, "z", sizeof host_z, true));
    ck_assert_ur_ok(urcDeviceGlobalProgramBuilt(queue_of(&queue_aa), program_of(&pa)));
    ck_assert_ur_ok(urcDeviceGlobalProgramBuilt(queue_of(&queue_ba), program_of(&pb)));
    ck_assert_int_eq(fake.usm_allocs, 2);

    ck_assert_ur_ok(urcDeviceGlobalReleaseContext(CTX_A));
    ck_assert_int_eq(fake.usm_frees, 1);
    ck_assert_int_eq(fake.ctx_retains - fake.ctx_releases, 1); // context B's buffer remains
    ck_assert_int_eq(fake.prog_retains, fake.prog_releases);   // pa was in context A
    uint8_t z = 1;
    ck_assert_ur(urcDeviceGlobalCopyTo(queue_of(&queue_aa), &host_z, &z, 1, 0, true, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_OPERATION);
    // A new use in context A starts again from a zeroed buffer.
    uint64_t out[2] = {1, 1};
    ck_assert_ur_ok(urcDeviceGlobalCopyFrom(queue_of(&queue_aa), host_x, out, sizeof out, 0, true,
                                            0, NULL, NULL));
    ck_assert_uint_eq(out[0] | out[1], 0);
    ck_assert_int_eq(fake.usm_allocs, 3);
    ck_assert_ur_ok(urcDeviceGlobalReleaseContext(CTX_B));
    ck_assert_ur_ok(urcDeviceGlobalReleaseContext(CTX_B)); // nothing left: still fine
    ck_assert_ur(urcDeviceGlobalReleaseContext(NULL), UR_RESULT_ERROR_INVALID_NULL_HANDLE);
    ck_assert_ur(urcDeviceGlobalForgetProgram(NULL), UR_RESULT_ERROR_INVALID_NULL_HANDLE);
    ck_assert_ur_ok(urcDeviceGlobalUnregister(host_x));
    ck_assert_ur_ok(urcDeviceGlobalUnregister(&host_z));
    assert_balanced();
}
END_TEST

START_TEST(get_last_error_arguments) {
    ck_assert_ur(urcDeviceGlobalGetLastError(NULL), UR_RESULT_ERROR_INVALID_NULL_POINTER);
    ck_assert_str_eq(last_error(), "");
}
END_TEST

static Suite *registry_suite(void) {
    Suite *s = suite_create("devglobal_registry");
    TCase *tc = tcase_create("urcDeviceGlobalRegister");
    tcase_add_test(tc, register_and_unregister);
    tcase_add_test(tc, register_bad_arguments);
    tcase_add_test(tc, register_twice);
    tcase_add_test(tc, register_many);
    suite_add_tcase(s, tc);

    tc = tcase_create("urcDeviceGlobalProgramBuilt");
    tcase_add_test(tc, built_writes_zeroed_usm_pointer);
    tcase_add_test(tc, built_skips_variables_not_in_program);
    tcase_add_test(tc, built_shares_buffer_between_programs);
    tcase_add_test(tc, built_one_buffer_per_context_and_device);
    tcase_add_test(tc, built_probe_falls_back_to_read);
    tcase_add_test(tc, built_reports_lookup_errors);
    tcase_add_test(tc, built_null_handles);
    suite_add_tcase(s, tc);

    tc = tcase_create("urcDeviceGlobalCopy");
    tcase_add_test(tc, copy_round_trip_through_usm);
    tcase_add_test(tc, copy_allocates_on_first_need);
    tcase_add_test(tc, copy_past_end);
    tcase_add_test(tc, copy_unregistered_address);
    tcase_add_test(tc, copy_bad_arguments);
    tcase_add_test(tc, copy_zero_bytes);
    tcase_add_test(tc, copy_concurrent_first_use);
    suite_add_tcase(s, tc);

    tc = tcase_create("device_image_scope");
    tcase_add_test(tc, image_scope_copies_into_program);
    tcase_add_test(tc, image_scope_no_program);
    tcase_add_test(tc, image_scope_in_two_programs);
    tcase_add_test(tc, image_scope_per_device);
    tcase_add_test(tc, image_scope_past_end);
    suite_add_tcase(s, tc);

    tc = tcase_create("urcDeviceGlobalReleaseContext");
    tcase_add_test(tc, release_context_frees_its_buffers);
    tcase_add_test(tc, get_last_error_arguments);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) {
    return urc_test_run(registry_suite());
}

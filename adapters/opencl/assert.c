// SPDX-License-Identifier: MIT
// Fallback device assert (seeds 000 and 001) on devices without cl_intel_devicelib_assert.
//
// A kernel listed in its program's "SYCL/assert used" set records a failed assert in the
// program-scope variable __SYCL_AssertHappenedMem (704 bytes; Flag 2 = complete). DPC++ read it
// with a copier kernel and a host task after every launch; here the adapter reads it with its
// own device-global read when a synchronising call observes that such a launch completed:
// urQueueFinish, urEventWait, urEventGetInfo(COMMAND_EXECUTION_STATUS) answering COMPLETE, and
// blocking enqueues on the same queue. Then urc_assert_deliver aborts with the seed's message,
// or in report mode the synchronising call returns UR_RESULT_ERROR_ADAPTER_SPECIFIC (the flag is
// reset first, so one assert is reported once).
//
// Bookkeeping is per queue, one entry per program, and only launches of marked kernels add to
// it; every other path reads one atomic counter that stays 0.
#include <stdlib.h>

#include "core/alloc.h"
#include "program/assert_record.h"
#include "ocl_internal.h"

/// The queue the records are read on: a private in-order queue on the same device, so a read
/// never waits for (or deadlocks on) work the application enqueued after the launch.
static ur_result_t make_reader(ur_queue_handle_t q) {
    if (q->assert_reader != NULL)
        return UR_RESULT_SUCCESS;
    cl_int err = CL_SUCCESS;
    cl_command_queue reader;
    if (q->context->platform->version >= 20) {
        reader = clCreateCommandQueueWithProperties(q->context->cl, q->device->cl, NULL, &err);
    } else {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
        reader = clCreateCommandQueue(q->context->cl, q->device->cl, 0, &err);
#pragma GCC diagnostic pop
    }
    if (err != CL_SUCCESS)
        return ocl_fail(err, "clCreateCommandQueue (fallback assert reader)");
    q->assert_reader = reader;
    return UR_RESULT_SUCCESS;
}

ur_result_t ocl_assert_track(ur_queue_handle_t q, ur_program_handle_t program, cl_event done) {
    ur_result_t result = UR_RESULT_SUCCESS;
    pthread_mutex_lock(&q->assert_lock);
    uint32_t n = atomic_load_explicit(&q->assert_pending, memory_order_relaxed);
    ocl_assert_check_t *entry = NULL;
    for (uint32_t i = 0; i < n && entry == NULL; ++i)
        if (q->assert_checks[i].program == program)
            entry = &q->assert_checks[i];
    if (entry != NULL) {
        // One entry per program: the record is sticky, so reading it once after the program's
        // last launch completes covers the earlier ones. In order, that launch's event says
        // so; out of order, a marker on both events does.
        cl_event latest = done;
        if (q->properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) {
            cl_event both[2] = {entry->done, done};
            cl_int err = clEnqueueMarkerWithWaitList(q->cl, 2, both, &latest);
            if (err != CL_SUCCESS)
                result = ocl_fail(err, "clEnqueueMarkerWithWaitList (fallback assert)");
        } else {
            clRetainEvent(latest);
        }
        if (result == UR_RESULT_SUCCESS) {
            clReleaseEvent(entry->done);
            entry->done = latest;
        }
    } else {
        result = make_reader(q);
        if (result == UR_RESULT_SUCCESS && n == q->assert_capacity) {
            uint32_t capacity = n == 0 ? 4 : 2 * n;
            ocl_assert_check_t *grown = realloc(q->assert_checks, (size_t)capacity * sizeof *grown);
            if (grown == NULL) {
                result = UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
            } else {
                q->assert_checks = grown;
                q->assert_capacity = capacity;
            }
        }
        if (result == UR_RESULT_SUCCESS) {
            urc_hold(&program->obj);
            clRetainEvent(done);
            q->assert_checks[n] = (ocl_assert_check_t){program, done};
            atomic_store_explicit(&q->assert_pending, n + 1, memory_order_release);
        }
    }
    pthread_mutex_unlock(&q->assert_lock);
    return result;
}

ur_result_t ocl_assert_check_program(ur_queue_handle_t q, ur_program_handle_t program) {
    const ocl_ext_t *ext = &q->context->platform->ext;
    if (!q->device->global_variables || q->assert_reader == NULL) {
        URC_LOG(ocl_log(), UR_LOGGER_LEVEL_WARN,
                "fallback assert: the device cannot read program-scope variables, so asserts "
                "of program %p go unseen",
                (void *)program);
        return UR_RESULT_SUCCESS;
    }
    // One read and reset at a time per program: two threads observing the same completion
    // must not both report one assert.
    pthread_mutex_lock(&program->assert_lock);
    URC_LOG(ocl_log(), UR_LOGGER_LEVEL_DEBUG, "fallback assert: reading %s of program %p",
            URC_ASSERT_SYMBOL, (void *)program);
    unsigned char raw[URC_ASSERT_RECORD_SIZE];
    urc_assert_record_t rec;
    bool hit = false;
    cl_int err = ext->enqueue_read_global_variable(q->assert_reader, program->cl, URC_ASSERT_SYMBOL,
                                                   CL_TRUE, sizeof raw, 0, raw, 0, NULL, NULL);
    if (err != CL_SUCCESS)
        // The kernel is marked but the program has no fallback record (not linked with it):
        // nothing can be reported, and the application's own call still succeeded.
        URC_LOG(ocl_log(), UR_LOGGER_LEVEL_WARN,
                "fallback assert: program %p has no readable %s (%s)", (void *)program,
                URC_ASSERT_SYMBOL, ocl_error_name(err));
    else
        hit = urc_assert_decode(raw, sizeof raw, &rec);
    if (hit && urc_assert_report_mode()) {
        // Reported once: the next completion must not find the same record.
        int32_t zero = 0;
        err = ext->enqueue_write_global_variable(q->assert_reader, program->cl, URC_ASSERT_SYMBOL,
                                                 CL_TRUE, sizeof zero, 0, &zero, 0, NULL, NULL);
        // A blocking write only promises that `zero` was copied; the next launch, on another
        // queue, must find the flag cleared, so the write is waited for.
        if (err == CL_SUCCESS)
            err = clFinish(q->assert_reader);
        if (err != CL_SUCCESS)
            URC_LOG(ocl_log(), UR_LOGGER_LEVEL_WARN,
                    "fallback assert: resetting the record of program %p failed (%s)",
                    (void *)program, ocl_error_name(err));
    }
    pthread_mutex_unlock(&program->assert_lock);
    return hit ? urc_assert_deliver(&rec) : UR_RESULT_SUCCESS;
}

/// True when the command behind `e` has ended (completed, or terminated with an error).
static bool ended(cl_event e) {
    cl_int status = CL_QUEUED;
    return clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL) ==
               CL_SUCCESS &&
           status <= CL_COMPLETE;
}

ur_result_t ocl_assert_sweep(ur_queue_handle_t q, bool finished) {
    // Entries whose launches ended leave the list under the lock; their records are read
    // after it, so reads never hold up launches.
    pthread_mutex_lock(&q->assert_lock);
    uint32_t n = atomic_load_explicit(&q->assert_pending, memory_order_relaxed);
    ur_program_handle_t small[8];
    ur_program_handle_t *due = n <= 8 ? small : malloc(n * sizeof *due);
    uint32_t ndue = 0, kept = 0;
    for (uint32_t i = 0; i < n; ++i) {
        ocl_assert_check_t c = q->assert_checks[i];
        if (due != NULL && (finished || ended(c.done))) {
            clReleaseEvent(c.done);
            due[ndue++] = c.program;
        } else {
            q->assert_checks[kept++] = c;
        }
    }
    atomic_store_explicit(&q->assert_pending, kept, memory_order_release);
    pthread_mutex_unlock(&q->assert_lock);
    ur_result_t result = due != NULL ? UR_RESULT_SUCCESS : UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    for (uint32_t i = 0; i < ndue; ++i) {
        ur_result_t r = ocl_assert_check_program(q, due[i]);
        if (result == UR_RESULT_SUCCESS)
            result = r;
        ocl_program_release_internal(due[i]);
    }
    if (due != small)
        free(due);
    return result;
}

ur_result_t ocl_assert_after_blocking(ur_queue_handle_t q, bool blocking, ur_result_t result,
                                      ur_event_handle_t *event) {
    if (result != UR_RESULT_SUCCESS || !blocking)
        return result;
    result = ocl_assert_observe(q, false);
    // The call reports the assert instead of its event, which nobody would release.
    if (result != UR_RESULT_SUCCESS && event != NULL && *event != NULL) {
        ocl_event_release(*event);
        *event = NULL;
    }
    return result;
}

void ocl_assert_queue_fini(ur_queue_handle_t q) {
    uint32_t n = atomic_load(&q->assert_pending);
    for (uint32_t i = 0; i < n; ++i) {
        clReleaseEvent(q->assert_checks[i].done);
        ocl_program_release_internal(q->assert_checks[i].program);
    }
    free(q->assert_checks);
    if (q->assert_reader != NULL)
        clReleaseCommandQueue(q->assert_reader);
    pthread_mutex_destroy(&q->assert_lock);
}

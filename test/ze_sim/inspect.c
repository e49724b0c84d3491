// SPDX-License-Identifier: MIT
// The inspection API of ze_sim.h: recorded launches, failure injection, build flags, counts.
#include "ze_sim_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// The public record plus the argument bytes, which zeSimGetLaunchArg copies out.
typedef struct record {
    ze_sim_launch_t pub;
    sim_arg_t *args; // deep copies; NULL when the copy could not be made
} record_t;

static struct {
    pthread_mutex_t lock;
    record_t ring[ZE_SIM_LAUNCH_HISTORY];
    uint64_t count;
    char **flags;
    uint32_t num_flags;
} g_insp = {.lock = PTHREAD_MUTEX_INITIALIZER};

// One pending result per failure point; 0 (ZE_RESULT_SUCCESS) means none.
static atomic_int g_inject[ZE_SIM_FAIL_COUNT];

static void free_args(record_t *rec) {
    for (uint32_t i = 0; rec->args && i < rec->pub.num_args; ++i)
        free(rec->args[i].value);
    free(rec->args);
    rec->args = NULL;
}

static void free_flags(void) {
    for (uint32_t i = 0; i < g_insp.num_flags; ++i)
        free(g_insp.flags[i]);
    free(g_insp.flags);
    g_insp.flags = NULL;
    g_insp.num_flags = 0;
}

// Exchange, so two threads never both take one injection.
ze_result_t sim_inject_take(ze_sim_fail_point_t point) {
    return (ze_result_t)atomic_exchange(&g_inject[point], 0);
}

void sim_inspect_record_launch(ze_sim_launch_kind_t kind, const sim_launch_t *l,
                               const ze_group_count_t *counts) {
    pthread_mutex_lock(&g_insp.lock);
    // A ring: the oldest record is overwritten and its argument copies freed.
    record_t *rec = &g_insp.ring[g_insp.count % ZE_SIM_LAUNCH_HISTORY];
    free_args(rec);
    memset(rec, 0, sizeof(*rec));
    rec->pub.sequence = ++g_insp.count;
    rec->pub.kind = kind;
    snprintf(rec->pub.kernel_name, sizeof(rec->pub.kernel_name), "%s", l->kernel_name);
    rec->pub.group_count[0] = counts->groupCountX;
    rec->pub.group_count[1] = counts->groupCountY;
    rec->pub.group_count[2] = counts->groupCountZ;
    memcpy(rec->pub.group_size, l->group_size, sizeof(l->group_size));
    memcpy(rec->pub.global_offset, l->global_offset, sizeof(l->global_offset));
    rec->pub.num_args = l->num_args;
    rec->args = calloc(l->num_args ? l->num_args : 1, sizeof(sim_arg_t));
    for (uint32_t i = 0; i < l->num_args; ++i) {
        // Counted even when the copy below fails, so the record stays truthful.
        rec->pub.num_args_set += l->args[i].set != 0;
        if (!rec->args)
            continue;
        rec->args[i] = l->args[i];
        rec->args[i].value = NULL;
        if (l->args[i].value &&
            (rec->args[i].value = malloc(l->args[i].size ? l->args[i].size : 1)))
            memcpy(rec->args[i].value, l->args[i].value, l->args[i].size);
    }
    pthread_mutex_unlock(&g_insp.lock);
}

void sim_inspect_set_build_flags(uint32_t count, const char *const *flags) {
    pthread_mutex_lock(&g_insp.lock);
    free_flags();
    if ((g_insp.flags = calloc(count ? count : 1, sizeof(char *)))) {
        g_insp.num_flags = count;
        for (uint32_t i = 0; i < count; ++i)
            g_insp.flags[i] = sim_strdup(flags[i] ? flags[i] : "");
    }
    pthread_mutex_unlock(&g_insp.lock);
}

// ---------------------------------------------------------------------------------------------
// Exported functions.

uint32_t zeSimGetApiVersion(void) {
    return ZE_SIM_API_VERSION;
}

// Launch history, build flags, injections and hang-guard settings go back to their start.
void zeSimReset(void) {
    pthread_mutex_lock(&g_insp.lock);
    for (size_t i = 0; i < ZE_SIM_LAUNCH_HISTORY; ++i) {
        free_args(&g_insp.ring[i]);
        memset(&g_insp.ring[i], 0, sizeof(g_insp.ring[i]));
    }
    g_insp.count = 0;
    free_flags();
    pthread_mutex_unlock(&g_insp.lock);
    for (int i = 0; i < ZE_SIM_FAIL_COUNT; ++i)
        atomic_store(&g_inject[i], 0);
    sim_engine_set_hang_timeout(0);
    sim_engine_reset_trips();
}

uint64_t zeSimGetLaunchCount(void) {
    pthread_mutex_lock(&g_insp.lock);
    uint64_t n = g_insp.count;
    pthread_mutex_unlock(&g_insp.lock);
    return n;
}

// The record `back` places before the newest, or NULL; lock held.
static record_t *record_at(uint32_t back) {
    uint64_t kept = g_insp.count < ZE_SIM_LAUNCH_HISTORY ? g_insp.count : ZE_SIM_LAUNCH_HISTORY;
    if (back >= kept)
        return NULL;
    return &g_insp.ring[(g_insp.count - 1 - back) % ZE_SIM_LAUNCH_HISTORY];
}

ze_result_t zeSimGetLaunch(uint32_t back, ze_sim_launch_t *out) {
    if (!out)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    pthread_mutex_lock(&g_insp.lock);
    record_t *rec = record_at(back);
    if (rec)
        *out = rec->pub;
    pthread_mutex_unlock(&g_insp.lock);
    return rec ? ZE_RESULT_SUCCESS : ZE_RESULT_ERROR_INVALID_ARGUMENT;
}

ze_result_t zeSimGetLaunchArg(uint32_t back, uint32_t index, size_t *size, void *value,
                              int *is_null) {
    if (!size)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    ze_result_t r = ZE_RESULT_SUCCESS;
    pthread_mutex_lock(&g_insp.lock);
    record_t *rec = record_at(back);
    if (!rec)
        r = ZE_RESULT_ERROR_INVALID_ARGUMENT;
    else if (index >= rec->pub.num_args || !rec->args || !rec->args[index].set)
        // Out of memory while recording is reported as such, not as a missing argument.
        r = rec->args || index >= rec->pub.num_args ? ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX
                                                    : ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    if (r == ZE_RESULT_SUCCESS) {
        const sim_arg_t *a = &rec->args[index];
        if (value && a->value)
            memcpy(value, a->value, *size < a->size ? *size : a->size);
        *size = a->size;
        if (is_null)
            *is_null = a->is_null;
    }
    pthread_mutex_unlock(&g_insp.lock);
    return r;
}

void zeSimFailNext(ze_sim_fail_point_t point, ze_result_t result) {
    if ((unsigned)point < ZE_SIM_FAIL_COUNT)
        atomic_store(&g_inject[point], (int)result);
}

void zeSimSetHangTimeout(uint64_t nanoseconds) {
    sim_engine_set_hang_timeout(nanoseconds);
}

uint64_t zeSimGetHangTrips(void) {
    return sim_engine_hang_trips();
}

ze_result_t zeSimGetLastBuildFlags(uint32_t index, size_t *size, char *flags) {
    if (!size)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    ze_result_t r = ZE_RESULT_ERROR_INVALID_ARGUMENT;
    pthread_mutex_lock(&g_insp.lock);
    if (index < g_insp.num_flags && g_insp.flags[index]) {
        size_t need = strlen(g_insp.flags[index]) + 1;
        if (flags && *size) {
            size_t n = *size < need ? *size - 1 : need - 1;
            memcpy(flags, g_insp.flags[index], n);
            flags[n] = '\0';
        }
        *size = need;
        r = ZE_RESULT_SUCCESS;
    }
    pthread_mutex_unlock(&g_insp.lock);
    return r;
}

uint64_t zeSimGetLiveObjectCount(void) {
    return sim_obj_live_count();
}

uint64_t zeSimGetLiveAllocationCount(void) {
    return sim_mem_live_count();
}

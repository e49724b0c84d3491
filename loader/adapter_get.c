// SPDX-License-Identifier: MIT
// urAdapterGet: the one entry point that visits every loaded adapter.
#include "core/enum_names.h"
#include "intercept.h"
#include "loader.h"
#include "ur_checks.h"

static ur_result_t adapter_get(uint32_t NumEntries, ur_adapter_handle_t *phAdapters,
                               uint32_t *pNumAdapters) {
    ur_result_t result = urc_check_adapter_get(NumEntries, phAdapters, pNumAdapters);
    if (result != UR_RESULT_SUCCESS)
        return result;
    const urc_adapter_list_t *list;
    result = urc_loader_read_begin(&list);
    if (result != UR_RESULT_SUCCESS)
        return result;
    // Each library reports (and, when asked, hands out) its one adapter; the handles are the
    // adapters' own, so later calls reach them through their first word.
    uint32_t total = 0, written = 0;
    for (size_t i = 0; i < list->count; ++i) {
        ur_pfnAdapterGet_t get = list->items[i].ddi.Adapter.pfnGet; // never NULL: see discovery
        uint32_t count = 0;
        if (phAdapters == NULL || written >= NumEntries) {
            if (get(0, NULL, &count) == UR_RESULT_SUCCESS)
                total += count;
            continue;
        }
        ur_adapter_handle_t adapter = NULL;
        ur_result_t got = get(1, &adapter, &count);
        if (got != UR_RESULT_SUCCESS || adapter == NULL) {
            URC_LOG(urc_loader_log(), UR_LOGGER_LEVEL_DEBUG, "%s: urAdapterGet gave %s, no adapter",
                    list->items[i].path, urc_result_name(got));
            continue;
        }
        phAdapters[written++] = adapter;
        total += count > 0 ? count : 1;
    }
    urc_loader_read_end();
    if (pNumAdapters != NULL)
        *pNumAdapters = total;
    return UR_RESULT_SUCCESS;
}

// While a layer is on, urAdapterGet is traced, timed and its adapters counted like every
// generated entry point (loader/intercept.h).
static __attribute__((noinline, cold)) ur_result_t
intercept_adapter_get(uint32_t NumEntries, ur_adapter_handle_t *phAdapters,
                      uint32_t *pNumAdapters) {
    ur_adapter_get_params_t params = {&NumEntries, &phAdapters, &pNumAdapters};
    urc_call_t call;
    urc_intercept_begin(&call, UR_FUNCTION_ADAPTER_GET, "urAdapterGet", &params);
    ur_result_t result = adapter_get(NumEntries, phAdapters, pNumAdapters);
    if (result == UR_RESULT_SUCCESS && phAdapters != NULL && urc_layer_on(URC_LAYER_LEAKS)) {
        uint32_t n =
            pNumAdapters != NULL && *pNumAdapters < NumEntries ? *pNumAdapters : NumEntries;
        for (uint32_t i = 0; i < n; ++i)
            urc_leak_created("adapter", phAdapters[i], "urAdapterGet");
    }
    urc_intercept_end(&call, result);
    return result;
}

UR_APIEXPORT ur_result_t UR_APICALL urAdapterGet(uint32_t NumEntries,
                                                 ur_adapter_handle_t *phAdapters,
                                                 uint32_t *pNumAdapters) {
    if (urc_intercepting())
        return intercept_adapter_get(NumEntries, phAdapters, pNumAdapters);
    return adapter_get(NumEntries, phAdapters, pNumAdapters);
}

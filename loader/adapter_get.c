// SPDX-License-Identifier: MIT
// urAdapterGet: the one entry point that visits every loaded adapter.
#include "enum_names.h"
#include "loader.h"
#include "ur_checks.h"

UR_APIEXPORT ur_result_t UR_APICALL urAdapterGet(uint32_t NumEntries,
                                                 ur_adapter_handle_t *phAdapters,
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

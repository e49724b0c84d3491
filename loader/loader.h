// SPDX-License-Identifier: MIT
// The loader's only state: the adapter libraries it opened, alive between the first
// urLoaderInit and the matching last urLoaderTearDown. Handles carry their own table, so
// nothing here is consulted on the dispatch path; only urAdapterGet walks the list.
#ifndef URC_LOADER_LOADER_H
#define URC_LOADER_LOADER_H

#include <stdbool.h>
#include <stddef.h>

#include "env/log.h"
#include "ur_ddi.h"

/// One opened adapter library.
typedef struct urc_adapter_lib_t {
    char *path;        // the candidate that opened
    void *lib;         // from dlopen
    ur_dditable_t ddi; // what its getters filled in; only Adapter.pfnGet is used
} urc_adapter_lib_t;

typedef struct urc_adapter_list_t {
    urc_adapter_lib_t *items; // in load order, which is urAdapterGet's order
    size_t count;
} urc_adapter_list_t;

/// discovery.c: finds and opens the adapters the environment asks for (or, with `mock`,
/// libur_adapter_mock.so.0 only). A library that cannot be used is skipped with a warning;
/// only running out of memory fails.
ur_result_t urc_discover_adapters(bool mock, urc_adapter_list_t *out);

/// discovery.c: closes every library of the list and empties it.
void urc_adapter_list_close(urc_adapter_list_t *list);

/// init.c: the list, held for reading until urc_loader_read_end; UR_RESULT_ERROR_UNINITIALIZED
/// (and nothing held) when the loader is not initialised.
ur_result_t urc_loader_read_begin(const urc_adapter_list_t **list);
void urc_loader_read_end(void);

/// init.c: called by the loader's own table getters. Before any urLoaderInit this means another
/// loader adopts this one as an adapter: the first urAdapterGet then initialises it once.
void urc_loader_tables_requested(void);

/// The loader's logger (UR_LOG_LOADER).
static inline urc_logger_t *urc_loader_log(void) {
    return urc_logger(URC_ENV_LOG_LOADER);
}

#endif // URC_LOADER_LOADER_H

// SPDX-License-Identifier: MIT
// Finding adapter libraries (UR_ADAPTERS_FORCE_LOAD, UR_ADAPTERS_SEARCH_PATH, the known names
// with the ONEAPI_DEVICE_SELECTOR pre-filter), opening them and reading their tables.
#include <dlfcn.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "core/alloc.h"
#include "core/enum_names.h"
#include "env/env.h"
#include "env/kvparse.h"
#include "loader.h"
#include "env/selector.h"
#include "ur_loader_getters.h"

// The adapters urc knows by name, in the lexicographic order of their libraries, which is
// UR's load order. The device types feed the pre-filter only.
static const ur_device_type_t cuda_types[] = {UR_DEVICE_TYPE_GPU};
static const ur_device_type_t level_zero_types[] = {UR_DEVICE_TYPE_CPU, UR_DEVICE_TYPE_GPU,
                                                    UR_DEVICE_TYPE_FPGA, UR_DEVICE_TYPE_MCA,
                                                    UR_DEVICE_TYPE_VPU};
static const ur_device_type_t opencl_types[] = {UR_DEVICE_TYPE_CPU,  UR_DEVICE_TYPE_GPU,
                                                UR_DEVICE_TYPE_FPGA, UR_DEVICE_TYPE_MCA,
                                                UR_DEVICE_TYPE_VPU,  UR_DEVICE_TYPE_CUSTOM};
#define TYPES(a) a, sizeof a / sizeof a[0]
static const struct manifest_t {
    const char *library;
    ur_backend_t backend;
    const ur_device_type_t *types;
    size_t type_count;
} manifests[] = {
    {"libur_adapter_cuda.so.0", UR_BACKEND_CUDA, TYPES(cuda_types)},
    {"libur_adapter_level_zero.so.0", UR_BACKEND_LEVEL_ZERO, TYPES(level_zero_types)},
    {"libur_adapter_opencl.so.0", UR_BACKEND_OPENCL, TYPES(opencl_types)},
};
#define MOCK_LIBRARY "libur_adapter_mock.so.0"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define URC_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define URC_SANITIZED 1
#endif
#endif
#ifndef URC_SANITIZED
#define URC_SANITIZED 0
#endif

// One adapter to load: the paths to try, in order; the first that opens wins.
typedef struct group_t {
    char *paths[32];
    size_t count;
    bool forced; // named by UR_ADAPTERS_FORCE_LOAD: failing to open it is worth a warning
} group_t;

typedef struct plan_t {
    group_t groups[64];
    size_t count;
    bool out_of_memory;
} plan_t;

static group_t *new_group(plan_t *plan) {
    if (plan->count == sizeof plan->groups / sizeof plan->groups[0]) {
        URC_LOG(urc_loader_log(), UR_LOGGER_LEVEL_WARN, "more than %zu adapters; ignoring the rest",
                plan->count);
        return NULL;
    }
    return &plan->groups[plan->count++];
}

static void add_path(plan_t *plan, group_t *g, const char *dir, const char *name) {
    if (g == NULL)
        return;
    if (g->count == sizeof g->paths / sizeof g->paths[0]) {
        URC_LOG(urc_loader_log(), UR_LOGGER_LEVEL_WARN,
                "too many places to look for %s; '%s' "
                "and later ones are not tried",
                name, dir != NULL ? dir : name);
        return;
    }
    size_t n = (dir != NULL ? strlen(dir) + 1 : 0) + strlen(name) + 1;
    char *path = urc_calloc(n, 1);
    if (path == NULL) {
        plan->out_of_memory = true;
        return;
    }
    snprintf(path, n, "%s%s%s", dir != NULL ? dir : "", dir != NULL ? "/" : "", name);
    g->paths[g->count++] = path;
}

static bool exists(const char *path) {
    struct stat st;
    return stat(path, &st) == 0;
}

// The folder libur_loader.so.0 was loaded from, resolved, or "" when unknown.
static void loader_dir(char *out, size_t size) {
    Dl_info info;
    char real[PATH_MAX];
    out[0] = '\0';
    if (dladdr((void *)loader_dir, &info) == 0 || info.dli_fname == NULL ||
        realpath(info.dli_fname, real) == NULL)
        return;
    snprintf(out, size, "%s", dirname(real));
}

// Whether `path` is this loader's own file (same device and inode, so links and other spellings
// count too). Opening it as an adapter would make urAdapterGet call itself until the stack ends.
static bool is_self(const char *path) {
    Dl_info info;
    struct stat own, other;
    return dladdr((void *)is_self, &info) != 0 && info.dli_fname != NULL &&
           stat(info.dli_fname, &own) == 0 && stat(path, &other) == 0 &&
           own.st_dev == other.st_dev && own.st_ino == other.st_ino;
}

// Whether UR_ADAPTERS_FORCE_LOAD names this loader: then the variable was written for an
// outer loader that adopts this one as an adapter (libsycl, UR's loader), not for this one.
static bool force_names_self(const urc_kv_list_t *list) {
    for (size_t i = 0; i < list->count; ++i)
        if (is_self(list->items[i]))
            return true;
    return false;
}

// UR_ADAPTERS_FORCE_LOAD: true when it is set and well formed, which replaces every other way
// of finding adapters even when none of its paths can be used; false also when it names this
// loader itself, which then finds its adapters the usual way (search path, known names).
static bool plan_forced(plan_t *plan) {
    const char *value = urc_env_get(URC_ENV_ADAPTERS_FORCE_LOAD);
    if (value == NULL)
        return false;
    urc_kv_list_t list;
    char err[256];
    urc_logger_t *lg = urc_loader_log();
    if (!urc_kv_parse_list(value, &list, err, sizeof err)) {
        URC_LOG(lg, UR_LOGGER_LEVEL_ERROR,
                "UR_ADAPTERS_FORCE_LOAD=\"%s\" ignored: %s (expected path[,path...])", value, err);
        return false;
    }
    if (force_names_self(&list)) {
        URC_LOG(lg, UR_LOGGER_LEVEL_WARN,
                "UR_ADAPTERS_FORCE_LOAD=\"%s\" names this loader: it is for the loader that "
                "adopted this one; finding adapters through UR_ADAPTERS_SEARCH_PATH and the "
                "known names instead",
                value);
        urc_kv_list_free(&list);
        return false;
    }
    for (size_t i = 0; i < list.count; ++i) {
        const char *path = list.items[i];
        size_t n = strlen(path);
        if (n >= 2 && strcmp(path + n - 2, ".a") == 0) {
            URC_LOG(lg, UR_LOGGER_LEVEL_WARN,
                    "UR_ADAPTERS_FORCE_LOAD: skipping '%s': a static library", path);
        } else if (!exists(path)) {
            URC_LOG(lg, UR_LOGGER_LEVEL_WARN, "UR_ADAPTERS_FORCE_LOAD: skipping '%s': no such file",
                    path);
        } else {
            group_t *g = new_group(plan);
            add_path(plan, g, NULL, path);
            if (g != NULL)
                g->forced = true;
        }
    }
    urc_kv_list_free(&list);
    return true;
}

// The adapters the pre-filter keeps, as bits over `manifests`.
static unsigned prefiltered(void) {
    unsigned all = (1u << (sizeof manifests / sizeof manifests[0])) - 1;
    if (!urc_env_bool(URC_ENV_LOADER_PRELOAD_FILTER, true))
        return all;
    const char *ods_text = urc_env_get(URC_ENV_DEVICE_SELECTOR);
    urc_ods_t ods;
    char err[300];
    if (!urc_ods_parse(ods_text, &ods, err, sizeof err)) {
        // urDeviceGetSelected reports it; loading everything keeps the error visible there.
        URC_LOG(urc_loader_log(), UR_LOGGER_LEVEL_ERROR,
                "ONEAPI_DEVICE_SELECTOR=\"%s\": %s; the pre-filter loads every adapter", ods_text,
                err);
        return all;
    }
    unsigned keep = 0;
    for (size_t i = 0; i < sizeof manifests / sizeof manifests[0]; ++i) {
        const struct manifest_t *m = &manifests[i];
        if (urc_ods_backend_wanted(&ods, m->backend, m->types, m->type_count))
            keep |= 1u << i;
        else
            URC_LOG(urc_loader_log(), UR_LOGGER_LEVEL_INFO,
                    "%s not loaded: ONEAPI_DEVICE_SELECTOR=\"%s\" excludes it", m->library,
                    ods_text);
    }
    urc_ods_free(&ods);
    return keep;
}

// Known adapters: each UR_ADAPTERS_SEARCH_PATH folder, then the dynamic linker's search, then
// the loader's own folder.
static void plan_known(plan_t *plan) {
    urc_logger_t *lg = urc_loader_log();
    urc_kv_list_t dirs = {0};
    const char *search = urc_env_get(URC_ENV_ADAPTERS_SEARCH_PATH);
    char err[256];
    if (search != NULL && !urc_kv_parse_list(search, &dirs, err, sizeof err))
        URC_LOG(lg, UR_LOGGER_LEVEL_ERROR,
                "UR_ADAPTERS_SEARCH_PATH=\"%s\" ignored: %s (expected dir[,dir...])", search, err);
    for (size_t d = 0; d < dirs.count; ++d)
        if (!exists(dirs.items[d]))
            URC_LOG(lg, UR_LOGGER_LEVEL_WARN, "UR_ADAPTERS_SEARCH_PATH: '%s' does not exist",
                    dirs.items[d]);
    char own[PATH_MAX];
    loader_dir(own, sizeof own);
    unsigned keep = prefiltered();
    for (size_t i = 0; i < sizeof manifests / sizeof manifests[0]; ++i) {
        if (!(keep & (1u << i)))
            continue;
        group_t *g = new_group(plan);
        for (size_t d = 0; d < dirs.count; ++d)
            if (exists(dirs.items[d]))
                add_path(plan, g, dirs.items[d], manifests[i].library);
        add_path(plan, g, NULL, manifests[i].library);
        if (own[0] != '\0')
            add_path(plan, g, own, manifests[i].library);
    }
    urc_kv_list_free(&dirs);
}

static void plan_mock(plan_t *plan) {
    char own[PATH_MAX];
    loader_dir(own, sizeof own);
    group_t *g = new_group(plan);
    add_path(plan, g, NULL, MOCK_LIBRARY);
    if (own[0] != '\0')
        add_path(plan, g, own, MOCK_LIBRARY);
}

// Fills `ddi` from the library's getters; false (and `why`) when the library is unusable.
static bool read_tables(void *lib, ur_dditable_t *ddi, const char *path, char *why, size_t n) {
    memset(ddi, 0, sizeof *ddi);
    for (size_t i = 0; i < URC_TABLE_GETTER_COUNT; ++i) {
        const urc_table_getter_t *g = &urc_table_getters[i];
        void *symbol = dlsym(lib, g->symbol);
        if (symbol == NULL) {
            if (strcmp(g->table, "Adapter") == 0) {
                snprintf(why, n, "it exports no %s (not a UR adapter)", g->symbol);
                return false;
            }
            // As in UR: the table stays empty; the adapter's handles carry their own tables.
            URC_LOG(urc_loader_log(), UR_LOGGER_LEVEL_WARN, "%s: no %s; its %s table is empty",
                    path, g->symbol, g->table);
            continue;
        }
        ur_result_t result = g->call(symbol, UR_API_VERSION_CURRENT, ddi);
        if (result != UR_RESULT_SUCCESS) {
            snprintf(why, n, "%s returned %s", g->symbol, urc_result_name(result));
            return false;
        }
    }
    if (ddi->Adapter.pfnGet == NULL) {
        snprintf(why, n, "its Adapter table has no urAdapterGet");
        return false;
    }
    return true;
}

static bool already_open(const urc_adapter_list_t *list, void *lib) {
    for (size_t i = 0; i < list->count; ++i)
        if (list->items[i].lib == lib)
            return true;
    return false;
}

// Tries a group's paths in order and appends the first library that opens and is usable.
static void load_group(group_t *g, int mode, urc_adapter_list_t *list) {
    urc_logger_t *lg = urc_loader_log();
    for (size_t i = 0; i < g->count; ++i) {
        const char *path = g->paths[i];
        if (strchr(path, '/') != NULL && is_self(path)) {
            URC_LOG(lg, UR_LOGGER_LEVEL_WARN, "skipping adapter '%s': it is this loader", path);
            continue;
        }
        void *lib = dlopen(path, mode);
        if (lib == NULL) {
            // A known adapter that is simply not installed is normal; anything else is not.
            const char *err = dlerror();
            bool notable = g->forced || (strchr(path, '/') != NULL && exists(path));
            URC_LOG(lg, notable ? UR_LOGGER_LEVEL_WARN : UR_LOGGER_LEVEL_DEBUG,
                    "skipping adapter '%s': cannot load it: %s", path, err ? err : "unknown");
            continue;
        }
        if (already_open(list, lib)) {
            URC_LOG(lg, UR_LOGGER_LEVEL_WARN, "skipping adapter '%s': already loaded", path);
            dlclose(lib);
            return;
        }
        urc_adapter_lib_t *slot = &list->items[list->count];
        char why[300];
        if (!read_tables(lib, &slot->ddi, path, why, sizeof why)) {
            URC_LOG(lg, UR_LOGGER_LEVEL_WARN, "skipping adapter '%s': %s", path, why);
            dlclose(lib);
            return; // as in UR, the first library that opens is the one used
        }
        slot->path = g->paths[i];
        slot->lib = lib;
        g->paths[i] = NULL; // now owned by the list
        ++list->count;
        URC_LOG(lg, UR_LOGGER_LEVEL_INFO, "loaded adapter '%s'", slot->path);
        return;
    }
}

ur_result_t urc_discover_adapters(bool mock, urc_adapter_list_t *out) {
    *out = (urc_adapter_list_t){0};
    plan_t *plan = URC_NEW(plan_t);
    if (plan == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    if (mock)
        plan_mock(plan);
    else if (!plan_forced(plan))
        plan_known(plan);
    ur_result_t result = UR_RESULT_SUCCESS;
    out->items = urc_calloc(plan->count, sizeof *out->items);
    if (out->items == NULL || plan->out_of_memory) {
        result = UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    } else {
        int mode = RTLD_LAZY | RTLD_LOCAL;
        if (urc_env_bool(URC_ENV_ADAPTERS_DEEP_BIND, false)) {
#if URC_SANITIZED
            // The sanitizer runtimes abort on RTLD_DEEPBIND; a warning is better than that.
            URC_LOG(urc_loader_log(), UR_LOGGER_LEVEL_WARN,
                    "UR_ADAPTERS_DEEP_BIND ignored: this loader is built with a sanitizer");
#else
            mode |= RTLD_DEEPBIND;
#endif
        }
        for (size_t i = 0; i < plan->count; ++i)
            load_group(&plan->groups[i], mode, out);
    }
    for (size_t i = 0; i < plan->count; ++i)
        for (size_t k = 0; k < plan->groups[i].count; ++k)
            free(plan->groups[i].paths[k]);
    free(plan);
    if (result != UR_RESULT_SUCCESS)
        urc_adapter_list_close(out);
    return result;
}

void urc_adapter_list_close(urc_adapter_list_t *list) {
    // Reverse order, so a library loaded later (and maybe depending on an earlier one) goes first.
    for (size_t i = list->count; i-- > 0;) {
        if (dlclose(list->items[i].lib) != 0)
            URC_LOG(urc_loader_log(), UR_LOGGER_LEVEL_ERROR, "cannot unload '%s': %s",
                    list->items[i].path, dlerror());
        free(list->items[i].path);
    }
    URC_FREE(list->items);
    list->count = 0;
}

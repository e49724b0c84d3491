// SPDX-License-Identifier: MIT
// urLoaderInit / urLoaderTearDown and the loader configuration object.
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "core/alloc.h"
#include "env/env.h"
#include "core/info.h"
#include "core/quarantine.h"
#include "intercept.h"
#include "loader.h"
#include "ur_checks.h"

// The first word tells a loader config from any other handle (whose first word is its table
// pointer): a handle of another kind is refused, never used as a config.
#define CONFIG_MAGIC UINT64_C(0x75726343464721) // "!GFCcru"

struct ur_loader_config_handle_t_ {
    uint64_t magic;
    atomic_uint refcount;
    atomic_bool mock;
    // Kept for UR compatibility: only layers report code locations, and urc has none.
    ur_code_location_callback_t codeloc;
    void *codeloc_data;
    pthread_mutex_t lock; // guards codeloc and codeloc_data
    atomic_uint layers;   // URC_LAYER_* bits asked for with urLoaderConfigEnableLayer
};

static ur_result_t check_config(ur_loader_config_handle_t config, const char *entry_point) {
    if (config->magic == CONFIG_MAGIC)
        return UR_RESULT_SUCCESS;
    return urc_error_wrong_handle(UR_RESULT_ERROR_INVALID_NULL_HANDLE, entry_point,
                                  "hLoaderConfig");
}

// Writers (init, teardown) exclude urAdapterGet, the only reader.
static pthread_rwlock_t state_lock = PTHREAD_RWLOCK_INITIALIZER;
static uint32_t init_count;         // guarded by state_lock
static urc_adapter_list_t adapters; // guarded by state_lock

// Adoption: an outer loader (libsycl's built-in UR loader, UR's libur_loader) given this
// library in UR_ADAPTERS_FORCE_LOAD takes it for an adapter: it calls the table getters and
// then urAdapterGet, never urLoaderInit. A getter called before any urLoaderInit marks the
// library adopted; the first urAdapterGet then initialises it, once,
// and that initialisation is never torn down (the outer loader has no urLoaderTearDown to
// call). An ordinary client, which calls urLoaderInit first, keeps UR's UNINITIALIZED answer.
static atomic_bool ever_initialised;
static atomic_bool adopted;
static bool adopted_init_done; // guarded by state_lock

void urc_loader_tables_requested(void) {
    if (!atomic_load_explicit(&ever_initialised, memory_order_acquire))
        atomic_store_explicit(&adopted, true, memory_order_release);
}

static ur_result_t first_init(ur_loader_config_handle_t config);

/// With state_lock held for writing: the one initialisation an adopted loader gets.
static void init_adopted(void) {
    if (init_count != 0 || adopted_init_done)
        return;
    adopted_init_done = true;
    if (first_init(NULL) == UR_RESULT_SUCCESS) {
        init_count = 1;
        atomic_store_explicit(&ever_initialised, true, memory_order_release);
        URC_LOG(urc_loader_log(), UR_LOGGER_LEVEL_INFO,
                "adopted by another loader (table getters called before urLoaderInit): "
                "initialised on first use with %zu adapter(s)",
                adapters.count);
    }
}

ur_result_t urc_loader_read_begin(const urc_adapter_list_t **list) {
    pthread_rwlock_rdlock(&state_lock);
    if (init_count == 0 && atomic_load_explicit(&adopted, memory_order_acquire)) {
        pthread_rwlock_unlock(&state_lock);
        pthread_rwlock_wrlock(&state_lock);
        init_adopted();
        pthread_rwlock_unlock(&state_lock);
        pthread_rwlock_rdlock(&state_lock);
    }
    if (init_count == 0) {
        pthread_rwlock_unlock(&state_lock);
        return UR_RESULT_ERROR_UNINITIALIZED;
    }
    *list = &adapters;
    return UR_RESULT_SUCCESS;
}

void urc_loader_read_end(void) {
    pthread_rwlock_unlock(&state_lock);
}

// The first initialisation (and the first after a full teardown) reads the environment
// afresh, as UR's loader builds a new context then.
/// urc's layers, as UR lists them (';' between names): the generated parameter checks (always
/// on), tracing, leak and lifetime checking, and full validation (loader/intercept.c).
#define AVAILABLE_LAYERS                                                                           \
    "UR_LAYER_PARAMETER_VALIDATION;UR_LAYER_TRACING;UR_LAYER_LEAK_CHECKING;"                       \
    "UR_LAYER_LIFETIME_VALIDATION;UR_LAYER_FULL_VALIDATION"

static ur_result_t first_init(ur_loader_config_handle_t config) {
    urc_env_reload();
    urc_logger_t *lg = urc_loader_log();
    urc_log_reconfigure(lg);
    urc_layers_start(config != NULL ? atomic_load(&config->layers) : 0);
    bool mock = config != NULL && atomic_load(&config->mock);
    ur_result_t result = urc_discover_adapters(mock, &adapters);
    URC_LOG(lg, UR_LOGGER_LEVEL_INFO, "urLoaderInit: %zu adapter(s) loaded", adapters.count);
    return result;
}

UR_APIEXPORT ur_result_t UR_APICALL urLoaderInit(ur_device_init_flags_t device_flags,
                                                 ur_loader_config_handle_t hLoaderConfig) {
    // The device flags are checked, then ignored, as in UR.
    ur_result_t result = urc_check_loader_init(device_flags, hLoaderConfig);
    if (result != UR_RESULT_SUCCESS)
        return result;
    if (hLoaderConfig != NULL &&
        (result = check_config(hLoaderConfig, "urLoaderInit")) != UR_RESULT_SUCCESS)
        return result;
    pthread_rwlock_wrlock(&state_lock);
    if (init_count == UINT32_MAX) {
        result = UR_RESULT_ERROR_OUT_OF_RESOURCES;
    } else if (init_count == 0) {
        result = first_init(hLoaderConfig);
    }
    // Unlike UR, a failed first initialisation is not counted, so the next call retries.
    if (result == UR_RESULT_SUCCESS) {
        ++init_count;
        atomic_store_explicit(&ever_initialised, true, memory_order_release);
    }
    pthread_rwlock_unlock(&state_lock);
    return result;
}

UR_APIEXPORT ur_result_t UR_APICALL urLoaderTearDown(void) {
    ur_result_t result = urc_check_loader_tear_down();
    if (result != UR_RESULT_SUCCESS)
        return result;
    pthread_rwlock_wrlock(&state_lock);
    if (init_count == 0) {
        result = UR_RESULT_ERROR_UNINITIALIZED;
    } else if (--init_count == 0) {
        // The leak report names what is still alive while the adapters can still be asked.
        urc_layers_stop();
        // Adapter handles the application still holds die with their libraries, as in UR.
        urc_adapter_list_close(&adapters);
    }
    pthread_rwlock_unlock(&state_lock);
    URC_LOG(urc_loader_log(), UR_LOGGER_LEVEL_INFO, "---> urLoaderTearDown() -> %s",
            result == UR_RESULT_SUCCESS ? "UR_RESULT_SUCCESS" : "UR_RESULT_ERROR_UNINITIALIZED");
    return result;
}

UR_APIEXPORT ur_result_t UR_APICALL
urLoaderConfigCreate(ur_loader_config_handle_t *phLoaderConfig) {
    ur_result_t result = urc_check_loader_config_create(phLoaderConfig);
    if (result != UR_RESULT_SUCCESS)
        return result;
    ur_loader_config_handle_t config = URC_NEW(struct ur_loader_config_handle_t_);
    if (config == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    config->magic = CONFIG_MAGIC;
    atomic_init(&config->refcount, 1);
    atomic_init(&config->mock, false);
    atomic_init(&config->layers, 0);
    pthread_mutex_init(&config->lock, NULL);
    *phLoaderConfig = config;
    return UR_RESULT_SUCCESS;
}

UR_APIEXPORT ur_result_t UR_APICALL urLoaderConfigRetain(ur_loader_config_handle_t hLoaderConfig) {
    ur_result_t result = urc_check_loader_config_retain(hLoaderConfig);
    if (result != UR_RESULT_SUCCESS)
        return result;
    if ((result = check_config(hLoaderConfig, "urLoaderConfigRetain")) != UR_RESULT_SUCCESS)
        return result;
    atomic_fetch_add_explicit(&hLoaderConfig->refcount, 1, memory_order_relaxed);
    return UR_RESULT_SUCCESS;
}

UR_APIEXPORT ur_result_t UR_APICALL urLoaderConfigRelease(ur_loader_config_handle_t hLoaderConfig) {
    ur_result_t result = urc_check_loader_config_release(hLoaderConfig);
    if (result != UR_RESULT_SUCCESS)
        return result;
    if ((result = check_config(hLoaderConfig, "urLoaderConfigRelease")) != UR_RESULT_SUCCESS)
        return result;
    if (atomic_fetch_sub_explicit(&hLoaderConfig->refcount, 1, memory_order_acq_rel) == 1) {
        pthread_mutex_destroy(&hLoaderConfig->lock);
        // Parked, not freed: a later call finds magic 0 and is refused (docs/released-handles.md).
        hLoaderConfig->magic = 0;
        urc_quarantine_park(URC_QUARANTINE_OTHER, hLoaderConfig, sizeof *hLoaderConfig,
                            sizeof hLoaderConfig->magic);
    }
    return UR_RESULT_SUCCESS;
}

UR_APIEXPORT ur_result_t UR_APICALL urLoaderConfigGetInfo(ur_loader_config_handle_t hLoaderConfig,
                                                          ur_loader_config_info_t propName,
                                                          size_t propSize, void *pPropValue,
                                                          size_t *pPropSizeRet) {
    ur_result_t result = urc_check_loader_config_get_info(hLoaderConfig, propName, propSize,
                                                          pPropValue, pPropSizeRet);
    if (result != UR_RESULT_SUCCESS)
        return result;
    if ((result = check_config(hLoaderConfig, "urLoaderConfigGetInfo")) != UR_RESULT_SUCCESS)
        return result;
    // UR's loader config wants the exact size.
    const urc_info_t out = {propSize, pPropValue, pPropSizeRet};
    switch (propName) {
    case UR_LOADER_CONFIG_INFO_AVAILABLE_LAYERS:
        return urc_info_exact(&out, AVAILABLE_LAYERS, sizeof AVAILABLE_LAYERS);
    case UR_LOADER_CONFIG_INFO_REFERENCE_COUNT: {
        uint32_t count = atomic_load_explicit(&hLoaderConfig->refcount, memory_order_relaxed);
        return urc_info_exact(&out, &count, sizeof count);
    }
    default:
        return UR_RESULT_ERROR_INVALID_ENUMERATION;
    }
}

UR_APIEXPORT ur_result_t UR_APICALL
urLoaderConfigEnableLayer(ur_loader_config_handle_t hLoaderConfig, const char *pLayerName) {
    ur_result_t result = urc_check_loader_config_enable_layer(hLoaderConfig, pLayerName);
    if (result != UR_RESULT_SUCCESS)
        return result;
    if ((result = check_config(hLoaderConfig, "urLoaderConfigEnableLayer")) != UR_RESULT_SUCCESS)
        return result;
    urc_logger_t *lg = urc_loader_log();
    unsigned bit = urc_layer_bit(pLayerName);
    if (bit != 0) {
        // Full validation is the built-in parameter checks plus leak and lifetime checking;
        // urc has no bounds checking (docs/debugging.md).
        atomic_fetch_or(&hLoaderConfig->layers, bit);
        return UR_RESULT_SUCCESS;
    }
    URC_LOG(lg, UR_LOGGER_LEVEL_INFO, "layer '%s' requested: urc has no such layer", pLayerName);
    return UR_RESULT_ERROR_LAYER_NOT_PRESENT;
}

UR_APIEXPORT ur_result_t UR_APICALL
urLoaderConfigSetCodeLocationCallback(ur_loader_config_handle_t hLoaderConfig,
                                      ur_code_location_callback_t pfnCodeloc, void *pUserData) {
    ur_result_t result =
        urc_check_loader_config_set_code_location_callback(hLoaderConfig, pfnCodeloc, pUserData);
    if (result != UR_RESULT_SUCCESS)
        return result;
    if ((result = check_config(hLoaderConfig, "urLoaderConfigSetCodeLocationCallback")) !=
        UR_RESULT_SUCCESS)
        return result;
    pthread_mutex_lock(&hLoaderConfig->lock);
    hLoaderConfig->codeloc = pfnCodeloc;
    hLoaderConfig->codeloc_data = pUserData;
    pthread_mutex_unlock(&hLoaderConfig->lock);
    return UR_RESULT_SUCCESS;
}

UR_APIEXPORT ur_result_t UR_APICALL
urLoaderConfigSetMockingEnabled(ur_loader_config_handle_t hLoaderConfig, ur_bool_t enable) {
    ur_result_t result = urc_check_loader_config_set_mocking_enabled(hLoaderConfig, enable);
    if (result != UR_RESULT_SUCCESS)
        return result;
    if ((result = check_config(hLoaderConfig, "urLoaderConfigSetMockingEnabled")) !=
        UR_RESULT_SUCCESS)
        return result;
    atomic_store(&hLoaderConfig->mock, enable != 0);
    return UR_RESULT_SUCCESS;
}

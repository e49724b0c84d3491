// SPDX-License-Identifier: MIT
// Contexts: plain objects; allocations and queues name them but nothing is owned by them.
#include "ze_sim_internal.h"
#include "ze_sim_entry.h"

#include <stdlib.h>

static ze_result_t context_new(ze_driver_handle_t hDriver, const ze_context_desc_t *desc,
                               ze_context_handle_t *phContext) {
    ze_result_t r;
    if (!sim_obj(hDriver, SIM_KIND_DRIVER, &r))
        return r;
    if (!desc || !phContext)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    r = sim_inject_take(ZE_SIM_FAIL_CONTEXT_CREATE);
    if (r != ZE_RESULT_SUCCESS)
        return r;
    sim_context_t *ctx = calloc(1, sizeof(*ctx));
    if (!ctx)
        return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    sim_obj_init(&ctx->hdr, SIM_KIND_CONTEXT);
    ctx->flags = desc->flags;
    *phContext = (ze_context_handle_t)ctx;
    return ZE_RESULT_SUCCESS;
}

ze_result_t sim_context_create(ze_driver_handle_t hDriver, const ze_context_desc_t *desc,
                               ze_context_handle_t *phContext) {
    return context_new(hDriver, desc, phContext);
}

ze_result_t sim_context_create_ex(ze_driver_handle_t hDriver, const ze_context_desc_t *desc,
                                  uint32_t numDevices, ze_device_handle_t *phDevices,
                                  ze_context_handle_t *phContext) {
    // The device list only restricts visibility, and there is one device to see.
    if (numDevices && !phDevices)
        return ZE_RESULT_ERROR_INVALID_SIZE;
    for (uint32_t i = 0; i < numDevices; ++i) {
        ze_result_t r;
        if (!sim_obj(phDevices[i], SIM_KIND_DEVICE, &r))
            return r;
    }
    return context_new(hDriver, desc, phContext);
}

ze_result_t sim_context_destroy(ze_context_handle_t hContext) {
    ze_result_t r;
    sim_context_t *ctx = sim_obj(hContext, SIM_KIND_CONTEXT, &r);
    if (!ctx)
        return r;
    // Allocations made through the context stay valid; leak checks find forgotten frees.
    sim_obj_fini(&ctx->hdr);
    free(ctx);
    return ZE_RESULT_SUCCESS;
}

ze_result_t sim_context_get_status(ze_context_handle_t hContext) {
    ze_result_t r;
    sim_obj(hContext, SIM_KIND_CONTEXT, &r);
    return r;
}

ze_result_t sim_context_system_barrier(ze_context_handle_t hContext, ze_device_handle_t hDevice) {
    ze_result_t r;
    if (!sim_obj(hContext, SIM_KIND_CONTEXT, &r) || !sim_obj(hDevice, SIM_KIND_DEVICE, &r))
        return r;
    return ZE_RESULT_SUCCESS;
}

// Residency has no meaning in host memory; the calls only check their arguments.
ze_result_t sim_context_make_memory_resident(ze_context_handle_t hContext,
                                             ze_device_handle_t hDevice, void *ptr, size_t size) {
    (void)size;
    ze_result_t r;
    if (!sim_obj(hContext, SIM_KIND_CONTEXT, &r) || !sim_obj(hDevice, SIM_KIND_DEVICE, &r))
        return r;
    return ptr ? ZE_RESULT_SUCCESS : ZE_RESULT_ERROR_INVALID_NULL_POINTER;
}

ze_result_t sim_context_evict_memory(ze_context_handle_t hContext, ze_device_handle_t hDevice,
                                     void *ptr, size_t size) {
    return sim_context_make_memory_resident(hContext, hDevice, ptr, size);
}

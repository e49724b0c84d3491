// SPDX-License-Identifier: MIT
// Samplers: recorded descriptors only (the simulated kernels do not sample).
#include "ze_sim_internal.h"
#include "ze_sim_entry.h"

#include <stdlib.h>

typedef struct sim_sampler {
    sim_header_t hdr;
    ze_sampler_desc_t desc;
} sim_sampler_t;

ze_result_t sim_sampler_create(ze_context_handle_t hContext, ze_device_handle_t hDevice,
                               const ze_sampler_desc_t *desc, ze_sampler_handle_t *phSampler) {
    ze_result_t r;
    if (!sim_obj(hContext, SIM_KIND_CONTEXT, &r) || !sim_obj(hDevice, SIM_KIND_DEVICE, &r))
        return r;
    if (!desc || !phSampler)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    if ((uint32_t)desc->addressMode > ZE_SAMPLER_ADDRESS_MODE_MIRROR ||
        (uint32_t)desc->filterMode > ZE_SAMPLER_FILTER_MODE_LINEAR)
        return ZE_RESULT_ERROR_INVALID_ENUMERATION;
    sim_sampler_t *s = calloc(1, sizeof(*s));
    if (!s)
        return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    sim_obj_init(&s->hdr, SIM_KIND_SAMPLER);
    s->desc = *desc;
    s->desc.pNext = NULL;
    *phSampler = (ze_sampler_handle_t)s;
    return ZE_RESULT_SUCCESS;
}

ze_result_t sim_sampler_destroy(ze_sampler_handle_t hSampler) {
    ze_result_t r;
    sim_sampler_t *s = sim_obj(hSampler, SIM_KIND_SAMPLER, &r);
    if (!s)
        return r;
    sim_obj_fini(&s->hdr);
    free(s);
    return ZE_RESULT_SUCCESS;
}

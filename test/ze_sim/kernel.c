// SPDX-License-Identifier: MIT
// Kernels: the state a launch captures (group size, offsets, argument bytes). Nothing runs.
#include "ze_sim_internal.h"
#include "ze_sim_entry.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Kernel names are unique across a module's inputs (module_index refuses duplicates).
static const sim_spv_kernel_t *find_kernel(const sim_module_t *m, const char *name) {
    for (uint32_t u = 0; u < m->num_units; ++u)
        for (uint32_t k = 0; k < m->units[u]->num_kernels; ++k)
            if (strcmp(m->units[u]->kernels[k].name, name) == 0)
                return &m->units[u]->kernels[k];
    return NULL;
}

// What zeKernelGetSourceAttributes reports, in the OpenCL attribute spelling.
static char *make_attributes(const sim_spv_kernel_t *info) {
    sim_text_t t = {0};
    if (info->local_size[0])
        sim_text_printf(&t, "reqd_work_group_size(%u,%u,%u)", info->local_size[0],
                        info->local_size[1], info->local_size[2]);
    if (info->subgroup_size)
        sim_text_printf(&t, "%sintel_reqd_sub_group_size(%u)", t.len ? " " : "",
                        info->subgroup_size);
    return sim_text_take(&t);
}

ze_result_t sim_kernel_create(ze_module_handle_t hModule, const ze_kernel_desc_t *desc,
                              ze_kernel_handle_t *phKernel) {
    ze_result_t r;
    sim_module_t *m = sim_obj(hModule, SIM_KIND_MODULE, &r);
    if (!m)
        return r;
    if (!desc || !phKernel || !desc->pKernelName)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    if ((r = sim_inject_take(ZE_SIM_FAIL_KERNEL_CREATE)) != ZE_RESULT_SUCCESS)
        return r;
    const sim_spv_kernel_t *info = find_kernel(m, desc->pKernelName);
    if (!info)
        return ZE_RESULT_ERROR_INVALID_KERNEL_NAME;
    sim_kernel_t *k = calloc(1, sizeof(*k));
    if (!k)
        return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    k->args = calloc(info->num_args ? info->num_args : 1, sizeof(*k->args));
    k->attributes = make_attributes(info);
    if (!k->args || !k->attributes || pthread_mutex_init(&k->lock, NULL)) {
        free(k->args);
        free(k->attributes);
        free(k);
        return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    sim_obj_init(&k->hdr, SIM_KIND_KERNEL);
    k->module = m;
    atomic_fetch_add(&m->refs, 1); // the module's storage must outlive its kernels
    k->info = info;
    // Until zeKernelSetGroupSize: the required size if the kernel has one, else 1x1x1.
    for (int d = 0; d < 3; ++d)
        k->group_size[d] = info->local_size[0] ? info->local_size[d] : 1;
    *phKernel = (ze_kernel_handle_t)k;
    return ZE_RESULT_SUCCESS;
}

ze_result_t sim_kernel_destroy(ze_kernel_handle_t hKernel) {
    ze_result_t r;
    sim_kernel_t *k = sim_obj(hKernel, SIM_KIND_KERNEL, &r);
    if (!k)
        return r;
    sim_obj_fini(&k->hdr);
    for (uint32_t i = 0; i < k->info->num_args; ++i)
        free(k->args[i].value);
    free(k->args);
    free(k->attributes);
    pthread_mutex_destroy(&k->lock);
    sim_module_release(k->module);
    free(k);
    return ZE_RESULT_SUCCESS;
}

ze_result_t sim_kernel_set_cache_config(ze_kernel_handle_t hKernel, ze_cache_config_flags_t flags) {
    ze_result_t r;
    sim_kernel_t *k = sim_obj(hKernel, SIM_KIND_KERNEL, &r);
    if (!k)
        return r;
    if (flags & ~(ze_cache_config_flags_t)(ZE_CACHE_CONFIG_FLAG_LARGE_SLM |
                                           ZE_CACHE_CONFIG_FLAG_LARGE_DATA))
        return ZE_RESULT_ERROR_INVALID_ENUMERATION;
    pthread_mutex_lock(&k->lock);
    k->cache_config = flags;
    pthread_mutex_unlock(&k->lock);
    return ZE_RESULT_SUCCESS;
}

ze_result_t sim_kernel_set_group_size(ze_kernel_handle_t hKernel, uint32_t groupSizeX,
                                      uint32_t groupSizeY, uint32_t groupSizeZ) {
    ze_result_t r;
    sim_kernel_t *k = sim_obj(hKernel, SIM_KIND_KERNEL, &r);
    if (!k)
        return r;
    const uint32_t *req = k->info->local_size;
    // The limits are those zeDeviceGetComputeProperties reports.
    if (groupSizeX == 0 || groupSizeY == 0 || groupSizeZ == 0 || groupSizeX > SIM_MAX_GROUP_SIZE ||
        groupSizeY > SIM_MAX_GROUP_SIZE || groupSizeZ > SIM_MAX_GROUP_SIZE_Z ||
        (uint64_t)groupSizeX * groupSizeY * groupSizeZ > SIM_MAX_GROUP_SIZE)
        return ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION;
    // A kernel compiled for a required size accepts only that size.
    if (req[0] && (groupSizeX != req[0] || groupSizeY != req[1] || groupSizeZ != req[2]))
        return ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION;
    pthread_mutex_lock(&k->lock);
    k->group_size[0] = groupSizeX;
    k->group_size[1] = groupSizeY;
    k->group_size[2] = groupSizeZ;
    pthread_mutex_unlock(&k->lock);
    return ZE_RESULT_SUCCESS;
}

// Largest divisor of n that is at most cap (n > 0, cap > 0).
// Linear in cap (at most 1024), which is cheap next to any real launch.
static uint32_t largest_divisor(uint32_t n, uint32_t cap) {
    for (uint32_t d = cap < n ? cap : n; d > 1; --d)
        if (n % d == 0)
            return d;
    return 1;
}

ze_result_t sim_kernel_suggest_group_size(ze_kernel_handle_t hKernel, uint32_t globalSizeX,
                                          uint32_t globalSizeY, uint32_t globalSizeZ,
                                          uint32_t *groupSizeX, uint32_t *groupSizeY,
                                          uint32_t *groupSizeZ) {
    ze_result_t r;
    sim_kernel_t *k = sim_obj(hKernel, SIM_KIND_KERNEL, &r);
    if (!k)
        return r;
    if (!groupSizeX || !groupSizeY || !groupSizeZ)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    if (globalSizeX == 0 || globalSizeY == 0 || globalSizeZ == 0)
        return ZE_RESULT_ERROR_INVALID_GLOBAL_WIDTH_DIMENSION;
    const uint32_t *req = k->info->local_size;
    if (req[0]) {
        *groupSizeX = req[0];
        *groupSizeY = req[1];
        *groupSizeZ = req[2];
        return ZE_RESULT_SUCCESS;
    }
    // Sizes that divide the global size exactly, filling X first, within the device limits.
    uint32_t x = largest_divisor(globalSizeX, SIM_MAX_GROUP_SIZE);
    uint32_t y = largest_divisor(globalSizeY, SIM_MAX_GROUP_SIZE / x);
    uint32_t zcap = SIM_MAX_GROUP_SIZE / (x * y);
    uint32_t z =
        largest_divisor(globalSizeZ, zcap < SIM_MAX_GROUP_SIZE_Z ? zcap : SIM_MAX_GROUP_SIZE_Z);
    *groupSizeX = x;
    *groupSizeY = y;
    *groupSizeZ = z;
    return ZE_RESULT_SUCCESS;
}

ze_result_t sim_kernel_suggest_max_cooperative_group_count(ze_kernel_handle_t hKernel,
                                                           uint32_t *totalGroupCount) {
    ze_result_t r;
    sim_kernel_t *k = sim_obj(hKernel, SIM_KIND_KERNEL, &r);
    if (!k)
        return r;
    if (!totalGroupCount)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    // 64 EUs x 8 threads; a group needs one hardware thread per 8 work-items (SIMD8).
    pthread_mutex_lock(&k->lock);
    uint32_t items = k->group_size[0] * k->group_size[1] * k->group_size[2];
    pthread_mutex_unlock(&k->lock);
    *totalGroupCount = 512u / ((items + 7u) / 8u);
    return ZE_RESULT_SUCCESS;
}

ze_result_t sim_kernel_set_argument_value(ze_kernel_handle_t hKernel, uint32_t argIndex,
                                          size_t argSize, const void *pArgValue) {
    ze_result_t r;
    sim_kernel_t *k = sim_obj(hKernel, SIM_KIND_KERNEL, &r);
    if (!k)
        return r;
    if (argIndex >= k->info->num_args)
        return ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX;
    // Sizes come from the SPIR-V parameter types; local-memory arguments take any size.
    uint32_t expected = k->info->arg_size[argIndex];
    if (!k->info->arg_local[argIndex] && expected && argSize != expected)
        return ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE;
    // The value is copied now, as Level Zero requires: the caller may reuse its buffer.
    unsigned char *copy = NULL;
    if (pArgValue) {
        if (!(copy = malloc(argSize ? argSize : 1)))
            return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
        memcpy(copy, pArgValue, argSize);
    }
    pthread_mutex_lock(&k->lock);
    sim_arg_t *a = &k->args[argIndex];
    free(a->value);
    // NULL means a local-memory size or a null pointer; both are recorded as such.
    *a = (sim_arg_t){1, pArgValue == NULL, argSize, copy};
    pthread_mutex_unlock(&k->lock);
    return ZE_RESULT_SUCCESS;
}

ze_result_t sim_kernel_set_indirect_access(ze_kernel_handle_t hKernel,
                                           ze_kernel_indirect_access_flags_t flags) {
    ze_result_t r;
    sim_kernel_t *k = sim_obj(hKernel, SIM_KIND_KERNEL, &r);
    if (!k)
        return r;
    if (flags & ~(ze_kernel_indirect_access_flags_t)0x7)
        return ZE_RESULT_ERROR_INVALID_ENUMERATION;
    pthread_mutex_lock(&k->lock);
    k->indirect = flags;
    pthread_mutex_unlock(&k->lock);
    return ZE_RESULT_SUCCESS;
}

ze_result_t sim_kernel_get_indirect_access(ze_kernel_handle_t hKernel,
                                           ze_kernel_indirect_access_flags_t *pFlags) {
    ze_result_t r;
    sim_kernel_t *k = sim_obj(hKernel, SIM_KIND_KERNEL, &r);
    if (!k)
        return r;
    if (!pFlags)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    pthread_mutex_lock(&k->lock);
    *pFlags = k->indirect;
    pthread_mutex_unlock(&k->lock);
    return ZE_RESULT_SUCCESS;
}

ze_result_t sim_kernel_get_source_attributes(ze_kernel_handle_t hKernel, uint32_t *pSize,
                                             char **pString) {
    ze_result_t r;
    sim_kernel_t *k = sim_obj(hKernel, SIM_KIND_KERNEL, &r);
    if (!k)
        return r;
    if (!pSize)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    uint32_t need = (uint32_t)strlen(k->attributes) + 1;
    // Callers either pass their own buffer in *pString or take the kernel-owned string.
    if (pString && *pString && *pSize) {
        uint32_t n = *pSize < need ? *pSize - 1 : need - 1;
        memcpy(*pString, k->attributes, n);
        (*pString)[n] = '\0';
    } else if (pString) {
        *pString = k->attributes;
    }
    *pSize = need;
    return ZE_RESULT_SUCCESS;
}

ze_result_t sim_kernel_get_properties(ze_kernel_handle_t hKernel, ze_kernel_properties_t *props) {
    ze_result_t r;
    sim_kernel_t *k = sim_obj(hKernel, SIM_KIND_KERNEL, &r);
    if (!k)
        return r;
    if (!props)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    const sim_spv_kernel_t *info = k->info;
    props->numKernelArgs = info->num_args;
    props->requiredGroupSizeX = info->local_size[0];
    props->requiredGroupSizeY = info->local_size[1];
    props->requiredGroupSizeZ = info->local_size[2];
    props->requiredNumSubGroups = 0;
    props->requiredSubgroupSize = info->subgroup_size;
    props->maxSubgroupSize = SIM_MAX_SUBGROUP;
    // The smallest sub-group size (8) gives the most sub-groups per group.
    props->maxNumSubgroups = SIM_MAX_GROUP_SIZE / 8;
    props->localMemSize = 0;
    props->privateMemSize = 0;
    props->spillMemSize = 0;
    // Kernel id: FNV-1a of the name; module id: the module's address. Stable and distinct.
    uint64_t h = 1469598103934665603ull;
    for (const char *c = info->name; *c; ++c)
        h = (h ^ (unsigned char)*c) * 1099511628211ull;
    uintptr_t mid = (uintptr_t)k->module;
    memset(&props->uuid, 0, sizeof(props->uuid));
    memcpy(props->uuid.kid, &h, sizeof(h));
    memcpy(props->uuid.mid, &mid, sizeof(mid));
    // Sixteen, the middle sub-group size, as a multiple that suits every supported size.
    ze_kernel_preferred_group_size_properties_t *pref =
        sim_find_ext(props->pNext, ZE_STRUCTURE_TYPE_KERNEL_PREFERRED_GROUP_SIZE_PROPERTIES);
    if (pref)
        pref->preferredMultiple = 16;
    return ZE_RESULT_SUCCESS;
}

ze_result_t sim_kernel_get_name(ze_kernel_handle_t hKernel, size_t *pSize, char *pName) {
    ze_result_t r;
    sim_kernel_t *k = sim_obj(hKernel, SIM_KIND_KERNEL, &r);
    if (!k)
        return r;
    if (!pSize)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    size_t need = strlen(k->info->name) + 1;
    if (pName && *pSize) {
        size_t n = *pSize < need ? *pSize - 1 : need - 1;
        memcpy(pName, k->info->name, n);
        pName[n] = '\0';
    }
    *pSize = need;
    return ZE_RESULT_SUCCESS;
}

ze_result_t sim_kernel_set_global_offset_exp(ze_kernel_handle_t hKernel, uint32_t offsetX,
                                             uint32_t offsetY, uint32_t offsetZ) {
    ze_result_t r;
    sim_kernel_t *k = sim_obj(hKernel, SIM_KIND_KERNEL, &r);
    if (!k)
        return r;
    pthread_mutex_lock(&k->lock);
    k->global_offset[0] = offsetX;
    k->global_offset[1] = offsetY;
    k->global_offset[2] = offsetZ;
    pthread_mutex_unlock(&k->lock);
    return ZE_RESULT_SUCCESS;
}

ze_result_t sim_kernel_scheduling_hint_exp(ze_kernel_handle_t hKernel,
                                           ze_scheduling_hint_exp_desc_t *pHint) {
    ze_result_t r;
    sim_kernel_t *k = sim_obj(hKernel, SIM_KIND_KERNEL, &r);
    if (!k)
        return r;
    if (!pHint)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    if (pHint->flags & ~(ze_scheduling_hint_exp_flags_t)0x7)
        return ZE_RESULT_ERROR_INVALID_ENUMERATION;
    pthread_mutex_lock(&k->lock);
    k->hint = pHint->flags;
    pthread_mutex_unlock(&k->lock);
    return ZE_RESULT_SUCCESS;
}

ze_result_t sim_kernel_snapshot(ze_kernel_handle_t hKernel, sim_launch_t *out) {
    sim_kernel_t *k = (sim_kernel_t *)hKernel;
    memset(out, 0, sizeof(*out));
    pthread_mutex_lock(&k->module->lock);
    uint32_t unresolved = k->module->unresolved;
    pthread_mutex_unlock(&k->module->lock);
    // Launching code that calls an import nobody provided cannot work on a real device either.
    if (unresolved)
        return ZE_RESULT_ERROR_INVALID_MODULE_UNLINKED;
    // The name is copied so the launch outlives the kernel and its module.
    uint32_t n = k->info->num_args;
    out->kernel_name = sim_strdup(k->info->name);
    out->args = calloc(n ? n : 1, sizeof(*out->args));
    if (!out->kernel_name || !out->args)
        goto oom;
    out->num_args = n;
    pthread_mutex_lock(&k->lock);
    memcpy(out->group_size, k->group_size, sizeof(out->group_size));
    memcpy(out->global_offset, k->global_offset, sizeof(out->global_offset));
    for (uint32_t i = 0; i < n; ++i) {
        out->args[i] = k->args[i];
        out->args[i].value = NULL;
        if (!k->args[i].value)
            continue;
        if (!(out->args[i].value = malloc(k->args[i].size ? k->args[i].size : 1))) {
            pthread_mutex_unlock(&k->lock);
            goto oom;
        }
        memcpy(out->args[i].value, k->args[i].value, k->args[i].size);
    }
    pthread_mutex_unlock(&k->lock);
    return ZE_RESULT_SUCCESS;
oom:
    sim_launch_fini(out);
    return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
}

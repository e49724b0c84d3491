// SPDX-License-Identifier: MIT
// urKernel* and urEnqueueKernelLaunchWithArgsExp. A UR kernel holds one Level Zero kernel per
// device its program is built for. In Level Zero the arguments, group size and global offset
// are state of the kernel object, captured when the launch is appended, so a launch sets them
// and appends under the kernel's lock: two threads may launch one kernel at once.
#include <stdio.h>
#include <stdlib.h>

#include "l0_internal.h"
#include "queue/launch.h"
#include "core/pnext.h"
#include "core/release.h"

static void kernel_destroy(l0_kernel_t *k) {
    for (uint32_t i = 0; i < k->ndevs; ++i)
        if (k->ze[i] != NULL && (!k->interop || k->owns_native))
            (void)l0_ok(zeKernelDestroy(k->ze[i]), "zeKernelDestroy");
    free(k->ze);
    free(k->devs);
    free(k->name);
    pthread_mutex_destroy(&k->lock);
    l0_program_release_internal(k->program);
    URC_OBJECT_FREE(k);
}

static l0_kernel_t *kernel_new(l0_program_t *p) {
    l0_kernel_t *k = URC_NEW(l0_kernel_t);
    if (k == NULL)
        return NULL;
    k->ze = urc_calloc(p->ndevs, sizeof *k->ze);
    k->devs = urc_calloc(p->ndevs, sizeof *k->devs);
    if (k->ze == NULL || k->devs == NULL) {
        free(k->ze);
        free(k->devs);
        free(k);
        return NULL;
    }
    k->ndevs = p->ndevs;
    for (uint32_t i = 0; i < p->ndevs; ++i)
        k->devs[i] = p->devs[i].dev;
    k->program = p;
    k->props.stype = ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES;
    pthread_mutex_init(&k->lock, NULL);
    urc_object_init(&k->obj, &l0_ddi, URC_KIND_KERNEL);
    l0_program_retain_internal(p);
    return k;
}

// The device's Level Zero kernel, or NULL when the program is not built for it.
static ze_kernel_handle_t kernel_for(const l0_kernel_t *k, const l0_device_t *dev) {
    for (uint32_t i = 0; i < k->ndevs; ++i)
        if (k->devs[i] == dev || k->devs[i] == dev->parent)
            return k->ze[i];
    return NULL;
}

static ze_kernel_handle_t first_kernel(const l0_kernel_t *k) {
    for (uint32_t i = 0; i < k->ndevs; ++i)
        if (k->ze[i] != NULL)
            return k->ze[i];
    return NULL;
}

ur_result_t l0_kernel_create(ur_program_handle_t hProgram, const char *pKernelName,
                             ur_kernel_handle_t *phKernel) {
    l0_program_t *p = L0_PROGRAM(hProgram);
    l0_kernel_t *k = kernel_new(p);
    if (k == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    k->name = urc_strdup(pKernelName);
    ur_result_t res = k->name != NULL ? UR_RESULT_SUCCESS : UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    uint32_t made = 0;
    for (uint32_t i = 0; res == UR_RESULT_SUCCESS && i < k->ndevs; ++i) {
        ze_module_handle_t module;
        if (!l0_program_module(p, k->devs[i], &module, NULL))
            continue;
        ze_kernel_desc_t desc = {ZE_STRUCTURE_TYPE_KERNEL_DESC, NULL, 0, pKernelName};
        ze_result_t r = zeKernelCreate(module, &desc, &k->ze[i]);
        if (r == ZE_RESULT_ERROR_INVALID_KERNEL_NAME)
            res = urc_error_set(UR_RESULT_ERROR_INVALID_KERNEL_NAME, (int32_t)r,
                                "no kernel \"%s\" in the program", pKernelName);
        else
            res = l0_ok(r, "zeKernelCreate");
        made += res == UR_RESULT_SUCCESS;
    }
    if (res == UR_RESULT_SUCCESS && made == 0)
        res = urc_error_set(UR_RESULT_ERROR_INVALID_PROGRAM_EXECUTABLE, 0,
                            "kernel \"%s\": the program is not built", pKernelName);
    if (res == UR_RESULT_SUCCESS)
        res = l0_ok(zeKernelGetProperties(first_kernel(k), &k->props), "zeKernelGetProperties");
    if (res != UR_RESULT_SUCCESS) {
        kernel_destroy(k);
        return res;
    }
    *phKernel = (ur_kernel_handle_t)k;
    return UR_RESULT_SUCCESS;
}

void l0_kernel_release_internal(l0_kernel_t *k) {
    if (urc_unhold(&k->obj))
        kernel_destroy(k);
}

URC_RETAIN_RELEASE(l0_kernel, ur_kernel_handle_t, L0_KERNEL, UR_RESULT_ERROR_INVALID_KERNEL,
                   "urKernelRelease", kernel_destroy)

ur_result_t l0_kernel_get_info(ur_kernel_handle_t hKernel, ur_kernel_info_t propName,
                               size_t propSize, void *pPropValue, size_t *pPropSizeRet) {
    l0_kernel_t *k = L0_KERNEL(hKernel);
    const urc_info_t out = {propSize, pPropValue, pPropSizeRet};
    switch (propName) {
    case UR_KERNEL_INFO_FUNCTION_NAME:
        return urc_info_string(&out, k->name != NULL ? k->name : "");
    case UR_KERNEL_INFO_NUM_ARGS:
        return urc_info_u32(&out, k->props.numKernelArgs);
    case UR_KERNEL_INFO_REFERENCE_COUNT:
        return urc_info_u32(&out, urc_refcount(&k->obj));
    case UR_KERNEL_INFO_CONTEXT:
        return urc_info_ptr(&out, k->program->ctx);
    case UR_KERNEL_INFO_PROGRAM:
        return urc_info_ptr(&out, k->program);
    case UR_KERNEL_INFO_ATTRIBUTES: {
        uint32_t size = 0;
        char *text = NULL;
        // The kernel owns the string the driver hands back.
        ur_result_t res = l0_ok(zeKernelGetSourceAttributes(first_kernel(k), &size, &text),
                                "zeKernelGetSourceAttributes");
        if (res != UR_RESULT_SUCCESS)
            return res;
        return urc_info_string(&out, text != NULL ? text : "");
    }
    case UR_KERNEL_INFO_SPILL_MEM_SIZE: {
        uint32_t spill[64];
        uint32_t n = 0;
        for (uint32_t i = 0; i < k->ndevs && n < 64; ++i) {
            ze_kernel_properties_t props = {.stype = ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES};
            if (k->ze[i] == NULL)
                continue;
            ur_result_t res =
                l0_ok(zeKernelGetProperties(k->ze[i], &props), "zeKernelGetProperties");
            if (res != UR_RESULT_SUCCESS)
                return res;
            spill[n++] = props.spillMemSize;
        }
        return urc_info_bytes(&out, spill, n * sizeof spill[0]);
    }
    case UR_KERNEL_INFO_NUM_REGS:
        return UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION; // Level Zero does not report registers
    default:
        return UR_RESULT_ERROR_INVALID_ENUMERATION;
    }
}

ur_result_t l0_kernel_get_group_info(ur_kernel_handle_t hKernel, ur_device_handle_t hDevice,
                                     ur_kernel_group_info_t propName, size_t propSize,
                                     void *pPropValue, size_t *pPropSizeRet) {
    l0_kernel_t *k = L0_KERNEL(hKernel);
    const l0_device_t *dev = L0_DEVICE(hDevice);
    ze_kernel_handle_t zk = kernel_for(k, dev);
    if (zk == NULL)
        return UR_RESULT_ERROR_INVALID_DEVICE;
    const ze_device_compute_properties_t *c = &dev->compute;
    const urc_info_t out = {propSize, pPropValue, pPropSizeRet};
    switch (propName) {
    case UR_KERNEL_GROUP_INFO_GLOBAL_WORK_SIZE: {
        size_t v[3] = {(size_t)c->maxGroupSizeX * c->maxGroupCountX,
                       (size_t)c->maxGroupSizeY * c->maxGroupCountY,
                       (size_t)c->maxGroupSizeZ * c->maxGroupCountZ};
        return urc_info_bytes(&out, v, sizeof v);
    }
    case UR_KERNEL_GROUP_INFO_WORK_GROUP_SIZE:
        return urc_info_size(&out, c->maxTotalGroupSize);
    case UR_KERNEL_GROUP_INFO_COMPILE_WORK_GROUP_SIZE: {
        size_t v[3] = {k->props.requiredGroupSizeX, k->props.requiredGroupSizeY,
                       k->props.requiredGroupSizeZ};
        return urc_info_bytes(&out, v, sizeof v);
    }
    case UR_KERNEL_GROUP_INFO_LOCAL_MEM_SIZE:
        return urc_info_size(&out, k->props.localMemSize);
    case UR_KERNEL_GROUP_INFO_PREFERRED_WORK_GROUP_SIZE_MULTIPLE: {
        // The driver's own preference where it has one, else the SIMD width (UR's answer).
        ze_kernel_preferred_group_size_properties_t pref = {
            ZE_STRUCTURE_TYPE_KERNEL_PREFERRED_GROUP_SIZE_PROPERTIES, NULL, 0};
        ze_kernel_properties_t props = {.stype = ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES,
                                        .pNext = &pref};
        if (zeKernelGetProperties(zk, &props) == ZE_RESULT_SUCCESS && pref.preferredMultiple != 0)
            return urc_info_size(&out, pref.preferredMultiple);
        return urc_info_size(&out, dev->props.physicalEUSimdWidth);
    }
    case UR_KERNEL_GROUP_INFO_PRIVATE_MEM_SIZE:
        return urc_info_size(&out, k->props.privateMemSize);
    case UR_KERNEL_GROUP_INFO_COMPILE_MAX_WORK_GROUP_SIZE:
    case UR_KERNEL_GROUP_INFO_COMPILE_MAX_LINEAR_WORK_GROUP_SIZE:
        return UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION; // no Level Zero equivalent (as in UR)
    default:
        return UR_RESULT_ERROR_INVALID_ENUMERATION;
    }
}

ur_result_t l0_kernel_get_sub_group_info(ur_kernel_handle_t hKernel, ur_device_handle_t hDevice,
                                         ur_kernel_sub_group_info_t propName, size_t propSize,
                                         void *pPropValue, size_t *pPropSizeRet) {
    (void)hDevice;
    const ze_kernel_properties_t *p = &L0_KERNEL(hKernel)->props;
    const urc_info_t out = {propSize, pPropValue, pPropSizeRet};
    switch (propName) {
    case UR_KERNEL_SUB_GROUP_INFO_MAX_SUB_GROUP_SIZE:
        return urc_info_u32(&out, p->maxSubgroupSize);
    case UR_KERNEL_SUB_GROUP_INFO_MAX_NUM_SUB_GROUPS:
        return urc_info_u32(&out, p->maxNumSubgroups);
    case UR_KERNEL_SUB_GROUP_INFO_COMPILE_NUM_SUB_GROUPS:
        return urc_info_u32(&out, p->requiredNumSubGroups);
    case UR_KERNEL_SUB_GROUP_INFO_SUB_GROUP_SIZE_INTEL:
        return urc_info_u32(&out, p->requiredSubgroupSize);
    default:
        return UR_RESULT_ERROR_INVALID_ENUMERATION;
    }
}

ur_result_t l0_kernel_set_exec_info(ur_kernel_handle_t hKernel, ur_kernel_exec_info_t propName,
                                    size_t propSize,
                                    const ur_kernel_exec_info_properties_t *pProperties,
                                    const void *pPropValue) {
    (void)propSize;
    (void)pProperties;
    l0_kernel_t *k = L0_KERNEL(hKernel);
    ur_result_t res = UR_RESULT_SUCCESS;
    pthread_mutex_lock(&k->lock);
    for (uint32_t i = 0; res == UR_RESULT_SUCCESS && i < k->ndevs; ++i) {
        if (k->ze[i] == NULL)
            continue;
        switch (propName) {
        case UR_KERNEL_EXEC_INFO_USM_INDIRECT_ACCESS:
            // SYCL cannot know which kinds a kernel reaches indirectly, so all three are set.
            if (*(const ur_bool_t *)pPropValue)
                res = l0_ok(
                    zeKernelSetIndirectAccess(k->ze[i], ZE_KERNEL_INDIRECT_ACCESS_FLAG_HOST |
                                                            ZE_KERNEL_INDIRECT_ACCESS_FLAG_DEVICE |
                                                            ZE_KERNEL_INDIRECT_ACCESS_FLAG_SHARED),
                    "zeKernelSetIndirectAccess");
            break;
        case UR_KERNEL_EXEC_INFO_USM_PTRS:
            break; // indirect access above covers every allocation
        case UR_KERNEL_EXEC_INFO_CACHE_CONFIG: {
            ur_kernel_cache_config_t cfg = *(const ur_kernel_cache_config_t *)pPropValue;
            ze_cache_config_flags_t flags = 0;
            if (cfg == UR_KERNEL_CACHE_CONFIG_LARGE_SLM)
                flags = ZE_CACHE_CONFIG_FLAG_LARGE_SLM;
            else if (cfg == UR_KERNEL_CACHE_CONFIG_LARGE_DATA)
                flags = ZE_CACHE_CONFIG_FLAG_LARGE_DATA;
            else if (cfg != UR_KERNEL_CACHE_CONFIG_DEFAULT)
                res = UR_RESULT_ERROR_INVALID_VALUE;
            if (res == UR_RESULT_SUCCESS)
                res = l0_ok(zeKernelSetCacheConfig(k->ze[i], flags), "zeKernelSetCacheConfig");
            break;
        }
        default:
            res = UR_RESULT_ERROR_INVALID_ENUMERATION;
            break;
        }
    }
    pthread_mutex_unlock(&k->lock);
    return res;
}

ur_result_t l0_kernel_get_native_handle(ur_kernel_handle_t hKernel,
                                        ur_native_handle_t *phNativeKernel) {
    *phNativeKernel = (ur_native_handle_t)first_kernel(L0_KERNEL(hKernel));
    return UR_RESULT_SUCCESS;
}

// The native kernel serves the program's first device.
ur_result_t l0_kernel_create_with_native_handle(ur_native_handle_t hNativeKernel,
                                                ur_context_handle_t hContext,
                                                ur_program_handle_t hProgram,
                                                const ur_kernel_native_properties_t *pProperties,
                                                ur_kernel_handle_t *phKernel) {
    (void)hContext; // checked by the generated wrapper
    if (!l0_is(hProgram, URC_KIND_PROGRAM))
        return urc_error_set(UR_RESULT_ERROR_INVALID_PROGRAM, 0,
                             "a Level Zero kernel needs its program");
    if (hNativeKernel == 0)
        return UR_RESULT_ERROR_INVALID_NULL_HANDLE;
    l0_kernel_t *k = kernel_new(L0_PROGRAM(hProgram));
    if (k == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    k->ze[0] = (ze_kernel_handle_t)hNativeKernel;
    k->interop = true;
    k->owns_native = pProperties != NULL && pProperties->isNativeHandleOwned;
    size_t size = 0;
    ur_result_t res = l0_ok(zeKernelGetName(k->ze[0], &size, NULL), "zeKernelGetName");
    if (res == UR_RESULT_SUCCESS && (k->name = calloc(size + 1, 1)) == NULL)
        res = UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    if (res == UR_RESULT_SUCCESS)
        res = l0_ok(zeKernelGetName(k->ze[0], &size, k->name), "zeKernelGetName");
    if (res == UR_RESULT_SUCCESS)
        res = l0_ok(zeKernelGetProperties(k->ze[0], &k->props), "zeKernelGetProperties");
    if (res != UR_RESULT_SUCCESS) {
        kernel_destroy(k);
        return res;
    }
    *phKernel = (ur_kernel_handle_t)k;
    return UR_RESULT_SUCCESS;
}

// ---- work-group sizes ----

// The driver's suggestion when the global size fits its 32-bit interface; else, per dimension,
// the largest divisor of the global size the device allows (UR's fallback).
static ur_result_t suggest(ze_kernel_handle_t zk, const l0_device_t *dev, const size_t g[3],
                           uint32_t wg[3]) {
    if (g[0] <= UINT32_MAX && g[1] <= UINT32_MAX && g[2] <= UINT32_MAX)
        return l0_ok(zeKernelSuggestGroupSize(zk, (uint32_t)g[0], (uint32_t)g[1], (uint32_t)g[2],
                                              &wg[0], &wg[1], &wg[2]),
                     "zeKernelSuggestGroupSize");
    const uint32_t max[3] = {dev->compute.maxGroupSizeX, dev->compute.maxGroupSizeY,
                             dev->compute.maxGroupSizeZ};
    for (int i = 0; i < 3; ++i) {
        size_t s = g[i] < max[i] ? g[i] : max[i];
        while (s > 1 && g[i] % s != 0)
            --s;
        wg[i] = (uint32_t)(s == 0 ? 1 : s);
    }
    return UR_RESULT_SUCCESS;
}

static ur_result_t kernel_and_queue(ur_kernel_handle_t hKernel, ur_queue_handle_t hQueue,
                                    l0_kernel_t **k, l0_queue_t **q, ze_kernel_handle_t *zk) {
    if (!l0_is(hKernel, URC_KIND_KERNEL))
        return UR_RESULT_ERROR_INVALID_KERNEL;
    if (!l0_is(hQueue, URC_KIND_QUEUE))
        return UR_RESULT_ERROR_INVALID_QUEUE;
    *k = L0_KERNEL(hKernel);
    *q = L0_QUEUE(hQueue);
    if ((*k)->program->ctx != (*q)->ctx)
        return urc_error_set(UR_RESULT_ERROR_INVALID_CONTEXT, 0,
                             "the kernel and the queue belong to different contexts");
    *zk = kernel_for(*k, (*q)->dev);
    if (*zk == NULL)
        return urc_error_set(UR_RESULT_ERROR_INVALID_KERNEL, 0,
                             "kernel \"%s\" is not built for the queue's device", (*k)->name);
    return UR_RESULT_SUCCESS;
}

ur_result_t l0_kernel_get_suggested_local_work_size(ur_kernel_handle_t hKernel,
                                                    ur_queue_handle_t hQueue, uint32_t numWorkDim,
                                                    const size_t *pGlobalWorkOffset,
                                                    const size_t *pGlobalWorkSize,
                                                    size_t *pSuggestedLocalWorkSize) {
    (void)pGlobalWorkOffset;
    l0_kernel_t *k;
    l0_queue_t *q;
    ze_kernel_handle_t zk;
    ur_result_t res = kernel_and_queue(hKernel, hQueue, &k, &q, &zk);
    if (res != UR_RESULT_SUCCESS)
        return res;
    if (numWorkDim < 1 || numWorkDim > 3)
        return UR_RESULT_ERROR_INVALID_WORK_DIMENSION;
    size_t g[3] = {1, 1, 1};
    for (uint32_t i = 0; i < numWorkDim; ++i)
        g[i] = pGlobalWorkSize[i];
    uint32_t wg[3] = {1, 1, 1};
    pthread_mutex_lock(&k->lock);
    res = suggest(zk, q->dev, g, wg);
    pthread_mutex_unlock(&k->lock);
    for (uint32_t i = 0; res == UR_RESULT_SUCCESS && i < numWorkDim; ++i)
        pSuggestedLocalWorkSize[i] = wg[i];
    return res;
}

// Arguments do not change Level Zero's suggestion.
ur_result_t l0_kernel_get_suggested_local_work_size_with_args(
    ur_kernel_handle_t hKernel, ur_queue_handle_t hQueue, uint32_t numWorkDim,
    const size_t *pGlobalWorkOffset, const size_t *pGlobalWorkSize, uint32_t numArgs,
    const ur_exp_kernel_arg_properties_t *pArgs, size_t *pSuggestedLocalWorkSize) {
    // Not set, but still the kernel's: an index it does not have is refused as a launch would.
    for (uint32_t i = 0; i < numArgs; ++i) {
        ur_result_t res =
            urc_launch_check_arg_index(pArgs[i].index, L0_KERNEL(hKernel)->props.numKernelArgs);
        if (res != UR_RESULT_SUCCESS)
            return res;
    }
    return l0_kernel_get_suggested_local_work_size(hKernel, hQueue, numWorkDim, pGlobalWorkOffset,
                                                   pGlobalWorkSize, pSuggestedLocalWorkSize);
}

ur_result_t l0_kernel_suggest_max_cooperative_group_count(
    ur_kernel_handle_t hKernel, ur_device_handle_t hDevice, uint32_t workDim,
    const size_t *pLocalWorkSize, size_t dynamicSharedMemorySize, uint32_t *pGroupCountRet) {
    l0_kernel_t *k = L0_KERNEL(hKernel);
    const l0_device_t *dev = L0_DEVICE(hDevice);
    ze_kernel_handle_t zk = kernel_for(k, dev);
    if (zk == NULL)
        return UR_RESULT_ERROR_INVALID_DEVICE;
    if (workDim < 1 || workDim > 3)
        return UR_RESULT_ERROR_INVALID_WORK_DIMENSION;
    uint32_t wg[3] = {1, 1, 1};
    for (uint32_t i = 0; i < workDim; ++i) {
        if (pLocalWorkSize[i] == 0 || pLocalWorkSize[i] > UINT32_MAX)
            return UR_RESULT_ERROR_INVALID_WORK_GROUP_SIZE;
        wg[i] = (uint32_t)pLocalWorkSize[i];
    }
    uint32_t count = 0;
    pthread_mutex_lock(&k->lock);
    ur_result_t res = l0_ok(zeKernelSetGroupSize(zk, wg[0], wg[1], wg[2]), "zeKernelSetGroupSize");
    if (res == UR_RESULT_SUCCESS)
        res = l0_ok(zeKernelSuggestMaxCooperativeGroupCount(zk, &count),
                    "zeKernelSuggestMaxCooperativeGroupCount");
    pthread_mutex_unlock(&k->lock);
    if (res != UR_RESULT_SUCCESS)
        return res;
    // Dynamic local memory limits how many groups fit at once (UR's cap, overflow-safe).
    if (dynamicSharedMemorySize > 0) {
        size_t slm = dev->compute.maxSharedLocalMemory, fixed = k->props.localMemSize;
        uint32_t units = dev->props.numSubslicesPerSlice * dev->props.numSlices;
        if (fixed > slm || dynamicSharedMemorySize > slm - fixed) {
            count = 0;
        } else {
            uint64_t fit = (uint64_t)units * (slm / (fixed + dynamicSharedMemorySize));
            count = fit < count ? (uint32_t)fit : count;
        }
    }
    *pGroupCountRet = count;
    return UR_RESULT_SUCCESS;
}

// ---- launch ----

static ur_result_t launch_flags(const ur_kernel_launch_ext_properties_t *list, bool *cooperative) {
    *cooperative = false;
    ur_result_t chain = urc_pnext_check(list);
    if (chain != UR_RESULT_SUCCESS)
        return chain;
    for (const ur_base_properties_t *p = (const ur_base_properties_t *)list; p != NULL;
         p = p->pNext) {
        if (p->stype != UR_STRUCTURE_TYPE_KERNEL_LAUNCH_EXT_PROPERTIES)
            return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0,
                                 "launch property %d is not supported by Level Zero", p->stype);
        ur_kernel_launch_flags_t flags = ((const ur_kernel_launch_ext_properties_t *)p)->flags;
        if (flags & ~(ur_kernel_launch_flags_t)UR_KERNEL_LAUNCH_FLAG_COOPERATIVE)
            return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0,
                                 "only cooperative launches are supported by Level Zero");
        *cooperative = *cooperative || (flags & UR_KERNEL_LAUNCH_FLAG_COOPERATIVE);
    }
    return UR_RESULT_SUCCESS;
}

// Group size and counts with UR's checks: the local size divides the global size, fits the
// device and honours the kernel's required size; counts fit Level Zero's 32 bits.
static ur_result_t geometry(ze_kernel_handle_t zk, const l0_kernel_t *k, const l0_device_t *dev,
                            uint32_t dims, const size_t *global, const size_t *local,
                            uint32_t wg[3], ze_group_count_t *groups) {
    size_t g[3] = {1, 1, 1};
    for (uint32_t i = 0; i < dims; ++i)
        g[i] = global[i];
    const uint32_t max[3] = {dev->compute.maxGroupSizeX, dev->compute.maxGroupSizeY,
                             dev->compute.maxGroupSizeZ};
    const uint32_t reqd[3] = {k->props.requiredGroupSizeX, k->props.requiredGroupSizeY,
                              k->props.requiredGroupSizeZ};
    if (local != NULL) {
        wg[0] = wg[1] = wg[2] = 1;
        for (uint32_t i = 0; i < dims; ++i) {
            if (local[i] == 0 || local[i] > max[i])
                return urc_error_set(UR_RESULT_ERROR_INVALID_WORK_GROUP_SIZE, 0,
                                     "work-group size %zu in dimension %u (device limit %u)",
                                     local[i], i, max[i]);
            wg[i] = (uint32_t)local[i];
        }
    } else if (reqd[0] != 0) {
        memcpy(wg, reqd, sizeof reqd);
    } else {
        ur_result_t res = suggest(zk, dev, g, wg);
        if (res != UR_RESULT_SUCCESS)
            return res;
    }
    if (reqd[0] != 0 && (wg[0] != reqd[0] || wg[1] != reqd[1] || wg[2] != reqd[2]))
        return urc_error_set(UR_RESULT_ERROR_INVALID_WORK_GROUP_SIZE, 0,
                             "kernel \"%s\" requires work-groups of %u x %u x %u", k->name, reqd[0],
                             reqd[1], reqd[2]);
    if ((uint64_t)wg[0] * wg[1] * wg[2] > dev->compute.maxTotalGroupSize)
        return urc_error_set(UR_RESULT_ERROR_INVALID_WORK_GROUP_SIZE, 0,
                             "%u x %u x %u work-items per group exceed the device's %u", wg[0],
                             wg[1], wg[2], dev->compute.maxTotalGroupSize);
    uint32_t *counts[3] = {&groups->groupCountX, &groups->groupCountY, &groups->groupCountZ};
    for (int i = 0; i < 3; ++i) {
        if (g[i] % wg[i] != 0)
            return urc_error_set(UR_RESULT_ERROR_INVALID_WORK_GROUP_SIZE, 0,
                                 "global size %zu in dimension %d is not a multiple of the "
                                 "work-group size %u",
                                 g[i], i, wg[i]);
        if (g[i] / wg[i] > UINT32_MAX)
            return urc_error_set(UR_RESULT_ERROR_INVALID_WORK_GROUP_SIZE, 0,
                                 "%zu work-groups in dimension %d exceed Level Zero's 32 bits",
                                 g[i] / wg[i], i);
        *counts[i] = (uint32_t)(g[i] / wg[i]);
    }
    return UR_RESULT_SUCCESS;
}

// Every argument the kernel takes, each once. Level Zero keeps arguments from earlier launches,
// so a missing one would silently reuse a stale value.
static ur_result_t check_args(const l0_kernel_t *k, uint32_t n,
                              const ur_exp_kernel_arg_properties_t *args) {
    uint32_t nk = k->props.numKernelArgs;
    uint8_t seen_stack[64];
    uint8_t *seen = nk <= sizeof seen_stack ? seen_stack : calloc(nk, 1);
    if (seen == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    memset(seen, 0, nk <= sizeof seen_stack ? sizeof seen_stack : nk);
    ur_result_t res = UR_RESULT_SUCCESS;
    for (uint32_t i = 0; res == UR_RESULT_SUCCESS && i < n; ++i) {
        if (args[i].index >= nk)
            res = urc_error_set(UR_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX, 0,
                                "kernel \"%s\" takes %u arguments; index %u given", k->name, nk,
                                args[i].index);
        else if (seen[args[i].index]++)
            res = urc_error_set(UR_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX, 0,
                                "kernel argument %u given twice", args[i].index);
    }
    for (uint32_t i = 0; res == UR_RESULT_SUCCESS && i < nk; ++i)
        if (!seen[i])
            res = urc_error_set(UR_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX, 0,
                                "kernel \"%s\": argument %u missing", k->name, i);
    if (seen != seen_stack)
        free(seen);
    return res;
}

ur_result_t l0_kernel_arg_native(const l0_context_t *ctx, const l0_device_t *dev,
                                 const ur_exp_kernel_arg_properties_t *a, size_t *size,
                                 const void **value, void **slot) {
    *value = NULL;
    *size = a->size;
    switch (a->type) {
    case UR_EXP_KERNEL_ARG_TYPE_VALUE:
        if (a->value.value == NULL)
            return UR_RESULT_ERROR_INVALID_NULL_POINTER;
        *value = a->value.value;
        return UR_RESULT_SUCCESS;
    case UR_EXP_KERNEL_ARG_TYPE_POINTER:
        *slot = (void *)(uintptr_t)a->value.pointer;
        break;
    case UR_EXP_KERNEL_ARG_TYPE_MEM_OBJ: {
        // A NULL buffer (a zero-sized SYCL buffer) passes a null pointer.
        ur_mem_handle_t h = a->value.memObjTuple.hMem;
        if (h != NULL && (!l0_is(h, URC_KIND_MEM) || L0_MEM(h)->ctx != ctx))
            return UR_RESULT_ERROR_INVALID_MEM_OBJECT;
        // An image passes its Level Zero image handle, a buffer its pointer.
        *slot = h == NULL ? NULL : L0_MEM(h)->is_image ? (void *)L0_MEM(h)->image : L0_MEM(h)->ptr;
        break;
    }
    case UR_EXP_KERNEL_ARG_TYPE_LOCAL:
        return UR_RESULT_SUCCESS; // a size and no value: Level Zero's local memory argument
    case UR_EXP_KERNEL_ARG_TYPE_SAMPLER: {
        ur_sampler_handle_t h = a->value.sampler;
        if (!l0_is(h, URC_KIND_SAMPLER) || L0_SAMPLER(h)->ctx != ctx)
            return urc_error_set(UR_RESULT_ERROR_INVALID_SAMPLER, 0,
                                 "kernel argument %u is not a sampler of the queue's context",
                                 a->index);
        *slot = (void *)l0_sampler_for(L0_SAMPLER(h), dev);
        break;
    }
    default:
        return UR_RESULT_ERROR_INVALID_ENUMERATION;
    }
    *value = slot;
    *size = sizeof(void *);
    return UR_RESULT_SUCCESS;
}

static ur_result_t set_arg(ze_kernel_handle_t zk, const l0_context_t *ctx, const l0_device_t *dev,
                           const ur_exp_kernel_arg_properties_t *a) {
    const void *value;
    size_t size;
    void *slot;
    ur_result_t res = l0_kernel_arg_native(ctx, dev, a, &size, &value, &slot);
    if (res != UR_RESULT_SUCCESS)
        return res;
    ze_result_t r = zeKernelSetArgumentValue(zk, a->index, size, value);
    // UR's mapping: the driver says INVALID_ARGUMENT for a size that does not match.
    if (r == ZE_RESULT_ERROR_INVALID_ARGUMENT)
        return urc_error_set(UR_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE, (int32_t)r,
                             "kernel argument %u: %zu bytes rejected", a->index, size);
    return l0_ok(r, "zeKernelSetArgumentValue");
}

ur_result_t l0_kernel_geometry(ur_kernel_handle_t hKernel, const l0_device_t *dev, uint32_t dims,
                               const size_t *global, const size_t *local, uint32_t wg[3],
                               ze_group_count_t *groups) {
    l0_kernel_t *k = L0_KERNEL(hKernel);
    ze_kernel_handle_t zk = kernel_for(k, dev);
    if (zk == NULL)
        return UR_RESULT_ERROR_INVALID_KERNEL;
    pthread_mutex_lock(&k->lock);
    ur_result_t res = geometry(zk, k, dev, dims, global, local, wg, groups);
    pthread_mutex_unlock(&k->lock);
    return res;
}

ze_kernel_handle_t l0_kernel_native(ur_kernel_handle_t hKernel, const l0_device_t *dev) {
    return kernel_for(L0_KERNEL(hKernel), dev);
}

ur_result_t l0_enqueue_kernel_launch_with_args_exp(
    ur_queue_handle_t hQueue, ur_kernel_handle_t hKernel, uint32_t workDim,
    const size_t *pGlobalWorkOffset, const size_t *pGlobalWorkSize, const size_t *pLocalWorkSize,
    uint32_t numArgs, const ur_exp_kernel_arg_properties_t *pArgs,
    const ur_kernel_launch_ext_properties_t *launchPropList, uint32_t numEventsInWaitList,
    const ur_event_handle_t *phEventWaitList, ur_event_handle_t *phEvent) {
    l0_kernel_t *k;
    l0_queue_t *q;
    ze_kernel_handle_t zk;
    ur_result_t res = kernel_and_queue(hKernel, hQueue, &k, &q, &zk);
    if (res != UR_RESULT_SUCCESS)
        return res;
    urc_rules_t rules;
    l0_rules(q->ctx, q->dev, &rules);
    res = urc_rule_launch(&rules, workDim, pGlobalWorkOffset, pGlobalWorkSize, pLocalWorkSize);
    if (res != UR_RESULT_SUCCESS)
        return res;
    bool cooperative = false, offset = false;
    for (uint32_t i = 0; i < workDim; ++i) {
        offset = offset || (pGlobalWorkOffset != NULL && pGlobalWorkOffset[i] != 0);
        if (pGlobalWorkOffset != NULL && pGlobalWorkOffset[i] > UINT32_MAX)
            return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                                 "global offsets are 32-bit in Level Zero");
    }
    if (offset && !q->dev->platform->ext_global_offset)
        return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0,
                             "the driver has no global offsets (" ZE_GLOBAL_OFFSET_EXP_NAME ")");
    res = launch_flags(launchPropList, &cooperative);
    if (res == UR_RESULT_SUCCESS)
        res = check_args(k, numArgs, pArgs);
    uint32_t wg[3] = {1, 1, 1};
    ze_group_count_t groups = {0, 0, 0};
    if (res == UR_RESULT_SUCCESS) {
        pthread_mutex_lock(&k->lock);
        res = geometry(zk, k, q->dev, workDim, pGlobalWorkSize, pLocalWorkSize, wg, &groups);
        pthread_mutex_unlock(&k->lock);
    }
    if (res != UR_RESULT_SUCCESS)
        return res;
    l0_op_t op;
    res = l0_op_begin(q, UR_COMMAND_KERNEL_LAUNCH, numEventsInWaitList, phEventWaitList, &op);
    if (res != UR_RESULT_SUCCESS)
        return res;
    // Arguments, group size and offset are captured by the append; the lock keeps another
    // launch of this kernel from changing them in between.
    pthread_mutex_lock(&k->lock);
    for (uint32_t i = 0; res == UR_RESULT_SUCCESS && i < numArgs; ++i)
        res = set_arg(zk, q->ctx, q->dev, &pArgs[i]);
    if (res == UR_RESULT_SUCCESS)
        res = l0_ok(zeKernelSetGroupSize(zk, wg[0], wg[1], wg[2]), "zeKernelSetGroupSize");
    // The offset is kernel state: a launch without one must clear an earlier launch's.
    if (res == UR_RESULT_SUCCESS && q->dev->platform->ext_global_offset) {
        uint32_t o[3] = {0, 0, 0};
        for (uint32_t i = 0; pGlobalWorkOffset != NULL && i < workDim; ++i)
            o[i] = (uint32_t)pGlobalWorkOffset[i];
        res = l0_ok(zeKernelSetGlobalOffsetExp(zk, o[0], o[1], o[2]), "zeKernelSetGlobalOffsetExp");
    }
    if (res == UR_RESULT_SUCCESS && cooperative)
        res = l0_ok(zeCommandListAppendLaunchCooperativeKernel(op.list, zk, &groups, op.event->ze,
                                                               op.nwaits, op.waits),
                    "zeCommandListAppendLaunchCooperativeKernel");
    else if (res == UR_RESULT_SUCCESS)
        res = l0_ok(zeCommandListAppendLaunchKernel(op.list, zk, &groups, op.event->ze, op.nwaits,
                                                    op.waits),
                    "zeCommandListAppendLaunchKernel");
    pthread_mutex_unlock(&k->lock);
    if (res == UR_RESULT_SUCCESS)
        l0_event_keep_kernel(op.event, k);
    return l0_op_end(&op, res, false, phEvent);
}

ur_result_t l0_kernel_append_launch(ur_kernel_handle_t hKernel, l0_context_t *ctx,
                                    const l0_device_t *dev, uint32_t workDim,
                                    const size_t *pGlobalWorkOffset, const size_t *pGlobalWorkSize,
                                    const size_t *pLocalWorkSize, uint32_t numArgs,
                                    const ur_exp_kernel_arg_properties_t *pArgs,
                                    ze_command_list_handle_t list, ze_event_handle_t signal,
                                    uint32_t nwaits, ze_event_handle_t *waits) {
    if (!l0_is(hKernel, URC_KIND_KERNEL))
        return UR_RESULT_ERROR_INVALID_KERNEL;
    l0_kernel_t *k = L0_KERNEL(hKernel);
    ze_kernel_handle_t zk = kernel_for(k, dev);
    if (zk == NULL || k->program->ctx != ctx)
        return urc_error_set(UR_RESULT_ERROR_INVALID_KERNEL, 0,
                             "the kernel is not built for the command buffer's device and context");
    if (workDim < 1 || workDim > 3)
        return UR_RESULT_ERROR_INVALID_WORK_DIMENSION;
    bool offset = false, empty = false;
    for (uint32_t i = 0; i < workDim; ++i) {
        empty = empty || pGlobalWorkSize[i] == 0;
        offset = offset || (pGlobalWorkOffset != NULL && pGlobalWorkOffset[i] != 0);
        if (pGlobalWorkOffset != NULL && pGlobalWorkOffset[i] > UINT32_MAX)
            return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                                 "global offsets are 32-bit in Level Zero");
    }
    if (offset && !dev->platform->ext_global_offset)
        return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0,
                             "the driver has no global offsets (" ZE_GLOBAL_OFFSET_EXP_NAME ")");
    ur_result_t res = check_args(k, numArgs, pArgs);
    if (res != UR_RESULT_SUCCESS)
        return res;
    if (empty) // an empty range runs nothing, but still orders and signals
        return l0_ok(zeCommandListAppendBarrier(list, signal, nwaits, waits),
                     "zeCommandListAppendBarrier");
    uint32_t wg[3] = {1, 1, 1};
    ze_group_count_t groups = {0, 0, 0};
    // As an eager launch: the append captures arguments, group size and offset, so setting
    // them and appending is one critical section per kernel.
    pthread_mutex_lock(&k->lock);
    res = geometry(zk, k, dev, workDim, pGlobalWorkSize, pLocalWorkSize, wg, &groups);
    for (uint32_t i = 0; res == UR_RESULT_SUCCESS && i < numArgs; ++i)
        res = set_arg(zk, ctx, dev, &pArgs[i]);
    if (res == UR_RESULT_SUCCESS)
        res = l0_ok(zeKernelSetGroupSize(zk, wg[0], wg[1], wg[2]), "zeKernelSetGroupSize");
    if (res == UR_RESULT_SUCCESS && dev->platform->ext_global_offset) {
        uint32_t o[3] = {0, 0, 0};
        for (uint32_t i = 0; pGlobalWorkOffset != NULL && i < workDim; ++i)
            o[i] = (uint32_t)pGlobalWorkOffset[i];
        res = l0_ok(zeKernelSetGlobalOffsetExp(zk, o[0], o[1], o[2]), "zeKernelSetGlobalOffsetExp");
    }
    if (res == UR_RESULT_SUCCESS)
        res = l0_ok(zeCommandListAppendLaunchKernel(list, zk, &groups, signal, nwaits, waits),
                    "zeCommandListAppendLaunchKernel");
    pthread_mutex_unlock(&k->lock);
    return res;
}

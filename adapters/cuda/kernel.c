// SPDX-License-Identifier: MIT
// urKernel*: a CUfunction of a built program. Arguments are not stored on the kernel: in this
// API they arrive with each launch (urEnqueueKernelLaunchWithArgsExp), so concurrent launches
// of one kernel from several threads never share mutable state.
#include <stdio.h>
#include <string.h>

#include "cuda_internal.h"
#include "core/hashmap.h"
#include "queue/launch.h"
#include "core/release.h"

// UR's per-kernel metadata entries are named "<kernel>@<tag>".
static const urc_prop_t *kernel_prop(const cuda_program_t *p, const char *kernel, const char *tag) {
    char key[1024];
    int n = snprintf(key, sizeof key, "%s%s", kernel, tag);
    if (n < 0 || (size_t)n >= sizeof key)
        return NULL;
    return urc_props_find(p->props, "", key);
}

// Reads up to three uint32 values (missing ones are 1), as UR's work-group size entries hold.
static void read_dims(const urc_prop_t *prop, uint32_t dims[3]) {
    const uint8_t *data;
    size_t count;
    if (prop == NULL || !urc_prop_u32_array(prop, &data, &count) || count == 0 || count > 3)
        return;
    for (size_t i = 0; i < 3; ++i)
        dims[i] = i < count ? urc_prop_u32_at(data, i) : 1;
}

static void read_metadata(const cuda_program_t *p, cuda_kernel_info_t *k) {
    if (!cuda_program_spirv_local_size(p, k->name, k->reqd_wg))
        read_dims(kernel_prop(p, k->name, "@reqd_work_group_size"), k->reqd_wg);
    read_dims(kernel_prop(p, k->name, "@max_work_group_size"), k->max_wg);
    const urc_prop_t *linear = kernel_prop(p, k->name, "@max_linear_work_group_size");
    if (linear != NULL)
        k->max_linear_wg =
            linear->type == UR_PROGRAM_METADATA_TYPE_UINT64 ? linear->u64 : linear->u32;
    const urc_prop_t *sg = kernel_prop(p, k->name, "@reqd_sub_group_size");
    if (sg != NULL)
        k->reqd_sg = sg->u32;
}

// Counts the parameters and their sizes, so launches can reject missing or mis-sized
// arguments instead of letting cuLaunchKernel read garbage.
static void read_params(cuda_kernel_info_t *k) {
    if (cu.FuncGetParamInfo == NULL)
        return;
    size_t offset, size;
    uint32_t n = 0;
    while (n < 4096 && cu.FuncGetParamInfo(k->fn, n, &offset, &size) == CUDA_SUCCESS)
        ++n;
    k->param_sizes = urc_calloc(n, sizeof *k->param_sizes);
    if (k->param_sizes == NULL)
        return;
    size_t frame = ((size_t)n + 1) * sizeof(void *);
    for (uint32_t i = 0; i < n; ++i) {
        if (cu.FuncGetParamInfo(k->fn, i, &offset, &k->param_sizes[i]) != CUDA_SUCCESS)
            k->param_sizes[i] = 0;
        // A size the driver would not tell leaves the frame unknown (launches measure it).
        frame = k->param_sizes[i] == 0 || frame == 0
                    ? 0
                    : frame + ((k->param_sizes[i] + 7) & ~(size_t)7);
    }
    k->nparams = n;
    k->frame_bytes = frame;
    k->params_known = true;
}

static void info_free(cuda_kernel_info_t *info) {
    if (info != NULL)
        free(info->param_sizes);
    free(info);
}

// What the driver and the metadata say of function `fn` of `module` (current context the
// program's device's), named `name` ("" when unknown: no metadata, no offset variant).
static ur_result_t info_make(const cuda_program_t *p, CUmodule module, CUfunction fn,
                             const char *name, uint64_t hash, cuda_kernel_info_t **out) {
    size_t len = strlen(name);
    cuda_kernel_info_t *k = urc_calloc(1, sizeof *k + len + 1);
    if (k == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    memcpy(k->name, name, len + 1);
    k->hash = hash;
    k->module = module;
    k->fn = fn;
    // DPC++ emits "<name>_with_offset" taking the global offset; absent in plain CUDA code.
    char offset_name[1024];
    int n = snprintf(offset_name, sizeof offset_name, "%s_with_offset", name);
    if (name[0] == '\0' || n < 0 || (size_t)n >= sizeof offset_name ||
        cu.ModuleGetFunction(&k->fn_offset, module, offset_name) != CUDA_SUCCESS)
        k->fn_offset = NULL;
    if (cu.FuncGetAttribute(&k->regs_per_thread, CU_FUNC_ATTRIBUTE_NUM_REGS, fn) != CUDA_SUCCESS)
        k->regs_per_thread = 0;
    if (cu.FuncGetAttribute(&k->max_threads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, fn) !=
        CUDA_SUCCESS)
        k->max_threads = p->dev->max_threads_per_block;
    if (cu.FuncGetAttribute(&k->static_shared, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, fn) !=
        CUDA_SUCCESS)
        k->static_shared = 0;
    if (name[0] != '\0')
        read_metadata(p, k);
    read_params(k);
    *out = k;
    return UR_RESULT_SUCCESS;
}

// The program's info for `name`, or NULL. Infos are immutable once pushed, so the walk takes
// no lock.
static cuda_kernel_info_t *info_find(cuda_program_t *p, const char *name, uint64_t hash) {
    for (cuda_kernel_info_t *k = atomic_load_explicit(&p->kernel_infos, memory_order_acquire);
         k != NULL; k = k->next)
        if (k->hash == hash && strcmp(k->name, name) == 0)
            return k;
    return NULL;
}

// Adds an info to the program's list. Two threads making the same kernel's first handle at
// once both push theirs: the list then holds two equal infos, which does no harm.
static void info_publish(cuda_program_t *p, cuda_kernel_info_t *k) {
    k->next = atomic_load_explicit(&p->kernel_infos, memory_order_relaxed);
    while (!atomic_compare_exchange_weak_explicit(&p->kernel_infos, &k->next, k,
                                                  memory_order_release, memory_order_relaxed))
        ;
}

void cuda_kernel_infos_free(cuda_program_t *p) {
    cuda_kernel_info_t *k = atomic_exchange(&p->kernel_infos, NULL);
    while (k != NULL) {
        cuda_kernel_info_t *next = k->next;
        info_free(k);
        k = next;
    }
}

// A kernel handle of program `p` from `info` (the program's, or `own` for the kernel alone).
static ur_result_t kernel_new(cuda_program_t *p, cuda_kernel_info_t *info, bool own,
                              ur_kernel_handle_t *phKernel) {
    cuda_kernel_t *k = URC_NEW(cuda_kernel_t);
    if (k == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    k->program = p;
    k->own_info = own ? info : NULL;
    k->fn = info->fn;
    k->fn_offset = info->fn_offset;
    k->name = info->name;
    memcpy(k->reqd_wg, info->reqd_wg, sizeof k->reqd_wg);
    memcpy(k->max_wg, info->max_wg, sizeof k->max_wg);
    k->max_linear_wg = info->max_linear_wg;
    k->reqd_sg = info->reqd_sg;
    k->regs_per_thread = info->regs_per_thread;
    k->max_threads = info->max_threads;
    k->static_shared = info->static_shared;
    k->params_known = info->params_known;
    k->nparams = info->nparams;
    k->param_sizes = info->param_sizes;
    k->frame_bytes = info->frame_bytes;
    atomic_flag_clear(&k->big_frame_busy);
    pthread_mutex_init(&k->lock, NULL);
    cuda_program_retain_internal(p);
    urc_object_init(&k->obj, &cuda_ddi, URC_KIND_KERNEL);
    *phKernel = (ur_kernel_handle_t)k;
    return UR_RESULT_SUCCESS;
}

// A kernel for `fn` that no other handle shares the info of (native kernels).
static ur_result_t kernel_new_owning(cuda_program_t *p, CUmodule module, CUfunction fn,
                                     const char *name, ur_kernel_handle_t *phKernel) {
    cuda_kernel_info_t *info = NULL;
    ur_result_t res = info_make(p, module, fn, name, 0, &info);
    if (res == UR_RESULT_SUCCESS)
        res = kernel_new(p, info, true, phKernel);
    if (res != UR_RESULT_SUCCESS)
        info_free(info);
    return res;
}

ur_result_t cuda_kernel_create(ur_program_handle_t hProgram, const char *pKernelName,
                               ur_kernel_handle_t *phKernel) {
    cuda_program_t *p = CUDA_PROGRAM(hProgram);
    // A kernel made before: no lock, no driver call. A program's module is never replaced
    // once loaded (program.c), so every info in the list belongs to it.
    uint64_t hash = urc_hash_str(URC_HASH_INIT, pKernelName);
    cuda_kernel_info_t *info = info_find(p, pKernelName, hash);
    if (info != NULL)
        return kernel_new(p, info, false, phKernel);
    CUmodule module;
    if (!cuda_program_module(p, &module))
        return urc_error_set(UR_RESULT_ERROR_INVALID_PROGRAM_EXECUTABLE, 0,
                             "the program is not built");
    ur_result_t res = cuda_activate(p->dev);
    if (res != UR_RESULT_SUCCESS)
        return res;
    CUfunction fn = NULL;
    CUresult r = cu.ModuleGetFunction(&fn, module, pKernelName);
    if (r == CUDA_ERROR_NOT_FOUND)
        return urc_error_set(UR_RESULT_ERROR_INVALID_KERNEL_NAME, (int32_t)r,
                             "no kernel \"%s\" in the program", pKernelName);
    if (r != CUDA_SUCCESS)
        return cuda_error(r, "cuModuleGetFunction");
    res = info_make(p, module, fn, pKernelName, hash, &info);
    if (res != UR_RESULT_SUCCESS)
        return res;
    info_publish(p, info);
    return kernel_new(p, info, false, phKernel);
}

// A CUfunction of the given program, or (without one) of a program wrapping the function's
// module, which needs cuFuncGetModule (CUDA 11). The name comes from cuFuncGetName (CUDA 12.3);
// without it the kernel has no name, so no "<name>@..." metadata and no offset variant.
ur_result_t cuda_kernel_create_with_native_handle(ur_native_handle_t hNativeKernel,
                                                  ur_context_handle_t hContext,
                                                  ur_program_handle_t hProgram,
                                                  const ur_kernel_native_properties_t *pProperties,
                                                  ur_kernel_handle_t *phKernel) {
    (void)pProperties; // a CUfunction lives as long as its module: there is nothing to own
    if (hProgram != NULL && !cuda_is(hProgram, URC_KIND_PROGRAM))
        return UR_RESULT_ERROR_INVALID_PROGRAM;
    if (hNativeKernel == 0)
        return UR_RESULT_ERROR_INVALID_NULL_HANDLE;
    CUfunction fn = (CUfunction)hNativeKernel;
    cuda_context_t *ctx = CUDA_CONTEXT(hContext);
    cuda_program_t *p = hProgram != NULL ? CUDA_PROGRAM(hProgram) : NULL;
    ur_result_t res = cuda_activate(p != NULL ? p->dev : ctx->devices[0]);
    if (res != UR_RESULT_SUCCESS)
        return res;
    CUmodule fn_module = NULL;
    bool module_known =
        cu.FuncGetModule != NULL && cu.FuncGetModule(&fn_module, fn) == CUDA_SUCCESS;
    const char *name = NULL;
    if (cu.FuncGetName == NULL || cu.FuncGetName(&name, fn) != CUDA_SUCCESS || name == NULL)
        name = "";

    if (p != NULL) {
        CUmodule module;
        if (p->ctx != ctx)
            return urc_error_set(UR_RESULT_ERROR_INVALID_CONTEXT, 0,
                                 "the program belongs to another context");
        if (!cuda_program_module(p, &module))
            return urc_error_set(UR_RESULT_ERROR_INVALID_PROGRAM_EXECUTABLE, 0,
                                 "the program is not built");
        if (module_known && fn_module != module)
            return urc_error_set(UR_RESULT_ERROR_INVALID_PROGRAM, 0,
                                 "the native kernel belongs to another program");
        return kernel_new_owning(p, module, fn, name, phKernel);
    }
    if (!module_known)
        return urc_error_set(UR_RESULT_ERROR_INVALID_PROGRAM, 0,
                             "no program given, and the driver cannot tell the kernel's module "
                             "(cuFuncGetModule needs CUDA 11)");
    // The wrapping program does not own the module; the kernel holds the only reference to it.
    const ur_program_native_properties_t borrowed = {UR_STRUCTURE_TYPE_PROGRAM_NATIVE_PROPERTIES,
                                                     NULL, false};
    ur_program_handle_t wrapper = NULL;
    res = cuda_program_create_with_native_handle((ur_native_handle_t)fn_module, hContext, &borrowed,
                                                 &wrapper);
    if (res != UR_RESULT_SUCCESS)
        return res;
    res = kernel_new_owning(CUDA_PROGRAM(wrapper), fn_module, fn, name, phKernel);
    cuda_program_release(wrapper); // the kernel holds its own reference
    return res;
}

URC_RETAIN(cuda_kernel, ur_kernel_handle_t, CUDA_KERNEL)

ur_result_t cuda_kernel_release(ur_kernel_handle_t hKernel) {
    cuda_kernel_t *k = CUDA_KERNEL(hKernel);
    ur_result_t released;
    if (!urc_release_destroys(urc_user_release(&k->obj), UR_RESULT_ERROR_INVALID_KERNEL,
                              "urKernelRelease", &released))
        return released;
    cuda_program_release_internal(k->program);
    pthread_mutex_destroy(&k->lock);
    info_free(k->own_info);
    free(k->big_frame);
    URC_OBJECT_FREE(k);
    return UR_RESULT_SUCCESS;
}

static int func_attr(const cuda_kernel_t *k, CUfunction_attribute a) {
    int v = 0;
    if (cu.FuncGetAttribute(&v, a, k->fn) != CUDA_SUCCESS)
        return 0;
    return v;
}

ur_result_t cuda_kernel_get_info(ur_kernel_handle_t hKernel, ur_kernel_info_t propName,
                                 size_t propSize, void *pPropValue, size_t *pPropSizeRet) {
    const cuda_kernel_t *k = CUDA_KERNEL(hKernel);
    const urc_info_t out = {propSize, pPropValue, pPropSizeRet};
    switch (propName) {
    case UR_KERNEL_INFO_FUNCTION_NAME:
        return urc_info_string(&out, k->name);
    case UR_KERNEL_INFO_NUM_ARGS:
        if (!k->params_known)
            return UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION; // driver older than CUDA 12.4
        return urc_info_u32(&out, k->nparams);
    case UR_KERNEL_INFO_REFERENCE_COUNT:
        return urc_info_u32(&out, urc_refcount(&k->obj));
    case UR_KERNEL_INFO_CONTEXT:
        return urc_info_ptr(&out, k->program->ctx);
    case UR_KERNEL_INFO_PROGRAM:
        return urc_info_ptr(&out, k->program);
    case UR_KERNEL_INFO_ATTRIBUTES:
        return urc_info_string(&out, "");
    case UR_KERNEL_INFO_NUM_REGS:
        return urc_info_u32(&out, (uint32_t)k->regs_per_thread);
    case UR_KERNEL_INFO_SPILL_MEM_SIZE:
        return UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION;
    default:
        return UR_RESULT_ERROR_INVALID_ENUMERATION;
    }
}

static size_t saturating_mul(size_t a, size_t b) {
    return (b != 0 && a > SIZE_MAX / b) ? SIZE_MAX : a * b;
}

ur_result_t cuda_kernel_get_group_info(ur_kernel_handle_t hKernel, ur_device_handle_t hDevice,
                                       ur_kernel_group_info_t propName, size_t propSize,
                                       void *pPropValue, size_t *pPropSizeRet) {
    const cuda_kernel_t *k = CUDA_KERNEL(hKernel);
    const cuda_device_t *dev = hDevice != NULL ? CUDA_DEVICE(hDevice) : k->program->dev;
    if (!cuda_is(dev, URC_KIND_DEVICE))
        return UR_RESULT_ERROR_INVALID_DEVICE;
    const urc_info_t out = {propSize, pPropValue, pPropSizeRet};
    switch (propName) {
    case UR_KERNEL_GROUP_INFO_GLOBAL_WORK_SIZE: {
        size_t sizes[3];
        for (int i = 0; i < 3; ++i)
            sizes[i] = saturating_mul((size_t)dev->max_block[i], (size_t)dev->max_grid[i]);
        return urc_info_bytes(&out, sizes, sizeof sizes);
    }
    case UR_KERNEL_GROUP_INFO_WORK_GROUP_SIZE:
        return urc_info_size(&out, (size_t)k->max_threads);
    case UR_KERNEL_GROUP_INFO_COMPILE_WORK_GROUP_SIZE: {
        size_t sizes[3] = {k->reqd_wg[0], k->reqd_wg[1], k->reqd_wg[2]};
        return urc_info_bytes(&out, sizes, sizeof sizes);
    }
    case UR_KERNEL_GROUP_INFO_LOCAL_MEM_SIZE: // CUDA's static shared memory
        return urc_info_size(&out, (size_t)func_attr(k, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES));
    case UR_KERNEL_GROUP_INFO_PREFERRED_WORK_GROUP_SIZE_MULTIPLE:
        return urc_info_size(&out, (size_t)dev->warp_size);
    case UR_KERNEL_GROUP_INFO_PRIVATE_MEM_SIZE: // CUDA's "local" (per-thread) memory
        return urc_info_size(&out, (size_t)func_attr(k, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES));
    case UR_KERNEL_GROUP_INFO_COMPILE_MAX_WORK_GROUP_SIZE: {
        size_t sizes[3] = {k->max_wg[0], k->max_wg[1], k->max_wg[2]};
        return urc_info_bytes(&out, sizes, sizeof sizes);
    }
    case UR_KERNEL_GROUP_INFO_COMPILE_MAX_LINEAR_WORK_GROUP_SIZE:
        return urc_info_size(&out, (size_t)k->max_linear_wg);
    default:
        return UR_RESULT_ERROR_INVALID_ENUMERATION;
    }
}

ur_result_t cuda_kernel_get_sub_group_info(ur_kernel_handle_t hKernel, ur_device_handle_t hDevice,
                                           ur_kernel_sub_group_info_t propName, size_t propSize,
                                           void *pPropValue, size_t *pPropSizeRet) {
    const cuda_kernel_t *k = CUDA_KERNEL(hKernel);
    const cuda_device_t *dev = hDevice != NULL ? CUDA_DEVICE(hDevice) : k->program->dev;
    if (!cuda_is(dev, URC_KIND_DEVICE))
        return UR_RESULT_ERROR_INVALID_DEVICE;
    const urc_info_t out = {propSize, pPropValue, pPropSizeRet};
    switch (propName) {
    case UR_KERNEL_SUB_GROUP_INFO_MAX_SUB_GROUP_SIZE: // a sub-group is a warp
        return urc_info_u32(&out, (uint32_t)dev->warp_size);
    case UR_KERNEL_SUB_GROUP_INFO_MAX_NUM_SUB_GROUPS:
        return urc_info_u32(&out,
                            (uint32_t)((k->max_threads + dev->warp_size - 1) / dev->warp_size));
    case UR_KERNEL_SUB_GROUP_INFO_COMPILE_NUM_SUB_GROUPS:
        return urc_info_u32(&out, 0);
    case UR_KERNEL_SUB_GROUP_INFO_SUB_GROUP_SIZE_INTEL:
        return urc_info_u32(&out, k->reqd_sg);
    default:
        return UR_RESULT_ERROR_INVALID_ENUMERATION;
    }
}

ur_result_t cuda_kernel_get_native_handle(ur_kernel_handle_t hKernel,
                                          ur_native_handle_t *phNativeKernel) {
    *phNativeKernel = (ur_native_handle_t)CUDA_KERNEL(hKernel)->fn;
    return UR_RESULT_SUCCESS;
}

static size_t largest_divisor(size_t n, size_t limit) {
    for (size_t d = limit; d > 1; --d)
        if (n % d == 0)
            return d;
    return 1;
}

void cuda_kernel_guess_local(cuda_kernel_t *k, const cuda_device_t *dev, uint32_t dims,
                             const size_t *global, size_t dyn_shared, size_t local[3]) {
    local[0] = local[1] = local[2] = 1;
    if (k->reqd_wg[0] != 0) {
        for (int i = 0; i < 3; ++i)
            local[i] = k->reqd_wg[i];
        return;
    }
    // The occupancy calculator's block size, then per dimension the largest divisor of the
    // global size that still fits, so every work-group is full. Without dynamic shared memory
    // the answer never changes, so it is computed once per kernel.
    int min_grid = 0, block = dyn_shared == 0 ? atomic_load(&k->occupancy_block) : 0;
    if (block <= 0) {
        if (cu.OccupancyMaxPotentialBlockSize(&min_grid, &block, k->fn, NULL, dyn_shared,
                                              dev->max_block[0]) != CUDA_SUCCESS ||
            block <= 0)
            block = k->max_threads > 0 ? k->max_threads : 1;
        if (dyn_shared == 0)
            atomic_store(&k->occupancy_block, block);
    }
    size_t budget = (size_t)block;
    for (uint32_t i = 0; i < dims && i < 3; ++i) {
        size_t limit = budget < (size_t)dev->max_block[i] ? budget : (size_t)dev->max_block[i];
        local[i] = largest_divisor(global[i], limit > 0 ? limit : 1);
        budget /= local[i];
    }
}

ur_result_t cuda_kernel_get_suggested_local_work_size(ur_kernel_handle_t hKernel,
                                                      ur_queue_handle_t hQueue, uint32_t numWorkDim,
                                                      const size_t *pGlobalWorkOffset,
                                                      const size_t *pGlobalWorkSize,
                                                      size_t *pSuggestedLocalWorkSize) {
    (void)pGlobalWorkOffset;
    if (numWorkDim < 1 || numWorkDim > 3)
        return UR_RESULT_ERROR_INVALID_WORK_DIMENSION;
    cuda_kernel_t *k = CUDA_KERNEL(hKernel);
    cuda_queue_t *q = CUDA_QUEUE(hQueue);
    if (q->ctx != k->program->ctx)
        return UR_RESULT_ERROR_INVALID_KERNEL;
    ur_result_t res = cuda_activate(q->dev);
    if (res != UR_RESULT_SUCCESS)
        return res;
    size_t local[3];
    cuda_kernel_guess_local(k, q->dev, numWorkDim, pGlobalWorkSize, 0, local);
    for (uint32_t i = 0; i < numWorkDim; ++i)
        pSuggestedLocalWorkSize[i] = local[i];
    return UR_RESULT_SUCCESS;
}

ur_result_t cuda_kernel_get_suggested_local_work_size_with_args(
    ur_kernel_handle_t hKernel, ur_queue_handle_t hQueue, uint32_t numWorkDim,
    const size_t *pGlobalWorkOffset, const size_t *pGlobalWorkSize, uint32_t numArgs,
    const ur_exp_kernel_arg_properties_t *pArgs, size_t *pSuggestedLocalWorkSize) {
    // Not set, but still the kernel's: an index it does not have is refused as a launch would.
    const cuda_kernel_t *k = CUDA_KERNEL(hKernel);
    for (uint32_t i = 0; i < numArgs; ++i) {
        ur_result_t res =
            urc_launch_check_arg_index(pArgs[i].index, k->params_known ? k->nparams : UINT32_MAX);
        if (res != UR_RESULT_SUCCESS)
            return res;
    }
    return cuda_kernel_get_suggested_local_work_size(hKernel, hQueue, numWorkDim, pGlobalWorkOffset,
                                                     pGlobalWorkSize, pSuggestedLocalWorkSize);
}

// CUDA needs none of these hints: every USM pointer is reachable from every kernel.
ur_result_t cuda_kernel_set_exec_info(ur_kernel_handle_t hKernel, ur_kernel_exec_info_t propName,
                                      size_t propSize,
                                      const ur_kernel_exec_info_properties_t *pProperties,
                                      const void *pPropValue) {
    (void)hKernel; // checked by the generated wrapper
    (void)propSize;
    (void)pProperties;
    (void)pPropValue;
    switch (propName) {
    case UR_KERNEL_EXEC_INFO_USM_INDIRECT_ACCESS:
    case UR_KERNEL_EXEC_INFO_USM_PTRS:
    case UR_KERNEL_EXEC_INFO_CACHE_CONFIG:
        return UR_RESULT_SUCCESS;
    default:
        return UR_RESULT_ERROR_INVALID_ENUMERATION;
    }
}

ur_result_t cuda_kernel_suggest_max_cooperative_group_count(
    ur_kernel_handle_t hKernel, ur_device_handle_t hDevice, uint32_t workDim,
    const size_t *pLocalWorkSize, size_t dynamicSharedMemorySize, uint32_t *pGroupCountRet) {
    if (workDim < 1 || workDim > 3)
        return UR_RESULT_ERROR_INVALID_WORK_DIMENSION;
    cuda_kernel_t *k = CUDA_KERNEL(hKernel);
    cuda_device_t *dev = hDevice != NULL ? CUDA_DEVICE(hDevice) : k->program->dev;
    if (!cuda_is(dev, URC_KIND_DEVICE))
        return UR_RESULT_ERROR_INVALID_DEVICE;
    size_t threads = 1;
    for (uint32_t i = 0; i < workDim; ++i)
        threads = saturating_mul(threads, pLocalWorkSize[i]);
    if (threads > (size_t)k->max_threads) {
        *pGroupCountRet = 0;
        return UR_RESULT_SUCCESS;
    }
    ur_result_t res = cuda_activate(dev);
    int per_sm = 0;
    if (res == UR_RESULT_SUCCESS)
        res = cuda_ok(cu.OccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k->fn, (int)threads,
                                                                   dynamicSharedMemorySize),
                      "cuOccupancyMaxActiveBlocksPerMultiprocessor");
    if (res != UR_RESULT_SUCCESS)
        return res;
    *pGroupCountRet = (uint32_t)per_sm * (uint32_t)dev->sm_count;
    return UR_RESULT_SUCCESS;
}

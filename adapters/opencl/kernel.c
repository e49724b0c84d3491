// SPDX-License-Identifier: MIT
// Kernels: creation, queries, execution info and work-size suggestions.
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "ocl_internal.h"
#include "core/release.h"
#include "queue/command_rules.h"

#ifndef CL_KERNEL_REGISTER_COUNT_INTEL // not in our headers; Intel's value
#define CL_KERNEL_REGISTER_COUNT_INTEL 0x425B
#endif

/// Whether launches of the kernel need the fallback assert check (assert.c): the program's
/// "SYCL/assert used" set names the kernel, as DPC++'s sycl-post-link writes it. Decided once
/// here, so launching an unmarked kernel costs one test of this flag.
static bool uses_assert(cl_kernel cl, ur_program_handle_t program, const char *name) {
    if (!urc_props_has_set(program->props, URC_SET_ASSERT_USED))
        return false;
    char buf[256] = "";
    if (name == NULL &&
        clGetKernelInfo(cl, CL_KERNEL_FUNCTION_NAME, sizeof buf, buf, NULL) == CL_SUCCESS)
        name = buf;
    return name != NULL && urc_props_find(program->props, URC_SET_ASSERT_USED, name) != NULL;
}

static ur_result_t kernel_make(cl_kernel cl, ur_program_handle_t program, const char *name,
                               bool owns, ur_kernel_handle_t *out) {
    ur_kernel_handle_t k = URC_NEW(struct ur_kernel_handle_t_);
    if (k == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    urc_object_init(&k->obj, &ocl_ddi, URC_KIND_KERNEL);
    k->cl = cl;
    k->program = program;
    k->context = program->context;
    k->owns_native = owns;
    k->may_assert = uses_assert(cl, program, name);
    // Every argument index is checked against it before the runtime sees one: Intel's runtime
    // reads past its argument table for an index it does not have.
    cl_uint nargs = 0;
    k->num_args = clGetKernelInfo(cl, CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, NULL) == CL_SUCCESS
                      ? (uint32_t)nargs
                      : UINT32_MAX;
    pthread_mutex_init(&k->launch_lock, NULL);
    urc_hold(&program->obj);
    ocl_context_retain_internal(program->context);
    *out = k;
    return UR_RESULT_SUCCESS;
}

uint32_t ocl_kernel_arg_count(const void *kernel) {
    return ocl_is(kernel, URC_KIND_KERNEL) ? ((ur_kernel_handle_t)kernel)->num_args : UINT32_MAX;
}

ur_result_t ocl_kernel_create(ur_program_handle_t hProgram, const char *pKernelName,
                              ur_kernel_handle_t *phKernel) {
    OCL_TRY_UR(ocl_program_has_native(hProgram));
    cl_int err = CL_SUCCESS;
    cl_kernel cl = clCreateKernel(hProgram->cl, pKernelName, &err);
    if (err != CL_SUCCESS)
        return ocl_fail(err, "clCreateKernel");
    ur_result_t result = kernel_make(cl, hProgram, pKernelName, true, phKernel);
    if (result != UR_RESULT_SUCCESS)
        clReleaseKernel(cl);
    return result;
}

URC_RETAIN(ocl_kernel, ur_kernel_handle_t, )

ur_result_t ocl_kernel_release(ur_kernel_handle_t hKernel) {
    ur_result_t released;
    if (!urc_release_destroys(urc_user_release(&hKernel->obj), UR_RESULT_ERROR_INVALID_KERNEL,
                              "urKernelRelease", &released))
        return released;
    if (hKernel->owns_native)
        clReleaseKernel(hKernel->cl);
    ocl_program_release_internal(hKernel->program);
    ocl_context_release_internal(hKernel->context);
    pthread_mutex_destroy(&hKernel->launch_lock);
    URC_OBJECT_FREE(hKernel);
    return UR_RESULT_SUCCESS;
}

ur_result_t ocl_kernel_get_info(ur_kernel_handle_t hKernel, ur_kernel_info_t propName,
                                size_t propSize, void *pPropValue, size_t *pPropSizeRet) {
    const urc_info_t out = {propSize, pPropValue, pPropSizeRet};
    cl_kernel_info param;
    switch (propName) {
    case UR_KERNEL_INFO_REFERENCE_COUNT:
        return urc_info_u32(&out, urc_refcount(&hKernel->obj));
    case UR_KERNEL_INFO_CONTEXT:
        return urc_info_ptr(&out, hKernel->context);
    case UR_KERNEL_INFO_PROGRAM:
        return urc_info_ptr(&out, hKernel->program);
    case UR_KERNEL_INFO_NUM_ARGS: {
        cl_uint n = 0;
        OCL_TRY("clGetKernelInfo",
                clGetKernelInfo(hKernel->cl, CL_KERNEL_NUM_ARGS, sizeof n, &n, NULL));
        return urc_info_u32(&out, n);
    }
    case UR_KERNEL_INFO_NUM_REGS: {
        cl_uint n = 0;
        if (clGetKernelInfo(hKernel->cl, CL_KERNEL_REGISTER_COUNT_INTEL, sizeof n, &n, NULL) !=
            CL_SUCCESS)
            return UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION;
        return urc_info_u32(&out, n);
    }
    case UR_KERNEL_INFO_SPILL_MEM_SIZE: {
        // One value per device of the program; OpenCL reports it per device and kernel.
        ur_program_handle_t p = hKernel->program;
        uint32_t *sizes = urc_calloc(p->num_devices, sizeof *sizes);
        if (sizes == NULL)
            return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
        for (uint32_t i = 0; i < p->num_devices; ++i) {
            cl_ulong v = 0;
            if (clGetKernelWorkGroupInfo(hKernel->cl, p->devices[i]->cl,
                                         CL_KERNEL_SPILL_MEM_SIZE_INTEL, sizeof v, &v,
                                         NULL) != CL_SUCCESS) {
                free(sizes);
                return UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION;
            }
            sizes[i] = (uint32_t)v;
        }
        ur_result_t result = urc_info_bytes(&out, sizes, p->num_devices * sizeof *sizes);
        free(sizes);
        return result;
    }
    case UR_KERNEL_INFO_FUNCTION_NAME:
        param = CL_KERNEL_FUNCTION_NAME;
        break;
    case UR_KERNEL_INFO_ATTRIBUTES:
        param = CL_KERNEL_ATTRIBUTES;
        break;
    default:
        return UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION;
    }
    size_t size = 0;
    OCL_TRY("clGetKernelInfo", clGetKernelInfo(hKernel->cl, param, 0, NULL, &size));
    char *text = calloc(size + 1, 1);
    if (text == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    cl_int err = clGetKernelInfo(hKernel->cl, param, size, text, NULL);
    ur_result_t result =
        err == CL_SUCCESS ? urc_info_string(&out, text) : ocl_fail(err, "clGetKernelInfo");
    free(text);
    return result;
}

ur_result_t ocl_kernel_get_group_info(ur_kernel_handle_t hKernel, ur_device_handle_t hDevice,
                                      ur_kernel_group_info_t propName, size_t propSize,
                                      void *pPropValue, size_t *pPropSizeRet) {
    const urc_info_t out = {propSize, pPropValue, pPropSizeRet};
    cl_kernel_work_group_info param;
    size_t value[3] = {0, 0, 0};
    size_t count = 1;
    switch (propName) {
    case UR_KERNEL_GROUP_INFO_GLOBAL_WORK_SIZE:
        // OpenCL defines it for custom devices and built-in kernels only.
        if (!(hDevice->type & CL_DEVICE_TYPE_CUSTOM))
            return UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION;
        param = CL_KERNEL_GLOBAL_WORK_SIZE;
        count = 3;
        break;
    case UR_KERNEL_GROUP_INFO_WORK_GROUP_SIZE:
        param = CL_KERNEL_WORK_GROUP_SIZE;
        break;
    case UR_KERNEL_GROUP_INFO_COMPILE_WORK_GROUP_SIZE:
        param = CL_KERNEL_COMPILE_WORK_GROUP_SIZE;
        count = 3;
        break;
    case UR_KERNEL_GROUP_INFO_LOCAL_MEM_SIZE:
        param = CL_KERNEL_LOCAL_MEM_SIZE;
        break;
    case UR_KERNEL_GROUP_INFO_PREFERRED_WORK_GROUP_SIZE_MULTIPLE:
        param = CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE;
        break;
    case UR_KERNEL_GROUP_INFO_PRIVATE_MEM_SIZE:
        param = CL_KERNEL_PRIVATE_MEM_SIZE;
        break;
    default:
        // COMPILE_MAX_WORK_GROUP_SIZE and COMPILE_MAX_LINEAR_WORK_GROUP_SIZE: not in OpenCL.
        return UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION;
    }
    // LOCAL_MEM_SIZE and PRIVATE_MEM_SIZE are cl_ulong in OpenCL, size_t in UR.
    if (param == CL_KERNEL_LOCAL_MEM_SIZE || param == CL_KERNEL_PRIVATE_MEM_SIZE) {
        cl_ulong v = 0;
        OCL_TRY("clGetKernelWorkGroupInfo",
                clGetKernelWorkGroupInfo(hKernel->cl, hDevice->cl, param, sizeof v, &v, NULL));
        return urc_info_size(&out, (size_t)v);
    }
    OCL_TRY("clGetKernelWorkGroupInfo",
            clGetKernelWorkGroupInfo(hKernel->cl, hDevice->cl, param, count * sizeof(size_t), value,
                                     NULL));
    return urc_info_bytes(&out, value, count * sizeof(size_t));
}

ur_result_t ocl_kernel_get_sub_group_info(ur_kernel_handle_t hKernel, ur_device_handle_t hDevice,
                                          ur_kernel_sub_group_info_t propName, size_t propSize,
                                          void *pPropValue, size_t *pPropSizeRet) {
    const urc_info_t out = {propSize, pPropValue, pPropSizeRet};
    ocl_get_kernel_sub_group_info_fn fn = NULL;
    if (hDevice->version >= 21)
        fn = clGetKernelSubGroupInfo;
    else if (urc_device_info_word_listed(hDevice->extensions, "cl_khr_subgroups"))
        fn = hDevice->platform->ext.get_kernel_sub_group_info_khr;
    cl_kernel_sub_group_info param;
    switch (propName) {
    case UR_KERNEL_SUB_GROUP_INFO_MAX_SUB_GROUP_SIZE:
        param = CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE;
        break;
    case UR_KERNEL_SUB_GROUP_INFO_MAX_NUM_SUB_GROUPS:
        param = CL_KERNEL_MAX_NUM_SUB_GROUPS;
        break;
    case UR_KERNEL_SUB_GROUP_INFO_COMPILE_NUM_SUB_GROUPS:
        param = CL_KERNEL_COMPILE_NUM_SUB_GROUPS;
        break;
    case UR_KERNEL_SUB_GROUP_INFO_SUB_GROUP_SIZE_INTEL:
        param = CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL;
        break;
    default:
        return UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION;
    }
    // MAX_SUB_GROUP_SIZE is asked for the largest 1D range the device takes.
    size_t range[3] = {1, 1, 1};
    size_t range_size = 0;
    if (param == CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE) {
        cl_uint dims = 0;
        OCL_TRY("clGetDeviceInfo", clGetDeviceInfo(hDevice->cl, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS,
                                                   sizeof dims, &dims, NULL));
        size_t sizes[16] = {0};
        dims = dims > 16 ? 16 : dims;
        OCL_TRY("clGetDeviceInfo", clGetDeviceInfo(hDevice->cl, CL_DEVICE_MAX_WORK_ITEM_SIZES,
                                                   sizeof sizes, sizes, NULL));
        range[0] = sizes[0];
        range_size = (dims < 3 ? dims : 3) * sizeof(size_t);
    }
    size_t v = 0;
    cl_int err = fn != NULL ? fn(hKernel->cl, hDevice->cl, param, range_size,
                                 range_size ? range : NULL, sizeof v, &v, NULL)
                            : CL_INVALID_OPERATION;
    if (err == CL_INVALID_OPERATION || err == CL_INVALID_VALUE) {
        // Devices without sub-groups: each work-item is a sub-group of one (SYCL 2020), and
        // the kernel asks for nothing.
        err = CL_SUCCESS;
        v = param == CL_KERNEL_MAX_NUM_SUB_GROUPS ||
                    param == CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE
                ? 1
                : 0;
    }
    if (err != CL_SUCCESS)
        return ocl_fail(err, "clGetKernelSubGroupInfo");
    return urc_info_u32(&out, (uint32_t)v);
}

ur_result_t ocl_kernel_set_exec_info(ur_kernel_handle_t hKernel, ur_kernel_exec_info_t propName,
                                     size_t propSize,
                                     const ur_kernel_exec_info_properties_t *pProperties,
                                     const void *pPropValue) {
    (void)pProperties;
    bool usm = true;
    for (uint32_t i = 0; i < hKernel->program->num_devices; ++i)
        usm = usm && hKernel->program->devices[i]->usm;
    switch (propName) {
    case UR_KERNEL_EXEC_INFO_USM_INDIRECT_ACCESS: {
        if (propSize < sizeof(ur_bool_t))
            return UR_RESULT_ERROR_INVALID_SIZE;
        if (!*(const ur_bool_t *)pPropValue || !usm)
            return UR_RESULT_SUCCESS; // nothing to allow without USM
        // Let the kernel reach any host, device or shared allocation through pointers
        // stored in memory, so SYCL need not list each one.
        static const cl_kernel_exec_info kinds[] = {
            CL_KERNEL_EXEC_INFO_INDIRECT_HOST_ACCESS_INTEL,
            CL_KERNEL_EXEC_INFO_INDIRECT_DEVICE_ACCESS_INTEL,
            CL_KERNEL_EXEC_INFO_INDIRECT_SHARED_ACCESS_INTEL};
        cl_bool yes = CL_TRUE;
        for (size_t i = 0; i < 3; ++i)
            OCL_TRY("clSetKernelExecInfo",
                    clSetKernelExecInfo(hKernel->cl, kinds[i], sizeof yes, &yes));
        return UR_RESULT_SUCCESS;
    }
    case UR_KERNEL_EXEC_INFO_USM_PTRS:
        if (!usm)
            return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0,
                                 "USM pointers without cl_intel_unified_shared_memory");
        OCL_TRY("clSetKernelExecInfo",
                clSetKernelExecInfo(hKernel->cl, CL_KERNEL_EXEC_INFO_USM_PTRS_INTEL, propSize,
                                    pPropValue));
        return UR_RESULT_SUCCESS;
    case UR_KERNEL_EXEC_INFO_CACHE_CONFIG:
        return UR_RESULT_SUCCESS; // a hint with no OpenCL counterpart
    default:
        return UR_RESULT_ERROR_INVALID_ENUMERATION;
    }
}

ur_result_t
ocl_kernel_set_specialization_constants(ur_kernel_handle_t hKernel, uint32_t count,
                                        const ur_specialization_constant_info_t *pSpecConstants) {
    (void)hKernel; // checked by the generated wrapper
    (void)count;
    (void)pSpecConstants;
    // OpenCL sets specialization constants on programs before building, never on kernels
    // (UR_DEVICE_INFO_KERNEL_SET_SPECIALIZATION_CONSTANTS reports false).
    return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0,
                         "OpenCL has no kernel specialization constants");
}

ur_result_t ocl_kernel_get_native_handle(ur_kernel_handle_t hKernel,
                                         ur_native_handle_t *phNativeKernel) {
    *phNativeKernel = (ur_native_handle_t)hKernel->cl;
    return UR_RESULT_SUCCESS;
}

ur_result_t ocl_kernel_create_with_native_handle(ur_native_handle_t hNativeKernel,
                                                 ur_context_handle_t hContext,
                                                 ur_program_handle_t hProgram,
                                                 const ur_kernel_native_properties_t *pProps,
                                                 ur_kernel_handle_t *phKernel) {
    cl_kernel cl = (cl_kernel)hNativeKernel;
    cl_context cl_ctx = NULL;
    cl_program cl_prog = NULL;
    OCL_TRY("clGetKernelInfo",
            clGetKernelInfo(cl, CL_KERNEL_CONTEXT, sizeof cl_ctx, &cl_ctx, NULL));
    OCL_TRY("clGetKernelInfo",
            clGetKernelInfo(cl, CL_KERNEL_PROGRAM, sizeof cl_prog, &cl_prog, NULL));
    OCL_TRY_UR(ocl_native_in_context(cl_ctx, hContext, "kernel"));
    bool owns = pProps != NULL && pProps->isNativeHandleOwned;
    if (hProgram != NULL) {
        OCL_CHECK_HANDLE(hProgram, URC_KIND_PROGRAM, UR_RESULT_ERROR_INVALID_PROGRAM);
        if (hProgram->cl != cl_prog)
            return urc_error_set(UR_RESULT_ERROR_INVALID_PROGRAM, 0,
                                 "the native kernel belongs to another program");
        return kernel_make(cl, hProgram, NULL, owns, phKernel);
    }
    // No program given: wrap the kernel's native program (holding a reference of its own).
    OCL_TRY("clRetainProgram", clRetainProgram(cl_prog));
    ur_program_native_properties_t owned = {.stype = UR_STRUCTURE_TYPE_PROGRAM_NATIVE_PROPERTIES,
                                            .isNativeHandleOwned = true};
    ur_program_handle_t program = NULL;
    ur_result_t result = ocl_program_create_with_native_handle((ur_native_handle_t)cl_prog,
                                                               hContext, &owned, &program);
    if (result != UR_RESULT_SUCCESS) {
        clReleaseProgram(cl_prog);
        return result;
    }
    result = kernel_make(cl, program, NULL, owns, phKernel);
    ocl_program_release(program); // the kernel holds its own reference
    return result;
}

ur_result_t ocl_kernel_get_suggested_local_work_size(ur_kernel_handle_t hKernel,
                                                     ur_queue_handle_t hQueue, uint32_t numWorkDim,
                                                     const size_t *pGlobalWorkOffset,
                                                     const size_t *pGlobalWorkSize,
                                                     size_t *pSuggestedLocalWorkSize) {
    if (numWorkDim < 1 || numWorkDim > 3)
        return urc_error_set(UR_RESULT_ERROR_INVALID_WORK_DIMENSION, 0,
                             "work dimension %u (1 to 3)", numWorkDim);
    ocl_suggested_local_work_size_fn fn = hQueue->context->platform->ext.suggested_local_work_size;
    if (fn == NULL)
        return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0,
                             "cl_khr_suggested_local_work_size is not available");
    OCL_TRY("clGetKernelSuggestedLocalWorkSizeKHR",
            fn(hQueue->cl, hKernel->cl, numWorkDim, pGlobalWorkOffset, pGlobalWorkSize,
               pSuggestedLocalWorkSize));
    return UR_RESULT_SUCCESS;
}

ur_result_t ocl_kernel_get_suggested_local_work_size_with_args(
    ur_kernel_handle_t hKernel, ur_queue_handle_t hQueue, uint32_t numWorkDim,
    const size_t *pGlobalWorkOffset, const size_t *pGlobalWorkSize, uint32_t numArgs,
    const ur_exp_kernel_arg_properties_t *pArgs, size_t *pSuggestedLocalWorkSize) {
    if (numWorkDim < 1 || numWorkDim > 3)
        return urc_error_set(UR_RESULT_ERROR_INVALID_WORK_DIMENSION, 0,
                             "work dimension %u (1 to 3)", numWorkDim);
    // Indices the kernel does not have are refused as a launch refuses them.
    OCL_TRY_UR(urc_rule_arg_indices(numArgs, pArgs, hKernel->num_args));
    // The suggestion depends on the arguments (local memory sizes), so they are set first,
    // under the lock launches take.
    pthread_mutex_lock(&hKernel->launch_lock);
    ur_result_t result = UR_RESULT_SUCCESS;
    for (uint32_t i = 0; i < numArgs && result == UR_RESULT_SUCCESS; ++i) {
        const ur_exp_kernel_arg_properties_t *a = &pArgs[i];
        cl_int err = CL_SUCCESS;
        if (a->type == UR_EXP_KERNEL_ARG_TYPE_VALUE) {
            err = clSetKernelArg(hKernel->cl, a->index, a->size, a->value.value);
        } else if (a->type == UR_EXP_KERNEL_ARG_TYPE_LOCAL) {
            err = clSetKernelArg(hKernel->cl, a->index, a->size, NULL);
        } else if (a->type == UR_EXP_KERNEL_ARG_TYPE_MEM_OBJ) {
            ur_mem_handle_t m = a->value.memObjTuple.hMem;
            cl_mem mem = ocl_is(m, URC_KIND_MEM) ? m->cl : NULL;
            err = clSetKernelArg(hKernel->cl, a->index, sizeof mem, &mem);
        } else if (a->type == UR_EXP_KERNEL_ARG_TYPE_SAMPLER &&
                   ocl_is(a->value.sampler, URC_KIND_SAMPLER)) {
            err = clSetKernelArg(hKernel->cl, a->index, sizeof(cl_sampler), &a->value.sampler->cl);
        } else if (a->type == UR_EXP_KERNEL_ARG_TYPE_POINTER && hQueue->device->usm) {
            err = hQueue->context->platform->ext.set_kernel_arg_mem_pointer(hKernel->cl, a->index,
                                                                            a->value.pointer);
        } else {
            result =
                urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0,
                              "argument %u: type %d not supported here", a->index, (int)a->type);
        }
        if (err != CL_SUCCESS)
            result = ocl_fail(err, "clSetKernelArg");
    }
    if (result == UR_RESULT_SUCCESS)
        result =
            ocl_kernel_get_suggested_local_work_size(hKernel, hQueue, numWorkDim, pGlobalWorkOffset,
                                                     pGlobalWorkSize, pSuggestedLocalWorkSize);
    pthread_mutex_unlock(&hKernel->launch_lock);
    return result;
}

ur_result_t ocl_kernel_suggest_max_cooperative_group_count(
    ur_kernel_handle_t hKernel, ur_device_handle_t hDevice, uint32_t workDim,
    const size_t *pLocalWorkSize, size_t dynamicSharedMemorySize, uint32_t *pGroupCountRet) {
    (void)hKernel; // checked by the generated wrapper
    (void)hDevice;
    (void)workDim;
    (void)pLocalWorkSize;
    (void)dynamicSharedMemorySize;
    (void)pGroupCountRet;
    return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0,
                         "OpenCL has no cooperative launches");
}

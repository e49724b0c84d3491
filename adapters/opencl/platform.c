// SPDX-License-Identifier: MIT
// Platforms: discovery (once per adapter lifetime), extension entry points, queries.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "ocl_internal.h"

/// Reads "OpenCL <major>.<minor> ..." into major * 10 + minor; 0 when unreadable.
static unsigned parse_version(const char *text) {
    unsigned major = 0, minor = 0;
    if (text == NULL || sscanf(text, "OpenCL %u.%u", &major, &minor) != 2)
        return 0;
    return major * 10 + (minor > 9 ? 9 : minor);
}

static char *platform_string(cl_platform_id p, cl_platform_info param) {
    size_t size = 0;
    if (clGetPlatformInfo(p, param, 0, NULL, &size) != CL_SUCCESS || size == 0)
        return NULL;
    char *s = malloc(size);
    if (s != NULL && clGetPlatformInfo(p, param, size, s, NULL) != CL_SUCCESS)
        URC_FREE(s);
    return s;
}

// Platforms that UR's CUDA and HIP adapters serve; UR's OpenCL adapter skips them too.
static bool platform_banned(cl_platform_id p) {
    char *name = platform_string(p, CL_PLATFORM_NAME);
    bool banned = name != NULL && (strstr(name, "NVIDIA CUDA") != NULL ||
                                   strstr(name, "AMD Accelerated Parallel Processing") != NULL);
    free(name);
    return banned;
}

static void *resolve(cl_platform_id p, const char *name) {
    return clGetExtensionFunctionAddressForPlatform(p, name);
}

static void resolve_extensions(ur_platform_handle_t platform) {
    cl_platform_id p = platform->cl;
    ocl_ext_t *e = &platform->ext;
    e->host_mem_alloc = (clHostMemAllocINTEL_fn)resolve(p, "clHostMemAllocINTEL");
    e->device_mem_alloc = (clDeviceMemAllocINTEL_fn)resolve(p, "clDeviceMemAllocINTEL");
    e->shared_mem_alloc = (clSharedMemAllocINTEL_fn)resolve(p, "clSharedMemAllocINTEL");
    e->mem_blocking_free = (clMemBlockingFreeINTEL_fn)resolve(p, "clMemBlockingFreeINTEL");
    e->get_mem_alloc_info = (clGetMemAllocInfoINTEL_fn)resolve(p, "clGetMemAllocInfoINTEL");
    e->set_kernel_arg_mem_pointer =
        (clSetKernelArgMemPointerINTEL_fn)resolve(p, "clSetKernelArgMemPointerINTEL");
    e->enqueue_mem_fill = (clEnqueueMemFillINTEL_fn)resolve(p, "clEnqueueMemFillINTEL");
    e->enqueue_memcpy = (clEnqueueMemcpyINTEL_fn)resolve(p, "clEnqueueMemcpyINTEL");
    e->create_buffer_with_properties =
        (clCreateBufferWithPropertiesINTEL_fn)resolve(p, "clCreateBufferWithPropertiesINTEL");
    // Intel's CPU runtime 2026.2 does not list cl_intel_global_variable_access but resolves
    // these three; support is decided by resolution, not by the extension string.
    e->get_global_variable_pointer =
        (ocl_get_global_variable_pointer_fn)resolve(p, "clGetDeviceGlobalVariablePointerINTEL");
    e->enqueue_write_global_variable =
        (ocl_enqueue_write_global_variable_fn)resolve(p, "clEnqueueWriteGlobalVariableINTEL");
    e->enqueue_read_global_variable =
        (ocl_enqueue_read_global_variable_fn)resolve(p, "clEnqueueReadGlobalVariableINTEL");
    e->get_function_pointer =
        (ocl_get_function_pointer_fn)resolve(p, "clGetDeviceFunctionPointerINTEL");
    e->create_program_with_il_khr =
        (ocl_create_program_with_il_fn)resolve(p, "clCreateProgramWithILKHR");
    e->get_kernel_sub_group_info_khr =
        (ocl_get_kernel_sub_group_info_fn)resolve(p, "clGetKernelSubGroupInfoKHR");
    e->suggested_local_work_size =
        (ocl_suggested_local_work_size_fn)resolve(p, "clGetKernelSuggestedLocalWorkSizeKHR");
    ocl_cmdbuf_ext_t *cb = &e->cb;
    cb->create = (ocl_create_command_buffer_fn)resolve(p, "clCreateCommandBufferKHR");
    cb->finalize = (ocl_command_buffer_op_fn)resolve(p, "clFinalizeCommandBufferKHR");
    cb->retain = (ocl_command_buffer_op_fn)resolve(p, "clRetainCommandBufferKHR");
    cb->release = (ocl_command_buffer_op_fn)resolve(p, "clReleaseCommandBufferKHR");
    cb->enqueue = (ocl_enqueue_command_buffer_fn)resolve(p, "clEnqueueCommandBufferKHR");
    cb->barrier = (ocl_command_barrier_fn)resolve(p, "clCommandBarrierWithWaitListKHR");
    cb->ndrange = (ocl_command_ndrange_fn)resolve(p, "clCommandNDRangeKernelKHR");
    cb->copy = (ocl_command_copy_buffer_fn)resolve(p, "clCommandCopyBufferKHR");
    cb->copy_rect = (ocl_command_copy_buffer_rect_fn)resolve(p, "clCommandCopyBufferRectKHR");
    cb->fill = (ocl_command_fill_buffer_fn)resolve(p, "clCommandFillBufferKHR");
    cb->svm_memcpy = (ocl_command_svm_memcpy_fn)resolve(p, "clCommandSVMMemcpyKHR");
    cb->svm_fill = (ocl_command_svm_fill_fn)resolve(p, "clCommandSVMMemFillKHR");
    cb->update = (ocl_update_mutable_commands_fn)resolve(p, "clUpdateMutableCommandsKHR");
}

static void platform_destroy(ur_platform_handle_t platform) {
    for (uint32_t i = 0; i < platform->num_devices; ++i)
        ocl_device_destroy(platform->devices[i]);
    free(platform->devices);
    URC_OBJECT_FREE(platform);
}

/// Builds one platform and its root devices; *out stays NULL when it has no usable device.
static ur_result_t platform_create(ur_adapter_handle_t adapter, cl_platform_id cl,
                                   ur_platform_handle_t *out) {
    *out = NULL;
    ur_platform_handle_t platform = URC_NEW(struct ur_platform_handle_t_);
    if (platform == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    urc_object_init(&platform->obj, &ocl_ddi, URC_KIND_PLATFORM);
    platform->cl = cl;
    platform->adapter = adapter;
    char *version = platform_string(cl, CL_PLATFORM_VERSION);
    platform->version = parse_version(version);
    free(version);
    resolve_extensions(platform);

    cl_uint count = 0;
    cl_int err = clGetDeviceIDs(cl, CL_DEVICE_TYPE_ALL, 0, NULL, &count);
    if (err == CL_DEVICE_NOT_FOUND || count == 0) {
        platform_destroy(platform);
        return UR_RESULT_SUCCESS;
    }
    if (err != CL_SUCCESS) {
        platform_destroy(platform);
        return ocl_fail(err, "clGetDeviceIDs");
    }
    cl_device_id *ids = urc_calloc(count, sizeof *ids);
    platform->devices = urc_calloc(count, sizeof *platform->devices);
    ur_result_t result = UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    if (ids == NULL || platform->devices == NULL)
        goto fail;
    err = clGetDeviceIDs(cl, CL_DEVICE_TYPE_ALL, count, ids, NULL);
    if (err != CL_SUCCESS) {
        result = ocl_fail(err, "clGetDeviceIDs");
        goto fail;
    }
    for (cl_uint i = 0; i < count; ++i) {
        // Accelerators (FPGA emulators and the like) are skipped, as UR's adapter does.
        cl_device_type type = 0;
        if (clGetDeviceInfo(ids[i], CL_DEVICE_TYPE, sizeof type, &type, NULL) == CL_SUCCESS &&
            (type & CL_DEVICE_TYPE_ACCELERATOR) != 0)
            continue;
        result =
            ocl_device_create(platform, ids[i], NULL, &platform->devices[platform->num_devices]);
        if (result != UR_RESULT_SUCCESS)
            goto fail;
        platform->num_devices++;
    }
    free(ids);
    if (platform->num_devices == 0)
        platform_destroy(platform);
    else
        *out = platform;
    return UR_RESULT_SUCCESS;

fail:
    free(ids);
    platform_destroy(platform);
    return result;
}

ur_result_t ocl_platform_discover(ur_adapter_handle_t adapter) {
    ur_result_t result = UR_RESULT_SUCCESS;
    pthread_mutex_lock(&adapter->lock);
    if (adapter->discovered)
        goto done;
    cl_uint count = 0;
    cl_int err = clGetPlatformIDs(0, NULL, &count);
    // The ICD loader says CL_PLATFORM_NOT_FOUND_KHR when no vendor is installed: no platforms.
    if (err == CL_PLATFORM_NOT_FOUND_KHR || (err == CL_SUCCESS && count == 0)) {
        adapter->discovered = true;
        goto done;
    }
    if (err != CL_SUCCESS) {
        result = ocl_fail(err, "clGetPlatformIDs");
        goto done;
    }
    cl_platform_id *ids = urc_calloc(count, sizeof *ids);
    adapter->platforms = urc_calloc(count, sizeof *adapter->platforms);
    if (ids == NULL || adapter->platforms == NULL) {
        free(ids);
        URC_FREE(adapter->platforms);
        result = UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
        goto done;
    }
    err = clGetPlatformIDs(count, ids, NULL);
    for (cl_uint i = 0; err == CL_SUCCESS && i < count; ++i) {
        if (platform_banned(ids[i]))
            continue;
        ur_platform_handle_t platform = NULL;
        result = platform_create(adapter, ids[i], &platform);
        if (result != UR_RESULT_SUCCESS)
            break;
        if (platform != NULL)
            adapter->platforms[adapter->num_platforms++] = platform;
    }
    free(ids);
    if (err != CL_SUCCESS)
        result = ocl_fail(err, "clGetPlatformIDs");
    if (result != UR_RESULT_SUCCESS) {
        // Leave nothing half-built: the next urPlatformGet tries again.
        for (uint32_t i = 0; i < adapter->num_platforms; ++i)
            platform_destroy(adapter->platforms[i]);
        URC_FREE(adapter->platforms);
        adapter->num_platforms = 0;
        goto done;
    }
    adapter->discovered = true;
done:
    pthread_mutex_unlock(&adapter->lock);
    return result;
}

void ocl_platforms_destroy(ur_adapter_handle_t adapter) {
    pthread_mutex_lock(&adapter->lock);
    for (uint32_t i = 0; i < adapter->num_platforms; ++i)
        platform_destroy(adapter->platforms[i]);
    URC_FREE(adapter->platforms);
    adapter->num_platforms = 0;
    adapter->discovered = false;
    pthread_mutex_unlock(&adapter->lock);
}

ur_device_handle_t ocl_device_find(cl_device_id cl) {
    ur_adapter_handle_t adapter = ocl_the_adapter();
    ur_device_handle_t found = NULL;
    if (ocl_platform_discover(adapter) == UR_RESULT_SUCCESS) {
        for (uint32_t i = 0; found == NULL && i < adapter->num_platforms; ++i) {
            ur_platform_handle_t p = adapter->platforms[i];
            for (uint32_t j = 0; j < p->num_devices; ++j)
                if (p->devices[j]->cl == cl)
                    found = p->devices[j];
        }
    }
    return found;
}

ur_result_t ocl_platform_get(ur_adapter_handle_t hAdapter, uint32_t NumEntries,
                             ur_platform_handle_t *phPlatforms, uint32_t *pNumPlatforms) {
    OCL_TRY_UR(ocl_platform_discover(hAdapter));
    // Only as many as exist are written, whatever NumEntries says (UR wrote NumEntries).
    uint32_t n = hAdapter->num_platforms;
    if (n == 0)
        urc_error_set(UR_RESULT_SUCCESS, 0,
                      "no OpenCL platform: the OpenCL ICD loader lists none (no ICD in "
                      "/etc/OpenCL/vendors, or OCL_ICD_VENDORS names none)");
    for (uint32_t i = 0; phPlatforms != NULL && i < NumEntries && i < n; ++i)
        phPlatforms[i] = hAdapter->platforms[i];
    if (pNumPlatforms != NULL)
        *pNumPlatforms = n;
    return UR_RESULT_SUCCESS;
}

ur_result_t ocl_platform_get_info(ur_platform_handle_t hPlatform, ur_platform_info_t propName,
                                  size_t propSize, void *pPropValue, size_t *pPropSizeRet) {
    const urc_info_t out = {propSize, pPropValue, pPropSizeRet};
    cl_platform_info param;
    switch (propName) {
    case UR_PLATFORM_INFO_BACKEND: {
        ur_backend_t backend = UR_BACKEND_OPENCL;
        return urc_info_bytes(&out, &backend, sizeof backend);
    }
    case UR_PLATFORM_INFO_ADAPTER:
        return urc_info_ptr(&out, hPlatform->adapter);
    case UR_PLATFORM_INFO_NAME:
        param = CL_PLATFORM_NAME;
        break;
    case UR_PLATFORM_INFO_VENDOR_NAME:
        param = CL_PLATFORM_VENDOR;
        break;
    case UR_PLATFORM_INFO_VERSION:
        param = CL_PLATFORM_VERSION;
        break;
    case UR_PLATFORM_INFO_EXTENSIONS:
        param = CL_PLATFORM_EXTENSIONS;
        break;
    case UR_PLATFORM_INFO_PROFILE:
        param = CL_PLATFORM_PROFILE;
        break;
    default:
        return UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION;
    }
    char *text = platform_string(hPlatform->cl, param);
    if (text == NULL)
        return urc_error_set(UR_RESULT_ERROR_ADAPTER_SPECIFIC, CL_INVALID_VALUE,
                             "clGetPlatformInfo(0x%x) failed", (unsigned)param);
    ur_result_t result = urc_info_string(&out, text);
    free(text);
    return result;
}

URC_PLATFORM_GET_API_VERSION(ocl)

ur_result_t ocl_platform_get_native_handle(ur_platform_handle_t hPlatform,
                                           ur_native_handle_t *phNativePlatform) {
    *phNativePlatform = (ur_native_handle_t)hPlatform->cl;
    return UR_RESULT_SUCCESS;
}

ur_result_t ocl_platform_create_with_native_handle(ur_native_handle_t hNativePlatform,
                                                   ur_adapter_handle_t hAdapter,
                                                   const ur_platform_native_properties_t *pProps,
                                                   ur_platform_handle_t *phPlatform) {
    (void)pProps; // platforms are never owned by their UR handle
    OCL_TRY_UR(ocl_platform_discover(hAdapter));
    for (uint32_t i = 0; i < hAdapter->num_platforms; ++i) {
        if ((ur_native_handle_t)hAdapter->platforms[i]->cl == hNativePlatform) {
            *phPlatform = hAdapter->platforms[i];
            return UR_RESULT_SUCCESS;
        }
    }
    return urc_error_set(UR_RESULT_ERROR_INVALID_PLATFORM, 0,
                         "no OpenCL platform with native handle %p", (void *)hNativePlatform);
}

// The translations of UR's OpenCL adapter for the options SYCL passes.
static const urc_backend_option_t backend_options[] = {
    {"", ""},
    {"-O0", "-cl-opt-disable"},
    {"-O1", ""},
    {"-O2", ""},
    {"-O3", ""},
    {"-ftarget-compile-fast", "-igc_opts 'PartitionUnit=1,SubroutineThreshold=50000'"},
    {"-foffload-fp32-prec-div", "-cl-fp32-correctly-rounded-divide-sqrt"},
    {"-foffload-fp32-prec-sqrt", "-cl-fp32-correctly-rounded-divide-sqrt"},
};

URC_PLATFORM_GET_BACKEND_OPTION(ocl, backend_options)

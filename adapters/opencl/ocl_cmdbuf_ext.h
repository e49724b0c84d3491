// SPDX-License-Identifier: MIT
// cl_khr_command_buffer 1.0 and cl_khr_command_buffer_mutable_dispatch 0.9.3 as the adapter
// calls them. Debian's OpenCL headers (2023.02) describe provisional 0.9.x versions whose
// functions took other parameters, so the entry points are declared here with the final
// signatures; devices are used only when they report versions with these signatures.
#ifndef URC_OCL_CMDBUF_EXT_H
#define URC_OCL_CMDBUF_EXT_H

#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <CL/cl_ext.h>

typedef cl_uint ocl_sync_point_t;
typedef cl_properties ocl_command_properties_t;

// Device queries and flags of the final extension (some absent from the old headers).
#define OCL_DEVICE_COMMAND_BUFFER_CAPABILITIES          0x12A9
#define OCL_DEVICE_COMMAND_BUFFER_SUPPORTED_QUEUE_PROPS 0x129A
#define OCL_DEVICE_COMMAND_BUFFER_REQUIRED_QUEUE_PROPS  0x12AA
#define OCL_COMMAND_BUFFER_CAPABILITY_SIMULTANEOUS_USE  (1u << 2)
#define OCL_COMMAND_BUFFER_FLAGS                        0x1293
#define OCL_COMMAND_BUFFER_MUTABLE                      (1u << 1)
#define OCL_DEVICE_MUTABLE_DISPATCH_CAPABILITIES        0x12B0
#define OCL_MUTABLE_DISPATCH_UPDATABLE_FIELDS           0x12B1
#define OCL_MUTABLE_DISPATCH_GLOBAL_OFFSET              (1u << 0)
#define OCL_MUTABLE_DISPATCH_GLOBAL_SIZE                (1u << 1)
#define OCL_MUTABLE_DISPATCH_LOCAL_SIZE                 (1u << 2)
#define OCL_MUTABLE_DISPATCH_ARGUMENTS                  (1u << 3)
#define OCL_STRUCTURE_TYPE_MUTABLE_DISPATCH_CONFIG      0

/// One argument of a mutable-dispatch update.
typedef struct ocl_mutable_arg_t {
    cl_uint arg_index;
    size_t arg_size;
    const void *arg_value;
} ocl_mutable_arg_t;

/// One kernel command's update (cl_mutable_dispatch_config_khr of version 0.9.3).
typedef struct ocl_mutable_dispatch_config_t {
    cl_mutable_command_khr command;
    cl_uint num_args;
    cl_uint num_svm_args;
    cl_uint num_exec_infos;
    cl_uint work_dim;
    const ocl_mutable_arg_t *arg_list;
    const ocl_mutable_arg_t *arg_svm_list;
    const void *exec_info_list;
    const size_t *global_work_offset;
    const size_t *global_work_size;
    const size_t *local_work_size;
} ocl_mutable_dispatch_config_t;

typedef cl_command_buffer_khr(CL_API_CALL *ocl_create_command_buffer_fn)(
    cl_uint, const cl_command_queue *, const cl_command_buffer_properties_khr *, cl_int *);
typedef cl_int(CL_API_CALL *ocl_command_buffer_op_fn)(cl_command_buffer_khr);
typedef cl_int(CL_API_CALL *ocl_enqueue_command_buffer_fn)(cl_uint, cl_command_queue *,
                                                           cl_command_buffer_khr, cl_uint,
                                                           const cl_event *, cl_event *);
typedef cl_int(CL_API_CALL *ocl_command_barrier_fn)(cl_command_buffer_khr, cl_command_queue,
                                                    const ocl_command_properties_t *, cl_uint,
                                                    const ocl_sync_point_t *, ocl_sync_point_t *,
                                                    cl_mutable_command_khr *);
typedef cl_int(CL_API_CALL *ocl_command_ndrange_fn)(cl_command_buffer_khr, cl_command_queue,
                                                    const ocl_command_properties_t *, cl_kernel,
                                                    cl_uint, const size_t *, const size_t *,
                                                    const size_t *, cl_uint,
                                                    const ocl_sync_point_t *, ocl_sync_point_t *,
                                                    cl_mutable_command_khr *);
typedef cl_int(CL_API_CALL *ocl_command_copy_buffer_fn)(cl_command_buffer_khr, cl_command_queue,
                                                        const ocl_command_properties_t *, cl_mem,
                                                        cl_mem, size_t, size_t, size_t, cl_uint,
                                                        const ocl_sync_point_t *,
                                                        ocl_sync_point_t *,
                                                        cl_mutable_command_khr *);
typedef cl_int(CL_API_CALL *ocl_command_copy_buffer_rect_fn)(
    cl_command_buffer_khr, cl_command_queue, const ocl_command_properties_t *, cl_mem, cl_mem,
    const size_t *, const size_t *, const size_t *, size_t, size_t, size_t, size_t, cl_uint,
    const ocl_sync_point_t *, ocl_sync_point_t *, cl_mutable_command_khr *);
typedef cl_int(CL_API_CALL *ocl_command_fill_buffer_fn)(cl_command_buffer_khr, cl_command_queue,
                                                        const ocl_command_properties_t *, cl_mem,
                                                        const void *, size_t, size_t, size_t,
                                                        cl_uint, const ocl_sync_point_t *,
                                                        ocl_sync_point_t *,
                                                        cl_mutable_command_khr *);
typedef cl_int(CL_API_CALL *ocl_command_svm_memcpy_fn)(cl_command_buffer_khr, cl_command_queue,
                                                       const ocl_command_properties_t *, void *,
                                                       const void *, size_t, cl_uint,
                                                       const ocl_sync_point_t *, ocl_sync_point_t *,
                                                       cl_mutable_command_khr *);
typedef cl_int(CL_API_CALL *ocl_command_svm_fill_fn)(cl_command_buffer_khr, cl_command_queue,
                                                     const ocl_command_properties_t *, void *,
                                                     const void *, size_t, size_t, cl_uint,
                                                     const ocl_sync_point_t *, ocl_sync_point_t *,
                                                     cl_mutable_command_khr *);
typedef cl_int(CL_API_CALL *ocl_update_mutable_commands_fn)(cl_command_buffer_khr, cl_uint,
                                                            const cl_uint *, const void **);

/// The extension's functions on one platform; NULL when not resolved.
typedef struct ocl_cmdbuf_ext_t {
    ocl_create_command_buffer_fn create;
    ocl_command_buffer_op_fn finalize, retain, release;
    ocl_enqueue_command_buffer_fn enqueue;
    ocl_command_barrier_fn barrier;
    ocl_command_ndrange_fn ndrange;
    ocl_command_copy_buffer_fn copy;
    ocl_command_copy_buffer_rect_fn copy_rect;
    ocl_command_fill_buffer_fn fill;
    ocl_command_svm_memcpy_fn svm_memcpy;
    ocl_command_svm_fill_fn svm_fill;
    ocl_update_mutable_commands_fn update;
} ocl_cmdbuf_ext_t;

#endif // URC_OCL_CMDBUF_EXT_H

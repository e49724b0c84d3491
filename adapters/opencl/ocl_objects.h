// SPDX-License-Identifier: MIT
// The OpenCL adapter's handles. Each UR handle type is completed here, so adapter code reads
// fields without casts; every struct starts with the common object header (ddi at offset 0).
#ifndef URC_OCL_OBJECTS_H
#define URC_OCL_OBJECTS_H

#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <CL/cl_ext.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "queue/command_buffer.h"
#include "program/devglobal.h"
#include "image/image.h"
#include "env/log.h"
#include "core/object.h"
#include "core/deleters.h"
#include "program/props.h"
#include "queue/queue_registry.h"
#include "program/requirements.h"
#include "queue/reusable_event.h"
#include "ocl_cmdbuf_ext.h"
#include "ur_api.h"

// Extension entry points that cl_ext.h does not declare (cl_intel_global_variable_access and
// cl_intel_function_pointers), with the signatures Intel's runtimes export.
typedef cl_int(CL_API_CALL *ocl_get_global_variable_pointer_fn)(cl_device_id, cl_program,
                                                                const char *, size_t *, void **);
typedef cl_int(CL_API_CALL *ocl_enqueue_write_global_variable_fn)(cl_command_queue, cl_program,
                                                                  const char *, cl_bool, size_t,
                                                                  size_t, const void *, cl_uint,
                                                                  const cl_event *, cl_event *);
typedef cl_int(CL_API_CALL *ocl_enqueue_read_global_variable_fn)(cl_command_queue, cl_program,
                                                                 const char *, cl_bool, size_t,
                                                                 size_t, void *, cl_uint,
                                                                 const cl_event *, cl_event *);
typedef cl_int(CL_API_CALL *ocl_get_function_pointer_fn)(cl_device_id, cl_program, const char *,
                                                         cl_ulong *);
typedef cl_program(CL_API_CALL *ocl_create_program_with_il_fn)(cl_context, const void *, size_t,
                                                               cl_int *);
typedef cl_int(CL_API_CALL *ocl_get_kernel_sub_group_info_fn)(cl_kernel, cl_device_id,
                                                              cl_kernel_sub_group_info, size_t,
                                                              const void *, size_t, void *,
                                                              size_t *);
typedef cl_int(CL_API_CALL *ocl_suggested_local_work_size_fn)(cl_command_queue, cl_kernel, cl_uint,
                                                              const size_t *, const size_t *,
                                                              size_t *);

/// Extension functions of one platform, resolved once when the platform is discovered with
/// clGetExtensionFunctionAddressForPlatform. A platform lives as long as the adapter, so no
/// pointer here can outlive the library that provides it (UR cached them per cl_context and
/// had to clear the cache on context release). NULL means "not available".
typedef struct ocl_ext_t {
    clHostMemAllocINTEL_fn host_mem_alloc;
    clDeviceMemAllocINTEL_fn device_mem_alloc;
    clSharedMemAllocINTEL_fn shared_mem_alloc;
    clMemBlockingFreeINTEL_fn mem_blocking_free;
    clGetMemAllocInfoINTEL_fn get_mem_alloc_info;
    clSetKernelArgMemPointerINTEL_fn set_kernel_arg_mem_pointer;
    clEnqueueMemFillINTEL_fn enqueue_mem_fill;
    clEnqueueMemcpyINTEL_fn enqueue_memcpy;
    clCreateBufferWithPropertiesINTEL_fn create_buffer_with_properties;
    ocl_get_global_variable_pointer_fn get_global_variable_pointer;
    ocl_enqueue_write_global_variable_fn enqueue_write_global_variable;
    ocl_enqueue_read_global_variable_fn enqueue_read_global_variable;
    ocl_get_function_pointer_fn get_function_pointer;
    ocl_create_program_with_il_fn create_program_with_il_khr;
    ocl_get_kernel_sub_group_info_fn get_kernel_sub_group_info_khr;
    ocl_suggested_local_work_size_fn suggested_local_work_size;
    ocl_cmdbuf_ext_t cb; // cl_khr_command_buffer (+ mutable dispatch)
} ocl_ext_t;

struct ur_adapter_handle_t_ {
    urc_object_t obj;
    urc_logger_t *log;
    pthread_mutex_t lock; // guards platform discovery
    bool discovered;
    uint32_t num_platforms;
    struct ur_platform_handle_t_ **platforms;
};

struct ur_platform_handle_t_ {
    urc_object_t obj;
    cl_platform_id cl;
    ur_adapter_handle_t adapter;
    unsigned version; // major * 10 + minor, e.g. 30 for OpenCL 3.0
    ocl_ext_t ext;
    uint32_t num_devices;
    struct ur_device_handle_t_ **devices;
};

struct ur_device_handle_t_ {
    urc_object_t obj;
    cl_device_id cl;
    ur_platform_handle_t platform;
    ur_device_handle_t parent; // NULL for a root device
    cl_device_type type;
    unsigned version; // major * 10 + minor
    char *extensions; // what UR_DEVICE_INFO_EXTENSIONS reports (see ocl_device_init)
    bool native_assert;
    bool il;               // takes SPIR-V: OpenCL 2.1 or cl_khr_il_program, and an IL version
    bool usm;              // cl_intel_unified_shared_memory listed and its functions resolved
    bool global_variables; // the three cl_intel_global_variable_access functions resolved
    // Command buffers (command_buffer.c): what UR's device queries report, whether a buffer
    // may run again while a run is pending, and the queue properties recording needs.
    urc_cb_caps_t cb_caps;
    bool cb_simultaneous;
    cl_command_queue_properties cb_queue_properties;
    bool cb_replay; // no usable extension: appends are recorded and replayed at each enqueue
    // SYCL aspects and limits for requirement checks, computed on first use (ocl_device_caps).
    _Atomic(urc_device_caps_t *) caps;
    struct ur_device_handle_t_ *next_sub; // the list of live sub-devices (device.c)
    urc_queue_registry_t queues;          // live queues of this device, for urDeviceWaitExp
};

/// A callback from urContextSetExtendedDeleter, run when the context is destroyed.
struct ur_context_handle_t_ {
    urc_object_t obj;
    cl_context cl;
    ur_platform_handle_t platform;
    uint32_t num_devices;
    ur_device_handle_t *devices; // each retained
    bool owns_native;
    pthread_mutex_t lock; // guards deleters
    urc_deleter_t *deleters;
};

/// A launch of an assert-using kernel whose fallback record is still to be read (assert.c).
typedef struct ocl_assert_check_t {
    ur_program_handle_t program; // retained
    cl_event done;               // retained; completes when the program's launches have
} ocl_assert_check_t;

struct ur_queue_handle_t_ {
    urc_object_t obj;
    cl_command_queue cl;
    ur_context_handle_t context; // retained
    ur_device_handle_t device;   // retained
    cl_command_queue_properties properties;
    bool owns_native;
    // Fallback assert (assert.c): launches of kernels marked in "SYCL/assert used" on a device
    // without native assert, one entry per program. Only those launches touch these fields;
    // synchronising calls look at `assert_pending` alone when it is 0.
    _Atomic uint32_t assert_pending; // entries in assert_checks
    pthread_mutex_t assert_lock;     // guards assert_checks and assert_reader
    ocl_assert_check_t *assert_checks;
    uint32_t assert_capacity;
    cl_command_queue assert_reader; // private in-order queue for record reads, made on demand
    // Profiling in-order queue for timestamps when `cl` has no profiling (host_task.c), made
    // on demand.
    _Atomic(cl_command_queue) timestamps;
};

struct ur_event_handle_t_ {
    urc_object_t obj;
    cl_event cl;
    ur_context_handle_t context;      // retained
    _Atomic(ur_queue_handle_t) queue; // retained; made on demand for native events
    ur_command_t command;             // UR_COMMAND_FORCE_UINT32 when unknown (native events)
    bool owns_native;
    ur_program_handle_t assert_program; // retained; set on launches that need a fallback check
    // urEnqueueTimestampRecordingExp's events: the device's time at the call (0: not known),
    // which UR reports as QUEUED and SUBMIT.
    uint64_t stamp_call_ns;
    // urEventCreateExp's events: each signal replaces `cl` and `queue`, under reusable->lock
    // (reusable_event.c); NULL for every other event.
    urc_reusable_t *reusable;
};

struct ur_mem_handle_t_ {
    urc_object_t obj;
    cl_mem cl;
    ur_context_handle_t context; // retained
    ur_mem_handle_t parent;      // retained; the buffer a sub-buffer was cut from
    size_t size;
    bool owns_native;
    bool is_image;     // an image: `image` describes it (image.c)
    urc_image_t image; // format, shape and the driver's pitches
};

struct ur_sampler_handle_t_ {
    urc_object_t obj;
    cl_sampler cl;
    ur_context_handle_t context; // retained
    urc_sampler_t desc;
    bool owns_native;
};

struct ur_program_handle_t_ {
    urc_object_t obj;
    cl_program cl;               // NULL for a link urc refused: such a program carries only its log
    ur_context_handle_t context; // retained
    uint32_t num_devices;
    ur_device_handle_t *devices; // retained
    urc_props_t *props;          // metadata from creation, or the union of a link's inputs
    bool owns_native;
    pthread_mutex_t lock;               // guards creation and reset of the caches below
    _Atomic(urc_dg_cache_t *) *globals; // name -> (address, size), one per device
    _Atomic uint64_t generation;        // unique per program and build (see device_global.c)
    // What urc itself says about the last build, compile or link, per device: requirement
    // failures (seed 002) and virtual-function selection (seed 003). Guarded by `lock`.
    char **logs;
    bool *failed;                // urc refused the step for that device: build status ERROR
    pthread_mutex_t assert_lock; // one fallback-record read and reset at a time (assert.c)
};

struct ur_kernel_handle_t_ {
    urc_object_t obj;
    cl_kernel cl;
    ur_program_handle_t program; // retained
    ur_context_handle_t context; // retained
    bool owns_native;
    bool may_assert;   // listed in the program's "SYCL/assert used" (fallback assert, assert.c)
    uint32_t num_args; // CL_KERNEL_NUM_ARGS (UINT32_MAX when the runtime did not say)
    // OpenCL keeps arguments in the cl_kernel, so setting them and enqueueing must not
    // interleave between threads launching the same kernel.
    pthread_mutex_t launch_lock;
};

/// A command buffer: the cl_command_buffer_khr recorded for an adapter-made queue of the
/// device, and the shared state machine and sync points (common/queue/command_buffer.h).
struct ur_exp_command_buffer_handle_t_ {
    urc_object_t obj;
    urc_cb_t core;
    cl_command_buffer_khr cl;
    cl_command_queue queue;      // the queue it records for; runs go to the caller's queue
    ur_context_handle_t context; // retained
    ur_device_handle_t device;
    pthread_mutex_t run_lock; // guards last_run
    cl_event last_run;        // without simultaneous use, a run waits for the previous one
    // The replay path (command_buffer_replay.c; `cl` and `queue` are NULL): the commands
    // recorded, in append order.
    bool replay;
    uint32_t num_recorded, recorded_capacity;
    struct ocl_replay_cmd_t *recorded;
};

/// A command handle (updatable buffers only): its mutable command and the kernel snapshot.
struct ur_exp_command_buffer_command_handle_t_ {
    urc_object_t obj;
    urc_cb_command_t core;
    ur_exp_command_buffer_handle_t buffer; // not retained: commands live as long as it
    cl_mutable_command_khr cl;
};

#endif // URC_OCL_OBJECTS_H

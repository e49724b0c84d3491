// SPDX-License-Identifier: MIT
// Shared declarations of the simulated Level Zero driver (not installed, not for tests).
#ifndef URC_TEST_ZE_SIM_ZE_SIM_INTERNAL_H
#define URC_TEST_ZE_SIM_ZE_SIM_INTERNAL_H

#include <level_zero/ze_api.h>
#include <level_zero/zes_api.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "ze_sim.h"

// ---------------------------------------------------------------------------------------------
// Fixed facts about the simulated device (device.c reports them, others enforce them).
#define SIM_MAX_GROUP_SIZE    1024u
#define SIM_MAX_GROUP_SIZE_Z  64u
#define SIM_MAX_FILL_PATTERN  128u
#define SIM_NUM_QUEUES        4u
#define SIM_TOTAL_MEMORY      (8ull << 30)
#define SIM_MAX_ALLOC         (4ull << 30)
#define SIM_DEFAULT_ALIGN     64u
#define SIM_PAGE_SIZE         4096u
#define SIM_TIMESTAMP_BITS    56u
#define SIM_KERNEL_TS_BITS    32u
#define SIM_MAX_SUBGROUP      32u
#define SIM_SPIRV_VERSION_MAX ZE_MAKE_VERSION(1, 4)
#define SIM_MAX_IMAGE_2D      16384u // width, height and array layers of 1D and 2D images
#define SIM_MAX_IMAGE_3D      2048u  // each extent of a 3D image
#define SIM_MAX_SAMPLERS      16u

// ---------------------------------------------------------------------------------------------
// Handles: every object starts with this header so a stale or foreign handle is refused.
#define SIM_MAGIC      0x5a45534du /* "ZESM" */
#define SIM_MAGIC_DEAD 0xdeadbeefu

typedef enum sim_kind {
    SIM_KIND_DRIVER = 1,
    SIM_KIND_DEVICE,
    SIM_KIND_CONTEXT,
    SIM_KIND_EVENT_POOL,
    SIM_KIND_EVENT,
    SIM_KIND_FENCE,
    SIM_KIND_QUEUE,
    SIM_KIND_CMDLIST,
    SIM_KIND_MODULE,
    SIM_KIND_BUILD_LOG,
    SIM_KIND_KERNEL,
    SIM_KIND_SAMPLER,
    SIM_KIND_SYSMAN_MEMORY,
    SIM_KIND_IMAGE,
    SIM_KIND_PHYSICAL_MEM,
} sim_kind_t;

typedef struct sim_header {
    uint32_t magic;
    uint32_t kind;
} sim_header_t;

void sim_obj_init(sim_header_t *hdr, sim_kind_t kind);
void sim_obj_fini(sim_header_t *hdr);
/// Returns the object behind a handle, or NULL with *res set to the error to report.
void *sim_obj(const void *handle, sim_kind_t kind, ze_result_t *res);
uint64_t sim_obj_live_count(void);

// ---------------------------------------------------------------------------------------------
// Driver, device, context (driver.c, device.c, context.c).
typedef struct sim_driver {
    sim_header_t hdr;
} sim_driver_t;

typedef struct sim_device {
    sim_header_t hdr;
} sim_device_t;

typedef struct sim_context {
    sim_header_t hdr;
    ze_context_flags_t flags;
} sim_context_t;

sim_driver_t *sim_the_driver(void);
sim_device_t *sim_the_device(void);
/// Whether one device reaches the other's memory (itself always; devices 0 and 1 each other).
int sim_device_peers(ze_device_handle_t hDevice, ze_device_handle_t hPeer);
int sim_initialized(void);
uint64_t sim_now_ns(void);
/// Device-side clock: the host clock masked to the advertised valid bits.
uint64_t sim_device_ts(void);
uint64_t sim_kernel_ts(void);
void sim_fill_device_properties(ze_device_properties_t *props);
/// Reads a boolean/number environment variable once per call site (sim only, not urc's env).
uint64_t sim_env_u64(const char *name, uint64_t fallback);

/// Walks an output pNext chain; returns the first struct with the given stype or NULL.
void *sim_find_ext(void *pnext, ze_structure_type_t stype);
const void *sim_find_ext_const(const void *pnext, ze_structure_type_t stype);

// ---------------------------------------------------------------------------------------------
// Memory table (memory.c).
typedef struct sim_alloc_info {
    uintptr_t base;
    size_t size;
    ze_memory_type_t type;
    uint64_t id;
    sim_device_t *device;
    sim_context_t *context;
    unsigned flags; // SIM_ALLOC_*
} sim_alloc_info_t;

/// Device memory is mmap'd whole pages, so ipc.c can put a memfd under it in place.
#define SIM_ALLOC_MAPPED 1u
/// A view opened from an IPC handle (ipc.c): zeMemCloseIpcHandle ends it, zeMemFree refuses.
#define SIM_ALLOC_IPC_VIEW 2u

/// ipc.c: closes the memfd of an exported allocation being freed.
void sim_ipc_forget(const void *base);
/// host_import.c: zexDriverImportExternalPointer and its siblings by name, or NULL.
void *sim_host_import_function(const char *name);

/// mem_import.c: maps the file descriptor of a ze_external_memory_import_fd_t in `pnext`
/// (`size` bytes, shared); *out NULL when there is none. UNSUPPORTED_ENUMERATION for a type
/// other than one opaque descriptor or DMA buffer, INVALID_ARGUMENT for a descriptor that does
/// not map that many bytes.
ze_result_t sim_import_map(const void *pnext, size_t size, void **out);
/// mem_import.c: unmaps `base` when it is imported memory (1), else 0.
int sim_import_unmap(void *base);

/// Enters [p, p + size) in the table (ipc.c's opened views).
ze_result_t sim_mem_track(void *p, size_t size, ze_memory_type_t type, sim_device_t *dev,
                          sim_context_t *ctx, unsigned flags);
/// Takes the entry based at p with all of `flags` out of the table; 0 when there is none.
int sim_mem_untrack(const void *p, unsigned flags, sim_alloc_info_t *out);

/// Finds the allocation containing ptr (interior pointers included); 0 when none.
int sim_mem_lookup(const void *ptr, sim_alloc_info_t *out);
/// ZE_RESULT_ERROR_INVALID_SIZE when [ptr, ptr+size) starts in a USM allocation and leaves it.
ze_result_t sim_mem_check_range(const void *ptr, size_t size);
uint64_t sim_mem_device_bytes(void);
uint64_t sim_mem_live_count(void);

// ---------------------------------------------------------------------------------------------
// Images (image.c): row-major storage (x fastest, then rows, then slices). A bindless image
// (bindless.c) has a device offset; a pitched one lives in USM it does not own, and a view
// shares its parent's storage.
typedef struct sim_image {
    sim_header_t hdr;
    ze_image_desc_t desc;
    uint32_t element_size;
    uint32_t extent[3]; // width, rows, slices
    uint32_t row_pitch, slice_pitch;
    unsigned char *bytes;
    int owns_bytes;
    uint64_t offset; // zeImageGetDeviceOffsetExp's answer; 0 for an image that is not bindless
    int sampled;     // made with ZE_IMAGE_BINDLESS_EXP_FLAG_SAMPLED_IMAGE and a sampler
    int imported;    // storage mapped from an external memory descriptor (mem_import.c)
} sim_image_t;

/// Bytes per element of a plain layout; 0 for what the simulator does not hold.
uint32_t sim_layout_bytes(ze_image_format_layout_t layout);
/// bindless.c: reads the bindless and pitched descriptors chained to an image's descriptor into
/// `img` (its extents and element size set): a pitched image's storage, a bindless offset.
ze_result_t sim_bindless_chain(sim_image_t *img, const ze_image_desc_t *desc);
/// bindless.c: false when ZE_SIM_NO_BINDLESS hides the extension.
int sim_bindless_enabled(void);
/// bindless.c: zeMemGetPitchFor2dImage and zeImageGetDeviceOffsetExp by name, or NULL.
void *sim_bindless_function(const char *name);
/// bindless.c: zeContextMakeImageResident (and zeContextEvictImage): every image is resident
/// here, so only the handles are checked.
ze_result_t sim_context_make_image_resident(ze_context_handle_t hContext,
                                            ze_device_handle_t hDevice, ze_image_handle_t hImage);
/// bindless.c: zeImageViewCreateExp.
ze_result_t sim_image_view_create(ze_context_handle_t hContext, ze_device_handle_t hDevice,
                                  const ze_image_desc_t *desc, ze_image_handle_t hImage,
                                  ze_image_handle_t *phView);

// ---------------------------------------------------------------------------------------------
// Events and fences (event.c). Their state is guarded by the engine lock.
typedef struct sim_event {
    sim_header_t hdr;
    ze_event_pool_flags_t pool_flags;
    uint32_t index;
    int signalled;
    int destroyed;
    uint32_t refs;
    uint64_t ts_start;
    uint64_t ts_end;
    uint32_t ipc_handles; // IPC pools (ipc_event.c): handles sharing this event, else 0
} sim_event_t;

typedef struct sim_event_pool {
    sim_header_t hdr;
    ze_event_pool_flags_t flags;
    uint32_t count;
    struct sim_event_pool *origin; // a pool opened from an IPC handle: the exported one
} sim_event_pool_t;

/// IPC event pools (ipc_event.c). Events of an exported pool and of the pools opened from it
/// are one event per index: sim_ipc_event_share gives the existing one (another handle to it)
/// or NULL, sim_ipc_event_shared records a new one, sim_ipc_event_unshare drops a handle and
/// is non-zero while others remain; sim_ipc_pool_forget at a pool's destruction. Engine lock held.
sim_event_t *sim_ipc_event_share(sim_event_pool_t *pool, uint32_t index);
void sim_ipc_event_shared(sim_event_pool_t *pool, sim_event_t *ev);
int sim_ipc_event_unshare(sim_event_t *ev);
void sim_ipc_pool_forget(sim_event_pool_t *pool);

struct sim_queue;

typedef struct sim_fence {
    sim_header_t hdr;
    struct sim_queue *queue;
    int signalled;
    int destroyed;
    uint32_t refs;
} sim_fence_t;

/// References from commands and waits keep a destroyed event's memory alive; engine lock held.
void sim_event_retain(sim_event_t *ev);
void sim_event_release(sim_event_t *ev);
void sim_fence_retain(sim_fence_t *fence);
void sim_fence_release(sim_fence_t *fence);
/// The event's start and end times as zeEventQueryKernelTimestamp reports them.
void sim_event_timestamps(const sim_event_t *ev, ze_kernel_timestamp_result_t *out);

// ---------------------------------------------------------------------------------------------
// Execution engine (engine.c): in-order streams of commands run on the host.
typedef enum sim_cmd_kind {
    SIM_CMD_NOP,
    SIM_CMD_COPY,
    SIM_CMD_FILL,
    SIM_CMD_COPY_REGION,
    SIM_CMD_EVENT_RESET,
    SIM_CMD_TIMESTAMP,
    SIM_CMD_QUERY_TIMESTAMPS,
    SIM_CMD_LAUNCH,
    SIM_CMD_FENCE,
} sim_cmd_kind_t;

typedef struct sim_arg {
    int set;
    int is_null;
    size_t size;
    unsigned char *value;
} sim_arg_t;

/// What a launch needs, captured at append time (arguments are copied, as on real hardware).
typedef struct sim_launch {
    char *kernel_name;
    uint32_t group_size[3];
    uint32_t global_offset[3];
    uint32_t num_args;
    sim_arg_t *args;
} sim_launch_t;

typedef struct sim_cmd {
    struct sim_cmd *next;
    sim_cmd_kind_t kind;
    sim_event_t *signal;
    uint32_t num_waits;
    sim_event_t **waits;
    union {
        struct {
            void *dst;
            const void *src;
            size_t size;
        } copy;
        struct {
            void *dst;
            size_t size;
            size_t pattern_size;
            unsigned char pattern[SIM_MAX_FILL_PATTERN];
        } fill;
        struct {
            unsigned char *dst;
            const unsigned char *src;
            ze_copy_region_t dst_region, src_region;
            uint32_t dst_pitch, dst_slice_pitch, src_pitch, src_slice_pitch;
        } region;
        struct {
            sim_event_t *event;
        } reset;
        struct {
            uint64_t *dst;
        } timestamp;
        struct {
            uint32_t count;
            sim_event_t **events;
            unsigned char *dst;
            size_t *offsets;
        } query;
        struct {
            ze_sim_launch_kind_t kind;
            uint32_t num_kernels;
            sim_launch_t *kernels;
            ze_group_count_t counts;
            const ze_group_count_t *indirect_counts;
            const uint32_t *indirect_num;
        } launch;
        struct {
            sim_fence_t *fence;
        } fence;
    } u;
} sim_cmd_t;

typedef struct sim_stream {
    struct sim_stream *prev, *next;
    sim_cmd_t *head, *tail;
} sim_stream_t;

void sim_engine_lock(void);
void sim_engine_unlock(void);
/// Both need the engine lock held.
void sim_engine_attach(sim_stream_t *stream);
void sim_engine_detach(sim_stream_t *stream);
/// Appends commands to a stream and runs whatever can run; takes the engine lock.
void sim_engine_submit(sim_stream_t *stream, sim_cmd_t *first, sim_cmd_t *last);
/// Same, with the engine lock already held.
void sim_engine_submit_locked(sim_stream_t *stream, sim_cmd_t *first, sim_cmd_t *last);
/// Runs every command whose wait events are signalled; engine lock held.
void sim_engine_progress(void);
/// Waits until done(arg) holds or the timeout passes (ZE_RESULT_NOT_READY); see README.
ze_result_t sim_engine_wait(int (*done)(void *arg), void *arg, uint64_t timeout_ns);
int sim_stream_idle(void *stream);
/// Wakes every waiter after a state change made outside a command; engine lock held.
void sim_engine_broadcast(void);
void sim_engine_set_hang_timeout(uint64_t ns);
uint64_t sim_engine_hang_trips(void);
void sim_engine_reset_trips(void);

/// Builds a command with its signal/wait events checked and retained.
sim_cmd_t *sim_cmd_new(sim_cmd_kind_t kind, ze_event_handle_t signal, uint32_t num_waits,
                       const ze_event_handle_t *waits, ze_result_t *res);
sim_cmd_t *sim_cmd_clone(const sim_cmd_t *cmd, ze_result_t *res);
/// Frees a command and drops its references; engine lock held.
void sim_cmd_free_locked(sim_cmd_t *cmd);
void sim_cmd_free(sim_cmd_t *cmd);
void sim_launch_fini(sim_launch_t *launch);

// ---------------------------------------------------------------------------------------------
// Command queues and lists (queue.c, cmdlist.c).
typedef struct sim_queue {
    sim_header_t hdr;
    sim_context_t *context;
    ze_command_queue_mode_t mode;
    sim_stream_t stream;
} sim_queue_t;

typedef struct sim_mutable sim_mutable_t;

typedef struct sim_cmdlist {
    sim_header_t hdr;
    sim_context_t *context;
    int immediate;
    ze_command_queue_mode_t mode;
    pthread_mutex_t lock;
    int closed;
    sim_cmd_t *head, *tail;
    sim_stream_t stream;
    sim_mutable_t *mut; // command ids of a mutable list (mutable.c); NULL otherwise
} sim_cmdlist_t;

/// Appends a command built with sim_cmd_new (runs it at once on an immediate list); the
/// command is consumed whatever the result.
ze_result_t sim_cmdlist_append(sim_cmdlist_t *l, sim_cmd_t *c);
/// Copies a closed regular list's commands (for zeCommandQueueExecuteCommandLists).
ze_result_t sim_cmdlist_clone_commands(sim_cmdlist_t *list, sim_cmd_t **first, sim_cmd_t **last);

// ---------------------------------------------------------------------------------------------
// Mutable command lists (mutable.c).
typedef void (*sim_fn_t)(void);
/// Makes a regular list mutable when `pnext` (its descriptor's chain) asks for it.
ze_result_t sim_mutable_list_init(sim_cmdlist_t *l, const void *pnext);
/// Gives the pending command id to a command just appended; list lock held.
void sim_mutable_on_append(sim_cmdlist_t *l, sim_cmd_t *c);
/// Forgets the ids (list reset), and with `destroy` the list's mutable state.
void sim_mutable_forget(sim_cmdlist_t *l, int destroy);
/// Fills ze_mutable_command_list_exp_properties_t in a device-properties chain.
void sim_mutable_device_properties(void *pnext);
/// The extension's entry point of this name, or NULL.
sim_fn_t sim_mutable_function(const char *name);

// ---------------------------------------------------------------------------------------------
// SPIR-V reader (spirv.c).
typedef struct sim_spv_kernel {
    char *name;
    uint32_t num_args;
    uint32_t *arg_size; // 0 = unknown, do not check
    uint8_t *arg_local; // 1 = pointer to Workgroup storage (value must be NULL)
    uint32_t local_size[3];
    uint32_t subgroup_size;
} sim_spv_kernel_t;

typedef struct sim_spv_global {
    char *host_name;   // HostAccessINTEL name, or NULL
    char *export_name; // LinkageAttributes Export/LinkOnceODR name, or NULL
    int link_once;
    size_t size;
    unsigned char *storage;
} sim_spv_global_t;

typedef struct sim_spv_symbol {
    char *name;
    int is_function;
    int link_once;
} sim_spv_symbol_t;

typedef struct sim_spv_unit {
    uint32_t version;
    uint32_t num_kernels;
    sim_spv_kernel_t *kernels;
    uint32_t num_globals;
    sim_spv_global_t *globals;
    uint32_t num_exports; // exported functions only; variables live in globals
    sim_spv_symbol_t *exports;
    uint32_t num_imports; // imported functions and variables
    sim_spv_symbol_t *imports;
} sim_spv_unit_t;

/// Parses one SPIR-V module. On failure returns NULL and a malloc'd reason in *error.
sim_spv_unit_t *sim_spv_parse(const void *data, size_t size, const ze_module_constants_t *spec,
                              char **error);
void sim_spv_free(sim_spv_unit_t *unit);

// ---------------------------------------------------------------------------------------------
// Modules, build logs, kernels (module.c, kernel.c).
/// A symbol a module defines for others: an exported function or variable.
typedef struct sim_def {
    const char *name;
    int is_function;
    int link_once;
    void *address; // storage of a variable or fake address of a function
    size_t size;
} sim_def_t;

typedef struct sim_import {
    const char *name;
    int is_function;
    uint32_t unit;
    int resolved;
    void *address; // storage of a variable or fake address of a function
    size_t size;
} sim_import_t;

typedef struct sim_module {
    sim_header_t hdr;
    atomic_uint refs;
    pthread_mutex_t lock; // guards the import table (zeModuleDynamicLink)
    uint32_t num_units;
    sim_spv_unit_t **units;
    uint32_t num_kernels;
    const char **kernel_names;
    uint32_t num_defs;
    sim_def_t *defs;
    uint32_t num_imports;
    sim_import_t *imports;
    uint32_t unresolved;
    unsigned char *code; // fake code block: functions and kernels get addresses inside it
    unsigned char *native;
    size_t native_size;
} sim_module_t;

typedef struct sim_build_log {
    sim_header_t hdr;
    char *text;
} sim_build_log_t;

typedef struct sim_kernel {
    sim_header_t hdr;
    pthread_mutex_t lock;
    sim_module_t *module;
    const sim_spv_kernel_t *info;
    char *attributes;
    uint32_t group_size[3];
    uint32_t global_offset[3];
    sim_arg_t *args;
    ze_kernel_indirect_access_flags_t indirect;
    ze_cache_config_flags_t cache_config;
    ze_scheduling_hint_exp_flags_t hint;
} sim_kernel_t;

void sim_module_release(sim_module_t *module);
ze_result_t sim_build_log_new(char *text, ze_module_build_log_handle_t *out);
/// Captures a kernel's state for a launch; fails if its module still has unresolved imports.
ze_result_t sim_kernel_snapshot(ze_kernel_handle_t handle, sim_launch_t *out);

// ---------------------------------------------------------------------------------------------
// Inspection API state (inspect.c).
/// Returns the injected failure for a point (and clears it), or ZE_RESULT_SUCCESS.
ze_result_t sim_inject_take(ze_sim_fail_point_t point);
void sim_inspect_record_launch(ze_sim_launch_kind_t kind, const sim_launch_t *launch,
                               const ze_group_count_t *counts);
void sim_inspect_set_build_flags(uint32_t count, const char *const *flags);

// ---------------------------------------------------------------------------------------------
// Small helpers (driver.c).
char *sim_strdup(const char *s);
/// printf into a growing string; on allocation failure the text is silently truncated.
typedef struct sim_text {
    char *buf;
    size_t len, cap;
} sim_text_t;
void sim_text_printf(sim_text_t *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
char *sim_text_take(sim_text_t *t);
/// The count/array query idiom of Level Zero: copy min(*count, n) entries of size each.
void sim_copy_out_count(uint32_t *count, void *out, const void *src, uint32_t n, size_t size);

#endif // URC_TEST_ZE_SIM_ZE_SIM_INTERNAL_H

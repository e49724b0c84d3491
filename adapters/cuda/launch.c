// SPDX-License-Identifier: MIT
// urEnqueueKernelLaunchWithArgsExp: the arguments come with the launch, are laid out in a
// per-call frame (on the stack for ordinary kernels) and handed to cuLaunchKernel, which copies
// them. Nothing is written to the kernel object, so one kernel may be launched from many
// threads at once. The common launch (arguments in index order, no event) costs one pass over
// the arguments, no allocation, no lock and no question to the driver about the current
// context; scripts/cuda-launch-count measures it.
#include <stdio.h>
#include <stdlib.h>

#include "cuda_internal.h"
#include "queue/launch.h"
#include "core/pnext.h"

// Bytes of argument frame kept on the stack; larger frames use the kernel's kept frame.
#define LAUNCH_STACK_BYTES 2048
// The fast path's frame: room for a dozen or more ordinary arguments.
#define FAST_FRAME_BYTES 256
// Local (shared) memory arguments are aligned to their size, up to the largest vector type.
#define LOCAL_MAX_ALIGN 128u
// CUDA's default limit of static plus dynamic shared memory without an opt-in.
#define SHARED_DEFAULT_LIMIT (48u * 1024u)

typedef struct launch_props_t {
    bool cooperative;
    bool serialize;
    bool cluster;
    uint32_t cluster_dim[3];
    size_t work_group_memory;
} launch_props_t;

typedef struct launch_args_t {
    uint32_t nparams;
    void **params; // nparams entries, then one for the implicit global offset
    uint8_t *storage;
    size_t used;
    size_t local_bytes;  // dynamic shared memory: work-group memory, then local arguments
    uint8_t *heap;       // a frame allocated for this launch, or NULL
    cuda_kernel_t *held; // the kernel whose big_frame this launch holds, or NULL
} launch_args_t;

static ur_result_t read_props(const ur_kernel_launch_ext_properties_t *list, launch_props_t *o) {
    memset(o, 0, sizeof *o);
    ur_result_t chain = urc_pnext_check(list);
    if (chain != UR_RESULT_SUCCESS)
        return chain;
    for (const ur_base_properties_t *p = (const ur_base_properties_t *)list; p != NULL;
         p = p->pNext) {
        switch (p->stype) {
        case UR_STRUCTURE_TYPE_KERNEL_LAUNCH_EXT_PROPERTIES: {
            ur_kernel_launch_flags_t flags = ((const ur_kernel_launch_ext_properties_t *)p)->flags;
            o->cooperative |= (flags & UR_KERNEL_LAUNCH_FLAG_COOPERATIVE) != 0;
            o->serialize |= (flags & UR_KERNEL_LAUNCH_FLAG_OPPORTUNISTIC_QUEUE_SERIALIZE) != 0;
            break;
        }
        case UR_STRUCTURE_TYPE_KERNEL_LAUNCH_CLUSTER_PROPERTY:
            o->cluster = true;
            memcpy(o->cluster_dim, ((const ur_kernel_launch_cluster_property_t *)p)->clusterDim,
                   sizeof o->cluster_dim);
            break;
        case UR_STRUCTURE_TYPE_KERNEL_LAUNCH_WORKGROUP_PROPERTY:
            o->work_group_memory =
                ((const ur_kernel_launch_workgroup_property_t *)p)->workgroup_mem_size;
            break;
        default:
            return UR_RESULT_ERROR_INVALID_ENUMERATION;
        }
    }
    if ((o->cooperative || o->serialize || o->cluster) && cu.LaunchKernelEx == NULL)
        return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0,
                             "cooperative and cluster launches need a CUDA 11.8 driver");
    return UR_RESULT_SUCCESS;
}

static size_t round8(size_t n) {
    return (n + 7u) & ~(size_t)7u;
}

static ur_result_t bad_index(uint32_t index, const char *why) {
    return urc_error_set(UR_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX, 0, "kernel argument %u: %s",
                         index, why);
}

static ur_result_t check_size(const cuda_kernel_t *k, uint32_t index, size_t size) {
    if (k->params_known && k->param_sizes[index] != 0 && k->param_sizes[index] != size)
        return urc_error_set(UR_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE, 0,
                             "kernel argument %u has %zu bytes, the kernel takes %zu", index, size,
                             k->param_sizes[index]);
    return UR_RESULT_SUCCESS;
}

static void put(launch_args_t *l, uint32_t index, const void *value, size_t size) {
    uint8_t *slot = l->storage + l->used;
    l->params[index] = slot;
    // Fixed sizes become plain moves; nearly every argument is a pointer or a 4-byte scalar.
    if (size == 8)
        memcpy(slot, value, 8);
    else if (size == 4)
        memcpy(slot, value, 4);
    else
        memcpy(slot, value, size);
    l->used += round8(size);
}

// Local memory arguments are offsets into the launch's dynamic shared memory, assigned in
// index order after the work-group memory, each aligned to min(size, 128) as UR does.
static ur_result_t put_local(launch_args_t *l, uint32_t index, size_t size) {
    size_t align = size < LOCAL_MAX_ALIGN ? size : LOCAL_MAX_ALIGN;
    size_t offset = l->local_bytes;
    if (align > 1 && offset % align != 0)
        offset += align - offset % align;
    if (offset < l->local_bytes || __builtin_add_overflow(offset, size, &l->local_bytes))
        return urc_error_set(UR_RESULT_ERROR_OUT_OF_RESOURCES, 0, "local memory size overflows");
    put(l, index, &offset, sizeof offset);
    return UR_RESULT_SUCCESS;
}

static ur_result_t put_arg(launch_args_t *l, const cuda_kernel_t *k, uint32_t index,
                           const ur_exp_kernel_arg_properties_t *a) {
    switch (a->type) {
    case UR_EXP_KERNEL_ARG_TYPE_VALUE: {
        if (a->size == 0)
            return urc_error_set(UR_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE, 0,
                                 "kernel argument %u: a value of 0 bytes", index);
        if (a->value.value == NULL)
            return UR_RESULT_ERROR_INVALID_NULL_POINTER;
        ur_result_t res = check_size(k, index, a->size);
        if (res == UR_RESULT_SUCCESS)
            put(l, index, a->value.value, a->size);
        return res;
    }
    case UR_EXP_KERNEL_ARG_TYPE_POINTER: {
        ur_result_t res = check_size(k, index, sizeof(void *));
        if (res == UR_RESULT_SUCCESS)
            put(l, index, &a->value.pointer, sizeof(void *));
        return res;
    }
    case UR_EXP_KERNEL_ARG_TYPE_MEM_OBJ: {
        // A NULL buffer (a zero-sized SYCL buffer) passes a null pointer.
        ur_mem_handle_t h = a->value.memObjTuple.hMem;
        if (h != NULL && !cuda_is(h, URC_KIND_MEM))
            return UR_RESULT_ERROR_INVALID_MEM_OBJECT;
        // An image reaches kernels as its surface object (UR's CUDA convention), a buffer as
        // its pointer; both are 8 bytes.
        CUdeviceptr ptr = h == NULL               ? 0
                          : CUDA_MEM(h)->is_image ? (CUdeviceptr)CUDA_MEM(h)->surf
                                                  : CUDA_MEM(h)->ptr;
        ur_result_t res = check_size(k, index, sizeof ptr);
        if (res == UR_RESULT_SUCCESS)
            put(l, index, &ptr, sizeof ptr);
        return res;
    }
    case UR_EXP_KERNEL_ARG_TYPE_LOCAL: {
        ur_result_t res = check_size(k, index, sizeof(size_t));
        return res != UR_RESULT_SUCCESS ? res : put_local(l, index, a->size);
    }
    case UR_EXP_KERNEL_ARG_TYPE_SAMPLER: {
        // A sampler is the 32-bit word of its settings that SYCL's CUDA device code decodes.
        ur_sampler_handle_t h = a->value.sampler;
        if (!cuda_is(h, URC_KIND_SAMPLER))
            return urc_error_set(UR_RESULT_ERROR_INVALID_SAMPLER, 0,
                                 "kernel argument %u is not a CUDA adapter sampler", index);
        uint32_t props = CUDA_SAMPLER(h)->props;
        ur_result_t res = check_size(k, index, sizeof props);
        if (res == UR_RESULT_SUCCESS)
            put(l, index, &props, sizeof props);
        return res;
    }
    default:
        return UR_RESULT_ERROR_INVALID_ENUMERATION;
    }
}

// A frame of `need` bytes: the caller's stack buffer when it fits, else the kernel's kept
// frame when no other launch holds it, else an allocation of its own.
static ur_result_t frame_get(launch_args_t *l, cuda_kernel_t *k, size_t need, uint8_t *stack,
                             size_t stack_size, uint8_t **base) {
    if (need <= stack_size) {
        *base = stack;
        return UR_RESULT_SUCCESS;
    }
    if (!atomic_flag_test_and_set_explicit(&k->big_frame_busy, memory_order_acquire)) {
        if (k->big_frame_size < need) {
            uint8_t *bigger = malloc(need);
            if (bigger == NULL) {
                atomic_flag_clear_explicit(&k->big_frame_busy, memory_order_release);
                return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
            }
            free(k->big_frame);
            k->big_frame = bigger;
            k->big_frame_size = need;
        }
        l->held = k;
        *base = k->big_frame;
        return UR_RESULT_SUCCESS;
    }
    *base = l->heap = malloc(need);
    return *base != NULL ? UR_RESULT_SUCCESS : UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
}

// Gives back what frame_get took (cuLaunchKernel has copied the arguments by then).
static void args_done(launch_args_t *l) {
    if (l->held != NULL)
        atomic_flag_clear_explicit(&l->held->big_frame_busy, memory_order_release);
    free(l->heap);
    l->held = NULL;
    l->heap = NULL;
}

// Lays the arguments out by index. Every index up to the highest must be given exactly once
// (and, when the driver can tell, match the kernel's signature): a missing argument would have
// cuLaunchKernel read a null pointer.
static ur_result_t lay_out_any_order(launch_args_t *l, cuda_kernel_t *k, uint32_t n,
                                     const ur_exp_kernel_arg_properties_t *args, uint8_t *stack,
                                     size_t stack_size) {
    uint32_t nparams = 0;
    size_t value_bytes = 0;
    for (uint32_t i = 0; i < n; ++i) {
        if (args[i].index >= 65536)
            return bad_index(args[i].index, "index out of range");
        if (args[i].index + 1 > nparams)
            nparams = args[i].index + 1;
        size_t sz = args[i].type == UR_EXP_KERNEL_ARG_TYPE_VALUE ? args[i].size : 8;
        if (sz > 65536)
            return urc_error_set(UR_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE, 0,
                                 "kernel argument %u: %zu bytes", args[i].index, sz);
        value_bytes += round8(sz);
    }
    if (k->params_known && nparams > k->nparams)
        return bad_index(nparams - 1, "the kernel takes fewer arguments");
    if (k->params_known && nparams < k->nparams)
        return bad_index(nparams, "missing");
    // The frame: the pointer array, which argument has each index, then the values.
    size_t head = round8((size_t)(nparams + 1) * sizeof(void *) + nparams * sizeof(int32_t));
    uint8_t *base;
    ur_result_t res = frame_get(l, k, head + value_bytes, stack, stack_size, &base);
    if (res != UR_RESULT_SUCCESS)
        return res;
    l->nparams = nparams;
    l->params = (void **)base;
    int32_t *arg_of = (int32_t *)(base + (size_t)(nparams + 1) * sizeof(void *));
    l->storage = base + head;
    for (uint32_t i = 0; i < nparams; ++i)
        arg_of[i] = -1;
    for (uint32_t i = 0; i < n; ++i) {
        if (arg_of[args[i].index] >= 0)
            return bad_index(args[i].index, "given twice");
        arg_of[args[i].index] = (int32_t)i;
    }
    for (uint32_t index = 0; index < nparams; ++index) {
        if (arg_of[index] < 0)
            return bad_index(index, "missing");
        res = put_arg(l, k, index, &args[arg_of[index]]);
        if (res != UR_RESULT_SUCCESS)
            return res;
    }
    l->params[nparams] = NULL;
    return UR_RESULT_SUCCESS;
}

// SYCL code written for Intel GPUs and CPUs reads past the end of its local arrays where
// those devices do not fault: dpctl's masked extraction sizes its array for the elements
// present plus one, and every work-item of a larger work-group reads the element after its
// own, discarding the value. On NVIDIA GPUs such a read is an illegal address that ends the
// context. So a launch with local memory gets it rounded up to whole KiB, where that stays
// within CUDA's default limit (no opt-in, and at most 1 KiB of a block's share of the SM);
// the reads see unused memory instead of faulting.
#define LOCAL_SLACK 1024u

static size_t local_with_slack(const cuda_kernel_t *k, size_t bytes) {
    if (bytes == 0 || bytes > SHARED_DEFAULT_LIMIT)
        return bytes;
    size_t padded = (bytes + LOCAL_SLACK - 1) / LOCAL_SLACK * LOCAL_SLACK;
    return padded + (size_t)k->static_shared <= SHARED_DEFAULT_LIMIT ? padded : bytes;
}

// On failure, whatever frame was taken is still in `l` for args_done.
static ur_result_t build_args(launch_args_t *l, cuda_kernel_t *k, uint32_t n,
                              const ur_exp_kernel_arg_properties_t *args, size_t wg_mem,
                              uint8_t *stack, size_t stack_size) {
    memset(l, 0, sizeof *l);
    l->local_bytes = wg_mem;
    ur_result_t res = lay_out_any_order(l, k, n, args, stack, stack_size);
    if (res == UR_RESULT_SUCCESS)
        l->local_bytes = local_with_slack(k, l->local_bytes);
    return res;
}

// UR's rules for a work-group size in one dimension: it divides the global size and fits the
// device, the kernel's limits and its required size. The number of blocks, or 0 when a rule
// is broken.
static inline size_t dim_blocks(const cuda_kernel_t *k, const cuda_device_t *dev, uint32_t i,
                                size_t global, size_t local) {
    if (local == 0 || local > (size_t)dev->max_block[i] ||
        (k->reqd_wg[0] != 0 && local != k->reqd_wg[i]) ||
        (k->max_wg[i] != 0 && local > k->max_wg[i]))
        return 0;
    // One division: the block count, which also tells whether the size divides.
    size_t blocks = global / local;
    return blocks * local == global ? blocks : 0;
}

// The kernel's limits on work-items per group, and the registers a block has.
static inline bool group_too_large(const cuda_kernel_t *k, size_t threads) {
    return threads > (size_t)k->max_threads ||
           (k->max_linear_wg != 0 && threads > k->max_linear_wg);
}
static inline bool group_out_of_registers(const cuda_kernel_t *k, const cuda_device_t *dev,
                                          size_t threads) {
    return (size_t)k->regs_per_thread * threads > (size_t)dev->max_regs_per_block;
}

// Grid and block from the global and local sizes, with UR's checks: the local size divides the
// global size, fits the device and the kernel, and honours its compile-time attributes.
static ur_result_t geometry(cuda_kernel_t *k, const cuda_device_t *dev, uint32_t dims,
                            const size_t *global, const size_t *local_in, size_t dyn_shared,
                            unsigned grid[3], unsigned block[3]) {
    size_t local[3] = {1, 1, 1}, blocks[3] = {1, 1, 1};
    if (local_in != NULL) {
        for (uint32_t i = 0; i < dims; ++i) {
            local[i] = local_in[i];
            blocks[i] = dim_blocks(k, dev, i, global[i], local[i]);
            if (blocks[i] == 0)
                return urc_error_set(UR_RESULT_ERROR_INVALID_WORK_GROUP_SIZE, 0,
                                     "work-group size %zu in dimension %u does not fit global "
                                     "size %zu, the device or the kernel",
                                     local[i], i, global[i]);
        }
    } else {
        cuda_kernel_guess_local(k, dev, dims, global, dyn_shared, local);
        for (uint32_t i = 0; i < dims; ++i)
            blocks[i] = global[i] / local[i] + (global[i] % local[i] != 0);
    }
    size_t threads = local[0] * local[1] * local[2];
    if (group_too_large(k, threads))
        return urc_error_set(UR_RESULT_ERROR_INVALID_WORK_GROUP_SIZE, 0,
                             "%zu work-items per group exceed the kernel's limit of %d", threads,
                             k->max_threads);
    if (group_out_of_registers(k, dev, threads))
        return urc_error_set(UR_RESULT_ERROR_OUT_OF_RESOURCES, 0,
                             "%zu work-items need more registers than a block has", threads);
    for (uint32_t i = 0; i < 3; ++i) {
        if (blocks[i] > (size_t)dev->max_grid[i])
            return urc_error_set(UR_RESULT_ERROR_INVALID_WORK_ITEM_SIZE, 0,
                                 "%zu work-groups in dimension %u exceed the device's %d",
                                 blocks[i], i, dev->max_grid[i]);
        grid[i] = (unsigned)blocks[i];
        block[i] = (unsigned)local[i];
    }
    return UR_RESULT_SUCCESS;
}

// Dynamic shared memory beyond CUDA's default limit must be opted into per function. The
// limit only ever grows (under the kernel's lock), so a concurrent launch never sees it shrink.
static ur_result_t reserve_shared(cuda_kernel_t *k, const cuda_device_t *dev, size_t bytes) {
    if (bytes > (size_t)dev->max_shared_optin)
        return urc_error_set(UR_RESULT_ERROR_OUT_OF_RESOURCES, 0,
                             "%zu bytes of local memory exceed the device's %d", bytes,
                             dev->max_shared_optin);
    if (bytes + (size_t)k->static_shared <= SHARED_DEFAULT_LIMIT)
        return UR_RESULT_SUCCESS;
    // cuFuncSetAttribute works in the current context.
    ur_result_t res = cuda_activate(dev);
    if (res != UR_RESULT_SUCCESS)
        return res;
    pthread_mutex_lock(&k->lock);
    if (bytes > k->dyn_shared_limit) {
        res = cuda_ok(
            cu.FuncSetAttribute(k->fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)bytes),
            "cuFuncSetAttribute");
        if (res == UR_RESULT_SUCCESS && k->fn_offset != NULL)
            res = cuda_ok(cu.FuncSetAttribute(k->fn_offset,
                                              CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                              (int)bytes),
                          "cuFuncSetAttribute");
        if (res == UR_RESULT_SUCCESS)
            k->dyn_shared_limit = bytes;
    }
    pthread_mutex_unlock(&k->lock);
    return res;
}

static CUresult launch_ex(CUfunction fn, const launch_props_t *props, uint32_t dims,
                          const unsigned grid[3], const unsigned block[3], size_t shared,
                          CUstream stream, void **params) {
    CUlaunchAttribute attrs[3];
    unsigned n = 0;
    memset(attrs, 0, sizeof attrs);
    if (props->cooperative) {
        attrs[n].id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE;
        attrs[n++].value.cooperative = 1;
    }
    if (props->serialize) {
        attrs[n].id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
        attrs[n++].value.programmaticStreamSerializationAllowed = 1;
    }
    if (props->cluster) {
        // UR's order: SYCL lists dimensions the other way round from CUDA.
        const uint32_t *c = props->cluster_dim;
        attrs[n].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
        attrs[n].value.clusterDim.x = dims == 3 ? c[2] : dims == 2 ? c[1] : c[0];
        attrs[n].value.clusterDim.y = dims == 3 ? c[1] : dims == 2 ? c[0] : c[1];
        attrs[n++].value.clusterDim.z = dims == 3 ? c[0] : c[2];
        CUresult r =
            cu.FuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1);
        if (r != CUDA_SUCCESS)
            return r;
    }
    CUlaunchConfig config;
    memset(&config, 0, sizeof config);
    config.gridDimX = grid[0];
    config.gridDimY = grid[1];
    config.gridDimZ = grid[2];
    config.blockDimX = block[0];
    config.blockDimY = block[1];
    config.blockDimZ = block[2];
    config.sharedMemBytes = (unsigned)shared;
    config.hStream = stream;
    config.attrs = attrs;
    config.numAttrs = n;
    return cu.LaunchKernelEx(&config, fn, params, NULL);
}

static CUresult launch(CUfunction fn, const launch_props_t *props, uint32_t dims,
                       const unsigned grid[3], const unsigned block[3], size_t shared,
                       CUstream stream, void **params) {
    if (props->cooperative || props->serialize || props->cluster)
        return launch_ex(fn, props, dims, grid, block, shared, stream, params);
    return cu.LaunchKernel(fn, grid[0], grid[1], grid[2], block[0], block[1], block[2],
                           (unsigned)shared, stream, params, NULL);
}

// The launch nearly every SYCL kernel makes: a work-group size given, no offset, no launch
// properties, no event, and one pointer, value or buffer argument per parameter in index order,
// with the kernel's sizes. It runs in one pass with the frame on the stack. Anything else, or
// anything wrong, returns false before the command is issued, and the general path below
// decides (and reports) from scratch.
static inline __attribute__((always_inline)) bool
launch_fast(cuda_queue_t *q, cuda_kernel_t *k, uint32_t dims, const size_t *global,
            const size_t *local, uint32_t n, const ur_exp_kernel_arg_properties_t *args,
            uint32_t num_events, const ur_event_handle_t *events, ur_result_t *result) {
    uint8_t frame[FAST_FRAME_BYTES] __attribute__((aligned(16)));
    void **params = (void **)frame;
    uint8_t *slot = frame + ((size_t)n + 1) * sizeof(void *);
    for (uint32_t i = 0; i < n; ++i) {
        const ur_exp_kernel_arg_properties_t *a = &args[i];
        size_t size = k->param_sizes[i];
        if (a->index != i)
            return false;
        if (a->type == UR_EXP_KERNEL_ARG_TYPE_POINTER && size == sizeof(void *)) {
            memcpy(slot, &a->value.pointer, sizeof(void *));
        } else if (a->type == UR_EXP_KERNEL_ARG_TYPE_VALUE && a->size == size &&
                   a->value.value != NULL) {
            if (size == 4)
                memcpy(slot, a->value.value, 4);
            else if (size == 8)
                memcpy(slot, a->value.value, 8);
            else
                memcpy(slot, a->value.value, size);
        } else if (a->type == UR_EXP_KERNEL_ARG_TYPE_MEM_OBJ && size == sizeof(CUdeviceptr) &&
                   (a->value.memObjTuple.hMem == NULL ||
                    cuda_is(a->value.memObjTuple.hMem, URC_KIND_MEM))) {
            ur_mem_handle_t h = a->value.memObjTuple.hMem;
            CUdeviceptr ptr = h == NULL               ? 0
                              : CUDA_MEM(h)->is_image ? (CUdeviceptr)CUDA_MEM(h)->surf
                                                      : CUDA_MEM(h)->ptr;
            memcpy(slot, &ptr, sizeof ptr);
        } else {
            return false; // local memory, samplers, or a mistake
        }
        params[i] = slot;
        slot += round8(size);
    }
    params[n] = NULL;

    const cuda_device_t *dev = q->dev;
    unsigned grid[3] = {1, 1, 1}, block[3] = {1, 1, 1};
    size_t threads = 1;
    for (uint32_t i = 0; i < dims; ++i) {
        size_t blocks = dim_blocks(k, dev, i, global[i], local[i]);
        if (blocks == 0 || blocks > (size_t)dev->max_grid[i])
            return false;
        grid[i] = (unsigned)blocks;
        block[i] = (unsigned)local[i];
        threads *= local[i];
    }
    if (group_too_large(k, threads) || group_out_of_registers(k, dev, threads) ||
        (size_t)k->static_shared > SHARED_DEFAULT_LIMIT)
        return false;

    // No event: nothing is created in the current context, so this thread's record of having
    // made it current is enough. If the application switched contexts since, the launch fails
    // the way a wrong context makes it fail and is made once more, checked.
    if (cuda_activate_cached(dev) != UR_RESULT_SUCCESS)
        return false;
    CUstream stream = NULL;
    if (cuda_queue_stream(q, &stream) != UR_RESULT_SUCCESS)
        return false; // the slow path reports it
    if (num_events != 0) {
        *result = cuda_wait_events(stream, num_events, events);
        if (*result != UR_RESULT_SUCCESS)
            return true;
    }
    CUresult r = cu.LaunchKernel(k->fn, grid[0], grid[1], grid[2], block[0], block[1], block[2], 0,
                                 stream, params, NULL);
    if (r != CUDA_SUCCESS && cuda_activate_recheck(dev, r))
        r = cu.LaunchKernel(k->fn, grid[0], grid[1], grid[2], block[0], block[1], block[2], 0,
                            stream, params, NULL);
    *result = cuda_ok(r, "cuLaunchKernel");
    return true;
}

// Every other launch: any argument order and kind, offsets, launch properties, events. Kept
// out of line so its frame and spills stay off the fast path.
__attribute__((noinline)) static ur_result_t
launch_general(cuda_queue_t *q, cuda_kernel_t *k, uint32_t workDim, const size_t *pGlobalWorkOffset,
               const size_t *pGlobalWorkSize, const size_t *pLocalWorkSize, uint32_t numArgs,
               const ur_exp_kernel_arg_properties_t *pArgs,
               const ur_kernel_launch_ext_properties_t *launchPropList,
               uint32_t numEventsInWaitList, const ur_event_handle_t *phEventWaitList,
               ur_event_handle_t *phEvent) {
    bool empty = false;
    for (uint32_t i = 0; i < workDim; ++i)
        empty = empty || pGlobalWorkSize[i] == 0;

    // The implicit offset exists only in DPC++'s "<name>_with_offset" variant; applying an
    // offset to a kernel without it would silently compute the wrong range.
    uint32_t offsets[3] = {0, 0, 0};
    bool offset = false;
    for (uint32_t i = 0; pGlobalWorkOffset != NULL && i < workDim; ++i) {
        offsets[i] = (uint32_t)pGlobalWorkOffset[i];
        offset = offset || pGlobalWorkOffset[i] != 0;
    }
    // A kernel translated from SPIR-V has an offset variant exactly when it reads the global
    // id or offset; without one the offset cannot change what it computes.
    if (offset && k->fn_offset == NULL && k->program->spirv == NULL)
        return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0,
                             "kernel \"%s\" takes no global offset", k->name);
    offset = offset && k->fn_offset != NULL;

    launch_props_t props;
    ur_result_t res = read_props(launchPropList, &props);
    if (res != UR_RESULT_SUCCESS)
        return res;
    uint8_t stack[LAUNCH_STACK_BYTES] __attribute__((aligned(16)));
    launch_args_t args;
    unsigned grid[3], block[3];
    res = build_args(&args, k, numArgs, pArgs, props.work_group_memory, stack, sizeof stack);
    if (res == UR_RESULT_SUCCESS && !empty)
        res = geometry(k, q->dev, workDim, pGlobalWorkSize, pLocalWorkSize, args.local_bytes, grid,
                       block);
    if (res == UR_RESULT_SUCCESS && !empty &&
        (args.local_bytes + (size_t)k->static_shared > SHARED_DEFAULT_LIMIT ||
         args.local_bytes > (size_t)q->dev->max_shared_optin))
        res = reserve_shared(k, q->dev, args.local_bytes);
    cuda_op_t op;
    if (res == UR_RESULT_SUCCESS)
        res = cuda_op_begin(q, UR_COMMAND_KERNEL_LAUNCH, numEventsInWaitList, phEventWaitList,
                            phEvent, &op);
    if (res != UR_RESULT_SUCCESS) {
        args_done(&args);
        return res;
    }
    if (!empty) {
        CUfunction fn = k->fn;
        if (offset) {
            fn = k->fn_offset;
            args.params[args.nparams] = offsets;
        }
        res = cuda_ok(
            launch(fn, &props, workDim, grid, block, args.local_bytes, op.stream, args.params),
            "cuLaunchKernel");
    }
    args_done(&args);
    return cuda_op_end(&op, res, false, phEvent);
}

ur_result_t cuda_enqueue_kernel_launch_with_args_exp(
    ur_queue_handle_t hQueue, ur_kernel_handle_t hKernel, uint32_t workDim,
    const size_t *pGlobalWorkOffset, const size_t *pGlobalWorkSize, const size_t *pLocalWorkSize,
    uint32_t numArgs, const ur_exp_kernel_arg_properties_t *pArgs,
    const ur_kernel_launch_ext_properties_t *launchPropList, uint32_t numEventsInWaitList,
    const ur_event_handle_t *phEventWaitList, ur_event_handle_t *phEvent) {
    cuda_queue_t *q = CUDA_QUEUE(hQueue);
    cuda_kernel_t *k = CUDA_KERNEL(hKernel);
    if (k->program->ctx != q->ctx)
        return urc_error_set(UR_RESULT_ERROR_INVALID_CONTEXT, 0,
                             "the kernel and the queue belong to different contexts");
    if (k->program->dev != q->dev)
        return urc_error_set(UR_RESULT_ERROR_INVALID_KERNEL, 0,
                             "the kernel's program is for another device than the queue's");
    urc_rules_t rules;
    cuda_rules(q->dev, &rules);
    ur_result_t res =
        urc_rule_launch(&rules, workDim, pGlobalWorkOffset, pGlobalWorkSize, pLocalWorkSize);
    if (res != UR_RESULT_SUCCESS)
        return res;
    bool zero_offset = true;
    for (uint32_t i = 0; pGlobalWorkOffset != NULL && i < workDim; ++i)
        zero_offset = zero_offset && pGlobalWorkOffset[i] == 0;
    if (phEvent == NULL && launchPropList == NULL && zero_offset && pLocalWorkSize != NULL &&
        numArgs == k->nparams && k->frame_bytes != 0 && k->frame_bytes <= FAST_FRAME_BYTES &&
        launch_fast(q, k, workDim, pGlobalWorkSize, pLocalWorkSize, numArgs, pArgs,
                    numEventsInWaitList, phEventWaitList, &res))
        return res;
    return launch_general(q, k, workDim, pGlobalWorkOffset, pGlobalWorkSize, pLocalWorkSize,
                          numArgs, pArgs, launchPropList, numEventsInWaitList, phEventWaitList,
                          phEvent);
}

ur_result_t cuda_launch_node_params(cuda_kernel_t *k, const cuda_device_t *dev, uint32_t workDim,
                                    const size_t *pGlobalWorkOffset, const size_t *pGlobalWorkSize,
                                    const size_t *pLocalWorkSize, uint32_t numArgs,
                                    const ur_exp_kernel_arg_properties_t *pArgs,
                                    cuda_node_params_fn apply, void *ctx) {
    if (workDim < 1 || workDim > 3)
        return UR_RESULT_ERROR_INVALID_WORK_DIMENSION;
    for (uint32_t i = 0; i < workDim; ++i)
        if (pGlobalWorkSize[i] == 0)
            return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0,
                                 "an empty range cannot be a graph kernel node");
    uint32_t offsets[3] = {0, 0, 0};
    bool offset = false;
    for (uint32_t i = 0; pGlobalWorkOffset != NULL && i < workDim; ++i) {
        offsets[i] = (uint32_t)pGlobalWorkOffset[i];
        offset = offset || pGlobalWorkOffset[i] != 0;
    }
    // A kernel translated from SPIR-V has an offset variant exactly when it reads the global
    // id or offset; without one the offset cannot change what it computes.
    if (offset && k->fn_offset == NULL && k->program->spirv == NULL)
        return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0,
                             "kernel \"%s\" takes no global offset", k->name);
    offset = offset && k->fn_offset != NULL;
    uint8_t stack[LAUNCH_STACK_BYTES] __attribute__((aligned(16)));
    launch_args_t args;
    unsigned grid[3], block[3];
    ur_result_t res = build_args(&args, k, numArgs, pArgs, 0, stack, sizeof stack);
    if (res == UR_RESULT_SUCCESS)
        res = geometry(k, dev, workDim, pGlobalWorkSize, pLocalWorkSize, args.local_bytes, grid,
                       block);
    if (res == UR_RESULT_SUCCESS &&
        (args.local_bytes + (size_t)k->static_shared > SHARED_DEFAULT_LIMIT ||
         args.local_bytes > (size_t)dev->max_shared_optin))
        res = reserve_shared(k, dev, args.local_bytes);
    if (res == UR_RESULT_SUCCESS) {
        CUDA_KERNEL_NODE_PARAMS p;
        memset(&p, 0, sizeof p);
        p.func = offset ? k->fn_offset : k->fn;
        if (offset)
            args.params[args.nparams] = offsets;
        p.gridDimX = grid[0];
        p.gridDimY = grid[1];
        p.gridDimZ = grid[2];
        p.blockDimX = block[0];
        p.blockDimY = block[1];
        p.blockDimZ = block[2];
        p.sharedMemBytes = (unsigned)args.local_bytes;
        p.kernelParams = args.params;
        // The driver copies the parameters, so the frame may go when apply returns.
        res = cuda_ok(apply(&p, ctx), "cuGraphAddKernelNode");
    }
    args_done(&args);
    return res;
}

// SPDX-License-Identifier: MIT
// The test kernels of test/conformance/cuda/kernels as host functions, and the launch that runs
// them on the stream's worker: every block in turn, with its own shared memory.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuda_sim_internal.h"

static void *arg_ptr(const sim_launch_t *l, unsigned i) {
    void *p = NULL;
    memcpy(&p, l->args + l->arg_offset[i], sizeof p);
    return p;
}

static int arg_int(const sim_launch_t *l, unsigned i) {
    int v = 0;
    memcpy(&v, l->args + l->arg_offset[i], sizeof v);
    return v;
}

static int *global_int(const sim_launch_t *l, const char *name) {
    sim_global_t *g = sim_module_global(l->func->module, name);
    return g != NULL ? g->ptr : NULL;
}

static void inc_dev_var(const sim_launch_t *l) {
    int *v = global_int(l, "dev_var");
    if (v != NULL)
        *v += 1;
}

static size_t threads(const sim_launch_t *l) {
    return (size_t)l->grid[0] * l->block[0];
}

static void add_one(const sim_launch_t *l) {
    int *out = arg_ptr(l, 0);
    const int *in = arg_ptr(l, 1);
    int n = arg_int(l, 2);
    for (size_t i = 0; i < threads(l) && (int)i < n; ++i)
        out[i] = in[i] + 1;
}

static void add_value(const sim_launch_t *l) {
    int *data = arg_ptr(l, 0);
    int v = arg_int(l, 1);
    for (size_t i = 0; i < threads(l); ++i)
        data[i] += v;
}

static void fill_value(const sim_launch_t *l) {
    int *out = arg_ptr(l, 0);
    int v = arg_int(l, 1);
    for (size_t i = 0; i < threads(l); ++i)
        out[i] = v;
}

// Each block writes its ids through its shared memory and reads them back reversed.
static void local_reverse(const sim_launch_t *l) {
    int *out = arg_ptr(l, 0);
    unsigned long long offset = 0;
    memcpy(&offset, l->args + l->arg_offset[1], sizeof offset);
    uint8_t *shared = malloc(l->shared ? l->shared : 1);
    for (unsigned b = 0; b < l->grid[0]; ++b) {
        int *tile = (int *)(shared + offset);
        for (unsigned t = 0; t < l->block[0]; ++t)
            tile[t] = (int)(b * l->block[0] + t);
        for (unsigned t = 0; t < l->block[0]; ++t)
            out[b * l->block[0] + t] = tile[l->block[0] - 1 - t];
    }
    free(shared);
}

// dpctl's masked-extraction pattern (kernels/globals.cu): every work-item reads the element
// after its own in a local array of n + 1 elements. Shared memory is bounded as on the
// hardware: a read past the launch's dynamic shared memory is an illegal address, sticky.
static void local_next(const sim_launch_t *l) {
    int *out = arg_ptr(l, 0);
    unsigned long long offset = 0;
    memcpy(&offset, l->args + l->arg_offset[1], sizeof offset);
    int n = arg_int(l, 2);
    for (unsigned t = 0; t < l->block[0]; ++t)
        if (offset + (t + 2) * sizeof(int) > l->shared) {
            atomic_store(&sim_sticky, CUDA_ERROR_ILLEGAL_ADDRESS);
            return;
        }
    for (int t = 0; t < n && (unsigned)t < l->block[0]; ++t)
        out[t] = (t + 1) * 10;
}

static void global_id(const sim_launch_t *l) {
    int *out = arg_ptr(l, 0);
    for (size_t i = 0; i < threads(l); ++i)
        out[i] = (int)i;
}

static void global_id_with_offset(const sim_launch_t *l) {
    int *out = arg_ptr(l, 0);
    unsigned offset[3];
    memcpy(offset, l->args + l->arg_offset[1], sizeof offset);
    for (size_t i = 0; i < threads(l); ++i)
        out[i] = (int)(i + offset[0]);
}

// About 0.5 ns a cycle: 100M cycles take 50 ms.
static void spin(const sim_launch_t *l) {
    long long cycles = 0;
    memcpy(&cycles, l->args + l->arg_offset[0], sizeof cycles);
    usleep((useconds_t)(cycles / 2000));
}

// CUDA prints the failed assert from the device and the context is dead from then on.
static void assert_zero(const sim_launch_t *l) {
    if (arg_int(l, 0) == 0)
        return;
    fprintf(stderr, "assert.cu:6: void assert_zero(int): block: [0,0,0], thread: [0,0,0] "
                    "Assertion `value == 0` failed.\n");
    fflush(stderr);
    atomic_store(&sim_sticky, CUDA_ERROR_ASSERT);
}

static void big_sum(const sim_launch_t *l) {
    int *out = arg_ptr(l, 0);
    int v[750];
    memcpy(v, l->args + l->arg_offset[1], sizeof v);
    int sum = 0;
    for (int i = 0; i < 750; ++i)
        sum += v[i];
    out[0] = sum;
}

static void bump_linked(const sim_launch_t *l) {
    int *v = global_int(l, "linked_var");
    if (v != NULL)
        *v += 10;
}

// The real provider computes in double precision; its PTX is the one with f64 instructions.
static void vf_kernel(const sim_launch_t *l) {
    int *out = arg_ptr(l, 0);
    *out = strstr(l->func->module->text, ".f64") != NULL ? 102 : -1;
}

// images.cu: the arguments as received, and 2D RGBA float images through their surfaces
// (a surface object is the simulated array's address, see array.c).
static void image_args(const sim_launch_t *l) {
    unsigned long long *out = arg_ptr(l, 2), surf = 0;
    unsigned sampler = 0;
    memcpy(&surf, l->args + l->arg_offset[0], sizeof surf);
    memcpy(&sampler, l->args + l->arg_offset[1], sizeof sampler);
    out[0] = surf;
    out[1] = sampler;
}

static float *surface_texel(const sim_launch_t *l, int x, int y) {
    sim_array_t *a = sim_array(arg_ptr(l, 0));
    return a != NULL ? (float *)(a->bytes + (size_t)y * a->pitch + (size_t)x * 16) : NULL;
}

static void surface_fill(const sim_launch_t *l) {
    int w = arg_int(l, 1), h = arg_int(l, 2);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            float *t = surface_texel(l, x, y);
            if (t != NULL)
                memcpy(t, l->args + l->arg_offset[3], 16);
        }
}

static void surface_read(const sim_launch_t *l) {
    int w = arg_int(l, 1), h = arg_int(l, 2);
    float *out = arg_ptr(l, 3);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const float *t = surface_texel(l, x, y);
            if (t != NULL)
                memcpy(out + ((size_t)y * w + x) * 4, t, 16);
        }
}

static const struct {
    const char *name;
    sim_kernel_fn_t fn;
} kernels[] = {
    {"image_args", image_args},
    {"surface_fill", surface_fill},
    {"surface_read", surface_read},
    {"texture_sample", sim_texture_sample}, // texture.c
    {"mip_sample", sim_mip_sample},
    {"fetch3d_uint", sim_fetch3d_uint},
    {"inc_dev_var", inc_dev_var},
    {"add_one", add_one},
    {"fill_value", fill_value},
    {"add_value", add_value},
    {"local_reverse", local_reverse},
    {"local_next", local_next},
    {"global_id", global_id},
    {"global_id_with_offset", global_id_with_offset},
    {"spin", spin},
    {"assert_zero", assert_zero},
    {"bump_linked", bump_linked},
    {"big_sum", big_sum},
    {"vf_kernel", vf_kernel},
};

sim_kernel_fn_t sim_kernel_impl(const char *name) {
    for (size_t i = 0; i < sizeof kernels / sizeof kernels[0]; ++i)
        if (strcmp(kernels[i].name, name) == 0)
            return kernels[i].fn;
    return NULL;
}

static void run_launch(sim_op_t *op) {
    sim_launch_t *l = op->data;
    if (atomic_load(&sim_sticky) == 0 && l->func->impl != NULL)
        l->func->impl(l);
    free(l->args);
}

SIM_EXPORT CUresult cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                                   unsigned by, unsigned bz, unsigned shared, CUstream s,
                                   void **params, void **extra) {
    sim_count_call();
    SIM_STICKY();
    // The driver launches in the current context; a thread with none gets this.
    if (!sim_has_context())
        return CUDA_ERROR_INVALID_CONTEXT;
    const sim_func_t *fn = (const sim_func_t *)f;
    if (extra != NULL || gx == 0 || gy == 0 || gz == 0 || bx == 0 || by == 0 || bz == 0 ||
        (size_t)bx * by * bz > 1024 || shared > 232448)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult captured = CUDA_SUCCESS;
    const unsigned grid[3] = {gx, gy, gz}, block[3] = {bx, by, bz};
    if (sim_capture_kernel(s, f, grid, block, shared, params, &captured))
        return captured;
    sim_launch_t *l = calloc(1, sizeof *l);
    if (l == NULL)
        return CUDA_ERROR_OUT_OF_MEMORY;
    *l = (sim_launch_t){fn, {gx, gy, gz}, {bx, by, bz}, shared, NULL, {0}, 0};
    // The parameters are read now, as the driver does: the caller may reuse them at once.
    size_t total = 0;
    for (unsigned i = 0; fn->params_known && i < fn->nparams; ++i) {
        if (params == NULL || params[i] == NULL) {
            free(l);
            return CUDA_ERROR_INVALID_VALUE;
        }
        l->arg_offset[i] = total;
        total += fn->param_size[i];
    }
    l->args = malloc(total ? total : 1);
    for (unsigned i = 0; fn->params_known && i < fn->nparams; ++i)
        memcpy(l->args + l->arg_offset[i], params[i], fn->param_size[i]);
    l->nargs = fn->params_known ? fn->nparams : 0;
    return sim_enqueue(s, run_launch, l);
}

SIM_EXPORT CUresult cuLaunchKernelEx(const CUlaunchConfig *config, CUfunction f, void **params,
                                     void **extra) {
    sim_count_call();
    return cuLaunchKernel(f, config->gridDimX, config->gridDimY, config->gridDimZ,
                          config->blockDimX, config->blockDimY, config->blockDimZ,
                          config->sharedMemBytes, config->hStream, params, extra);
}

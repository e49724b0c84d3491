// SPDX-License-Identifier: MIT
// urProgram*: a program is one device image (PTX, cubin or fatbin) for one device, with the
// metadata it was created with and, once built or linked, its CUDA module.
//
// Build loads the image with cuModuleLoadDataEx. Compile and link go through the JIT linker
// (cuLinkCreate/cuLinkAddData/cuLinkComplete), which takes each input with its own type and
// accepts PTX with unresolved externs (-rdc), with both JIT logs kept.
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_internal.h"
#include "program/vfselect.h"
#include "core/release.h"

// First word of a fatbinary file (nvcc -fatbin), little endian.
#define CUDA_FATBIN_MAGIC 0xBA55ED50u

static cuda_image_kind_t detect_kind(const uint8_t *bin, size_t size) {
    if (size >= 4 && memcmp(bin, "\177ELF", 4) == 0)
        return CUDA_IMAGE_CUBIN;
    if (size >= 4) {
        uint32_t magic;
        memcpy(&magic, bin, sizeof magic);
        if (magic == CUDA_FATBIN_MAGIC)
            return CUDA_IMAGE_FATBIN;
    }
    // PTX is text, possibly NUL-terminated, with .version and .target directives.
    size_t n = strnlen((const char *)bin, size);
    for (size_t i = 0; i < n; ++i)
        if (!isprint(bin[i]) && !isspace(bin[i]))
            return CUDA_IMAGE_NONE;
    for (size_t i = n; i < size; ++i)
        if (bin[i] != '\0')
            return CUDA_IMAGE_NONE;
    if (memmem(bin, n, ".version", 8) == NULL || memmem(bin, n, ".target", 7) == NULL)
        return CUDA_IMAGE_NONE;
    return CUDA_IMAGE_PTX;
}

// ---- build options ----

typedef struct jit_opts_t {
    bool has_max_regs;
    unsigned max_regs;
} jit_opts_t;

static bool parse_count(const char *s, size_t n, unsigned *out) {
    if (n == 0 || n > 6)
        return false;
    unsigned v = 0;
    for (size_t i = 0; i < n; ++i) {
        if (!isdigit((unsigned char)s[i]))
            return false;
        v = v * 10 + (unsigned)(s[i] - '0');
    }
    *out = v;
    return v > 0;
}

// A real tokenizer: options are split at white space and only the whole option names
// -maxrregcount / --maxrregcount count ("=N" or a separate "N"). UR searched with
// find_first_of, so any option holding one of the letters (e.g. -Dcount=3) set the limit.
// Options the CUDA JIT has no use for are ignored.
static bool parse_options(const char *options, jit_opts_t *o, char *err, size_t err_size) {
    memset(o, 0, sizeof *o);
    const char *p = options != NULL ? options : "";
    bool want_value = false;
    while (*p != '\0') {
        while (isspace((unsigned char)*p))
            ++p;
        const char *tok = p;
        while (*p != '\0' && !isspace((unsigned char)*p))
            ++p;
        size_t len = (size_t)(p - tok);
        if (len == 0)
            break;
        if (want_value) {
            if (!parse_count(tok, len, &o->max_regs)) {
                snprintf(err, err_size, "-maxrregcount needs a positive number, got \"%.*s\"",
                         (int)len, tok);
                return false;
            }
            want_value = false;
            continue;
        }
        const char *name = tok;
        size_t name_len = len;
        if (name_len > 2 && name[0] == '-' && name[1] == '-')
            ++name, --name_len;
        if (name_len < 13 || strncmp(name, "-maxrregcount", 13) != 0 ||
            (name_len > 13 && name[13] != '='))
            continue;
        o->has_max_regs = true;
        if (name_len == 13) {
            want_value = true;
        } else if (!parse_count(name + 14, name_len - 14, &o->max_regs)) {
            snprintf(err, err_size, "-maxrregcount needs a positive number, got \"%.*s\"", (int)len,
                     tok);
            return false;
        }
    }
    if (want_value) {
        snprintf(err, err_size, "-maxrregcount needs a value");
        return false;
    }
    return true;
}

// ---- JIT logs ----

typedef struct jit_t {
    CUjit_option names[5];
    void *values[5];
    unsigned count;
    char info[CUDA_JIT_LOG_SIZE];
    char error[CUDA_JIT_LOG_SIZE];
} jit_t;

static jit_t *jit_new(const jit_opts_t *o) {
    jit_t *j = URC_NEW(jit_t);
    if (j == NULL)
        return NULL;
    j->names[0] = CU_JIT_INFO_LOG_BUFFER;
    j->values[0] = j->info;
    j->names[1] = CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES;
    j->values[1] = (void *)(uintptr_t)sizeof j->info;
    j->names[2] = CU_JIT_ERROR_LOG_BUFFER;
    j->values[2] = j->error;
    j->names[3] = CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES;
    j->values[3] = (void *)(uintptr_t)sizeof j->error;
    j->count = 4;
    if (o != NULL && o->has_max_regs) {
        j->names[4] = CU_JIT_MAX_REGISTERS;
        j->values[4] = (void *)(uintptr_t)o->max_regs;
        j->count = 5;
    }
    return j;
}

static size_t trimmed_len(const char *s, size_t cap) {
    size_t n = strnlen(s, cap);
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        --n;
    return n;
}

// Appends the JIT's info log, then its error log (where CUDA writes the actual errors), to
// *log. UR exposed only the info log.
static void jit_append_logs(jit_t *j, char **log) {
    size_t ni = trimmed_len(j->info, sizeof j->info);
    size_t ne = trimmed_len(j->error, sizeof j->error);
    size_t old = *log != NULL ? strlen(*log) : 0;
    if (ni + ne == 0)
        return;
    char *s = realloc(*log, old + ni + ne + 3);
    if (s == NULL)
        return;
    size_t at = old;
    if (old > 0 && ni + ne > 0)
        s[at++] = '\n';
    memcpy(s + at, j->info, ni);
    at += ni;
    if (ni > 0 && ne > 0)
        s[at++] = '\n';
    memcpy(s + at, j->error, ne);
    s[at + ne] = '\0';
    *log = s;
}

static void set_text(char **field, const char *text) {
    char *copy = urc_strdup(text != NULL ? text : "");
    if (copy != NULL) {
        free(*field);
        *field = copy;
    }
}

// ---- objects ----

static cuda_program_t *program_new(cuda_context_t *ctx, cuda_device_t *dev) {
    cuda_program_t *p = URC_NEW(cuda_program_t);
    if (p == NULL)
        return NULL;
    p->dg_cache = urc_dg_cache_create();
    if (p->dg_cache == NULL) {
        free(p);
        return NULL;
    }
    p->ctx = ctx;
    p->dev = dev;
    pthread_mutex_init(&p->lock, NULL);
    urc_object_init(&p->obj, &cuda_ddi, URC_KIND_PROGRAM);
    cuda_context_retain_internal(ctx);
    return p;
}

static void program_destroy(cuda_program_t *p) {
    if (p->has_module && p->owns_module && cuda_activate(p->dev) == UR_RESULT_SUCCESS)
        (void)cuda_ok(cu.ModuleUnload(p->module), "cuModuleUnload");
    free(p->binary);
    free(p->il);
    if (p->spirv != NULL)
        urc_spirv_info_free(p->spirv);
    free(p->spirv);
    free(p->spec);
    free(p->options);
    free(p->log);
    if (p->props != NULL)
        urc_props_release(p->props);
    urc_dg_cache_destroy(p->dg_cache);
    cuda_kernel_infos_free(p);
    pthread_mutex_destroy(&p->lock);
    cuda_context_release_internal(p->ctx);
    URC_OBJECT_FREE(p);
}

void cuda_program_retain_internal(cuda_program_t *p) {
    urc_hold(&p->obj);
}

void cuda_program_release_internal(cuda_program_t *p) {
    if (urc_unhold(&p->obj))
        program_destroy(p);
}

// ---- creation ----

// A program holding a SPIR-V module for `dev`: checked (INVALID_BINARY with the scanner's
// reason), kept as given, translated to PTX by the first build, compile or link.
static ur_result_t create_spirv(cuda_context_t *ctx, cuda_device_t *dev, const uint8_t *il,
                                size_t size, const ur_program_properties_t *properties,
                                ur_program_handle_t *phProgram) {
    char why[512];
    if (!cuda_spirv_available(why, sizeof why))
        return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0, "%s", why);
    urc_spirv_info_t *info = URC_NEW(urc_spirv_info_t);
    if (info == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    char err[256];
    if (!urc_spirv_scan(il, size, info, err, sizeof err)) {
        free(info);
        return urc_error_set(UR_RESULT_ERROR_INVALID_BINARY, 0, "%s", err);
    }
    urc_props_t *props = NULL;
    ur_result_t res = urc_props_from_program_properties(properties, &props);
    if (res != UR_RESULT_SUCCESS) {
        urc_spirv_info_free(info);
        free(info);
        return res;
    }
    cuda_program_t *p = program_new(ctx, dev);
    uint8_t *copy = malloc(size + 1);
    uint8_t *keep = malloc(size);
    if (p == NULL || copy == NULL || keep == NULL) {
        free(copy);
        free(keep);
        if (p != NULL)
            program_destroy(p);
        urc_props_release(props);
        urc_spirv_info_free(info);
        free(info);
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    memcpy(copy, il, size);
    copy[size] = '\0';
    memcpy(keep, il, size);
    p->binary = copy;
    p->size = size;
    p->kind = CUDA_IMAGE_SPIRV;
    p->il = keep;
    p->il_size = size;
    p->spirv = info;
    p->props = props;
    p->binary_type = UR_PROGRAM_BINARY_TYPE_NONE;
    p->status = UR_PROGRAM_BUILD_STATUS_NONE;
    *phProgram = (ur_program_handle_t)p;
    return UR_RESULT_SUCCESS;
}

ur_result_t cuda_program_create_with_il(ur_context_handle_t hContext, const void *pIL,
                                        size_t length, const ur_program_properties_t *pProperties,
                                        ur_program_handle_t *phProgram) {
    if (!cuda_is(hContext, URC_KIND_CONTEXT))
        return UR_RESULT_ERROR_INVALID_CONTEXT;
    cuda_context_t *ctx = CUDA_CONTEXT(hContext);
    if (pIL == NULL)
        return UR_RESULT_ERROR_INVALID_NULL_POINTER;
    if (length == 0)
        return UR_RESULT_ERROR_INVALID_SIZE;
    // A CUDA program is for one device: the context's first.
    return create_spirv(ctx, ctx->devices[0], pIL, length, pProperties, phProgram);
}

ur_result_t cuda_program_create_with_binary(ur_context_handle_t hContext, uint32_t numDevices,
                                            ur_device_handle_t *phDevices, size_t *pLengths,
                                            const uint8_t **ppBinaries,
                                            const ur_program_properties_t *pProperties,
                                            ur_program_handle_t *phProgram) {
    cuda_context_t *ctx = CUDA_CONTEXT(hContext);
    if (numDevices > 1)
        return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0,
                             "a CUDA program holds the image of one device");
    if (!cuda_is(phDevices[0], URC_KIND_DEVICE) ||
        !cuda_context_has_device(ctx, CUDA_DEVICE(phDevices[0])))
        return UR_RESULT_ERROR_INVALID_DEVICE;
    if (ppBinaries[0] == NULL)
        return UR_RESULT_ERROR_INVALID_NULL_POINTER;
    if (pLengths[0] == 0)
        return UR_RESULT_ERROR_INVALID_SIZE;
    size_t size = pLengths[0];
    if (urc_spirv_is(ppBinaries[0], size))
        return create_spirv(ctx, CUDA_DEVICE(phDevices[0]), ppBinaries[0], size, pProperties,
                            phProgram);
    cuda_image_kind_t kind = detect_kind(ppBinaries[0], size);
    if (kind == CUDA_IMAGE_NONE)
        return urc_error_set(UR_RESULT_ERROR_INVALID_BINARY, 0,
                             "the binary is neither PTX, a cubin (ELF) nor a fatbinary");
    urc_props_t *props = NULL;
    ur_result_t res = urc_props_from_program_properties(pProperties, &props);
    if (res != UR_RESULT_SUCCESS)
        return res;
    cuda_program_t *p = program_new(ctx, CUDA_DEVICE(phDevices[0]));
    uint8_t *copy = size < SIZE_MAX ? malloc(size + 1) : NULL;
    if (p == NULL || copy == NULL) {
        free(copy);
        if (p != NULL)
            program_destroy(p);
        urc_props_release(props);
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    // cuModuleLoadDataEx reads PTX as a C string, so every copy gets a terminating NUL.
    memcpy(copy, ppBinaries[0], size);
    copy[size] = '\0';
    p->binary = copy;
    p->size = size;
    p->kind = kind;
    p->props = props;
    p->binary_type = UR_PROGRAM_BINARY_TYPE_COMPILED_OBJECT;
    p->status = UR_PROGRAM_BUILD_STATUS_NONE;
    *phProgram = (ur_program_handle_t)p;
    return UR_RESULT_SUCCESS;
}

ur_result_t cuda_program_create_with_native_handle(
    ur_native_handle_t hNativeProgram, ur_context_handle_t hContext,
    const ur_program_native_properties_t *pProperties, ur_program_handle_t *phProgram) {
    if (hNativeProgram == 0)
        return UR_RESULT_ERROR_INVALID_NULL_HANDLE;
    urc_props_t *props = NULL;
    ur_result_t res = urc_props_from_program_properties(NULL, &props);
    if (res != UR_RESULT_SUCCESS)
        return res;
    cuda_context_t *ctx = CUDA_CONTEXT(hContext);
    cuda_program_t *p = program_new(ctx, ctx->devices[0]);
    if (p == NULL) {
        urc_props_release(props);
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    p->props = props;
    p->kind = CUDA_IMAGE_NONE;
    p->module = (CUmodule)hNativeProgram;
    p->has_module = true;
    p->owns_module = pProperties != NULL && pProperties->isNativeHandleOwned;
    p->status = UR_PROGRAM_BUILD_STATUS_SUCCESS;
    p->binary_type = UR_PROGRAM_BINARY_TYPE_EXECUTABLE;
    *phProgram = (ur_program_handle_t)p;
    return UR_RESULT_SUCCESS;
}

// ---- build, compile, link ----

// The device-image checks of build, compile and link, in one place: the program's "SYCL/device
// requirements" against the device's capabilities (URC_MASK_ASPECTS applied). On failure the
// seed's message becomes the build log and the last-error message.
static ur_result_t check_device_image(const urc_props_t *props, const cuda_device_t *dev,
                                      char **log) {
    char msg[512] = "";
    ur_result_t res = urc_check_requirements(props, &dev->caps, msg, sizeof msg);
    if (res == UR_RESULT_SUCCESS)
        return res;
    set_text(log, msg);
    return urc_error_set(res, 0, "%s", msg);
}

// Build failures carry the JIT's own code; those meaning "this image will not build here"
// become UR's build or link failure, the rest (out of memory, a dead context) keep their map.
static ur_result_t jit_failure(CUresult r, const char *call, ur_result_t failure, const char *log) {
    switch (r) {
    case CUDA_ERROR_OUT_OF_MEMORY:
    case CUDA_ERROR_ASSERT:
    case CUDA_ERROR_INVALID_CONTEXT:
    case CUDA_ERROR_CONTEXT_IS_DESTROYED:
    case CUDA_ERROR_JIT_COMPILER_NOT_FOUND:
    case CUDA_ERROR_JIT_COMPILATION_DISABLED:
        return cuda_error(r, call);
    case CUDA_ERROR_NO_BINARY_FOR_GPU:
        if (failure == UR_RESULT_ERROR_PROGRAM_BUILD_FAILURE)
            return urc_error_set(UR_RESULT_ERROR_INVALID_BINARY, (int32_t)r,
                                 "%s: the image has no code for this GPU", call);
        break;
    default:
        break;
    }
    return urc_error_set(failure, (int32_t)r, "%s failed (%d): %s", call, (int)r,
                         log != NULL ? log : "");
}

// Translates a SPIR-V program to PTX (the program's lock held): the binary becomes the PTX,
// which BINARIES returns and the JIT loads; the module stays in p->il. On failure the build
// log holds the translator's messages and the status is ERROR.
static ur_result_t translate_locked(cuda_program_t *p, bool library) {
    if (p->kind != CUDA_IMAGE_SPIRV)
        return UR_RESULT_SUCCESS;
    cuda_spirv_request_t req = {
        .spirv = p->il,
        .size = p->il_size,
        .sm = cuda_spirv_target(p->dev->cc_major, p->dev->cc_minor),
        .library = library,
        .no_contract = p->spirv->contraction_off,
        .spec = p->spec,
        .spec_count = p->spec_count,
    };
    char *ptx = NULL, *log = NULL;
    size_t size = 0;
    ur_result_t res = cuda_spirv_translate(&req, &ptx, &size, &log);
    if (log != NULL) {
        free(p->log);
        p->log = log;
    }
    if (res != UR_RESULT_SUCCESS) {
        p->status = UR_PROGRAM_BUILD_STATUS_ERROR;
        return res;
    }
    free(p->binary);
    p->binary = (uint8_t *)ptx;
    p->size = size;
    p->kind = CUDA_IMAGE_PTX;
    return UR_RESULT_SUCCESS;
}

static ur_result_t build_locked(cuda_program_t *p, const char *options) {
    if (p->has_module) {
        // Kernels may hold functions of the loaded module, so it is never replaced.
        set_text(&p->options, options);
        return UR_RESULT_SUCCESS;
    }
    jit_opts_t o;
    char err[256];
    set_text(&p->options, options);
    if (!parse_options(options, &o, err, sizeof err)) {
        set_text(&p->log, err);
        p->status = UR_PROGRAM_BUILD_STATUS_ERROR;
        return urc_error_set(UR_RESULT_ERROR_PROGRAM_BUILD_FAILURE, 0, "%s", err);
    }
    ur_result_t res = check_device_image(p->props, p->dev, &p->log);
    if (res != UR_RESULT_SUCCESS) {
        p->status = UR_PROGRAM_BUILD_STATUS_ERROR;
        return res;
    }
    res = translate_locked(p, false);
    if (res != UR_RESULT_SUCCESS)
        return res;
    res = cuda_activate(p->dev);
    if (res != UR_RESULT_SUCCESS)
        return res;
    jit_t *j = jit_new(&o);
    if (j == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    CUresult r = cu.ModuleLoadDataEx(&p->module, p->binary, j->count, j->names, j->values);
    if (p->il == NULL)
        set_text(&p->log, "");
    jit_append_logs(j, &p->log);
    free(j);
    if (r != CUDA_SUCCESS) {
        p->status = UR_PROGRAM_BUILD_STATUS_ERROR;
        return jit_failure(r, "cuModuleLoadDataEx", UR_RESULT_ERROR_PROGRAM_BUILD_FAILURE, p->log);
    }
    p->has_module = true;
    p->owns_module = true;
    p->status = UR_PROGRAM_BUILD_STATUS_SUCCESS;
    p->binary_type = UR_PROGRAM_BINARY_TYPE_EXECUTABLE;
    return UR_RESULT_SUCCESS;
}

static ur_result_t build(cuda_program_t *p, const char *options) {
    pthread_mutex_lock(&p->lock);
    ur_result_t res = build_locked(p, options);
    pthread_mutex_unlock(&p->lock);
    return res;
}

static CUjitInputType input_type(cuda_image_kind_t kind) {
    switch (kind) {
    case CUDA_IMAGE_CUBIN:
        return CU_JIT_INPUT_CUBIN;
    case CUDA_IMAGE_FATBIN:
        return CU_JIT_INPUT_FATBINARY;
    default:
        return CU_JIT_INPUT_PTX;
    }
}

static size_t link_size(const cuda_program_t *p) {
    // PTX goes in with its terminating NUL, as NVIDIA's own samples pass it.
    return p->kind == CUDA_IMAGE_PTX ? p->size + 1 : p->size;
}

// Compiling is the first half of a link: cuLinkAddData JIT-compiles the input (PTX with
// unresolved externs is fine there) and reports its errors with both logs. The linker keeps
// no relocatable object to hand back, so link compiles the input again.
static ur_result_t jit_compile(cuda_program_t *p, const jit_opts_t *o) {
    jit_t *j = jit_new(o);
    if (j == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    ur_result_t res = cuda_activate(p->dev);
    CUlinkState state = NULL;
    CUresult r = CUDA_SUCCESS;
    const char *call = "cuLinkCreate";
    if (res == UR_RESULT_SUCCESS) {
        r = cu.LinkCreate(j->count, j->names, j->values, &state);
        if (r == CUDA_SUCCESS) {
            call = "cuLinkAddData";
            r = cu.LinkAddData(state, input_type(p->kind), p->binary, link_size(p), "input0", 0,
                               NULL, NULL);
        }
        if (p->il == NULL)
            set_text(&p->log, "");
        jit_append_logs(j, &p->log);
        if (r != CUDA_SUCCESS)
            res = jit_failure(r, call, UR_RESULT_ERROR_PROGRAM_BUILD_FAILURE, p->log);
    }
    if (state != NULL)
        cu.LinkDestroy(state);
    free(j);
    return res;
}

static ur_result_t compile(cuda_program_t *p, const char *options) {
    if (p->kind == CUDA_IMAGE_NONE)
        return urc_error_set(UR_RESULT_ERROR_INVALID_OPERATION, 0,
                             "a program made from a native module cannot be compiled");
    jit_opts_t o;
    char err[256];
    pthread_mutex_lock(&p->lock);
    set_text(&p->options, options);
    ur_result_t res = UR_RESULT_SUCCESS;
    if (!parse_options(options, &o, err, sizeof err)) {
        set_text(&p->log, err);
        res = urc_error_set(UR_RESULT_ERROR_PROGRAM_BUILD_FAILURE, 0, "%s", err);
    }
    if (res == UR_RESULT_SUCCESS)
        res = check_device_image(p->props, p->dev, &p->log);
    if (res == UR_RESULT_SUCCESS)
        res = translate_locked(p, true);
    if (res == UR_RESULT_SUCCESS)
        res = jit_compile(p, &o);
    if (res == UR_RESULT_SUCCESS)
        p->binary_type = UR_PROGRAM_BINARY_TYPE_COMPILED_OBJECT;
    p->status =
        res == UR_RESULT_SUCCESS ? UR_PROGRAM_BUILD_STATUS_SUCCESS : UR_PROGRAM_BUILD_STATUS_ERROR;
    pthread_mutex_unlock(&p->lock);
    return res;
}

// Runs cuLink over the selected inputs and loads the result into `out`. Link errors leave the
// logs in out->log and give UR_RESULT_ERROR_PROGRAM_LINK_FAILURE.
static ur_result_t jit_link(cuda_program_t *out, cuda_program_t *const *in, const bool *selected,
                            uint32_t count, const jit_opts_t *o) {
    jit_t *j = jit_new(o);
    jit_t *load = jit_new(o);
    ur_result_t res = UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    CUlinkState state = NULL;
    const char *call = "cuLinkCreate";
    if (j == NULL || load == NULL)
        goto done;
    // The link state gets the log buffers too, so unresolved symbols are explained.
    CUresult r = cu.LinkCreate(j->count, j->names, j->values, &state);
    for (uint32_t i = 0; r == CUDA_SUCCESS && i < count; ++i) {
        if (!selected[i])
            continue;
        char name[32];
        snprintf(name, sizeof name, "input%u", i);
        call = "cuLinkAddData";
        r = cu.LinkAddData(state, input_type(in[i]->kind), in[i]->binary, link_size(in[i]), name, 0,
                           NULL, NULL);
    }
    void *cubin = NULL;
    size_t cubin_size = 0;
    if (r == CUDA_SUCCESS) {
        call = "cuLinkComplete";
        r = cu.LinkComplete(state, &cubin, &cubin_size);
    }
    jit_append_logs(j, &out->log);
    if (r != CUDA_SUCCESS) {
        res = jit_failure(r, call, UR_RESULT_ERROR_PROGRAM_LINK_FAILURE, out->log);
        goto done;
    }
    // The cubin belongs to the link state: keep a copy before destroying it.
    out->binary = malloc(cubin_size + 1);
    if (out->binary == NULL)
        goto done;
    memcpy(out->binary, cubin, cubin_size);
    out->binary[cubin_size] = '\0';
    out->size = cubin_size;
    out->kind = CUDA_IMAGE_CUBIN;
    r = cu.ModuleLoadDataEx(&out->module, out->binary, load->count, load->names, load->values);
    jit_append_logs(load, &out->log);
    if (r != CUDA_SUCCESS) {
        res = jit_failure(r, "cuModuleLoadDataEx", UR_RESULT_ERROR_PROGRAM_LINK_FAILURE, out->log);
        goto done;
    }
    out->has_module = true;
    out->owns_module = true;
    res = UR_RESULT_SUCCESS;

done:
    if (state != NULL)
        cu.LinkDestroy(state);
    free(j);
    free(load);
    return res;
}

// Adds the kernels of a SPIR-V input to a linked program's list; false when out of memory.
static bool merge_kernels(cuda_program_t *out, const urc_spirv_info_t *from) {
    if (out->spirv == NULL && (out->spirv = URC_NEW(urc_spirv_info_t)) == NULL)
        return false;
    urc_spirv_info_t *to = out->spirv;
    if (from->kernel_count == 0)
        return true;
    urc_spirv_kernel_t *k =
        realloc(to->kernels, ((size_t)to->kernel_count + from->kernel_count) * sizeof *k);
    if (k == NULL)
        return false;
    to->kernels = k;
    for (uint32_t i = 0; i < from->kernel_count; ++i) {
        urc_spirv_kernel_t *dst = &to->kernels[to->kernel_count];
        *dst = from->kernels[i];
        dst->name = urc_strdup(from->kernels[i].name);
        if (dst->name == NULL)
            return false;
        ++to->kernel_count;
    }
    to->contraction_off = to->contraction_off || from->contraction_off;
    return true;
}

static ur_result_t link_programs(cuda_context_t *ctx, uint32_t count,
                                 const ur_program_handle_t *phPrograms, const char *options,
                                 ur_program_handle_t *phProgram) {
    for (uint32_t i = 0; i < count; ++i) {
        if (!cuda_is(phPrograms[i], URC_KIND_PROGRAM))
            return UR_RESULT_ERROR_INVALID_PROGRAM;
        cuda_program_t *p = CUDA_PROGRAM(phPrograms[i]);
        if (p->ctx != ctx)
            return urc_error_set(UR_RESULT_ERROR_INVALID_CONTEXT, 0,
                                 "program %u belongs to another context", i);
        if (p->dev != CUDA_PROGRAM(phPrograms[0])->dev || !cuda_context_has_device(ctx, p->dev))
            return urc_error_set(UR_RESULT_ERROR_INVALID_DEVICE, 0,
                                 "linked programs must all be for one device of the context");
        if (p->kind == CUDA_IMAGE_NONE)
            return urc_error_set(UR_RESULT_ERROR_INVALID_OPERATION, 0,
                                 "a program made from a native module cannot be linked");
    }
    cuda_device_t *dev = CUDA_PROGRAM(phPrograms[0])->dev;
    cuda_program_t *const *in = (cuda_program_t *const *)phPrograms;
    jit_opts_t o;
    char err[256];
    const urc_props_t **props = urc_calloc(count, sizeof *props);
    bool *selected = urc_calloc(count, sizeof *selected);
    const urc_props_t **chosen = urc_calloc(count, sizeof *chosen);
    cuda_program_t *out = program_new(ctx, dev);
    ur_result_t res = UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    if (props == NULL || selected == NULL || chosen == NULL || out == NULL)
        goto fail;
    out->status = UR_PROGRAM_BUILD_STATUS_ERROR;
    out->binary_type = UR_PROGRAM_BINARY_TYPE_NONE;
    set_text(&out->options, options);
    for (uint32_t i = 0; i < count; ++i)
        props[i] = in[i]->props;

    if (!parse_options(options, &o, err, sizeof err)) {
        set_text(&out->log, err);
        res = urc_error_set(UR_RESULT_ERROR_PROGRAM_LINK_FAILURE, 0, "%s", err);
        goto failed_link;
    }
    // The device-image hook: the main image's requirements, then the virtual-function
    // selection over every input (real or dummy providers), linking only what it selects.
    res = check_device_image(props[0], dev, &out->log);
    if (res != UR_RESULT_SUCCESS)
        goto fail;
    char vf_log[512] = "";
    res = urc_vf_select(props, count, &dev->caps, selected, vf_log, sizeof vf_log);
    if (res == UR_RESULT_ERROR_PROGRAM_LINK_FAILURE) {
        set_text(&out->log, vf_log);
        urc_error_set(res, 0, "%s", vf_log);
        goto failed_link;
    }
    if (res != UR_RESULT_SUCCESS) {
        urc_error_set(res, 0, "%s", vf_log);
        goto fail;
    }
    // The linked program carries the union of its inputs' metadata, @global_id_mapping
    // included, so its device globals are still found by their SYCL names.
    size_t nchosen = 0;
    for (uint32_t i = 0; i < count; ++i)
        if (selected[i])
            chosen[nchosen++] = props[i];
    res = urc_props_merge(chosen, nchosen, &out->props);
    if (res != UR_RESULT_SUCCESS)
        goto fail;
    // SPIR-V inputs not compiled yet are translated now, keeping their functions external
    // for the link; the linked program knows the kernels of every SPIR-V input.
    for (uint32_t i = 0; i < count; ++i) {
        if (!selected[i] || in[i]->spirv == NULL)
            continue;
        pthread_mutex_lock(&in[i]->lock);
        res = translate_locked(in[i], true);
        if (res != UR_RESULT_SUCCESS)
            set_text(&out->log, in[i]->log);
        pthread_mutex_unlock(&in[i]->lock);
        if (res == UR_RESULT_ERROR_OUT_OF_HOST_MEMORY)
            goto fail;
        if (res != UR_RESULT_SUCCESS) {
            res = urc_error_set(UR_RESULT_ERROR_PROGRAM_LINK_FAILURE, 0,
                                "SPIR-V program %u did not translate: %s", i,
                                out->log != NULL ? out->log : "");
            goto failed_link;
        }
        if (!merge_kernels(out, in[i]->spirv))
            goto fail;
    }
    res = cuda_activate(dev);
    if (res != UR_RESULT_SUCCESS)
        goto fail;
    res = jit_link(out, in, selected, count, &o);
    if (res == UR_RESULT_ERROR_PROGRAM_LINK_FAILURE)
        goto failed_link;
    if (res != UR_RESULT_SUCCESS)
        goto fail;
    out->status = UR_PROGRAM_BUILD_STATUS_SUCCESS;
    out->binary_type = UR_PROGRAM_BINARY_TYPE_EXECUTABLE;
    *phProgram = (ur_program_handle_t)out;
    res = UR_RESULT_SUCCESS;
    goto done;

failed_link:
    // UR lets a failed link return a program whose only use is its build log; DPC++ reads
    // that log to explain the failure.
    if (out->props == NULL &&
        urc_props_from_program_properties(NULL, &out->props) != UR_RESULT_SUCCESS)
        goto fail;
    *phProgram = (ur_program_handle_t)out;
    goto done;
fail:
    if (out != NULL)
        program_destroy(out);
done:
    free(props);
    free(selected);
    free(chosen);
    return res;
}

// The Exp variants name devices explicitly; a CUDA program has exactly one.
static ur_result_t check_devices(const cuda_device_t *dev, uint32_t n,
                                 const ur_device_handle_t *devices) {
    if (n == 0)
        return UR_RESULT_ERROR_INVALID_SIZE;
    for (uint32_t i = 0; i < n; ++i)
        if (!cuda_is(devices[i], URC_KIND_DEVICE) || CUDA_DEVICE(devices[i]) != dev)
            return urc_error_set(UR_RESULT_ERROR_INVALID_DEVICE, 0,
                                 "the program is not for device %u", i);
    return UR_RESULT_SUCCESS;
}

ur_result_t cuda_program_build(ur_context_handle_t hContext, ur_program_handle_t hProgram,
                               const char *pOptions) {
    if (CUDA_PROGRAM(hProgram)->ctx != CUDA_CONTEXT(hContext))
        return urc_error_set(UR_RESULT_ERROR_INVALID_CONTEXT, 0,
                             "the program belongs to another context");
    return build(CUDA_PROGRAM(hProgram), pOptions);
}

ur_result_t cuda_program_compile(ur_context_handle_t hContext, ur_program_handle_t hProgram,
                                 const char *pOptions) {
    if (CUDA_PROGRAM(hProgram)->ctx != CUDA_CONTEXT(hContext))
        return urc_error_set(UR_RESULT_ERROR_INVALID_CONTEXT, 0,
                             "the program belongs to another context");
    return compile(CUDA_PROGRAM(hProgram), pOptions);
}

ur_result_t cuda_program_link(ur_context_handle_t hContext, uint32_t count,
                              const ur_program_handle_t *phPrograms, const char *pOptions,
                              ur_program_handle_t *phProgram) {
    *phProgram = NULL;
    return link_programs(CUDA_CONTEXT(hContext), count, phPrograms, pOptions, phProgram);
}

ur_result_t cuda_program_build_exp(ur_program_handle_t hProgram, uint32_t numDevices,
                                   ur_device_handle_t *phDevices, ur_exp_program_flags_t flags,
                                   const char *pOptions) {
    (void)flags;
    ur_result_t res = check_devices(CUDA_PROGRAM(hProgram)->dev, numDevices, phDevices);
    return res != UR_RESULT_SUCCESS ? res : build(CUDA_PROGRAM(hProgram), pOptions);
}

ur_result_t cuda_program_compile_exp(ur_program_handle_t hProgram, uint32_t numDevices,
                                     ur_device_handle_t *phDevices, ur_exp_program_flags_t flags,
                                     const char *pOptions) {
    (void)flags;
    ur_result_t res = check_devices(CUDA_PROGRAM(hProgram)->dev, numDevices, phDevices);
    return res != UR_RESULT_SUCCESS ? res : compile(CUDA_PROGRAM(hProgram), pOptions);
}

// UR_EXP_PROGRAM_FLAG_ALLOW_UNRESOLVED_SYMBOLS is accepted but has no effect: the CUDA linker
// always produces a complete image.
ur_result_t cuda_program_link_exp(ur_context_handle_t hContext, uint32_t numDevices,
                                  ur_device_handle_t *phDevices, ur_exp_program_flags_t flags,
                                  uint32_t count, const ur_program_handle_t *phPrograms,
                                  const char *pOptions, ur_program_handle_t *phProgram) {
    (void)flags;
    *phProgram = NULL;
    for (uint32_t i = 0; i < count; ++i)
        if (!cuda_is(phPrograms[i], URC_KIND_PROGRAM))
            return UR_RESULT_ERROR_INVALID_PROGRAM;
    ur_result_t res = check_devices(CUDA_PROGRAM(phPrograms[0])->dev, numDevices, phDevices);
    if (res != UR_RESULT_SUCCESS)
        return res;
    return link_programs(CUDA_CONTEXT(hContext), count, phPrograms, pOptions, phProgram);
}

// ---- queries and the rest ----

URC_RETAIN_RELEASE(cuda_program, ur_program_handle_t, CUDA_PROGRAM, UR_RESULT_ERROR_INVALID_PROGRAM,
                   "urProgramRelease", program_destroy)

bool cuda_program_module(cuda_program_t *p, CUmodule *module) {
    pthread_mutex_lock(&p->lock);
    bool built = p->has_module;
    *module = p->module;
    pthread_mutex_unlock(&p->lock);
    return built;
}

ur_result_t cuda_program_get_function_pointer(ur_device_handle_t hDevice,
                                              ur_program_handle_t hProgram,
                                              const char *pFunctionName, void **ppFunctionPointer) {
    cuda_program_t *p = CUDA_PROGRAM(hProgram);
    if (CUDA_DEVICE(hDevice) != p->dev)
        return UR_RESULT_ERROR_INVALID_DEVICE;
    CUmodule module;
    if (!cuda_program_module(p, &module))
        return UR_RESULT_ERROR_INVALID_PROGRAM_EXECUTABLE;
    ur_result_t res = cuda_activate(p->dev);
    if (res != UR_RESULT_SUCCESS)
        return res;
    CUfunction fn = NULL;
    CUresult r = cu.ModuleGetFunction(&fn, module, pFunctionName);
    *ppFunctionPointer = r == CUDA_SUCCESS ? (void *)fn : NULL;
    if (r == CUDA_ERROR_NOT_FOUND)
        return urc_error_set(UR_RESULT_ERROR_INVALID_KERNEL_NAME, (int32_t)r,
                             "no function \"%s\" in the program", pFunctionName);
    return cuda_ok(r, "cuModuleGetFunction");
}

ur_result_t cuda_program_get_global_variable_pointer(ur_device_handle_t hDevice,
                                                     ur_program_handle_t hProgram,
                                                     const char *pGlobalVariableName,
                                                     size_t *pGlobalVariableSizeRet,
                                                     void **ppGlobalVariablePointerRet) {
    cuda_program_t *p = CUDA_PROGRAM(hProgram);
    if (CUDA_DEVICE(hDevice) != p->dev)
        return UR_RESULT_ERROR_INVALID_DEVICE;
    CUdeviceptr address = 0;
    size_t size = 0;
    ur_result_t res = cuda_program_global(p, pGlobalVariableName, &address, &size);
    if (res != UR_RESULT_SUCCESS)
        return res;
    *ppGlobalVariablePointerRet = (void *)(uintptr_t)address;
    if (pGlobalVariableSizeRet != NULL)
        *pGlobalVariableSizeRet = size;
    return UR_RESULT_SUCCESS;
}

ur_result_t cuda_program_get_info(ur_program_handle_t hProgram, ur_program_info_t propName,
                                  size_t propSize, void *pPropValue, size_t *pPropSizeRet) {
    cuda_program_t *p = CUDA_PROGRAM(hProgram);
    const urc_info_t out = {propSize, pPropValue, pPropSizeRet};
    switch (propName) {
    case UR_PROGRAM_INFO_REFERENCE_COUNT:
        return urc_info_u32(&out, urc_refcount(&p->obj));
    case UR_PROGRAM_INFO_CONTEXT:
        return urc_info_ptr(&out, p->ctx);
    case UR_PROGRAM_INFO_NUM_DEVICES:
        return urc_info_u32(&out, 1);
    case UR_PROGRAM_INFO_DEVICES:
        return urc_info_ptr(&out, p->dev);
    case UR_PROGRAM_INFO_IL:
        return urc_info_bytes(&out, p->il, p->il != NULL ? p->il_size : 0);
    case UR_PROGRAM_INFO_BINARY_SIZES:
        return urc_info_size(&out, p->size);
    case UR_PROGRAM_INFO_BINARIES: {
        // The caller passes one pointer per device and owns the memory behind it.
        ur_result_t res = urc_info_reserve(&out, sizeof(uint8_t *));
        if (res != UR_RESULT_SUCCESS || pPropValue == NULL)
            return res;
        uint8_t *dst = ((uint8_t **)pPropValue)[0];
        if (dst != NULL && p->size > 0)
            memcpy(dst, p->binary, p->size);
        return UR_RESULT_SUCCESS;
    }
    case UR_PROGRAM_INFO_NUM_KERNELS:
        // CUDA cannot list a module's kernels; SPIR-V names its entry points.
        if (p->spirv == NULL)
            return UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION;
        return urc_info_size(&out, p->spirv->kernel_count);
    case UR_PROGRAM_INFO_KERNEL_NAMES: {
        if (p->spirv == NULL)
            return UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION;
        size_t len = 1;
        for (uint32_t i = 0; i < p->spirv->kernel_count; ++i)
            len += strlen(p->spirv->kernels[i].name) + 1;
        char *names = malloc(len);
        if (names == NULL)
            return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
        size_t at = 0;
        for (uint32_t i = 0; i < p->spirv->kernel_count; ++i) {
            size_t n = strlen(p->spirv->kernels[i].name);
            if (i > 0)
                names[at++] = ';';
            memcpy(names + at, p->spirv->kernels[i].name, n);
            at += n;
        }
        names[at] = '\0';
        ur_result_t res = urc_info_string(&out, names);
        free(names);
        return res;
    }
    default:
        return UR_RESULT_ERROR_INVALID_ENUMERATION;
    }
}

ur_result_t cuda_program_get_build_info(ur_program_handle_t hProgram, ur_device_handle_t hDevice,
                                        ur_program_build_info_t propName, size_t propSize,
                                        void *pPropValue, size_t *pPropSizeRet) {
    cuda_program_t *p = CUDA_PROGRAM(hProgram);
    if (CUDA_DEVICE(hDevice) != p->dev)
        return UR_RESULT_ERROR_INVALID_DEVICE;
    const urc_info_t out = {propSize, pPropValue, pPropSizeRet};
    ur_result_t res;
    pthread_mutex_lock(&p->lock);
    switch (propName) {
    case UR_PROGRAM_BUILD_INFO_STATUS:
        res = urc_info_bytes(&out, &p->status, sizeof p->status);
        break;
    case UR_PROGRAM_BUILD_INFO_OPTIONS:
        res = urc_info_string(&out, p->options != NULL ? p->options : "");
        break;
    case UR_PROGRAM_BUILD_INFO_LOG:
        res = urc_info_string(&out, p->log != NULL ? p->log : "");
        break;
    case UR_PROGRAM_BUILD_INFO_BINARY_TYPE:
        res = urc_info_bytes(&out, &p->binary_type, sizeof p->binary_type);
        break;
    default:
        res = UR_RESULT_ERROR_INVALID_ENUMERATION;
        break;
    }
    pthread_mutex_unlock(&p->lock);
    return res;
}

ur_result_t cuda_program_get_native_handle(ur_program_handle_t hProgram,
                                           ur_native_handle_t *phNativeProgram) {
    CUmodule module;
    if (!cuda_program_module(CUDA_PROGRAM(hProgram), &module))
        return UR_RESULT_ERROR_INVALID_PROGRAM_EXECUTABLE;
    *phNativeProgram = (ur_native_handle_t)module;
    return UR_RESULT_SUCCESS;
}

bool cuda_program_spirv_local_size(const cuda_program_t *p, const char *name, uint32_t dims[3]) {
    if (p->spirv == NULL)
        return false;
    for (uint32_t i = 0; i < p->spirv->kernel_count; ++i) {
        const urc_spirv_kernel_t *k = &p->spirv->kernels[i];
        if (strcmp(k->name, name) == 0 && k->local[0] != 0) {
            memcpy(dims, k->local, sizeof k->local);
            return true;
        }
    }
    return false;
}

// Specialization constants of a SPIR-V program, applied by the translator at the next build,
// compile or link. A value replaces an earlier one of the same id; ids the module does not
// declare are INVALID_VALUE, as are values wider than 8 bytes.
ur_result_t
cuda_program_set_specialization_constants(ur_program_handle_t hProgram, uint32_t count,
                                          const ur_specialization_constant_info_t *pSpecConstants) {
    if (!cuda_is(hProgram, URC_KIND_PROGRAM))
        return UR_RESULT_ERROR_INVALID_PROGRAM;
    cuda_program_t *p = CUDA_PROGRAM(hProgram);
    if (p->spirv == NULL || p->il == NULL)
        return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0,
                             "specialization constants need a program made from SPIR-V");
    for (uint32_t i = 0; i < count; ++i) {
        const ur_specialization_constant_info_t *c = &pSpecConstants[i];
        if (c->pValue == NULL)
            return UR_RESULT_ERROR_INVALID_NULL_POINTER;
        if (c->size == 0 || c->size > 8)
            return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                                 "specialization constant %u: %zu bytes (1 to 8)", c->id, c->size);
        bool known = false;
        for (uint32_t j = 0; j < p->spirv->spec_count && !known; ++j)
            known = p->spirv->spec_ids[j] == c->id;
        if (!known)
            return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                                 "the module has no specialization constant %u", c->id);
    }
    pthread_mutex_lock(&p->lock);
    ur_result_t res = UR_RESULT_SUCCESS;
    for (uint32_t i = 0; i < count && res == UR_RESULT_SUCCESS; ++i) {
        const ur_specialization_constant_info_t *c = &pSpecConstants[i];
        uint64_t value = 0;
        memcpy(&value, c->pValue, c->size); // little endian: the low bytes
        uint32_t j = 0;
        while (j < p->spec_count && p->spec[j].id != c->id)
            ++j;
        if (j == p->spec_count) {
            cuda_spec_const_t *n = realloc(p->spec, ((size_t)j + 1) * sizeof *n);
            if (n == NULL) {
                res = UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
                break;
            }
            p->spec = n;
            p->spec[p->spec_count++].id = c->id;
        }
        p->spec[j].value = value;
    }
    // A program translated but not loaded translates again with the new values.
    if (res == UR_RESULT_SUCCESS && !p->has_module && p->kind == CUDA_IMAGE_PTX) {
        uint8_t *copy = malloc(p->il_size + 1);
        if (copy == NULL) {
            res = UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
        } else {
            memcpy(copy, p->il, p->il_size);
            copy[p->il_size] = '\0';
            free(p->binary);
            p->binary = copy;
            p->size = p->il_size;
            p->kind = CUDA_IMAGE_SPIRV;
        }
    }
    pthread_mutex_unlock(&p->lock);
    return res;
}

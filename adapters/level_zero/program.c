// SPDX-License-Identifier: MIT
// urProgram*: UR's v1 per-device state machine (IL, Native, Object, Exe, Invalid) over Level
// Zero modules.
//
// Build makes a module per device with zeModuleCreate. Compile only records the options (the
// driver compiles at link time, where it can optimise across modules). Link makes one module
// per device from every selected input through the module program extension (static linking),
// then asks the driver for unresolved imports by linking the module with itself, unless the
// caller allows them. Logs are copied out of the driver once, so they can be read any number
// of times; every device is processed even when one fails; a failed link always answers
// PROGRAM_LINK_FAILURE and returns the program so its log can be read.
//
// Device images: every build, compile and link first checks the program's "SYCL/device
// requirements" against the device (the seed's message on failure), and a link chooses among
// virtual-function providers with urc_vf_select, linking only what it selects.
#include <stdio.h>
#include <stdlib.h>

#include "l0_internal.h"
#include "program/vfselect.h"
#include "core/release.h"

#define SPIRV_MAGIC 0x07230203u

// ---- objects ----

static l0_program_t *program_new(l0_context_t *ctx, uint32_t ndevs, l0_device_t *const *devs,
                                 l0_state_t state) {
    l0_program_t *p = URC_NEW(l0_program_t);
    if (p == NULL)
        return NULL;
    p->devs = urc_calloc(ndevs, sizeof *p->devs);
    if (p->devs == NULL) {
        free(p);
        return NULL;
    }
    for (uint32_t i = 0; i < ndevs; ++i) {
        p->devs[i].dev = devs[i];
        p->devs[i].state = state;
        p->devs[i].dg = urc_dg_cache_create();
        p->ndevs = i + 1;
        if (p->devs[i].dg == NULL) {
            for (uint32_t j = 0; j < i; ++j)
                urc_dg_cache_destroy(p->devs[j].dg);
            free(p->devs);
            free(p);
            return NULL;
        }
    }
    p->ctx = ctx;
    pthread_mutex_init(&p->lock, NULL);
    urc_object_init(&p->obj, &l0_ddi, URC_KIND_PROGRAM);
    l0_context_retain_internal(ctx);
    return p;
}

static void program_destroy(l0_program_t *p) {
    for (uint32_t i = 0; i < p->ndevs; ++i) {
        l0_program_dev_t *d = &p->devs[i];
        // A program made from a native module shares that one module across its devices and
        // destroys it only when it was given ownership.
        bool owned = !p->interop || (p->owns_native && i == 0);
        if (d->module != NULL && owned)
            (void)l0_ok(zeModuleDestroy(d->module), "zeModuleDestroy");
        free(d->options);
        free(d->log);
        free(d->native);
        urc_dg_cache_destroy(d->dg);
    }
    for (uint32_t i = 0; i < p->nspecs; ++i)
        free(p->specs[i].value);
    free(p->specs);
    free(p->devs);
    free(p->il);
    urc_props_release(p->props);
    pthread_mutex_destroy(&p->lock);
    l0_context_release_internal(p->ctx);
    URC_OBJECT_FREE(p);
}

void l0_program_retain_internal(l0_program_t *p) {
    urc_hold(&p->obj);
}

void l0_program_release_internal(l0_program_t *p) {
    if (urc_unhold(&p->obj))
        program_destroy(p);
}

l0_program_dev_t *l0_program_dev(l0_program_t *p, const l0_device_t *dev) {
    for (uint32_t i = 0; i < p->ndevs; ++i)
        if (p->devs[i].dev == dev)
            return &p->devs[i];
    // A sub-device runs what was built for its root device.
    for (uint32_t i = 0; dev->parent != NULL && i < p->ndevs; ++i)
        if (p->devs[i].dev == dev->parent)
            return &p->devs[i];
    return NULL;
}

bool l0_program_module(l0_program_t *p, const l0_device_t *dev, ze_module_handle_t *module,
                       urc_dg_cache_t **dg) {
    pthread_mutex_lock(&p->lock);
    l0_program_dev_t *d = l0_program_dev(p, dev);
    bool built = d != NULL && d->state == L0_STATE_EXE && d->module != NULL;
    if (built) {
        *module = d->module;
        if (dg != NULL)
            *dg = d->dg;
    }
    pthread_mutex_unlock(&p->lock);
    return built;
}

static void set_text(char **field, const char *text) {
    char *copy = urc_strdup(text != NULL ? text : "");
    if (copy != NULL) {
        free(*field);
        *field = copy;
    }
}

static void append_text(char **field, const char *text) {
    if (text == NULL || *text == '\0')
        return;
    size_t old = *field != NULL ? strlen(*field) : 0, add = strlen(text);
    char *s = realloc(*field, old + add + 2);
    if (s == NULL)
        return;
    if (old > 0 && s[old - 1] != '\n')
        s[old++] = '\n';
    memcpy(s + old, text, add + 1);
    *field = s;
}

// Appends a driver log to *field and destroys the driver's handle: the text is ours from now on.
static void take_log(ze_module_build_log_handle_t log, char **field) {
    if (log == NULL)
        return;
    size_t size = 0;
    if (zeModuleBuildLogGetString(log, &size, NULL) == ZE_RESULT_SUCCESS && size > 1) {
        char *text = malloc(size);
        if (text != NULL && zeModuleBuildLogGetString(log, &size, text) == ZE_RESULT_SUCCESS) {
            text[size - 1] = '\0';
            append_text(field, text);
        }
        free(text);
    }
    (void)zeModuleBuildLogDestroy(log);
}

// ---- creation ----

ur_result_t l0_program_create_with_il(ur_context_handle_t hContext, const void *pIL, size_t length,
                                      const ur_program_properties_t *pProperties,
                                      ur_program_handle_t *phProgram) {
    l0_context_t *ctx = L0_CONTEXT(hContext);
    // Level Zero takes SPIR-V only; UR recognises it by its first word.
    uint32_t magic = 0;
    if (length >= 4)
        memcpy(&magic, pIL, sizeof magic);
    if (length < 20 || length % 4 != 0 || magic != SPIRV_MAGIC)
        return urc_error_set(UR_RESULT_ERROR_INVALID_BINARY, 0,
                             "the IL is not SPIR-V (magic 0x%08x, %zu bytes)", magic, length);
    urc_props_t *props = NULL;
    ur_result_t res = urc_props_from_program_properties(pProperties, &props);
    if (res != UR_RESULT_SUCCESS)
        return res;
    l0_program_t *p = program_new(ctx, ctx->ndevices, ctx->devices, L0_STATE_IL);
    uint8_t *il = urc_memdup(pIL, length);
    if (p == NULL || il == NULL) {
        free(il);
        if (p != NULL)
            program_destroy(p);
        urc_props_release(props);
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    p->il = il;
    p->il_size = length;
    p->props = props;
    *phProgram = (ur_program_handle_t)p;
    return UR_RESULT_SUCCESS;
}

ur_result_t l0_program_create_with_binary(ur_context_handle_t hContext, uint32_t numDevices,
                                          ur_device_handle_t *phDevices, size_t *pLengths,
                                          const uint8_t **ppBinaries,
                                          const ur_program_properties_t *pProperties,
                                          ur_program_handle_t *phProgram) {
    l0_context_t *ctx = L0_CONTEXT(hContext);
    for (uint32_t i = 0; i < numDevices; ++i) {
        if (!l0_is(phDevices[i], URC_KIND_DEVICE) ||
            !l0_context_has_device(ctx, L0_DEVICE(phDevices[i])))
            return UR_RESULT_ERROR_INVALID_DEVICE;
        if (ppBinaries[i] == NULL || pLengths[i] == 0)
            return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0, "binary %u is empty or missing",
                                 i);
    }
    urc_props_t *props = NULL;
    ur_result_t res = urc_props_from_program_properties(pProperties, &props);
    if (res != UR_RESULT_SUCCESS)
        return res;
    l0_program_t *p =
        program_new(ctx, numDevices, (l0_device_t *const *)phDevices, L0_STATE_NATIVE);
    for (uint32_t i = 0; p != NULL && i < numDevices; ++i) {
        p->devs[i].native = urc_memdup(ppBinaries[i], pLengths[i]);
        p->devs[i].native_size = pLengths[i];
        if (p->devs[i].native == NULL) {
            program_destroy(p);
            p = NULL;
        }
    }
    if (p == NULL) {
        urc_props_release(props);
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    p->props = props;
    *phProgram = (ur_program_handle_t)p;
    return UR_RESULT_SUCCESS;
}

// The native module serves every device of the context, built already.
ur_result_t l0_program_create_with_native_handle(ur_native_handle_t hNativeProgram,
                                                 ur_context_handle_t hContext,
                                                 const ur_program_native_properties_t *pProperties,
                                                 ur_program_handle_t *phProgram) {
    if (hNativeProgram == 0)
        return UR_RESULT_ERROR_INVALID_NULL_HANDLE;
    l0_context_t *ctx = L0_CONTEXT(hContext);
    urc_props_t *props = NULL;
    ur_result_t res = urc_props_from_program_properties(NULL, &props);
    if (res != UR_RESULT_SUCCESS)
        return res;
    l0_program_t *p = program_new(ctx, ctx->ndevices, ctx->devices, L0_STATE_EXE);
    if (p == NULL) {
        urc_props_release(props);
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    for (uint32_t i = 0; i < p->ndevs; ++i)
        p->devs[i].module = (ze_module_handle_t)hNativeProgram;
    p->interop = true;
    p->owns_native = pProperties != NULL && pProperties->isNativeHandleOwned;
    p->props = props;
    *phProgram = (ur_program_handle_t)p;
    return UR_RESULT_SUCCESS;
}

// ---- shared steps of build, compile and link ----

// The device-image check: the program's requirements against the device's capabilities
// (URC_MASK_ASPECTS applied). On failure the seed's message is the device's log and the
// last-error message.
static ur_result_t check_image(const urc_props_t *props, l0_program_dev_t *d) {
    char msg[512] = "";
    ur_result_t res = urc_check_requirements(props, &d->dev->caps, msg, sizeof msg);
    if (res == UR_RESULT_SUCCESS)
        return res;
    set_text(&d->log, msg);
    return urc_error_set(res, 0, "%s", msg);
}

// Specialisation constants of a program as the driver takes them; valid while p->lock is held.
typedef struct spec_view_t {
    ze_module_constants_t constants;
    uint32_t *ids;
    const void **values;
} spec_view_t;

static ur_result_t spec_view(const l0_program_t *p, spec_view_t *v) {
    memset(v, 0, sizeof *v);
    if (p->nspecs == 0)
        return UR_RESULT_SUCCESS;
    v->ids = urc_calloc(p->nspecs, sizeof *v->ids);
    v->values = urc_calloc(p->nspecs, sizeof *v->values);
    if (v->ids == NULL || v->values == NULL) {
        free(v->ids);
        free(v->values);
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    for (uint32_t i = 0; i < p->nspecs; ++i) {
        v->ids[i] = p->specs[i].id;
        v->values[i] = p->specs[i].value;
    }
    v->constants.numConstants = p->nspecs;
    v->constants.pConstantIds = v->ids;
    v->constants.pConstantValues = v->values;
    return UR_RESULT_SUCCESS;
}

static void spec_view_free(spec_view_t *v) {
    free(v->ids);
    free(v->values);
}

// Unresolved imports are found by linking the module with itself (UR's checkUnresolvedSymbols);
// the driver's log names each missing symbol. `failure` is what an unresolved symbol means to
// the caller: a build or a link failure.
static ur_result_t check_unresolved(ze_module_handle_t module, char **log, ur_result_t failure) {
    ze_module_properties_t props = {ZE_STRUCTURE_TYPE_MODULE_PROPERTIES, NULL, 0};
    ur_result_t res = l0_ok(zeModuleGetProperties(module, &props), "zeModuleGetProperties");
    if (res != UR_RESULT_SUCCESS || !(props.flags & ZE_MODULE_PROPERTY_FLAG_IMPORTS))
        return res;
    ze_module_build_log_handle_t link_log = NULL;
    ze_result_t r = zeModuleDynamicLink(1, &module, &link_log);
    take_log(link_log, log);
    if (r == ZE_RESULT_ERROR_MODULE_LINK_FAILURE)
        return urc_error_set(failure, (int32_t)r, "unresolved symbols:\n%s",
                             *log != NULL ? *log : "");
    return l0_ok(r, "zeModuleDynamicLink");
}

// The driver's build and link failures mean "this program does not build here", reported as
// `failure` with the log; anything else keeps its own mapping.
static ur_result_t module_failure(ze_result_t r, const char *log, ur_result_t failure) {
    if (r == ZE_RESULT_ERROR_MODULE_BUILD_FAILURE || r == ZE_RESULT_ERROR_MODULE_LINK_FAILURE ||
        r == ZE_RESULT_ERROR_INVALID_NATIVE_BINARY)
        return urc_error_set(failure, (int32_t)r, "zeModuleCreate failed (%s): %s",
                             l0_result_name(r), log != NULL ? log : "");
    return l0_error(r, "zeModuleCreate");
}

// Only the first failure is returned, but every device is processed.
static void keep_first(ur_result_t *first, ur_result_t res) {
    if (*first == UR_RESULT_SUCCESS)
        *first = res;
}

static ur_result_t find_devs(l0_program_t *p, uint32_t n, ur_device_handle_t *devices,
                             l0_program_dev_t **out) {
    if (n == 0)
        return UR_RESULT_ERROR_INVALID_SIZE;
    for (uint32_t i = 0; i < n; ++i) {
        out[i] =
            l0_is(devices[i], URC_KIND_DEVICE) ? l0_program_dev(p, L0_DEVICE(devices[i])) : NULL;
        if (out[i] == NULL)
            return urc_error_set(UR_RESULT_ERROR_INVALID_DEVICE, 0,
                                 "device %u is not a device of the program", i);
    }
    return UR_RESULT_SUCCESS;
}

// ---- build ----

static ur_result_t build_dev(l0_program_t *p, l0_program_dev_t *d, ur_exp_program_flags_t flags,
                             const char *options) {
    if (d->state == L0_STATE_EXE)
        return UR_RESULT_SUCCESS;
    if (d->state != L0_STATE_IL && d->state != L0_STATE_NATIVE)
        return urc_error_set(UR_RESULT_ERROR_INVALID_OPERATION, 0,
                             "only an IL or native program can be built (the state is %d)",
                             (int)d->state);
    set_text(&d->options, options);
    set_text(&d->log, "");
    ur_result_t res = check_image(p->props, d);
    if (res != UR_RESULT_SUCCESS) {
        d->state = L0_STATE_INVALID;
        return res;
    }
    bool il = d->state == L0_STATE_IL;
    spec_view_t specs;
    res = spec_view(p, &specs);
    if (res != UR_RESULT_SUCCESS)
        return res;
    ze_module_desc_t desc = {ZE_STRUCTURE_TYPE_MODULE_DESC,
                             NULL,
                             il ? ZE_MODULE_FORMAT_IL_SPIRV : ZE_MODULE_FORMAT_NATIVE,
                             il ? p->il_size : d->native_size,
                             il ? p->il : d->native,
                             d->options,
                             il && p->nspecs > 0 ? &specs.constants : NULL};
    ze_module_handle_t module = NULL;
    ze_module_build_log_handle_t log = NULL;
    ze_result_t r = zeModuleCreate(p->ctx->ze, d->dev->ze, &desc, &module, &log);
    spec_view_free(&specs);
    take_log(log, &d->log);
    if (r != ZE_RESULT_SUCCESS) {
        d->state = L0_STATE_INVALID;
        return module_failure(r, d->log, UR_RESULT_ERROR_PROGRAM_BUILD_FAILURE);
    }
    if (!(flags & UR_EXP_PROGRAM_FLAG_ALLOW_UNRESOLVED_SYMBOLS))
        res = check_unresolved(module, &d->log, UR_RESULT_ERROR_PROGRAM_BUILD_FAILURE);
    if (res != UR_RESULT_SUCCESS) {
        (void)zeModuleDestroy(module);
        d->state = L0_STATE_INVALID;
        return res;
    }
    d->module = module;
    d->state = L0_STATE_EXE;
    return UR_RESULT_SUCCESS;
}

static ur_result_t build(l0_program_t *p, uint32_t n, ur_device_handle_t *devices,
                         ur_exp_program_flags_t flags, const char *options) {
    l0_program_dev_t *stack[8];
    l0_program_dev_t **targets = n <= 8 ? stack : urc_calloc(n, sizeof *targets);
    if (targets == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    ur_result_t first = find_devs(p, n, devices, targets);
    if (first == UR_RESULT_SUCCESS) {
        pthread_mutex_lock(&p->lock);
        // A device that fails does not stop the others; the first failure is the answer.
        for (uint32_t i = 0; i < n; ++i)
            keep_first(&first, build_dev(p, targets[i], flags, options));
        pthread_mutex_unlock(&p->lock);
    }
    if (targets != stack)
        free(targets);
    return first;
}

// ---- compile ----

static ur_result_t compile(l0_program_t *p, uint32_t n, ur_device_handle_t *devices,
                           const char *options) {
    l0_program_dev_t *stack[8];
    l0_program_dev_t **targets = n <= 8 ? stack : urc_calloc(n, sizeof *targets);
    if (targets == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    ur_result_t first = find_devs(p, n, devices, targets);
    pthread_mutex_lock(&p->lock);
    for (uint32_t i = 0; first == UR_RESULT_SUCCESS && i < n; ++i)
        if (targets[i]->state != L0_STATE_IL)
            first = urc_error_set(UR_RESULT_ERROR_INVALID_OPERATION, 0,
                                  "only an IL program can be compiled (the state is %d)",
                                  (int)targets[i]->state);
    // Compilation itself happens at link time: here the options are kept and the state moves.
    // An image that provides virtual functions is a candidate of the link's selection, which
    // weighs its requirements (a real provider and its dummy twin are both compiled), so only
    // the link may refuse it.
    bool candidate = urc_props_find(p->props, URC_SET_VIRTUAL_FUNCTIONS, URC_VF_PROVIDES) != NULL;
    for (uint32_t i = 0; first == UR_RESULT_SUCCESS && i < n; ++i) {
        l0_program_dev_t *d = targets[i];
        set_text(&d->options, options);
        set_text(&d->log, "");
        ur_result_t res = candidate ? UR_RESULT_SUCCESS : check_image(p->props, d);
        d->state = res == UR_RESULT_SUCCESS ? L0_STATE_OBJECT : L0_STATE_INVALID;
        keep_first(&first, res);
    }
    pthread_mutex_unlock(&p->lock);
    if (targets != stack)
        free(targets);
    return first;
}

// ---- link ----

/// What a link needs of one input on one device, copied under the input's lock.
typedef struct link_input_t {
    l0_program_t *program;
    l0_state_t state;
    const uint8_t *data; // IL or native binary, owned by the program (which the caller holds)
    size_t size;
    char *flags; // compile options + link options
    spec_view_t specs;
} link_input_t;

static void inputs_free(link_input_t *in, uint32_t n) {
    for (uint32_t i = 0; in != NULL && i < n; ++i) {
        free(in[i].flags);
        spec_view_free(&in[i].specs);
    }
}

static char *join_options(const char *a, const char *b) {
    a = a != NULL ? a : "";
    b = b != NULL ? b : "";
    size_t na = strlen(a), nb = strlen(b);
    char *s = malloc(na + nb + 2);
    if (s != NULL)
        snprintf(s, na + nb + 2, "%s%s%s", a, na > 0 && nb > 0 ? " " : "", b);
    return s;
}

// Reads every input's state on `dev`. Inputs must all be compiled objects or all native
// binaries (UR's rule); anything else is the caller's error, not a link failure.
static ur_result_t gather_inputs(const l0_device_t *dev, uint32_t count,
                                 const ur_program_handle_t *programs, const char *options,
                                 link_input_t *in) {
    ur_result_t res = UR_RESULT_SUCCESS;
    for (uint32_t i = 0; res == UR_RESULT_SUCCESS && i < count; ++i) {
        l0_program_t *p = L0_PROGRAM(programs[i]);
        pthread_mutex_lock(&p->lock);
        l0_program_dev_t *d = l0_program_dev(p, dev);
        in[i].program = p;
        in[i].state = d != NULL ? d->state : L0_STATE_INVALID;
        if (d == NULL)
            res = urc_error_set(UR_RESULT_ERROR_INVALID_DEVICE, 0,
                                "program %u has no image for a device of the link", i);
        else if (in[i].state != L0_STATE_OBJECT && in[i].state != L0_STATE_NATIVE)
            res = urc_error_set(UR_RESULT_ERROR_INVALID_OPERATION, 0,
                                "program %u is neither compiled nor a native binary", i);
        else if (in[i].state != in[0].state)
            res = urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0,
                                "compiled objects and native binaries cannot be linked together");
        if (res == UR_RESULT_SUCCESS) {
            bool il = in[i].state == L0_STATE_OBJECT;
            in[i].data = il ? p->il : d->native;
            in[i].size = il ? p->il_size : d->native_size;
            in[i].flags = join_options(d->options, options);
            if (in[i].flags == NULL)
                res = UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
            if (res == UR_RESULT_SUCCESS && il)
                res = spec_view(p, &in[i].specs);
        }
        pthread_mutex_unlock(&p->lock);
    }
    return res;
}

// One module for `out` from the selected inputs. Link and build failures of the driver leave
// the device Invalid with the log and give PROGRAM_LINK_FAILURE; other errors are returned as
// they are and end the whole link.
static ur_result_t link_dev(l0_program_dev_t *out, l0_context_t *ctx, link_input_t *in,
                            const bool *selected, uint32_t count, ur_exp_program_flags_t flags) {
    uint32_t n = 0;
    for (uint32_t i = 0; i < count; ++i)
        n += selected[i];
    const uint8_t **data = urc_calloc(n, sizeof *data);
    size_t *sizes = urc_calloc(n, sizeof *sizes);
    const char **opts = urc_calloc(n, sizeof *opts);
    const ze_module_constants_t **consts = urc_calloc(n, sizeof *consts);
    ur_result_t res = UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    if (data == NULL || sizes == NULL || opts == NULL || consts == NULL)
        goto done;
    uint32_t k = 0;
    for (uint32_t i = 0; i < count; ++i) {
        if (!selected[i])
            continue;
        data[k] = in[i].data;
        sizes[k] = in[i].size;
        opts[k] = in[i].flags;
        consts[k] = in[i].specs.constants.numConstants > 0 ? &in[i].specs.constants : NULL;
        ++k;
    }
    bool il = in[0].state == L0_STATE_OBJECT;
    ze_module_program_exp_desc_t prog = {ZE_STRUCTURE_TYPE_MODULE_PROGRAM_EXP_DESC,
                                         NULL,
                                         n,
                                         sizes,
                                         data,
                                         (const char **)opts,
                                         consts};
    // The first input also goes in the descriptor itself: the loader's validation layer
    // rejects a NULL input even when the extension replaces it. One input needs no extension
    // (UR found drivers that crashed on a program of one).
    ze_module_desc_t desc = {ZE_STRUCTURE_TYPE_MODULE_DESC,
                             n > 1 ? &prog : NULL,
                             il ? ZE_MODULE_FORMAT_IL_SPIRV : ZE_MODULE_FORMAT_NATIVE,
                             sizes[0],
                             data[0],
                             opts[0],
                             consts[0]};
    if (n > 1 && !out->dev->platform->ext_module_program) {
        set_text(&out->log, "The Level Zero driver has no static linking "
                            "(" ZE_MODULE_PROGRAM_EXP_NAME "): cannot link several programs.");
        out->state = L0_STATE_INVALID;
        res = urc_error_set(UR_RESULT_ERROR_PROGRAM_LINK_FAILURE, 0, "%s", out->log);
        goto done;
    }
    ze_module_handle_t module = NULL;
    ze_module_build_log_handle_t log = NULL;
    ze_result_t r = zeModuleCreate(ctx->ze, out->dev->ze, &desc, &module, &log);
    take_log(log, &out->log);
    if (r != ZE_RESULT_SUCCESS) {
        out->state = L0_STATE_INVALID;
        res = module_failure(r, out->log, UR_RESULT_ERROR_PROGRAM_LINK_FAILURE);
        goto done;
    }
    res = UR_RESULT_SUCCESS;
    if (!(flags & UR_EXP_PROGRAM_FLAG_ALLOW_UNRESOLVED_SYMBOLS))
        res = check_unresolved(module, &out->log, UR_RESULT_ERROR_PROGRAM_LINK_FAILURE);
    if (res != UR_RESULT_SUCCESS) {
        (void)zeModuleDestroy(module);
        out->state = L0_STATE_INVALID;
        goto done;
    }
    out->module = module;
    out->state = L0_STATE_EXE;
done:
    free(data);
    free(sizes);
    free(opts);
    free(consts);
    return res;
}

static ur_result_t link_programs(l0_context_t *ctx, uint32_t ndevs, l0_device_t *const *devs,
                                 ur_exp_program_flags_t flags, uint32_t count,
                                 const ur_program_handle_t *programs, const char *options,
                                 ur_program_handle_t *phProgram) {
    for (uint32_t i = 0; i < count; ++i) {
        if (!l0_is(programs[i], URC_KIND_PROGRAM))
            return UR_RESULT_ERROR_INVALID_PROGRAM;
        if (L0_PROGRAM(programs[i])->ctx != ctx)
            return urc_error_set(UR_RESULT_ERROR_INVALID_CONTEXT, 0,
                                 "program %u belongs to another context", i);
    }
    for (uint32_t i = 0; i < ndevs; ++i)
        if (!l0_context_has_device(ctx, devs[i]))
            return UR_RESULT_ERROR_INVALID_DEVICE;
    const urc_props_t **props = urc_calloc(count, sizeof *props);
    const urc_props_t **chosen = urc_calloc(count, sizeof *chosen);
    bool *selected = urc_calloc(count, sizeof *selected);
    bool *ever = urc_calloc(count, sizeof *ever);
    link_input_t *in = urc_calloc(count, sizeof *in);
    l0_program_t *out = program_new(ctx, ndevs, devs, L0_STATE_INVALID);
    ur_result_t first = UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    if (props == NULL || chosen == NULL || selected == NULL || ever == NULL || in == NULL ||
        out == NULL)
        goto fail;
    for (uint32_t i = 0; i < count; ++i)
        props[i] = L0_PROGRAM(programs[i])->props;

    first = UR_RESULT_SUCCESS;
    for (uint32_t j = 0; j < ndevs; ++j) {
        l0_program_dev_t *d = &out->devs[j];
        set_text(&d->options, options);
        memset(in, 0, count * sizeof *in);
        ur_result_t res = gather_inputs(d->dev, count, programs, options, in);
        // The main image must suit the device; then the virtual-function selection decides
        // which providers (real or dummy) take part.
        if (res == UR_RESULT_SUCCESS)
            res = check_image(props[0], d);
        char vf_log[512] = "";
        if (res == UR_RESULT_SUCCESS) {
            res = urc_vf_select(props, count, &d->dev->caps, selected, vf_log, sizeof vf_log);
            if (res == UR_RESULT_ERROR_PROGRAM_LINK_FAILURE)
                set_text(&d->log, vf_log);
            if (res != UR_RESULT_SUCCESS)
                urc_error_set(res, 0, "%s", vf_log);
        }
        if (res == UR_RESULT_SUCCESS) {
            for (uint32_t i = 0; i < count; ++i)
                ever[i] = ever[i] || selected[i];
            res = link_dev(d, ctx, in, selected, count, flags);
        }
        inputs_free(in, count);
        keep_first(&first, res);
        // Only a link failure leaves a program worth returning (for its log).
        if (res != UR_RESULT_SUCCESS && res != UR_RESULT_ERROR_PROGRAM_LINK_FAILURE)
            goto fail;
    }
    // The linked program carries the union of what was linked into it, so device globals and
    // requirements stay visible (UR's CUDA adapter lost them).
    size_t nchosen = 0;
    for (uint32_t i = 0; i < count; ++i)
        if (ever[i])
            chosen[nchosen++] = props[i];
    ur_result_t res = urc_props_merge(chosen, nchosen, &out->props);
    if (res != UR_RESULT_SUCCESS) {
        first = res;
        goto fail;
    }
    *phProgram = (ur_program_handle_t)out;
    goto done;

fail:
    if (out != NULL)
        program_destroy(out);
done:
    free(props);
    free(chosen);
    free(selected);
    free(ever);
    free(in);
    return first;
}

// ---- entry points ----

static ur_result_t program_of(ur_program_handle_t h, l0_program_t **p) {
    if (!l0_is(h, URC_KIND_PROGRAM))
        return UR_RESULT_ERROR_INVALID_PROGRAM;
    *p = L0_PROGRAM(h);
    return UR_RESULT_SUCCESS;
}

/// The program of a build or compile, which must belong to `hContext`.
static ur_result_t program_in(ur_context_handle_t hContext, ur_program_handle_t h,
                              l0_program_t **p) {
    ur_result_t res = program_of(h, p);
    if (res == UR_RESULT_SUCCESS && (*p)->ctx != L0_CONTEXT(hContext))
        return urc_error_set(UR_RESULT_ERROR_INVALID_CONTEXT, 0,
                             "the program belongs to another context");
    return res;
}

// urProgramBuild and urProgramCompile: on every device of the program (the context's, for a
// program made from IL).
static ur_result_t on_every_device(ur_context_handle_t hContext, ur_program_handle_t hProgram,
                                   const char *pOptions, bool compile_only) {
    l0_program_t *p;
    ur_result_t res = program_in(hContext, hProgram, &p);
    if (res != UR_RESULT_SUCCESS)
        return res;
    ur_device_handle_t stack[8], *devs = p->ndevs <= 8 ? stack : urc_calloc(p->ndevs, sizeof *devs);
    if (devs == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    for (uint32_t i = 0; i < p->ndevs; ++i)
        devs[i] = (ur_device_handle_t)p->devs[i].dev;
    res =
        compile_only ? compile(p, p->ndevs, devs, pOptions) : build(p, p->ndevs, devs, 0, pOptions);
    if (devs != stack)
        free(devs);
    return res;
}

ur_result_t l0_program_build(ur_context_handle_t hContext, ur_program_handle_t hProgram,
                             const char *pOptions) {
    return on_every_device(hContext, hProgram, pOptions, false);
}

ur_result_t l0_program_build_exp(ur_program_handle_t hProgram, uint32_t numDevices,
                                 ur_device_handle_t *phDevices, ur_exp_program_flags_t flags,
                                 const char *pOptions) {
    l0_program_t *p;
    ur_result_t res = program_of(hProgram, &p);
    return res != UR_RESULT_SUCCESS ? res : build(p, numDevices, phDevices, flags, pOptions);
}

ur_result_t l0_program_compile(ur_context_handle_t hContext, ur_program_handle_t hProgram,
                               const char *pOptions) {
    return on_every_device(hContext, hProgram, pOptions, true);
}

ur_result_t l0_program_compile_exp(ur_program_handle_t hProgram, uint32_t numDevices,
                                   ur_device_handle_t *phDevices, ur_exp_program_flags_t flags,
                                   const char *pOptions) {
    (void)flags;
    l0_program_t *p;
    ur_result_t res = program_of(hProgram, &p);
    return res != UR_RESULT_SUCCESS ? res : compile(p, numDevices, phDevices, pOptions);
}

// urProgramLink links for the devices of the first input (the context's, for IL programs).
ur_result_t l0_program_link(ur_context_handle_t hContext, uint32_t count,
                            const ur_program_handle_t *phPrograms, const char *pOptions,
                            ur_program_handle_t *phProgram) {
    *phProgram = NULL;
    if (!l0_is(phPrograms[0], URC_KIND_PROGRAM))
        return UR_RESULT_ERROR_INVALID_PROGRAM;
    l0_program_t *p0 = L0_PROGRAM(phPrograms[0]);
    l0_device_t **devs = urc_calloc(p0->ndevs, sizeof *devs);
    if (devs == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    for (uint32_t i = 0; i < p0->ndevs; ++i)
        devs[i] = p0->devs[i].dev;
    ur_result_t res = link_programs(L0_CONTEXT(hContext), p0->ndevs, devs, 0, count, phPrograms,
                                    pOptions, phProgram);
    free(devs);
    return res;
}

ur_result_t l0_program_link_exp(ur_context_handle_t hContext, uint32_t numDevices,
                                ur_device_handle_t *phDevices, ur_exp_program_flags_t flags,
                                uint32_t count, const ur_program_handle_t *phPrograms,
                                const char *pOptions, ur_program_handle_t *phProgram) {
    *phProgram = NULL;
    if (numDevices == 0)
        return UR_RESULT_ERROR_INVALID_SIZE;
    for (uint32_t i = 0; i < numDevices; ++i)
        if (!l0_is(phDevices[i], URC_KIND_DEVICE))
            return UR_RESULT_ERROR_INVALID_DEVICE;
    return link_programs(L0_CONTEXT(hContext), numDevices, (l0_device_t *const *)phDevices, flags,
                         count, phPrograms, pOptions, phProgram);
}

// Links the built modules of each device with each other. A failure's log goes to every
// program's log for that device (UR discarded it).
ur_result_t l0_program_dynamic_link_exp(ur_context_handle_t hContext, uint32_t count,
                                        const ur_program_handle_t *phPrograms) {
    l0_context_t *ctx = L0_CONTEXT(hContext);
    for (uint32_t i = 0; i < count; ++i)
        if (!l0_is(phPrograms[i], URC_KIND_PROGRAM))
            return UR_RESULT_ERROR_INVALID_PROGRAM;
    ze_module_handle_t *mods = urc_calloc(count, sizeof *mods);
    if (mods == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    ur_result_t first = UR_RESULT_SUCCESS;
    for (uint32_t j = 0; j < ctx->ndevices; ++j) {
        const l0_device_t *dev = ctx->devices[j];
        uint32_t n = 0;
        for (uint32_t i = 0; i < count; ++i)
            if (l0_program_module(L0_PROGRAM(phPrograms[i]), dev, &mods[n], NULL))
                ++n;
        if (n == 0)
            continue;
        ze_module_build_log_handle_t log = NULL;
        ze_result_t r = zeModuleDynamicLink(n, mods, &log);
        char *text = NULL;
        take_log(log, &text);
        if (r != ZE_RESULT_SUCCESS) {
            for (uint32_t i = 0; text != NULL && i < count; ++i) {
                l0_program_t *p = L0_PROGRAM(phPrograms[i]);
                pthread_mutex_lock(&p->lock);
                l0_program_dev_t *d = l0_program_dev(p, dev);
                if (d != NULL)
                    append_text(&d->log, text);
                pthread_mutex_unlock(&p->lock);
            }
            keep_first(&first,
                       r == ZE_RESULT_ERROR_MODULE_LINK_FAILURE
                           ? urc_error_set(UR_RESULT_ERROR_PROGRAM_LINK_FAILURE, (int32_t)r,
                                           "zeModuleDynamicLink: %s", text != NULL ? text : "")
                           : l0_error(r, "zeModuleDynamicLink"));
        }
        free(text);
    }
    free(mods);
    return first;
}

ur_result_t l0_program_retain(ur_program_handle_t hProgram) {
    l0_program_t *p;
    ur_result_t res = program_of(hProgram, &p);
    if (res == UR_RESULT_SUCCESS)
        urc_user_retain(&p->obj);
    return res;
}

ur_result_t l0_program_release(ur_program_handle_t hProgram) {
    l0_program_t *p;
    ur_result_t res = program_of(hProgram, &p);
    if (res != UR_RESULT_SUCCESS)
        return res;
    ur_result_t released;
    if (urc_release_destroys(urc_user_release(&p->obj), UR_RESULT_ERROR_INVALID_PROGRAM,
                             "urProgramRelease", &released))
        program_destroy(p);
    return released;
}

// Values are copied, so the caller's memory may go as soon as this returns; a constant set
// again keeps its latest value. They take effect at the next build or link.
ur_result_t
l0_program_set_specialization_constants(ur_program_handle_t hProgram, uint32_t count,
                                        const ur_specialization_constant_info_t *pSpecConstants) {
    l0_program_t *p;
    ur_result_t res = program_of(hProgram, &p);
    if (res != UR_RESULT_SUCCESS)
        return res;
    for (uint32_t i = 0; i < count; ++i)
        if (pSpecConstants[i].pValue == NULL || pSpecConstants[i].size == 0)
            return UR_RESULT_ERROR_INVALID_VALUE;
    pthread_mutex_lock(&p->lock);
    for (uint32_t i = 0; res == UR_RESULT_SUCCESS && i < count; ++i) {
        const ur_specialization_constant_info_t *c = &pSpecConstants[i];
        void *value = urc_memdup(c->pValue, c->size);
        uint32_t at = 0;
        while (at < p->nspecs && p->specs[at].id != c->id)
            ++at;
        l0_spec_t *specs = at < p->nspecs ? p->specs : realloc(p->specs, (at + 1) * sizeof *specs);
        if (value == NULL || specs == NULL) {
            free(value);
            res = UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
            break;
        }
        p->specs = specs;
        if (at == p->nspecs)
            p->nspecs++;
        else
            free(specs[at].value);
        specs[at] = (l0_spec_t){c->id, c->size, value};
    }
    pthread_mutex_unlock(&p->lock);
    return res;
}

ur_result_t l0_program_get_function_pointer(ur_device_handle_t hDevice,
                                            ur_program_handle_t hProgram, const char *pFunctionName,
                                            void **ppFunctionPointer) {
    l0_program_t *p;
    ur_result_t res = program_of(hProgram, &p);
    if (res != UR_RESULT_SUCCESS)
        return res;
    if (l0_program_dev(p, L0_DEVICE(hDevice)) == NULL)
        return UR_RESULT_ERROR_INVALID_DEVICE;
    ze_module_handle_t module;
    if (!l0_program_module(p, L0_DEVICE(hDevice), &module, NULL))
        return UR_RESULT_ERROR_INVALID_PROGRAM_EXECUTABLE;
    *ppFunctionPointer = NULL;
    ze_result_t r = zeModuleGetFunctionPointer(module, pFunctionName, ppFunctionPointer);
    // UR's answers: an unknown name is INVALID_KERNEL_NAME; older drivers refuse every name
    // with INVALID_ARGUMENT, and then a kernel of that name has no address to give.
    if (r == ZE_RESULT_ERROR_INVALID_FUNCTION_NAME)
        return urc_error_set(UR_RESULT_ERROR_INVALID_KERNEL_NAME, (int32_t)r,
                             "no function \"%s\" in the program", pFunctionName);
    if (r == ZE_RESULT_ERROR_INVALID_ARGUMENT) {
        *ppFunctionPointer = NULL;
        ze_kernel_handle_t k = NULL;
        ze_kernel_desc_t desc = {ZE_STRUCTURE_TYPE_KERNEL_DESC, NULL, 0, pFunctionName};
        if (zeKernelCreate(module, &desc, &k) != ZE_RESULT_SUCCESS)
            return UR_RESULT_ERROR_INVALID_KERNEL_NAME;
        (void)zeKernelDestroy(k);
        return UR_RESULT_ERROR_FUNCTION_ADDRESS_NOT_AVAILABLE;
    }
    return l0_ok(r, "zeModuleGetFunctionPointer");
}

ur_result_t l0_program_get_native_handle(ur_program_handle_t hProgram,
                                         ur_native_handle_t *phNativeProgram) {
    l0_program_t *p;
    ur_result_t res = program_of(hProgram, &p);
    if (res != UR_RESULT_SUCCESS)
        return res;
    // The module of the first device that has one.
    for (uint32_t i = 0; i < p->ndevs; ++i) {
        ze_module_handle_t module;
        if (l0_program_module(p, p->devs[i].dev, &module, NULL)) {
            *phNativeProgram = (ur_native_handle_t)module;
            return UR_RESULT_SUCCESS;
        }
    }
    return UR_RESULT_ERROR_INVALID_PROGRAM_EXECUTABLE;
}

// ---- queries ----

static size_t binary_size(l0_program_dev_t *d) {
    if (d->state == L0_STATE_NATIVE)
        return d->native_size;
    size_t size = 0;
    if (d->state == L0_STATE_EXE &&
        zeModuleGetNativeBinary(d->module, &size, NULL) != ZE_RESULT_SUCCESS)
        size = 0;
    return d->state == L0_STATE_EXE ? size : 0;
}

static ur_result_t kernel_names(l0_program_t *p, const urc_info_t *out, bool count_only) {
    for (uint32_t i = 0; i < p->ndevs; ++i) {
        l0_program_dev_t *d = &p->devs[i];
        if (d->state != L0_STATE_EXE)
            continue;
        uint32_t n = 0;
        ur_result_t res =
            l0_ok(zeModuleGetKernelNames(d->module, &n, NULL), "zeModuleGetKernelNames");
        if (res != UR_RESULT_SUCCESS || count_only)
            return res != UR_RESULT_SUCCESS ? res : urc_info_size(out, n);
        const char **names = urc_calloc(n, sizeof *names);
        if (names == NULL)
            return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
        res = l0_ok(zeModuleGetKernelNames(d->module, &n, names), "zeModuleGetKernelNames");
        size_t len = 1;
        for (uint32_t k = 0; res == UR_RESULT_SUCCESS && k < n; ++k)
            len += strlen(names[k]) + 1;
        char *text = res == UR_RESULT_SUCCESS ? calloc(len, 1) : NULL;
        if (res == UR_RESULT_SUCCESS && text == NULL)
            res = UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
        for (uint32_t k = 0; res == UR_RESULT_SUCCESS && k < n; ++k) {
            if (k > 0)
                strcat(text, ";");
            strcat(text, names[k]);
        }
        if (res == UR_RESULT_SUCCESS)
            res = urc_info_string(out, text);
        free(text);
        free(names);
        return res;
    }
    return urc_error_set(UR_RESULT_ERROR_INVALID_PROGRAM_EXECUTABLE, 0,
                         "the program is not built for any device");
}

static ur_result_t get_info_locked(l0_program_t *p, ur_program_info_t propName,
                                   const urc_info_t *out) {
    switch (propName) {
    case UR_PROGRAM_INFO_REFERENCE_COUNT:
        return urc_info_u32(out, urc_refcount(&p->obj));
    case UR_PROGRAM_INFO_CONTEXT:
        return urc_info_ptr(out, p->ctx);
    case UR_PROGRAM_INFO_NUM_DEVICES:
        return urc_info_u32(out, p->ndevs);
    case UR_PROGRAM_INFO_DEVICES: {
        ur_device_handle_t devs[64];
        uint32_t n = p->ndevs < 64 ? p->ndevs : 64;
        for (uint32_t i = 0; i < n; ++i)
            devs[i] = (ur_device_handle_t)p->devs[i].dev;
        return urc_info_bytes(out, devs, n * sizeof devs[0]);
    }
    case UR_PROGRAM_INFO_IL:
        return urc_info_bytes(out, p->il, p->il != NULL ? p->il_size : 0);
    case UR_PROGRAM_INFO_BINARY_SIZES: {
        size_t sizes[64];
        uint32_t n = p->ndevs < 64 ? p->ndevs : 64;
        for (uint32_t i = 0; i < n; ++i)
            sizes[i] = binary_size(&p->devs[i]);
        return urc_info_bytes(out, sizes, n * sizeof sizes[0]);
    }
    case UR_PROGRAM_INFO_BINARIES: {
        // The caller passes one pointer per device and owns the memory behind each.
        size_t need = p->ndevs * sizeof(uint8_t *);
        ur_result_t res = urc_info_reserve(out, need);
        if (res != UR_RESULT_SUCCESS || out->value == NULL)
            return res;
        for (uint32_t i = 0; i < p->ndevs; ++i) {
            uint8_t *dst = ((uint8_t **)out->value)[i];
            l0_program_dev_t *d = &p->devs[i];
            if (dst == NULL)
                continue;
            if (d->state == L0_STATE_NATIVE) {
                memcpy(dst, d->native, d->native_size);
            } else if (d->state == L0_STATE_EXE) {
                size_t size = binary_size(d);
                res = l0_ok(zeModuleGetNativeBinary(d->module, &size, dst),
                            "zeModuleGetNativeBinary");
                if (res != UR_RESULT_SUCCESS)
                    return res;
            }
        }
        return UR_RESULT_SUCCESS;
    }
    case UR_PROGRAM_INFO_NUM_KERNELS:
        return kernel_names(p, out, true);
    case UR_PROGRAM_INFO_KERNEL_NAMES:
        return kernel_names(p, out, false);
    default:
        return UR_RESULT_ERROR_INVALID_ENUMERATION;
    }
}

ur_result_t l0_program_get_info(ur_program_handle_t hProgram, ur_program_info_t propName,
                                size_t propSize, void *pPropValue, size_t *pPropSizeRet) {
    l0_program_t *p;
    ur_result_t res = program_of(hProgram, &p);
    if (res != UR_RESULT_SUCCESS)
        return res;
    const urc_info_t out = {propSize, pPropValue, pPropSizeRet};
    pthread_mutex_lock(&p->lock);
    res = get_info_locked(p, propName, &out);
    pthread_mutex_unlock(&p->lock);
    return res;
}

ur_result_t l0_program_get_build_info(ur_program_handle_t hProgram, ur_device_handle_t hDevice,
                                      ur_program_build_info_t propName, size_t propSize,
                                      void *pPropValue, size_t *pPropSizeRet) {
    l0_program_t *p;
    ur_result_t res = program_of(hProgram, &p);
    if (res != UR_RESULT_SUCCESS)
        return res;
    const urc_info_t out = {propSize, pPropValue, pPropSizeRet};
    pthread_mutex_lock(&p->lock);
    l0_program_dev_t *d = l0_program_dev(p, L0_DEVICE(hDevice));
    if (d == NULL) {
        pthread_mutex_unlock(&p->lock);
        return UR_RESULT_ERROR_INVALID_DEVICE;
    }
    switch (propName) {
    case UR_PROGRAM_BUILD_INFO_STATUS: {
        // UR's adapter refused this query; the state machine answers it.
        ur_program_build_status_t s = UR_PROGRAM_BUILD_STATUS_NONE;
        if (d->state == L0_STATE_EXE || d->state == L0_STATE_OBJECT)
            s = UR_PROGRAM_BUILD_STATUS_SUCCESS;
        else if (d->state == L0_STATE_INVALID)
            s = UR_PROGRAM_BUILD_STATUS_ERROR;
        res = urc_info_bytes(&out, &s, sizeof s);
        break;
    }
    case UR_PROGRAM_BUILD_INFO_OPTIONS:
        res = urc_info_string(&out, d->options != NULL ? d->options : "");
        break;
    case UR_PROGRAM_BUILD_INFO_LOG:
        res = urc_info_string(&out, d->log != NULL ? d->log : "");
        break;
    case UR_PROGRAM_BUILD_INFO_BINARY_TYPE: {
        ur_program_binary_type_t t = UR_PROGRAM_BINARY_TYPE_NONE;
        if (d->state == L0_STATE_OBJECT)
            t = UR_PROGRAM_BINARY_TYPE_COMPILED_OBJECT;
        else if (d->state == L0_STATE_EXE)
            t = UR_PROGRAM_BINARY_TYPE_EXECUTABLE;
        res = urc_info_bytes(&out, &t, sizeof t);
        break;
    }
    default:
        res = UR_RESULT_ERROR_INVALID_ENUMERATION;
        break;
    }
    pthread_mutex_unlock(&p->lock);
    return res;
}

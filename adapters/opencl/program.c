// SPDX-License-Identifier: MIT
// Programs: creation from SPIR-V or binaries with their SYCL metadata, build, compile and
// link (plus the *Exp forms with explicit devices), queries and pointers into programs.
//
// Device images (seeds 002 and 003): before OpenCL builds, compiles or links anything, each
// target device's SYCL aspects and limits are checked against the program's
// "SYCL/device requirements" (a refusal leaves the seed's message in that device's build log),
// and urProgramLink links only the inputs urc_vf_select chooses for the devices.
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "ocl_internal.h"
#include "program/vfselect.h"
#include "core/release.h"

/// Room for urc's own messages: the requirement and selection messages are one or two lines.
#define LOG_SIZE 1024

ur_result_t ocl_program_has_native(ur_program_handle_t p) {
    if (p->cl != NULL)
        return UR_RESULT_SUCCESS;
    return urc_error_set(UR_RESULT_ERROR_INVALID_PROGRAM_EXECUTABLE, 0,
                         "the program is a link urc refused; only its build log can be read");
}

/// Program generations are never reused, so a memo keyed by one cannot outlive what it names.
static _Atomic uint64_t next_generation = 1;

static ur_result_t program_make(cl_program cl, ur_context_handle_t context, uint32_t n,
                                const ur_device_handle_t *devices, urc_props_t *props, bool owns,
                                ur_program_handle_t *out) {
    ur_program_handle_t p = URC_NEW(struct ur_program_handle_t_);
    ur_device_handle_t *list = urc_calloc(n, sizeof *list);
    _Atomic(urc_dg_cache_t *) *globals = urc_calloc(n, sizeof *globals);
    char **logs = urc_calloc(n, sizeof *logs);
    bool *failed = urc_calloc(n, sizeof *failed);
    if (p == NULL || list == NULL || globals == NULL || logs == NULL || failed == NULL) {
        free(p);
        free(list);
        free(globals);
        free(logs);
        free(failed);
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    urc_object_init(&p->obj, &ocl_ddi, URC_KIND_PROGRAM);
    p->cl = cl;
    p->context = context;
    p->num_devices = n;
    p->devices = list;
    p->props = props; // takes the caller's reference
    p->owns_native = owns;
    p->globals = globals;
    p->logs = logs;
    p->failed = failed;
    atomic_init(&p->generation, atomic_fetch_add(&next_generation, 1));
    pthread_mutex_init(&p->lock, NULL);
    pthread_mutex_init(&p->assert_lock, NULL);
    for (uint32_t i = 0; i < n; ++i) {
        list[i] = devices[i];
        ocl_device_retain_internal(devices[i]);
        atomic_init(&globals[i], NULL);
    }
    ocl_context_retain_internal(context);
    *out = p;
    return UR_RESULT_SUCCESS;
}

/// Forgets resolved device globals after a (re)build: their addresses change with it.
static void reset_globals(ur_program_handle_t p) {
    pthread_mutex_lock(&p->lock);
    atomic_store(&p->generation, atomic_fetch_add(&next_generation, 1));
    for (uint32_t i = 0; i < p->num_devices; ++i) {
        urc_dg_cache_t *cache = atomic_exchange(&p->globals[i], NULL);
        if (cache != NULL)
            urc_dg_cache_destroy(cache);
    }
    pthread_mutex_unlock(&p->lock);
}

urc_dg_cache_t *ocl_program_globals(ur_program_handle_t p, int index) {
    urc_dg_cache_t *cache = atomic_load_explicit(&p->globals[index], memory_order_acquire);
    if (cache != NULL)
        return cache;
    pthread_mutex_lock(&p->lock);
    cache = atomic_load(&p->globals[index]);
    if (cache == NULL) {
        cache = urc_dg_cache_create();
        atomic_store_explicit(&p->globals[index], cache, memory_order_release);
    }
    pthread_mutex_unlock(&p->lock);
    return cache;
}

int ocl_program_device_index(ur_program_handle_t p, ur_device_handle_t d) {
    for (uint32_t i = 0; i < p->num_devices; ++i)
        if (p->devices[i] == d)
            return (int)i;
    return -1;
}

static void program_destroy(ur_program_handle_t p);

void ocl_program_release_internal(ur_program_handle_t p) {
    if (urc_unhold(&p->obj))
        program_destroy(p);
}

static void program_destroy(ur_program_handle_t p) {
    reset_globals(p);
    if (p->owns_native)
        clReleaseProgram(p->cl);
    for (uint32_t i = 0; i < p->num_devices; ++i)
        ocl_device_release_internal(p->devices[i]);
    if (p->props != NULL)
        urc_props_release(p->props);
    ocl_context_release_internal(p->context);
    pthread_mutex_destroy(&p->lock);
    pthread_mutex_destroy(&p->assert_lock);
    for (uint32_t i = 0; i < p->num_devices; ++i)
        free(p->logs[i]);
    free(p->logs);
    free(p->failed);
    free(p->globals);
    free(p->devices);
    URC_OBJECT_FREE(p);
}

static ur_result_t parse_props(const ur_program_properties_t *props, urc_props_t **out) {
    *out = NULL;
    if (props == NULL || props->count == 0)
        return UR_RESULT_SUCCESS;
    if (props->pMetadatas == NULL)
        return urc_error_set(UR_RESULT_ERROR_INVALID_NULL_POINTER, 0,
                             "program properties: %u metadata entries but no array", props->count);
    char err[256] = "";
    ur_result_t result = urc_props_parse(props->pMetadatas, props->count, out, err, sizeof err);
    if (result != UR_RESULT_SUCCESS)
        return urc_error_set(result, 0, "program metadata: %s", err);
    return UR_RESULT_SUCCESS;
}

ur_result_t ocl_program_create_with_il(ur_context_handle_t hContext, const void *pIL, size_t length,
                                       const ur_program_properties_t *pProperties,
                                       ur_program_handle_t *phProgram) {
    for (uint32_t i = 0; i < hContext->num_devices; ++i)
        if (!hContext->devices[i]->il)
            return urc_error_set(UR_RESULT_ERROR_COMPILER_NOT_AVAILABLE, 0,
                                 "urProgramCreateWithIL: device %u takes no SPIR-V", i);
    urc_props_t *props = NULL;
    OCL_TRY_UR(parse_props(pProperties, &props));
    cl_int err = CL_SUCCESS;
    cl_program cl;
    ocl_create_program_with_il_fn khr = hContext->platform->ext.create_program_with_il_khr;
    if (hContext->platform->version >= 21 || khr == NULL)
        cl = clCreateProgramWithIL(hContext->cl, pIL, length, &err);
    else
        cl = khr(hContext->cl, pIL, length, &err);
    ur_result_t result = UR_RESULT_SUCCESS;
    if (err == CL_INVALID_VALUE)
        // The module itself was refused (length and pointer were checked already).
        result = urc_error_set(UR_RESULT_ERROR_INVALID_BINARY, err,
                               "clCreateProgramWithIL refused the SPIR-V module");
    else if (err != CL_SUCCESS)
        result = ocl_fail(err, "clCreateProgramWithIL");
    else if ((result = program_make(cl, hContext, hContext->num_devices, hContext->devices, props,
                                    true, phProgram)) != UR_RESULT_SUCCESS)
        clReleaseProgram(cl);
    if (result != UR_RESULT_SUCCESS && props != NULL)
        urc_props_release(props);
    return result;
}

static ur_result_t check_devices(ur_context_handle_t c, uint32_t n,
                                 const ur_device_handle_t *devices, cl_device_id *ids) {
    for (uint32_t i = 0; i < n; ++i) {
        bool found = false;
        for (uint32_t j = 0; j < c->num_devices && !found; ++j)
            found = c->devices[j] == devices[i];
        if (!found)
            return urc_error_set(UR_RESULT_ERROR_INVALID_DEVICE, 0,
                                 "device %u is not in the context", i);
        ids[i] = devices[i]->cl;
    }
    return UR_RESULT_SUCCESS;
}

ur_result_t ocl_program_create_with_binary(ur_context_handle_t hContext, uint32_t numDevices,
                                           ur_device_handle_t *phDevices, size_t *pLengths,
                                           const uint8_t **ppBinaries,
                                           const ur_program_properties_t *pProperties,
                                           ur_program_handle_t *phProgram) {
    for (uint32_t i = 0; i < numDevices; ++i)
        if (ppBinaries[i] == NULL || pLengths[i] == 0)
            return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0, "binary %u is empty", i);
    cl_device_id *ids = urc_calloc(numDevices, sizeof *ids);
    cl_int *status = urc_calloc(numDevices, sizeof *status);
    urc_props_t *props = NULL;
    ur_result_t result =
        ids != NULL && status != NULL ? UR_RESULT_SUCCESS : UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    if (result == UR_RESULT_SUCCESS)
        result = check_devices(hContext, numDevices, phDevices, ids);
    if (result == UR_RESULT_SUCCESS)
        result = parse_props(pProperties, &props);
    if (result == UR_RESULT_SUCCESS) {
        cl_int err = CL_SUCCESS;
        cl_program cl = clCreateProgramWithBinary(hContext->cl, numDevices, ids, pLengths,
                                                  ppBinaries, status, &err);
        for (uint32_t i = 0; err == CL_SUCCESS && i < numDevices; ++i)
            err = status[i];
        if (err != CL_SUCCESS) {
            if (cl != NULL)
                clReleaseProgram(cl);
            result = ocl_fail(err, "clCreateProgramWithBinary");
        } else {
            result = program_make(cl, hContext, numDevices, phDevices, props, true, phProgram);
            if (result != UR_RESULT_SUCCESS)
                clReleaseProgram(cl);
        }
    }
    if (result != UR_RESULT_SUCCESS && props != NULL)
        urc_props_release(props);
    free(ids);
    free(status);
    return result;
}

/// The devices an *Exp call names, which must all be devices of the program.
static ur_result_t program_subset(ur_program_handle_t p, uint32_t n,
                                  const ur_device_handle_t *devices, cl_device_id *ids) {
    for (uint32_t i = 0; i < n; ++i) {
        if (!ocl_is(devices[i], URC_KIND_DEVICE) || ocl_program_device_index(p, devices[i]) < 0)
            return urc_error_set(UR_RESULT_ERROR_INVALID_DEVICE, 0,
                                 "device %u is not a device of the program", i);
        ids[i] = devices[i]->cl;
    }
    return UR_RESULT_SUCCESS;
}

// ---- urc's build log -------------------------------------------------------------------------

/// Forgets what urc said about the devices of a new build, compile or link step.
static void logs_clear(ur_program_handle_t p, uint32_t n, const ur_device_handle_t *devices) {
    pthread_mutex_lock(&p->lock);
    for (uint32_t i = 0; i < n; ++i) {
        int at = ocl_program_device_index(p, devices[i]);
        if (at >= 0) {
            URC_FREE(p->logs[at]);
            p->failed[at] = false;
        }
    }
    pthread_mutex_unlock(&p->lock);
}

/// Sets urc's log for one device of the program (all of them when `device` is NULL); `failed`
/// makes its build status ERROR.
static void log_set(ur_program_handle_t p, ur_device_handle_t device, bool failed,
                    const char *text) {
    pthread_mutex_lock(&p->lock);
    for (uint32_t i = 0; i < p->num_devices; ++i) {
        if (device != NULL && p->devices[i] != device)
            continue;
        free(p->logs[i]);
        p->logs[i] = urc_strdup(text); // NULL when out of memory: only the log is lost
        p->failed[i] = failed;
    }
    pthread_mutex_unlock(&p->lock);
}

// ---- build and compile -----------------------------------------------------------------------

typedef enum { STEP_BUILD, STEP_COMPILE } step_t;

static bool vf_flag(const urc_props_t *props, const char *name) {
    return urc_props_find(props, URC_SET_VIRTUAL_FUNCTIONS, name) != NULL;
}

/// A dummy image (seed 003): the emptied twin of a provider, carrying its requirements.
static bool vf_dummy(const urc_props_t *props) {
    const urc_prop_t *d = urc_props_find(props, URC_SET_VIRTUAL_FUNCTIONS, URC_VF_DUMMY);
    return d != NULL && d->type == UR_PROGRAM_METADATA_TYPE_UINT32 && d->u32 != 0;
}

/// Checks the program's requirements on each device before OpenCL sees it. On return the first
/// `*kept` entries of `devices`/`ids` are the devices to build or compile for. A failing device
/// refuses the whole step with the seed's message in that device's log, except when compiling
/// a virtual-function provider image (seed 003): it is compiled only for devices that meet its
/// requirements (no speculative compilation), and urProgramLink picks it or its dummy twin per
/// device; dummies are compiled everywhere, being made for the devices that fail.
static ur_result_t check_requirements(step_t step, ur_program_handle_t p, uint32_t n,
                                      ur_device_handle_t *devices, cl_device_id *ids,
                                      uint32_t *kept) {
    *kept = n;
    if (!urc_props_has_set(p->props, URC_SET_DEVICE_REQUIREMENTS))
        return UR_RESULT_SUCCESS;
    bool provider = step == STEP_COMPILE && vf_flag(p->props, URC_VF_PROVIDES);
    if (provider && vf_dummy(p->props))
        return UR_RESULT_SUCCESS;
    uint32_t out = 0;
    for (uint32_t i = 0; i < n; ++i) {
        const urc_device_caps_t *caps = NULL;
        OCL_TRY_UR(ocl_device_caps(devices[i], &caps));
        char msg[LOG_SIZE] = "";
        ur_result_t r = urc_check_requirements(p->props, caps, msg, sizeof msg);
        if (r == UR_RESULT_ERROR_UNSUPPORTED_FEATURE && provider) {
            char line[LOG_SIZE + 128];
            snprintf(line, sizeof line,
                     "Not compiled for this device (an image of virtual functions; "
                     "urProgramLink links its dummy image instead): %s",
                     msg);
            log_set(p, devices[i], false, line);
            continue;
        }
        if (r == UR_RESULT_ERROR_UNSUPPORTED_FEATURE)
            log_set(p, devices[i], true, msg);
        if (r != UR_RESULT_SUCCESS)
            return urc_error_set(r, 0, "%s", msg);
        devices[out] = devices[i];
        ids[out++] = ids[i];
    }
    *kept = out;
    return UR_RESULT_SUCCESS;
}

/// Build or compile for `n` devices (all of the program's when `devices` is NULL).
static ur_result_t build_step(step_t step, ur_program_handle_t p, uint32_t n,
                              const ur_device_handle_t *devices, const char *options) {
    OCL_TRY_UR(ocl_program_has_native(p));
    if (devices == NULL) {
        n = p->num_devices;
        devices = p->devices;
    }
    cl_device_id small[8];
    ur_device_handle_t small_devices[8];
    cl_device_id *ids = n <= 8 ? small : urc_calloc(n, sizeof *ids);
    ur_device_handle_t *targets = n <= 8 ? small_devices : urc_calloc(n, sizeof *targets);
    ur_result_t result =
        ids != NULL && targets != NULL ? UR_RESULT_SUCCESS : UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    if (result == UR_RESULT_SUCCESS)
        result = program_subset(p, n, devices, ids);
    uint32_t kept = n;
    if (result == UR_RESULT_SUCCESS) {
        memcpy(targets, devices, n * sizeof *targets);
        logs_clear(p, n, devices);
        result = check_requirements(step, p, n, targets, ids, &kept);
    }
    if (result == UR_RESULT_SUCCESS && kept > 0) {
        cl_int err = step == STEP_BUILD
                         ? clBuildProgram(p->cl, kept, ids, options, NULL, NULL)
                         : clCompileProgram(p->cl, kept, ids, options, 0, NULL, NULL, NULL, NULL);
        if (err != CL_SUCCESS)
            result = ocl_fail(err, step == STEP_BUILD ? "clBuildProgram" : "clCompileProgram");
        else
            reset_globals(p);
    }
    if (ids != small)
        free(ids);
    if (targets != small_devices)
        free(targets);
    return result;
}

ur_result_t ocl_program_build(ur_context_handle_t hContext, ur_program_handle_t hProgram,
                              const char *pOptions) {
    if (hContext != hProgram->context)
        return urc_error_set(UR_RESULT_ERROR_INVALID_CONTEXT, 0, "not the program's context");
    return build_step(STEP_BUILD, hProgram, 0, NULL, pOptions);
}

ur_result_t ocl_program_compile(ur_context_handle_t hContext, ur_program_handle_t hProgram,
                                const char *pOptions) {
    if (hContext != hProgram->context)
        return urc_error_set(UR_RESULT_ERROR_INVALID_CONTEXT, 0, "not the program's context");
    return build_step(STEP_COMPILE, hProgram, 0, NULL, pOptions);
}

ur_result_t ocl_program_build_exp(ur_program_handle_t hProgram, uint32_t numDevices,
                                  ur_device_handle_t *phDevices, ur_exp_program_flags_t flags,
                                  const char *pOptions) {
    if (flags & UR_EXP_PROGRAM_FLAG_ALLOW_UNRESOLVED_SYMBOLS)
        return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0,
                             "OpenCL cannot build with unresolved symbols");
    if (numDevices == 0)
        return UR_RESULT_ERROR_INVALID_SIZE;
    return build_step(STEP_BUILD, hProgram, numDevices, phDevices, pOptions);
}

ur_result_t ocl_program_compile_exp(ur_program_handle_t hProgram, uint32_t numDevices,
                                    ur_device_handle_t *phDevices, ur_exp_program_flags_t flags,
                                    const char *pOptions) {
    (void)flags; // compiling never resolves symbols, so allowing unresolved ones changes nothing
    if (numDevices == 0)
        return UR_RESULT_ERROR_INVALID_SIZE;
    return build_step(STEP_COMPILE, hProgram, numDevices, phDevices, pOptions);
}

// ---- link ------------------------------------------------------------------------------------

/// What a link is made of: its inputs, and which of them each device takes.
typedef struct link_plan_t {
    uint32_t count;
    const urc_props_t **props; // each input's metadata (NULL: none)
    bool *selected;            // the inputs linked (the same for every device)
    bool *scratch;             // one device's choice
    bool any_vf;               // some input carries "SYCL/virtual functions"
    char log[LOG_SIZE];        // why the link was refused
} link_plan_t;

/// Chooses the inputs for one device. Without virtual-function properties every input is
/// linked; with them urc_vf_select decides (seed 003). Every chosen input that is no candidate
/// of that selection must meet the device's requirements, as at build time.
static ur_result_t plan_device(link_plan_t *plan, ur_device_handle_t device) {
    const urc_device_caps_t *caps = NULL;
    OCL_TRY_UR(ocl_device_caps(device, &caps));
    ur_result_t r = UR_RESULT_SUCCESS;
    if (plan->any_vf)
        r = urc_vf_select(plan->props, plan->count, caps, plan->scratch, plan->log,
                          sizeof plan->log);
    else
        for (uint32_t i = 0; i < plan->count; ++i)
            plan->scratch[i] = true;
    for (uint32_t i = 0; r == UR_RESULT_SUCCESS && i < plan->count; ++i)
        if (plan->scratch[i] && !urc_props_has_set(plan->props[i], URC_SET_VIRTUAL_FUNCTIONS))
            r = urc_check_requirements(plan->props[i], caps, plan->log, sizeof plan->log);
    return r;
}

/// Chooses the inputs for all devices. Devices that choose differently would need one OpenCL
/// program each, which one UR program cannot hold: such a link is refused as a link failure,
/// and urProgramLinkExp per device is the way out (a context here usually has one device).
static ur_result_t plan_link(link_plan_t *plan, uint32_t n, const ur_device_handle_t *devices) {
    for (uint32_t d = 0; d < n; ++d) {
        OCL_TRY_UR(plan_device(plan, devices[d]));
        if (d == 0) {
            memcpy(plan->selected, plan->scratch, plan->count * sizeof(bool));
        } else if (memcmp(plan->selected, plan->scratch, plan->count * sizeof(bool)) != 0) {
            snprintf(plan->log, sizeof plan->log,
                     "The devices of this link need different device images for virtual "
                     "functions (devices 0 and %u); link for each device with "
                     "urProgramLinkExp.",
                     d);
            return UR_RESULT_ERROR_PROGRAM_LINK_FAILURE;
        }
    }
    return UR_RESULT_SUCCESS;
}

/// A refused link still returns a program, as a failed OpenCL link does: it has no OpenCL
/// program and carries the reason as every device's build log.
static ur_result_t refused_link(ur_context_handle_t c, uint32_t n,
                                const ur_device_handle_t *devices, const char *log,
                                ur_program_handle_t *out) {
    ur_result_t made = program_make(NULL, c, n, devices, NULL, false, out);
    if (made != UR_RESULT_SUCCESS)
        return made;
    log_set(*out, NULL, true, log);
    return urc_error_set(UR_RESULT_ERROR_PROGRAM_LINK_FAILURE, 0, "%s", log);
}

/// Links the chosen inputs for `n` devices (the context's when `devices` is NULL). A failed
/// link that still produced a program returns it with the error, so its log can be read.
static ur_result_t link(ur_context_handle_t c, uint32_t n, const ur_device_handle_t *devices,
                        uint32_t count, const ur_program_handle_t *programs, const char *options,
                        ur_program_handle_t *out) {
    *out = NULL;
    OCL_CHECK_HANDLE(c, URC_KIND_CONTEXT, UR_RESULT_ERROR_INVALID_CONTEXT);
    if (devices == NULL) {
        n = c->num_devices;
        devices = c->devices;
    }
    link_plan_t *plan = URC_NEW(link_plan_t);
    cl_device_id *ids = urc_calloc(n, sizeof *ids);
    cl_program *cls = urc_calloc(count, sizeof *cls);
    const urc_props_t **inputs = urc_calloc(count, sizeof *inputs);
    const urc_props_t **chosen = urc_calloc(count, sizeof *chosen);
    bool *flags = urc_calloc(2 * (size_t)count, sizeof *flags);
    urc_props_t *props = NULL;
    ur_result_t result = plan != NULL && ids != NULL && cls != NULL && inputs != NULL &&
                                 chosen != NULL && flags != NULL
                             ? UR_RESULT_SUCCESS
                             : UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    if (result == UR_RESULT_SUCCESS)
        result = check_devices(c, n, devices, ids);
    for (uint32_t i = 0; result == UR_RESULT_SUCCESS && i < count; ++i) {
        if (ocl_is(programs[i], URC_KIND_PROGRAM) && programs[i]->context != c)
            result = urc_error_set(UR_RESULT_ERROR_INVALID_CONTEXT, 0,
                                   "input %u belongs to another context", i);
        else if (!ocl_is(programs[i], URC_KIND_PROGRAM) || programs[i]->cl == NULL)
            result = urc_error_set(UR_RESULT_ERROR_INVALID_PROGRAM, 0,
                                   "input %u is not a linkable program of the context", i);
        else if ((inputs[i] = programs[i]->props) != NULL &&
                 urc_props_has_set(inputs[i], URC_SET_VIRTUAL_FUNCTIONS))
            plan->any_vf = true;
    }
    if (result == UR_RESULT_SUCCESS) {
        *plan = (link_plan_t){count, inputs, flags, flags + count, plan->any_vf, ""};
        result = plan_link(plan, n, devices);
        if (result == UR_RESULT_ERROR_PROGRAM_LINK_FAILURE)
            result = refused_link(c, n, devices, plan->log, out);
        else if (result != UR_RESULT_SUCCESS && plan->log[0] != '\0')
            result = urc_error_set(result, 0, "%s", plan->log);
    }
    // Only the chosen inputs reach OpenCL; the linked program carries the union of their
    // metadata.
    uint32_t linked = 0, with_props = 0;
    for (uint32_t i = 0; result == UR_RESULT_SUCCESS && i < count; ++i) {
        if (!plan->selected[i])
            continue;
        cls[linked++] = programs[i]->cl;
        if (inputs[i] != NULL)
            chosen[with_props++] = inputs[i];
    }
    if (result == UR_RESULT_SUCCESS && with_props > 0)
        result = urc_props_merge(chosen, with_props, &props);
    if (result == UR_RESULT_SUCCESS) {
        cl_int err = CL_SUCCESS;
        cl_program cl = clLinkProgram(c->cl, n, ids, options, linked, cls, NULL, NULL, &err);
        // Some drivers report a failed link as CL_INVALID_BINARY (unified-runtime#1458).
        if (err == CL_INVALID_BINARY)
            err = CL_LINK_PROGRAM_FAILURE;
        if (cl != NULL) {
            ur_result_t made = program_make(cl, c, n, devices, props, true, out);
            if (made == UR_RESULT_SUCCESS)
                props = NULL;
            else
                clReleaseProgram(cl);
            if (err == CL_SUCCESS)
                result = made;
        }
        if (err != CL_SUCCESS)
            result = ocl_fail(err, "clLinkProgram");
    }
    if (props != NULL)
        urc_props_release(props);
    free(plan);
    free(ids);
    free(cls);
    free(inputs);
    free(chosen);
    free(flags);
    return result;
}

ur_result_t ocl_program_link(ur_context_handle_t hContext, uint32_t count,
                             const ur_program_handle_t *phPrograms, const char *pOptions,
                             ur_program_handle_t *phProgram) {
    return link(hContext, 0, NULL, count, phPrograms, pOptions, phProgram);
}

ur_result_t ocl_program_link_exp(ur_context_handle_t hContext, uint32_t numDevices,
                                 ur_device_handle_t *phDevices, ur_exp_program_flags_t flags,
                                 uint32_t count, const ur_program_handle_t *phPrograms,
                                 const char *pOptions, ur_program_handle_t *phProgram) {
    *phProgram = NULL;
    if (flags & UR_EXP_PROGRAM_FLAG_ALLOW_UNRESOLVED_SYMBOLS)
        return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0,
                             "OpenCL cannot link with unresolved symbols");
    if (numDevices == 0)
        return UR_RESULT_ERROR_INVALID_SIZE;
    return link(hContext, numDevices, phDevices, count, phPrograms, pOptions, phProgram);
}

URC_RETAIN_RELEASE(ocl_program, ur_program_handle_t, , UR_RESULT_ERROR_INVALID_PROGRAM,
                   "urProgramRelease", program_destroy)

static ur_result_t put_program_info(const urc_info_t *out, ur_program_handle_t p,
                                    cl_program_info param) {
    size_t size = 0;
    OCL_TRY("clGetProgramInfo", clGetProgramInfo(p->cl, param, 0, NULL, &size));
    void *buf = malloc(size ? size : 1);
    if (buf == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    cl_int err = clGetProgramInfo(p->cl, param, size, buf, NULL);
    ur_result_t result =
        err == CL_SUCCESS ? urc_info_bytes(out, buf, size) : ocl_fail(err, "clGetProgramInfo");
    free(buf);
    return result;
}

ur_result_t ocl_program_get_info(ur_program_handle_t hProgram, ur_program_info_t propName,
                                 size_t propSize, void *pPropValue, size_t *pPropSizeRet) {
    const urc_info_t out = {propSize, pPropValue, pPropSizeRet};
    switch (propName) {
    case UR_PROGRAM_INFO_REFERENCE_COUNT:
        return urc_info_u32(&out, urc_refcount(&hProgram->obj));
    case UR_PROGRAM_INFO_CONTEXT:
        return urc_info_ptr(&out, hProgram->context);
    case UR_PROGRAM_INFO_NUM_DEVICES:
        return urc_info_u32(&out, hProgram->num_devices);
    case UR_PROGRAM_INFO_DEVICES:
        return urc_info_bytes(&out, hProgram->devices,
                              hProgram->num_devices * sizeof(ur_device_handle_t));
    default:
        break;
    }
    // Everything else is OpenCL's to answer, which a refused link cannot.
    OCL_TRY_UR(ocl_program_has_native(hProgram));
    switch (propName) {
    case UR_PROGRAM_INFO_IL:
        if (hProgram->context->platform->version < 21)
            return UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION;
        return put_program_info(&out, hProgram, CL_PROGRAM_IL);
    case UR_PROGRAM_INFO_BINARY_SIZES:
        return put_program_info(&out, hProgram, CL_PROGRAM_BINARY_SIZES);
    case UR_PROGRAM_INFO_BINARIES: {
        // The value is the caller's array of destination pointers, one per device.
        size_t need = hProgram->num_devices * sizeof(unsigned char *);
        ur_result_t res = urc_info_reserve(&out, need);
        if (res == UR_RESULT_SUCCESS && pPropValue != NULL)
            OCL_TRY("clGetProgramInfo",
                    clGetProgramInfo(hProgram->cl, CL_PROGRAM_BINARIES, need, pPropValue, NULL));
        return res;
    }
    case UR_PROGRAM_INFO_NUM_KERNELS: {
        size_t n = 0;
        OCL_TRY("clGetProgramInfo",
                clGetProgramInfo(hProgram->cl, CL_PROGRAM_NUM_KERNELS, sizeof n, &n, NULL));
        return urc_info_size(&out, n);
    }
    case UR_PROGRAM_INFO_KERNEL_NAMES:
        return put_program_info(&out, hProgram, CL_PROGRAM_KERNEL_NAMES);
    default:
        return UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION;
    }
}

/// A text build query of OpenCL's, after `prefix` (and a newline) when that is given.
static ur_result_t put_native_text(ur_program_handle_t p, cl_device_id dev,
                                   cl_program_build_info param, const char *prefix,
                                   const urc_info_t *out) {
    size_t size = 0;
    cl_int err = clGetProgramBuildInfo(p->cl, dev, param, 0, NULL, &size);
    // PoCL answers CL_INVALID_PROGRAM for a program never built: urc's own lines still stand.
    if (err != CL_SUCCESS && prefix != NULL)
        return urc_info_string(out, prefix);
    if (err != CL_SUCCESS)
        return ocl_fail(err, "clGetProgramBuildInfo");
    size_t skip = prefix != NULL ? strlen(prefix) + 1 : 0;
    char *text = calloc(skip + size + 1, 1);
    if (text == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    err = clGetProgramBuildInfo(p->cl, dev, param, size, text + skip, NULL);
    if (prefix != NULL) {
        memcpy(text, prefix, skip - 1);
        // No newline is added when OpenCL has nothing to say.
        text[skip - 1] = text[skip] != '\0' ? '\n' : '\0';
    }
    ur_result_t result =
        err == CL_SUCCESS ? urc_info_string(out, text) : ocl_fail(err, "clGetProgramBuildInfo");
    free(text);
    return result;
}

ur_result_t ocl_program_get_build_info(ur_program_handle_t hProgram, ur_device_handle_t hDevice,
                                       ur_program_build_info_t propName, size_t propSize,
                                       void *pPropValue, size_t *pPropSizeRet) {
    const urc_info_t out = {propSize, pPropValue, pPropSizeRet};
    cl_device_id dev = hDevice->cl;
    int at = ocl_program_device_index(hProgram, hDevice);
    if (at < 0)
        return urc_error_set(UR_RESULT_ERROR_INVALID_DEVICE, 0, "not a device of the program");
    pthread_mutex_lock(&hProgram->lock);
    bool refused = hProgram->failed[at];
    pthread_mutex_unlock(&hProgram->lock);
    switch (propName) {
    case UR_PROGRAM_BUILD_INFO_STATUS: {
        cl_build_status s = CL_BUILD_ERROR;
        if (!refused && hProgram->cl != NULL)
            OCL_TRY("clGetProgramBuildInfo",
                    clGetProgramBuildInfo(hProgram->cl, dev, CL_PROGRAM_BUILD_STATUS, sizeof s, &s,
                                          NULL));
        ur_program_build_status_t status = s == CL_BUILD_SUCCESS ? UR_PROGRAM_BUILD_STATUS_SUCCESS
                                           : s == CL_BUILD_ERROR ? UR_PROGRAM_BUILD_STATUS_ERROR
                                           : s == CL_BUILD_IN_PROGRESS
                                               ? UR_PROGRAM_BUILD_STATUS_IN_PROGRESS
                                               : UR_PROGRAM_BUILD_STATUS_NONE;
        return urc_info_bytes(&out, &status, sizeof status);
    }
    case UR_PROGRAM_BUILD_INFO_BINARY_TYPE: {
        cl_program_binary_type t = CL_PROGRAM_BINARY_TYPE_NONE;
        if (hProgram->cl != NULL)
            OCL_TRY("clGetProgramBuildInfo",
                    clGetProgramBuildInfo(hProgram->cl, dev, CL_PROGRAM_BINARY_TYPE, sizeof t, &t,
                                          NULL));
        // UR has no "intermediate" type: such a program still needs building, like NONE.
        ur_program_binary_type_t type =
            t == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT ? UR_PROGRAM_BINARY_TYPE_COMPILED_OBJECT
            : t == CL_PROGRAM_BINARY_TYPE_LIBRARY       ? UR_PROGRAM_BINARY_TYPE_LIBRARY
            : t == CL_PROGRAM_BINARY_TYPE_EXECUTABLE    ? UR_PROGRAM_BINARY_TYPE_EXECUTABLE
                                                        : UR_PROGRAM_BINARY_TYPE_NONE;
        return urc_info_bytes(&out, &type, sizeof type);
    }
    case UR_PROGRAM_BUILD_INFO_OPTIONS:
        if (hProgram->cl == NULL)
            return urc_info_string(&out, "");
        return put_native_text(hProgram, dev, CL_PROGRAM_BUILD_OPTIONS, NULL, &out);
    case UR_PROGRAM_BUILD_INFO_LOG: {
        // urc's own lines (requirements, virtual-function selection) come first, then OpenCL's.
        pthread_mutex_lock(&hProgram->lock);
        char *own = hProgram->logs[at] != NULL ? urc_strdup(hProgram->logs[at]) : NULL;
        pthread_mutex_unlock(&hProgram->lock);
        ur_result_t result = hProgram->cl == NULL
                                 ? urc_info_string(&out, own != NULL ? own : "")
                                 : put_native_text(hProgram, dev, CL_PROGRAM_BUILD_LOG, own, &out);
        free(own);
        return result;
    }
    default:
        return UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION;
    }
}

ur_result_t
ocl_program_set_specialization_constants(ur_program_handle_t hProgram, uint32_t count,
                                         const ur_specialization_constant_info_t *pSpecConstants) {
    OCL_TRY_UR(ocl_program_has_native(hProgram));
    // The same rule as UR_DEVICE_INFO_PROGRAM_SET_SPECIALIZATION_CONSTANTS: OpenCL 2.2 and
    // SPIR-V, on every device of the program.
    bool supported = hProgram->context->platform->version >= 22;
    for (uint32_t i = 0; i < hProgram->num_devices; ++i)
        supported = supported && hProgram->devices[i]->version >= 22 && hProgram->devices[i]->il;
    if (!supported)
        return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0,
                             "specialization constants need OpenCL 2.2 and SPIR-V");
    for (uint32_t i = 0; i < count; ++i)
        OCL_TRY("clSetProgramSpecializationConstant",
                clSetProgramSpecializationConstant(hProgram->cl, pSpecConstants[i].id,
                                                   pSpecConstants[i].size,
                                                   pSpecConstants[i].pValue));
    return UR_RESULT_SUCCESS;
}

ur_result_t ocl_program_get_native_handle(ur_program_handle_t hProgram,
                                          ur_native_handle_t *phNativeProgram) {
    OCL_TRY_UR(ocl_program_has_native(hProgram));
    *phNativeProgram = (ur_native_handle_t)hProgram->cl;
    return UR_RESULT_SUCCESS;
}

ur_result_t ocl_program_create_with_native_handle(ur_native_handle_t hNativeProgram,
                                                  ur_context_handle_t hContext,
                                                  const ur_program_native_properties_t *pProps,
                                                  ur_program_handle_t *phProgram) {
    cl_program cl = (cl_program)hNativeProgram;
    cl_context cl_ctx = NULL;
    OCL_TRY("clGetProgramInfo",
            clGetProgramInfo(cl, CL_PROGRAM_CONTEXT, sizeof cl_ctx, &cl_ctx, NULL));
    OCL_TRY_UR(ocl_native_in_context(cl_ctx, hContext, "program"));
    // The program's devices, as the context's handles.
    cl_uint n = 0;
    OCL_TRY("clGetProgramInfo", clGetProgramInfo(cl, CL_PROGRAM_NUM_DEVICES, sizeof n, &n, NULL));
    cl_device_id *ids = urc_calloc(n, sizeof *ids);
    ur_device_handle_t *devices = urc_calloc(n, sizeof *devices);
    ur_result_t result =
        ids != NULL && devices != NULL ? UR_RESULT_SUCCESS : UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    if (result == UR_RESULT_SUCCESS) {
        cl_int err = clGetProgramInfo(cl, CL_PROGRAM_DEVICES, n * sizeof *ids, ids, NULL);
        if (err != CL_SUCCESS)
            result = ocl_fail(err, "clGetProgramInfo");
    }
    for (cl_uint i = 0; result == UR_RESULT_SUCCESS && i < n; ++i) {
        for (uint32_t j = 0; j < hContext->num_devices; ++j)
            if (hContext->devices[j]->cl == ids[i])
                devices[i] = hContext->devices[j];
        if (devices[i] == NULL)
            result = urc_error_set(UR_RESULT_ERROR_INVALID_CONTEXT, 0,
                                   "the native program has a device outside the context");
    }
    if (result == UR_RESULT_SUCCESS)
        result = program_make(cl, hContext, n, devices, NULL,
                              pProps != NULL && pProps->isNativeHandleOwned, phProgram);
    free(ids);
    free(devices);
    return result;
}

/// The word list `list` (separated by ';') contains `name`.
static bool in_kernel_names(const char *list, const char *name) {
    size_t n = strlen(name);
    for (const char *p = list; p != NULL && *p != '\0';) {
        const char *end = strchr(p, ';');
        size_t len = end != NULL ? (size_t)(end - p) : strlen(p);
        if (len == n && memcmp(p, name, n) == 0)
            return true;
        p = end != NULL ? end + 1 : NULL;
    }
    return false;
}

ur_result_t ocl_program_get_function_pointer(ur_device_handle_t hDevice,
                                             ur_program_handle_t hProgram,
                                             const char *pFunctionName, void **ppFunctionPointer) {
    *ppFunctionPointer = NULL;
    OCL_TRY_UR(ocl_program_has_native(hProgram));
    ocl_get_function_pointer_fn fn = hProgram->context->platform->ext.get_function_pointer;
    if (fn == NULL)
        return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0,
                             "clGetDeviceFunctionPointerINTEL is not available");
    // UR's rule: a name that is no kernel of the program is an invalid kernel name; a kernel
    // without an address is "address not available".
    size_t size = 0;
    OCL_TRY("clGetProgramInfo",
            clGetProgramInfo(hProgram->cl, CL_PROGRAM_KERNEL_NAMES, 0, NULL, &size));
    char *names = calloc(size + 1, 1);
    if (names == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    cl_int err = clGetProgramInfo(hProgram->cl, CL_PROGRAM_KERNEL_NAMES, size, names, NULL);
    bool known = err == CL_SUCCESS && in_kernel_names(names, pFunctionName);
    free(names);
    if (err != CL_SUCCESS)
        return ocl_fail(err, "clGetProgramInfo");
    if (!known)
        return urc_error_set(UR_RESULT_ERROR_INVALID_KERNEL_NAME, 0, "no function '%s'",
                             pFunctionName);
    cl_ulong address = 0;
    err = fn(hDevice->cl, hProgram->cl, pFunctionName, &address);
    if (err == CL_INVALID_ARG_VALUE)
        return urc_error_set(UR_RESULT_ERROR_FUNCTION_ADDRESS_NOT_AVAILABLE, err,
                             "'%s' has no address", pFunctionName);
    if (err != CL_SUCCESS)
        return ocl_fail(err, "clGetDeviceFunctionPointerINTEL");
    *ppFunctionPointer = (void *)(uintptr_t)address;
    return UR_RESULT_SUCCESS;
}

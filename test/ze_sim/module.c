// SPDX-License-Identifier: MIT
// Modules: one or more SPIR-V inputs (the module program extension), linked into one symbol
// table; build logs; dynamic linking between modules; global and function lookups.
#include "ze_sim_internal.h"
#include "ze_sim_entry.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

// The ze_sim native container (README): "ZESIMNAT", u32 version 1, u32 count, then per input
// a u32 byte size and the SPIR-V bytes padded to 4. All integers little-endian.
#define NATIVE_MAGIC      "ZESIMNAT"
#define NATIVE_MAGIC_SIZE 8u
#define NATIVE_VERSION    1u
#define SPV_MAGIC_BYTES   "\x03\x02\x23\x07"
#define CODE_STRIDE       16u

// Serialises zeModuleDynamicLink calls so that "resolve all or nothing" holds across modules.
static pthread_mutex_t g_link_lock = PTHREAD_MUTEX_INITIALIZER;

// One input, as a view into caller memory.
typedef struct input {
    const uint8_t *data;
    size_t size;
    const char *flags;
    const ze_module_constants_t *constants;
} input_t;

// ---------------------------------------------------------------------------------------------
// Build logs.

ze_result_t sim_build_log_new(char *text, ze_module_build_log_handle_t *out) {
    sim_build_log_t *log = text ? calloc(1, sizeof(*log)) : NULL;
    if (!log) {
        free(text);
        return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    sim_obj_init(&log->hdr, SIM_KIND_BUILD_LOG);
    log->text = text;
    *out = (ze_module_build_log_handle_t)log;
    return ZE_RESULT_SUCCESS;
}

// Hands the text to a new log when the caller asked for one; frees it otherwise.
static ze_result_t give_log(sim_text_t *text, ze_module_build_log_handle_t *phLog) {
    char *s = sim_text_take(text);
    if (!phLog) {
        free(s);
        return ZE_RESULT_SUCCESS;
    }
    return sim_build_log_new(s, phLog);
}

ze_result_t sim_module_build_log_destroy(ze_module_build_log_handle_t hModuleBuildLog) {
    ze_result_t r;
    sim_build_log_t *log = sim_obj(hModuleBuildLog, SIM_KIND_BUILD_LOG, &r);
    if (!log)
        return r;
    sim_obj_fini(&log->hdr);
    free(log->text);
    free(log);
    return ZE_RESULT_SUCCESS;
}

ze_result_t sim_module_build_log_get_string(ze_module_build_log_handle_t hModuleBuildLog,
                                            size_t *pSize, char *pBuildLog) {
    ze_result_t r;
    sim_build_log_t *log = sim_obj(hModuleBuildLog, SIM_KIND_BUILD_LOG, &r);
    if (!log)
        return r;
    if (!pSize)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    // The text stays with the log, so it can be read any number of times until destroyed.
    size_t need = strlen(log->text) + 1;
    if (pBuildLog && *pSize) {
        size_t n = *pSize < need ? *pSize - 1 : need - 1;
        memcpy(pBuildLog, log->text, n);
        pBuildLog[n] = '\0';
    }
    *pSize = need;
    return ZE_RESULT_SUCCESS;
}

// ---------------------------------------------------------------------------------------------
// Module objects.

// The last of the application's handle and its kernels frees the module and its storage.
void sim_module_release(sim_module_t *m) {
    if (atomic_fetch_sub(&m->refs, 1) != 1)
        return;
    for (uint32_t i = 0; m->units && i < m->num_units; ++i)
        sim_spv_free(m->units[i]);
    free(m->units);
    free(m->kernel_names);
    free(m->defs);
    free(m->imports);
    free(m->code);
    free(m->native);
    pthread_mutex_destroy(&m->lock);
    free(m);
}

// Definitions never change after creation, so lookups need no lock.
static const sim_def_t *find_def(const sim_module_t *m, const char *name, int is_function) {
    for (uint32_t i = 0; i < m->num_defs; ++i)
        if (m->defs[i].is_function == is_function && strcmp(m->defs[i].name, name) == 0)
            return &m->defs[i];
    return NULL;
}

// One line per symbol, "Module <address>:  <what> Symbol <name>" (README.md).
static void log_symbol(sim_text_t *log, const void *module, const char *what, const char *name) {
    sim_text_printf(log, "Module <0x%" PRIxPTR ">:  %s Symbol <%s>\n", (uintptr_t)module, what,
                    name);
}

// Collects definitions, kernels and imports of all units; reports duplicate definitions.
// `who[i]` is the address that names input i in log lines.
static ze_result_t module_index(sim_module_t *m, const void *const *who, sim_text_t *log) {
    uint32_t nfn = 0, ndefs = 0, nimports = 0;
    for (uint32_t u = 0; u < m->num_units; ++u) {
        const sim_spv_unit_t *unit = m->units[u];
        nfn += unit->num_exports;
        ndefs += unit->num_exports;
        nimports += unit->num_imports;
        m->num_kernels += unit->num_kernels;
        for (uint32_t g = 0; g < unit->num_globals; ++g)
            ndefs += unit->globals[g].export_name != NULL;
    }
    m->defs = calloc(ndefs ? ndefs : 1, sizeof(*m->defs));
    m->imports = calloc(nimports ? nimports : 1, sizeof(*m->imports));
    m->kernel_names = calloc(m->num_kernels ? m->num_kernels : 1, sizeof(char *));
    // Zero-filled bytes stand in for code; only their addresses are ever handed out.
    m->code = calloc((size_t)nfn + m->num_kernels + 1, CODE_STRIDE);
    if (!m->defs || !m->imports || !m->kernel_names || !m->code)
        return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;

    ze_result_t r = ZE_RESULT_SUCCESS;
    uint32_t k = 0, fn = 0;
    for (uint32_t u = 0; u < m->num_units; ++u) {
        const sim_spv_unit_t *unit = m->units[u];
        for (uint32_t i = 0; i < unit->num_kernels; ++i) {
            for (uint32_t j = 0; j < k; ++j) {
                if (strcmp(m->kernel_names[j], unit->kernels[i].name) == 0) {
                    log_symbol(log, who[u], "Duplicate", unit->kernels[i].name);
                    r = ZE_RESULT_ERROR_MODULE_LINK_FAILURE;
                }
            }
            m->kernel_names[k++] = unit->kernels[i].name;
        }
        // Functions first (they own the first code slots), then variables.
        for (uint32_t pass = 0; pass < 2; ++pass) {
            uint32_t n = pass == 0 ? unit->num_exports : unit->num_globals;
            for (uint32_t i = 0; i < n; ++i) {
                sim_def_t d = {0};
                if (pass == 0) {
                    d = (sim_def_t){unit->exports[i].name, 1, unit->exports[i].link_once,
                                    m->code + (size_t)fn * CODE_STRIDE, 0};
                } else if (unit->globals[i].export_name) {
                    const sim_spv_global_t *g = &unit->globals[i];
                    d = (sim_def_t){g->export_name, 0, g->link_once, g->storage, g->size};
                } else {
                    continue;
                }
                // LinkOnceODR definitions may repeat; the first one wins.
                const sim_def_t *prev = find_def(m, d.name, d.is_function);
                if (prev && !(prev->link_once && d.link_once)) {
                    log_symbol(log, who[u], "Duplicate", d.name);
                    r = ZE_RESULT_ERROR_MODULE_LINK_FAILURE;
                }
                if (prev)
                    continue;
                m->defs[m->num_defs++] = d;
                fn += d.is_function; // code slots go to kept definitions only
            }
        }
        // Imports keep pointing at names inside the units, which live as long as the module.
        for (uint32_t i = 0; i < unit->num_imports; ++i)
            m->imports[m->num_imports++] =
                (sim_import_t){unit->imports[i].name, unit->imports[i].is_function, u, 0, NULL, 0};
    }
    return r;
}

// Resolves imports against the module's own definitions; counts what is left.
static void module_resolve_self(sim_module_t *m) {
    m->unresolved = 0;
    for (uint32_t i = 0; i < m->num_imports; ++i) {
        sim_import_t *imp = &m->imports[i];
        const sim_def_t *d = find_def(m, imp->name, imp->is_function);
        if (d) {
            imp->resolved = 1;
            imp->address = d->address;
            imp->size = d->size;
        } else {
            m->unresolved++;
        }
    }
}

// Either byte order of the SPIR-V magic number marks IL inside a native binary.
static int is_spirv(const input_t *in) {
    return in->size >= 4 && (memcmp(in->data, SPV_MAGIC_BYTES, 4) == 0 ||
                             memcmp(in->data, "\x07\x23\x02\x03", 4) == 0);
}

static uint32_t read_le32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

// Splits a native binary into inputs; *count is 0 (with a log line) when it is not valid.
static input_t *split_native(const input_t *in, uint32_t *count, sim_text_t *log) {
    *count = 0;
    if (is_spirv(in)) {
        input_t *one = malloc(sizeof(*one));
        if (one) {
            *one = *in;
            *count = 1;
        }
        return one;
    }
    if (in->size < NATIVE_MAGIC_SIZE + 8 || memcmp(in->data, NATIVE_MAGIC, NATIVE_MAGIC_SIZE)) {
        sim_text_printf(log, "ze_sim: native binary is neither SPIR-V nor a ze_sim container\n");
        return NULL;
    }
    uint32_t version = read_le32(in->data + 8), n = read_le32(in->data + 12);
    if (version != NATIVE_VERSION || n == 0 || n > (in->size - 16) / 4) {
        sim_text_printf(log, "ze_sim: bad container header (version %u, %u inputs)\n", version, n);
        return NULL;
    }
    // The header's count was bounded by the size above, so this allocation is small.
    input_t *v = calloc(n, sizeof(*v));
    if (!v)
        return NULL;
    size_t at = 16;
    for (uint32_t i = 0; i < n; ++i) {
        uint32_t size = at + 4 <= in->size ? read_le32(in->data + at) : UINT32_MAX;
        if (size == UINT32_MAX || size > in->size - at - 4) {
            sim_text_printf(log, "ze_sim: container input %u runs past the end\n", i);
            free(v);
            return NULL;
        }
        v[i] = (input_t){in->data + at + 4, size, in->flags, in->constants};
        at += 4 + ((size_t)size + 3) / 4 * 4;
    }
    *count = n;
    return v;
}

// What zeModuleGetNativeBinary returns: the IL itself, or a container for several inputs.
static int make_native(sim_module_t *m, const input_t *in, uint32_t n) {
    if (n == 1) {
        m->native_size = in[0].size;
        m->native = malloc(in[0].size);
        if (m->native)
            memcpy(m->native, in[0].data, in[0].size);
        return m->native ? 0 : -1;
    }
    size_t size = 16;
    for (uint32_t i = 0; i < n; ++i)
        size += 4 + (in[i].size + 3) / 4 * 4;
    if (!(m->native = calloc(1, size)))
        return -1;
    m->native_size = size;
    // Integers are written byte by byte so the container is little-endian on any host.
    const uint32_t head[2] = {NATIVE_VERSION, n};
    memcpy(m->native, NATIVE_MAGIC, NATIVE_MAGIC_SIZE);
    size_t at = NATIVE_MAGIC_SIZE;
    for (int i = 0; i < 2; ++i, at += 4)
        for (int b = 0; b < 4; ++b)
            m->native[at + b] = (uint8_t)(head[i] >> (8 * b));
    for (uint32_t i = 0; i < n; ++i) {
        for (int b = 0; b < 4; ++b)
            m->native[at + b] = (uint8_t)(in[i].size >> (8 * b));
        memcpy(m->native + at + 4, in[i].data, in[i].size);
        at += 4 + (in[i].size + 3) / 4 * 4;
    }
    return 0;
}

// Collects the inputs of a zeModuleCreate call (one, or several with the program extension).
static ze_result_t gather_inputs(const ze_module_desc_t *desc, input_t **out, uint32_t *count) {
    const ze_module_program_exp_desc_t *prog =
        sim_find_ext_const(desc->pNext, ZE_STRUCTURE_TYPE_MODULE_PROGRAM_EXP_DESC);
    if (!prog) {
        if (!desc->pInputModule)
            return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
        if (desc->inputSize == 0)
            return ZE_RESULT_ERROR_INVALID_SIZE;
        if (!(*out = malloc(sizeof(input_t))))
            return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
        **out = (input_t){desc->pInputModule, desc->inputSize, desc->pBuildFlags, desc->pConstants};
        *count = 1;
        return ZE_RESULT_SUCCESS;
    }
    // The extension replaces the descriptor's own input, and requires SPIR-V.
    if (desc->format != ZE_MODULE_FORMAT_IL_SPIRV)
        return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    if (prog->count == 0)
        return ZE_RESULT_ERROR_INVALID_SIZE;
    if (!prog->inputSizes || !prog->pInputModules)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    if (!(*out = calloc(prog->count, sizeof(input_t))))
        return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    for (uint32_t i = 0; i < prog->count; ++i) {
        (*out)[i].data = prog->pInputModules[i];
        (*out)[i].size = prog->inputSizes[i];
        (*out)[i].flags = prog->pBuildFlags ? prog->pBuildFlags[i] : NULL;
        (*out)[i].constants = prog->pConstants ? prog->pConstants[i] : NULL;
        if (!(*out)[i].data) {
            free(*out);
            return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
        }
    }
    *count = prog->count;
    return ZE_RESULT_SUCCESS;
}

static void log_flags(sim_text_t *log, const input_t *in, uint32_t n) {
    for (uint32_t i = 0; i < n; ++i)
        if (in[i].flags && *in[i].flags)
            sim_text_printf(log, "ze_sim: input %u build flags: %s\n", i, in[i].flags);
}

// Parses, indexes and links the inputs into m; fills the log on failure.
static ze_result_t module_build(sim_module_t *m, const input_t *in, uint32_t n, int native,
                                int link_all, sim_text_t *log) {
    const ze_result_t bad =
        native ? ZE_RESULT_ERROR_INVALID_NATIVE_BINARY : ZE_RESULT_ERROR_MODULE_BUILD_FAILURE;
    if (!(m->units = calloc(n, sizeof(*m->units))))
        return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    for (uint32_t i = 0; i < n; ++i, ++m->num_units) {
        char *why = NULL;
        if (!(m->units[i] = sim_spv_parse(in[i].data, in[i].size, in[i].constants, &why))) {
            sim_text_printf(log, "ze_sim: input %u: %s\n", i, why ? why : "out of host memory");
            log_flags(log, in, n);
            free(why);
            return bad;
        }
    }
    // Log lines name an input by the address of its IL, the only identity it has.
    const void **who = malloc(n * sizeof(*who));
    if (!who)
        return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    for (uint32_t i = 0; i < n; ++i)
        who[i] = in[i].data;
    ze_result_t r = module_index(m, who, log);
    if (r == ZE_RESULT_SUCCESS) {
        module_resolve_self(m);
        // Linking several inputs is static linking: every import must be found among them.
        if (link_all && m->unresolved) {
            for (uint32_t i = 0; i < m->num_imports; ++i)
                if (!m->imports[i].resolved)
                    log_symbol(log, who[m->imports[i].unit], "Unresolved", m->imports[i].name);
            r = ZE_RESULT_ERROR_MODULE_LINK_FAILURE;
        }
    }
    if (r == ZE_RESULT_SUCCESS && make_native(m, in, n))
        r = ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    if (r != ZE_RESULT_SUCCESS && r != ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY)
        log_flags(log, in, n);
    free(who);
    return r;
}

ze_result_t sim_module_create(ze_context_handle_t hContext, ze_device_handle_t hDevice,
                              const ze_module_desc_t *desc, ze_module_handle_t *phModule,
                              ze_module_build_log_handle_t *phBuildLog) {
    ze_result_t r;
    if (!sim_obj(hContext, SIM_KIND_CONTEXT, &r) || !sim_obj(hDevice, SIM_KIND_DEVICE, &r))
        return r;
    if (!desc || !phModule)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    if (phBuildLog)
        *phBuildLog = NULL;
    if ((uint32_t)desc->format > ZE_MODULE_FORMAT_NATIVE)
        return ZE_RESULT_ERROR_INVALID_ENUMERATION;
    input_t *in = NULL;
    uint32_t n = 0;
    if ((r = gather_inputs(desc, &in, &n)) != ZE_RESULT_SUCCESS)
        return r;
    // Flags are recorded before anything can fail, so a test can inspect a failed build.
    const char **flags = malloc(n * sizeof(*flags));
    if (flags) {
        for (uint32_t i = 0; i < n; ++i)
            flags[i] = in[i].flags;
        sim_inspect_set_build_flags(n, flags);
        free(flags);
    }

    sim_text_t log = {0};
    const int native = desc->format == ZE_MODULE_FORMAT_NATIVE;
    const int link_all =
        n > 1 || sim_find_ext_const(desc->pNext, ZE_STRUCTURE_TYPE_MODULE_PROGRAM_EXP_DESC);
    sim_module_t *m = NULL;
    r = sim_inject_take(ZE_SIM_FAIL_MODULE_CREATE);
    if (r != ZE_RESULT_SUCCESS) {
        sim_text_printf(&log, "ze_sim: injected failure (zeSimFailNext)\n");
        goto fail;
    }
    // A native binary is either plain SPIR-V or the container that zeModuleGetNativeBinary made.
    if (native) {
        uint32_t parts = 0;
        input_t *split = split_native(&in[0], &parts, &log);
        if (!parts) {
            free(split);
            r = ZE_RESULT_ERROR_INVALID_NATIVE_BINARY;
            goto fail;
        }
        free(in);
        in = split;
        n = parts;
    }
    if (!(m = calloc(1, sizeof(*m))) || pthread_mutex_init(&m->lock, NULL)) {
        free(m);
        m = NULL;
        r = ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
        goto fail;
    }
    // The application's reference; each kernel adds one.
    atomic_init(&m->refs, 1);
    r = module_build(m, in, n, native, link_all || n > 1, &log);
    if (r != ZE_RESULT_SUCCESS)
        goto fail;
    free(in);
    sim_obj_init(&m->hdr, SIM_KIND_MODULE);
    *phModule = (ze_module_handle_t)m;
    return give_log(&log, phBuildLog);

fail:
    free(in);
    if (m)
        sim_module_release(m);
    // The log is handed out even on failure: it says why.
    give_log(&log, phBuildLog);
    return r;
}

ze_result_t sim_module_destroy(ze_module_handle_t hModule) {
    ze_result_t r;
    sim_module_t *m = sim_obj(hModule, SIM_KIND_MODULE, &r);
    if (!m)
        return r;
    sim_obj_fini(&m->hdr);
    sim_module_release(m); // kernels hold their own references
    return ZE_RESULT_SUCCESS;
}

// ---------------------------------------------------------------------------------------------
// Dynamic linking and linkage inspection.

// Finds the one definition of an import among the modules; counts the candidates.
// LinkOnceODR definitions in several modules are one definition, not a duplicate.
static const sim_def_t *lookup(sim_module_t *const *mods, uint32_t n, const sim_import_t *imp,
                               uint32_t *candidates, const sim_module_t **dup_owner) {
    const sim_def_t *found = NULL;
    *candidates = 0;
    for (uint32_t i = 0; i < n; ++i) {
        const sim_def_t *d = find_def(mods[i], imp->name, imp->is_function);
        if (!d)
            continue;
        if (!found) {
            found = d;
            *candidates = 1;
        } else if (!(found->link_once && d->link_once)) {
            (*candidates)++;
            *dup_owner = mods[i];
        }
    }
    return found;
}

ze_result_t sim_module_dynamic_link(uint32_t numModules, ze_module_handle_t *phModules,
                                    ze_module_build_log_handle_t *phLinkLog) {
    ze_result_t r;
    // A NULL log pointer is allowed: the result alone says whether linking worked.
    if (phLinkLog)
        *phLinkLog = NULL;
    if (!phModules)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    sim_module_t **mods = malloc((numModules ? numModules : 1) * sizeof(*mods));
    if (!mods)
        return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    uint32_t n = 0;
    for (uint32_t i = 0; i < numModules; ++i) {
        sim_module_t *m = sim_obj(phModules[i], SIM_KIND_MODULE, &r);
        if (!m) {
            free(mods);
            return r;
        }
        // The same module listed twice must not look like a duplicate definition.
        int seen = 0;
        // n is small (the modules of one program), so a quadratic check is fine.
        for (uint32_t j = 0; j < n; ++j)
            seen |= mods[j] == m;
        if (!seen)
            mods[n++] = m;
    }

    sim_text_t log = {0};
    r = ZE_RESULT_SUCCESS;
    pthread_mutex_lock(&g_link_lock);
    // First pass decides; the second applies, so a failure changes nothing.
    for (int apply = 0; apply < 2 && r == ZE_RESULT_SUCCESS; ++apply) {
        for (uint32_t i = 0; i < n; ++i) {
            sim_module_t *m = mods[i];
            pthread_mutex_lock(&m->lock);
            for (uint32_t k = 0; k < m->num_imports; ++k) {
                sim_import_t *imp = &m->imports[k];
                if (imp->resolved)
                    continue;
                uint32_t candidates;
                const sim_module_t *dup = NULL;
                const sim_def_t *d = lookup(mods, n, imp, &candidates, &dup);
                if (!apply && !d)
                    log_symbol(&log, m, "Unresolved", imp->name);
                if (!apply && candidates > 1)
                    log_symbol(&log, dup, "Duplicate", imp->name);
                if (!apply && (!d || candidates > 1))
                    r = ZE_RESULT_ERROR_MODULE_LINK_FAILURE;
                if (apply) {
                    imp->resolved = 1;
                    imp->address = d->address;
                    imp->size = d->size;
                    m->unresolved--;
                }
            }
            pthread_mutex_unlock(&m->lock);
        }
    }
    pthread_mutex_unlock(&g_link_lock);
    free(mods);
    ze_result_t lr = give_log(&log, phLinkLog);
    return r != ZE_RESULT_SUCCESS ? r : lr;
}

ze_result_t sim_module_inspect_linkage_ext(ze_linkage_inspection_ext_desc_t *pInspectDesc,
                                           uint32_t numModules, ze_module_handle_t *phModules,
                                           ze_module_build_log_handle_t *phLog) {
    ze_result_t r;
    if (!pInspectDesc || !phModules || !phLog)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    if (pInspectDesc->flags > 0x7)
        return ZE_RESULT_ERROR_INVALID_ENUMERATION;
    for (uint32_t i = 0; i < numModules; ++i)
        if (!sim_obj(phModules[i], SIM_KIND_MODULE, &r))
            return r;
    sim_module_t *const *mods = (sim_module_t *const *)phModules;
    sim_text_t log = {0};
    // Section order follows the flag bits: imports, unresolvable imports, exports.
    static const char *const titles[3] = {"IMPORTS", "UNRESOLVABLE IMPORTS", "EXPORTS"};
    for (uint32_t section = 0; section < 3; ++section) {
        if (!(pInspectDesc->flags & (1u << section)))
            continue;
        sim_text_printf(&log, "%s:\n", titles[section]);
        for (uint32_t i = 0; i < numModules; ++i) {
            sim_module_t *m = mods[i];
            pthread_mutex_lock(&m->lock);
            if (section == 2) {
                for (uint32_t k = 0; k < m->num_defs; ++k)
                    sim_text_printf(&log, "  Module <0x%" PRIxPTR ">:  %s\n", (uintptr_t)m,
                                    m->defs[k].name);
            } else {
                for (uint32_t k = 0; k < m->num_imports; ++k) {
                    uint32_t cand;
                    const sim_module_t *dup = NULL;
                    const sim_import_t *imp = &m->imports[k];
                    if (section == 1 &&
                        (imp->resolved || lookup(mods, numModules, imp, &cand, &dup)))
                        continue;
                    sim_text_printf(&log, "  Module <0x%" PRIxPTR ">:  %s\n", (uintptr_t)m,
                                    imp->name);
                }
            }
            pthread_mutex_unlock(&m->lock);
        }
    }
    return sim_build_log_new(sim_text_take(&log), phLog);
}

// ---------------------------------------------------------------------------------------------
// Queries.

ze_result_t sim_module_get_native_binary(ze_module_handle_t hModule, size_t *pSize,
                                         uint8_t *pModuleNativeBinary) {
    ze_result_t r;
    sim_module_t *m = sim_obj(hModule, SIM_KIND_MODULE, &r);
    if (!m)
        return r;
    if (!pSize)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    if (pModuleNativeBinary) {
        // A short buffer gets nothing rather than a truncated binary that would not load.
        if (*pSize < m->native_size)
            return ZE_RESULT_ERROR_INVALID_SIZE;
        memcpy(pModuleNativeBinary, m->native, m->native_size);
    }
    *pSize = m->native_size;
    return ZE_RESULT_SUCCESS;
}

ze_result_t sim_module_get_global_pointer(ze_module_handle_t hModule, const char *pGlobalName,
                                          size_t *pSize, void **pptr) {
    ze_result_t r;
    sim_module_t *m = sim_obj(hModule, SIM_KIND_MODULE, &r);
    if (!m)
        return r;
    if (!pGlobalName)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    void *addr = NULL;
    size_t size = 0;
    // The HostAccessINTEL name first (what SYCL device_global uses), then linkage names.
    for (uint32_t u = 0; !addr && u < m->num_units; ++u) {
        const sim_spv_unit_t *unit = m->units[u];
        for (uint32_t g = 0; !addr && g < unit->num_globals; ++g) {
            if (unit->globals[g].host_name && !strcmp(unit->globals[g].host_name, pGlobalName)) {
                addr = unit->globals[g].storage;
                size = unit->globals[g].size;
            }
        }
    }
    const sim_def_t *d = addr ? NULL : find_def(m, pGlobalName, 0);
    if (d) {
        addr = d->address;
        size = d->size;
    }
    // Last, imported variables that zeModuleDynamicLink resolved into another module.
    pthread_mutex_lock(&m->lock);
    for (uint32_t k = 0; !addr && k < m->num_imports; ++k) {
        const sim_import_t *imp = &m->imports[k];
        if (imp->resolved && !imp->is_function && !strcmp(imp->name, pGlobalName)) {
            addr = imp->address;
            size = imp->size;
        }
    }
    pthread_mutex_unlock(&m->lock);
    if (!addr)
        return ZE_RESULT_ERROR_INVALID_GLOBAL_NAME;
    if (pSize)
        *pSize = size;
    if (pptr)
        *pptr = addr;
    return ZE_RESULT_SUCCESS;
}

ze_result_t sim_module_get_kernel_names(ze_module_handle_t hModule, uint32_t *pCount,
                                        const char **pNames) {
    ze_result_t r;
    sim_module_t *m = sim_obj(hModule, SIM_KIND_MODULE, &r);
    if (!m)
        return r;
    if (!pCount)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    sim_copy_out_count(pCount, pNames, m->kernel_names, m->num_kernels, sizeof(char *));
    return ZE_RESULT_SUCCESS;
}

ze_result_t sim_module_get_properties(ze_module_handle_t hModule,
                                      ze_module_properties_t *pModuleProperties) {
    ze_result_t r;
    sim_module_t *m = sim_obj(hModule, SIM_KIND_MODULE, &r);
    if (!m)
        return r;
    if (!pModuleProperties)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    pthread_mutex_lock(&m->lock);
    // Only imports still unresolved count, so the flag clears after a successful link.
    pModuleProperties->flags = m->unresolved ? ZE_MODULE_PROPERTY_FLAG_IMPORTS : 0;
    pthread_mutex_unlock(&m->lock);
    return ZE_RESULT_SUCCESS;
}

ze_result_t sim_module_get_function_pointer(ze_module_handle_t hModule, const char *pFunctionName,
                                            void **pfnFunction) {
    ze_result_t r;
    sim_module_t *m = sim_obj(hModule, SIM_KIND_MODULE, &r);
    if (!m)
        return r;
    if (!pFunctionName || !pfnFunction)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    const sim_def_t *d = find_def(m, pFunctionName, 1);
    if (d) {
        *pfnFunction = d->address;
        return ZE_RESULT_SUCCESS;
    }
    // Kernels have addresses too, after the exported functions.
    uint32_t nfn = 0;
    for (uint32_t i = 0; i < m->num_defs; ++i)
        nfn += m->defs[i].is_function;
    for (uint32_t k = 0; k < m->num_kernels; ++k) {
        if (strcmp(m->kernel_names[k], pFunctionName) == 0) {
            *pfnFunction = m->code + (size_t)(nfn + k) * CODE_STRIDE;
            return ZE_RESULT_SUCCESS;
        }
    }
    pthread_mutex_lock(&m->lock);
    for (uint32_t k = 0; k < m->num_imports; ++k) {
        const sim_import_t *imp = &m->imports[k];
        if (imp->resolved && imp->is_function && !strcmp(imp->name, pFunctionName)) {
            *pfnFunction = imp->address;
            pthread_mutex_unlock(&m->lock);
            return ZE_RESULT_SUCCESS;
        }
    }
    pthread_mutex_unlock(&m->lock);
    return ZE_RESULT_ERROR_INVALID_FUNCTION_NAME;
}

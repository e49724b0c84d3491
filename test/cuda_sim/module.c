// SPDX-License-Identifier: MIT
// Modules and the JIT linker. PTX is read for what the driver would resolve: entries (with their
// parameter sizes), functions, globals (sizes from their declarations) and extern references;
// every instruction's opcode must be a known one, else the "JIT" fails with a ptxas-style log.
// A cubin is read through its ELF symbol table. cuLink joins PTX texts, checking that every
// extern is defined exactly once; its output is the joined text behind a marker.
#include <ctype.h>
#include <elf.h>
#include <stdio.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_sim_internal.h"

#define LINKED_MAGIC "//urc-cuda-sim linked\n"
#define FATBIN_MAGIC 0xBA55ED50u

// ---- PTX reading ----

typedef struct names_t {
    char **v;
    size_t n;
} names_t;

static void names_add(names_t *l, const char *s, size_t len) {
    l->v = realloc(l->v, (l->n + 1) * sizeof *l->v);
    l->v[l->n] = strndup(s, len);
    l->n++;
}

static bool names_has(const names_t *l, const char *s) {
    for (size_t i = 0; i < l->n; ++i)
        if (strcmp(l->v[i], s) == 0)
            return true;
    return false;
}

static void names_free(names_t *l) {
    for (size_t i = 0; i < l->n; ++i)
        free(l->v[i]);
    free(l->v);
    memset(l, 0, sizeof *l);
}

// What one PTX text declares.
typedef struct ptx_info_t {
    names_t entries, funcs, globals, extern_funcs, extern_globals;
} ptx_info_t;

static void info_free(ptx_info_t *p) {
    names_free(&p->entries);
    names_free(&p->funcs);
    names_free(&p->globals);
    names_free(&p->extern_funcs);
    names_free(&p->extern_globals);
}

static size_t type_size(const char *t) {
    if (strncmp(t, ".u64", 4) == 0 || strncmp(t, ".s64", 4) == 0 || strncmp(t, ".b64", 4) == 0 ||
        strncmp(t, ".f64", 4) == 0)
        return 8;
    if (strncmp(t, ".u16", 4) == 0 || strncmp(t, ".s16", 4) == 0 || strncmp(t, ".b16", 4) == 0)
        return 2;
    if (strncmp(t, ".u8", 3) == 0 || strncmp(t, ".s8", 3) == 0 || strncmp(t, ".b8", 3) == 0)
        return 1;
    return 4;
}

static const char *skip_space(const char *p) {
    while (*p == ' ' || *p == '\t')
        ++p;
    return p;
}

static size_t ident_len(const char *p) {
    size_t n = 0;
    while (isalnum((unsigned char)p[n]) || p[n] == '_' || p[n] == '$' || p[n] == '.')
        ++n;
    return n;
}

// The last identifier before `end` (a declaration's name).
static const char *last_ident(const char *start, const char *end, size_t *len) {
    const char *p = end;
    while (p > start && !(isalnum((unsigned char)p[-1]) || p[-1] == '_' || p[-1] == '$'))
        --p;
    const char *e = p;
    while (p > start && (isalnum((unsigned char)p[-1]) || p[-1] == '_' || p[-1] == '$'))
        --p;
    *len = (size_t)(e - p);
    return p;
}

static const char *const opcodes[] = {
    "ld",
    "st",
    "add",
    "sub",
    "mul",
    "mad",
    "div",
    "rem",
    "mov",
    "cvt",
    "cvta",
    "setp",
    "selp",
    "bra",
    "ret",
    "exit",
    "call",
    "and",
    "or",
    "xor",
    "not",
    "shl",
    "shr",
    "bar",
    "barrier",
    "atom",
    "red",
    "membar",
    "fence",
    "neg",
    "abs",
    "min",
    "max",
    "fma",
    "rcp",
    "sqrt",
    "ex2",
    "lg2",
    "sin",
    "cos",
    "trap",
    "brkpt",
    "mov",
    "clz",
    "popc",
    "prmt",
    "shf",
    "lop3",
    "vote",
    "shfl",
    "activemask",
    "nanosleep",
    "pmevent",
    "cvt.rn",
    "isspacep",
    "prefetch",
    "copysign",
    "testp",
    "mul24",
    "mad24",
    "sad",
    "bfe",
    "bfi",
    "brev",
    "dp4a",
    "dp2a",
    "slct",
    "set",
    "rsqrt",
    "tanh",
    "ex2",
    "discard",
    "applypriority",
    "createpolicy",
    "cp",
    "mbarrier",
    "elect",
    "griddepcontrol",
    "stackrestore",
    "stacksave",
    "alloca",
    "match",
    "redux",
    "tex",
    "suld",
    "sust",
    "txq",
    "istypep",
    "getctarank",
    "mapa",
    "wmma",
    "mma",
    "ldmatrix",
    "stmatrix",
    "movmatrix",
    "szext",
    "bmsk",
    "clusterlaunchcontrol",
    "tcgen05",
    "wgmma",
    "multimem",
    "st.async",
    "red.async",
    "cp.async",
};

static bool known_opcode(const char *op, size_t len) {
    size_t base = 0;
    while (base < len && op[base] != '.')
        ++base;
    for (size_t i = 0; i < sizeof opcodes / sizeof opcodes[0]; ++i)
        if (strlen(opcodes[i]) == base && strncmp(op, opcodes[i], base) == 0)
            return true;
    return false;
}

// Reads a PTX text. False with a ptxas-like message in `log` for an unknown instruction.
static bool read_ptx(const char *text, ptx_info_t *out, char *log, size_t log_size) {
    memset(out, 0, sizeof *out);
    int depth = 0, line_no = 0;
    for (const char *line = text; *line != '\0';) {
        const char *eol = strchr(line, '\n');
        size_t len = eol != NULL ? (size_t)(eol - line) : strlen(line);
        ++line_no;
        const char *p = skip_space(line), *end = line + len;
        bool is_extern = false, is_visible = false;
        if (p < end && *p != '/') {
            for (;;) {
                if (strncmp(p, ".extern", 7) == 0) {
                    is_extern = true;
                    p = skip_space(p + 7);
                } else if (strncmp(p, ".visible", 8) == 0) {
                    is_visible = true;
                    p = skip_space(p + 8);
                } else if (strncmp(p, ".weak", 5) == 0) {
                    p = skip_space(p + 5);
                } else {
                    break;
                }
            }
            (void)is_visible;
            if (strncmp(p, ".entry", 6) == 0 || strncmp(p, ".func", 5) == 0) {
                bool entry = p[1] == 'e';
                const char *paren = memchr(p, '(', (size_t)(end - p));
                const char *name_end = end;
                // ".func (.param ...) name(" : the name follows the return parameter.
                if (!entry && paren != NULL && paren == skip_space(p + 5)) {
                    const char *close = memchr(paren, ')', (size_t)(end - paren));
                    paren = close != NULL ? memchr(close, '(', (size_t)(end - close)) : NULL;
                }
                if (paren != NULL)
                    name_end = paren;
                size_t n;
                const char *name = last_ident(p, name_end, &n);
                names_t *list = entry       ? &out->entries
                                : is_extern ? &out->extern_funcs
                                            : &out->funcs;
                if (n > 0)
                    names_add(list, name, n);
            } else if (depth == 0 && strncmp(p, ".global", 7) == 0) {
                const char *semi = memchr(p, ';', (size_t)(end - p));
                const char *eq = memchr(p, '=', (size_t)(end - p));
                const char *decl_end = eq != NULL ? eq : semi != NULL ? semi : end;
                const char *bracket = memchr(p, '[', (size_t)(decl_end - p));
                size_t n;
                const char *name = last_ident(p, bracket != NULL ? bracket : decl_end, &n);
                if (n > 0)
                    names_add(is_extern ? &out->extern_globals : &out->globals, name, n);
            } else if (depth > 0 && (isalpha((unsigned char)*p) || *p == '@')) {
                // An instruction, possibly predicated ("@%p1 bra ...").
                if (*p == '@') {
                    while (p < end && *p != ' ' && *p != '\t')
                        ++p;
                    p = skip_space(p);
                }
                // Only a word followed by operands or ';' is an opcode; call sequences put
                // bare operand names on lines of their own.
                size_t n = ident_len(p);
                bool opcode = n > 0 && (p[n] == ' ' || p[n] == '\t' || p[n] == ';');
                if (opcode && !known_opcode(p, n)) {
                    snprintf(log, log_size,
                             "ptxas application ptx input, line %d; error   : Not a name of any "
                             "known instruction: '%.*s'",
                             line_no, (int)n, p);
                    info_free(out);
                    return false;
                }
            }
        }
        for (const char *c = line; c < end; ++c)
            depth += *c == '{' ? 1 : *c == '}' ? -1 : 0;
        line = eol != NULL ? eol + 1 : end;
    }
    return true;
}

// Parameter sizes of entry `name`: ".param .u64 x" or ".param .align 4 .b8 x[12]".
static void entry_params(const char *text, const char *name, sim_func_t *f) {
    char key[512];
    snprintf(key, sizeof key, ".entry %s(", name);
    const char *p = strstr(text, key);
    if (p == NULL)
        return;
    const char *close = strchr(p, ')');
    f->params_known = true;
    for (const char *q = strstr(p, ".param"); q != NULL && q < close && f->nparams < 32;
         q = strstr(q + 6, ".param")) {
        const char *t = skip_space(q + 6);
        if (strncmp(t, ".align", 6) == 0) {
            t = skip_space(t + 6);
            while (isdigit((unsigned char)*t))
                ++t;
            t = skip_space(t);
        }
        size_t elem = type_size(t);
        const char *bracket = strchr(t, '['), *comma = strpbrk(t, ",)");
        size_t count = 1;
        if (bracket != NULL && comma != NULL && bracket < comma)
            count = strtoul(bracket + 1, NULL, 10);
        f->param_size[f->nparams++] = elem * count;
    }
}

// Functions the driver's JIT supplies itself (device assert and printf).
static void drop_builtins(names_t *l) {
    static const char *const builtins[] = {"__assertfail", "vprintf", "malloc", "free"};
    for (size_t i = 0; i < l->n;) {
        bool builtin = false;
        for (size_t b = 0; b < sizeof builtins / sizeof builtins[0]; ++b)
            builtin = builtin || strcmp(l->v[i], builtins[b]) == 0;
        if (builtin) {
            free(l->v[i]);
            l->v[i] = l->v[--l->n];
        } else {
            ++i;
        }
    }
}

// Size of global `name`: element size times the array length.
static size_t global_size(const char *text, const char *name) {
    size_t n = strlen(name);
    for (const char *p = strstr(text, name); p != NULL; p = strstr(p + 1, name)) {
        if (isalnum((unsigned char)p[n]) || p[n] == '_' ||
            (p > text && (isalnum((unsigned char)p[-1]) || p[-1] == '_')))
            continue;
        const char *line = p;
        while (line > text && line[-1] != '\n')
            --line;
        const char *g = strstr(line, ".global");
        const char *ext = strstr(line, ".extern");
        if (g == NULL || g > p || (ext != NULL && ext < p))
            continue;
        const char *t = g + 7;
        while ((t = strchr(t, '.')) != NULL && t < p) {
            size_t elem = type_size(t);
            if (strncmp(t, ".align", 6) != 0 &&
                (t[1] == 'u' || t[1] == 's' || t[1] == 'b' || t[1] == 'f')) {
                size_t count = p[n] == '[' ? strtoul(p + n + 1, NULL, 10) : 1;
                return elem * count;
            }
            ++t;
        }
    }
    return 4;
}

// ---- modules ----

static void module_free(sim_module_t *m) {
    for (size_t i = 0; i < m->nglobals; ++i) {
        sim_untrack_global(m->globals[i].ptr);
        free(m->globals[i].name);
        free(m->globals[i].ptr);
    }
    for (size_t i = 0; i < m->nfuncs; ++i)
        free(m->funcs[i].name);
    free(m->globals);
    free(m->funcs);
    free(m->text);
    free(m);
}

static void add_func(sim_module_t *m, const char *name) {
    m->funcs = realloc(m->funcs, (m->nfuncs + 1) * sizeof *m->funcs);
    sim_func_t *f = &m->funcs[m->nfuncs++];
    memset(f, 0, sizeof *f);
    f->name = strdup(name);
    f->module = m;
    f->impl = sim_kernel_impl(name);
}

static void add_global(sim_module_t *m, const char *name, size_t size) {
    for (size_t i = 0; i < m->nglobals; ++i)
        if (strcmp(m->globals[i].name, name) == 0)
            return;
    m->globals = realloc(m->globals, (m->nglobals + 1) * sizeof *m->globals);
    sim_global_t *g = &m->globals[m->nglobals++];
    g->name = strdup(name);
    g->size = size;
    g->ptr = calloc(1, size ? size : 1); // globals start zeroed
    sim_track_global(g->ptr, size ? size : 1);
}

sim_global_t *sim_module_global(sim_module_t *m, const char *name) {
    for (size_t i = 0; i < m->nglobals; ++i)
        if (strcmp(m->globals[i].name, name) == 0)
            return &m->globals[i];
    return NULL;
}

static void set_log(void **values, CUjit_option *names, unsigned n, CUjit_option which,
                    const char *text) {
    for (unsigned i = 0; i < n; ++i) {
        if (names[i] != which)
            continue;
        size_t cap = 0;
        for (unsigned j = 0; j < n; ++j)
            if (names[j] == (which == CU_JIT_ERROR_LOG_BUFFER ? CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES
                                                              : CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES))
                cap = (size_t)(uintptr_t)values[j];
        if (cap > 0)
            snprintf(values[i], cap, "%s", text);
    }
}

// A module from PTX text (linked or not). Unlinked PTX may not reference externs.
static CUresult module_from_ptx(const char *text, bool linked, sim_module_t **out, char *log,
                                size_t log_size) {
    ptx_info_t info;
    if (!read_ptx(text, &info, log, log_size))
        return CUDA_ERROR_INVALID_PTX;
    drop_builtins(&info.extern_funcs);
    if (!linked && (info.extern_funcs.n > 0 || info.extern_globals.n > 0)) {
        snprintf(log, log_size, "ptxas fatal   : Unresolved extern %s '%s'",
                 info.extern_funcs.n > 0 ? "function" : "variable",
                 info.extern_funcs.n > 0 ? info.extern_funcs.v[0] : info.extern_globals.v[0]);
        info_free(&info);
        return CUDA_ERROR_INVALID_PTX;
    }
    sim_module_t *m = calloc(1, sizeof *m);
    m->text = strdup(text);
    for (size_t i = 0; i < info.entries.n; ++i) {
        add_func(m, info.entries.v[i]);
        entry_params(text, info.entries.v[i], &m->funcs[m->nfuncs - 1]);
    }
    for (size_t i = 0; i < info.globals.n; ++i)
        add_global(m, info.globals.v[i], global_size(text, info.globals.v[i]));
    info_free(&info);
    *out = m;
    return CUDA_SUCCESS;
}

// A cubin: functions and objects of its ELF symbol table (kernels are ".text.<name>").
static CUresult module_from_elf(const uint8_t *image, size_t size, sim_module_t **out) {
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)image;
    if (size < sizeof *eh || eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_shoff == 0 ||
        eh->e_shoff + (size_t)eh->e_shnum * sizeof(Elf64_Shdr) > size)
        return CUDA_ERROR_INVALID_IMAGE;
    const Elf64_Shdr *sh = (const Elf64_Shdr *)(image + eh->e_shoff);
    sim_module_t *m = calloc(1, sizeof *m);
    m->text = strdup("");
    for (unsigned i = 0; i < eh->e_shnum; ++i) {
        if (sh[i].sh_type != SHT_SYMTAB || sh[i].sh_link >= eh->e_shnum)
            continue;
        const Elf64_Sym *syms = (const Elf64_Sym *)(image + sh[i].sh_offset);
        const char *strtab = (const char *)(image + sh[sh[i].sh_link].sh_offset);
        size_t count = sh[i].sh_size / sizeof(Elf64_Sym);
        for (size_t s = 0; s < count; ++s) {
            const char *name = strtab + syms[s].st_name;
            if (ELF64_ST_TYPE(syms[s].st_info) == STT_FUNC && name[0] != '\0')
                add_func(m, name);
            else if (ELF64_ST_TYPE(syms[s].st_info) == STT_OBJECT && name[0] != '\0')
                add_global(m, name, syms[s].st_size);
        }
    }
    *out = m;
    return CUDA_SUCCESS;
}

static CUresult load(const void *image, sim_module_t **out, char *log, size_t log_size) {
    const uint8_t *b = image;
    uint32_t magic;
    memcpy(&magic, b, sizeof magic);
    if (memcmp(b, "\177ELF", 4) == 0)
        return module_from_elf(b, SIZE_MAX / 2, out);
    if (magic == FATBIN_MAGIC) {
        // The embedded cubin of an uncompressed fatbinary.
        for (size_t i = 4; i < 1 << 20; ++i)
            if (memcmp(b + i, "\177ELF", 4) == 0)
                return module_from_elf(b + i, SIZE_MAX / 2, out);
        return CUDA_ERROR_NO_BINARY_FOR_GPU;
    }
    const char *text = image;
    bool linked = strncmp(text, LINKED_MAGIC, strlen(LINKED_MAGIC)) == 0;
    return module_from_ptx(text, linked, out, log, log_size);
}

SIM_EXPORT CUresult cuModuleLoadDataEx(CUmodule *module, const void *image, unsigned int n,
                                       CUjit_option *options, void **values) {
    sim_count_call();
    SIM_STICKY();
    char log[1024] = "";
    sim_module_t *m = NULL;
    CUresult r = load(image, &m, log, sizeof log);
    set_log(values, options, n, CU_JIT_ERROR_LOG_BUFFER, r == CUDA_SUCCESS ? "" : log);
    set_log(values, options, n, CU_JIT_INFO_LOG_BUFFER,
            r == CUDA_SUCCESS ? "info    : simulated JIT done" : "");
    if (r == CUDA_SUCCESS)
        *module = (CUmodule)m;
    return r;
}

// After a sticky error the call fails, but the module's host memory goes anyway: the dead
// context will never use it, and a leak checker should not blame the adapter.
SIM_EXPORT CUresult cuModuleUnload(CUmodule module) {
    sim_count_call();
    module_free((sim_module_t *)module);
    SIM_STICKY();
    return CUDA_SUCCESS;
}

// For tests (not a CUDA function): calls that look up or describe a function.
static atomic_size_t function_queries;
SIM_EXPORT size_t urc_cuda_sim_function_queries(void) {
    return atomic_load(&function_queries);
}

SIM_EXPORT CUresult cuModuleGetFunction(CUfunction *fn, CUmodule module, const char *name) {
    sim_count_call();
    SIM_STICKY();
    atomic_fetch_add(&function_queries, 1);
    sim_module_t *m = (sim_module_t *)module;
    for (size_t i = 0; i < m->nfuncs; ++i) {
        if (strcmp(m->funcs[i].name, name) == 0) {
            *fn = (CUfunction)&m->funcs[i];
            return CUDA_SUCCESS;
        }
    }
    return CUDA_ERROR_NOT_FOUND;
}

SIM_EXPORT CUresult cuModuleGetGlobal_v2(CUdeviceptr *dptr, size_t *bytes, CUmodule module,
                                         const char *name) {
    sim_count_call();
    SIM_STICKY();
    sim_global_t *g = sim_module_global((sim_module_t *)module, name);
    if (g == NULL)
        return CUDA_ERROR_NOT_FOUND;
    if (dptr != NULL)
        *dptr = (CUdeviceptr)g->ptr;
    if (bytes != NULL)
        *bytes = g->size;
    return CUDA_SUCCESS;
}

// ---- the linker ----

typedef struct sim_link_t {
    char *text; // LINKED_MAGIC, then every input
    ptx_info_t all;
    char log[1024];
    CUjit_option names[8];
    void *values[8];
    unsigned n;
} sim_link_t;

SIM_EXPORT CUresult cuLinkCreate_v2(unsigned int n, CUjit_option *options, void **values,
                                    CUlinkState *state) {
    sim_count_call();
    SIM_STICKY();
    sim_link_t *l = calloc(1, sizeof *l);
    l->text = strdup(LINKED_MAGIC);
    l->n = n < 8 ? n : 8;
    memcpy(l->names, options, l->n * sizeof *options);
    memcpy(l->values, values, l->n * sizeof *values);
    *state = (CUlinkState)l;
    return CUDA_SUCCESS;
}

static void merge(names_t *into, const names_t *from) {
    for (size_t i = 0; i < from->n; ++i)
        names_add(into, from->v[i], strlen(from->v[i]));
}

SIM_EXPORT CUresult cuLinkAddData_v2(CUlinkState state, CUjitInputType type, void *data,
                                     size_t size, const char *name, unsigned int n,
                                     CUjit_option *options, void **values) {
    sim_count_call();
    SIM_STICKY();
    (void)size;
    (void)name;
    (void)n;
    (void)options;
    (void)values;
    sim_link_t *l = (sim_link_t *)state;
    if (type != CU_JIT_INPUT_PTX) {
        snprintf(l->log, sizeof l->log, "the simulated linker takes PTX only");
        set_log(l->values, l->names, l->n, CU_JIT_ERROR_LOG_BUFFER, l->log);
        return CUDA_ERROR_NOT_SUPPORTED;
    }
    ptx_info_t info;
    if (!read_ptx(data, &info, l->log, sizeof l->log)) {
        set_log(l->values, l->names, l->n, CU_JIT_ERROR_LOG_BUFFER, l->log);
        return CUDA_ERROR_INVALID_PTX;
    }
    // Two inputs defining one function is a link error.
    for (size_t i = 0; i < info.funcs.n; ++i) {
        if (names_has(&l->all.funcs, info.funcs.v[i])) {
            snprintf(l->log, sizeof l->log, "error   : Multiple definition of '%s' in '%s'",
                     info.funcs.v[i], name != NULL ? name : "input");
            set_log(l->values, l->names, l->n, CU_JIT_ERROR_LOG_BUFFER, l->log);
            info_free(&info);
            return CUDA_ERROR_INVALID_IMAGE;
        }
    }
    merge(&l->all.entries, &info.entries);
    merge(&l->all.funcs, &info.funcs);
    merge(&l->all.globals, &info.globals);
    drop_builtins(&info.extern_funcs);
    merge(&l->all.extern_funcs, &info.extern_funcs);
    merge(&l->all.extern_globals, &info.extern_globals);
    info_free(&info);
    size_t old = strlen(l->text), add = strlen(data);
    l->text = realloc(l->text, old + add + 2);
    memcpy(l->text + old, data, add);
    l->text[old + add] = '\n';
    l->text[old + add + 1] = '\0';
    return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuLinkComplete(CUlinkState state, void **cubin, size_t *size) {
    sim_count_call();
    SIM_STICKY();
    sim_link_t *l = (sim_link_t *)state;
    const names_t *externs[2] = {&l->all.extern_funcs, &l->all.extern_globals};
    const names_t *defs[2] = {&l->all.funcs, &l->all.globals};
    for (int k = 0; k < 2; ++k) {
        for (size_t i = 0; i < externs[k]->n; ++i) {
            if (!names_has(defs[k], externs[k]->v[i])) {
                snprintf(l->log, sizeof l->log, "error   : Undefined reference to '%s' in 'input0'",
                         externs[k]->v[i]);
                set_log(l->values, l->names, l->n, CU_JIT_ERROR_LOG_BUFFER, l->log);
                return CUDA_ERROR_INVALID_IMAGE;
            }
        }
    }
    set_log(l->values, l->names, l->n, CU_JIT_INFO_LOG_BUFFER, "info    : simulated link done");
    *cubin = l->text;
    *size = strlen(l->text) + 1;
    return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuLinkDestroy(CUlinkState state) {
    sim_count_call();
    sim_link_t *l = (sim_link_t *)state;
    info_free(&l->all);
    free(l->text);
    free(l);
    return CUDA_SUCCESS;
}

// ---- functions ----

SIM_EXPORT CUresult cuFuncGetAttribute(int *value, CUfunction_attribute attrib, CUfunction fn) {
    sim_count_call();
    SIM_STICKY();
    atomic_fetch_add(&function_queries, 1);
    (void)fn;
    switch (attrib) {
    case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
        *value = 1024;
        break;
    case CU_FUNC_ATTRIBUTE_NUM_REGS:
        *value = 16;
        break;
    default:
        *value = 0;
        break;
    }
    return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuFuncSetAttribute(CUfunction fn, CUfunction_attribute attrib, int value) {
    sim_count_call();
    SIM_STICKY();
    (void)fn;
    (void)attrib;
    return value >= 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

SIM_EXPORT CUresult cuFuncGetParamInfo(CUfunction fn, size_t index, size_t *offset, size_t *size) {
    sim_count_call();
    SIM_STICKY();
    atomic_fetch_add(&function_queries, 1);
    const sim_func_t *f = (const sim_func_t *)fn;
    if (!f->params_known || index >= f->nparams)
        return CUDA_ERROR_INVALID_VALUE;
    size_t at = 0;
    for (size_t i = 0; i < index; ++i)
        at += f->param_size[i];
    if (offset != NULL)
        *offset = at;
    if (size != NULL)
        *size = f->param_size[index];
    return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuFuncGetModule(CUmodule *module, CUfunction fn) {
    sim_count_call();
    SIM_STICKY();
    if (module == NULL || fn == NULL)
        return CUDA_ERROR_INVALID_VALUE;
    *module = (CUmodule)((const sim_func_t *)fn)->module;
    return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuFuncGetName(const char **name, CUfunction fn) {
    sim_count_call();
    SIM_STICKY();
    if (name == NULL || fn == NULL)
        return CUDA_ERROR_INVALID_VALUE;
    *name = ((const sim_func_t *)fn)->name;
    return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuOccupancyMaxPotentialBlockSize(int *min_grid, int *block, CUfunction fn,
                                                     CUoccupancyB2DSize to_shared, size_t shared,
                                                     int limit) {
    sim_count_call();
    SIM_STICKY();
    (void)fn;
    (void)to_shared;
    (void)shared;
    *min_grid = 132;
    *block = limit > 0 && limit < 1024 ? limit : 1024;
    return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *blocks, CUfunction fn,
                                                                int block_size, size_t shared) {
    sim_count_call();
    SIM_STICKY();
    (void)fn;
    (void)shared;
    *blocks = block_size > 0 ? 2048 / block_size : 0;
    return CUDA_SUCCESS;
}

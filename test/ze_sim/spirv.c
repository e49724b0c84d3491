// SPDX-License-Identifier: MIT
// A reader for the part of SPIR-V that a Level Zero driver must understand without compiling:
// kernel entry points and their parameters, execution modes, linkage (imports and exports),
// HostAccessINTEL names, and module-scope variables with their sizes and initial values.
// Every count and offset read from the binary is checked before it is used.
#include "ze_sim_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Opcodes, decorations and enumerants from the SPIR-V specification (only those used here).
enum {
    OP_UNDEF = 1,
    OP_MEMORY_MODEL = 14,
    OP_ENTRY_POINT = 15,
    OP_EXECUTION_MODE = 16,
    OP_TYPE_VOID = 19,
    OP_TYPE_BOOL = 20,
    OP_TYPE_INT = 21,
    OP_TYPE_FLOAT = 22,
    OP_TYPE_VECTOR = 23,
    OP_TYPE_MATRIX = 24,
    OP_TYPE_IMAGE = 25,
    OP_TYPE_SAMPLER = 26,
    OP_TYPE_SAMPLED_IMAGE = 27,
    OP_TYPE_ARRAY = 28,
    OP_TYPE_RUNTIME_ARRAY = 29,
    OP_TYPE_STRUCT = 30,
    OP_TYPE_OPAQUE = 31,
    OP_TYPE_POINTER = 32,
    OP_TYPE_FUNCTION = 33,
    OP_TYPE_EVENT = 34,
    OP_TYPE_DEVICE_EVENT = 35,
    OP_TYPE_RESERVE_ID = 36,
    OP_TYPE_QUEUE = 37,
    OP_TYPE_PIPE = 38,
    OP_CONSTANT_TRUE = 41,
    OP_CONSTANT_FALSE = 42,
    OP_CONSTANT = 43,
    OP_CONSTANT_COMPOSITE = 44,
    OP_CONSTANT_SAMPLER = 45,
    OP_CONSTANT_NULL = 46,
    OP_SPEC_CONSTANT_TRUE = 48,
    OP_SPEC_CONSTANT_FALSE = 49,
    OP_SPEC_CONSTANT = 50,
    OP_SPEC_CONSTANT_COMPOSITE = 51,
    OP_SPEC_CONSTANT_OP = 52,
    OP_FUNCTION = 54,
    OP_FUNCTION_PARAMETER = 55,
    OP_FUNCTION_END = 56,
    OP_VARIABLE = 59,
    OP_DECORATE = 71,
    OP_LABEL = 248,
    OP_EXECUTION_MODE_ID = 331,
};

enum {
    DEC_SPEC_ID = 1,
    DEC_CPACKED = 10,
    DEC_FUNC_PARAM_ATTR = 38,
    DEC_LINKAGE_ATTRIBUTES = 41,
    DEC_HOST_ACCESS_INTEL = 6188,
};

enum { SC_UNIFORM_CONSTANT = 0, SC_WORKGROUP = 4, SC_CROSS_WORKGROUP = 5 };
enum { EXEC_MODEL_KERNEL = 6 };
enum { MODE_LOCAL_SIZE = 17, MODE_SUBGROUP_SIZE = 35, MODE_LOCAL_SIZE_ID = 38 };
enum { ADDR_PHYSICAL32 = 1, ADDR_PHYSICAL64 = 2, MEM_MODEL_OPENCL = 2 };
enum { PARAM_ATTR_BYVAL = 2 };
enum { LINK_EXPORT = 0, LINK_IMPORT = 1, LINK_ONCE_ODR = 2 };

#define SPV_MAGIC         0x07230203u
#define SPV_MAGIC_SWAPPED 0x03022307u
#define SPV_HEADER_WORDS  5u
#define SPV_MAX_BOUND     4194303u     /* SPIR-V universal limit for result ids */
#define SPV_MAX_TYPE_SIZE (1ull << 40) /* anything larger is certainly malformed */
#define SPV_MAX_STORAGE   (256u << 20) /* module-scope storage per module */
#define SPV_MAX_DEPTH     64u          /* nesting of composite constants */

// What an id names, as far as this reader cares.
enum { ID_NONE, ID_TYPE, ID_CONST, ID_VAR, ID_FUNC, ID_PARAM };
enum { T_OTHER, T_BOOL, T_INT, T_FLOAT, T_VECTOR, T_MATRIX, T_ARRAY, T_STRUCT, T_POINTER };
enum { F_BYVAL = 1, F_PACKED = 2 };

// One record per id below the bound: small, since a module may declare a few million ids.
typedef struct spv_id {
    uint64_t size;  // types: byte size in memory
    uint32_t word;  // index of the defining instruction
    uint32_t align; // types: byte alignment
    uint8_t what;
    uint8_t tkind;
    uint16_t flags;
} spv_id_t;

// Decorations that carry a value or a name, kept in a list since few ids have them.
enum { D_SPEC_ID, D_LINK, D_HOST };
typedef struct spv_dec {
    uint32_t target;
    uint32_t kind;
    uint32_t value; // spec id, linkage type, or access qualifier
    char *name;
} spv_dec_t;

// first_param indexes pairs in spv_t.params; has_body tells a definition from an import.
typedef struct spv_fn {
    uint32_t id;
    uint32_t first_param, num_params;
    int has_body;
} spv_fn_t;

typedef struct spv_entry {
    uint32_t fn;
    char *name;
} spv_entry_t;

typedef struct spv {
    uint32_t *w; // host-order copy of the words
    size_t nwords;
    uint32_t bound;
    spv_id_t *ids;
    const ze_module_constants_t *spec;
    uint32_t addressing, memory_model;
    int have_memory_model;
    uint64_t storage_used;
    char *error;
    // Growing arrays: decorations, functions, parameters ({id, type} pairs), entry points,
    // execution modes (instruction indices), and module-scope variables (instruction indices).
    spv_dec_t *decs;
    size_t ndecs, cdecs;
    spv_fn_t *fns;
    size_t nfns, cfns;
    uint32_t *params;
    size_t nparams, cparams;
    spv_entry_t *entries;
    size_t nentries, centries;
    uint32_t *modes;
    size_t nmodes, cmodes;
    uint32_t *vars;
    size_t nvars, cvars;
} spv_t;

static int fail(spv_t *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(spv_t *s, const char *fmt, ...) {
    if (s->error)
        return -1; // the first error is the one worth reporting
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n >= 0 && (s->error = malloc((size_t)n + 1))) {
        va_start(ap, fmt);
        vsnprintf(s->error, (size_t)n + 1, fmt, ap);
        va_end(ap);
    }
    return -1;
}

// Grows an array of `size`-byte elements by one; NULL when out of memory.
// Doubling keeps the single pass linear however many instructions of a kind there are.
static void *push(spv_t *s, void **v, size_t *n, size_t *cap, size_t size) {
    if (*n == *cap) {
        size_t c = *cap ? *cap * 2 : 16;
        void *p = realloc(*v, c * size);
        if (!p) {
            fail(s, "out of host memory");
            return NULL;
        }
        *v = p;
        *cap = c;
    }
    return (char *)*v + (*n)++ * size;
}

#define PUSH(s, arr) push((s), (void **)&(s)->arr, &(s)->n##arr, &(s)->c##arr, sizeof(*(s)->arr))

// Decodes a literal string starting at word `at` of an instruction ending before `end`.
static char *read_string(spv_t *s, size_t at, size_t end, size_t *next) {
    for (size_t i = at; i < end; ++i) {
        for (unsigned b = 0; b < 4; ++b) {
            if (((s->w[i] >> (8 * b)) & 0xffu) != 0)
                continue;
            size_t len = (i - at) * 4 + b;
            char *str = malloc(len + 1);
            if (!str) {
                fail(s, "out of host memory");
                return NULL;
            }
            for (size_t k = 0; k < len; ++k)
                str[k] = (char)((s->w[at + k / 4] >> (8 * (k % 4))) & 0xffu);
            str[len] = '\0';
            if (next)
                *next = i + 1;
            return str;
        }
    }
    fail(s, "literal string at word %zu is not terminated inside its instruction", at);
    return NULL;
}

// Id 0 is never valid in SPIR-V; the bound is exclusive.
static int check_id(spv_t *s, uint32_t id, size_t at) {
    if (id == 0 || id >= s->bound)
        return fail(s, "id %u at word %zu is outside the bound %u", id, at, s->bound);
    return 0;
}

static int define(spv_t *s, uint32_t id, size_t at, uint8_t what) {
    if (check_id(s, id, at))
        return -1;
    if (s->ids[id].what != ID_NONE)
        return fail(s, "id %u is defined twice (word %zu)", id, at);
    s->ids[id].what = what;
    s->ids[id].word = (uint32_t)at;
    return 0;
}

// Returns the type record of `id`, or NULL (with an error) when it is not a known type.
static spv_id_t *type_of(spv_t *s, uint32_t id, size_t at) {
    if (check_id(s, id, at))
        return NULL;
    if (s->ids[id].what != ID_TYPE) {
        fail(s, "id %u used as a type at word %zu is not a type declared before", id, at);
        return NULL;
    }
    return &s->ids[id];
}

// Linear: modules carry few value decorations, and each is looked up once or twice.
static const spv_dec_t *find_dec(const spv_t *s, uint32_t target, uint32_t kind) {
    for (size_t i = 0; i < s->ndecs; ++i)
        if (s->decs[i].target == target && s->decs[i].kind == kind)
            return &s->decs[i];
    return NULL;
}

// The application's value for a specialisation constant, or NULL to keep the default.
static const void *spec_override(const spv_t *s, uint32_t id) {
    const spv_dec_t *d = find_dec(s, id, D_SPEC_ID);
    if (!d || !s->spec || !s->spec->pConstantIds || !s->spec->pConstantValues)
        return NULL;
    for (uint32_t i = 0; i < s->spec->numConstants; ++i)
        if (s->spec->pConstantIds[i] == d->value)
            return s->spec->pConstantValues[i];
    return NULL;
}

// Reads a scalar integer constant (array lengths, LocalSizeId operands).
static int const_u64(spv_t *s, uint32_t id, size_t at, uint64_t *out) {
    if (check_id(s, id, at))
        return -1;
    const spv_id_t *c = &s->ids[id];
    if (c->what != ID_CONST)
        return fail(s, "id %u at word %zu is not a constant", id, at);
    const uint32_t *ins = &s->w[c->word];
    uint32_t op = ins[0] & 0xffffu, wc = ins[0] >> 16;
    const spv_id_t *t = &s->ids[ins[1]];
    if ((op != OP_CONSTANT && op != OP_SPEC_CONSTANT) || t->tkind != T_INT)
        return fail(s, "id %u at word %zu is not an integer constant", id, at);
    uint64_t v = ins[3];
    if (wc > 4 && t->size > 4)
        v |= (uint64_t)ins[4] << 32;
    const void *o = op == OP_SPEC_CONSTANT ? spec_override(s, id) : NULL;
    if (o) {
        v = 0;
        memcpy(&v, o, t->size < sizeof(v) ? t->size : sizeof(v));
    }
    *out = v;
    return 0;
}

// ---------------------------------------------------------------------------------------------
// Types. SPIR-V declares a type before any use, so sizes are computed at declaration.

static uint64_t align_up(uint64_t v, uint64_t a) {
    return a > 1 ? (v + a - 1) / a * a : v;
}

static int set_type(spv_t *s, spv_id_t *t, uint8_t kind, uint64_t size, uint32_t align) {
    if (size > SPV_MAX_TYPE_SIZE)
        return fail(s, "type at word %u is larger than 2^40 bytes", t->word);
    t->tkind = kind;
    t->size = size;
    t->align = align ? align : 1;
    return 0;
}

// Offset of member `index` of a struct, with the same layout rules as its declaration.
static uint64_t member_offset(const spv_t *s, const spv_id_t *st, uint32_t index) {
    const uint32_t *ins = &s->w[st->word];
    uint32_t n = (ins[0] >> 16) - 2;
    uint64_t off = 0;
    for (uint32_t i = 0; i < n; ++i) {
        const spv_id_t *m = &s->ids[ins[2 + i]];
        if (!(st->flags & F_PACKED))
            off = align_up(off, m->align);
        if (i == index)
            return off;
        off += m->size;
    }
    return off;
}

static int parse_type(spv_t *s, uint32_t op, size_t at, uint32_t wc) {
    const uint32_t *ins = &s->w[at];
    if (define(s, ins[1], at, ID_TYPE))
        return -1;
    spv_id_t *t = &s->ids[ins[1]];
    // OpMemoryModel precedes every type, so the pointer width is known by now.
    const uint32_t ptr_size = s->addressing == ADDR_PHYSICAL32 ? 4 : 8;
    switch (op) {
    case OP_TYPE_BOOL:
        return set_type(s, t, T_BOOL, 1, 1);
    case OP_TYPE_INT:
    case OP_TYPE_FLOAT: {
        uint32_t bits = ins[2];
        if (bits != 8 && bits != 16 && bits != 32 && bits != 64)
            return fail(s, "unsupported %u-bit %s type at word %zu", bits,
                        op == OP_TYPE_INT ? "integer" : "float", at);
        return set_type(s, t, op == OP_TYPE_INT ? T_INT : T_FLOAT, bits / 8, bits / 8);
    }
    case OP_TYPE_VECTOR: {
        const spv_id_t *c = type_of(s, ins[2], at);
        uint32_t n = ins[3];
        if (!c)
            return -1;
        if (n != 2 && n != 3 && n != 4 && n != 8 && n != 16)
            return fail(s, "vector of %u components at word %zu", n, at);
        // OpenCL lays a 3-component vector out as 4 components.
        uint64_t size = c->size * (n == 3 ? 4 : n);
        return set_type(s, t, T_VECTOR, size, (uint32_t)size);
    }
        // Columns are laid out one after another, each aligned like the column vector.
    case OP_TYPE_MATRIX: {
        const spv_id_t *c = type_of(s, ins[2], at);
        if (!c)
            return -1;
        return set_type(s, t, T_MATRIX, c->size * ins[3], c->align);
    }
    case OP_TYPE_ARRAY: {
        const spv_id_t *e = type_of(s, ins[2], at);
        uint64_t n;
        if (!e || const_u64(s, ins[3], at, &n))
            return -1;
        // The element size is already padded to its alignment, so the stride is the size.
        if (n == 0 || (e->size && n > SPV_MAX_TYPE_SIZE / e->size))
            return fail(s, "array of %llu elements at word %zu", (unsigned long long)n, at);
        return set_type(s, t, T_ARRAY, e->size * n, e->align);
    }
        // Unsized: it contributes nothing to a variable's storage.
    case OP_TYPE_RUNTIME_ARRAY: {
        const spv_id_t *e = type_of(s, ins[2], at);
        return e ? set_type(s, t, T_ARRAY, 0, e->align) : -1;
    }
    case OP_TYPE_STRUCT: {
        uint64_t size = 0;
        uint32_t align = 1;
        for (uint32_t i = 2; i < wc; ++i) {
            const spv_id_t *m = type_of(s, ins[i], at);
            if (!m)
                return -1;
            // Natural layout, as OpenCL C lays out structs, unless the struct is CPacked.
            if (!(t->flags & F_PACKED)) {
                size = align_up(size, m->align);
                if (m->align > align)
                    align = m->align;
            }
            size += m->size;
            if (size > SPV_MAX_TYPE_SIZE)
                return fail(s, "struct at word %zu is larger than 2^40 bytes", at);
        }
        return set_type(s, t, T_STRUCT, align_up(size, align), align);
    }
    case OP_TYPE_POINTER:
        // The pointee may be declared later (OpTypeForwardPointer), so it is not checked here.
        if (check_id(s, ins[3], at))
            return -1;
        return set_type(s, t, T_POINTER, ptr_size, ptr_size);
    case OP_TYPE_IMAGE:
    case OP_TYPE_SAMPLER:
    case OP_TYPE_SAMPLED_IMAGE:
    case OP_TYPE_EVENT:
    case OP_TYPE_DEVICE_EVENT:
    case OP_TYPE_RESERVE_ID:
    case OP_TYPE_QUEUE:
    case OP_TYPE_PIPE:
        // Opaque handles are passed to kernels as 64-bit values.
        return set_type(s, t, T_OTHER, 8, 8);
    default: // void, function, opaque: no storage
        return set_type(s, t, T_OTHER, 0, 1);
    }
}

// ---------------------------------------------------------------------------------------------
// Constants: written straight into a variable's storage, recursively for composites.

static int write_const(spv_t *s, uint32_t id, unsigned char *dst, uint64_t room, unsigned depth) {
    if (depth > SPV_MAX_DEPTH)
        return fail(s, "composite constants nested deeper than %u", SPV_MAX_DEPTH);
    if (check_id(s, id, 0))
        return -1;
    const spv_id_t *c = &s->ids[id];
    if (c->what != ID_CONST)
        return fail(s, "initializer id %u is not a constant", id);
    const uint32_t *ins = &s->w[c->word];
    uint32_t op = ins[0] & 0xffffu, wc = ins[0] >> 16;
    // room is what is left of the destination; a mismatched type cannot write past it.
    const spv_id_t *t = &s->ids[ins[1]];
    if (t->size > room)
        return fail(s, "constant %u does not fit where it is used", id);
    switch (op) {
    case OP_CONSTANT:
    case OP_SPEC_CONSTANT: {
        const void *o = op == OP_SPEC_CONSTANT ? spec_override(s, id) : NULL;
        if (o) {
            memcpy(dst, o, t->size);
            return 0;
        }
        // Literal words hold the value little-endian first, whatever the host order.
        for (uint64_t b = 0; b < t->size && 3 + b / 4 < wc; ++b)
            dst[b] = (unsigned char)(ins[3 + b / 4] >> (8 * (b % 4)));
        return 0;
    }
    case OP_CONSTANT_TRUE:
    case OP_SPEC_CONSTANT_TRUE:
    case OP_SPEC_CONSTANT_FALSE: {
        const void *o = op != OP_CONSTANT_TRUE ? spec_override(s, id) : NULL;
        dst[0] = o ? (*(const unsigned char *)o != 0) : (op != OP_SPEC_CONSTANT_FALSE);
        return 0;
    }
    case OP_CONSTANT_COMPOSITE:
    case OP_SPEC_CONSTANT_COMPOSITE: {
        uint64_t stride = 0;
        // Word 2 of a vector, array or matrix type is its element type.
        if (t->tkind == T_VECTOR || t->tkind == T_ARRAY || t->tkind == T_MATRIX)
            stride = s->ids[s->w[t->word + 2]].size;
        for (uint32_t i = 3; i < wc; ++i) {
            uint64_t off =
                t->tkind == T_STRUCT ? member_offset(s, t, i - 3) : (uint64_t)(i - 3) * stride;
            if (off > t->size)
                return fail(s, "composite constant %u has too many constituents", id);
            if (write_const(s, ins[i], dst + off, t->size - off, depth + 1))
                return -1;
        }
        return 0;
    }
    default: // OpConstantNull, OpConstantFalse, OpUndef, OpSpecConstantOp, samplers: zero
        return 0;
    }
}

// ---------------------------------------------------------------------------------------------
// The single pass over the instruction stream.

static int parse_decorate(spv_t *s, size_t at, uint32_t wc) {
    const uint32_t *ins = &s->w[at];
    uint32_t target = ins[1], dec = ins[2];
    if (check_id(s, target, at))
        return -1;
    if (dec == DEC_CPACKED ||
        (dec == DEC_FUNC_PARAM_ATTR && wc >= 4 && ins[3] == PARAM_ATTR_BYVAL)) {
        // Flags on ids not yet defined are kept until the definition arrives.
        s->ids[target].flags |= dec == DEC_CPACKED ? F_PACKED : F_BYVAL;
        return 0;
    }
    if (dec != DEC_SPEC_ID && dec != DEC_LINKAGE_ATTRIBUTES && dec != DEC_HOST_ACCESS_INTEL)
        return 0;
    if (wc < 4)
        return fail(s, "truncated OpDecorate at word %zu", at);
    // For SpecId the value is the id the application uses in ze_module_constants_t.
    spv_dec_t d = {target, D_SPEC_ID, ins[3], NULL};
    if (dec == DEC_LINKAGE_ATTRIBUTES) {
        size_t next;
        d.kind = D_LINK;
        if (!(d.name = read_string(s, at + 3, at + wc, &next)))
            return -1;
        if (next >= at + wc || s->w[next] > LINK_ONCE_ODR) {
            free(d.name);
            return fail(s, "LinkageAttributes at word %zu lacks a valid linkage type", at);
        }
        d.value = s->w[next];
    } else if (dec == DEC_HOST_ACCESS_INTEL) {
        d.kind = D_HOST;
        if (wc < 5 || !(d.name = read_string(s, at + 4, at + wc, NULL)))
            return fail(s, "HostAccessINTEL at word %zu lacks a name", at);
    }
    spv_dec_t *slot = PUSH(s, decs);
    if (!slot) {
        free(d.name);
        return -1;
    }
    *slot = d;
    return 0;
}

static int parse_entry_point(spv_t *s, size_t at, uint32_t wc) {
    const uint32_t *ins = &s->w[at];
    if (ins[1] != EXEC_MODEL_KERNEL)
        return 0; // only OpenCL kernels can be launched through Level Zero
    if (check_id(s, ins[2], at))
        return -1;
    char *name = read_string(s, at + 3, at + wc, NULL);
    if (!name)
        return -1;
    for (size_t i = 0; i < s->nentries; ++i) {
        if (strcmp(s->entries[i].name, name) == 0) {
            fail(s, "kernel %s is declared twice", name);
            free(name);
            return -1;
        }
    }
    spv_entry_t *e = PUSH(s, entries);
    if (!e) {
        free(name);
        return -1;
    }
    // The function may be defined later in the module; build_kernel checks it exists.
    e->fn = ins[2];
    e->name = name;
    return 0;
}

// Minimum word counts of the instructions this reader looks into.
static uint32_t min_words(uint32_t op) {
    switch (op) {
    case OP_TYPE_INT:
    case OP_TYPE_VECTOR:
    case OP_TYPE_MATRIX:
    case OP_TYPE_ARRAY:
    case OP_TYPE_POINTER:
    case OP_ENTRY_POINT:
    case OP_CONSTANT:
    case OP_SPEC_CONSTANT:
    case OP_VARIABLE:
        return 4;
    case OP_FUNCTION:
        return 5;
    case OP_MEMORY_MODEL:
    case OP_EXECUTION_MODE:
    case OP_EXECUTION_MODE_ID:
    case OP_DECORATE:
    case OP_TYPE_FLOAT:
    case OP_TYPE_RUNTIME_ARRAY:
    case OP_FUNCTION_PARAMETER:
    case OP_CONSTANT_TRUE:
    case OP_CONSTANT_FALSE:
    case OP_CONSTANT_NULL:
    case OP_CONSTANT_COMPOSITE:
    case OP_SPEC_CONSTANT_TRUE:
    case OP_SPEC_CONSTANT_FALSE:
    case OP_SPEC_CONSTANT_COMPOSITE:
    case OP_UNDEF:
        return 3;
    default:
        return (op >= OP_TYPE_VOID && op <= OP_TYPE_PIPE) ? 2 : 1;
    }
}

static int parse_instruction(spv_t *s, size_t at, uint32_t op, uint32_t wc, int *in_fn) {
    const uint32_t *ins = &s->w[at];
    if (wc < min_words(op))
        return fail(s, "truncated instruction (opcode %u, %u words) at word %zu", op, wc, at);
    switch (op) {
    case OP_MEMORY_MODEL:
        s->addressing = ins[1];
        s->memory_model = ins[2];
        s->have_memory_model = 1;
        return 0;
    case OP_ENTRY_POINT:
        return parse_entry_point(s, at, wc);
    case OP_EXECUTION_MODE:
    case OP_EXECUTION_MODE_ID: {
        uint32_t *slot = PUSH(s, modes);
        return slot ? (*slot = (uint32_t)at, 0) : -1;
    }
    case OP_DECORATE:
        return parse_decorate(s, at, wc);
    case OP_FUNCTION: {
        if (*in_fn)
            return fail(s, "OpFunction at word %zu inside another function", at);
        if (define(s, ins[2], at, ID_FUNC))
            return -1;
        spv_fn_t *f = PUSH(s, fns);
        if (!f)
            return -1;
        *f = (spv_fn_t){ins[2], (uint32_t)(s->nparams / 2), 0, 0}; // params holds pairs
        *in_fn = 1;
        return 0;
    }
    case OP_FUNCTION_PARAMETER: {
        if (!*in_fn || s->fns[s->nfns - 1].has_body)
            return fail(s, "OpFunctionParameter at word %zu outside a function header", at);
        if (define(s, ins[2], at, ID_PARAM) || !type_of(s, ins[1], at))
            return -1;
        uint32_t *p = PUSH(s, params);
        uint32_t *q = p ? PUSH(s, params) : NULL;
        if (!q)
            return -1;
        *p = ins[2];
        *q = ins[1];
        s->fns[s->nfns - 1].num_params++;
        return 0;
    }
    case OP_LABEL:
        if (*in_fn)
            s->fns[s->nfns - 1].has_body = 1;
        return 0;
    case OP_FUNCTION_END:
        if (!*in_fn)
            return fail(s, "OpFunctionEnd at word %zu without OpFunction", at);
        *in_fn = 0;
        return 0;
    default:
        break;
    }
    // Below: module-scope types, constants and variables.
    if (*in_fn)
        return 0; // function bodies are not simulated
    if (op >= OP_TYPE_VOID && op <= OP_TYPE_PIPE)
        return parse_type(s, op, at, wc);
    if (op == OP_UNDEF || (op >= OP_CONSTANT_TRUE && op <= OP_SPEC_CONSTANT_OP)) {
        if (!type_of(s, ins[1], at) || define(s, ins[2], at, ID_CONST))
            return -1;
        return 0;
    }
    if (op == OP_VARIABLE) {
        if (!type_of(s, ins[1], at) || define(s, ins[2], at, ID_VAR))
            return -1;
        uint32_t *slot = PUSH(s, vars);
        return slot ? (*slot = (uint32_t)at, 0) : -1;
    }
    return 0;
}

// Every instruction's word count is checked against the end before anything reads it.
static int parse_stream(spv_t *s) {
    int in_fn = 0;
    size_t at = SPV_HEADER_WORDS;
    while (at < s->nwords) {
        uint32_t op = s->w[at] & 0xffffu, wc = s->w[at] >> 16;
        if (wc == 0)
            return fail(s, "instruction at word %zu has a word count of 0", at);
        if (wc > s->nwords - at)
            return fail(s, "instruction at word %zu (opcode %u) runs past the end of the module",
                        at, op);
        if (parse_instruction(s, at, op, wc, &in_fn))
            return -1;
        at += wc;
    }
    if (in_fn)
        return fail(s, "the last function has no OpFunctionEnd");
    if (!s->have_memory_model)
        return fail(s, "no OpMemoryModel");
    if (s->memory_model != MEM_MODEL_OPENCL ||
        (s->addressing != ADDR_PHYSICAL32 && s->addressing != ADDR_PHYSICAL64))
        return fail(s, "not an OpenCL (Kernel) module: addressing model %u, memory model %u",
                    s->addressing, s->memory_model);
    return 0;
}

// ---------------------------------------------------------------------------------------------
// Building the unit from what the pass collected.

static const spv_fn_t *find_fn(const spv_t *s, uint32_t id) {
    for (size_t i = 0; i < s->nfns; ++i)
        if (s->fns[i].id == id)
            return &s->fns[i];
    return NULL;
}

static int build_kernel(spv_t *s, const spv_entry_t *e, sim_spv_kernel_t *k) {
    const spv_fn_t *fn = find_fn(s, e->fn);
    if (!fn || !fn->has_body)
        return fail(s, "entry point %s does not name a function with a body", e->name);
    k->name = sim_strdup(e->name);
    k->num_args = fn->num_params;
    k->arg_size = calloc(fn->num_params ? fn->num_params : 1, sizeof(uint32_t));
    k->arg_local = calloc(fn->num_params ? fn->num_params : 1, 1);
    if (!k->name || !k->arg_size || !k->arg_local)
        return fail(s, "out of host memory");
    for (uint32_t i = 0; i < fn->num_params; ++i) {
        uint32_t pid = s->params[2 * (fn->first_param + i)];
        const spv_id_t *t = &s->ids[s->params[2 * (fn->first_param + i) + 1]];
        // Pointer parameters: local memory, a by-value aggregate, or a plain address.
        if (t->tkind == T_POINTER) {
            const uint32_t *pt = &s->w[t->word];
            const spv_id_t *pointee = &s->ids[pt[3]];
            if (pt[2] == SC_WORKGROUP)
                k->arg_local[i] = 1; // local memory: only a size is given, no value
            else if ((s->ids[pid].flags & F_BYVAL) && pointee->what == ID_TYPE)
                k->arg_size[i] = pointee->size <= UINT32_MAX ? (uint32_t)pointee->size : 0;
            else
                k->arg_size[i] = (uint32_t)t->size;
        } else {
            k->arg_size[i] = t->size <= UINT32_MAX ? (uint32_t)t->size : 0;
        }
    }
    // Execution modes: a required work-group size and a required sub-group size.
    for (size_t m = 0; m < s->nmodes; ++m) {
        const uint32_t *ins = &s->w[s->modes[m]];
        uint32_t op = ins[0] & 0xffffu, wc = ins[0] >> 16;
        if (ins[1] != e->fn)
            continue;
        if (op == OP_EXECUTION_MODE && ins[2] == MODE_LOCAL_SIZE && wc >= 6) {
            memcpy(k->local_size, &ins[3], sizeof(k->local_size));
        } else if (op == OP_EXECUTION_MODE && ins[2] == MODE_SUBGROUP_SIZE && wc >= 4) {
            k->subgroup_size = ins[3];
        } else if (op == OP_EXECUTION_MODE_ID && ins[2] == MODE_LOCAL_SIZE_ID && wc >= 6) {
            for (int d = 0; d < 3; ++d) {
                uint64_t v;
                if (const_u64(s, ins[3 + d], s->modes[m], &v))
                    return -1;
                k->local_size[d] = (uint32_t)v;
            }
        }
    }
    return 0;
}

static int add_symbol(spv_t *s, sim_spv_symbol_t **v, uint32_t *n, const spv_dec_t *d, int fn) {
    sim_spv_symbol_t *p = realloc(*v, (*n + 1) * sizeof(**v));
    if (!p)
        return fail(s, "out of host memory");
    *v = p;
    p[*n] = (sim_spv_symbol_t){sim_strdup(d->name), fn, d->value == LINK_ONCE_ODR};
    if (!p[*n].name)
        return fail(s, "out of host memory");
    (*n)++;
    return 0;
}

static int build_global(spv_t *s, uint32_t at, sim_spv_unit_t *u) {
    const uint32_t *ins = &s->w[at];
    uint32_t id = ins[2], sc = ins[3], wc = ins[0] >> 16;
    if (sc != SC_CROSS_WORKGROUP && sc != SC_UNIFORM_CONSTANT)
        return 0; // builtins (Input) and local memory (Workgroup) have no host storage
    const spv_id_t *pt = &s->ids[ins[1]];
    if (pt->tkind != T_POINTER)
        return fail(s, "variable %u at word %u does not have a pointer type", id, at);
    const spv_id_t *t = type_of(s, s->w[pt->word + 3], at);
    if (!t)
        return -1;
    const spv_dec_t *link = find_dec(s, id, D_LINK);
    const spv_dec_t *host = find_dec(s, id, D_HOST);
    // An imported variable has no storage here; linking points it at the exporter's.
    if (link && link->value == LINK_IMPORT)
        return add_symbol(s, &u->imports, &u->num_imports, link, 0);
    if (t->size > SPV_MAX_STORAGE - s->storage_used)
        return fail(s, "module-scope variables need more than %u MiB", SPV_MAX_STORAGE >> 20);
    s->storage_used += t->size;

    sim_spv_global_t *g = &u->globals[u->num_globals++];
    g->size = t->size;
    // At least one byte, so that every variable has its own address.
    if (!(g->storage = calloc(1, t->size ? t->size : 1)) ||
        (host && !(g->host_name = sim_strdup(host->name))) ||
        (link && !(g->export_name = sim_strdup(link->name))))
        return fail(s, "out of host memory");
    g->link_once = link && link->value == LINK_ONCE_ODR;
    // Without an initializer the storage stays zero, as OpenCL program-scope variables are.
    if (wc > 4 && write_const(s, ins[4], g->storage, t->size, 0))
        return -1;
    return 0;
}

static sim_spv_unit_t *build_unit(spv_t *s, uint32_t version) {
    sim_spv_unit_t *u = calloc(1, sizeof(*u));
    if (!u) {
        fail(s, "out of host memory");
        return NULL;
    }
    u->version = version;
    u->kernels = calloc(s->nentries ? s->nentries : 1, sizeof(*u->kernels));
    u->globals = calloc(s->nvars ? s->nvars : 1, sizeof(*u->globals));
    if (!u->kernels || !u->globals) {
        fail(s, "out of host memory");
        goto fail;
    }
    for (size_t i = 0; i < s->nentries; ++i, ++u->num_kernels)
        if (build_kernel(s, &s->entries[i], &u->kernels[i]))
            goto fail_count;
    for (size_t i = 0; i < s->nvars; ++i)
        if (build_global(s, s->vars[i], u))
            goto fail;
    for (size_t i = 0; i < s->nfns; ++i) {
        const spv_dec_t *link = find_dec(s, s->fns[i].id, D_LINK);
        if (!link)
            continue;
        int import = link->value == LINK_IMPORT;
        if (import && s->fns[i].has_body) {
            fail(s, "imported function %s has a body", link->name);
            goto fail;
        }
        if (!import && !s->fns[i].has_body) {
            fail(s, "exported function %s has no body", link->name);
            goto fail;
        }
        if (add_symbol(s, import ? &u->imports : &u->exports,
                       import ? &u->num_imports : &u->num_exports, link, 1))
            goto fail;
    }
    return u;
fail_count:
    u->num_kernels++; // the failed kernel may hold allocations too
fail:
    sim_spv_free(u);
    return NULL;
}

void sim_spv_free(sim_spv_unit_t *u) {
    if (!u)
        return;
    for (uint32_t i = 0; u->kernels && i < u->num_kernels; ++i) {
        free(u->kernels[i].name);
        free(u->kernels[i].arg_size);
        free(u->kernels[i].arg_local);
    }
    for (uint32_t i = 0; u->globals && i < u->num_globals; ++i) {
        free(u->globals[i].host_name);
        free(u->globals[i].export_name);
        free(u->globals[i].storage);
    }
    for (uint32_t i = 0; i < u->num_exports; ++i)
        free(u->exports[i].name);
    for (uint32_t i = 0; i < u->num_imports; ++i)
        free(u->imports[i].name);
    free(u->kernels);
    free(u->globals);
    free(u->exports);
    free(u->imports);
    free(u);
}

// ---------------------------------------------------------------------------------------------

static int read_header(spv_t *s, const void *data, size_t size, uint32_t *version) {
    if (size % 4)
        return fail(s, "SPIR-V size %zu is not a multiple of 4", size);
    if (size < SPV_HEADER_WORDS * 4)
        return fail(s, "SPIR-V size %zu is smaller than the 20-byte header", size);
    s->nwords = size / 4;
    if (!(s->w = malloc(size)))
        return fail(s, "out of host memory");
    memcpy(s->w, data, size);
    // memcpy above gives host-order words whichever order the file uses, then this fixes it.
    if (s->w[0] == SPV_MAGIC_SWAPPED) {
        // The module was written in the other byte order; every word is swapped back.
        for (size_t i = 0; i < s->nwords; ++i)
            s->w[i] = __builtin_bswap32(s->w[i]);
    } else if (s->w[0] != SPV_MAGIC) {
        return fail(s, "bad SPIR-V magic number 0x%08x (expected 0x%08x)", s->w[0], SPV_MAGIC);
    }
    uint32_t v = s->w[1];
    uint32_t major = (v >> 16) & 0xffu, minor = (v >> 8) & 0xffu;
    // The version word is 0x00MMmm00; the outer bytes must be zero.
    if ((v & 0xff0000ffu) != 0 || major != 1)
        return fail(s, "bad SPIR-V version word 0x%08x", v);
    if (ZE_MAKE_VERSION(major, minor) > SIM_SPIRV_VERSION_MAX)
        return fail(s, "SPIR-V %u.%u is newer than the supported %u.%u", major, minor,
                    ZE_MAJOR_VERSION(SIM_SPIRV_VERSION_MAX),
                    ZE_MINOR_VERSION(SIM_SPIRV_VERSION_MAX));
    s->bound = s->w[3];
    // A bound far above the module's size would only make the id table huge.
    if (s->bound == 0 || s->bound > SPV_MAX_BOUND || s->bound > 4 * s->nwords + 1024)
        return fail(s, "implausible SPIR-V id bound %u for %zu words", s->bound, s->nwords);
    if (!(s->ids = calloc(s->bound, sizeof(*s->ids))))
        return fail(s, "out of host memory");
    *version = ZE_MAKE_VERSION(major, minor);
    return 0;
}

sim_spv_unit_t *sim_spv_parse(const void *data, size_t size, const ze_module_constants_t *spec,
                              char **error) {
    spv_t s = {0};
    s.spec = spec;
    uint32_t version = 0;
    sim_spv_unit_t *u = NULL;
    if (!data)
        fail(&s, "no SPIR-V input");
    else if (read_header(&s, data, size, &version) == 0 && parse_stream(&s) == 0)
        u = build_unit(&s, version);
    for (size_t i = 0; i < s.ndecs; ++i)
        free(s.decs[i].name);
    for (size_t i = 0; i < s.nentries; ++i)
        free(s.entries[i].name);
    free(s.decs);
    free(s.entries);
    free(s.fns);
    free(s.params);
    free(s.modes);
    free(s.vars);
    free(s.ids);
    free(s.w);
    *error = s.error;
    if (!u && !*error)
        *error = sim_strdup("out of host memory");
    return u;
}

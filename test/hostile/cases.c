// SPDX-License-Identifier: MIT
// Which bad values each parameter gets, the baseline the other parameters keep, and what UR's
// rules expect back. A case changes exactly one parameter of a baseline made from the
// fixture, so the result it gets is about that parameter.
#include "cases.h"

#include <string.h>

#define MAX_PARAMS    32
#define SCRATCH_BYTES 4096
#define STRUCT_BYTES  2048

static _Alignas(64) unsigned char scratch[MAX_PARAMS][SCRATCH_BYTES];
static _Alignas(64) unsigned char structs[MAX_PARAMS][STRUCT_BYTES];
static _Alignas(64) ur_base_properties_t cycle_partner;
static void *handle_arrays[MAX_PARAMS][4];
static size_t ones[4] = {1, 1, 1, 1};
static size_t work[4];
static ur_exp_kernel_arg_properties_t bad_arg;
static const char hostile_name[] = "hostile";

static void noop_callback(void) {}

static bool is_pointer_kind(hostile_param_kind_t k) {
    return k == HOSTILE_HANDLE_ARRAY || k == HOSTILE_STRUCT || k == HOSTILE_STRING ||
           k == HOSTILE_BOUNDS_PTR || k == HOSTILE_PTR;
}

static bool is_destroying(const hostile_fn_t *fn) {
    return strstr(fn->name, "Release") != NULL || strstr(fn->name, "Free") != NULL ||
           strstr(fn->name, "Destroy") != NULL || strstr(fn->name, "TearDown") != NULL;
}

static bool is_launch(const hostile_fn_t *fn) {
    return strstr(fn->name, "KernelLaunch") != NULL;
}

static bool is_work_array(const hostile_param_t *p) {
    return (p->flags & HOSTILE_SIZE_ARRAY) && strstr(p->name, "Work") != NULL;
}

static void put_ptr(hostile_slot_t *s, const void *p) {
    memcpy(s->bytes, &p, sizeof p);
}

static void put_number(hostile_slot_t *s, size_t size, uint64_t v) {
    // Little-endian: the low bytes of v are the value of any narrower integer.
    memcpy(s->bytes, &v, size < sizeof v ? size : sizeof v);
}

static const void *get_ptr(const hostile_slot_t *s) {
    const void *p;
    memcpy(&p, s->bytes, sizeof p);
    return p;
}

static void *fresh_struct(const hostile_param_t *p, int i) {
    memset(structs[i], 0, STRUCT_BYTES);
    size_t size = p->size <= STRUCT_BYTES / 4 ? p->size : STRUCT_BYTES / 4;
    for (int k = 0; k < 4 && p->stype >= 0 && p->size >= sizeof(ur_structure_type_t); ++k)
        memcpy(structs[i] + (size_t)k * size, &p->stype, sizeof p->stype);
    return structs[i];
}

static bool array_starts_null(const hostile_fn_t *fn, const hostile_param_t *p) {
    if (!(p->flags & HOSTILE_ARRAY))
        return (p->flags & HOSTILE_OPT) && !(p->flags & HOSTILE_OUT);
    return fn->params[p->count].baseline_count == 0 && (p->flags & HOSTILE_OPT);
}

// The baseline: every parameter as a careful caller would pass it, from the fixture.
static void baseline(const hostile_fixture_t *f, const hostile_fn_t *fn, hostile_slot_t *a) {
    for (unsigned i = 0; i < fn->nparams && i < MAX_PARAMS; ++i) {
        const hostile_param_t *p = &fn->params[i];
        memset(a[i].bytes, 0, sizeof a[i].bytes);
        memset(scratch[i], 0, SCRATCH_BYTES);
        switch (p->kind) {
        case HOSTILE_HANDLE:
            put_ptr(&a[i], p->handle >= 0 ? f->handles[p->handle] : NULL);
            break;
        case HOSTILE_HANDLE_ARRAY:
            for (int k = 0; k < 4; ++k)
                handle_arrays[i][k] = p->handle >= 0 ? f->handles[p->handle] : NULL;
            put_ptr(&a[i], array_starts_null(fn, p) ? NULL : handle_arrays[i]);
            break;
        case HOSTILE_STRUCT:
            put_ptr(&a[i], array_starts_null(fn, p) ? NULL : fresh_struct(p, (int)i));
            break;
        case HOSTILE_STRING:
            put_ptr(&a[i], hostile_name);
            break;
        case HOSTILE_BOUNDS_PTR:
            put_ptr(&a[i], f->usm != NULL ? f->usm : scratch[i]);
            break;
        case HOSTILE_PTR:
            if (array_starts_null(fn, p))
                put_ptr(&a[i], NULL);
            else
                put_ptr(&a[i], (p->flags & HOSTILE_SIZE_ARRAY) ? (void *)ones : scratch[i]);
            break;
        case HOSTILE_ENUM:
            put_number(&a[i], p->size, p->first);
            break;
        case HOSTILE_NUMBER:
            if (p->flags & HOSTILE_COUNT)
                put_number(&a[i], p->size, (uint64_t)p->baseline_count);
            else if (p->flags & HOSTILE_WORK_DIM)
                put_number(&a[i], p->size, 3);
            else if (p->size == sizeof(size_t))
                put_number(&a[i], p->size, 64);
            break;
        case HOSTILE_BOOL:
            a[i].bytes[0] = 1;
            break;
        case HOSTILE_CALLBACK:
            if (!(p->flags & HOSTILE_OPT)) {
                void (*cb)(void) = noop_callback;
                memcpy(a[i].bytes, &cb, sizeof cb);
            }
            break;
        case HOSTILE_RECT_REGION: {
            ur_rect_region_t r = {1, 1, 1};
            memcpy(a[i].bytes, &r, sizeof r);
            break;
        }
        default: // flags 0, native handles 0, offsets and other structs zero
            break;
        }
    }
    // An append's optional outputs start NULL: a signal event needs device support and a
    // command handle an updatable buffer, and a case should meet the rules of its own
    // parameter, as its urEnqueue* twin's case does.
    if (strncmp(fn->name, "urCommandBufferAppend", strlen("urCommandBufferAppend")) == 0)
        for (unsigned i = 0; i < fn->nparams && i < MAX_PARAMS; ++i)
            if ((fn->params[i].flags & HOSTILE_OUT) && (fn->params[i].flags & HOSTILE_OPT))
                put_ptr(&a[i], NULL);
    // An update starts from the fixture's finalized buffer and a description of its kernel
    // command that changes nothing.
    if (strcmp(fn->name, "urCommandBufferUpdateKernelLaunchExp") == 0 && f->update_cb != NULL) {
        put_ptr(&a[0], f->update_cb);
        ur_exp_command_buffer_update_kernel_launch_desc_t *u = (void *)structs[2];
        u->hCommand = f->handles[HOSTILE_HK_EXP_COMMAND_BUFFER_COMMAND];
        u->newWorkDim = 1;
    }
}

// ---- the catalogue ----

static bool applies(const hostile_fn_t *fn, const hostile_param_t *p, hostile_mutation_t m) {
    bool opt = (p->flags & HOSTILE_OPT) != 0;
    switch (m) {
    case HM_NULL:
        if (opt && is_destroying(fn))
            return false; // the call would go ahead and destroy the fixture's object
        if (p->kind == HOSTILE_HANDLE || p->kind == HOSTILE_CALLBACK)
            return true;
        return is_pointer_kind(p->kind) && !array_starts_null(fn, p);
    case HM_NULL_ELEMENT:
        return p->kind == HOSTILE_HANDLE_ARRAY && !array_starts_null(fn, p);
    case HM_WRONG_KIND:
        return p->kind == HOSTILE_HANDLE;
    case HM_BAD_ENUM:
        return p->kind == HOSTILE_ENUM;
    case HM_BAD_FLAGS:
        return p->kind == HOSTILE_FLAGS && p->mask != 0;
    case HM_PNEXT_SELF:
    case HM_PNEXT_CYCLE:
        return p->kind == HOSTILE_STRUCT && p->pnext;
    case HM_ZERO:
    case HM_ONE:
    case HM_MAX:
    case HM_HALF:
        if (p->kind != HOSTILE_NUMBER || (p->flags & HOSTILE_COUNT))
            return false;
        if (p->flags & HOSTILE_WORK_DIM)
            return m == HM_ZERO;
        if (p->flags & HOSTILE_HOST_LENGTH)
            return m == HM_ZERO;
        return m != HM_HALF || p->size == sizeof(size_t);
    case HM_COUNT_FLIP:
        return p->kind == HOSTILE_NUMBER && (p->flags & HOSTILE_COUNT);
    case HM_RECT_X:
    case HM_RECT_Y:
    case HM_RECT_Z:
    case HM_RECT_HALF:
        return p->kind == HOSTILE_RECT_OFFSET || p->kind == HOSTILE_RECT_REGION;
    case HM_WORK_ZERO:
    case HM_WORK_MAX:
    case HM_WORK_OVERFLOW:
        return is_work_array(p);
    case HM_WORK_DIM_FOUR:
        return p->kind == HOSTILE_NUMBER && (p->flags & HOSTILE_WORK_DIM);
    case HM_ARG_INDEX:
        return p->kind == HOSTILE_STRUCT && (p->flags & HOSTILE_KERNEL_ARGS);
    default:
        return false;
    }
}

size_t hostile_cases(hostile_case_t *out, size_t max) {
    size_t n = 0;
    for (int phase = 0; phase < 2; ++phase)
        for (size_t f = 0; f < hostile_fn_count; ++f) {
            const hostile_fn_t *fn = &hostile_fns[f];
            for (unsigned i = 0; i < fn->nparams && i < MAX_PARAMS; ++i)
                for (int m = 0; m < HM_COUNT_; ++m) {
                    if ((m == HM_WRONG_KIND) != (phase == 1) || !applies(fn, &fn->params[i], m))
                        continue;
                    if (n < max)
                        out[n] = (hostile_case_t){(uint16_t)f, (uint8_t)i, (uint8_t)m};
                    ++n;
                }
        }
    return n;
}

const char *hostile_mutation_class(hostile_mutation_t m) {
    switch (m) {
    case HM_NULL:
    case HM_NULL_ELEMENT:
        return "null";
    case HM_WRONG_KIND:
        return "kind";
    case HM_BAD_ENUM:
        return "enum";
    case HM_BAD_FLAGS:
        return "flags";
    case HM_PNEXT_SELF:
    case HM_PNEXT_CYCLE:
        return "pnext";
    case HM_COUNT_FLIP:
        return "count";
    case HM_RECT_X:
    case HM_RECT_Y:
    case HM_RECT_Z:
    case HM_RECT_HALF:
        return "rect";
    case HM_WORK_ZERO:
    case HM_WORK_MAX:
    case HM_WORK_OVERFLOW:
    case HM_WORK_DIM_FOUR:
        return "work";
    case HM_ARG_INDEX:
        return "argindex";
    default:
        return "size";
    }
}

const char *hostile_mutation_name(hostile_mutation_t m) {
    static const char *const names[HM_COUNT_] = {"NULL",
                                                 "NULL element",
                                                 "wrong kind",
                                                 "undeclared enumerator",
                                                 "reserved flag bits",
                                                 "pNext loop",
                                                 "pNext cycle",
                                                 "0",
                                                 "1",
                                                 "max",
                                                 "SIZE_MAX/2+1",
                                                 "count flipped",
                                                 "x = SIZE_MAX",
                                                 "y = SIZE_MAX",
                                                 "z = SIZE_MAX",
                                                 "x = SIZE_MAX/2+1",
                                                 "{0,1,1}",
                                                 "{SIZE_MAX,1,1}",
                                                 "{SIZE_MAX/2+1,4,1}",
                                                 "4",
                                                 "argument index 1000"};
    return m < HM_COUNT_ ? names[m] : "?";
}

// ---- one case ----

static void set_count(const hostile_fn_t *fn, const hostile_param_t *p, hostile_slot_t *a,
                      uint64_t at_least) {
    if (!(p->flags & HOSTILE_ARRAY))
        return;
    const hostile_param_t *c = &fn->params[p->count];
    uint64_t v = 0;
    memcpy(&v, a[p->count].bytes, c->size < sizeof v ? c->size : sizeof v);
    if (v < at_least)
        put_number(&a[p->count], c->size, at_least);
}

// Applies the mutation; returns what UR's rules name for it when the baseline is valid.
static int32_t mutate(const hostile_fixture_t *f, const hostile_fn_t *fn, unsigned i,
                      hostile_mutation_t m, hostile_slot_t *a) {
    const hostile_param_t *p = &fn->params[i];
    bool opt = (p->flags & HOSTILE_OPT) != 0;
    const size_t half = SIZE_MAX / 2 + 1;
    switch (m) {
    case HM_NULL:
        memset(a[i].bytes, 0, sizeof(void *));
        if (opt)
            return HOSTILE_EXPECT_ANY;
        return p->kind == HOSTILE_HANDLE ? UR_RESULT_ERROR_INVALID_NULL_HANDLE
                                         : UR_RESULT_ERROR_INVALID_NULL_POINTER;
    case HM_NULL_ELEMENT:
        handle_arrays[i][0] = NULL;
        return HOSTILE_EXPECT_ANY;
    case HM_WRONG_KIND: {
        hostile_handle_kind_t other =
            p->handle == HOSTILE_HK_CONTEXT ? HOSTILE_HK_QUEUE : HOSTILE_HK_CONTEXT;
        put_ptr(&a[i], f->handles[other]);
        if (get_ptr(&a[i]) == NULL || p->handle < 0)
            return HOSTILE_EXPECT_ANY;
        return (int32_t)hostile_kind_results[p->handle];
    }
    case HM_BAD_ENUM:
        put_number(&a[i], p->size, p->bad);
        return UR_RESULT_ERROR_INVALID_ENUMERATION;
    case HM_BAD_FLAGS:
        put_number(&a[i], p->size, p->mask);
        return UR_RESULT_ERROR_INVALID_ENUMERATION;
    case HM_PNEXT_SELF:
    case HM_PNEXT_CYCLE: {
        ur_base_properties_t *s = fresh_struct(p, (int)i);
        cycle_partner.stype = (ur_structure_type_t)0;
        cycle_partner.pNext = s;
        s->pNext = m == HM_PNEXT_SELF ? (void *)s : (void *)&cycle_partner;
        put_ptr(&a[i], s);
        set_count(fn, p, a, 1);
        return UR_RESULT_ERROR_INVALID_VALUE;
    }
    case HM_ZERO:
    case HM_ONE:
    case HM_MAX:
    case HM_HALF: {
        uint64_t v = m == HM_ZERO ? 0 : m == HM_ONE ? 1 : m == HM_HALF ? half : UINT64_MAX;
        put_number(&a[i], p->size, v);
        bool huge = m == HM_MAX || m == HM_HALF;
        if (huge && (p->flags & (HOSTILE_BOUNDS_SIZE | HOSTILE_ALLOC_SIZE)) && p->size >= 8)
            return HOSTILE_EXPECT_FAILURE;
        return HOSTILE_EXPECT_ANY;
    }
    case HM_COUNT_FLIP: {
        uint64_t v = 0;
        memcpy(&v, a[i].bytes, p->size < sizeof v ? p->size : sizeof v);
        put_number(&a[i], p->size, v == 0 ? 1 : 0);
        return HOSTILE_EXPECT_ANY;
    }
    case HM_RECT_X:
    case HM_RECT_Y:
    case HM_RECT_Z:
    case HM_RECT_HALF: {
        size_t v[3];
        memcpy(v, a[i].bytes, sizeof v);
        v[m == HM_RECT_Y ? 1 : m == HM_RECT_Z ? 2 : 0] = m == HM_RECT_HALF ? half : SIZE_MAX;
        memcpy(a[i].bytes, v, sizeof v);
        return HOSTILE_EXPECT_FAILURE;
    }
    case HM_WORK_ZERO:
    case HM_WORK_MAX:
    case HM_WORK_OVERFLOW: {
        work[0] = m == HM_WORK_ZERO ? 0 : m == HM_WORK_MAX ? SIZE_MAX : half;
        work[1] = m == HM_WORK_OVERFLOW ? 4 : 1;
        work[2] = 1;
        put_ptr(&a[i], work);
        if (!is_launch(fn))
            return HOSTILE_EXPECT_ANY;
        if (strstr(p->name, "Offset") != NULL)
            // An offset of SIZE_MAX overflows with any global size (UR's rule for offsets);
            // SIZE_MAX/2+1 with the baseline's global size of 1 is a valid offset.
            return m == HM_WORK_MAX ? HOSTILE_EXPECT_FAILURE : HOSTILE_EXPECT_ANY;
        if (m == HM_WORK_MAX)
            return HOSTILE_EXPECT_ANY;
        if (m == HM_WORK_OVERFLOW)
            return HOSTILE_EXPECT_FAILURE;
        if (strstr(p->name, "Global") != NULL && strstr(p->name, "Offset") == NULL)
            return UR_RESULT_ERROR_INVALID_WORK_DIMENSION;
        if (strstr(p->name, "Local") != NULL)
            return UR_RESULT_ERROR_INVALID_WORK_GROUP_SIZE;
        return HOSTILE_EXPECT_ANY;
    }
    case HM_WORK_DIM_FOUR:
        put_number(&a[i], p->size, 4);
        return UR_RESULT_ERROR_INVALID_WORK_DIMENSION;
    case HM_ARG_INDEX:
        memset(&bad_arg, 0, sizeof bad_arg);
        bad_arg.stype = (ur_structure_type_t)(p->stype >= 0 ? p->stype : 0);
        bad_arg.type = UR_EXP_KERNEL_ARG_TYPE_VALUE;
        bad_arg.index = 1000;
        bad_arg.size = sizeof(int);
        bad_arg.value.value = scratch[i];
        put_ptr(&a[i], &bad_arg);
        set_count(fn, p, a, 1);
        return UR_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX;
    default:
        return HOSTILE_EXPECT_ANY;
    }
}

void hostile_run_case(const hostile_fixture_t *f, const hostile_case_t *c, int32_t *result,
                      int32_t *expected) {
    const hostile_fn_t *fn = &hostile_fns[c->fn];
    static hostile_slot_t args[MAX_PARAMS];
    baseline(f, fn, args);
    bool baseline_valid = fn->check(args) == UR_RESULT_SUCCESS;
    int32_t rule = mutate(f, fn, c->param, (hostile_mutation_t)c->mutation, args);
    // What the description's checks name comes first; then the class's own rule, which only
    // speaks where everything else in the call was valid.
    ur_result_t spec = fn->check(args);
    if (spec != UR_RESULT_SUCCESS)
        *expected = spec;
    else
        *expected = baseline_valid ? rule : HOSTILE_EXPECT_ANY;
    *result = fn->call(args);
}

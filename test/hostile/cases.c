// SPDX-License-Identifier: MIT
// Which bad values each parameter gets, the baseline the other parameters keep, and what UR's
// rules expect back. A case changes exactly one parameter of a baseline made from the
// fixture, so the result it gets is about that parameter.
#include "cases.h"

#include <string.h>
#include <unistd.h>

#define MAX_PARAMS    32
#define SCRATCH_BYTES 4096
#define STRUCT_BYTES  2048

static _Alignas(64) unsigned char scratch[MAX_PARAMS][SCRATCH_BYTES];
static _Alignas(64) unsigned char structs[MAX_PARAMS][STRUCT_BYTES];
static _Alignas(64) ur_base_properties_t cycle_partner;
static void *handle_arrays[MAX_PARAMS][4];
static ur_exp_file_descriptor_t import_file; // what an import descriptor's chain names
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

static void put_ptr(hostile_slot_t *s, const void *p);
static void put_number(hostile_slot_t *s, size_t size, uint64_t v);
static const void *get_ptr(const hostile_slot_t *s);

// ---- memory of one kind ----

// The memory kinds the fixture makes (bits, so that a parameter can list the kinds that are
// wrong for it).
enum {
    MK_HOST = 1u << 0,
    MK_USM = 1u << 1,
    MK_VA = 1u << 2,
    MK_VA_FREE = 1u << 3,
    MK_EXPORT = 1u << 4,
};

// Parameters that must name memory of one kind (what the baseline passes) and the kinds that
// are wrong there. Given another kind, the call must fail: freeing a reservation with
// urUSMFree, or mapping over a mapped range, is the caller's error, never a crash.
typedef struct memory_role_t {
    const char *fn, *param;
    unsigned kind, wrong;
} memory_role_t;

static const memory_role_t memory_roles[] = {
    {"urUSMFree", "pMem", MK_USM, MK_HOST | MK_VA | MK_EXPORT},
    {"urVirtualMemFree", "pStart", MK_VA_FREE, MK_HOST | MK_USM | MK_EXPORT},
    {"urVirtualMemMap", "pStart", MK_VA_FREE, MK_HOST | MK_USM | MK_VA | MK_EXPORT},
    {"urVirtualMemUnmap", "pStart", MK_VA, MK_HOST | MK_USM | MK_VA_FREE | MK_EXPORT},
    {"urVirtualMemSetAccess", "pStart", MK_VA, MK_HOST | MK_USM | MK_VA_FREE | MK_EXPORT},
    {"urVirtualMemGetInfo", "pStart", MK_VA, MK_HOST | MK_USM | MK_EXPORT},
    {"urIPCGetMemHandleExp", "pMem", MK_USM, MK_HOST | MK_VA},
    {"urIPCCloseMemHandleExp", "pMem", MK_USM, MK_HOST | MK_VA | MK_EXPORT},
    {"urMemoryExportFreeExportableMemoryExp", "pMem", MK_EXPORT, MK_HOST | MK_USM | MK_VA},
    {"urMemoryExportExportMemoryHandleExp", "pMem", MK_EXPORT, MK_HOST | MK_USM | MK_VA},
};

static const memory_role_t *memory_role(const hostile_fn_t *fn, const hostile_param_t *p) {
    for (size_t i = 0; i < sizeof memory_roles / sizeof memory_roles[0]; ++i)
        if (strcmp(memory_roles[i].fn, fn->name) == 0 &&
            strcmp(memory_roles[i].param, p->name) == 0)
            return &memory_roles[i];
    return NULL;
}

static unsigned mutation_memory(hostile_mutation_t m) {
    switch (m) {
    case HM_MEM_HOST:
        return MK_HOST;
    case HM_MEM_USM:
        return MK_USM;
    case HM_MEM_VA:
        return MK_VA;
    case HM_MEM_VA_FREE:
        return MK_VA_FREE;
    case HM_MEM_EXPORT:
        return MK_EXPORT;
    default:
        return 0;
    }
}

// The fixture's memory of a kind; plain host memory where the device makes none of it.
static void *memory_of(const hostile_fixture_t *f, unsigned kind, int i) {
    void *p = kind == MK_USM       ? f->usm_device
              : kind == MK_VA      ? f->va
              : kind == MK_VA_FREE ? f->va_free
              : kind == MK_EXPORT  ? f->exportable
                                   : NULL;
    return p != NULL ? p : scratch[i];
}

static bool is_named(const hostile_fn_t *fn, const char *prefix) {
    return strncmp(fn->name, prefix, strlen(prefix)) == 0;
}

// The descriptor of an external memory or semaphore import, whose chain names the file
// descriptor to import.
static bool is_import_desc(const hostile_param_t *p) {
    return p->kind == HOSTILE_STRUCT && (strcmp(p->type, "ur_exp_external_mem_desc_t") == 0 ||
                                         strcmp(p->type, "ur_exp_external_semaphore_desc_t") == 0);
}

// Parameters that measure or place something inside the exported memory: past its end is an
// error.
static bool is_external_extent(const hostile_fn_t *fn, const hostile_param_t *p) {
    if (strcmp(fn->name, "urBindlessImagesImportExternalMemoryExp") == 0)
        return strcmp(p->name, "size") == 0;
    if (strcmp(fn->name, "urBindlessImagesMapExternalLinearMemoryExp") == 0)
        return strcmp(p->name, "size") == 0 || strcmp(p->name, "offset") == 0;
    if (strcmp(fn->name, "urBindlessImagesMapExternalArrayExp") == 0)
        return strcmp(p->name, "pImageDesc") == 0;
    return false;
}

// urBindlessImagesWaitExternalSemaphoreExp and urBindlessImagesSignalExternalSemaphoreExp.
static bool is_semaphore_op(const hostile_fn_t *fn) {
    return strcmp(fn->name, "urBindlessImagesWaitExternalSemaphoreExp") == 0 ||
           strcmp(fn->name, "urBindlessImagesSignalExternalSemaphoreExp") == 0;
}

// A handle type or a value the import or semaphore is not: a Win32 handle type, a timeline
// value to wait for or signal on a binary semaphore.
static bool is_external_type(const hostile_fn_t *fn, const hostile_param_t *p) {
    if (p->kind == HOSTILE_ENUM)
        return is_named(fn, "urBindlessImagesImportExternal") &&
               strncmp(p->type, "ur_exp_external_", strlen("ur_exp_external_")) == 0;
    return p->kind == HOSTILE_BOOL && is_semaphore_op(fn);
}

// A handle of a kind close to `k` that the fixture made (the first of a short list), or
// HOSTILE_HK_NONE: what a caller holding several handles might pass by mistake, and what an
// adapter checking only a part of the kind tag would take.
static hostile_handle_kind_t near_kind(const hostile_fixture_t *f, hostile_handle_kind_t k) {
    hostile_handle_kind_t c[2] = {HOSTILE_HK_NONE, HOSTILE_HK_NONE};
    switch (k) {
    case HOSTILE_HK_LOADER_CONFIG:
        c[0] = HOSTILE_HK_ADAPTER;
        break;
    case HOSTILE_HK_PLATFORM:
        c[0] = HOSTILE_HK_DEVICE;
        break;
    case HOSTILE_HK_ADAPTER:
    case HOSTILE_HK_DEVICE:
        c[0] = HOSTILE_HK_PLATFORM;
        break;
    case HOSTILE_HK_CONTEXT:
        c[0] = HOSTILE_HK_DEVICE;
        break;
    case HOSTILE_HK_EVENT:
        c[0] = HOSTILE_HK_EXP_COMMAND_BUFFER, c[1] = HOSTILE_HK_KERNEL;
        break;
    case HOSTILE_HK_PROGRAM:
        c[0] = HOSTILE_HK_KERNEL, c[1] = HOSTILE_HK_MEM;
        break;
    case HOSTILE_HK_KERNEL:
        c[0] = HOSTILE_HK_PROGRAM, c[1] = HOSTILE_HK_MEM;
        break;
    case HOSTILE_HK_QUEUE:
        c[0] = HOSTILE_HK_EVENT;
        break;
    case HOSTILE_HK_SAMPLER:
        c[0] = HOSTILE_HK_MEM;
        break;
    case HOSTILE_HK_MEM:
        c[0] = HOSTILE_HK_EXP_EXTERNAL_MEM, c[1] = HOSTILE_HK_SAMPLER;
        break;
    case HOSTILE_HK_PHYSICAL_MEM:
        c[0] = HOSTILE_HK_USM_POOL, c[1] = HOSTILE_HK_MEM;
        break;
    case HOSTILE_HK_USM_POOL:
        c[0] = HOSTILE_HK_PHYSICAL_MEM, c[1] = HOSTILE_HK_MEM;
        break;
    case HOSTILE_HK_EXP_EXTERNAL_MEM:
        c[0] = HOSTILE_HK_EXP_EXTERNAL_SEMAPHORE, c[1] = HOSTILE_HK_MEM;
        break;
    case HOSTILE_HK_EXP_EXTERNAL_SEMAPHORE:
        c[0] = HOSTILE_HK_EXP_EXTERNAL_MEM, c[1] = HOSTILE_HK_EVENT;
        break;
    case HOSTILE_HK_EXP_COMMAND_BUFFER:
        c[0] = HOSTILE_HK_EVENT;
        break;
    case HOSTILE_HK_EXP_COMMAND_BUFFER_COMMAND:
        c[0] = HOSTILE_HK_EXP_COMMAND_BUFFER, c[1] = HOSTILE_HK_KERNEL;
        break;
    case HOSTILE_HK_EXP_GRAPH:
        c[0] = HOSTILE_HK_EXP_EXECUTABLE_GRAPH, c[1] = HOSTILE_HK_EXP_COMMAND_BUFFER;
        break;
    case HOSTILE_HK_EXP_EXECUTABLE_GRAPH:
        c[0] = HOSTILE_HK_EXP_GRAPH, c[1] = HOSTILE_HK_EXP_COMMAND_BUFFER;
        break;
    default:
        break;
    }
    for (int i = 0; i < 2; ++i)
        if (c[i] != HOSTILE_HK_NONE && f->handles[c[i]] != NULL)
            return c[i];
    return HOSTILE_HK_NONE;
}

// What a parameter of the newer features starts from, beyond the generic baseline: the
// fixture's memory of the kind it names, sizes that fit it, IPC handle data, bindless image
// handles and descriptors that describe the fixture's image.
static void baseline_features(const hostile_fixture_t *f, const hostile_fn_t *fn, unsigned i,
                              hostile_slot_t *a) {
    const hostile_param_t *p = &fn->params[i];
    const memory_role_t *role = memory_role(fn, p);
    if (role != NULL) {
        // The mapped range is what every call but urVirtualMemMap and urVirtualMemFree takes;
        // those take the unmapped one (a free of a mapped range is refused).
        put_ptr(&a[i], memory_of(f, role->kind, (int)i));
        return;
    }
    if (p->kind == HOSTILE_NUMBER && p->size == sizeof(size_t) && f->granule != 0 &&
        (is_named(fn, "urVirtualMem") || is_named(fn, "urPhysicalMemCreate")) &&
        (strcmp(p->name, "size") == 0 || strcmp(p->name, "allocationSize") == 0)) {
        put_number(&a[i], p->size, f->granule);
        return;
    }
    if (p->kind == HOSTILE_NUMBER && p->size == sizeof(size_t) && is_named(fn, "urIPCOpen")) {
        size_t n = strstr(fn->name, "Phys") != NULL    ? f->ipc_phys_bytes
                   : strstr(fn->name, "Event") != NULL ? f->ipc_event_bytes
                                                       : f->ipc_mem_bytes;
        put_number(&a[i], p->size, n);
        return;
    }
    if ((p->kind == HOSTILE_PTR || p->kind == HOSTILE_BOUNDS_PTR) && is_named(fn, "urIPC") &&
        strstr(p->name, "HandleData") != NULL && !(p->flags & HOSTILE_OUT)) {
        const void *d = strstr(p->name, "Phys") != NULL    ? f->ipc_phys
                        : strstr(p->name, "Event") != NULL ? f->ipc_event
                                                           : f->ipc_mem;
        put_ptr(&a[i], d != NULL ? d : scratch[i]);
        return;
    }
    if (p->kind == HOSTILE_VALUE_HANDLE) {
        uintptr_t v = strcmp(p->type, "ur_exp_image_mem_native_handle_t") == 0 ? f->image_mem
                      : strstr(fn->name, "Sampled") != NULL && strstr(fn->name, "Unsampled") == NULL
                          ? f->sampled_image
                          : f->image;
        memcpy(a[i].bytes, &v, sizeof v);
        return;
    }
    if (p->kind == HOSTILE_STRUCT && get_ptr(&a[i]) != NULL) {
        if (strcmp(p->type, "ur_image_format_t") == 0)
            memcpy(structs[i], &hostile_image_format, sizeof hostile_image_format);
        else if (strcmp(p->type, "ur_image_desc_t") == 0)
            memcpy(structs[i], &hostile_image_desc, sizeof hostile_image_desc);
        else if (strcmp(p->type, "ur_sampler_desc_t") == 0)
            memcpy(structs[i], &hostile_sampler_desc, sizeof hostile_sampler_desc);
        else if (strcmp(p->type, "ur_exp_image_copy_region_t") == 0) {
            ur_exp_image_copy_region_t *r = (void *)structs[i];
            r->copyExtent =
                (ur_rect_region_t){hostile_image_desc.width, hostile_image_desc.height, 1};
        }
    }
    if (is_import_desc(p)) {
        // A copy of the fixture's descriptor: CUDA takes (and closes) what it imports.
        bool sem = strstr(p->type, "semaphore") != NULL;
        int src = sem ? f->sem_fd : f->ext_fd;
        import_file = (ur_exp_file_descriptor_t){UR_STRUCTURE_TYPE_EXP_FILE_DESCRIPTOR, NULL,
                                                 src >= 0 ? dup(src) : -1};
        ((ur_base_desc_t *)(void *)structs[i])->pNext = &import_file;
        return;
    }
    if (strcmp(fn->name, "urBindlessImagesImportExternalMemoryExp") == 0 &&
        strcmp(p->name, "size") == 0) {
        put_number(&a[i], p->size, f->ext_bytes);
        return;
    }
    if (is_semaphore_op(fn)) {
        // Waits and signals of the fixture's binary semaphore, on a queue of their own: a wait
        // nothing signals blocks that queue and no other case's.
        if (p->kind == HOSTILE_BOOL)
            a[i].bytes[0] = 0;
        else if (p->kind == HOSTILE_HANDLE && p->handle == HOSTILE_HK_QUEUE &&
                 f->semaphore_queue != NULL)
            put_ptr(&a[i], f->semaphore_queue);
    }
    // A copy from host memory into the fixture's image.
    if (strcmp(fn->name, "urBindlessImagesImageCopyExp") == 0) {
        if (strcmp(p->name, "pDst") == 0 && f->image_mem != 0)
            memcpy(a[i].bytes, &f->image_mem, sizeof f->image_mem);
        else if (strcmp(p->name, "imageCopyFlags") == 0)
            put_number(&a[i], p->size, UR_EXP_IMAGE_COPY_FLAG_HOST_TO_DEVICE);
    }
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
        baseline_features(f, fn, i, a);
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
    case HM_DESC_ENUM:
        return p->kind == HOSTILE_STRUCT && p->desc.enum_width != 0;
    case HM_DESC_SIZE:
        return p->kind == HOSTILE_STRUCT && p->desc.size_off != SIZE_MAX;
    case HM_VALUE_ZERO:
    case HM_VALUE_FORGED:
        return p->kind == HOSTILE_VALUE_HANDLE;
    case HM_MEM_HOST:
    case HM_MEM_USM:
    case HM_MEM_VA:
    case HM_MEM_VA_FREE:
    case HM_MEM_EXPORT: {
        const memory_role_t *role = memory_role(fn, p);
        return role != NULL && (role->wrong & mutation_memory(m)) != 0;
    }
    case HM_DATA_FORGED:
        return is_named(fn, "urIPCOpen") && strstr(p->name, "HandleData") != NULL;
    case HM_FD_NEGATIVE:
    case HM_FD_CLOSED:
    case HM_FD_DEVNULL:
    case HM_FD_STYPE:
    case HM_FD_LOOP:
        return is_import_desc(p);
    case HM_PAST_END:
        return is_external_extent(fn, p);
    case HM_TYPE_OTHER:
        return is_external_type(fn, p);
    case HM_WRONG_NEAR:
        return p->kind == HOSTILE_HANDLE;
    case HM_WRONG_ELEMENT:
        return p->kind == HOSTILE_HANDLE_ARRAY && !(opt && is_destroying(fn));
    default:
        return false;
    }
}

bool hostile_is_kind_mutation(hostile_mutation_t m) {
    return m == HM_WRONG_KIND || m == HM_WRONG_NEAR || m == HM_WRONG_ELEMENT;
}

size_t hostile_cases(hostile_case_t *out, size_t max) {
    size_t n = 0;
    for (int phase = 0; phase < 2; ++phase)
        for (size_t f = 0; f < hostile_fn_count; ++f) {
            const hostile_fn_t *fn = &hostile_fns[f];
            for (unsigned i = 0; i < fn->nparams && i < MAX_PARAMS; ++i)
                for (int m = 0; m < HM_COUNT_; ++m) {
                    if (hostile_is_kind_mutation(m) != (phase == 1) ||
                        !applies(fn, &fn->params[i], m))
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
    case HM_WRONG_NEAR:
    case HM_WRONG_ELEMENT:
        return "kind";
    case HM_FD_NEGATIVE:
    case HM_FD_CLOSED:
    case HM_FD_DEVNULL:
    case HM_FD_STYPE:
    case HM_FD_LOOP:
        return "fd";
    case HM_TYPE_OTHER:
        return "type";
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
    case HM_DESC_ENUM:
    case HM_DESC_SIZE:
        return "desc";
    case HM_VALUE_ZERO:
    case HM_VALUE_FORGED:
        return "value";
    case HM_MEM_HOST:
    case HM_MEM_USM:
    case HM_MEM_VA:
    case HM_MEM_VA_FREE:
    case HM_MEM_EXPORT:
        return "memory";
    case HM_DATA_FORGED:
        return "data";
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
                                                 "argument index 1000",
                                                 "descriptor enum undeclared",
                                                 "descriptor size SIZE_MAX",
                                                 "0",
                                                 "forged",
                                                 "host memory",
                                                 "device USM",
                                                 "mapped reservation",
                                                 "unmapped reservation",
                                                 "exportable memory",
                                                 "forged handle data",
                                                 "fd -1",
                                                 "a closed fd",
                                                 "/dev/null's fd",
                                                 "fd struct of a Win32 handle's stype",
                                                 "fd struct naming itself",
                                                 "past the exported memory",
                                                 "a type it is not",
                                                 "a handle of a near kind",
                                                 "an element of a near kind"};
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
    case HM_WRONG_KIND:
    case HM_WRONG_NEAR: {
        hostile_handle_kind_t other = m == HM_WRONG_NEAR                ? near_kind(f, p->handle)
                                      : p->handle == HOSTILE_HK_CONTEXT ? HOSTILE_HK_QUEUE
                                                                        : HOSTILE_HK_CONTEXT;
        put_ptr(&a[i], other != HOSTILE_HK_NONE ? f->handles[other] : NULL);
        if (get_ptr(&a[i]) == NULL || p->handle < 0)
            return HOSTILE_EXPECT_ANY;
        return (int32_t)hostile_kind_results[p->handle];
    }
    case HM_WRONG_ELEMENT: {
        // An array of one element whose handle is of another kind: any error will do (a wait
        // list answers INVALID_EVENT_WAIT_LIST or INVALID_EVENT).
        hostile_handle_kind_t other = near_kind(f, p->handle);
        if (other == HOSTILE_HK_NONE)
            other = p->handle == HOSTILE_HK_CONTEXT ? HOSTILE_HK_QUEUE : HOSTILE_HK_CONTEXT;
        handle_arrays[i][0] = f->handles[other];
        put_ptr(&a[i], handle_arrays[i]);
        set_count(fn, p, a, 1);
        return handle_arrays[i][0] != NULL && p->handle >= 0 ? HOSTILE_EXPECT_FAILURE
                                                             : HOSTILE_EXPECT_ANY;
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
    case HM_DESC_ENUM:
    case HM_DESC_SIZE: {
        // On the baseline's descriptor (a fresh one where the baseline passes none).
        unsigned char *d = (unsigned char *)(uintptr_t)get_ptr(&a[i]);
        if (d == NULL) {
            d = fresh_struct(p, (int)i);
            put_ptr(&a[i], d);
            set_count(fn, p, a, 1);
        }
        if (m == HM_DESC_ENUM) {
            uint64_t v = p->desc.enum_bad;
            memcpy(d + p->desc.enum_off, &v,
                   p->desc.enum_width < sizeof v ? p->desc.enum_width : sizeof v);
            // A query of what is supported may answer "not this"; anything else refuses.
            return strstr(fn->name, "Support") != NULL ? HOSTILE_EXPECT_ANY
                                                       : HOSTILE_EXPECT_FAILURE;
        }
        size_t huge = SIZE_MAX;
        memcpy(d + p->desc.size_off, &huge, sizeof huge);
        // Only what makes something from the descriptor must refuse an extent of SIZE_MAX.
        return strstr(fn->name, "Create") != NULL || strstr(fn->name, "Alloc") != NULL ||
                       strstr(fn->name, "Partition") != NULL ||
                       strstr(fn->name, "MapExternal") != NULL
                   ? HOSTILE_EXPECT_FAILURE
                   : HOSTILE_EXPECT_ANY;
    }
    case HM_VALUE_ZERO:
    case HM_VALUE_FORGED: {
        // Forged: the address of memory that is no image (what a stale or made-up value
        // would look like to an adapter that takes it for a pointer).
        uintptr_t v = m == HM_VALUE_ZERO ? 0 : (uintptr_t)(void *)scratch[i];
        memcpy(a[i].bytes, &v, sizeof v);
        return HOSTILE_EXPECT_FAILURE;
    }
    case HM_MEM_HOST:
    case HM_MEM_USM:
    case HM_MEM_VA:
    case HM_MEM_VA_FREE:
    case HM_MEM_EXPORT:
        put_ptr(&a[i], memory_of(f, mutation_memory(m), (int)i));
        return HOSTILE_EXPECT_FAILURE;
    case HM_DATA_FORGED:
        memset(scratch[i], 0xa5, SCRATCH_BYTES);
        put_ptr(&a[i], scratch[i]);
        return HOSTILE_EXPECT_FAILURE;
    case HM_FD_NEGATIVE:
    case HM_FD_CLOSED:
    case HM_FD_DEVNULL:
    case HM_FD_STYPE:
    case HM_FD_LOOP: {
        // The baseline's copy of the fixture's descriptor is given up here, except where the
        // struct itself is what is spoiled; a closed one keeps its number.
        bool keep = m == HM_FD_STYPE || m == HM_FD_LOOP;
        if (!keep && import_file.fd >= 0)
            close(import_file.fd);
        if (m == HM_FD_NEGATIVE)
            import_file.fd = -1;
        else if (m == HM_FD_DEVNULL)
            import_file.fd = f->devnull_fd >= 0 ? dup(f->devnull_fd) : -1;
        else if (m == HM_FD_STYPE)
            import_file.stype = UR_STRUCTURE_TYPE_EXP_WIN32_HANDLE;
        else if (m == HM_FD_LOOP)
            import_file.pNext = &import_file;
        ((ur_base_desc_t *)(uintptr_t)get_ptr(&a[i]))->pNext = &import_file;
        return m == HM_FD_LOOP ? UR_RESULT_ERROR_INVALID_VALUE : HOSTILE_EXPECT_FAILURE;
    }
    case HM_PAST_END: {
        size_t end = f->ext_bytes;
        if (p->kind == HOSTILE_STRUCT) {
            // A taller image than the memory holds.
            ur_image_desc_t *d = (void *)structs[i];
            d->height = end / (16 * 4) + 4096;
        } else if (strcmp(p->name, "offset") == 0) {
            put_number(&a[i], p->size, end - 1); // the baseline's 64 bytes from here run past
        } else if (strcmp(fn->name, "urBindlessImagesMapExternalLinearMemoryExp") == 0) {
            put_number(&a[i], p->size, end); // from the baseline's offset of 64
        } else {
            put_number(&a[i], p->size, end + 1);
            return f->ext_size_known ? HOSTILE_EXPECT_FAILURE : HOSTILE_EXPECT_ANY;
        }
        return HOSTILE_EXPECT_FAILURE;
    }
    case HM_TYPE_OTHER:
        if (p->kind == HOSTILE_BOOL)
            a[i].bytes[0] = 1; // a value, for the fixture's binary semaphore
        else
            put_number(&a[i], p->size, 1); // WIN32_NT, of memory or of a semaphore
        return HOSTILE_EXPECT_FAILURE;
    default:
        return HOSTILE_EXPECT_ANY;
    }
}

// A mapping a case made or took away (a valid variation, or a bug) would change what the next
// virtual-memory cases start from: it is put back as the fixture made it.
static void restore_mappings(const hostile_fixture_t *f, const hostile_fn_t *fn,
                             const hostile_slot_t *a) {
    ur_context_handle_t ctx = f->handles[HOSTILE_HK_CONTEXT];
    const void *start = get_ptr(&a[1]);
    size_t size = 0;
    memcpy(&size, a[2].bytes, sizeof size);
    if (strcmp(fn->name, "urVirtualMemMap") == 0)
        (void)urVirtualMemUnmap(ctx, start, size);
    else if (strcmp(fn->name, "urVirtualMemUnmap") == 0 && start == f->va)
        (void)urVirtualMemMap(ctx, f->va, f->granule, f->handles[HOSTILE_HK_PHYSICAL_MEM], 0,
                              UR_VIRTUAL_MEM_ACCESS_FLAG_READ_WRITE);
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
    if (*result == UR_RESULT_SUCCESS && is_named(fn, "urVirtualMem"))
        restore_mappings(f, fn, args);
}

// SPDX-License-Identifier: MIT
// The hostile-input suite's view of the API: a descriptor per parameter of every entry point
// (generated from scripts/api by scripts/urgen/hostile.py into generated/hostile_table.c) and
// trampolines that take arguments from an array of slots.
#ifndef URC_TEST_HOSTILE_HOSTILE_H
#define URC_TEST_HOSTILE_HOSTILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hostile_table.h"
#include "ur_api.h"

/// What a parameter is, as far as making bad values for it goes.
typedef enum hostile_param_kind_t {
    HOSTILE_HANDLE,       // a handle by value
    HOSTILE_HANDLE_ARRAY, // an input array of handles
    HOSTILE_STRUCT,       // a pointer to a struct (or an array of them)
    HOSTILE_STRING,       // a NUL-terminated input string
    HOSTILE_BOUNDS_PTR,   // memory whose extent other parameters give (USM or host)
    HOSTILE_PTR,          // any other pointer: outputs, untyped data
    HOSTILE_ENUM,
    HOSTILE_FLAGS,
    HOSTILE_NUMBER, // sizes, offsets, counts, indices
    HOSTILE_BOOL,
    HOSTILE_NATIVE,
    HOSTILE_CALLBACK,
    HOSTILE_RECT_OFFSET,
    HOSTILE_RECT_REGION,
    HOSTILE_VALUE_STRUCT,
    HOSTILE_VALUE_HANDLE, // an integer naming an object urc made (bindless image memory)
    HOSTILE_OTHER,
} hostile_param_kind_t;

/// hostile_param_t.flags
enum {
    HOSTILE_OPT = 1u << 0,         // may be NULL
    HOSTILE_COUNT = 1u << 1,       // counts the elements of an input range
    HOSTILE_HOST_LENGTH = 1u << 2, // bounds memory only the caller can measure
    HOSTILE_BOUNDS_SIZE = 1u << 3, // part of a bounds() extent of a pointer
    HOSTILE_ALLOC_SIZE = 1u << 4,  // the size of an allocation the call makes
    HOSTILE_WORK_DIM = 1u << 5,    // a launch's work dimension
    HOSTILE_ARRAY = 1u << 6,       // an array with a count parameter
    HOSTILE_KERNEL_ARGS = 1u << 7, // ur_exp_kernel_arg_properties_t array
    HOSTILE_OUT = 1u << 8,         // written by the call
    HOSTILE_SIZE_ARRAY = 1u << 9,  // const size_t * input (work sizes, lengths)
};

/// An input descriptor's fields the suite spoils (all 0 where the struct has none).
typedef struct hostile_desc_t {
    size_t enum_off;   // its first enum member (else flags member)
    size_t enum_width; // that member's size, 0 without one
    uint32_t enum_bad; // an undeclared enumerator, or the flags' reserved bits
    size_t size_off;   // its first size_t member, SIZE_MAX without one
} hostile_desc_t;

typedef struct hostile_param_t {
    const char *name;
    const char *type; // the type, or the type pointed at, without const
    hostile_param_kind_t kind;
    unsigned flags;
    hostile_handle_kind_t handle; // HANDLE, HANDLE_ARRAY
    size_t size;                  // sizeof the parameter, or of the struct it points at
    int32_t stype;                // STRUCT: its UR_STRUCTURE_TYPE_*, or -1
    bool pnext;                   // STRUCT: an input with an extension chain
    uint32_t first;               // ENUM: a declared value
    uint32_t bad;                 // ENUM: a value that is not declared
    uint32_t mask;                // FLAGS: the reserved bits
    int count;                    // ARRAY: index of the count parameter, else -1
    int baseline_count;           // COUNT: 1 when a required array goes with it, else 0
    hostile_desc_t desc;          // STRUCT inputs
} hostile_param_t;

/// One argument, whatever its type (the trampolines memcpy their parameter out of it).
typedef struct hostile_slot_t {
    _Alignas(16) unsigned char bytes[256];
} hostile_slot_t;

typedef struct hostile_fn_t {
    const char *name;
    const char *table; // ur_dditable_t member, "Loader" for the loader's own functions
    unsigned nparams;
    const hostile_param_t *params;
    ur_result_t (*call)(const hostile_slot_t *args);  // through the loader's export
    ur_result_t (*check)(const hostile_slot_t *args); // the generated argument checks
} hostile_fn_t;

extern const hostile_fn_t hostile_fns[];
extern const size_t hostile_fn_count;
extern const char *const hostile_kind_names[HOSTILE_HK_COUNT];
/// UR's answer to a handle of the wrong kind, per kind: UR_RESULT_ERROR_INVALID_<KIND>.
extern const ur_result_t hostile_kind_results[HOSTILE_HK_COUNT];

#endif // URC_TEST_HOSTILE_HOSTILE_H

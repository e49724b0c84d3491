// SPDX-License-Identifier: MIT
// The hostile cases: which bad value goes into which parameter of which entry point, and what
// UR's rules say must come back.
#ifndef URC_TEST_HOSTILE_CASES_H
#define URC_TEST_HOSTILE_CASES_H

#include <stddef.h>
#include <stdint.h>

#include "fixture.h"
#include "hostile.h"

typedef enum hostile_mutation_t {
    HM_NULL,         // the handle or pointer NULL
    HM_NULL_ELEMENT, // the first handle of an input array NULL
    HM_WRONG_KIND,   // a live handle of another kind
    HM_BAD_ENUM,     // a value the enum does not declare
    HM_BAD_FLAGS,    // every reserved bit of the flag type
    HM_PNEXT_SELF,   // a struct whose pNext names itself
    HM_PNEXT_CYCLE,  // two structs whose pNext name each other
    HM_ZERO,         // a number 0
    HM_ONE,          // 1
    HM_MAX,          // SIZE_MAX, UINT32_MAX, ...
    HM_HALF,         // SIZE_MAX / 2 + 1: sums and doubles of it overflow
    HM_COUNT_FLIP,   // an array count 0 where it was 1, 1 where it was 0
    HM_RECT_X,       // a rectangle offset or extent SIZE_MAX in x, y or z
    HM_RECT_Y,
    HM_RECT_Z,
    HM_RECT_HALF,     // SIZE_MAX / 2 + 1 in x
    HM_WORK_ZERO,     // work sizes {0, 1, 1}
    HM_WORK_MAX,      // {SIZE_MAX, 1, 1}
    HM_WORK_OVERFLOW, // {SIZE_MAX / 2 + 1, 4, 1}: the product overflows
    HM_WORK_DIM_FOUR, // a work dimension of 4
    HM_ARG_INDEX,     // a kernel argument index past the kernel's arguments
    HM_DESC_ENUM,     // a descriptor's first enum member undeclared (or its flags reserved)
    HM_DESC_SIZE,     // a descriptor's first size member SIZE_MAX
    HM_VALUE_ZERO,    // an image memory or image handle 0
    HM_VALUE_FORGED,  // an image memory or image handle no call made
    HM_MEM_HOST,      // memory of another kind where one kind is named: plain host memory,
    HM_MEM_USM,       // device USM,
    HM_MEM_VA,        // a mapped virtual reservation,
    HM_MEM_VA_FREE,   // an unmapped one,
    HM_MEM_EXPORT,    // exportable memory
    HM_DATA_FORGED,   // IPC handle data of bytes no export wrote
    HM_FD_NEGATIVE,   // an import descriptor's file descriptor -1,
    HM_FD_CLOSED,     // one no longer open,
    HM_FD_DEVNULL,    // /dev/null's,
    HM_FD_STYPE,      // the file descriptor struct's stype another (a Win32 handle's),
    HM_FD_LOOP,       // the file descriptor struct's pNext naming itself
    HM_PAST_END,      // an import or mapping one byte past the exported memory
    HM_TYPE_OTHER,    // a declared handle type the import is not (a Win32 one), a timeline
                      // value for a binary semaphore
    HM_WRONG_NEAR,    // a live handle of a kind close to the expected one (a kernel for a
                      // program, an event for a command buffer, ...)
    HM_WRONG_ELEMENT, // the first handle of an input array (one made of one) of a near kind
    HM_COUNT_
} hostile_mutation_t;

typedef struct hostile_case_t {
    uint16_t fn;
    uint8_t param;
    uint8_t mutation;
} hostile_case_t;

/// What a case expects back, besides an exact result.
enum {
    HOSTILE_EXPECT_ANY = -1,     // anything but a crash or hang
    HOSTILE_EXPECT_FAILURE = -2, // any error: success would be wrong
};

/// Every case, in the order they run: first all but the wrong-kind ones, then those (a
/// wrong-kind handle an adapter does not check may corrupt the child's other handles).
/// Returns how many were written into `out` (at most `max`).
size_t hostile_cases(hostile_case_t *out, size_t max);

/// Whether a mutation puts a handle of the wrong kind in (those run in children of their own).
bool hostile_is_kind_mutation(hostile_mutation_t m);

/// The short name of a mutation's class, as the known-failures list names it: "null",
/// "kind", "enum", "flags", "pnext", "size", "count", "rect", "work", "argindex", "desc",
/// "value", "memory", "data", "fd", "type".
const char *hostile_mutation_class(hostile_mutation_t m);
const char *hostile_mutation_name(hostile_mutation_t m);

/// Runs one case in this (child) process. Writes the result and what UR's rules name
/// (an exact result or HOSTILE_EXPECT_*).
void hostile_run_case(const hostile_fixture_t *f, const hostile_case_t *c, int32_t *result,
                      int32_t *expected);

#endif // URC_TEST_HOSTILE_CASES_H

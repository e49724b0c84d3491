// SPDX-License-Identifier: MIT
// A size, offset or value of urc's headers, labelled as in ur_abi_facts.txt.
#ifndef URC_TEST_ABI_ABI_VALUES_H
#define URC_TEST_ABI_ABI_VALUES_H

#include <stddef.h>

typedef struct abi_value_t {
    const char *label;
    long long value;
} abi_value_t;

extern const abi_value_t abi_values[];
extern const size_t abi_value_count;

#endif // URC_TEST_ABI_ABI_VALUES_H

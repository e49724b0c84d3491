// SPDX-License-Identifier: MIT
// Checks a URC_TRACE_FILE timeline: well-formed JSON (brackets balance outside strings, one
// object), every event on its own line as urc writes them, call slices of one thread nested
// (each inside or after the previous), every device slice inside its submission window (it
// starts after its enqueue call started and ends before the end of the last call of the file,
// give or take the clock mapping's uncertainty), and every flow start matched by a finish.
#ifndef URC_TEST_SUPPORT_URC_TRACE_CHECK_H
#define URC_TEST_SUPPORT_URC_TRACE_CHECK_H

#include <stddef.h>

typedef struct urc_trace_counts_t {
    size_t calls;   // call slices
    size_t devices; // device (command) slices
    size_t flows;   // matched flow start/finish pairs
} urc_trace_counts_t;

/// Fails the running Check test when the file breaks a rule; the counts otherwise.
urc_trace_counts_t urc_check_trace(const char *path);

#endif // URC_TEST_SUPPORT_URC_TRACE_CHECK_H

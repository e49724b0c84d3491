// SPDX-License-Identifier: MIT
// The valid handles and memory the hostile cases start from.
#ifndef URC_TEST_HOSTILE_FIXTURE_H
#define URC_TEST_HOSTILE_FIXTURE_H

#include <stddef.h>

#include "hostile.h"

typedef struct hostile_fixture_t {
    void *handles[HOSTILE_HK_COUNT]; // one per kind the device makes; NULL where none
    void *usm;                       // a USM allocation (shared, else host, else device)
    size_t usm_bytes;
    // A finalized, updatable command buffer whose kernel command is
    // handles[HOSTILE_HK_EXP_COMMAND_BUFFER_COMMAND], for the update cases; the command buffer
    // of handles[] is still recording, for the appends.
    void *update_cb;
    char platform_name[256];
} hostile_fixture_t;

/// Loader, first adapter, platform and device, a context, a queue, a buffer, a completed
/// event, USM, (with URC_HOSTILE_IL or _BINARY and _KERNEL) a program and a kernel, and
/// where the device has them, command buffers: one recording, one finalized with a kernel
/// command to update.
/// 1 when there is a device, 0 when there is none, -1 when making the basics failed.
int hostile_fixture_open(hostile_fixture_t *f);

#endif // URC_TEST_HOSTILE_FIXTURE_H

// SPDX-License-Identifier: MIT
// The valid handles and memory the hostile cases start from.
#ifndef URC_TEST_HOSTILE_FIXTURE_H
#define URC_TEST_HOSTILE_FIXTURE_H

#include <stddef.h>
#include <stdint.h>

#include "hostile.h"

typedef struct hostile_fixture_t {
    void *handles[HOSTILE_HK_COUNT]; // one per kind the device makes; NULL where none
    void *usm;                       // a USM allocation (shared, else host, else device)
    size_t usm_bytes;
    // A finalized, updatable command buffer whose kernel command is
    // handles[HOSTILE_HK_EXP_COMMAND_BUFFER_COMMAND], for the update cases; the command buffer
    // of handles[] is still recording, for the appends.
    void *update_cb;
    // Memory of the other kinds, where the device makes them (NULL where not): device USM,
    // a reservation with one granule of physical memory mapped, one with none, exportable
    // memory, and IPC handle data of the device USM, the physical memory and the event.
    void *usm_device;
    size_t granule;
    void *va, *va_free;
    void *exportable;
    void *ipc_mem, *ipc_phys, *ipc_event;
    size_t ipc_mem_bytes, ipc_phys_bytes, ipc_event_bytes;
    // Bindless images: a 2D image's memory, an unsampled and a sampled handle of it (0: none).
    uintptr_t image_mem, image, sampled_image;
    // File descriptors the external-memory and semaphore imports start from (-1: none): the
    // export of the exportable memory (a memfd where the device exports none), of ext_bytes;
    // a semaphore's; and /dev/null, which names nothing a driver exports.
    int ext_fd, sem_fd, devnull_fd;
    size_t ext_bytes;
    bool ext_exported;     // ext_fd came from urMemoryExportExportMemoryHandleExp
    bool ext_size_known;   // ext_fd tells its size (ext_bytes): a larger import is refused
    void *semaphore_queue; // a queue of its own for the semaphore waits and signals
    char platform_name[256];
} hostile_fixture_t;

/// Loader, first adapter, platform and device, a context, a queue, a buffer, a completed
/// event, USM, (with URC_HOSTILE_IL or _BINARY and _KERNEL) a program and a kernel, and
/// where the device has them, command buffers (one recording, one finalized with a kernel
/// command to update), a sampler, a USM pool, physical and virtual memory, exportable memory,
/// IPC handle data, bindless images, and external memory and a semaphore.
/// 1 when there is a device, 0 when there is none, -1 when making the basics failed.
int hostile_fixture_open(hostile_fixture_t *f);

/// The descriptors the fixture's bindless image and sampler were made with (the baselines of
/// the cases that take a descriptor of these types).
extern const ur_image_format_t hostile_image_format;
extern const ur_image_desc_t hostile_image_desc;
extern const ur_sampler_desc_t hostile_sampler_desc;

#endif // URC_TEST_HOSTILE_FIXTURE_H

// SPDX-License-Identifier: MIT
// urc's device global database (seed 004) for programs that use SYCL-style device globals
// without a SYCL runtime; exported by urc's loader. docs/device-globals-and-assert.md has an
// example.
//
// A variable is known by its host address and its unique id (the name the device program
// exports, e.g. through HostAccessINTEL). Without device_image_scope, the device variable holds
// a pointer to one zero-initialised USM device buffer per (context, device), shared by every
// program; urcDeviceGlobalProgramBuilt writes that pointer into each new program, and copies
// go to the buffer. With device_image_scope the value lives in the one program that holds it,
// and copies go straight to that program.
//
// Every function is thread-safe. The registry retains each context in which it allocated and
// each program that holds an image-scope variable, until urcDeviceGlobalReleaseContext,
// urcDeviceGlobalForgetProgram or the variable's urcDeviceGlobalUnregister. Releasing those
// while a copy that uses them is in flight is the caller's race, as for any UR object.
#ifndef URC_DEVICE_GLOBAL_H
#define URC_DEVICE_GLOBAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ur_api.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Adds a variable to the database. Registering the same address again with the same id, size
/// and scope does nothing. Register variables before building the programs that use them:
/// urcDeviceGlobalProgramBuilt initialises the variables known at that time.
///
/// @returns
///   - UR_RESULT_SUCCESS
///   - UR_RESULT_ERROR_INVALID_NULL_POINTER when `pHostAddress` or `pUniqueId` is NULL
///   - UR_RESULT_ERROR_INVALID_SIZE when `size == 0`
///   - UR_RESULT_ERROR_INVALID_VALUE when `pUniqueId` is empty, the address is registered with
///     another id, size or scope, or the id is registered at another address
///   - UR_RESULT_ERROR_OUT_OF_HOST_MEMORY
UR_APIEXPORT ur_result_t UR_APICALL urcDeviceGlobalRegister(
    const void *pHostAddress, ///< [in] the host instance of the variable
    const char *pUniqueId,    ///< [in] the name the device programs export it under
    size_t size,              ///< [in] bytes of the underlying type (sizeof(T))
    bool deviceImageScope     ///< [in] true: one instance per program (device_image_scope)
);

/// Removes a variable and frees what the registry holds for it (its USM buffers, its
/// references to contexts and programs).
///
/// @returns
///   - UR_RESULT_SUCCESS
///   - UR_RESULT_ERROR_INVALID_NULL_POINTER when `pHostAddress` is NULL
///   - UR_RESULT_ERROR_INVALID_VALUE when nothing is registered at `pHostAddress`
UR_APIEXPORT ur_result_t UR_APICALL urcDeviceGlobalUnregister(const void *pHostAddress);

/// Prepares a freshly built program for the queue's device. For each registered variable the
/// program holds: without device_image_scope, allocates (once per context and device) and
/// zero-fills its USM buffer and writes the buffer's address into the program's variable;
/// with device_image_scope, remembers that this program holds it. Variables the program does
/// not hold are skipped. Blocks until the writes are done. Calling it again for the same
/// program and device is harmless.
///
/// @returns
///   - UR_RESULT_SUCCESS
///   - UR_RESULT_ERROR_INVALID_NULL_HANDLE when `hQueue` or `hProgram` is NULL
///   - UR_RESULT_ERROR_OUT_OF_HOST_MEMORY
///   - any error of the UR calls it makes (urProgramGetGlobalVariablePointer,
///     urUSMDeviceAlloc, urEnqueueUSMFill, urEnqueueDeviceGlobalVariableWrite, ...)
UR_APIEXPORT ur_result_t UR_APICALL urcDeviceGlobalProgramBuilt(
    ur_queue_handle_t hQueue,    ///< [in] a queue on the device the program was built for
    ur_program_handle_t hProgram ///< [in] the built program
);

/// Forgets a program (before the caller releases it): drops the registry's references to it.
///
/// @returns
///   - UR_RESULT_SUCCESS (also when the registry did not know the program)
///   - UR_RESULT_ERROR_INVALID_NULL_HANDLE when `hProgram` is NULL
UR_APIEXPORT ur_result_t UR_APICALL urcDeviceGlobalForgetProgram(ur_program_handle_t hProgram);

/// Frees every USM buffer the registry allocated in `hContext` and drops its references to the
/// context and to the context's programs. Call it before releasing the context for the last
/// time; a later copy in that context allocates a new, zeroed buffer.
///
/// @returns
///   - UR_RESULT_SUCCESS (also when the registry held nothing in the context)
///   - UR_RESULT_ERROR_INVALID_NULL_HANDLE when `hContext` is NULL
UR_APIEXPORT ur_result_t UR_APICALL urcDeviceGlobalReleaseContext(ur_context_handle_t hContext);

/// Copies `numBytes` from `pSrc` into the variable at `offset`, on `hQueue`.
/// Without device_image_scope the copy is a urEnqueueUSMMemcpy into the variable's buffer for
/// the queue's context and device (allocated and zeroed on first need); with it, a
/// urEnqueueDeviceGlobalVariableWrite into the one program built for the queue's context and
/// device that holds the variable. `numBytes == 0` enqueues only a wait on the wait list.
///
/// @returns
///   - UR_RESULT_SUCCESS
///   - UR_RESULT_ERROR_INVALID_NULL_HANDLE when `hQueue` is NULL
///   - UR_RESULT_ERROR_INVALID_NULL_POINTER when `pHostAddress` or `pSrc` is NULL
///   - UR_RESULT_ERROR_INVALID_EVENT_WAIT_LIST when the wait list and its count disagree or
///     it holds a NULL event
///   - UR_RESULT_ERROR_INVALID_VALUE when nothing is registered at `pHostAddress`, or when
///     `offset > size || numBytes > size - offset` ("copy of N bytes at offset O exceeds
///     device global '<id>' of S bytes")
///   - UR_RESULT_ERROR_INVALID_OPERATION for a device_image_scope variable that no program
///     passed to urcDeviceGlobalProgramBuilt for this context and device holds, or that more
///     than one holds ("More than one image exists with the device_global '<id>'")
///   - any error of the UR calls it makes
UR_APIEXPORT ur_result_t UR_APICALL urcDeviceGlobalCopyTo(
    ur_queue_handle_t hQueue,                 ///< [in]
    const void *pHostAddress,                 ///< [in] the variable, as registered
    const void *pSrc,                         ///< [in] numBytes to copy
    size_t numBytes,                          ///< [in]
    size_t offset,                            ///< [in] bytes into the variable
    bool blocking,                            ///< [in] return after the copy is done
    uint32_t numEventsInWaitList,             ///< [in]
    const ur_event_handle_t *phEventWaitList, ///< [in][opt][range(0,numEventsInWaitList)]
    ur_event_handle_t *phEvent                ///< [out][opt] the copy's event
);

/// Copies `numBytes` from the variable at `offset` into `pDst`; as urcDeviceGlobalCopyTo
/// (`pDst` NULL gives UR_RESULT_ERROR_INVALID_NULL_POINTER).
UR_APIEXPORT ur_result_t UR_APICALL urcDeviceGlobalCopyFrom(
    ur_queue_handle_t hQueue,                 ///< [in]
    const void *pHostAddress,                 ///< [in] the variable, as registered
    void *pDst,                               ///< [out] numBytes
    size_t numBytes,                          ///< [in]
    size_t offset,                            ///< [in] bytes into the variable
    bool blocking,                            ///< [in] return after the copy is done
    uint32_t numEventsInWaitList,             ///< [in]
    const ur_event_handle_t *phEventWaitList, ///< [in][opt][range(0,numEventsInWaitList)]
    ur_event_handle_t *phEvent                ///< [out][opt] the copy's event
);

/// The message of the calling thread's last failed urcDeviceGlobal* call ("" when none);
/// errors that come from an adapter also leave the adapter's own message for
/// urAdapterGetLastError.
///
/// @returns
///   - UR_RESULT_SUCCESS
///   - UR_RESULT_ERROR_INVALID_NULL_POINTER when `ppMessage` is NULL
UR_APIEXPORT ur_result_t UR_APICALL urcDeviceGlobalGetLastError(const char **ppMessage);

#ifdef __cplusplus
}
#endif

#endif // URC_DEVICE_GLOBAL_H

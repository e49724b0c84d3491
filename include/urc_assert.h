// SPDX-License-Identifier: MIT
// urc's device-side assert reports (docs/device-globals-and-assert.md).
//
// By default a device assert seen by an adapter prints its message to stderr and aborts the
// process, as UR and DPC++ do. With URC_ASSERT_MODE=report the adapter call that observed the
// assert (urQueueFinish, urEventWait, ...) instead returns UR_RESULT_ERROR_ADAPTER_SPECIFIC;
// urAdapterGetLastError then gives the message and the native code URC_ERROR_DEVICE_ASSERT,
// and urcAssertGetLastReport (exported by urc's loader) gives the fields.
#ifndef URC_ASSERT_H
#define URC_ASSERT_H

#include <stdint.h>

#include "ur_api.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The native error code urAdapterGetLastError gives for a device assert in report mode
/// ("URCA"; no OpenCL, CUDA or Level Zero code has this value).
#define URC_ERROR_DEVICE_ASSERT 0x55524341

/// Room for the longest message: 256-byte file, 128-byte function and 256-byte expression,
/// line and six 20-digit ids, plus the fixed text.
#define URC_ASSERT_MESSAGE_SIZE 1024

/// One device assert, as the kernel recorded it.
typedef struct urc_assert_report_t {
    char expr[257];       ///< the failed expression ("" when the device wrote none)
    char file[257];       ///< source file
    char func[129];       ///< function
    int32_t line;         ///< source line
    uint64_t globalId[3]; ///< global id of the work-item that failed first
    uint64_t localId[3];  ///< its local id
    /// "file:line: func: global id: [x,y,z], local id: [x,y,z] Assertion `expr` failed."
    /// with "<unknown file>", "<unknown func>", "<unknown expr>" for empty strings.
    char message[URC_ASSERT_MESSAGE_SIZE];
} urc_assert_report_t;

/// Copies the calling thread's last device-assert report.
///
/// Reports are kept per thread: the thread whose UR call returned the assert gets it. Each
/// adapter hands its reports to urc's loader when that loader is in the process; under another
/// loader only urAdapterGetLastError carries the message.
///
/// @returns
///   - UR_RESULT_SUCCESS and `*pReport` filled
///   - UR_RESULT_ERROR_INVALID_NULL_POINTER when `pReport == NULL`
///   - UR_RESULT_ERROR_INVALID_OPERATION when no assert was reported to this thread
UR_APIEXPORT ur_result_t UR_APICALL urcAssertGetLastReport(urc_assert_report_t *pReport);

/// Used by urc's adapters to hand a report to the loader (the calling thread's last report
/// becomes `*pReport`). Not meant for applications; a NULL `pReport` is ignored.
UR_APIEXPORT void UR_APICALL urcAssertPublish(const urc_assert_report_t *pReport);

#ifdef __cplusplus
}
#endif

#endif // URC_ASSERT_H

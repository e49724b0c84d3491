// SPDX-License-Identifier: MIT
// Device-side assert (seeds 000 and 001): the fallback record a kernel fills, its message, and
// what happens when the host sees it (abort, SIGTRAP first under a debugger, or report mode).
#ifndef URC_COMMON_PROGRAM_ASSERT_RECORD_H
#define URC_COMMON_PROGRAM_ASSERT_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ur_api.h"

/// The program-scope variable the fallback __devicelib_assert_fail fills.
#define URC_ASSERT_SYMBOL "__SYCL_AssertHappenedMem"
/// Its size and layout on SPIR64/x86-64: Flag 0, Expr 4, File 261, Func 518, Line 648,
/// GID0..2 656, 664, 672, LID0..2 680, 688, 696.
#define URC_ASSERT_RECORD_SIZE 704

/// The extension string that says "this device asserts natively".
#define URC_NATIVE_ASSERT_EXTENSION "cl_intel_devicelib_assert"

typedef struct urc_assert_record_t {
    int32_t flag; // 0 none, 1 being written (device only), 2 complete
    char expr[257];
    char file[257];
    char func[129];
    int32_t line;
    uint64_t global_id[3];
    uint64_t local_id[3];
} urc_assert_record_t;

/// Decodes the 704 raw bytes read back from the device: little-endian fields, strings copied up
/// to 256/256/128 characters and always terminated, even when the device wrote no NUL.
/// Returns true when an assert was recorded (flag == 2); `out` is filled whatever the flag.
/// A NULL `raw` or `size` below URC_ASSERT_RECORD_SIZE gives false and a zeroed `out`.
bool urc_assert_decode(const void *raw, size_t size, urc_assert_record_t *out);

/// The seed's message, without the newline:
/// "file:line: func: global id: [x,y,z], local id: [x,y,z] Assertion `expr` failed."
/// Empty strings read "<unknown file>", "<unknown func>", "<unknown expr>".
void urc_assert_format(const urc_assert_record_t *rec, char *buf, size_t size);

/// Delivers an assert seen on the host; both modes first print the message and a newline to
/// stderr and flush it (seed 000, requirement 2).
/// Abort mode (default): raises SIGTRAP when a tracer (debugger) is attached, so the debugger
/// stops here, then calls abort(); never returns.
/// Report mode (URC_ASSERT_MODE=report): records the message and native code
/// URC_ERROR_DEVICE_ASSERT for urAdapterGetLastError (this library, this thread), hands the
/// fields to urc's loader for urcAssertGetLastReport, and returns
/// UR_RESULT_ERROR_ADAPTER_SPECIFIC, which the adapter returns from the call that observed it.
/// A NULL `rec` gives UR_RESULT_ERROR_INVALID_NULL_POINTER.
ur_result_t urc_assert_deliver(const urc_assert_record_t *rec);

/// For backends whose driver detects the assert itself and gives no record (CUDA's
/// CUDA_ERROR_ASSERT after the device printed its own message): delivers `message` as
/// urc_assert_deliver does, with empty fields in the report (line 0, ids 0). A NULL `message`
/// gives UR_RESULT_ERROR_INVALID_NULL_POINTER.
ur_result_t urc_assert_deliver_native(const char *message);

/// True in report mode. Any other URC_ASSERT_MODE than abort/report (any case) warns once on
/// stderr and means abort.
bool urc_assert_report_mode(void);

/// The process id of this process's tracer (TracerPid in /proc/self/status), 0 when there is
/// none or it cannot be read.
int urc_assert_tracer_pid(void);

#endif // URC_COMMON_PROGRAM_ASSERT_RECORD_H

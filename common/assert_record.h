// SPDX-License-Identifier: MIT
// Device-side assert (seeds 000 and 001): the fallback record a kernel fills, its message, and
// what happens when the host sees it (abort, SIGTRAP first under a debugger, or report mode).
#ifndef URC_COMMON_ASSERT_RECORD_H
#define URC_COMMON_ASSERT_RECORD_H

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

/// Decodes the 704 raw bytes read back from the device (strings bounded and terminated).
/// Returns true when an assert was recorded (flag == 2).
bool urc_assert_decode(const void *raw, size_t size, urc_assert_record_t *out);

/// The seed's message, without the newline:
/// "file:line: func: global id: [x,y,z], local id: [x,y,z] Assertion `expr` failed."
/// Empty strings read "<unknown file>", "<unknown func>", "<unknown expr>".
void urc_assert_format(const urc_assert_record_t *rec, char *buf, size_t size);

/// Delivers an assert seen on the host. Abort mode (default): prints the message to stderr,
/// raises SIGTRAP first when a debugger is attached, then aborts. Report mode
/// (URC_ASSERT_MODE=report): records the message for urAdapterGetLastError and the fields for
/// urcAssertGetLastReport, and returns UR_RESULT_ERROR_ADAPTER_SPECIFIC with native code
/// URC_ERROR_DEVICE_ASSERT.
ur_result_t urc_assert_deliver(const urc_assert_record_t *rec);

/// True in report mode.
bool urc_assert_report_mode(void);

#endif // URC_COMMON_ASSERT_RECORD_H

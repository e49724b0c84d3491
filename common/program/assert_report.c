// SPDX-License-Identifier: MIT
// The loader's half of report mode: the last device-assert report of each thread. Only the
// loader links this file (urc_loader_exports); adapters reach it through urcAssertPublish, found
// at run time by common/program/assert_record.c.
#include <stdbool.h>

#include "urc_assert.h"

static _Thread_local urc_assert_report_t last_report;
static _Thread_local bool has_report;

UR_APIEXPORT void UR_APICALL urcAssertPublish(const urc_assert_report_t *pReport) {
    if (pReport == NULL)
        return;
    last_report = *pReport;
    // The adapter formats it, but a caller of this exported symbol may not have terminated
    // the strings; the copy handed out later always is.
    last_report.expr[sizeof last_report.expr - 1] = '\0';
    last_report.file[sizeof last_report.file - 1] = '\0';
    last_report.func[sizeof last_report.func - 1] = '\0';
    last_report.message[sizeof last_report.message - 1] = '\0';
    has_report = true;
}

UR_APIEXPORT ur_result_t UR_APICALL urcAssertGetLastReport(urc_assert_report_t *pReport) {
    if (pReport == NULL)
        return UR_RESULT_ERROR_INVALID_NULL_POINTER;
    if (!has_report)
        return UR_RESULT_ERROR_INVALID_OPERATION;
    *pReport = last_report;
    return UR_RESULT_SUCCESS;
}

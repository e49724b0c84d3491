// SPDX-License-Identifier: MIT
// The memory-export cases the CUDA and Level Zero suites share (test_<adapter>_memory_export):
// the argument rules of urMemoryExport*Exp for opaque file descriptors, memory of another
// context, urUSMFree's refusal of exportable memory, and the descriptor checks of
// urBindlessImagesImportExternalMemoryExp (a closed fd, /dev/null, a size past the file's). The
// round trips through each driver stay in each suite. The cases run on the handles of the adapter's
// fixture, recorded by urc_test_open (urc_test_opened).
#ifndef URC_TEST_CONFORMANCE_COMMON_MEMORY_EXPORT_CASES_H
#define URC_TEST_CONFORMANCE_COMMON_MEMORY_EXPORT_CASES_H

#include "urc_fixture.h"

/// export_bad_arguments, export_other_context, export_usm_free_refused,
/// import_checks_the_descriptor.
void memory_export_cases_add(TCase *tc);

#endif // URC_TEST_CONFORMANCE_COMMON_MEMORY_EXPORT_CASES_H

// SPDX-License-Identifier: MIT
// Virtual-function image selection (seed 003) for urProgramLink: which candidate programs to
// link for one device, following "SYCL/virtual functions" from the first program.
#ifndef URC_COMMON_VFSELECT_H
#define URC_COMMON_VFSELECT_H

#include <stdbool.h>
#include <stddef.h>

#include "props.h"
#include "requirements.h"

/// Chooses among `n` programs (props[i] may be NULL: no properties). props[0] is the kernel's
/// image and is always selected. A provider of set S (virtual-functions-set) is selected
/// exactly when (the device meets its requirements) XOR (it is a dummy image); another user
/// of a selected set is selected when the device meets its requirements. Sets are followed
/// transitively from props[0], each once. Linear in programs plus sets.
///
/// When no program carries virtual-function properties every program is selected and the
/// result is UR_RESULT_SUCCESS. A used set without a selected provider gives
/// UR_RESULT_ERROR_PROGRAM_LINK_FAILURE and a log line naming the set; the first program
/// failing its own requirements gives UR_RESULT_ERROR_UNSUPPORTED_FEATURE with the message of
/// urc_check_requirements.
ur_result_t urc_vf_select(const urc_props_t *const *props, size_t n,
                          const urc_device_caps_t *caps, bool *selected, char *log,
                          size_t log_size);

#endif // URC_COMMON_VFSELECT_H

// SPDX-License-Identifier: MIT
// Virtual-function image selection (seed 003) for urProgramLink: which candidate programs to
// link for one device, following "SYCL/virtual functions" from the first program.
#ifndef URC_COMMON_PROGRAM_VFSELECT_H
#define URC_COMMON_PROGRAM_VFSELECT_H

#include <stdbool.h>
#include <stddef.h>

#include "program/props.h"
#include "program/requirements.h"

/// Properties read, all in "SYCL/virtual functions":
///   virtual-functions-set       sets the image provides (comma list; string or byte array)
///   uses-virtual-functions-set  sets the image's kernels use (comma list)
///   dummy-image                 UINT32, non-zero on the emptied copy of a provider image
#define URC_VF_PROVIDES "virtual-functions-set"
#define URC_VF_USES     "uses-virtual-functions-set"
#define URC_VF_DUMMY    "dummy-image"

/// Chooses among `n` programs (props[i] may be NULL: no properties); `selected[i]` says whether
/// to link program i.
///
/// props[0] is the kernel's image: it is always selected, and it must meet the device's
/// requirements (urc_check_requirements), else the result is UR_RESULT_ERROR_UNSUPPORTED_FEATURE
/// with that message in `log`. Programs without any "SYCL/virtual functions" property are not
/// candidates of this selection and are selected as given (imported-symbol images, device
/// libraries); when no program has such a property, that is all of them.
///
/// From props[0], the sets it uses or provides are followed transitively, each set once (cycles
/// end). For each set reached:
///   - a program that provides any set is selected exactly when (it meets the device's
///     requirements) XOR (it is a dummy image), so one of a real image and its dummy twin is
///     linked (intel/llvm#16087);
///   - a program that only uses the set is selected when it meets the device's requirements;
///   - a selected program's own sets are followed in turn.
/// Virtual-function programs never reached are not selected.
///
/// A reached set without a selected provider gives UR_RESULT_ERROR_PROGRAM_LINK_FAILURE and a
/// line in `log` naming the set, e.g. "Virtual-function set 'A' is used but no device image
/// provides it." Malformed properties give UR_RESULT_ERROR_INVALID_VALUE. NULL `props` (with
/// n > 0), `caps` or `selected` give UR_RESULT_ERROR_INVALID_NULL_POINTER; n == 0 gives
/// UR_RESULT_ERROR_INVALID_SIZE. Linear in programs, properties and set names (hash maps).
ur_result_t urc_vf_select(const urc_props_t *const *props, size_t n, const urc_device_caps_t *caps,
                          bool *selected, char *log, size_t log_size);

#endif // URC_COMMON_PROGRAM_VFSELECT_H

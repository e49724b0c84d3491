// SPDX-License-Identifier: MIT
// The cases of the adapters' image suites (test_<adapter>_image) that are the same on every
// adapter: creation and its refusals, round trips of every format in every shape with
// edge-touching boxes and wide host pitches, reads outside the image, buffers and images kept
// apart, copies between images, info and native handles. What depends on the backend (which
// formats it maps, its limits, samplers and kernels) stays in each adapter's suite. The cases
// run on the handles of the adapter's fixture (urc_test_opened).
#ifndef URC_TEST_CONFORMANCE_COMMON_IMAGE_CASES_H
#define URC_TEST_CONFORMANCE_COMMON_IMAGE_CASES_H

#include <stdbool.h>
#include <stdint.h>

#include "urc_fixture.h"

/// The formats the round-trip case expects of the adapter.
typedef struct image_cases_formats_t {
    /// Whether the backend offers `f` in images of `type`: creation must then succeed and
    /// otherwise answer UNSUPPORTED_IMAGE_FORMAT. NULL: whatever creation accepts is tried.
    bool (*offered)(ur_mem_type_t type, ur_image_format_t f);
    size_t count;  ///< (shape, format) pairs that must round-trip
    bool at_least; ///< `count` is a minimum (the runtime decides what it offers)
} image_cases_formats_t;

extern const ur_image_format_t image_cases_rgba8;
extern const ur_image_format_t image_cases_rgba32f;

/// The extents the cases use per shape: 5 wide, 3 rows or 1D layers, 2 slices or 2D layers.
ur_image_desc_t image_cases_desc_of(ur_mem_type_t type);

/// A READ_WRITE 2D image of `f`, w x h.
ur_mem_handle_t image_cases_2d(const ur_image_format_t *f, size_t w, size_t h);

/// The byte pattern the cases write: byte i is i * 7 + 3.
uint8_t image_cases_pattern(size_t i);

/// bad_descriptors_get_the_spec_results, bad_formats_get_the_spec_results, host_pointer_rules,
/// copy_host_pointer_with_a_wide_row_pitch.
void image_cases_add_creation(TCase *tc);

/// every_format_round_trips_in_every_shape (`formats` must outlive the suite),
/// write_of_a_pitched_box_lands_inside_only, read_outside_is_invalid_size,
/// buffers_and_images_do_not_mix.
void image_cases_add_transfers(TCase *tc, const image_cases_formats_t *formats);

/// copy_between_images_touching_edges, copy_from_a_3d_slice_into_a_2d_image.
void image_cases_add_copies(TCase *tc);

/// info_answers_the_shape, native_handle_round_trip.
void image_cases_add_info(TCase *tc);

/// The four test cases every adapter's image suite has, made with the adapter's `tcase` and
/// added to `s` in this order: urMemImageCreate (image_cases_add_creation),
/// urEnqueueMemImageReadWrite (image_cases_add_transfers with `formats`),
/// urEnqueueMemImageCopy, urMemImageGetInfo. Returns the urMemImageCreate case, for the
/// adapter's own creation tests.
TCase *image_cases_add_all(Suite *s, TCase *(*tcase)(const char *name),
                           const image_cases_formats_t *formats);

#endif // URC_TEST_CONFORMANCE_COMMON_IMAGE_CASES_H

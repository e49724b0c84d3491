// SPDX-License-Identifier: MIT
// tools/sycl-interposer: which images get NVIDIA twins, what a twin shares with its original,
// and the registry that registers and unregisters them around libsycl's functions (faked here).
#include <pthread.h>
#include <stddef.h>
#include <string.h>

#include "sycl_twins.h"
#include "urc_test.h"

static const uint32_t spirv_words[] = {URC_SPIRV_MAGIC, 0x00010400, 0, 16, 0};
static const unsigned char native_bytes[] = {0x7f, 'E', 'L', 'F', 0, 0, 0, 0};
static char entries[3][64]; // stand-ins: the twins must point at the same ones
static char property_sets[2][24];

static urc_sycl_image_t image(const char *target, uint8_t format, const void *bytes, size_t size) {
    urc_sycl_image_t im = {
        .version = URC_SYCL_IMAGE_VERSION,
        .kind = URC_SYCL_KIND_SYCL,
        .format = format,
        .target = target,
        .compile_options = "-O2",
        .link_options = "",
        .binary_start = bytes,
        .binary_end = (const unsigned char *)bytes + size,
        .entries_begin = entries[0],
        .entries_end = entries[3 - 1] + 64,
        .property_sets_begin = property_sets[0],
        .property_sets_end = property_sets[1] + 24,
    };
    return im;
}

static urc_sycl_image_t spirv(void) {
    return image("spir64", URC_SYCL_FORMAT_NONE, spirv_words, sizeof spirv_words);
}

START_TEST(layout_matches_libsycl) {
    // libsycl.so.9 (2026.2) reads the format at byte 3, the property sets at 0x40 and 0x48, and
    // steps 0x50 from one image to the next; the count at byte 2 and the images at 8.
    ck_assert_uint_eq(offsetof(urc_sycl_image_t, format), 3);
    ck_assert_uint_eq(offsetof(urc_sycl_image_t, target), 8);
    ck_assert_uint_eq(offsetof(urc_sycl_image_t, binary_start), 0x20);
    ck_assert_uint_eq(offsetof(urc_sycl_image_t, entries_begin), 0x30);
    ck_assert_uint_eq(offsetof(urc_sycl_image_t, property_sets_begin), 0x40);
    ck_assert_uint_eq(offsetof(urc_sycl_image_t, property_sets_end), 0x48);
    ck_assert_uint_eq(sizeof(urc_sycl_image_t), 0x50);
    ck_assert_uint_eq(offsetof(urc_sycl_descriptor_t, count), 2);
    ck_assert_uint_eq(offsetof(urc_sycl_descriptor_t, images), 8);
}
END_TEST

START_TEST(spirv64_images) {
    urc_sycl_image_t im = spirv();
    ck_assert(urc_sycl_image_is_spirv64(&im));
    im.format = URC_SYCL_FORMAT_SPIRV;
    ck_assert(urc_sycl_image_is_spirv64(&im));
}
END_TEST

START_TEST(other_images) {
    urc_sycl_image_t im = spirv();
    im.format = URC_SYCL_FORMAT_NATIVE;
    ck_assert(!urc_sycl_image_is_spirv64(&im));
    im = spirv();
    im.format = 4; // compressed: the bytes are not SPIR-V until libsycl unpacks them
    ck_assert(!urc_sycl_image_is_spirv64(&im));
    im = image("spir64_gen", URC_SYCL_FORMAT_NATIVE, native_bytes, sizeof native_bytes);
    ck_assert(!urc_sycl_image_is_spirv64(&im));
    im = image("spir64_x86_64", URC_SYCL_FORMAT_NONE, spirv_words, sizeof spirv_words);
    ck_assert(!urc_sycl_image_is_spirv64(&im));
    im = image("nvptx64", URC_SYCL_FORMAT_NONE, spirv_words, sizeof spirv_words);
    ck_assert(!urc_sycl_image_is_spirv64(&im));
    im = image("spir64", URC_SYCL_FORMAT_NONE, native_bytes, sizeof native_bytes);
    ck_assert(!urc_sycl_image_is_spirv64(&im)); // no SPIR-V magic
    im = image("spir64", URC_SYCL_FORMAT_NONE, spirv_words, 3);
    ck_assert(!urc_sycl_image_is_spirv64(&im)); // shorter than the magic
    im = image(NULL, URC_SYCL_FORMAT_NONE, spirv_words, sizeof spirv_words);
    ck_assert(!urc_sycl_image_is_spirv64(&im));
    im = spirv();
    im.kind = 1;
    ck_assert(!urc_sycl_image_is_spirv64(&im));
}
END_TEST

START_TEST(twins_share_everything_but_label) {
    urc_sycl_image_t images[3] = {
        spirv(), image("spir64_gen", URC_SYCL_FORMAT_NATIVE, native_bytes, sizeof native_bytes),
        image("spir64", URC_SYCL_FORMAT_SPIRV, spirv_words, sizeof spirv_words)};
    urc_sycl_descriptor_t desc = {URC_SYCL_DESCRIPTOR_VERSION, 3, images, NULL, NULL};
    urc_sycl_image_t before[3];
    memcpy(before, images, sizeof images);
    urc_sycl_descriptor_t copy = desc;

    urc_sycl_descriptor_t *twin = NULL;
    ck_assert_int_eq(urc_sycl_twins_make(&desc, &twin), URC_SYCL_TWINS_MADE);
    ck_assert_ptr_nonnull(twin);
    ck_assert_uint_eq(twin->version, URC_SYCL_DESCRIPTOR_VERSION);
    ck_assert_uint_eq(twin->count, 2);
    ck_assert_ptr_null(twin->host_entries_begin);
    const urc_sycl_image_t *from[2] = {&images[0], &images[2]};
    for (int i = 0; i < 2; ++i) {
        const urc_sycl_image_t *t = &twin->images[i];
        ck_assert_str_eq(t->target, "nvptx64");
        ck_assert_uint_eq(t->format, URC_SYCL_FORMAT_NATIVE);
        ck_assert_uint_eq(t->version, URC_SYCL_IMAGE_VERSION);
        ck_assert_uint_eq(t->kind, URC_SYCL_KIND_SYCL);
        ck_assert_ptr_eq(t->binary_start, from[i]->binary_start); // the same bytes, not a copy
        ck_assert_ptr_eq(t->binary_end, from[i]->binary_end);
        ck_assert_ptr_eq(t->entries_begin, from[i]->entries_begin);
        ck_assert_ptr_eq(t->entries_end, from[i]->entries_end);
        ck_assert_ptr_eq(t->property_sets_begin, from[i]->property_sets_begin);
        ck_assert_ptr_eq(t->property_sets_end, from[i]->property_sets_end);
        ck_assert_ptr_eq(t->compile_options, from[i]->compile_options);
        ck_assert_ptr_eq(t->link_options, from[i]->link_options);
    }
    // The original is left exactly as it was.
    ck_assert_int_eq(memcmp(before, images, sizeof images), 0);
    ck_assert_int_eq(memcmp(&copy, &desc, sizeof desc), 0);
    urc_sycl_twins_free(twin);
    urc_sycl_twins_free(NULL);
}
END_TEST

START_TEST(nothing_to_twin) {
    urc_sycl_image_t images[1] = {
        image("spir64_gen", URC_SYCL_FORMAT_NATIVE, native_bytes, sizeof native_bytes)};
    urc_sycl_descriptor_t desc = {URC_SYCL_DESCRIPTOR_VERSION, 1, images, NULL, NULL};
    urc_sycl_descriptor_t *twin = (urc_sycl_descriptor_t *)&desc;
    ck_assert_int_eq(urc_sycl_twins_make(&desc, &twin), URC_SYCL_TWINS_NONE);
    ck_assert_ptr_null(twin);
    desc.count = 0;
    desc.images = NULL;
    ck_assert_int_eq(urc_sycl_twins_make(&desc, &twin), URC_SYCL_TWINS_NONE);
}
END_TEST

START_TEST(unknown_versions_left_alone) {
    urc_sycl_image_t images[2] = {spirv(), spirv()};
    urc_sycl_descriptor_t desc = {2, 2, images, NULL, NULL};
    urc_sycl_descriptor_t *twin = NULL;
    ck_assert_int_eq(urc_sycl_twins_make(&desc, &twin), URC_SYCL_TWINS_UNKNOWN);
    ck_assert_ptr_null(twin);
    desc.version = URC_SYCL_DESCRIPTOR_VERSION;
    images[1].version = 2; // the older layout, with manifest fields: nothing is twinned
    ck_assert_int_eq(urc_sycl_twins_make(&desc, &twin), URC_SYCL_TWINS_UNKNOWN);
    ck_assert_ptr_null(twin);
    desc.images = NULL; // images promised, none given
    ck_assert_int_eq(urc_sycl_twins_make(&desc, &twin), URC_SYCL_TWINS_UNKNOWN);
    ck_assert_int_eq(urc_sycl_twins_make(NULL, &twin), URC_SYCL_TWINS_UNKNOWN);
}
END_TEST

// A fake libsycl: records what was registered and unregistered, in order.
static urc_sycl_descriptor_t *calls[16];
static char call_kind[16];
static int ncalls;
static void fake_register(urc_sycl_descriptor_t *d) {
    call_kind[ncalls] = 'r';
    calls[ncalls++] = d;
}
static void fake_unregister(urc_sycl_descriptor_t *d) {
    call_kind[ncalls] = 'u';
    calls[ncalls++] = d;
}

START_TEST(registry_pairs_twins_with_original) {
    urc_sycl_image_t images[2] = {
        spirv(), image("spir64_gen", URC_SYCL_FORMAT_NATIVE, native_bytes, sizeof native_bytes)};
    urc_sycl_descriptor_t desc = {URC_SYCL_DESCRIPTOR_VERSION, 2, images, NULL, NULL};
    ncalls = 0;
    urc_sycl_register_report_t r = urc_sycl_registry_add(&desc, fake_register, true);
    ck_assert_int_eq(r.result, URC_SYCL_TWINS_MADE);
    ck_assert_uint_eq(r.twins, 1);
    ck_assert_int_eq(ncalls, 2);
    ck_assert_int_eq(call_kind[0], 'r');
    ck_assert_ptr_eq(calls[0], &desc); // the original first, as it came
    ck_assert_int_eq(call_kind[1], 'r');
    urc_sycl_descriptor_t *twin = calls[1];
    ck_assert_ptr_ne(twin, &desc);
    ck_assert_uint_eq(twin->count, 1);
    ck_assert_str_eq(twin->images[0].target, "nvptx64");
    ck_assert_uint_eq(urc_sycl_registry_size(), 1);

    urc_sycl_registry_remove(&desc, fake_unregister);
    ck_assert_int_eq(ncalls, 4);
    ck_assert_int_eq(call_kind[2], 'u');
    ck_assert_ptr_eq(calls[2], twin); // twins go first, then the original
    ck_assert_int_eq(call_kind[3], 'u');
    ck_assert_ptr_eq(calls[3], &desc);
    ck_assert_uint_eq(urc_sycl_registry_size(), 0);
}
END_TEST

START_TEST(registry_without_twins_passes_through) {
    urc_sycl_image_t images[1] = {spirv()};
    urc_sycl_descriptor_t desc = {URC_SYCL_DESCRIPTOR_VERSION, 1, images, NULL, NULL};
    ncalls = 0;
    urc_sycl_register_report_t r = urc_sycl_registry_add(&desc, fake_register, false);
    ck_assert_uint_eq(r.twins, 0);
    ck_assert_int_eq(ncalls, 1);
    ck_assert_ptr_eq(calls[0], &desc);
    ck_assert_uint_eq(urc_sycl_registry_size(), 0);
    urc_sycl_registry_remove(&desc, fake_unregister);
    ck_assert_int_eq(ncalls, 2);
    ck_assert_ptr_eq(calls[1], &desc);

    // A version it does not know: registered untouched, and nothing else.
    desc.version = 7;
    ncalls = 0;
    r = urc_sycl_registry_add(&desc, fake_register, true);
    ck_assert_int_eq(r.result, URC_SYCL_TWINS_UNKNOWN);
    ck_assert_int_eq(ncalls, 1);
    ck_assert_ptr_eq(calls[0], &desc);
    ck_assert_uint_eq(desc.version, 7);
    ck_assert_str_eq(images[0].target, "spir64");
    urc_sycl_registry_remove(&desc, fake_unregister);
    ck_assert_int_eq(ncalls, 2);
}
END_TEST

static void quiet_register(urc_sycl_descriptor_t *d) {
    (void)d;
}

static void *churn(void *arg) {
    (void)arg;
    for (int i = 0; i < 500; ++i) {
        urc_sycl_image_t images[1] = {spirv()};
        urc_sycl_descriptor_t desc = {URC_SYCL_DESCRIPTOR_VERSION, 1, images, NULL, NULL};
        urc_sycl_registry_add(&desc, quiet_register, true);
        urc_sycl_registry_remove(&desc, quiet_register);
    }
    return NULL;
}

START_TEST(registry_threads) {
    pthread_t t[8];
    for (int i = 0; i < 8; ++i)
        ck_assert_int_eq(pthread_create(&t[i], NULL, churn, NULL), 0);
    for (int i = 0; i < 8; ++i)
        pthread_join(t[i], NULL);
    ck_assert_uint_eq(urc_sycl_registry_size(), 0);
}
END_TEST

int main(void) {
    Suite *s = suite_create("sycl_twins");
    TCase *tc = tcase_create("layout");
    tcase_add_test(tc, layout_matches_libsycl);
    suite_add_tcase(s, tc);
    tc = tcase_create("urc_sycl_image_is_spirv64");
    tcase_add_test(tc, spirv64_images);
    tcase_add_test(tc, other_images);
    suite_add_tcase(s, tc);
    tc = tcase_create("urc_sycl_twins_make");
    tcase_add_test(tc, twins_share_everything_but_label);
    tcase_add_test(tc, nothing_to_twin);
    tcase_add_test(tc, unknown_versions_left_alone);
    suite_add_tcase(s, tc);
    tc = tcase_create("urc_sycl_registry");
    tcase_add_test(tc, registry_pairs_twins_with_original);
    tcase_add_test(tc, registry_without_twins_passes_through);
    tcase_add_test(tc, registry_threads);
    suite_add_tcase(s, tc);
    return urc_test_run(s);
}

// SPDX-License-Identifier: MIT
// common/program/vfselect: the dummy XOR rule, transitive sets, cycles, missing providers, scale.
#include <stdio.h>
#include <time.h>

#include "md_builder.h"
#include "urc_test.h"
#include "program/vfselect.h"

#define VF  "SYCL/virtual functions/"
#define REQ "SYCL/device requirements/"

// What a test image carries: the sets it provides and uses, whether it is a dummy, and one
// aspect it needs (0: none).
typedef struct image_t {
    const char *provides;
    const char *uses;
    bool dummy;
    uint32_t aspect;
} image_t;

static urc_props_t *make_image(image_t img) {
    md_list_t l = {0};
    if (img.provides != NULL)
        md_bytes(&l, VF "virtual-functions-set", img.provides, strlen(img.provides));
    if (img.uses != NULL)
        md_bytes(&l, VF "uses-virtual-functions-set", img.uses, strlen(img.uses));
    if (img.dummy)
        md_u32(&l, VF "dummy-image", 1);
    if (img.aspect != 0)
        md_u32s(&l, REQ "aspects", &img.aspect, 1);
    return md_parse(&l);
}

static urc_device_caps_t caps_with(const char *mask) {
    urc_device_caps_t caps = {0};
    for (uint32_t a = 0; a < 64; ++a)
        urc_caps_add_aspect(&caps, a);
    // Masking is how a test pretends the device lacks a feature.
    urc_caps_apply_mask_list(&caps, mask, NULL);
    return caps;
}

// Selects among `n` images and compares with `want` ("1" selected, "0" not, per image).
static void expect_select(const image_t *images, size_t n, const char *mask, ur_result_t result,
                          const char *want, const char *log_want) {
    urc_props_t *props[16];
    bool selected[16];
    for (size_t i = 0; i < n; ++i)
        props[i] = make_image(images[i]);
    urc_device_caps_t caps = caps_with(mask);
    char log[512] = "unset";
    ck_assert_ur(
        urc_vf_select((const urc_props_t *const *)props, n, &caps, selected, log, sizeof(log)),
        result);
    if (want != NULL) {
        char got[17] = {0};
        for (size_t i = 0; i < n; ++i)
            got[i] = selected[i] ? '1' : '0';
        ck_assert_str_eq(got, want);
    }
    if (log_want != NULL)
        ck_assert_str_eq(log, log_want);
    for (size_t i = 0; i < n; ++i)
        urc_props_release(props[i]);
}

START_TEST(no_vf_properties_selects_all) {
    urc_props_t *props[3] = {NULL, NULL, NULL};
    md_list_t l = {0};
    md_u32(&l, "SYCL/assert used/k", 1);
    props[1] = md_parse(&l);
    bool selected[3] = {false, false, false};
    urc_device_caps_t caps = caps_with("");
    ck_assert_ur_ok(urc_vf_select((const urc_props_t *const *)props, 3, &caps, selected, NULL, 0));
    ck_assert(selected[0] && selected[1] && selected[2]);
    urc_props_release(props[1]);
}
END_TEST

START_TEST(xor_rule_capable_device) {
    // K uses A; P provides A with fp64; D is P's dummy twin. With fp64, P is linked, not D.
    image_t images[] = {
        {.uses = "A"},
        {.provides = "A", .aspect = URC_ASPECT_FP64},
        {.provides = "A", .aspect = URC_ASPECT_FP64, .dummy = true},
    };
    expect_select(images, 3, "", UR_RESULT_SUCCESS, "110", "");
}
END_TEST

START_TEST(xor_rule_incapable_device) {
    image_t images[] = {
        {.uses = "A"},
        {.provides = "A", .aspect = URC_ASPECT_FP64},
        {.provides = "A", .aspect = URC_ASPECT_FP64, .dummy = true},
    };
    expect_select(images, 3, "fp64", UR_RESULT_SUCCESS, "101", "");
}
END_TEST

START_TEST(provider_without_requirements) {
    image_t images[] = {{.uses = "A"}, {.provides = "A"}};
    expect_select(images, 2, "fp64", UR_RESULT_SUCCESS, "11", "");
}
END_TEST

START_TEST(transitive_sets) {
    // K uses A; PA provides A and uses B; PB provides B; PC provides an unreached C.
    image_t images[] = {
        {.uses = "A"},
        {.provides = "A", .uses = "B"},
        {.provides = "B"},
        {.provides = "C"},
    };
    expect_select(images, 4, "", UR_RESULT_SUCCESS, "1110", "");
}
END_TEST

START_TEST(cycle_terminates) {
    image_t images[] = {
        {.uses = "A"},
        {.provides = "A", .uses = "B"},
        {.provides = "B", .uses = "A"},
    };
    expect_select(images, 3, "", UR_RESULT_SUCCESS, "111", "");
}
END_TEST

START_TEST(comma_lists) {
    image_t images[] = {
        {.uses = "A,,B"},
        {.provides = "B"},
        {.provides = "A,C"},
        {.provides = "C", .dummy = true, .aspect = URC_ASPECT_FP64}, // capable: not linked
    };
    expect_select(images, 4, "", UR_RESULT_SUCCESS, "1110", "");
}
END_TEST

START_TEST(other_users_of_a_set) {
    // Users of a reached set are linked when the device can run them, and their sets followed.
    image_t images[] = {
        {.uses = "A"},     {.provides = "A"},
        {.uses = "A,B"},   {.uses = "A", .aspect = URC_ASPECT_FP16},
        {.provides = "B"},
    };
    expect_select(images, 5, "fp16", UR_RESULT_SUCCESS, "11101", "");
}
END_TEST

START_TEST(non_candidates_are_kept) {
    // An image without virtual-function properties (say, a device library) is linked as given.
    image_t images[] = {{.uses = "A"}, {.aspect = URC_ASPECT_FP16}, {.provides = "A"}};
    expect_select(images, 3, "fp16", UR_RESULT_SUCCESS, "111", "");
}
END_TEST

START_TEST(missing_provider) {
    image_t images[] = {{.uses = "A"}, {.provides = "B"}};
    expect_select(images, 2, "", UR_RESULT_ERROR_PROGRAM_LINK_FAILURE, NULL,
                  "Virtual-function set 'A' is used but no device image provides it.");
}
END_TEST

START_TEST(missing_provider_found_transitively) {
    image_t images[] = {{.uses = "A"}, {.provides = "A", .uses = "Z"}};
    expect_select(images, 2, "", UR_RESULT_ERROR_PROGRAM_LINK_FAILURE, NULL,
                  "Virtual-function set 'Z' is used but no device image provides it.");
}
END_TEST

START_TEST(provider_unsuitable_without_dummy) {
    image_t images[] = {{.uses = "A"}, {.provides = "A", .aspect = URC_ASPECT_FP64}};
    expect_select(images, 2, "fp64", UR_RESULT_ERROR_PROGRAM_LINK_FAILURE, NULL,
                  "Virtual-function set 'A' is used but none of the 1 device images providing "
                  "it can be linked for this device: Kernel uses optional feature corresponding "
                  "to 'aspect::fp64' but device does not support this aspect.");
}
END_TEST

START_TEST(only_dummy_on_capable_device) {
    image_t images[] = {{.uses = "A"}, {.provides = "A", .dummy = true}};
    expect_select(images, 2, "", UR_RESULT_ERROR_PROGRAM_LINK_FAILURE, NULL,
                  "Virtual-function set 'A' is used but none of the 1 device images providing "
                  "it can be linked for this device: only dummy images provide it, and the "
                  "device supports what they replace");
}
END_TEST

START_TEST(kernel_image_requirements) {
    image_t images[] = {{.uses = "A", .aspect = URC_ASPECT_FP16}, {.provides = "A"}};
    expect_select(images, 2, "fp16", UR_RESULT_ERROR_UNSUPPORTED_FEATURE, NULL,
                  "Kernel uses optional feature corresponding to 'aspect::fp16' but device does "
                  "not support this aspect.");
}
END_TEST

START_TEST(malformed_dummy_flag) {
    urc_props_t *props[2];
    props[0] = make_image((image_t){.uses = "A"});
    md_list_t l = {0};
    md_bytes(&l, VF "virtual-functions-set", "A", 1);
    md_str(&l, VF "dummy-image", "1");
    props[1] = md_parse(&l);
    bool selected[2];
    urc_device_caps_t caps = caps_with("");
    char log[256];
    ck_assert_ur(
        urc_vf_select((const urc_props_t *const *)props, 2, &caps, selected, log, sizeof(log)),
        UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_str_eq(log, "'SYCL/virtual functions/dummy-image' of program 1 must be a UINT32");
    urc_props_release(props[0]);
    urc_props_release(props[1]);
}
END_TEST

START_TEST(bad_arguments) {
    urc_props_t *props[1] = {NULL};
    bool selected[1];
    urc_device_caps_t caps = caps_with("");
    ck_assert_ur(urc_vf_select((const urc_props_t *const *)props, 0, &caps, selected, NULL, 0),
                 UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur(urc_vf_select(NULL, 1, &caps, selected, NULL, 0),
                 UR_RESULT_ERROR_INVALID_NULL_POINTER);
    ck_assert_ur(urc_vf_select((const urc_props_t *const *)props, 1, NULL, selected, NULL, 0),
                 UR_RESULT_ERROR_INVALID_NULL_POINTER);
    ck_assert_ur(urc_vf_select((const urc_props_t *const *)props, 1, &caps, NULL, NULL, 0),
                 UR_RESULT_ERROR_INVALID_NULL_POINTER);
}
END_TEST

// 10,000 candidate images over 1,000 sets. Program 0 uses S0; the real provider R_s of S_s
// uses S_{s+1}, except R_899, so S900..S999 are never reached. Even sets need fp64 and have a
// dummy twin D_s. The rest are users spread over the sets, every third needing fp16.
enum { SETS = 1000, IMAGES = 10000, CHAIN_END = 899 };

typedef struct scale_image_t {
    int kind; // 0 kernel, 1 real provider, 2 dummy, 3 user
    int set;
    bool fp16;
} scale_image_t;

static void build_scale(scale_image_t *desc, urc_props_t **props) {
    size_t n = 0;
    desc[n++] = (scale_image_t){0, 0, false};
    for (int s = 0; s < SETS; ++s) {
        desc[n++] = (scale_image_t){1, s, false};
        if (s % 2 == 0)
            desc[n++] = (scale_image_t){2, s, false};
    }
    for (int u = 0; n < IMAGES; ++u)
        desc[n++] = (scale_image_t){3, u % SETS, u % 3 == 0};
    for (size_t i = 0; i < IMAGES; ++i) {
        char set[16], next[16];
        snprintf(set, sizeof(set), "S%d", desc[i].set);
        snprintf(next, sizeof(next), "S%d", desc[i].set + 1);
        md_list_t l = {0};
        if (desc[i].kind == 1 || desc[i].kind == 2) {
            md_bytes(&l, VF "virtual-functions-set", set, strlen(set));
            if (desc[i].set != CHAIN_END && desc[i].set + 1 < SETS)
                md_bytes(&l, VF "uses-virtual-functions-set", next, strlen(next));
            if (desc[i].kind == 2)
                md_u32(&l, VF "dummy-image", 1);
            if (desc[i].set % 2 == 0) {
                uint32_t a = URC_ASPECT_FP64;
                md_u32s(&l, REQ "aspects", &a, 1);
            }
        } else {
            md_bytes(&l, VF "uses-virtual-functions-set", set, strlen(set));
            if (desc[i].fp16) {
                uint32_t a = URC_ASPECT_FP16;
                md_u32s(&l, REQ "aspects", &a, 1);
            }
        }
        props[i] = md_parse(&l);
    }
}

// What the rule says, computed image by image.
static bool expected(const scale_image_t *d, bool fp64, bool fp16) {
    if (d->kind == 0)
        return true;
    if (d->set > CHAIN_END)
        return false;
    bool meets = d->set % 2 != 0 || fp64;
    if (d->kind == 1)
        return meets;
    if (d->kind == 2)
        return !meets;
    return !d->fp16 || fp16;
}

static void run_scale(const char *mask, bool fp64, bool fp16) {
    scale_image_t *desc = calloc(IMAGES, sizeof(*desc));
    urc_props_t **props = calloc(IMAGES, sizeof(*props));
    bool *selected = calloc(IMAGES, sizeof(*selected));
    build_scale(desc, props);
    urc_device_caps_t caps = caps_with(mask);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    ck_assert_ur_ok(
        urc_vf_select((const urc_props_t *const *)props, IMAGES, &caps, selected, NULL, 0));
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
    printf("urc_vf_select: %d images, %d sets, mask '%s': %.2f ms\n", IMAGES, SETS, mask, ms);
    size_t count = 0;
    for (size_t i = 0; i < IMAGES; ++i) {
        ck_assert_msg(selected[i] == expected(&desc[i], fp64, fp16), "image %zu (kind %d, S%d)", i,
                      desc[i].kind, desc[i].set);
        count += selected[i];
    }
    ck_assert_uint_gt(count, 900);
    // Linear work: well under a second even in sanitizer builds (ThreadSanitizer, which
    // instruments every access, gets ten on a loaded CI machine).
#if defined(__SANITIZE_THREAD__)
    const double limit_ms = 10000.0;
#else
    const double limit_ms = 1000.0;
#endif
    ck_assert_msg(ms < limit_ms, "took %.1f ms", ms);
    for (size_t i = 0; i < IMAGES; ++i)
        urc_props_release(props[i]);
    free(selected);
    free(props);
    free(desc);
}

START_TEST(scale_capable) {
    run_scale("", true, true);
}
END_TEST

START_TEST(scale_without_fp64_and_fp16) {
    run_scale("fp64,fp16", false, false);
}
END_TEST

static Suite *vfselect_suite(void) {
    Suite *s = suite_create("vfselect");
    TCase *tc = tcase_create("urc_vf_select");
    tcase_add_test(tc, no_vf_properties_selects_all);
    tcase_add_test(tc, xor_rule_capable_device);
    tcase_add_test(tc, xor_rule_incapable_device);
    tcase_add_test(tc, provider_without_requirements);
    tcase_add_test(tc, transitive_sets);
    tcase_add_test(tc, cycle_terminates);
    tcase_add_test(tc, comma_lists);
    tcase_add_test(tc, other_users_of_a_set);
    tcase_add_test(tc, non_candidates_are_kept);
    tcase_add_test(tc, missing_provider);
    tcase_add_test(tc, missing_provider_found_transitively);
    tcase_add_test(tc, provider_unsuitable_without_dummy);
    tcase_add_test(tc, only_dummy_on_capable_device);
    tcase_add_test(tc, kernel_image_requirements);
    tcase_add_test(tc, malformed_dummy_flag);
    tcase_add_test(tc, bad_arguments);
    suite_add_tcase(s, tc);

    tc = tcase_create("urc_vf_select_scale");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, scale_capable);
    tcase_add_test(tc, scale_without_fp64_and_fp16);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) {
    return urc_test_run(vfselect_suite());
}

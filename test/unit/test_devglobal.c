// SPDX-License-Identifier: MIT
// common/program/devglobal: metadata lookup, symbols, bounds, the resolve path, overflow-safe
// ranges, the per-program symbol cache.
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "program/devglobal.h"
#include "core/error.h"
#include "md_builder.h"
#include "urc_test.h"

// ---------------------------------------------------------------------------------------------
// urc_dg_check_range

START_TEST(range_inside) {
    ck_assert_ur_ok(urc_dg_check_range("v", 16, 0, 16));
    ck_assert_ur_ok(urc_dg_check_range("v", 16, 8, 8));
    ck_assert_ur_ok(urc_dg_check_range("v", 16, 15, 1));
}
END_TEST

START_TEST(range_empty_copies) {
    // Zero bytes anywhere up to and including the end are fine; past the end they are not.
    ck_assert_ur_ok(urc_dg_check_range("v", 16, 0, 0));
    ck_assert_ur_ok(urc_dg_check_range("v", 16, 16, 0));
    ck_assert_ur(urc_dg_check_range("v", 16, 17, 0), UR_RESULT_ERROR_INVALID_VALUE);
}
END_TEST

START_TEST(range_past_end) {
    ck_assert_ur(urc_dg_check_range("v", 16, 8, 9), UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(urc_dg_check_range("v", 16, 0, 17), UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(urc_dg_check_range("v", 0, 0, 1), UR_RESULT_ERROR_INVALID_VALUE);
}
END_TEST

START_TEST(range_offset_wraps) {
    // offset + count wraps to 1: a naive "offset + count > size" would accept it.
    ck_assert_ur(urc_dg_check_range("v", 16, SIZE_MAX, 2), UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(urc_dg_check_range("v", 16, 2, SIZE_MAX), UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(urc_dg_check_range("v", SIZE_MAX, SIZE_MAX, 1), UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur_ok(urc_dg_check_range("v", SIZE_MAX, SIZE_MAX, 0));
}
END_TEST

START_TEST(range_message) {
    urc_error_clear();
    ck_assert_ur(urc_dg_check_range("_Z7dev_var", 8, 4, 8), UR_RESULT_ERROR_INVALID_VALUE);
    const char *msg;
    urc_error_get(&msg, NULL);
    ck_assert_str_eq(msg,
                     "copy of 8 bytes at offset 4 exceeds device global '_Z7dev_var' of 8 bytes");
}
END_TEST

// ---------------------------------------------------------------------------------------------
// urc_dg_describe

typedef struct blob_t {
    uint8_t bytes[64];
    size_t size;
} blob_t;

// A BYTE_ARRAY value as a SYCL runtime passes it: 8-byte little-endian bit count, then payload.
static blob_t byte_array(const void *payload, size_t n) {
    blob_t b = {{0}, 8 + n};
    uint64_t bits = (uint64_t)n * 8;
    for (int i = 0; i < 8; ++i)
        b.bytes[i] = (uint8_t)(bits >> (8 * i));
    memcpy(b.bytes + 8, payload, n);
    return b;
}

static blob_t dg_value(uint32_t size, uint32_t scope) {
    uint8_t p[8];
    for (int i = 0; i < 4; ++i) {
        p[i] = (uint8_t)(size >> (8 * i));
        p[4 + i] = (uint8_t)(scope >> (8 * i));
    }
    return byte_array(p, sizeof p);
}

static ur_program_metadata_t byte_entry(const char *name, blob_t *b) {
    ur_program_metadata_t m = {name, UR_PROGRAM_METADATA_TYPE_BYTE_ARRAY, b->size, {0}};
    m.value.pData = b->bytes;
    return m;
}

static urc_props_t *parse(const ur_program_metadata_t *entries, uint32_t n) {
    urc_props_t *props = NULL;
    char err[256] = "";
    ur_result_t r = urc_props_parse(entries, n, &props, err, sizeof err);
    ck_assert_msg(r == UR_RESULT_SUCCESS, "urc_props_parse: %s", err);
    return props;
}

START_TEST(describe_usm_variable) {
    blob_t v = dg_value(24, 0);
    ur_program_metadata_t m[] = {byte_entry("SYCL/device globals/_Z7dev_var", &v)};
    urc_props_t *props = parse(m, 1);
    urc_dg_desc_t desc = {0, true};
    ck_assert_ur_ok(urc_dg_describe(props, "_Z7dev_var", &desc));
    ck_assert_uint_eq(desc.size, 24);
    ck_assert(!desc.image_scope);
    urc_props_release(props);
}
END_TEST

START_TEST(describe_image_scope) {
    // Any non-zero scope word means decorated (the doc, not DPC++'s misleading comment).
    blob_t a = dg_value(4, 1), b = dg_value(0x01020304, 0x100);
    ur_program_metadata_t m[] = {byte_entry("SYCL/device globals/a", &a),
                                 byte_entry("SYCL/device globals/b", &b)};
    urc_props_t *props = parse(m, 2);
    urc_dg_desc_t desc;
    ck_assert_ur_ok(urc_dg_describe(props, "a", &desc));
    ck_assert_uint_eq(desc.size, 4);
    ck_assert(desc.image_scope);
    ck_assert_ur_ok(urc_dg_describe(props, "b", &desc));
    ck_assert_uint_eq(desc.size, 0x01020304);
    ck_assert(desc.image_scope);
    urc_props_release(props);
}
END_TEST

START_TEST(describe_missing_set) {
    blob_t v = dg_value(4, 0);
    ur_program_metadata_t m[] = {byte_entry("_Z7dev_var@global_id_mapping", &v)};
    urc_props_t *props = parse(m, 1);
    urc_dg_desc_t desc;
    ck_assert_ur(urc_dg_describe(props, "_Z7dev_var", &desc),
                 UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION);
    ck_assert_ur(urc_dg_describe(NULL, "_Z7dev_var", &desc),
                 UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION);
    urc_props_release(props);
}
END_TEST

START_TEST(describe_missing_name) {
    blob_t v = dg_value(4, 0);
    ur_program_metadata_t m[] = {byte_entry("SYCL/device globals/present", &v)};
    urc_props_t *props = parse(m, 1);
    urc_dg_desc_t desc;
    urc_error_clear();
    ck_assert_ur(urc_dg_describe(props, "absent", &desc), UR_RESULT_ERROR_INVALID_VALUE);
    const char *msg;
    urc_error_get(&msg, NULL);
    ck_assert_ptr_nonnull(strstr(msg, "'absent'"));
    urc_props_release(props);
}
END_TEST

START_TEST(describe_payload_wrong_size) {
    uint8_t four[4] = {4, 0, 0, 0}, twelve[12] = {4};
    blob_t s = byte_array(four, sizeof four), l = byte_array(twelve, sizeof twelve);
    ur_program_metadata_t m[] = {byte_entry("SYCL/device globals/short", &s),
                                 byte_entry("SYCL/device globals/long", &l)};
    urc_props_t *props = parse(m, 2);
    urc_dg_desc_t desc;
    ck_assert_ur(urc_dg_describe(props, "short", &desc), UR_RESULT_ERROR_INVALID_VALUE);
    const char *msg;
    urc_error_get(&msg, NULL);
    ck_assert_ptr_nonnull(strstr(msg, "holds 4 payload bytes, expected 8"));
    ck_assert_ur(urc_dg_describe(props, "long", &desc), UR_RESULT_ERROR_INVALID_VALUE);
    urc_props_release(props);
}
END_TEST

START_TEST(describe_not_byte_array) {
    ur_program_metadata_t m[] = {
        {"SYCL/device globals/n", UR_PROGRAM_METADATA_TYPE_UINT32, sizeof(uint32_t), {0}}};
    m[0].value.data32 = 8;
    urc_props_t *props = parse(m, 1);
    urc_dg_desc_t desc;
    ck_assert_ur(urc_dg_describe(props, "n", &desc), UR_RESULT_ERROR_INVALID_VALUE);
    urc_props_release(props);
}
END_TEST

START_TEST(describe_null_arguments) {
    urc_dg_desc_t desc;
    ck_assert_ur(urc_dg_describe(NULL, NULL, &desc), UR_RESULT_ERROR_INVALID_NULL_POINTER);
    ck_assert_ur(urc_dg_describe(NULL, "x", NULL), UR_RESULT_ERROR_INVALID_NULL_POINTER);
}
END_TEST

// ---------------------------------------------------------------------------------------------
// urc_dg_cache_*

START_TEST(cache_miss_then_hit) {
    urc_dg_cache_t *c = urc_dg_cache_create();
    ck_assert_ptr_nonnull(c);
    uint64_t addr = 1;
    size_t size = 1;
    ck_assert(!urc_dg_cache_get(c, "x", &addr, &size));
    ck_assert_ur_ok(urc_dg_cache_put(c, "x", 0xdead0000, 24));
    ck_assert(urc_dg_cache_get(c, "x", &addr, &size));
    ck_assert_uint_eq(addr, 0xdead0000);
    ck_assert_uint_eq(size, 24);
    urc_dg_cache_destroy(c);
}
END_TEST

START_TEST(cache_copies_keys) {
    urc_dg_cache_t *c = urc_dg_cache_create();
    char name[16];
    strcpy(name, "temporary");
    ck_assert_ur_ok(urc_dg_cache_put(c, name, 7, 8));
    memset(name, 'x', sizeof name - 1);
    ck_assert(urc_dg_cache_get(c, "temporary", NULL, NULL));
    urc_dg_cache_destroy(c);
}
END_TEST

START_TEST(cache_put_overwrites) {
    urc_dg_cache_t *c = urc_dg_cache_create();
    ck_assert_ur_ok(urc_dg_cache_put(c, "x", 1, 2));
    ck_assert_ur_ok(urc_dg_cache_put(c, "x", 3, 4));
    uint64_t addr;
    size_t size;
    ck_assert(urc_dg_cache_get(c, "x", &addr, &size));
    ck_assert_uint_eq(addr, 3);
    ck_assert_uint_eq(size, 4);
    urc_dg_cache_destroy(c);
}
END_TEST

START_TEST(cache_many_names) {
    // Enough entries to grow the table several times; every one must still be found.
    urc_dg_cache_t *c = urc_dg_cache_create();
    char name[32];
    for (int i = 0; i < 5000; ++i) {
        snprintf(name, sizeof name, "var_%d", i);
        ck_assert_ur_ok(urc_dg_cache_put(c, name, (uint64_t)i * 16, (size_t)i));
    }
    for (int i = 0; i < 5000; ++i) {
        uint64_t addr;
        size_t size;
        snprintf(name, sizeof name, "var_%d", i);
        ck_assert(urc_dg_cache_get(c, name, &addr, &size));
        ck_assert_uint_eq(addr, (uint64_t)i * 16);
        ck_assert_uint_eq(size, (size_t)i);
    }
    ck_assert(!urc_dg_cache_get(c, "var_5000", NULL, NULL));
    urc_dg_cache_destroy(c);
}
END_TEST

START_TEST(cache_null_arguments) {
    ck_assert(!urc_dg_cache_get(NULL, "x", NULL, NULL));
    ck_assert_ur(urc_dg_cache_put(NULL, "x", 0, 0), UR_RESULT_ERROR_INVALID_NULL_HANDLE);
    urc_dg_cache_t *c = urc_dg_cache_create();
    ck_assert(!urc_dg_cache_get(c, NULL, NULL, NULL));
    ck_assert_ur(urc_dg_cache_put(c, NULL, 0, 0), UR_RESULT_ERROR_INVALID_NULL_POINTER);
    urc_dg_cache_destroy(c);
    urc_dg_cache_destroy(NULL);
}
END_TEST

#define CACHE_THREADS 16
#define CACHE_NAMES   512

typedef struct cache_worker_t {
    urc_dg_cache_t *cache;
    int seed;
    int wrong; // lookups that found a value nobody stored
} cache_worker_t;

// Every thread resolves every name, in its own order: a miss is followed by a put of the
// value all threads agree on, as adapters do after asking the driver.
static void *cache_worker(void *arg) {
    cache_worker_t *w = arg;
    char name[32];
    for (int round = 0; round < 4; ++round)
        for (int k = 0; k < CACHE_NAMES; ++k) {
            int i = (k * 7 + w->seed * 31) % CACHE_NAMES;
            snprintf(name, sizeof name, "dg_%d", i);
            uint64_t addr;
            size_t size;
            if (urc_dg_cache_get(w->cache, name, &addr, &size)) {
                if (addr != (uint64_t)i * 64 || size != (size_t)i + 1)
                    w->wrong++;
            } else if (urc_dg_cache_put(w->cache, name, (uint64_t)i * 64, (size_t)i + 1) !=
                       UR_RESULT_SUCCESS) {
                w->wrong++;
            }
        }
    return NULL;
}

START_TEST(cache_concurrent_get_put) {
    urc_dg_cache_t *c = urc_dg_cache_create();
    pthread_t threads[CACHE_THREADS];
    cache_worker_t workers[CACHE_THREADS];
    for (int t = 0; t < CACHE_THREADS; ++t) {
        workers[t] = (cache_worker_t){c, t, 0};
        ck_assert_int_eq(pthread_create(&threads[t], NULL, cache_worker, &workers[t]), 0);
    }
    for (int t = 0; t < CACHE_THREADS; ++t) {
        pthread_join(threads[t], NULL);
        ck_assert_int_eq(workers[t].wrong, 0);
    }
    for (int i = 0; i < CACHE_NAMES; ++i) {
        char name[32];
        snprintf(name, sizeof name, "dg_%d", i);
        ck_assert(urc_dg_cache_get(c, name, NULL, NULL));
    }
    urc_dg_cache_destroy(c);
}
END_TEST

// ---------------------------------------------------------------------------------------------
// urc_dg_symbol

START_TEST(symbol_from_mapping) {
    md_list_t l = {0};
    md_bytes(&l, "dg_a@global_id_mapping", "sym_a", 5);
    md_bytes(&l, "SYCL/program metadata/dg_b@global_id_mapping", "sym_b", 5);
    urc_props_t *props = md_parse(&l);
    ck_assert_str_eq(urc_dg_symbol(props, "dg_a"), "sym_a");
    ck_assert_str_eq(urc_dg_symbol(props, "dg_b"), "sym_b");
    const char *name = "dg_c";
    ck_assert_ptr_eq(urc_dg_symbol(props, name), name); // no mapping: the name itself
    ck_assert_ptr_eq(urc_dg_symbol(NULL, name), name);
    urc_props_release(props);
}
END_TEST

// Neither the name nor the symbol has a length limit (the adapters' old 256- and 1024-byte
// buffers silently fell back to the name).
START_TEST(symbol_of_any_length) {
    static char name[600], symbol[3000], key[700];
    memset(name, 'n', sizeof name - 1);
    memset(symbol, 's', sizeof symbol - 1);
    snprintf(key, sizeof key, "%s@global_id_mapping", name);
    md_list_t l = {0};
    md_bytes(&l, key, symbol, strlen(symbol));
    urc_props_t *props = md_parse(&l);
    ck_assert_str_eq(urc_dg_symbol(props, name), symbol);
    urc_props_release(props);
}
END_TEST

// ---------------------------------------------------------------------------------------------
// urc_dg_bound

START_TEST(bound_without_metadata_is_the_drivers) {
    ck_assert_uint_eq(urc_dg_bound(NULL, 16), 16);
    ck_assert_uint_eq(urc_dg_bound(NULL, 0), 0);
}
END_TEST

START_TEST(bound_is_storage_capped_by_the_driver) {
    urc_dg_desc_t usm = {24, false}, image = {24, true};
    ck_assert_uint_eq(urc_dg_bound(&usm, 64), sizeof(void *)); // a pointer to its USM buffer
    ck_assert_uint_eq(urc_dg_bound(&usm, 4), 4);
    ck_assert_uint_eq(urc_dg_bound(&image, 32), 24);
    ck_assert_uint_eq(urc_dg_bound(&image, 24), 24);
    ck_assert_uint_eq(urc_dg_bound(&image, 16), 16);
}
END_TEST

START_TEST(bound_with_no_driver_size_is_the_metadatas) {
    urc_dg_desc_t usm = {24, false}, image = {12, true};
    ck_assert_uint_eq(urc_dg_bound(&usm, 0), sizeof(void *));
    ck_assert_uint_eq(urc_dg_bound(&image, 0), 12);
}
END_TEST

// ---------------------------------------------------------------------------------------------
// urc_dg_resolve

typedef struct fake_driver_t {
    int calls;
    ur_result_t result;
    uint64_t address;
    size_t size;
    char symbol[64]; // the last symbol asked for
} fake_driver_t;

static ur_result_t fake_lookup(void *ctx, const char *name, const char *symbol, uint64_t *address,
                               size_t *size) {
    fake_driver_t *d = ctx;
    (void)name;
    d->calls++;
    snprintf(d->symbol, sizeof d->symbol, "%s", symbol);
    if (d->result != UR_RESULT_SUCCESS)
        return d->result;
    *address = d->address;
    *size = d->size;
    return UR_RESULT_SUCCESS;
}

// "SYCL/device globals/<name>" = {size, scope}, and "<name>@global_id_mapping" = symbol.
static urc_props_t *dg_props(const char *name, uint32_t size, uint32_t scope, const char *symbol) {
    static char set_name[128], map_name[128];
    snprintf(set_name, sizeof set_name, "SYCL/device globals/%s", name);
    snprintf(map_name, sizeof map_name, "%s@global_id_mapping", name);
    uint8_t p[8];
    for (int i = 0; i < 4; ++i) {
        p[i] = (uint8_t)(size >> (8 * i));
        p[4 + i] = (uint8_t)(scope >> (8 * i));
    }
    md_list_t l = {0};
    md_bytes(&l, set_name, p, sizeof p);
    if (symbol != NULL)
        md_bytes(&l, map_name, symbol, strlen(symbol));
    return md_parse(&l);
}

START_TEST(resolve_asks_the_driver_and_caches) {
    urc_props_t *props = dg_props("_Z1v", 4, 1, "v_sym");
    urc_dg_cache_t *cache = urc_dg_cache_create();
    fake_driver_t d = {0, UR_RESULT_SUCCESS, 0x1000, 16, ""};
    uint64_t address = 0;
    size_t size = 0;
    ck_assert_ur_ok(urc_dg_resolve(cache, props, "_Z1v", fake_lookup, &d, &address, &size));
    ck_assert_int_eq(d.calls, 1);
    ck_assert_str_eq(d.symbol, "v_sym");
    ck_assert_uint_eq(address, 0x1000);
    ck_assert_uint_eq(size, 4); // the metadata's size, under the driver's 16
    address = 0;
    size = 0;
    ck_assert(urc_dg_cache_get(cache, "_Z1v", &address, &size));
    ck_assert_uint_eq(address, 0x1000);
    ck_assert_uint_eq(size, 4);
    urc_dg_cache_destroy(cache);
    urc_props_release(props);
}
END_TEST

START_TEST(resolve_without_metadata_takes_the_drivers_size) {
    fake_driver_t d = {0, UR_RESULT_SUCCESS, 0x2000, 40, ""};
    uint64_t address = 0;
    size_t size = 0;
    ck_assert_ur_ok(urc_dg_resolve(NULL, NULL, "plain", fake_lookup, &d, &address, &size));
    ck_assert_str_eq(d.symbol, "plain");
    ck_assert_uint_eq(address, 0x2000);
    ck_assert_uint_eq(size, 40);
}
END_TEST

START_TEST(resolve_with_no_driver_size_takes_the_metadatas) {
    urc_props_t *props = dg_props("v", 12, 1, NULL);
    fake_driver_t d = {0, UR_RESULT_SUCCESS, 0x3000, 0, ""};
    uint64_t address = 0;
    size_t size = 0;
    ck_assert_ur_ok(urc_dg_resolve(NULL, props, "v", fake_lookup, &d, &address, &size));
    ck_assert_uint_eq(size, 12);
    urc_props_release(props);
}
END_TEST

START_TEST(resolve_refuses_an_unlisted_name_before_the_driver) {
    urc_props_t *props = dg_props("listed", 8, 1, NULL);
    urc_dg_cache_t *cache = urc_dg_cache_create();
    fake_driver_t d = {0, UR_RESULT_SUCCESS, 0x4000, 8, ""};
    uint64_t address = 0;
    size_t size = 0;
    ck_assert_ur(urc_dg_resolve(cache, props, "other", fake_lookup, &d, &address, &size),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_int_eq(d.calls, 0);
    ck_assert(!urc_dg_cache_get(cache, "other", NULL, NULL));
    urc_dg_cache_destroy(cache);
    urc_props_release(props);
}
END_TEST

START_TEST(resolve_returns_the_drivers_failure_uncached) {
    urc_dg_cache_t *cache = urc_dg_cache_create();
    fake_driver_t d = {0, UR_RESULT_ERROR_INVALID_VALUE, 0, 0, ""};
    uint64_t address = 7;
    size_t size = 9;
    ck_assert_ur(urc_dg_resolve(cache, NULL, "absent", fake_lookup, &d, &address, &size),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_uint_eq(address, 7);
    ck_assert_uint_eq(size, 9);
    ck_assert(!urc_dg_cache_get(cache, "absent", NULL, NULL));
    urc_dg_cache_destroy(cache);
}
END_TEST

START_TEST(resolve_null_arguments) {
    fake_driver_t d = {0, UR_RESULT_SUCCESS, 0, 0, ""};
    uint64_t address = 0;
    size_t size = 0;
    ck_assert_ur(urc_dg_resolve(NULL, NULL, NULL, fake_lookup, &d, &address, &size),
                 UR_RESULT_ERROR_INVALID_NULL_POINTER);
    ck_assert_ur(urc_dg_resolve(NULL, NULL, "v", NULL, &d, &address, &size),
                 UR_RESULT_ERROR_INVALID_NULL_POINTER);
    ck_assert_ur(urc_dg_resolve(NULL, NULL, "v", fake_lookup, &d, NULL, &size),
                 UR_RESULT_ERROR_INVALID_NULL_POINTER);
    ck_assert_ur(urc_dg_resolve(NULL, NULL, "v", fake_lookup, &d, &address, NULL),
                 UR_RESULT_ERROR_INVALID_NULL_POINTER);
    ck_assert_int_eq(d.calls, 0);
}
END_TEST

static Suite *devglobal_suite(void) {
    Suite *s = suite_create("devglobal");
    TCase *tc = tcase_create("urc_dg_check_range");
    tcase_add_test(tc, range_inside);
    tcase_add_test(tc, range_empty_copies);
    tcase_add_test(tc, range_past_end);
    tcase_add_test(tc, range_offset_wraps);
    tcase_add_test(tc, range_message);
    suite_add_tcase(s, tc);

    tc = tcase_create("urc_dg_describe");
    tcase_add_test(tc, describe_usm_variable);
    tcase_add_test(tc, describe_image_scope);
    tcase_add_test(tc, describe_missing_set);
    tcase_add_test(tc, describe_missing_name);
    tcase_add_test(tc, describe_payload_wrong_size);
    tcase_add_test(tc, describe_not_byte_array);
    tcase_add_test(tc, describe_null_arguments);
    suite_add_tcase(s, tc);

    tc = tcase_create("urc_dg_symbol");
    tcase_add_test(tc, symbol_from_mapping);
    tcase_add_test(tc, symbol_of_any_length);
    suite_add_tcase(s, tc);

    tc = tcase_create("urc_dg_bound");
    tcase_add_test(tc, bound_without_metadata_is_the_drivers);
    tcase_add_test(tc, bound_is_storage_capped_by_the_driver);
    tcase_add_test(tc, bound_with_no_driver_size_is_the_metadatas);
    suite_add_tcase(s, tc);

    tc = tcase_create("urc_dg_resolve");
    tcase_add_test(tc, resolve_asks_the_driver_and_caches);
    tcase_add_test(tc, resolve_without_metadata_takes_the_drivers_size);
    tcase_add_test(tc, resolve_with_no_driver_size_takes_the_metadatas);
    tcase_add_test(tc, resolve_refuses_an_unlisted_name_before_the_driver);
    tcase_add_test(tc, resolve_returns_the_drivers_failure_uncached);
    tcase_add_test(tc, resolve_null_arguments);
    suite_add_tcase(s, tc);

    tc = tcase_create("urc_dg_cache");
    tcase_add_test(tc, cache_miss_then_hit);
    tcase_add_test(tc, cache_copies_keys);
    tcase_add_test(tc, cache_put_overwrites);
    tcase_add_test(tc, cache_many_names);
    tcase_add_test(tc, cache_null_arguments);
    tcase_add_test(tc, cache_concurrent_get_put);
    tcase_set_timeout(tc, 60);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) {
    return urc_test_run(devglobal_suite());
}

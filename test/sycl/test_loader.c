// SPDX-License-Identifier: MIT
// urc's loader under libsycl: UR_ADAPTERS_FORCE_LOAD names urc's libur_loader.so.0, which
// libsycl's built-in loader then takes for an adapter. urc's loader must notice the adoption
// (its table getters come before any urLoaderInit), initialise itself once, skip its own file
// in the variable and find urc's adapters in its folder, so that SYCL sees urc's devices
// through urc's loader, with urc's logging.
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sycl_test.h"

static char log_path[1100];

static void setup(void) {
    char dir[1024];
    urc_test_temp_dir(dir, sizeof dir);
    snprintf(log_path, sizeof log_path, "%s/loader.log", dir);
    char value[1200];
    snprintf(value, sizeof value, "level:info;flush:info;output:file,%s", log_path);
    st_setenv("UR_LOG_LOADER", value);
    st_require_urc();
}

static void teardown(void) {
    unlink(log_path);
}

START_TEST(adopted_and_serving) {
    char *log = st_read_text(log_path);
    ck_assert_ptr_nonnull(log);
    // urc's own lines (libsycl's loader shares the variable, not these words).
    ck_assert_msg(strstr(log, "names this loader") != NULL, "no fallback line in:\n%s", log);
    ck_assert_msg(strstr(log, "adopted by another loader") != NULL, "not adopted:\n%s", log);
    free(log);
    // urc's adapter was loaded by urc's loader, from urc's folder (st_require_urc checked
    // that every libur_* mapped lies there).
    char *maps = st_read_text("/proc/self/maps");
    char adapter[32];
    snprintf(adapter, sizeof adapter, "libur_adapter_%s.so", st_backend_name());
    ck_assert_msg(strstr(maps, adapter) != NULL, "%s is not mapped", adapter);
    free(maps);
    // And it works: a round trip through device memory.
    DPCTLSyclDeviceRef d = st_device();
    DPCTLSyclQueueRef q = st_queue(d, DPCTL_IN_ORDER);
    int in[64], out[64];
    for (int i = 0; i < 64; i++)
        in[i] = i * i;
    void *dev = DPCTLmalloc_device(sizeof in, q);
    ck_assert_ptr_nonnull(dev);
    DPCTLEvent_Delete(DPCTLQueue_Memcpy(q, dev, in, sizeof in));
    DPCTLSyclEventRef e = DPCTLQueue_Memcpy(q, out, dev, sizeof out);
    DPCTLEvent_Wait(e);
    DPCTLEvent_Delete(e);
    ck_assert_mem_eq(in, out, sizeof in);
    DPCTLfree_with_queue((DPCTLSyclUSMRef)dev, q);
    DPCTLQueue_Delete(q);
    DPCTLDevice_Delete(d);
}
END_TEST

int main(void) {
    Suite *s = suite_create("sycl_loader");
    TCase *tc = urc_test_tcase("adoption", setup, teardown);
    tcase_add_test(tc, adopted_and_serving);
    suite_add_tcase(s, tc);
    return st_main(s);
}

// SPDX-License-Identifier: MIT
// urc's SYCL interposer (tools/sycl-interposer) under libsycl, over urc's CUDA adapter on the
// simulated driver. CTest runs this suite twice with liburc_sycl_interpose.so preloaded:
// URC_SYCL_EXPECT_TWINS=1, where dpctl's SPIR-V images get NVIDIA twins and building the
// registered kernels for the CUDA device hands a twin's bytes to urProgramCreateWithBinary;
// and =0 with URC_SYCL_TWINS=0, where libsycl finds no image for the CUDA device and builds
// nothing. SYCL_UR_TRACE=-1 (set by CTest) prints every UR call; a forked child writes it to
// a file the test reads.
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sycl_test.h"

// sycl::detail::get_kernel_bundle_impl(const context &, const std::vector<device> &,
// bundle_state): what sycl::get_kernel_bundle<bundle_state::executable>(ctx, devs) calls. It
// returns a std::shared_ptr through a hidden pointer. In libsycl.so.9 (2026.2) sycl::device is
// one pointer wide (found by trying: 16 bytes reads a second, bogus device), so a vector of
// one device is {&device, &device + 1, &device + 1}; dpctl's refs are sycl::device pointers.
typedef void (*get_bundle_fn)(void *ret, const void *context, const void *devices, int state);
static const char get_bundle_symbol[] =
    "_ZN4sycl3_V16detail22get_kernel_bundle_implERKNS0_7contextERKSt6vectorINS0_6deviceESaIS6_"
    "EENS0_12bundle_stateE";
enum { BUNDLE_STATE_EXECUTABLE = 2 };

static char out_path[4096];

static void setup(void) {
    char dir[4000];
    urc_test_temp_dir(dir, sizeof dir);
    snprintf(out_path, sizeof out_path, "%s/trace.txt", dir);
    st_require_urc();
}

static void teardown(void) {
    unlink(out_path);
}

// Builds every registered kernel image for the CUDA device in a child whose output goes to
// out_path; returns the child's wait status. An image urc's CUDA adapter refuses makes libsycl
// throw, which ends the child with SIGABRT: the test judges by what reached the adapter.
static int build_bundle_in_child(void) {
    get_bundle_fn get_bundle = (get_bundle_fn)dlsym(RTLD_DEFAULT, get_bundle_symbol);
    ck_assert_msg(get_bundle != NULL, "libsycl.so.9 has no %s", get_bundle_symbol);
    DPCTLSyclDeviceRef device = st_device();
    DPCTLSyclQueueRef queue = st_queue(device, DPCTL_DEFAULT_PROPERTY);
    DPCTLSyclContextRef context = DPCTLQueue_GetContext(queue);
    ck_assert_ptr_nonnull(context);
    fflush(NULL);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        int fd = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
            _exit(3);
        void *devices[3] = {device, (char *)device + sizeof(void *),
                            (char *)device + sizeof(void *)};
        unsigned char bundle[16]; // the returned shared_ptr, left to leak in this child
        printf("building\n");
        fflush(stdout);
        get_bundle(bundle, context, devices, BUNDLE_STATE_EXECUTABLE);
        printf("built\n");
        fflush(stdout);
        _exit(0);
    }
    int status = 0;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    DPCTLContext_Delete(context);
    DPCTLQueue_Delete(queue);
    DPCTLDevice_Delete(device);
    return status;
}

START_TEST(registered_images_for_cuda) {
    const char *expect = getenv("URC_SYCL_EXPECT_TWINS");
    bool twins = expect != NULL && strcmp(expect, "1") == 0;
    int status = build_bundle_in_child();
    char *out = st_read_text(out_path);
    ck_assert_ptr_nonnull(out);
    ck_assert_msg(strstr(out, "building") != NULL, "the child did not start:\n%s", out);
    const char *create = strstr(out, "<--- urProgramCreateWithBinary(");
    if (twins) {
        // A twin reached urc's CUDA adapter: bytes of a SPIR-V image, whole.
        ck_assert_msg(create != NULL, "no urProgramCreateWithBinary (status %d):\n%.4000s", status,
                      out);
        const char *lengths = strstr(create, ".pLengths = ");
        ck_assert_ptr_nonnull(lengths);
        const char *brace = strchr(lengths, '{');
        ck_assert_ptr_nonnull(brace);
        ck_assert_int_gt(atol(brace + 1), 20); // more than a SPIR-V header
        // Refused (until urc's CUDA adapter builds SPIR-V) or built: never a crash elsewhere.
        ck_assert_msg((WIFEXITED(status) && WEXITSTATUS(status) == 0) ||
                          (WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT),
                      "child status %d", status);
        if (WIFSIGNALED(status))
            ck_assert_msg(strstr(create, "UR_RESULT_ERROR_INVALID_BINARY") != NULL ||
                              strstr(create, "UR_RESULT_ERROR_UNSUPPORTED_FEATURE") != NULL,
                          "libsycl threw after %.600s", create);
    } else {
        // No image is for the CUDA device: an empty bundle, nothing built.
        ck_assert_msg(create == NULL, "a program was created without twins:\n%.600s", create);
        ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child status %d", status);
        ck_assert_msg(strstr(out, "built") != NULL, "no bundle:\n%.4000s", out);
    }
    free(out);
}
END_TEST

int main(void) {
    Suite *s = suite_create("sycl_interposer");
    TCase *tc = urc_test_tcase("twins", setup, teardown);
    tcase_add_test(tc, registered_images_for_cuda);
    suite_add_tcase(s, tc);
    return st_main(s);
}

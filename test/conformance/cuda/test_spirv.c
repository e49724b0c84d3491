// SPDX-License-Identifier: MIT
// SPIR-V programs on CUDA (docs/spirv.md): creation, translation through urc-spirv-ptx, the
// facts a SPIR-V module gives (kernel names, argument sizes, work-group sizes, specialization
// constants), bad input, the PTX cache, and, on a GPU, every kernel of spirv_suite.cl against
// a host reference and SYCL's device assert delivered from a SPIR-V module. On the simulated driver
// the PTX is loaded (its entries and parameter sizes are read) but only kernels the simulator knows
// by name run.
//
// Run with URC_TEST_NO_TOOLCHAIN=1 and URC_CUDA_SPIRV_PTX naming no file (CTest's
// test_cuda_spirv_no_toolchain_sim), only the "no_toolchain" case runs and checks the answers
// of an adapter without the translator.
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cudat.h"
#include "urc_assert.h"

static bool on_sim(void) {
    const char *s = getenv("CUDAT_NVML");
    return s != NULL && strcmp(s, "sim") == 0;
}

static void *spv(const char *file, size_t *size) {
    return cudat_read_kernel(file, size);
}

static ur_program_handle_t il_program(const char *file) {
    size_t size = 0;
    void *il = spv(file, &size);
    ur_program_handle_t p = NULL;
    ck_assert_ur_ok(urProgramCreateWithIL(T.context, il, size, NULL, &p));
    free(il);
    return p;
}

static ur_program_handle_t built(const char *file) {
    ur_program_handle_t p = il_program(file);
    ck_assert_ur_ok(urProgramBuild(T.context, p, NULL));
    return p;
}

static char *program_text(ur_program_handle_t p, ur_program_info_t what) {
    size_t size = 0;
    ck_assert_ur_ok(urProgramGetInfo(p, what, 0, NULL, &size));
    char *s = malloc(size);
    ck_assert_ur_ok(urProgramGetInfo(p, what, size, s, NULL));
    return s;
}

static char *build_log(ur_program_handle_t p) {
    size_t size = 0;
    ck_assert_ur_ok(urProgramGetBuildInfo(p, T.device, UR_PROGRAM_BUILD_INFO_LOG, 0, NULL, &size));
    char *log = malloc(size);
    ck_assert_ur_ok(urProgramGetBuildInfo(p, T.device, UR_PROGRAM_BUILD_INFO_LOG, size, log, NULL));
    return log;
}

static uint32_t num_args(ur_kernel_handle_t k) {
    uint32_t n = 0;
    ck_assert_ur_ok(urKernelGetInfo(k, UR_KERNEL_INFO_NUM_ARGS, sizeof n, &n, NULL));
    return n;
}

// ---- creation and facts ----

START_TEST(il_builds_and_names_kernels) {
    ur_program_handle_t p = built("spirv_suite.spv");
    size_t count = 0;
    ck_assert_ur_ok(urProgramGetInfo(p, UR_PROGRAM_INFO_NUM_KERNELS, sizeof count, &count, NULL));
    ck_assert_uint_eq(count, 11);
    char *names = program_text(p, UR_PROGRAM_INFO_KERNEL_NAMES);
    ck_assert_str_eq(names, "vec_add;reduce_sum;offset_ids;generic_ptrs;wide_math;struct_arg;"
                            "range3d;many_args;vec4_generic;fixed_wg;constant_args");
    free(names);
    // Argument counts come from the translated entry (local pointers are 8-byte offsets).
    static const struct {
        const char *name;
        uint32_t args;
    } kernels[] = {{"vec_add", 3},      {"reduce_sum", 3}, {"offset_ids", 2},   {"generic_ptrs", 2},
                   {"wide_math", 2},    {"struct_arg", 2}, {"range3d", 1},      {"many_args", 19},
                   {"vec4_generic", 2}, {"fixed_wg", 1},   {"constant_args", 2}};
    for (size_t i = 0; i < sizeof kernels / sizeof kernels[0]; ++i) {
        ur_kernel_handle_t k = NULL;
        ck_assert_ur_ok(urKernelCreate(p, kernels[i].name, &k));
        ck_assert_uint_eq(num_args(k), kernels[i].args);
        ck_assert_ur_ok(urKernelRelease(k));
    }
    ur_kernel_handle_t k = NULL;
    ck_assert_ur_ok(urKernelCreate(p, "fixed_wg", &k));
    size_t wg[3] = {0, 0, 0};
    ck_assert_ur_ok(urKernelGetGroupInfo(k, T.device, UR_KERNEL_GROUP_INFO_COMPILE_WORK_GROUP_SIZE,
                                         sizeof wg, wg, NULL));
    ck_assert_uint_eq(wg[0], 32);
    ck_assert_uint_eq(wg[1], 1);
    ck_assert_uint_eq(wg[2], 1);
    ck_assert_ur_ok(urKernelRelease(k));
    // Argument sizes are checked against the module's: struct_arg takes 16 bytes first.
    ck_assert_ur_ok(urKernelCreate(p, "struct_arg", &k));
    int four = 4;
    float out = 0;
    ur_exp_kernel_arg_properties_t args[2] = {cudat_arg_value(0, &four, sizeof four),
                                              cudat_arg_pointer(1, &out)};
    size_t one = 1;
    ck_assert_ur(cudat_launch(T.queue, k, 1, &one, 2, args, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE);
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

// BINARIES hands back the PTX; IL the module as given.
START_TEST(binaries_are_ptx) {
    ur_program_handle_t p = built("add_one.spv");
    size_t size = 0;
    ck_assert_ur_ok(urProgramGetInfo(p, UR_PROGRAM_INFO_BINARY_SIZES, sizeof size, &size, NULL));
    char *ptx = calloc(1, size + 1);
    ck_assert_ur_ok(urProgramGetInfo(p, UR_PROGRAM_INFO_BINARIES, sizeof ptx, &ptx, NULL));
    ck_assert_ptr_nonnull(strstr(ptx, ".entry add_one("));
    ck_assert_ptr_nonnull(strstr(ptx, ".target sm_"));
    free(ptx);
    size_t il_size = 0, file_size = 0;
    void *file = spv("add_one.spv", &file_size);
    ck_assert_ur_ok(urProgramGetInfo(p, UR_PROGRAM_INFO_IL, 0, NULL, &il_size));
    ck_assert_uint_eq(il_size, file_size);
    free(file);
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

// The PTX reaches the driver's loader: the entry is there with its parameters, and on the
// simulator (which knows add_value by name) or a GPU the kernel runs.
START_TEST(add_value_runs) {
    ur_program_handle_t p = built("cb_kernels.spv");
    ur_kernel_handle_t k = NULL;
    ck_assert_ur_ok(urKernelCreate(p, "add_value", &k));
    ck_assert_uint_eq(num_args(k), 2);
    ur_native_handle_t module = 0;
    ck_assert_ur_ok(urProgramGetNativeHandle(p, &module));
    ck_assert(module != 0);
    enum { N = 1024 };
    int *data = NULL;
    ck_assert_ur_ok(
        urUSMSharedAlloc(T.context, T.device, NULL, NULL, N * sizeof(int), (void **)&data));
    for (int i = 0; i < N; ++i)
        data[i] = i;
    int value = 5;
    ur_exp_kernel_arg_properties_t args[2] = {cudat_arg_pointer(0, data),
                                              cudat_arg_value(1, &value, sizeof value)};
    size_t local = 128;
    ck_assert_ur_ok(cudat_launch(T.queue, k, N, &local, 2, args, 0, NULL, NULL));
    ck_assert_ur_ok(urQueueFinish(T.queue));
    for (int i = 0; i < N; ++i)
        ck_assert_int_eq(data[i], i + 5);
    ck_assert_ur_ok(urUSMFree(T.context, data));
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

// urProgramCreateWithBinary takes SPIR-V in either byte order.
START_TEST(binary_spirv_either_endianness) {
    size_t size = 0;
    uint32_t *words = spv("add_one.spv", &size);
    for (int swapped = 0; swapped < 2; ++swapped) {
        if (swapped)
            for (size_t i = 0; i < size / 4; ++i)
                words[i] = __builtin_bswap32(words[i]);
        const uint8_t *bin = (const uint8_t *)words;
        ur_program_handle_t p = NULL;
        ck_assert_ur_ok(urProgramCreateWithBinary(T.context, 1, &T.device, &size, &bin, NULL, &p));
        ck_assert_ur_ok(urProgramBuild(T.context, p, NULL));
        char *names = program_text(p, UR_PROGRAM_INFO_KERNEL_NAMES);
        ck_assert_str_eq(names, "add_one");
        free(names);
        ck_assert_ur_ok(urProgramRelease(p));
    }
    free(words);
}
END_TEST

START_TEST(il_version_lists_spirv) {
    size_t size = 0;
    ck_assert_ur_ok(urDeviceGetInfo(T.device, UR_DEVICE_INFO_IL_VERSION, 0, NULL, &size));
    char *v = malloc(size);
    ck_assert_ur_ok(urDeviceGetInfo(T.device, UR_DEVICE_INFO_IL_VERSION, size, v, NULL));
    ck_assert_ptr_nonnull(strstr(v, "SPIR-V_1.0"));
    ck_assert_ptr_nonnull(strstr(v, "nvptx-"));
    free(v);
}
END_TEST

// ---- bad input ----

static ur_result_t create_il(const void *il, size_t size, ur_program_handle_t *p) {
    *p = NULL;
    return urProgramCreateWithIL(T.context, il, size, NULL, p);
}

// The offset of the first instruction of `opcode` with at least `min_words` words.
static size_t find_op(const uint32_t *w, size_t n, uint32_t opcode, uint32_t min_words) {
    size_t at = 5;
    while (at < n && ((w[at] & 0xffff) != opcode || (w[at] >> 16) < min_words))
        at += w[at] >> 16;
    ck_assert_uint_lt(at, n);
    return at;
}

START_TEST(bad_modules_are_invalid_binary) {
    size_t size = 0;
    uint32_t *good = spv("spirv_suite.spv", &size);
    size_t n = size / 4;
    ur_program_handle_t p;
    // Cut inside an instruction (OpEntryPoint, opcode 15), to a size not a multiple of 4, to
    // only a header.
    size_t entry = find_op(good, n, 15, 4);
    ck_assert_ur(create_il(good, (entry + 2) * 4, &p), UR_RESULT_ERROR_INVALID_BINARY);
    ck_assert_ur(create_il(good, size - 3, &p), UR_RESULT_ERROR_INVALID_BINARY);
    ck_assert_ur(create_il(good, 12, &p), UR_RESULT_ERROR_INVALID_BINARY);
    uint32_t *bad = malloc(size);
    // Wrong magic.
    memcpy(bad, good, size);
    bad[0] ^= 0xff;
    ck_assert_ur(create_il(bad, size, &p), UR_RESULT_ERROR_INVALID_BINARY);
    // An instruction of 0 words.
    memcpy(bad, good, size);
    bad[5] = 0;
    ck_assert_ur(create_il(bad, size, &p), UR_RESULT_ERROR_INVALID_BINARY);
    // A capability that does not exist (OpCapability, opcode 17).
    memcpy(bad, good, size);
    bad[find_op(bad, n, 17, 2) + 1] = 0x7ffffff0u;
    ck_assert_ur(create_il(bad, size, &p), UR_RESULT_ERROR_INVALID_BINARY);
    const char *msg = NULL;
    int32_t native = 0;
    ck_assert_ur_ok(urAdapterGetLastError(T.adapter, &msg, &native));
    ck_assert_ptr_nonnull(strstr(msg, "capability"));
    // Version 9.0.
    memcpy(bad, good, size);
    ((uint8_t *)bad)[6] = 9;
    ck_assert_ur(create_il(bad, size, &p), UR_RESULT_ERROR_INVALID_BINARY);
    ck_assert_ur_ok(urAdapterGetLastError(T.adapter, &msg, &native));
    ck_assert_ptr_nonnull(strstr(msg, "version"));
    free(bad);
    free(good);
}
END_TEST

// Modules that pass the scan but not the translator: the build fails with the reason in the
// log; the process is unharmed, and the program can be released.
START_TEST(translator_rejection_is_logged) {
    size_t size = 0;
    uint32_t *words = spv("add_one.spv", &size);
    size_t n = size / 4;
    // Without its last instruction (OpFunctionEnd) the function never ends.
    ur_program_handle_t p = NULL;
    ck_assert_ur_ok(create_il(words, size - 4, &p));
    ur_result_t r = urProgramBuild(T.context, p, NULL);
    ck_assert(r == UR_RESULT_ERROR_INVALID_BINARY || r == UR_RESULT_ERROR_PROGRAM_BUILD_FAILURE);
    char *log = build_log(p);
    ck_assert_msg(strstr(log, "urc-spirv-ptx") != NULL, "log: %s", log);
    free(log);
    ur_program_build_status_t s = UR_PROGRAM_BUILD_STATUS_NONE;
    ck_assert_ur_ok(
        urProgramGetBuildInfo(p, T.device, UR_PROGRAM_BUILD_INFO_STATUS, sizeof s, &s, NULL));
    ck_assert_int_eq(s, UR_PROGRAM_BUILD_STATUS_ERROR);
    ck_assert_ur_ok(urProgramRelease(p));
    // Function bodies scrambled past the header: whatever the translator makes of them, the
    // build answers and a failure's log says why.
    for (size_t i = n / 2; i < n; i += 7)
        words[i] ^= 0x5a5a5a5au;
    if (create_il(words, size, &p) == UR_RESULT_SUCCESS) {
        r = urProgramBuild(T.context, p, NULL);
        if (r != UR_RESULT_SUCCESS) {
            log = build_log(p);
            ck_assert_msg(log[0] != '\0', "empty log");
            free(log);
        }
        ck_assert_ur_ok(urProgramRelease(p));
    }
    free(words);
}
END_TEST

START_TEST(spec_constants_checked) {
    ur_program_handle_t p = il_program("add_one.spv");
    uint32_t v = 1;
    ur_specialization_constant_info_t c = {7, sizeof v, &v};
    ck_assert_ur(urProgramSetSpecializationConstants(p, 1, &c), UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

// The value set reaches the translation: the PTX stores it (the default, 5, without one).
static bool ptx_has(ur_program_handle_t p, const char *text) {
    size_t size = 0;
    ck_assert_ur_ok(urProgramGetInfo(p, UR_PROGRAM_INFO_BINARY_SIZES, sizeof size, &size, NULL));
    char *ptx = calloc(1, size + 1);
    ck_assert_ur_ok(urProgramGetInfo(p, UR_PROGRAM_INFO_BINARIES, sizeof ptx, &ptx, NULL));
    bool found = strstr(ptx, text) != NULL;
    free(ptx);
    return found;
}

START_TEST(spec_constants_applied) {
    ur_program_handle_t p = built("spec_constant.spv");
    ck_assert(ptx_has(p, ", 5;"));
    ck_assert_ur_ok(urProgramRelease(p));
    p = il_program("spec_constant.spv");
    uint32_t v = 1234;
    ur_specialization_constant_info_t c = {7, sizeof v, &v};
    ck_assert_ur_ok(urProgramSetSpecializationConstants(p, 1, &c));
    ck_assert_ur_ok(urProgramBuild(T.context, p, NULL));
    ck_assert(ptx_has(p, ", 1234;"));
    uint64_t wide = 1;
    ur_specialization_constant_info_t too_wide = {7, 9, &wide};
    ck_assert_ur(urProgramSetSpecializationConstants(p, 1, &too_wide),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

// SYCL's __devicelib_assert_fail becomes CUDA's __assertfail, so a failing assert takes the
// CUDA assert path (test_assert.c covers that path itself, from nvcc's PTX).
START_TEST(assert_becomes_assertfail) {
    ur_program_handle_t p = built("spirv_assert.spv");
    ck_assert(ptx_has(p, "__assertfail"));
    ck_assert(!ptx_has(p, "__devicelib_assert_fail"));
    ur_kernel_handle_t k = NULL;
    ck_assert_ur_ok(urKernelCreate(p, "assert_nonzero", &k));
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

// A second build of the same module comes from $XDG_CACHE_HOME/urc (CTest points it into
// test-tmp/): the entry exists and the build gives the same PTX.
START_TEST(ptx_cache_entry) {
    ur_program_handle_t p = built("cb_kernels.spv");
    const char *xdg = getenv("XDG_CACHE_HOME");
    if (xdg != NULL) {
        char dir[1024];
        snprintf(dir, sizeof dir, "%s/urc/spirv-ptx", xdg);
        DIR *d = opendir(dir);
        ck_assert_ptr_nonnull(d);
        int entries = 0;
        for (struct dirent *e; (e = readdir(d)) != NULL;)
            entries += strstr(e->d_name, ".ptx") != NULL && strstr(e->d_name, ".tmp") == NULL;
        closedir(d);
        ck_assert_int_gt(entries, 0);
    }
    ur_program_handle_t q = built("cb_kernels.spv");
    size_t a = 0, b = 0;
    ck_assert_ur_ok(urProgramGetInfo(p, UR_PROGRAM_INFO_BINARY_SIZES, sizeof a, &a, NULL));
    ck_assert_ur_ok(urProgramGetInfo(q, UR_PROGRAM_INFO_BINARY_SIZES, sizeof b, &b, NULL));
    ck_assert_uint_eq(a, b);
    ck_assert_ur_ok(urProgramRelease(p));
    ck_assert_ur_ok(urProgramRelease(q));
}
END_TEST

// Compiled SPIR-V programs link through the CUDA JIT linker.
START_TEST(compile_and_link) {
    ur_program_handle_t p = il_program("cb_kernels.spv");
    ck_assert_ur_ok(urProgramCompile(T.context, p, NULL));
    ur_program_handle_t linked = NULL;
    ck_assert_ur_ok(urProgramLink(T.context, 1, &p, NULL, &linked));
    ur_kernel_handle_t k = NULL;
    ck_assert_ur_ok(urKernelCreate(linked, "add_value", &k));
    ck_assert_uint_eq(num_args(k), 2);
    char *names = program_text(linked, UR_PROGRAM_INFO_KERNEL_NAMES);
    ck_assert_ptr_nonnull(strstr(names, "add_value"));
    free(names);
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urProgramRelease(linked));
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

// Device globals decorated HostAccessINTEL are found by their unique ids (the extension is
// one translator 15 refuses; the helper takes it out and names the variables).
START_TEST(device_globals_by_unique_id) {
    ur_program_handle_t p = built("device_globals.spv");
    uint32_t v = 41, back = 0;
    ck_assert_ur_ok(urEnqueueDeviceGlobalVariableWrite(T.queue, p, "uid_dev_var", true, sizeof v, 0,
                                                       &v, 0, NULL, NULL));
    ck_assert_ur_ok(urEnqueueDeviceGlobalVariableRead(T.queue, p, "uid_dev_var", true, sizeof back,
                                                      0, &back, 0, NULL, NULL));
    ck_assert_uint_eq(back, 41);
    uint32_t arr[4] = {1, 2, 3, 4}, arr_back[4] = {0};
    ck_assert_ur_ok(urEnqueueDeviceGlobalVariableWrite(T.queue, p, "uid_dev_arr", true, sizeof arr,
                                                       0, arr, 0, NULL, NULL));
    ck_assert_ur_ok(urEnqueueDeviceGlobalVariableRead(T.queue, p, "uid_dev_arr", true,
                                                      sizeof arr_back, 0, arr_back, 0, NULL, NULL));
    ck_assert_mem_eq(arr, arr_back, sizeof arr);
    if (!on_sim()) {
        ur_kernel_handle_t k = NULL;
        ck_assert_ur_ok(urKernelCreate(p, "increment_dev_var", &k));
        size_t one = 1;
        ck_assert_ur_ok(cudat_launch(T.queue, k, 1, &one, 0, NULL, 0, NULL, NULL));
        ck_assert_ur_ok(urEnqueueDeviceGlobalVariableRead(T.queue, p, "uid_dev_var", true,
                                                          sizeof back, 0, &back, 0, NULL, NULL));
        ck_assert_uint_eq(back, 42);
        ck_assert_ur_ok(urKernelRelease(k));
    }
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

// Program linking of SPIR-V modules with virtual-function images (seed 003): a kernel using
// set "vf-set", a real provider needing fp64 and its dummy twin, as test_vf.c does with PTX.
// Each is translated for a link; the selection links one provider, and on a GPU the kernel
// gets that provider's vf_a (40 -> 100 real, -1 dummy).
static int vf_link(bool mask_fp64) {
    if (mask_fp64)
        setenv("URC_MASK_ASPECTS", "fp64", 1);
    cudat_setup();
    md_list_t kernel_md = {0}, real_md = {0}, dummy_md = {0};
    const uint32_t fp64 = 6;
    md_bytes(&kernel_md, "SYCL/virtual functions/uses-virtual-functions-set", "vf-set", 6);
    md_bytes(&real_md, "SYCL/virtual functions/virtual-functions-set", "vf-set", 6);
    md_u32s(&real_md, "SYCL/device requirements/aspects", &fp64, 1);
    md_bytes(&dummy_md, "SYCL/virtual functions/virtual-functions-set", "vf-set", 6);
    md_u32s(&dummy_md, "SYCL/device requirements/aspects", &fp64, 1);
    md_u32(&dummy_md, "SYCL/virtual functions/dummy-image", 1);
    ur_program_handle_t in[3] = {cudat_program("vf_kernel.spv", &kernel_md),
                                 cudat_program("vf_provider.spv", &real_md),
                                 cudat_program("vf_dummy.spv", &dummy_md)};
    md_free(&kernel_md);
    md_free(&real_md);
    md_free(&dummy_md);
    ur_program_handle_t linked = NULL;
    ck_assert_ur_ok(urProgramLink(T.context, 3, in, NULL, &linked));
    ur_kernel_handle_t k = NULL;
    ck_assert_ur_ok(urKernelCreate(linked, "vf_kernel", &k));
    int result = 0;
    if (!on_sim()) {
        int *d = NULL, start = 40;
        ck_assert_ur_ok(
            urUSMDeviceAlloc(T.context, T.device, NULL, NULL, sizeof(int), (void **)&d));
        ck_assert_ur_ok(urEnqueueUSMMemcpy(T.queue, true, d, &start, sizeof start, 0, NULL, NULL));
        ur_exp_kernel_arg_properties_t arg = cudat_arg_pointer(0, d);
        size_t one = 1;
        ck_assert_ur_ok(cudat_launch(T.queue, k, 1, &one, 1, &arg, 0, NULL, NULL));
        ck_assert_ur_ok(
            urEnqueueUSMMemcpy(T.queue, true, &result, d, sizeof result, 0, NULL, NULL));
        ck_assert_ur_ok(urUSMFree(T.context, d));
    }
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urProgramRelease(linked));
    for (int i = 0; i < 3; ++i)
        ck_assert_ur_ok(urProgramRelease(in[i]));
    cudat_teardown();
    return result;
}

START_TEST(vf_link_real_provider) {
    int r = vf_link(false);
    if (!on_sim())
        ck_assert_int_eq(r, 100);
}
END_TEST

START_TEST(vf_link_dummy_provider) {
    int r = vf_link(true);
    if (!on_sim())
        ck_assert_int_eq(r, -1);
}
END_TEST

// ---- spirv_suite.cl on a GPU ----

static ur_kernel_handle_t kernel(ur_program_handle_t p, const char *name) {
    ur_kernel_handle_t k = NULL;
    ck_assert_ur_ok(urKernelCreate(p, name, &k));
    return k;
}

static void *shared(size_t bytes) {
    void *ptr = NULL;
    ck_assert_ur_ok(urUSMSharedAlloc(T.context, T.device, NULL, NULL, bytes, &ptr));
    memset(ptr, 0, bytes);
    return ptr;
}

static void launch(ur_kernel_handle_t k, uint32_t dim, const size_t *offset, const size_t *global,
                   const size_t *local, uint32_t nargs, const ur_exp_kernel_arg_properties_t *a) {
    ck_assert_ur_ok(urEnqueueKernelLaunchWithArgsExp(T.queue, k, dim, offset, global, local, nargs,
                                                     a, NULL, 0, NULL, NULL));
    ck_assert_ur_ok(urQueueFinish(T.queue));
}

START_TEST(gpu_suite_matches_host) {
    ur_program_handle_t p = built("spirv_suite.spv");
    enum { N = 1 << 14, WG = 256 };
    size_t n = N, wg = WG;

    // vec_add
    float *a = shared(N * 4), *b = shared(N * 4), *c = shared(N * 4);
    for (int i = 0; i < N; ++i)
        a[i] = (float)i, b[i] = (float)(2 * i);
    ur_kernel_handle_t k = kernel(p, "vec_add");
    ur_exp_kernel_arg_properties_t args3[3] = {cudat_arg_pointer(0, a), cudat_arg_pointer(1, b),
                                               cudat_arg_pointer(2, c)};
    launch(k, 1, NULL, &n, &wg, 3, args3);
    for (int i = 0; i < N; ++i)
        ck_assert_float_eq(c[i], (float)(3 * i));
    urKernelRelease(k);

    // reduce_sum: integers in floats, so every partial sum is exact.
    float *partial = shared(N / WG * 4);
    for (int i = 0; i < N; ++i)
        a[i] = (float)(i % 17);
    k = kernel(p, "reduce_sum");
    ur_exp_kernel_arg_properties_t rargs[3] = {cudat_arg_pointer(0, a),
                                               cudat_arg_pointer(1, partial),
                                               cudat_arg_local(2, WG * sizeof(float))};
    launch(k, 1, NULL, &n, &wg, 3, rargs);
    for (int g = 0; g < N / WG; ++g) {
        float sum = 0;
        for (int i = 0; i < WG; ++i)
            sum += (float)((g * WG + i) % 17);
        ck_assert_float_eq(partial[g], sum);
    }
    urKernelRelease(k);

    // offset_ids, with and without an offset
    uint64_t *ids = shared(1024 * 8), *offs = shared(1024 * 8);
    k = kernel(p, "offset_ids");
    ur_exp_kernel_arg_properties_t oargs[2] = {cudat_arg_pointer(0, ids),
                                               cudat_arg_pointer(1, offs)};
    size_t g1024 = 1024, off = 100, l64 = 64;
    launch(k, 1, &off, &g1024, &l64, 2, oargs);
    for (int i = 0; i < 1024; ++i) {
        ck_assert_uint_eq(ids[i], 100 + (uint64_t)i);
        ck_assert_uint_eq(offs[i], 100);
    }
    launch(k, 1, NULL, &g1024, &l64, 2, oargs);
    for (int i = 0; i < 1024; ++i) {
        ck_assert_uint_eq(ids[i], (uint64_t)i);
        ck_assert_uint_eq(offs[i], 0);
    }
    // vec_add reads the global id: with an offset its work-items start there.
    k = kernel(p, "vec_add");
    memset(c, 0, N * 4);
    size_t half = N / 2, at = N / 2;
    launch(k, 1, &at, &half, &wg, 3, args3);
    for (int i = 0; i < N; ++i) // a holds i % 17 since reduce_sum
        ck_assert_float_eq(c[i], i < N / 2 ? 0.0f : (float)(i % 17 + 2 * i));
    urKernelRelease(k);

    // generic_ptrs: generic pointers into local and global memory
    int *gout = shared(256 * 4);
    k = kernel(p, "generic_ptrs");
    ur_exp_kernel_arg_properties_t gargs[2] = {cudat_arg_pointer(0, gout),
                                               cudat_arg_local(1, 64 * sizeof(int))};
    size_t g256 = 256;
    launch(k, 1, NULL, &g256, &l64, 2, gargs);
    for (int g = 0; g < 256; ++g) {
        int group = g / 64, l = g % 64;
        ck_assert_int_eq(gout[g], 2 * 2 * (group * 64 + 63 - l));
    }
    urKernelRelease(k);

    // wide_math
    int64_t *lv = shared(1024 * 8);
    double *dv = shared(1024 * 8);
    for (int i = 0; i < 1024; ++i)
        lv[i] = i, dv[i] = (double)i * i;
    k = kernel(p, "wide_math");
    ur_exp_kernel_arg_properties_t wargs[2] = {cudat_arg_pointer(0, lv), cudat_arg_pointer(1, dv)};
    launch(k, 1, NULL, &g1024, &l64, 2, wargs);
    for (int i = 0; i < 1024; ++i) {
        ck_assert_int_eq(lv[i], (int64_t)i * 3 + ((int64_t)i << 33));
        ck_assert_double_eq(dv[i], (double)i + 1.0);
    }
    urKernelRelease(k);

    // struct_arg
    struct {
        int a;
        float b;
        int64_t c;
    } pair = {3, 0.5f, 7};
    float *sout = shared(256 * 4);
    k = kernel(p, "struct_arg");
    ur_exp_kernel_arg_properties_t sargs[2] = {cudat_arg_value(0, &pair, sizeof pair),
                                               cudat_arg_pointer(1, sout)};
    launch(k, 1, NULL, &g256, &l64, 2, sargs);
    for (int i = 0; i < 256; ++i)
        ck_assert_float_eq(sout[i], 1.5f + 7.0f + (float)i);
    urKernelRelease(k);

    // range3d
    int *r3 = shared(8 * 4 * 2 * 4);
    k = kernel(p, "range3d");
    size_t g3[3] = {8, 4, 2}, l3[3] = {4, 2, 1};
    ur_exp_kernel_arg_properties_t r3args[1] = {cudat_arg_pointer(0, r3)};
    launch(k, 3, NULL, g3, l3, 1, r3args);
    for (int z = 0; z < 2; ++z)
        for (int y = 0; y < 4; ++y)
            for (int x = 0; x < 8; ++x)
                ck_assert_int_eq(r3[(z * 4 + y) * 8 + x], x + 10 * y + 100 * z);
    urKernelRelease(k);

    // many_args
    int64_t *mout = shared(64 * 8);
    int *kin = shared(64 * 4);
    for (int i = 0; i < 64; ++i)
        kin[i] = 1000 * i;
    int8_t va = -3, vn = 5;
    uint8_t vb = 200;
    int16_t vc = -300, vp = 11;
    uint16_t vd = 60000;
    int32_t ve = -70000, vl = 13;
    uint32_t vf = 4000000000u, vr = 17;
    int64_t vg = -(1ll << 40), vo = 1ll << 35;
    uint64_t vh = 1ull << 41;
    float vi = 2.5f, vm = 3.75f;
    double vj = 1e10, vq = -2.25;
    ur_exp_kernel_arg_properties_t margs[19] = {
        cudat_arg_pointer(0, mout),  cudat_arg_value(1, &va, 1),  cudat_arg_value(2, &vb, 1),
        cudat_arg_value(3, &vc, 2),  cudat_arg_value(4, &vd, 2),  cudat_arg_value(5, &ve, 4),
        cudat_arg_value(6, &vf, 4),  cudat_arg_value(7, &vg, 8),  cudat_arg_value(8, &vh, 8),
        cudat_arg_value(9, &vi, 4),  cudat_arg_value(10, &vj, 8), cudat_arg_pointer(11, kin),
        cudat_arg_value(12, &vl, 4), cudat_arg_value(13, &vm, 4), cudat_arg_value(14, &vn, 1),
        cudat_arg_value(15, &vo, 8), cudat_arg_value(16, &vp, 2), cudat_arg_value(17, &vq, 8),
        cudat_arg_value(18, &vr, 4)};
    k = kernel(p, "many_args");
    size_t g64 = 64, l32 = 32;
    launch(k, 1, NULL, &g64, &l32, 19, margs);
    for (int t = 0; t < 64; ++t) {
        int64_t want = va + vb + vc + vd + ve + (int64_t)vf + vg + (int64_t)vh + (int64_t)vi +
                       (int64_t)vj + kin[t] + vl + (int64_t)vm + vn + vo + vp + (int64_t)vq + vr;
        ck_assert_int_eq(mout[t], want);
    }
    urKernelRelease(k);

    // vec4_generic: vload4/vstore4 through generic pointers
    float *vin = shared(1024 * 4), *vout = shared(1024 * 4);
    for (int i = 0; i < 1024; ++i)
        vin[i] = (float)i * 0.5f;
    k = kernel(p, "vec4_generic");
    ur_exp_kernel_arg_properties_t vargs[2] = {cudat_arg_pointer(0, vin),
                                               cudat_arg_pointer(1, vout)};
    launch(k, 1, NULL, &g256, &l64, 2, vargs);
    for (int i = 0; i < 1024; ++i)
        ck_assert_float_eq(vout[i], (float)i);
    urKernelRelease(k);

    // fixed_wg: no local size given, the required one is used
    int *fw = shared(128 * 4);
    k = kernel(p, "fixed_wg");
    ur_exp_kernel_arg_properties_t fargs[1] = {cudat_arg_pointer(0, fw)};
    size_t g128 = 128;
    launch(k, 1, NULL, &g128, NULL, 1, fargs);
    for (int i = 0; i < 128; ++i)
        ck_assert_int_eq(fw[i], 32);
    urKernelRelease(k);

    // constant_args: a constant-space argument and table, read as global memory
    int *cin = shared(256 * 4), *cout = shared(256 * 4);
    for (int i = 0; i < 256; ++i)
        cin[i] = i + 1;
    k = kernel(p, "constant_args");
    ur_exp_kernel_arg_properties_t cargs[2] = {cudat_arg_pointer(0, cin),
                                               cudat_arg_pointer(1, cout)};
    launch(k, 1, NULL, &g256, &l64, 2, cargs);
    static const int weights[4] = {3, 5, 7, 11};
    for (int i = 0; i < 256; ++i)
        ck_assert_int_eq(cout[i], (i + 1) * weights[i % 4] + (i / 4) * 4 + 1);
    urKernelRelease(k);

    void *all[] = {a,    b,  c,    partial, ids, offs, gout, lv,  dv,
                   sout, r3, mout, kin,     vin, vout, fw,   cin, cout};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i)
        ck_assert_ur_ok(urUSMFree(T.context, all[i]));
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

// ---- built-in vectors read through access chains ----

// builtin_chain.spvasm reads the global id, the offset and the local id through access chains
// (translator 15's reader aborts on them unless the helper rewrites them). It builds; on a GPU
// chain_ids(out, dim) writes out[i] = gid + 1000 * lid[dim] for an offset launch.
START_TEST(builtin_chains_translate) {
    ur_program_handle_t p = built("builtin_chain.spv");
    ur_kernel_handle_t k = kernel(p, "chain_ids");
    ck_assert_uint_eq(num_args(k), 2);
    if (!on_sim()) {
        enum { N = 64, OFFSET = 5 };
        uint64_t *out = shared(N * sizeof(uint64_t));
        size_t n = N, local = 16, offset = OFFSET;
        for (uint32_t dim = 0; dim < 2; ++dim) {
            ur_exp_kernel_arg_properties_t args[2] = {cudat_arg_pointer(0, out),
                                                      cudat_arg_value(1, &dim, sizeof dim)};
            launch(k, 1, &offset, &n, &local, 2, args);
            for (uint64_t i = 0; i < N; ++i) // a 1-D range: lid[1] is 0
                ck_assert_uint_eq(out[i], i + OFFSET + (dim == 0 ? 1000 * (i % 16) : 0));
        }
        ck_assert_ur_ok(urUSMFree(T.context, out));
    }
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

// ---- device assert from SPIR-V on a GPU ----

// assert_nonzero (spirv_assert.cl) over 256 work-items whose input is 0 at `zero_at` (none when
// negative); returns what urQueueFinish returned. Sets up and tears down itself: a failed
// assert leaves the context unusable.
static ur_result_t run_spirv_assert(int zero_at) {
    cudat_setup();
    ur_program_handle_t p = built("spirv_assert.spv");
    ur_kernel_handle_t k = kernel(p, "assert_nonzero");
    enum { N = 256 };
    int *v = shared(N * sizeof(int));
    for (int i = 0; i < N; ++i)
        v[i] = i == zero_at ? 0 : i + 1;
    ur_exp_kernel_arg_properties_t arg = cudat_arg_pointer(0, v);
    size_t local = 64;
    ck_assert_ur_ok(cudat_launch(T.queue, k, N, &local, 1, &arg, 0, NULL, NULL));
    ur_result_t r = urQueueFinish(T.queue);
    // After an assert the context is gone; the frees answer whatever they answer.
    (void)urUSMFree(T.context, v);
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urProgramRelease(p));
    return r;
}

START_TEST(spirv_assert_passing_is_silent) {
    ck_assert_ur_ok(run_spirv_assert(-1));
    cudat_teardown();
}
END_TEST

// URC_ASSERT_MODE=report: the synchronising call returns the documented error (test_assert.c
// checks the same for nvcc's PTX).
START_TEST(spirv_assert_reported) {
    setenv("URC_ASSERT_MODE", "report", 1);
    ck_assert_ur(run_spirv_assert(77), UR_RESULT_ERROR_ADAPTER_SPECIFIC);
    const char *message = NULL;
    int32_t code = 0;
    ck_assert_ur_ok(urAdapterGetLastError(T.adapter, &message, &code));
    ck_assert_int_eq(code, URC_ERROR_DEVICE_ASSERT);
    ck_assert_ptr_nonnull(strstr(message, "CUDA_ERROR_ASSERT (710)"));
    cudat_teardown();
}
END_TEST

static char *slurp(const char *path) {
    FILE *f = fopen(path, "rb");
    char *buf = calloc(1, 65536);
    ck_assert_ptr_nonnull(buf);
    size_t n = f != NULL ? fread(buf, 1, 65535, f) : 0;
    if (f != NULL)
        fclose(f);
    buf[n] = '\0';
    return buf;
}

// The default mode: CUDA prints the SPIR-V module's assert message (its expression, from the
// __devicelib_assert_fail call) and urc aborts the process, here a child whose output is kept.
START_TEST(spirv_assert_message_delivered) {
    char dir[1024], out_path[1100], err_path[1100];
    urc_test_temp_dir(dir, sizeof dir);
    snprintf(out_path, sizeof out_path, "%s/stdout", dir);
    snprintf(err_path, sizeof err_path, "%s/stderr", dir);
    int out_fd = open(out_path, O_WRONLY | O_CREAT | O_EXCL, 0600);
    int err_fd = open(err_path, O_WRONLY | O_CREAT | O_EXCL, 0600);
    ck_assert(out_fd >= 0 && err_fd >= 0);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(out_fd, STDOUT_FILENO);
        dup2(err_fd, STDERR_FILENO);
        setvbuf(stdout, NULL, _IONBF, 0); // abort() drops stdio buffers
        setvbuf(stderr, NULL, _IONBF, 0);
        unsetenv("URC_ASSERT_MODE");
        run_spirv_assert(200);
        _exit(3); // reached only when the process was not aborted
    }
    int status = 0;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    close(out_fd);
    close(err_fd);
    char *err = slurp(err_path), *out = slurp(out_path);
    unlink(out_path);
    unlink(err_path);
    ck_assert_msg(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT,
                  "the child was not aborted (status 0x%x); stderr: %s", status, err);
    ck_assert_msg(strstr(err, "v[i] != 0") != NULL || strstr(out, "v[i] != 0") != NULL,
                  "no assert message; stderr: %s stdout: %s", err, out);
    ck_assert_ptr_nonnull(strstr(err, "device assert fired"));
    free(err);
    free(out);
}
END_TEST

// ---- without the toolchain ----

START_TEST(no_toolchain_answers_unsupported) {
    size_t size = 0;
    void *il = spv("add_one.spv", &size);
    ur_program_handle_t p = NULL;
    ck_assert_ur(urProgramCreateWithIL(T.context, il, size, NULL, &p),
                 UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
    const char *msg = NULL;
    int32_t native = 0;
    ck_assert_ur_ok(urAdapterGetLastError(T.adapter, &msg, &native));
    ck_assert_ptr_nonnull(strstr(msg, "libllvmspirvlib15"));
    ck_assert_ptr_nonnull(strstr(msg, "libclc-15"));
    const uint8_t *bin = il;
    ck_assert_ur(urProgramCreateWithBinary(T.context, 1, &T.device, &size, &bin, NULL, &p),
                 UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
    size_t vsize = 0;
    ck_assert_ur_ok(urDeviceGetInfo(T.device, UR_DEVICE_INFO_IL_VERSION, 0, NULL, &vsize));
    char *v = malloc(vsize);
    ck_assert_ur_ok(urDeviceGetInfo(T.device, UR_DEVICE_INFO_IL_VERSION, vsize, v, NULL));
    ck_assert_ptr_null(strstr(v, "SPIR-V"));
    free(v);
    free(il);
}
END_TEST

static Suite *suite(void) {
    Suite *s = suite_create("cuda_spirv");
    if (getenv("URC_TEST_NO_TOOLCHAIN") != NULL) {
        TCase *tc = cudat_tcase("no_toolchain");
        tcase_add_test(tc, no_toolchain_answers_unsupported);
        suite_add_tcase(s, tc);
        return s;
    }
    TCase *tc = cudat_tcase("spirv");
    tcase_set_timeout(tc, 240);
    tcase_add_test(tc, il_builds_and_names_kernels);
    tcase_add_test(tc, binaries_are_ptx);
    tcase_add_test(tc, add_value_runs);
    tcase_add_test(tc, binary_spirv_either_endianness);
    tcase_add_test(tc, il_version_lists_spirv);
    tcase_add_test(tc, bad_modules_are_invalid_binary);
    tcase_add_test(tc, translator_rejection_is_logged);
    tcase_add_test(tc, spec_constants_checked);
    tcase_add_test(tc, spec_constants_applied);
    tcase_add_test(tc, assert_becomes_assertfail);
    tcase_add_test(tc, ptx_cache_entry);
    tcase_add_test(tc, compile_and_link);
    tcase_add_test(tc, device_globals_by_unique_id);
    tcase_add_test(tc, builtin_chains_translate);
    suite_add_tcase(s, tc);
    // These set up the fixture themselves (after URC_MASK_ASPECTS).
    TCase *vf = tcase_create("vf_link");
    tcase_set_timeout(vf, 240);
    tcase_add_test(vf, vf_link_real_provider);
    tcase_add_test(vf, vf_link_dummy_provider);
    suite_add_tcase(s, vf);
    if (!on_sim()) {
        TCase *gpu = cudat_tcase("gpu");
        tcase_set_timeout(gpu, 240);
        tcase_add_test(gpu, gpu_suite_matches_host);
        suite_add_tcase(s, gpu);
        // These set up the fixture themselves: an assert leaves the context unusable.
        TCase *as = tcase_create("gpu_assert");
        tcase_set_timeout(as, 240);
        tcase_add_test(as, spirv_assert_passing_is_silent);
        tcase_add_test(as, spirv_assert_reported);
        tcase_add_test(as, spirv_assert_message_delivered);
        suite_add_tcase(s, as);
    }
    return s;
}

int main(void) {
    // Without the SPIR-V files (no clang-14/llvm-spirv-14 at build time) there is nothing to run.
    char path[1024];
    snprintf(path, sizeof path, "%s/spirv_suite.spv", cudat_kernel_dir());
    if (access(path, R_OK) != 0) {
        fprintf(stderr, "%s: not built; skipping\n", path);
        return 77;
    }
    if (getenv("URC_TEST_NO_TOOLCHAIN") == NULL) {
        // The translator is optional at build time: without it only the no-toolchain run
        // means anything.
        const char *helper = getenv("URC_CUDA_SPIRV_PTX");
        if (helper != NULL && access(helper, X_OK) != 0) {
            fprintf(stderr, "urc-spirv-ptx not built; skipping\n");
            return 77;
        }
    }
    return cudat_main(suite(), false);
}

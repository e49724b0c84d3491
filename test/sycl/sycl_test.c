// SPDX-License-Identifier: MIT
#include "sycl_test.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

st_backend_t st_backend(void) {
    const char *b = getenv("URC_SYCL_BACKEND");
    return b != NULL && strcmp(b, "cuda") == 0 ? ST_CUDA : ST_OPENCL;
}

const char *st_backend_name(void) {
    return st_backend() == ST_CUDA ? "cuda" : "opencl";
}

DPCTLSyclBackendType st_dpctl_backend(void) {
    return st_backend() == ST_CUDA ? DPCTL_CUDA : DPCTL_OPENCL;
}

void st_setenv(const char *name, const char *value) {
    int rc = value != NULL ? setenv(name, value, 1) : unsetenv(name);
    ck_assert_msg(rc == 0, "cannot set %s", name);
}

char *st_read_text(const char *path) {
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return NULL;
    size_t cap = 4096, len = 0;
    char *text = malloc(cap);
    size_t n;
    while (text != NULL && (n = fread(text + len, 1, cap - len - 1, f)) > 0) {
        len += n;
        if (cap - len < 2) {
            char *bigger = realloc(text, cap * 2);
            if (bigger == NULL) {
                free(text);
                text = NULL;
                break;
            }
            text = bigger;
            cap *= 2;
        }
    }
    fclose(f);
    if (text != NULL)
        text[len] = '\0';
    return text;
}

/// Whether the mapping line's file is (by device and inode) the file `want`.
static bool same_file(const char *mapped, const struct stat *want) {
    struct stat st;
    return stat(mapped, &st) == 0 && st.st_dev == want->st_dev && st.st_ino == want->st_ino;
}

/// Checks one forced library against the process's mappings: it is mapped, and every mapped
/// libur_* file lies in its folder (urc's build), so none came from libsycl's side.
static void require_mapped(const char *forced, const char *maps) {
    struct stat want;
    ck_assert_msg(stat(forced, &want) == 0, "UR_ADAPTERS_FORCE_LOAD names %s: %s", forced,
                  strerror(errno));
    char real[PATH_MAX];
    ck_assert_ptr_nonnull(realpath(forced, real));
    const char *dir = dirname(real);
    size_t dir_len = strlen(dir);
    bool found = false;
    for (const char *line = maps; *line != '\0';) {
        const char *end = strchr(line, '\n');
        size_t len = end != NULL ? (size_t)(end - line) : strlen(line);
        const char *path = memchr(line, '/', len);
        if (path != NULL) {
            char file[PATH_MAX];
            size_t n = len - (size_t)(path - line);
            if (n < sizeof file) {
                memcpy(file, path, n);
                file[n] = '\0';
                found = found || same_file(file, &want);
                const char *base = strrchr(file, '/') + 1;
                if (strncmp(base, "libur_", 6) == 0)
                    ck_assert_msg(strncmp(file, dir, dir_len) == 0 && file[dir_len] == '/',
                                  "%s is mapped: a UR library from outside urc's folder %s", file,
                                  dir);
            }
        }
        line += len + (end != NULL);
    }
    ck_assert_msg(found, "%s is not mapped: SYCL did not load urc", forced);
}

/// The number of platforms SYCL lists, and of those the backend's in `ours`.
static size_t count_platforms(size_t *ours) {
    DPCTLPlatformVectorRef platforms = DPCTLPlatform_GetPlatforms();
    size_t n = DPCTLPlatformVector_Size(platforms);
    *ours = 0;
    for (size_t i = 0; i < n; i++) {
        DPCTLSyclPlatformRef p = DPCTLPlatformVector_GetAt(platforms, i);
        *ours += DPCTLPlatform_GetBackend(p) == st_dpctl_backend();
        DPCTLPlatform_Delete(p);
    }
    DPCTLPlatformVector_Delete(platforms);
    return n;
}

void st_require_urc_mapped(void) {
    const char *force = getenv("UR_ADAPTERS_FORCE_LOAD");
    ck_assert_msg(force != NULL && *force != '\0', "UR_ADAPTERS_FORCE_LOAD is not set");
    // Starting SYCL loads the adapters; then every forced library must be in the maps.
    size_t ours;
    count_platforms(&ours);
    char *maps = st_read_text("/proc/self/maps");
    ck_assert_ptr_nonnull(maps);
    char list[PATH_MAX * 4];
    ck_assert_uint_lt(strlen(force), sizeof list);
    strcpy(list, force);
    for (char *save = NULL, *lib = strtok_r(list, ",", &save); lib != NULL;
         lib = strtok_r(NULL, ",", &save))
        require_mapped(lib, maps);
    free(maps);
}

void st_require_urc(void) {
    st_require_urc_mapped();
    size_t ours;
    size_t n = count_platforms(&ours);
    // One runtime per backend here: a second platform would be the built-in adapter's.
    ck_assert_msg(ours == 1, "SYCL lists %zu %s platforms (of %zu), expected 1", ours,
                  st_backend_name(), n);
}

DPCTLSyclDeviceRef st_device(void) {
    char filter[32];
    snprintf(filter, sizeof filter, "%s:0", st_backend_name());
    DPCTLSyclDeviceSelectorRef selector = DPCTLFilterSelector_Create(filter);
    ck_assert_ptr_nonnull(selector);
    DPCTLSyclDeviceRef device = DPCTLDevice_CreateFromSelector(selector);
    DPCTLDeviceSelector_Delete(selector);
    ck_assert_msg(device != NULL, "no SYCL device for filter %s", filter);
    return device;
}

DPCTLSyclQueueRef st_queue(DPCTLSyclDeviceRef device, int props) {
    DPCTLSyclContextRef context = DPCTLContext_Create(device, NULL, 0);
    ck_assert_ptr_nonnull(context);
    DPCTLSyclQueueRef queue = DPCTLQueue_Create(context, device, NULL, props);
    DPCTLContext_Delete(context);
    ck_assert_ptr_nonnull(queue);
    return queue;
}

size_t st_device_count(int id) {
    DPCTLDeviceVectorRef devices = DPCTLDeviceMgr_GetDevices(id);
    size_t n = devices != NULL ? DPCTLDeviceVector_Size(devices) : 0;
    DPCTLDeviceVector_Delete(devices);
    return n;
}

TCase *st_tcase(const char *name) {
    return urc_test_tcase(name, st_require_urc, NULL);
}

/// In a forked child, so that the parent's libsycl stays unstarted: is there a device?
static bool probe_device(void) {
    pid_t pid = fork();
    if (pid == 0) {
        char filter[32];
        snprintf(filter, sizeof filter, "%s:0", st_backend_name());
        DPCTLSyclDeviceSelectorRef selector = DPCTLFilterSelector_Create(filter);
        DPCTLSyclDeviceRef device = DPCTLDevice_CreateFromSelector(selector);
        _exit(device != NULL ? 0 : URC_TEST_SKIP);
    }
    int status = 0;
    return pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
           WEXITSTATUS(status) == 0;
}

int st_main(Suite *suite) {
    const char *force = getenv("UR_ADAPTERS_FORCE_LOAD");
    if (force == NULL || *force == '\0') {
        fprintf(stderr, "UR_ADAPTERS_FORCE_LOAD must name urc's library\n");
        srunner_free(srunner_create(suite));
        return EXIT_FAILURE;
    }
    if (!probe_device()) {
        // CTest sets this where the runtime is known to be installed (Intel's CPU runtime):
        // there, no device means urc failed, not that the machine lacks one.
        const char *required = getenv("URC_SYCL_REQUIRE_DEVICE");
        if (required != NULL && strcmp(required, "1") == 0) {
            fprintf(stderr, "SYCL finds no %s device through %s\n", st_backend_name(), force);
            srunner_free(srunner_create(suite));
            return EXIT_FAILURE;
        }
        char why[96];
        snprintf(why, sizeof why, "SYCL finds no %s device through urc here", st_backend_name());
        return urc_test_skip(suite, why);
    }
    return urc_test_run(suite);
}

// SPDX-License-Identifier: MIT
// liburc_sycl_interpose.so: put before libsycl.so.9 with LD_PRELOAD (the urc-sycl launcher
// does), it takes each SYCL library's __sycl_register_lib call, hands the descriptor to
// libsycl untouched, and registers NVIDIA twins of its SPIR-V images beside it so libsycl
// offers them to CUDA devices, where urc's CUDA adapter builds them from SPIR-V
// (docs/sycl-nvidia.md). Twins are made only when the CUDA adapter libsycl will load is urc's;
// otherwise, or for a descriptor of another version, everything passes through as it came.
#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "sycl_twins.h"

#define EXPORT       __attribute__((visibility("default")))
#define CUDA_ADAPTER "libur_adapter_cuda.so.0"

static urc_sycl_register_fn next_register;
static urc_sycl_register_fn next_unregister;
static bool twins_enabled;
static bool verbose;
static pthread_once_t setup_once = PTHREAD_ONCE_INIT;
static void *first_caller; // the code that made the first call, written before setup runs

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fputs("urc-sycl: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

static bool same_file(const char *a, const char *b) {
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
}

// The folder of the object that holds `addr`, in `out`; false when unknown.
static bool folder_of(const void *addr, char *out, size_t size) {
    Dl_info info;
    if (dladdr(addr, &info) == 0 || info.dli_fname == NULL)
        return false;
    const char *slash = strrchr(info.dli_fname, '/');
    if (slash == NULL || (size_t)(slash - info.dli_fname) >= size)
        return false;
    memcpy(out, info.dli_fname, (size_t)(slash - info.dli_fname));
    out[slash - info.dli_fname] = '\0';
    return true;
}

// The first folder of the `sep`-separated `list` that holds the CUDA adapter, into `found`.
static bool first_in(const char *list, const char *sep, char *found, size_t size) {
    if (list == NULL || list[0] == '\0')
        return false;
    char *copy = strdup(list);
    if (copy == NULL)
        return false;
    bool hit = false;
    char *save = NULL;
    for (char *dir = strtok_r(copy, sep, &save); dir != NULL; dir = strtok_r(NULL, sep, &save)) {
        snprintf(found, size, "%s/%s", dir, CUDA_ADAPTER);
        struct stat st;
        if (stat(found, &st) == 0 && S_ISREG(st.st_mode)) {
            hit = true;
            break;
        }
    }
    free(copy);
    return hit;
}

// Whether the CUDA adapter libsycl will open is `ours`. libsycl's built-in loader takes
// UR_ADAPTERS_FORCE_LOAD's list alone when it is set; otherwise the first of
// UR_ADAPTERS_SEARCH_PATH's folders, libsycl's own folder, then the bare name through the
// dynamic linker (LD_LIBRARY_PATH first), as SYCL_UR_TRACE shows libsycl 2026.2 trying them.
static bool libsycl_loads(const char *ours, const char *libsycl_dir, char *theirs, size_t size) {
    const char *force = secure_getenv("UR_ADAPTERS_FORCE_LOAD");
    if (force != NULL && force[0] != '\0') {
        snprintf(theirs, size, "UR_ADAPTERS_FORCE_LOAD=%s", force);
        char *copy = strdup(force);
        bool hit = false;
        char *save = NULL;
        for (char *p = copy ? strtok_r(copy, ",", &save) : NULL; p != NULL && !hit;
             p = strtok_r(NULL, ",", &save))
            hit = same_file(p, ours);
        free(copy);
        return hit;
    }
    if (first_in(secure_getenv("UR_ADAPTERS_SEARCH_PATH"), ",", theirs, size) ||
        first_in(libsycl_dir, "", theirs, size) ||
        first_in(secure_getenv("LD_LIBRARY_PATH"), ":", theirs, size))
        return same_file(theirs, ours);
    snprintf(theirs, size, "no %s", CUDA_ADAPTER);
    return false;
}

EXPORT void __sycl_register_lib(urc_sycl_descriptor_t *desc);
EXPORT void __sycl_unregister_lib(urc_sycl_descriptor_t *desc);

static void setup(void) {
    const char *v = secure_getenv("URC_SYCL_LOG");
    verbose = v != NULL && v[0] != '\0' && strcmp(v, "0") != 0;
    next_register = (urc_sycl_register_fn)dlsym(RTLD_NEXT, "__sycl_register_lib");
    next_unregister = (urc_sycl_register_fn)dlsym(RTLD_NEXT, "__sycl_unregister_lib");
    if (next_register == NULL || next_unregister == NULL) {
        // Python opens extension modules RTLD_LOCAL, so their libsycl is not in the global
        // scope RTLD_NEXT searches: ask the calling library's own scope (its dependencies).
        Dl_info info;
        void *handle = NULL;
        if (first_caller != NULL && dladdr(first_caller, &info) != 0 && info.dli_fname != NULL)
            handle = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
        if (handle != NULL) {
            next_register = (urc_sycl_register_fn)dlsym(handle, "__sycl_register_lib");
            next_unregister = (urc_sycl_register_fn)dlsym(handle, "__sycl_unregister_lib");
            dlclose(handle);
        }
        if (next_register == (urc_sycl_register_fn)__sycl_register_lib ||
            next_unregister == (urc_sycl_register_fn)__sycl_unregister_lib)
            next_register = next_unregister = NULL;
    }
    if (next_register == NULL || next_unregister == NULL) {
        say("no __sycl_register_lib after this library (is libsycl.so.9 loaded?)");
        return;
    }
    v = secure_getenv("URC_SYCL_TWINS");
    if (v != NULL && strcmp(v, "0") == 0) {
        if (verbose)
            say("URC_SYCL_TWINS=0: images passed through untouched");
        return;
    }
    char ours[4096], libsycl_dir[4096], theirs[4096];
    const char *named = secure_getenv("URC_SYCL_CUDA_ADAPTER");
    if (named != NULL && named[0] != '\0') {
        snprintf(ours, sizeof ours, "%s", named);
    } else {
        char here[4096];
        if (!folder_of((const void *)&setup, here, sizeof here))
            here[0] = '\0';
        // A path too long to hold is no adapter libsycl could load: compared as empty.
        int n = snprintf(ours, sizeof ours, "%s/%s", here, CUDA_ADAPTER);
        if (n < 0 || (size_t)n >= sizeof ours)
            ours[0] = '\0';
    }
    if (!folder_of((const void *)next_register, libsycl_dir, sizeof libsycl_dir))
        libsycl_dir[0] = '\0';
    twins_enabled = libsycl_loads(ours, libsycl_dir, theirs, sizeof theirs);
    if (!twins_enabled)
        say("urc's CUDA adapter (%s) is not the one libsycl loads (%s): images passed through "
            "untouched",
            ours, theirs);
    else if (verbose)
        say("libsycl loads urc's CUDA adapter %s: SPIR-V images get NVIDIA twins", ours);
}

void __sycl_register_lib(urc_sycl_descriptor_t *desc) {
    __atomic_compare_exchange_n(&first_caller, &(void *){NULL}, __builtin_return_address(0), false,
                                __ATOMIC_RELAXED, __ATOMIC_RELAXED);
    pthread_once(&setup_once, setup);
    if (next_register == NULL)
        return;
    urc_sycl_register_report_t r = urc_sycl_registry_add(desc, next_register, twins_enabled);
    static int unknown_logged;
    if (r.result == URC_SYCL_TWINS_UNKNOWN &&
        !__atomic_exchange_n(&unknown_logged, 1, __ATOMIC_RELAXED)) {
        unsigned image_version = URC_SYCL_IMAGE_VERSION;
        if (desc != NULL && desc->version == URC_SYCL_DESCRIPTOR_VERSION && desc->images != NULL)
            for (uint16_t i = 0; i < desc->count; ++i)
                if (desc->images[i].version != URC_SYCL_IMAGE_VERSION)
                    image_version = desc->images[i].version;
        say("a device-binary descriptor of version %u with images of version %u is not the "
            "layout this library knows (%u, %u): passed through untouched (logged once)",
            desc ? desc->version : 0u, image_version, URC_SYCL_DESCRIPTOR_VERSION,
            URC_SYCL_IMAGE_VERSION);
    } else if (r.result == URC_SYCL_TWINS_NO_MEMORY)
        say("out of memory: no NVIDIA twins for one library");
    else if (verbose && twins_enabled)
        say("%u images, %u NVIDIA twins registered", desc ? desc->count : 0u, r.twins);
}

void __sycl_unregister_lib(urc_sycl_descriptor_t *desc) {
    __atomic_compare_exchange_n(&first_caller, &(void *){NULL}, __builtin_return_address(0), false,
                                __ATOMIC_RELAXED, __ATOMIC_RELAXED);
    pthread_once(&setup_once, setup);
    if (next_unregister != NULL)
        urc_sycl_registry_remove(desc, next_unregister);
}

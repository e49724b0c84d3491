// SPDX-License-Identifier: MIT
// SPIR-V → PTX for the CUDA adapter: finding the helper and libclc, running the helper in a
// process of its own (LLVM ends its process on some invalid input; see docs/spirv.md for the
// evidence), and the persistent cache of its results.
#include "spirv.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/alloc.h"
#include "core/error.h"
#include "env/env.h"
#include "program/spirv_scan.h"

extern char **environ;

#define LIBCLC_SYSTEM "/usr/lib/clc/nvptx64--nvidiacl.bc"
#define LIBCLC_NAME   "nvptx64--nvidiacl.bc"
#define BUILTINS_NAME "urc_builtins.nvptx64.bc"
#define HELPER_NAME   "urc-spirv-ptx"

typedef struct toolchain_t {
    bool ok;
    char why[512];
    char helper[PATH_MAX];
    char libclc[PATH_MAX];
    char builtins[PATH_MAX]; // "" when absent
    char version[512];       // what the cache key holds of the toolchain
} toolchain_t;

static toolchain_t tc;

// snprintf that says whether the text fitted (a path cut short must not be used).
static bool fmt(char *out, size_t size, const char *format, ...)
    __attribute__((format(printf, 3, 4)));
static bool fmt(char *out, size_t size, const char *format, ...) {
    va_list ap;
    va_start(ap, format);
    int n = vsnprintf(out, size, format, ap);
    va_end(ap);
    return n >= 0 && (size_t)n < size;
}
static pthread_once_t tc_once = PTHREAD_ONCE_INIT;

// The folder holding this adapter library ("" when unknown).
static void adapter_dir(char *out, size_t size) {
    Dl_info info;
    out[0] = '\0';
    if (dladdr((void *)adapter_dir, &info) == 0 || info.dli_fname == NULL)
        return;
    const char *slash = strrchr(info.dli_fname, '/');
    if (slash == NULL)
        return;
    size_t n = (size_t)(slash - info.dli_fname);
    if (n + 1 > size)
        return;
    memcpy(out, info.dli_fname, n);
    out[n] = '\0';
}

static bool readable(const char *path) {
    return path[0] != '\0' && access(path, R_OK) == 0;
}

static void file_stamp(const char *path, char *out, size_t size) {
    struct stat st;
    if (path[0] != '\0' && stat(path, &st) == 0)
        fmt(out, size, "%s:%lld:%lld", path, (long long)st.st_size, (long long)st.st_mtime);
    else
        fmt(out, size, "-");
}

// Runs `argv` with stdin and stdout at /dev/null and stderr into `err_path` (or /dev/null).
// Returns the wait status, or -1 when the process could not start.
static int run(char *const argv[], const char *err_path, const char *out_path) {
    posix_spawn_file_actions_t fa;
    if (posix_spawn_file_actions_init(&fa) != 0)
        return -1;
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, out_path != NULL ? out_path : "/dev/null",
                                     O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_addopen(&fa, 2, err_path != NULL ? err_path : "/dev/null",
                                     O_WRONLY | O_CREAT | O_TRUNC, 0600);
    pid_t pid;
    int rc = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0)
        return -1;
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    return status;
}

static char *slurp(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    char *buf = NULL;
    size_t used = 0, cap = 0;
    bool bad = false;
    for (;;) {
        if (cap - used < 4096) {
            cap = cap ? cap * 2 : 65536;
            char *n = realloc(buf, cap + 1);
            if (n == NULL) {
                bad = true;
                break;
            }
            buf = n;
        }
        size_t got = fread(buf + used, 1, cap - used, f);
        used += got;
        if (got == 0)
            break;
    }
    bad = bad || ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        return NULL;
    }
    buf[used] = '\0';
    if (size != NULL)
        *size = used;
    return buf;
}

static bool make_temp_dir(char *out, size_t size) {
    const char *tmp = secure_getenv("TMPDIR");
    return fmt(out, size, "%s/urc-spirv-XXXXXX", tmp != NULL && tmp[0] ? tmp : "/tmp") &&
           mkdtemp(out) != NULL;
}

static void remove_temp_dir(const char *dir) {
    static const char *const names[] = {"in.spv", "out.ptx", "log.txt", "version.txt"};
    char path[PATH_MAX];
    for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i) {
        fmt(path, sizeof path, "%s/%s", dir, names[i]);
        unlink(path);
    }
    rmdir(dir);
}

static void find_toolchain(void) {
    char dir[PATH_MAX];
    adapter_dir(dir, sizeof dir);
    const char *env = urc_env_get(URC_ENV_CUDA_SPIRV_PTX);
    if (env != NULL)
        fmt(tc.helper, sizeof tc.helper, "%s", env);
    else if (dir[0] != '\0')
        fmt(tc.helper, sizeof tc.helper, "%s/urc/" HELPER_NAME, dir);
    env = urc_env_get(URC_ENV_CUDA_LIBCLC);
    if (env != NULL)
        fmt(tc.libclc, sizeof tc.libclc, "%s", env);
    else if (readable(LIBCLC_SYSTEM))
        fmt(tc.libclc, sizeof tc.libclc, "%s", LIBCLC_SYSTEM);
    else if (dir[0] != '\0')
        fmt(tc.libclc, sizeof tc.libclc, "%s/urc/" LIBCLC_NAME, dir);
    env = urc_env_get(URC_ENV_CUDA_BUILTINS);
    if (env != NULL)
        fmt(tc.builtins, sizeof tc.builtins, "%s", env);
    else if (dir[0] != '\0')
        fmt(tc.builtins, sizeof tc.builtins, "%s/urc/" BUILTINS_NAME, dir);
    if (!readable(tc.builtins))
        tc.builtins[0] = '\0';

    if (tc.helper[0] == '\0' || access(tc.helper, X_OK) != 0) {
        fmt(tc.why, sizeof tc.why,
            "SPIR-V on CUDA needs urc's helper %s (built where llvm-15-dev and "
            "libllvmspirvlib-15-dev are installed) and the Debian packages " CUDA_SPIRV_PACKAGES,
            tc.helper[0] != '\0' ? tc.helper : HELPER_NAME);
        return;
    }
    if (!readable(tc.libclc)) {
        fmt(tc.why, sizeof tc.why,
            "SPIR-V on CUDA needs libclc's nvptx bitcode (%s): install libclc-15, or set "
            "URC_CUDA_LIBCLC",
            tc.libclc[0] != '\0' ? tc.libclc : LIBCLC_SYSTEM);
        return;
    }
    // The helper must start: its LLVM and translator libraries are loaded then.
    char tmp[PATH_MAX], out[PATH_MAX];
    if (!make_temp_dir(tmp, sizeof tmp)) {
        fmt(tc.why, sizeof tc.why, "SPIR-V on CUDA: no temporary folder (%s)", strerror(errno));
        return;
    }
    fmt(out, sizeof out, "%s/version.txt", tmp);
    char *argv[] = {tc.helper, "--version", NULL};
    int status = run(argv, NULL, out);
    char *version = slurp(out, NULL);
    remove_temp_dir(tmp);
    if (status < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0 || version == NULL) {
        free(version);
        fmt(tc.why, sizeof tc.why,
            "SPIR-V on CUDA: the helper %s does not run; install the Debian "
            "packages " CUDA_SPIRV_PACKAGES,
            tc.helper);
        return;
    }
    version[strcspn(version, "\n")] = '\0';
    char s1[PATH_MAX + 64], s2[PATH_MAX + 64], s3[PATH_MAX + 64];
    file_stamp(tc.helper, s1, sizeof s1);
    file_stamp(tc.libclc, s2, sizeof s2);
    file_stamp(tc.builtins, s3, sizeof s3);
    fmt(tc.version, sizeof tc.version, "%s|%s|%s|%s", version, s1, s2, s3);
    free(version);
    tc.ok = true;
}

bool cuda_spirv_available(char *why, size_t why_size) {
    pthread_once(&tc_once, find_toolchain);
    if (!tc.ok && why != NULL && why_size > 0)
        fmt(why, why_size, "%s", tc.why);
    return tc.ok;
}

unsigned cuda_spirv_target(int cc_major, int cc_minor) {
    unsigned sm = (unsigned)(cc_major * 10 + cc_minor);
    return sm >= 80 || sm < 30 ? 80 : sm;
}

// ---- cache ----

// Two independent 64-bit hashes (FNV-1a and a multiply-xorshift) over the key's parts.
typedef struct cache_key_t {
    uint64_t a, b;
} cache_key_t;

static void key_add(cache_key_t *k, const void *data, size_t n) {
    const uint8_t *p = data;
    for (size_t i = 0; i < n; ++i) {
        k->a = (k->a ^ p[i]) * 0x100000001b3ull;
        k->b = (k->b + p[i] + 1) * 0x9e3779b97f4a7c15ull;
        k->b ^= k->b >> 29;
    }
    // Separates parts, so ("ab","c") and ("a","bc") differ.
    k->a = (k->a ^ n) * 0x100000001b3ull;
    k->b = (k->b ^ (n + 0x51)) * 0xbf58476d1ce4e5b9ull;
}

static bool cache_dir(char *out, size_t size) {
    if (!urc_env_bool(URC_ENV_SPIRV_CACHE, true))
        return false;
    const char *xdg = urc_env_get(URC_ENV_XDG_CACHE_HOME);
    const char *home = urc_env_get(URC_ENV_HOME);
    int n;
    if (xdg != NULL && xdg[0] == '/')
        n = snprintf(out, size, "%s/urc", xdg);
    else if (home != NULL && home[0] == '/')
        n = snprintf(out, size, "%s/.cache/urc", home);
    else
        return false;
    return n > 0 && (size_t)n < size;
}

// mkdir -p with private permissions for the folders it makes.
static bool make_dirs(char *path) {
    for (char *p = path + 1;; ++p) {
        if (*p == '/' || *p == '\0') {
            char c = *p;
            *p = '\0';
            bool ok = mkdir(path, 0700) == 0 || errno == EEXIST;
            *p = c;
            if (!ok)
                return false;
            if (c == '\0')
                return true;
        }
    }
}

static bool cache_path(const cuda_spirv_request_t *req, char *out, size_t size, char *tag,
                       size_t tag_size) {
    char dir[PATH_MAX];
    if (!cache_dir(dir, sizeof dir))
        return false;
    uint32_t *words = urc_spirv_native_words(req->spirv, req->size);
    if (words == NULL)
        return false;
    cache_key_t k = {0xcbf29ce484222325ull, 0x2545f4914f6cdd1dull};
    key_add(&k, words, req->size);
    free(words);
    uint32_t flags[3] = {req->sm, req->library, req->no_contract};
    key_add(&k, flags, sizeof flags);
    // Field by field: the struct's padding is not part of the key.
    for (uint32_t i = 0; i < req->spec_count; ++i) {
        key_add(&k, &req->spec[i].id, sizeof req->spec[i].id);
        key_add(&k, &req->spec[i].value, sizeof req->spec[i].value);
    }
    key_add(&k, tc.version, strlen(tc.version));
    snprintf(tag, tag_size, "%016llx%016llx-%zu", (unsigned long long)k.a, (unsigned long long)k.b,
             req->size);
    int n = snprintf(out, size, "%s/spirv-ptx/%s.ptx", dir, tag);
    return n > 0 && (size_t)n < size;
}

// Cache files are "// urc-spirv-ptx cache <tag>\n" and the PTX; the tag is checked on reading.
static char *cache_read(const char *path, const char *tag, size_t *size) {
    size_t n = 0;
    char *s = slurp(path, &n);
    if (s == NULL)
        return NULL;
    char head[160];
    int h = snprintf(head, sizeof head, "// urc-spirv-ptx cache %s\n", tag);
    if (h < 0 || (size_t)h > n || memcmp(s, head, (size_t)h) != 0) {
        free(s);
        return NULL;
    }
    memmove(s, s + h, n - (size_t)h + 1);
    *size = n - (size_t)h;
    return s;
}

// Written to a temporary file in the same folder and renamed over the entry, so a reader in
// another process sees the old entry, no entry, or the whole new one.
static void cache_write(const char *path, const char *tag, const char *ptx, size_t size) {
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash == NULL)
        return;
    *slash = '\0';
    if (!make_dirs(dir))
        return;
    char tmp[PATH_MAX + 32];
    snprintf(tmp, sizeof tmp, "%s.tmp.XXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0)
        return;
    FILE *f = fdopen(fd, "wb");
    if (f == NULL) {
        close(fd);
        unlink(tmp);
        return;
    }
    bool ok = fprintf(f, "// urc-spirv-ptx cache %s\n", tag) > 0 && fwrite(ptx, 1, size, f) == size;
    ok = fclose(f) == 0 && ok;
    if (!ok || rename(tmp, path) != 0)
        unlink(tmp);
}

// ---- translation ----

static char *strdup_or_empty(const char *s) {
    char *c = urc_strdup(s != NULL ? s : "");
    return c;
}

ur_result_t cuda_spirv_translate(const cuda_spirv_request_t *req, char **ptx, size_t *ptx_size,
                                 char **log) {
    *ptx = NULL;
    *ptx_size = 0;
    *log = NULL;
    char why[512];
    if (!cuda_spirv_available(why, sizeof why)) {
        *log = strdup_or_empty(why);
        return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0, "%s", why);
    }
    char cached[PATH_MAX], tag[96];
    bool use_cache = cache_path(req, cached, sizeof cached, tag, sizeof tag);
    if (use_cache) {
        *ptx = cache_read(cached, tag, ptx_size);
        if (*ptx != NULL) {
            *log = strdup_or_empty("");
            return *log != NULL ? UR_RESULT_SUCCESS : UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
        }
    }

    char dir[PATH_MAX - 32];
    if (!make_temp_dir(dir, sizeof dir))
        return urc_error_set(UR_RESULT_ERROR_OUT_OF_RESOURCES, 0,
                             "SPIR-V translation: no temporary folder (%s)", strerror(errno));
    char in[PATH_MAX], out[PATH_MAX], err[PATH_MAX];
    snprintf(in, sizeof in, "%s/in.spv", dir);
    snprintf(out, sizeof out, "%s/out.ptx", dir);
    snprintf(err, sizeof err, "%s/log.txt", dir);
    ur_result_t res = UR_RESULT_SUCCESS;
    FILE *f = fopen(in, "wb");
    bool written = f != NULL && fwrite(req->spirv, 1, req->size, f) == req->size;
    if (f != NULL)
        written = fclose(f) == 0 && written;
    if (!written) {
        remove_temp_dir(dir);
        return urc_error_set(UR_RESULT_ERROR_OUT_OF_RESOURCES, 0,
                             "SPIR-V translation: cannot write %s", in);
    }

    // argv: helper, --sm N, --libclc F, [--builtins F], [--library], [--no-contract],
    // (--spec ID=V)*, in, out.
    size_t argc = 0, cap = 12 + 2 * (size_t)req->spec_count;
    char **argv = urc_calloc(cap, sizeof *argv);
    char *spec_text = urc_calloc(req->spec_count ? req->spec_count : 1, 48);
    char sm[16];
    snprintf(sm, sizeof sm, "%u", req->sm);
    if (argv == NULL || spec_text == NULL) {
        free(argv);
        free(spec_text);
        remove_temp_dir(dir);
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    argv[argc++] = tc.helper;
    argv[argc++] = "--sm";
    argv[argc++] = sm;
    argv[argc++] = "--libclc";
    argv[argc++] = tc.libclc;
    if (tc.builtins[0] != '\0') {
        argv[argc++] = "--builtins";
        argv[argc++] = tc.builtins;
    }
    if (req->library)
        argv[argc++] = "--library";
    if (req->no_contract)
        argv[argc++] = "--no-contract";
    for (uint32_t i = 0; i < req->spec_count; ++i) {
        char *s = spec_text + 48 * (size_t)i;
        snprintf(s, 48, "%u=%llu", req->spec[i].id, (unsigned long long)req->spec[i].value);
        argv[argc++] = "--spec";
        argv[argc++] = s;
    }
    argv[argc++] = in;
    argv[argc++] = out;
    int status = run(argv, err, NULL);
    free(argv);
    free(spec_text);

    char *text = slurp(err, NULL);
    size_t len = text != NULL ? strlen(text) : 0;
    while (len > 0 && (text[len - 1] == '\n' || text[len - 1] == ' '))
        text[--len] = '\0';
    if (status < 0) {
        res = urc_error_set(UR_RESULT_ERROR_OUT_OF_RESOURCES, 0,
                            "SPIR-V translation: cannot start %s", tc.helper);
    } else if (WIFSIGNALED(status)) {
        char line[128];
        snprintf(line, sizeof line, "%surc-spirv-ptx ended by signal %d", len ? "\n" : "",
                 WTERMSIG(status));
        char *t = realloc(text, len + strlen(line) + 1);
        if (t != NULL) {
            memcpy(t + len, line, strlen(line) + 1);
            text = t;
        }
        res = urc_error_set(UR_RESULT_ERROR_PROGRAM_BUILD_FAILURE, 0,
                            "SPIR-V translation failed: the translator ended by signal %d",
                            WTERMSIG(status));
    } else if (WEXITSTATUS(status) != 0) {
        ur_result_t code = WEXITSTATUS(status) == 2 ? UR_RESULT_ERROR_INVALID_BINARY
                                                    : UR_RESULT_ERROR_PROGRAM_BUILD_FAILURE;
        const char *first = text != NULL ? text : "";
        res = urc_error_set(code, 0, "SPIR-V translation failed: %.*s", (int)strcspn(first, "\n"),
                            first);
    } else {
        *ptx = slurp(out, ptx_size);
        if (*ptx == NULL)
            res = urc_error_set(UR_RESULT_ERROR_OUT_OF_HOST_MEMORY, 0,
                                "SPIR-V translation: cannot read the PTX");
    }
    remove_temp_dir(dir);
    *log = text != NULL ? text : strdup_or_empty("");
    if (res == UR_RESULT_SUCCESS && use_cache)
        cache_write(cached, tag, *ptx, *ptx_size);
    return res;
}

// SPDX-License-Identifier: MIT
// Runs a fuzz target's LLVMFuzzerTestOneInput over files and folders given on the command line,
// without libFuzzer: the seed corpus becomes a regression test with any compiler.
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
// Optional, as in libFuzzer: targets that set up state once define it.
__attribute__((weak)) int LLVMFuzzerInitialize(int *argc, char ***argv);

static int run_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        perror(path);
        return 1;
    }
    uint8_t *buf = NULL;
    size_t size = 0, cap = 0;
    for (;;) {
        if (size == cap) {
            cap = cap ? cap * 2 : 4096;
            uint8_t *p = realloc(buf, cap);
            if (p == NULL) {
                free(buf);
                fclose(f);
                return 1;
            }
            buf = p;
        }
        size_t got = fread(buf + size, 1, cap - size, f);
        if (got == 0)
            break;
        size += got;
    }
    fclose(f);
    // An exact-size copy, so the target sees the same bounds as under libFuzzer.
    uint8_t *exact = malloc(size ? size : 1);
    if (exact != NULL && size > 0)
        memcpy(exact, buf, size);
    free(buf);
    if (exact == NULL)
        return 1;
    LLVMFuzzerTestOneInput(exact, size);
    free(exact);
    return 0;
}

static int run_path(const char *path, int *count) {
    struct stat st;
    if (stat(path, &st) != 0) {
        perror(path);
        return 1;
    }
    if (!S_ISDIR(st.st_mode)) {
        ++*count;
        return run_file(path);
    }
    DIR *dir = opendir(path);
    if (dir == NULL) {
        perror(path);
        return 1;
    }
    int failed = 0;
    struct dirent *e;
    while ((e = readdir(dir)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char child[4096];
        snprintf(child, sizeof(child), "%s/%s", path, e->d_name);
        failed |= run_path(child, count);
    }
    closedir(dir);
    return failed;
}

int main(int argc, char **argv) {
    int failed = 0, count = 0;
    if (LLVMFuzzerInitialize != NULL)
        LLVMFuzzerInitialize(&argc, &argv);
    for (int i = 1; i < argc; ++i)
        failed |= run_path(argv[i], &count);
    printf("%d input(s) replayed\n", count);
    return failed || count == 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}

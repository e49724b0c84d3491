// SPDX-License-Identifier: MIT
// urc-aspect-filter: keeps the device images a target can take (seed 002's sycl-aspect-filter).
//
//   urc-aspect-filter -target=<t> [-device-config-file=<yaml>] [-o=<out>] [-v]
//                     [<file table or list> | <image.prop>...]
//
// Reads a file table ("[Code|Properties|...]" then rows) or a list of .prop paths from the
// file named, or stdin, and writes the rows of images the target supports to stdout (or -o).
// .prop paths given directly are filtered as a list. Exit status: 0 done, 1 error, 2 usage.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "device_config.h"
#include "filter.h"

static void usage(FILE *f) {
    fprintf(f, "usage: urc-aspect-filter -target=<target> [-device-config-file=<yaml>] "
               "[-o=<output>] [-v]\n"
               "                         [<file table or list> | <image.prop>...]\n"
               "Keeps the rows of a sycl-post-link file table (or the .prop files of a list)\n"
               "whose \"SYCL/device requirements\" the target meets.\n");
}

// "-name=value" or "--name=value": the value, or NULL when `arg` is another option.
static const char *option(const char *arg, const char *name) {
    if (arg[0] != '-')
        return NULL;
    arg += arg[1] == '-' ? 2 : 1;
    size_t n = strlen(name);
    return strncmp(arg, name, n) == 0 && arg[n] == '=' ? arg + n + 1 : NULL;
}

static char *read_all(FILE *f, size_t *len) {
    char *text = NULL;
    size_t cap = 0;
    *len = 0;
    for (;;) {
        if (*len == cap) {
            cap = cap ? cap * 2 : 4096;
            char *t = realloc(text, cap);
            if (t == NULL) {
                free(text);
                return NULL;
            }
            text = t;
        }
        size_t got = fread(text + *len, 1, cap - *len, f);
        if (got == 0)
            return text;
        *len += got;
    }
}

// The configuration installed with urc, else the one in the source tree.
static const char *default_config(void) {
    if (access(URC_DEVICE_CONFIG_INSTALLED, R_OK) == 0)
        return URC_DEVICE_CONFIG_INSTALLED;
    return URC_DEVICE_CONFIG_SOURCE;
}

static bool is_prop_path(const char *arg) {
    size_t n = strlen(arg);
    return n > 5 && strcmp(arg + n - 5, ".prop") == 0;
}

int main(int argc, char **argv) {
    const char *target = NULL, *config_path = NULL, *output = NULL, *input = NULL;
    bool verbose = false;
    int first_prop = 0, num_props = 0;
    for (int i = 1; i < argc; ++i) {
        const char *v;
        if ((v = option(argv[i], "target")) != NULL) {
            target = v;
        } else if ((v = option(argv[i], "device-config-file")) != NULL) {
            config_path = v;
        } else if ((v = option(argv[i], "o")) != NULL) {
            output = v;
        } else if (strcmp(argv[i], "-v") == 0) {
            verbose = true;
        } else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            usage(stdout);
            return 0;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            fprintf(stderr, "urc-aspect-filter: unknown option '%s'\n", argv[i]);
            usage(stderr);
            return 2;
        } else if (is_prop_path(argv[i])) {
            // .prop files on the command line form a list; they must come together.
            if (num_props == 0)
                first_prop = i;
            else if (first_prop + num_props != i)
                input = "";
            num_props++;
        } else if (input == NULL && num_props == 0) {
            input = argv[i]; // "-" is stdin
        } else {
            input = "";
        }
    }
    if (target == NULL || (input != NULL && input[0] == '\0')) {
        fprintf(stderr, "urc-aspect-filter: %s\n",
                target == NULL ? "-target=<target> is required"
                               : "give one file table or list, or .prop files");
        usage(stderr);
        return 2;
    }

    char err[1024];
    device_config_t config;
    if (config_path == NULL)
        config_path = default_config();
    if (!device_config_load(config_path, &config, err, sizeof(err))) {
        fprintf(stderr, "urc-aspect-filter: %s\n", err);
        return 1;
    }
    const device_entry_t *entry = device_config_find(&config, target);
    if (entry == NULL) {
        fprintf(stderr, "urc-aspect-filter: target '%s' is not in %s (it has:", target,
                config_path);
        for (size_t i = 0; i < config.count; ++i)
            fprintf(stderr, " %s", config.entries[i].target);
        fprintf(stderr, ")\n");
        device_config_free(&config);
        return 1;
    }

    // The input as one text: the table or list file, stdin, or the .prop arguments as a list.
    char *text = NULL;
    size_t len = 0;
    if (num_props > 0) {
        for (int i = 0; i < num_props; ++i)
            len += strlen(argv[first_prop + i]) + 1;
        text = malloc(len + 1);
        if (text != NULL) {
            char *w = text;
            for (int i = 0; i < num_props; ++i)
                w += sprintf(w, "%s\n", argv[first_prop + i]);
        }
    } else {
        bool from_stdin = input == NULL || strcmp(input, "-") == 0;
        FILE *in = from_stdin ? stdin : fopen(input, "rb");
        if (in == NULL) {
            perror(input);
            device_config_free(&config);
            return 1;
        }
        text = read_all(in, &len);
        if (!from_stdin)
            fclose(in);
    }
    FILE *out = output != NULL ? fopen(output, "wb") : stdout;
    int status = 0;
    if (text == NULL || out == NULL) {
        perror(text == NULL ? "urc-aspect-filter" : output);
        status = 1;
    } else if (!filter_text(text, len, &entry->caps, out, verbose ? stderr : NULL, err,
                            sizeof(err))) {
        fprintf(stderr, "urc-aspect-filter: %s\n", err);
        status = 1;
    }
    if (out != NULL && out != stdout && fclose(out) != 0)
        status = 1;
    free(text);
    device_config_free(&config);
    return status;
}

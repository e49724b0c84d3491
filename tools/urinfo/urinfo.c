// SPDX-License-Identifier: MIT
// urinfo: lists the adapters, platforms and devices the loader finds, like UR's urinfo.
// --verbose prints every info query each adapter answers, typed from the generated enum
// tables; --env prints the environment variables urc reads.
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/enum_names.h"
#include "env/env.h"
#include "program/requirements.h"
#include "ur_api.h"
#include "ur_enum_tables.h"

typedef struct options_t {
    bool verbose;
    bool linear_ids;
    bool ignore_selector;
    bool env;
} options_t;

static const char usage[] =
    "usage: %s [-h] [--version] [-v] [--no-linear-ids] [--ignore-device-selector] [--env]\n"
    "\n"
    "Lists the Unified Runtime adapters, platforms and devices urc's loader finds.\n"
    "\n"
    "options:\n"
    "  -h, --help                show this help message and exit\n"
    "  --version                 show the version and exit\n"
    "  -v, --verbose             print every property each adapter, platform and device\n"
    "                            answers, and each device's SYCL aspects\n"
    "  --no-linear-ids           name devices by adapter, platform and device index\n"
    "  --ignore-device-selector  list every device, not only those ONEAPI_DEVICE_SELECTOR\n"
    "                            keeps\n"
    "  --env                     print the environment variables urc reads, and exit\n";

// Enumerations and flags that info queries return, by the type name the tables give.
static const struct {
    const char *type;
    const urc_enum_table_t *table;
    bool flags;
} enum_types[] = {
    {"ur_backend_t", &urc_enum_ur_backend_t, false},
    {"ur_device_type_t", &urc_enum_ur_device_type_t, false},
    {"ur_device_mem_cache_type_t", &urc_enum_ur_device_mem_cache_type_t, false},
    {"ur_device_local_mem_type_t", &urc_enum_ur_device_local_mem_type_t, false},
    {"ur_device_partition_t", &urc_enum_ur_device_partition_t, false},
    {"ur_device_affinity_domain_flags_t", &urc_enum_ur_device_affinity_domain_flag_t, true},
    {"ur_device_fp_capability_flags_t", &urc_enum_ur_device_fp_capability_flag_t, true},
    {"ur_device_exec_capability_flags_t", &urc_enum_ur_device_exec_capability_flag_t, true},
    {"ur_memory_order_capability_flags_t", &urc_enum_ur_memory_order_capability_flag_t, true},
    {"ur_memory_scope_capability_flags_t", &urc_enum_ur_memory_scope_capability_flag_t, true},
    {"ur_device_usm_access_capability_flags_t", &urc_enum_ur_device_usm_access_capability_flag_t,
     true},
    {"ur_device_throttle_reasons_flags_t", &urc_enum_ur_device_throttle_reasons_flag_t, true},
    {"ur_kernel_launch_properties_flags_t", &urc_enum_ur_kernel_launch_properties_flag_t, true},
    {"ur_queue_flags_t", &urc_enum_ur_queue_flag_t, true},
    {"ur_exp_device_2d_block_array_capability_flags_t",
     &urc_enum_ur_exp_device_2d_block_array_capability_flag_t, true},
};

static const char *strip(const char *name, const char *prefix) {
    size_t n = strlen(prefix);
    return strncmp(name, prefix, n) == 0 ? name + n : name;
}

static void print_enum(const char *type, int64_t value) {
    for (size_t i = 0; i < sizeof enum_types / sizeof enum_types[0]; ++i) {
        if (strcmp(enum_types[i].type, type) != 0)
            continue;
        const urc_enum_table_t *t = enum_types[i].table;
        if (!enum_types[i].flags) {
            char buf[96];
            printf("%s", urc_enum_name(t, value, buf, sizeof buf));
            return;
        }
        // Flags: the names of the bits set, then whatever bits have no name.
        uint64_t rest = (uint64_t)value;
        bool any = false;
        for (size_t k = 0; k < t->count; ++k) {
            uint64_t bit = (uint64_t)t->entries[k].value;
            if (bit != 0 && (bit & (bit - 1)) == 0 && (rest & bit)) {
                printf("%s%s", any ? " | " : "", t->entries[k].name);
                rest &= ~bit;
                any = true;
            }
        }
        if (rest != 0 || !any)
            printf("%s0x%" PRIx64, any ? " | " : "", rest);
        return;
    }
    printf("%" PRId64, value);
}

static int64_t read_integer(const unsigned char *p, size_t size) {
    switch (size) {
    case 1:
        return *(const uint8_t *)p;
    case 2:
        return *(const uint16_t *)p;
    case 4:
        return *(const int32_t *)p;
    default:
        return *(const int64_t *)p;
    }
}

// Prints one value of C type `type` (no "[]") held in `size` bytes.
static size_t element_size(const char *type) {
    if (strcmp(type, "uint8_t") == 0)
        return 1;
    if (strcmp(type, "uint64_t") == 0 || strcmp(type, "size_t") == 0 ||
        strstr(type, "_handle_t") != NULL)
        return 8;
    if (strcmp(type, "ur_device_partition_property_t") == 0)
        return sizeof(ur_device_partition_property_t);
    return 4; // uint32_t, int32_t, ur_bool_t, enumerations, flags
}

static void print_element(const char *type, const unsigned char *p) {
    if (strstr(type, "_handle_t") != NULL) {
        printf("%p", *(void *const *)p);
    } else if (strcmp(type, "ur_bool_t") == 0) {
        printf("%s", *p ? "true" : "false");
    } else if (strcmp(type, "ur_device_partition_property_t") == 0) {
        const ur_device_partition_property_t *prop = (const void *)p;
        print_enum("ur_device_partition_t", prop->type);
        printf(":%" PRIu32, prop->value.count);
    } else if (strncmp(type, "ur_", 3) == 0) {
        print_enum(type, read_integer(p, element_size(type)));
    } else if (type[0] == 'i') {
        printf("%" PRId64, read_integer(p, element_size(type)));
    } else {
        printf("%" PRIu64, (uint64_t)read_integer(p, element_size(type)));
    }
}

// Prints a value of the info type `info_type` ("char[]", "uint32_t[]", "ur_bool_t", ...).
static void print_value(const char *info_type, const unsigned char *value, size_t size) {
    char type[96];
    snprintf(type, sizeof type, "%s", info_type);
    char *brackets = strstr(type, "[]");
    if (strcmp(type, "char[]") == 0) {
        printf("%.*s", (int)(size > 0 ? size - 1 : 0), (const char *)value);
        return;
    }
    if (brackets == NULL) {
        print_element(type, value);
        return;
    }
    *brackets = '\0';
    size_t step = element_size(type);
    printf("{ ");
    for (size_t off = 0; off + step <= size; off += step) {
        printf("%s", off ? ", " : "");
        print_element(type, value + off);
    }
    printf(" }");
}

typedef ur_result_t (*query_t)(void *handle, int32_t prop, size_t size, void *value,
                               size_t *size_ret);

static ur_result_t query_adapter(void *h, int32_t p, size_t s, void *v, size_t *r) {
    return urAdapterGetInfo(h, (ur_adapter_info_t)p, s, v, r);
}
static ur_result_t query_platform(void *h, int32_t p, size_t s, void *v, size_t *r) {
    return urPlatformGetInfo(h, (ur_platform_info_t)p, s, v, r);
}
static ur_result_t query_device(void *h, int32_t p, size_t s, void *v, size_t *r) {
    return urDeviceGetInfo(h, (ur_device_info_t)p, s, v, r);
}

// Prints every query of `table` the handle answers; the others are left out.
static void print_infos(void *handle, const urc_enum_table_t *table, const char *prefix,
                        query_t query, const char *indent) {
    for (size_t i = 0; i < table->count; ++i) {
        const urc_enum_entry_t *e = &table->entries[i];
        size_t size = 0;
        if (e->info_type[0] == '\0' ||
            query(handle, (int32_t)e->value, 0, NULL, &size) != UR_RESULT_SUCCESS)
            continue;
        unsigned char *value = calloc(size + 8, 1);
        if (value == NULL)
            continue;
        if (query(handle, (int32_t)e->value, size, value, NULL) == UR_RESULT_SUCCESS) {
            printf("%s%s: ", indent, strip(e->name, prefix));
            print_value(e->info_type, value, size);
            printf("\n");
        }
        free(value);
    }
}

// The SYCL aspects urc's requirement checks see for the device (URC_MASK_ASPECTS applied), by
// name, as the adapters compute them (urc_caps_from_device).
static void print_aspects(ur_device_handle_t device, const char *indent) {
    urc_device_caps_t caps;
    memset(&caps, 0, sizeof caps);
    if (urc_caps_from_device(device, &caps, NULL) != UR_RESULT_SUCCESS)
        return;
    printf("%sSYCL_ASPECTS:", indent);
    for (uint32_t a = 0; a < URC_ASPECT_LIMIT; ++a) {
        if (!urc_caps_has_aspect(&caps, a))
            continue;
        const char *name = urc_aspect_name(a);
        if (name != NULL)
            printf(" %s", name);
        else
            printf(" %" PRIu32, a);
    }
    printf("\n");
}

// A string query into `buf`, or "" when the handle does not answer it.
static const char *text_of(query_t query, void *handle, int32_t prop, char *buf, size_t size) {
    buf[0] = '\0';
    if (query(handle, prop, size, buf, NULL) != UR_RESULT_SUCCESS)
        buf[0] = '\0';
    return buf;
}

static void lower_name(const urc_enum_table_t *t, int64_t value, const char *prefix, char *out,
                       size_t size) {
    char buf[96];
    snprintf(out, size, "%s", strip(urc_enum_name(t, value, buf, sizeof buf), prefix));
    for (char *c = out; *c != '\0'; ++c)
        *c = (char)(*c >= 'A' && *c <= 'Z' ? *c - 'A' + 'a' : *c);
}

static void print_env(void) {
    size_t count = 0;
    const urc_env_info_t *table = urc_env_table(&count);
    printf("Environment variables urc reads (once; again after a full urLoaderTearDown):\n\n");
    for (size_t i = 0; i < count; ++i) {
        const char *value = urc_env_get((urc_env_id_t)i);
        printf("  %-34s %s\n", table[i].name, value != NULL ? value : "(unset)");
        printf("  %-34s %s%s\n", "", table[i].summary, table[i].is_path ? " [path]" : "");
    }
}

static void print_loader(void) {
    ur_loader_config_handle_t config;
    char layers[256] = "";
    size_t size = 0;
    if (urLoaderConfigCreate(&config) != UR_RESULT_SUCCESS)
        return;
    if (urLoaderConfigGetInfo(config, UR_LOADER_CONFIG_INFO_AVAILABLE_LAYERS, 0, NULL, &size) ==
            UR_RESULT_SUCCESS &&
        size <= sizeof layers)
        urLoaderConfigGetInfo(config, UR_LOADER_CONFIG_INFO_AVAILABLE_LAYERS, size, layers, NULL);
    printf("\n[loader]:\n  AVAILABLE_LAYERS: %s\n", layers);
    urLoaderConfigRelease(config);
}

// -v: the adapters urc ships that the loader did not load, one line each.
static void print_unloaded(const ur_adapter_handle_t *adapters, uint32_t count) {
    static const struct {
        ur_backend_t backend;
        const char *library;
    } known[] = {{UR_BACKEND_CUDA, "libur_adapter_cuda.so.0"},
                 {UR_BACKEND_LEVEL_ZERO, "libur_adapter_level_zero.so.0"},
                 {UR_BACKEND_OPENCL, "libur_adapter_opencl.so.0"}};
    for (size_t k = 0; k < sizeof known / sizeof known[0]; ++k) {
        bool loaded = false;
        for (uint32_t a = 0; a < count; ++a) {
            ur_backend_t backend = UR_BACKEND_UNKNOWN;
            urAdapterGetInfo(adapters[a], UR_ADAPTER_INFO_BACKEND, sizeof backend, &backend, NULL);
            loaded |= backend == known[k].backend;
        }
        if (!loaded)
            printf("[adapter %s] not loaded: not found beside the loader or on "
                   "UR_ADAPTERS_SEARCH_PATH, or left out by ONEAPI_DEVICE_SELECTOR "
                   "(UR_LOG_LOADER=level:debug says which)\n",
                   known[k].library);
    }
}

// One pass over adapters, platforms and devices: the one-line summary of each device, or
// (`detail`) every property of each of them.
static int list(const options_t *opt, bool selector_set, bool detail) {
    uint32_t count = 0, selected = 0;
    char found[512] = ""; // what urDeviceGet sees, for "no device matched"
    bool malformed = false;
    ur_result_t r = urAdapterGet(0, NULL, &count);
    if (r != UR_RESULT_SUCCESS) {
        fprintf(stderr, "error: urAdapterGet: %s\n", urc_result_name(r));
        return 1;
    }
    ur_adapter_handle_t *adapters = calloc(count ? count : 1, sizeof *adapters);
    if (adapters == NULL || (count > 0 && urAdapterGet(count, adapters, &count) != 0)) {
        free(adapters);
        return 1;
    }
    if (detail)
        print_loader();
    if (opt->verbose && !detail)
        print_unloaded(adapters, count);
    for (uint32_t a = 0; a < count; ++a) {
        ur_backend_t backend = UR_BACKEND_UNKNOWN;
        urAdapterGetInfo(adapters[a], UR_ADAPTER_INFO_BACKEND, sizeof backend, &backend, NULL);
        char backend_name[64];
        lower_name(&urc_enum_ur_backend_t, backend, "UR_BACKEND_", backend_name,
                   sizeof backend_name);
        if (detail) {
            printf("\n[adapter(%u)]:\n", a);
            print_infos(adapters[a], &urc_enum_ur_adapter_info_t, "UR_ADAPTER_INFO_", query_adapter,
                        "  ");
        }
        uint32_t np = 0;
        ur_result_t pr = urPlatformGet(adapters[a], 0, NULL, &np);
        if (pr != UR_RESULT_SUCCESS || np == 0) {
            // -v: say why this adapter has nothing to list, in one line.
            if (opt->verbose && !detail) {
                const char *why = NULL;
                int32_t code = 0;
                if (urAdapterGetLastError(adapters[a], &why, &code) != UR_RESULT_SUCCESS ||
                    why == NULL || why[0] == '\0')
                    why = pr != UR_RESULT_SUCCESS ? urc_result_name(pr) : "no platform";
                printf("[adapter %s] %s\n", backend_name, why);
            }
            continue;
        }
        ur_platform_handle_t *platforms = calloc(np, sizeof *platforms);
        if (platforms == NULL || urPlatformGet(adapters[a], np, platforms, NULL) != 0) {
            free(platforms);
            continue;
        }
        uint32_t linear = 0;
        for (uint32_t p = 0; p < np; ++p) {
            if (detail) {
                printf("\n[adapter(%u),platform(%u)]:\n", a, p);
                print_infos(platforms[p], &urc_enum_ur_platform_info_t, "UR_PLATFORM_INFO_",
                            query_platform, "    ");
            }
            uint32_t nd = 0;
            ur_result_t (*get)(ur_platform_handle_t, ur_device_type_t, uint32_t,
                               ur_device_handle_t *, uint32_t *) =
                opt->ignore_selector ? urDeviceGet : urDeviceGetSelected;
            r = get(platforms[p], UR_DEVICE_TYPE_ALL, 0, NULL, &nd);
            uint32_t all = 0;
            if (urDeviceGet(platforms[p], UR_DEVICE_TYPE_ALL, 0, NULL, &all) == UR_RESULT_SUCCESS &&
                all > 0)
                snprintf(found + strlen(found), sizeof found - strlen(found), "%s%u %s device(s)",
                         found[0] ? ", " : "", all, backend_name);
            if (r == UR_RESULT_ERROR_INVALID_VALUE && !opt->ignore_selector) {
                malformed = true; // the loader has named the bad term on stderr
                continue;
            }
            if (r != UR_RESULT_SUCCESS) {
                fprintf(stderr, "error: %s: %s\n",
                        opt->ignore_selector ? "urDeviceGet" : "urDeviceGetSelected",
                        urc_result_name(r));
                continue;
            }
            ur_device_handle_t *devices = calloc(nd ? nd : 1, sizeof *devices);
            if (devices == NULL || (nd > 0 && get(platforms[p], UR_DEVICE_TYPE_ALL, nd, devices,
                                                  NULL) != UR_RESULT_SUCCESS))
                nd = 0;
            char pname[256], dname[256], version[128], driver[128], tname[32];
            for (uint32_t d = 0; d < nd; ++d) {
                ur_device_type_t type = UR_DEVICE_TYPE_DEFAULT;
                urDeviceGetInfo(devices[d], UR_DEVICE_INFO_TYPE, sizeof type, &type, NULL);
                lower_name(&urc_enum_ur_device_type_t, type, "UR_DEVICE_TYPE_", tname,
                           sizeof tname);
                if (detail) {
                    printf("\n[adapter(%u),platform(%u),device(%u)]:\n", a, p, d);
                    print_infos(devices[d], &urc_enum_ur_device_info_t, "UR_DEVICE_INFO_",
                                query_device, "      ");
                    print_aspects(devices[d], "      ");
                    continue;
                }
                // With a selector the indices are not the backend's, so they are left out.
                if (selector_set && !opt->ignore_selector)
                    printf("[%s:%s]", backend_name, tname);
                else if (opt->linear_ids)
                    printf("[%s:%s][%s:%u]", backend_name, tname, backend_name, linear);
                else
                    printf("[adapter(%u,%s):platform(%u):device(%u,%s)]", a, backend_name, p, d,
                           tname);
                printf(" %s, %s %s [%s]\n",
                       text_of(query_platform, platforms[p], UR_PLATFORM_INFO_NAME, pname,
                               sizeof pname),
                       text_of(query_device, devices[d], UR_DEVICE_INFO_NAME, dname, sizeof dname),
                       text_of(query_device, devices[d], UR_DEVICE_INFO_VERSION, version,
                               sizeof version),
                       text_of(query_device, devices[d], UR_DEVICE_INFO_DRIVER_VERSION, driver,
                               sizeof driver));
                ++linear;
            }
            selected += nd;
            for (uint32_t d = 0; d < nd; ++d)
                urDeviceRelease(devices[d]);
            free(devices);
        }
        free(platforms);
    }
    for (uint32_t a = 0; a < count; ++a)
        urAdapterRelease(adapters[a]);
    free(adapters);
    if (malformed) {
        fprintf(stderr, "error: ONEAPI_DEVICE_SELECTOR is malformed (see the message above)\n");
        return 2;
    }
    if (selector_set && !opt->ignore_selector && selected == 0 && !detail) {
        fprintf(stderr, "error: no device matched ONEAPI_DEVICE_SELECTOR=\"%s\" (found: %s)\n",
                urc_env_get(URC_ENV_DEVICE_SELECTOR), found[0] ? found : "no devices at all");
        return 3;
    }
    return 0;
}

int main(int argc, char **argv) {
    options_t opt = {.linear_ids = true};
    for (int i = 1; i < argc; ++i) {
        const char *arg = argv[i];
        if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
            printf(usage, argv[0]);
            return 0;
        } else if (strcmp(arg, "--version") == 0) {
            printf(
                "%s v%d.%d (urc, Unified Runtime API %d.%d)\n", argv[0],
                UR_MAJOR_VERSION(UR_API_VERSION_CURRENT), UR_MINOR_VERSION(UR_API_VERSION_CURRENT),
                UR_MAJOR_VERSION(UR_API_VERSION_CURRENT), UR_MINOR_VERSION(UR_API_VERSION_CURRENT));
            return 0;
        } else if (strcmp(arg, "-v") == 0 || strcmp(arg, "--verbose") == 0) {
            opt.verbose = true;
        } else if (strcmp(arg, "--no-linear-ids") == 0) {
            opt.linear_ids = false;
        } else if (strcmp(arg, "--ignore-device-selector") == 0) {
            opt.ignore_selector = true;
        } else if (strcmp(arg, "--env") == 0) {
            opt.env = true;
        } else {
            fprintf(stderr, "error: invalid argument: %s\n", arg);
            fprintf(stderr, usage, argv[0]);
            return 1;
        }
    }
    if (opt.env) {
        print_env();
        return 0;
    }
    const char *selector = urc_env_get(URC_ENV_DEVICE_SELECTOR);
    bool selector_set = selector != NULL && selector[0] != '\0';
    if (selector_set && !opt.ignore_selector)
        fprintf(stderr,
                "info: Output filtered by ONEAPI_DEVICE_SELECTOR environment variable, which "
                "is set to \"%s\".\nTo see all devices, use the --ignore-device-selector CLI "
                "option.\n\n",
                selector);
    ur_result_t r = urLoaderInit(0, NULL);
    if (r != UR_RESULT_SUCCESS) {
        fprintf(stderr, "error: urLoaderInit: %s\n", urc_result_name(r));
        return 1;
    }
    int status = list(&opt, selector_set, false);
    if (status == 0 && opt.verbose)
        status = list(&opt, selector_set, true);
    urLoaderTearDown();
    return status;
}

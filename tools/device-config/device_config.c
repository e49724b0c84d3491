// SPDX-License-Identifier: MIT
// The YAML device configuration (device_config.h), read with libyaml's document API.
#include "device_config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

typedef struct reader_t {
    yaml_document_t *doc;
    const char *name;
    char *err;
    size_t err_size;
} reader_t;

static bool fail(reader_t *r, const yaml_node_t *node, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static bool fail(reader_t *r, const yaml_node_t *node, const char *fmt, ...) {
    int n = snprintf(r->err, r->err_size, "%s:%zu: ", r->name,
                     node != NULL ? node->start_mark.line + 1 : (size_t)1);
    if (n >= 0 && (size_t)n < r->err_size) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(r->err + n, r->err_size - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return false;
}

static const char *scalar(const yaml_node_t *node) {
    return node != NULL && node->type == YAML_SCALAR_NODE ? (const char *)node->data.scalar.value
                                                          : NULL;
}

// A sequence of scalars, or a null value standing for an empty list.
static bool each_item(reader_t *r, const yaml_node_t *seq, const char *key,
                      bool (*add)(reader_t *, const yaml_node_t *, device_entry_t *),
                      device_entry_t *entry) {
    if (seq->type == YAML_SCALAR_NODE && seq->data.scalar.length == 0)
        return true;
    if (seq->type != YAML_SEQUENCE_NODE)
        return fail(r, seq, "'%s' must be a list", key);
    for (yaml_node_item_t *it = seq->data.sequence.items.start; it < seq->data.sequence.items.top;
         ++it) {
        const yaml_node_t *item = yaml_document_get_node(r->doc, *it);
        if (scalar(item) == NULL)
            return fail(r, item, "'%s' must list plain values", key);
        if (!add(r, item, entry))
            return false;
    }
    return true;
}

static bool add_aspect(reader_t *r, const yaml_node_t *item, device_entry_t *entry) {
    uint32_t aspect;
    const char *text = scalar(item);
    if (!urc_aspect_parse(text, strlen(text), &aspect))
        return fail(r, item, "'%s' is not a SYCL aspect name or number", text);
    urc_caps_add_aspect(&entry->caps, aspect);
    return true;
}

static bool add_sub_group_size(reader_t *r, const yaml_node_t *item, device_entry_t *entry) {
    const char *text = scalar(item);
    char *end;
    errno = 0;
    unsigned long v = strtoul(text, &end, 10);
    if (text[0] < '0' || text[0] > '9' || *end != '\0' || errno != 0 || v == 0 || v > UINT32_MAX)
        return fail(r, item, "'%s' is not a sub-group size", text);
    urc_device_caps_t *caps = &entry->caps;
    if (caps->num_sub_group_sizes == sizeof(caps->sub_group_sizes) / sizeof(uint32_t))
        return fail(r, item, "more than %zu sub-group sizes",
                    sizeof(caps->sub_group_sizes) / sizeof(uint32_t));
    caps->sub_group_sizes[caps->num_sub_group_sizes++] = (uint32_t)v;
    return true;
}

static bool read_entry(reader_t *r, const yaml_node_t *value, device_entry_t *entry) {
    if (value->type == YAML_SCALAR_NODE && value->data.scalar.length == 0)
        return true; // "target:" with nothing under it: no aspects, no sub-groups
    if (value->type != YAML_MAPPING_NODE)
        return fail(r, value, "the entry of '%s' must be a mapping", entry->target);
    for (yaml_node_pair_t *pair = value->data.mapping.pairs.start;
         pair < value->data.mapping.pairs.top; ++pair) {
        const yaml_node_t *k = yaml_document_get_node(r->doc, pair->key);
        const yaml_node_t *v = yaml_document_get_node(r->doc, pair->value);
        const char *key = scalar(k);
        if (key == NULL)
            return fail(r, k, "keys must be plain names");
        bool ok = true;
        if (strcmp(key, "aspects") == 0)
            ok = each_item(r, v, key, add_aspect, entry);
        else if (strcmp(key, "sub-group-sizes") == 0)
            ok = each_item(r, v, key, add_sub_group_size, entry);
        if (!ok)
            return false;
    }
    return true;
}

static bool read_document(reader_t *r, device_config_t *config) {
    const yaml_node_t *root = yaml_document_get_root_node(r->doc);
    if (root == NULL)
        return true; // an empty file: no targets
    if (root->type != YAML_MAPPING_NODE)
        return fail(r, root, "the configuration must map target names to entries");
    size_t n = (size_t)(root->data.mapping.pairs.top - root->data.mapping.pairs.start);
    config->entries = calloc(n ? n : 1, sizeof(device_entry_t));
    if (config->entries == NULL)
        return fail(r, root, "out of memory");
    for (yaml_node_pair_t *pair = root->data.mapping.pairs.start;
         pair < root->data.mapping.pairs.top; ++pair) {
        const yaml_node_t *k = yaml_document_get_node(r->doc, pair->key);
        const char *target = scalar(k);
        if (target == NULL || target[0] == '\0')
            return fail(r, k, "target names must be plain names");
        if (device_config_find(config, target) != NULL)
            return fail(r, k, "target '%s' appears twice", target);
        device_entry_t *entry = &config->entries[config->count];
        entry->target = strdup(target);
        if (entry->target == NULL)
            return fail(r, k, "out of memory");
        config->count++;
        if (!read_entry(r, yaml_document_get_node(r->doc, pair->value), entry))
            return false;
    }
    return true;
}

bool device_config_parse(const char *text, size_t len, const char *name, device_config_t *config,
                         char *err, size_t err_size) {
    memset(config, 0, sizeof(*config));
    yaml_parser_t parser;
    yaml_document_t doc;
    if (!yaml_parser_initialize(&parser)) {
        snprintf(err, err_size, "%s: out of memory", name);
        return false;
    }
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
    if (!yaml_parser_load(&parser, &doc)) {
        snprintf(err, err_size, "%s:%zu: %s", name, parser.problem_mark.line + 1,
                 parser.problem != NULL ? parser.problem : "not valid YAML");
        yaml_parser_delete(&parser);
        return false;
    }
    reader_t r = {&doc, name, err, err_size};
    bool ok = read_document(&r, config);
    yaml_document_delete(&doc);
    yaml_parser_delete(&parser);
    if (!ok)
        device_config_free(config);
    return ok;
}

bool device_config_load(const char *path, device_config_t *config, char *err, size_t err_size) {
    memset(config, 0, sizeof(*config));
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        snprintf(err, err_size, "%s: %s", path, strerror(errno));
        return false;
    }
    char *text = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len == cap) {
            cap = cap ? cap * 2 : 4096;
            char *t = realloc(text, cap);
            if (t == NULL) {
                free(text);
                fclose(f);
                snprintf(err, err_size, "%s: out of memory", path);
                return false;
            }
            text = t;
        }
        size_t got = fread(text + len, 1, cap - len, f);
        if (got == 0)
            break;
        len += got;
    }
    fclose(f);
    bool ok = device_config_parse(text, len, path, config, err, err_size);
    free(text);
    return ok;
}

const device_entry_t *device_config_find(const device_config_t *config, const char *target) {
    for (size_t i = 0; i < config->count; ++i)
        if (strcmp(config->entries[i].target, target) == 0)
            return &config->entries[i];
    return NULL;
}

void device_config_free(device_config_t *config) {
    for (size_t i = 0; i < config->count; ++i)
        free(config->entries[i].target);
    free(config->entries);
    memset(config, 0, sizeof(*config));
}

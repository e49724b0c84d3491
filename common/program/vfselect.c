// SPDX-License-Identifier: MIT
// Virtual-function image selection with the dummy XOR rule (vfselect.h). Every set name is
// interned once through a hash map; each set keeps two singly linked lists (its providers and
// its plain users) threaded through one array of nodes, so the walk from program 0 touches
// each program, set and membership a bounded number of times.
#include "program/vfselect.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/hashmap.h"

typedef struct vf_set_t {
    const char *name; // points into a program's property text
    size_t len;
    uint32_t providers; // first node + 1 (0: none)
    uint32_t users;
    uint32_t num_providers;
    bool queued;
} vf_set_t;

typedef struct vf_node_t {
    uint32_t program;
    uint32_t next; // next node + 1 (0: end)
} vf_node_t;

// Per program: its memberships (as a range in `member_sets`) and what is known about it.
typedef struct vf_prog_t {
    uint32_t first_member;
    uint32_t num_members;
    bool has_vf;
    bool provider;
    bool dummy;
    int8_t meets; // -1 unknown, 0 no, 1 yes
} vf_prog_t;

typedef struct vf_state_t {
    const urc_props_t *const *props;
    size_t n;
    const urc_device_caps_t *caps;
    vf_prog_t *progs;
    vf_set_t *sets;
    size_t num_sets, cap_sets;
    vf_node_t *nodes;
    size_t num_nodes, cap_nodes;
    uint32_t *member_sets; // set ids of each program's memberships, program by program
    size_t num_members, cap_members;
    urc_index_t index;
    char *log;
    size_t log_size;
} vf_state_t;

typedef struct name_key_t {
    const char *name;
    size_t len;
    const vf_set_t *sets;
} name_key_t;

static bool name_eq(const void *key, uint32_t pos) {
    const name_key_t *k = key;
    const vf_set_t *s = &k->sets[pos];
    return s->len == k->len && memcmp(s->name, k->name, k->len) == 0;
}

static void vf_log(vf_state_t *st, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void vf_log(vf_state_t *st, const char *fmt, ...) {
    if (st->log == NULL || st->log_size == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(st->log, st->log_size, fmt, ap);
    va_end(ap);
}

// Makes room for one more element of an array that doubles when full.
static bool reserve(void **array, size_t *cap, size_t used, size_t elem) {
    if (used < *cap)
        return true;
    size_t new_cap = *cap ? *cap * 2 : 64;
    if (new_cap > UINT32_MAX || new_cap > SIZE_MAX / elem)
        return false;
    void *p = realloc(*array, new_cap * elem);
    if (p == NULL)
        return false;
    *array = p;
    *cap = new_cap;
    return true;
}

// The id of a set name, interning it on first sight; UINT32_MAX when out of memory.
static uint32_t intern(vf_state_t *st, const char *name, size_t len) {
    name_key_t key = {name, len, st->sets};
    uint64_t h = urc_hash_bytes(URC_HASH_INIT, name, len);
    uint32_t id = urc_index_find(&st->index, h, name_eq, &key);
    if (id != URC_INDEX_NONE)
        return id;
    if (!reserve((void **)&st->sets, &st->cap_sets, st->num_sets, sizeof(vf_set_t)))
        return UINT32_MAX;
    id = (uint32_t)st->num_sets++;
    st->sets[id] = (vf_set_t){.name = name, .len = len};
    key.sets = st->sets;
    if (urc_index_insert(&st->index, h, id, name_eq, &key) == URC_INDEX_NONE)
        return UINT32_MAX;
    return id;
}

// Records that `program` provides or uses every set of a comma list.
static ur_result_t add_memberships(vf_state_t *st, uint32_t program, const urc_prop_t *prop,
                                   bool provides) {
    const char *text = urc_prop_text(prop, NULL, 0);
    if (text == NULL) {
        vf_log(st, "'%s/%s' must be a string or a byte array", URC_SET_VIRTUAL_FUNCTIONS,
               prop->name);
        return UR_RESULT_ERROR_INVALID_VALUE;
    }
    for (const char *p = text; *p != '\0';) {
        const char *comma = strchr(p, ',');
        size_t len = comma != NULL ? (size_t)(comma - p) : strlen(p);
        if (len > 0) {
            uint32_t id = intern(st, p, len);
            if (id == UINT32_MAX ||
                !reserve((void **)&st->nodes, &st->cap_nodes, st->num_nodes, sizeof(vf_node_t)) ||
                !reserve((void **)&st->member_sets, &st->cap_members, st->num_members,
                         sizeof(uint32_t)))
                return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
            vf_set_t *set = &st->sets[id];
            uint32_t *head = provides ? &set->providers : &set->users;
            st->nodes[st->num_nodes] = (vf_node_t){program, *head};
            *head = (uint32_t)++st->num_nodes;
            set->num_providers += provides;
            st->member_sets[st->num_members++] = id;
            st->progs[program].num_members++;
        }
        p += len;
        if (*p == ',')
            p++;
    }
    return UR_RESULT_SUCCESS;
}

static ur_result_t read_program(vf_state_t *st, uint32_t i) {
    vf_prog_t *pg = &st->progs[i];
    pg->meets = -1;
    pg->first_member = (uint32_t)st->num_members;
    const urc_props_t *props = st->props[i];
    if (!urc_props_has_set(props, URC_SET_VIRTUAL_FUNCTIONS))
        return UR_RESULT_SUCCESS;
    const urc_prop_t *provides = urc_props_find(props, URC_SET_VIRTUAL_FUNCTIONS, URC_VF_PROVIDES);
    const urc_prop_t *uses = urc_props_find(props, URC_SET_VIRTUAL_FUNCTIONS, URC_VF_USES);
    const urc_prop_t *dummy = urc_props_find(props, URC_SET_VIRTUAL_FUNCTIONS, URC_VF_DUMMY);
    pg->has_vf = provides != NULL || uses != NULL || dummy != NULL;
    if (dummy != NULL) {
        if (dummy->type != UR_PROGRAM_METADATA_TYPE_UINT32 &&
            dummy->type != UR_PROGRAM_METADATA_TYPE_UINT64) {
            vf_log(st, "'%s/%s' of program %u must be a UINT32", URC_SET_VIRTUAL_FUNCTIONS,
                   URC_VF_DUMMY, i);
            return UR_RESULT_ERROR_INVALID_VALUE;
        }
        pg->dummy = dummy->u64 != 0;
    }
    ur_result_t r = UR_RESULT_SUCCESS;
    if (provides != NULL) {
        pg->provider = true;
        r = add_memberships(st, i, provides, true);
    }
    if (r == UR_RESULT_SUCCESS && uses != NULL)
        r = add_memberships(st, i, uses, false);
    return r;
}

// Whether program i meets the device's requirements, checked once; <0 on malformed input.
static int meets(vf_state_t *st, uint32_t i) {
    vf_prog_t *pg = &st->progs[i];
    if (pg->meets < 0) {
        char msg[512];
        ur_result_t r = urc_check_requirements(st->props[i], st->caps, msg, sizeof(msg));
        if (r != UR_RESULT_SUCCESS && r != UR_RESULT_ERROR_UNSUPPORTED_FEATURE) {
            vf_log(st, "program %u: %s", i, msg);
            return -1;
        }
        pg->meets = r == UR_RESULT_SUCCESS;
    }
    return pg->meets;
}

// Puts every set of program i that is not queued yet on the queue.
static void follow(vf_state_t *st, uint32_t i, uint32_t *queue, size_t *tail) {
    const vf_prog_t *pg = &st->progs[i];
    for (uint32_t k = 0; k < pg->num_members; ++k) {
        uint32_t id = st->member_sets[pg->first_member + k];
        if (!st->sets[id].queued) {
            st->sets[id].queued = true;
            queue[(*tail)++] = id;
        }
    }
}

// The link failure for a set none of whose providers was selected.
static ur_result_t no_provider(vf_state_t *st, const vf_set_t *set) {
    if (set->num_providers == 0) {
        vf_log(st, "Virtual-function set '%.*s' is used but no device image provides it.",
               (int)set->len, set->name);
        return UR_RESULT_ERROR_PROGRAM_LINK_FAILURE;
    }
    // Say why: the first real provider's unmet requirement, or that only dummies exist.
    char why[512] = "only dummy images provide it, and the device supports what they replace";
    for (uint32_t node = set->providers; node != 0; node = st->nodes[node - 1].next) {
        uint32_t p = st->nodes[node - 1].program;
        if (!st->progs[p].dummy) {
            urc_check_requirements(st->props[p], st->caps, why, sizeof(why));
            break;
        }
    }
    vf_log(st,
           "Virtual-function set '%.*s' is used but none of the %u device images providing it "
           "can be linked for this device: %s",
           (int)set->len, set->name, set->num_providers, why);
    return UR_RESULT_ERROR_PROGRAM_LINK_FAILURE;
}

static ur_result_t walk(vf_state_t *st, bool *selected) {
    uint32_t *queue = urc_calloc(st->num_sets, sizeof(uint32_t));
    if (queue == NULL && st->num_sets > 0)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    size_t head = 0, tail = 0;
    ur_result_t result = UR_RESULT_SUCCESS;
    follow(st, 0, queue, &tail);
    while (head < tail && result == UR_RESULT_SUCCESS) {
        const vf_set_t *set = &st->sets[queue[head++]];
        bool provided = false;
        for (int role = 0; role < 2 && result == UR_RESULT_SUCCESS; ++role) {
            uint32_t node = role == 0 ? set->providers : set->users;
            for (; node != 0; node = st->nodes[node - 1].next) {
                uint32_t p = st->nodes[node - 1].program;
                if (p == 0 || selected[p]) {
                    provided |= role == 0;
                    continue;
                }
                int ok = meets(st, p);
                if (ok < 0) {
                    result = UR_RESULT_ERROR_INVALID_VALUE;
                    break;
                }
                // Providers follow the XOR rule, whichever list they are met in; plain users
                // are linked when the device can run them.
                bool take = st->progs[p].provider ? (ok != 0) != st->progs[p].dummy : ok != 0;
                if (!take)
                    continue;
                selected[p] = true;
                provided |= role == 0;
                follow(st, p, queue, &tail);
            }
        }
        if (result == UR_RESULT_SUCCESS && !provided)
            result = no_provider(st, set);
    }
    free(queue);
    return result;
}

ur_result_t urc_vf_select(const urc_props_t *const *props, size_t n, const urc_device_caps_t *caps,
                          bool *selected, char *log, size_t log_size) {
    if (n == 0)
        return UR_RESULT_ERROR_INVALID_SIZE;
    if (props == NULL || caps == NULL || selected == NULL)
        return UR_RESULT_ERROR_INVALID_NULL_POINTER;
    if (n > UINT32_MAX - 1)
        return UR_RESULT_ERROR_INVALID_SIZE;
    if (log != NULL && log_size > 0)
        log[0] = '\0';

    // The kernel's own image first: it is linked whatever happens to the others.
    ur_result_t result = urc_check_requirements(props[0], caps, log, log_size);
    if (result != UR_RESULT_SUCCESS)
        return result;

    vf_state_t st = {.props = props, .n = n, .caps = caps, .log = log, .log_size = log_size};
    st.progs = urc_calloc(n, sizeof(vf_prog_t));
    if (st.progs == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    if (!urc_index_init(&st.index, 64)) {
        result = UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
        goto done;
    }
    for (size_t i = 0; i < n && result == UR_RESULT_SUCCESS; ++i)
        result = read_program(&st, (uint32_t)i);
    if (result != UR_RESULT_SUCCESS)
        goto done;

    // Non-candidates are linked as given; candidates only when the walk reaches them.
    for (size_t i = 0; i < n; ++i)
        selected[i] = i == 0 || !st.progs[i].has_vf;
    result = walk(&st, selected);

done:
    urc_index_free(&st.index);
    free(st.progs);
    free(st.sets);
    free(st.nodes);
    free(st.member_sets);
    return result;
}

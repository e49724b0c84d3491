// SPDX-License-Identifier: MIT
// Translating bit flags between a backend's and UR's by a table of pairs.
#ifndef URC_COMMON_CORE_FLAGS_H
#define URC_COMMON_CORE_FLAGS_H

#include <stddef.h>
#include <stdint.h>

/// One bit (or group of bits) on each side.
typedef struct urc_flag_pair_t {
    uint64_t from;
    uint64_t to;
} urc_flag_pair_t;

/// The `to` bits of every pair whose `from` bits are all set in `flags`.
static inline uint64_t urc_flags_map(uint64_t flags, const urc_flag_pair_t *pairs, size_t count) {
    uint64_t out = 0;
    for (size_t i = 0; i < count; ++i)
        if (pairs[i].from != 0 && (flags & pairs[i].from) == pairs[i].from)
            out |= pairs[i].to;
    return out;
}

/// urc_flags_map over a whole array of pairs.
#define URC_FLAGS_MAP(flags, pairs)                                                                \
    urc_flags_map((flags), (pairs), sizeof(pairs) / sizeof((pairs)[0]))

#endif // URC_COMMON_CORE_FLAGS_H

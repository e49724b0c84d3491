// SPDX-License-Identifier: MIT
// The USM pool (usm_pool.h). Device memory cannot hold the allocator's own bookkeeping, so
// every slab keeps a host-side bitmap of its chunks, and pointers find their slab through a
// registry of 64 KiB pages.
#include "pool/pool_allocator.h"

#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

#include "core/alloc.h"
#include "core/error.h"

// ---- registry: page or large-allocation base -> block, lock-free lookups ----------------------

#define PAGE_SHIFT          16
#define REG_FIRST_BITS      12
#define REG_MAX_GENERATIONS 24
#define KEY_EMPTY           ((uintptr_t)0)
#define KEY_TOMB            (~(uintptr_t)0)

/// What the registry points at: a slab (class >= 0) or a large allocation (class -1).
typedef struct block_t {
    urc_pool_t *pool;
    char *base;
    size_t size;
    int cls;
} block_t;

typedef struct reg_entry_t {
    _Atomic uintptr_t key;
    _Atomic(block_t *) block;
} reg_entry_t;

typedef struct reg_table_t {
    unsigned bits;
    size_t filled; // entries ever written (tombstones included); writers only
    reg_entry_t entries[];
} reg_table_t;

// Tables never move or shrink: a full one gets a larger successor, and lookups read every
// generation, newest first. Writers (slab creation and release, both driver calls) serialise.
static _Atomic(reg_table_t *) reg_tables[REG_MAX_GENERATIONS];
static atomic_int reg_generations;
static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;

// Slab pages have even keys, large allocation bases odd ones; neither is EMPTY or TOMB.
static uintptr_t page_key(uintptr_t page) {
    return (page + 1) << 1;
}
static uintptr_t base_key(const void *base) {
    return (uintptr_t)base | 1;
}

static size_t reg_slot(uintptr_t key, unsigned bits) {
    return (size_t)(((uint64_t)key * 0x9E3779B97F4A7C15ull) >> (64 - bits));
}

static reg_table_t *reg_new_table(unsigned bits) {
    reg_table_t *t = calloc(1, sizeof *t + ((size_t)1 << bits) * sizeof(reg_entry_t));
    if (t != NULL)
        t->bits = bits;
    return t;
}

// Called with reg_lock held.
static bool reg_insert(uintptr_t key, block_t *block) {
    int gens = atomic_load_explicit(&reg_generations, memory_order_relaxed);
    reg_table_t *t =
        gens > 0 ? atomic_load_explicit(&reg_tables[gens - 1], memory_order_relaxed) : NULL;
    if (t == NULL || (t->filled + 1) * 2 > ((size_t)1 << t->bits)) {
        if (gens == REG_MAX_GENERATIONS)
            return false;
        reg_table_t *next = reg_new_table(t == NULL ? REG_FIRST_BITS : t->bits + 1);
        if (next == NULL)
            return false;
        atomic_store_explicit(&reg_tables[gens], next, memory_order_release);
        atomic_store_explicit(&reg_generations, gens + 1, memory_order_release);
        t = next;
    }
    size_t mask = ((size_t)1 << t->bits) - 1;
    for (size_t i = reg_slot(key, t->bits);; i = (i + 1) & mask) {
        uintptr_t k = atomic_load_explicit(&t->entries[i].key, memory_order_relaxed);
        if (k == KEY_EMPTY || k == KEY_TOMB) {
            if (k == KEY_EMPTY)
                ++t->filled;
            // The block is visible before the key that leads readers to it.
            atomic_store_explicit(&t->entries[i].block, block, memory_order_relaxed);
            atomic_store_explicit(&t->entries[i].key, key, memory_order_release);
            return true;
        }
    }
}

// Called with reg_lock held.
static void reg_remove(uintptr_t key, const block_t *block) {
    int gens = atomic_load_explicit(&reg_generations, memory_order_relaxed);
    for (int g = gens - 1; g >= 0; --g) {
        reg_table_t *t = atomic_load_explicit(&reg_tables[g], memory_order_relaxed);
        size_t mask = ((size_t)1 << t->bits) - 1;
        for (size_t i = reg_slot(key, t->bits);; i = (i + 1) & mask) {
            uintptr_t k = atomic_load_explicit(&t->entries[i].key, memory_order_relaxed);
            if (k == KEY_EMPTY)
                break;
            if (k == key &&
                atomic_load_explicit(&t->entries[i].block, memory_order_relaxed) == block) {
                atomic_store_explicit(&t->entries[i].key, KEY_TOMB, memory_order_release);
                return;
            }
        }
    }
}

/// The block registered under `key` that holds `ptr` (several slabs may share a page).
static block_t *reg_lookup(uintptr_t key, uintptr_t ptr) {
    int gens = atomic_load_explicit(&reg_generations, memory_order_acquire);
    for (int g = gens - 1; g >= 0; --g) {
        reg_table_t *t = atomic_load_explicit(&reg_tables[g], memory_order_acquire);
        size_t mask = ((size_t)1 << t->bits) - 1;
        for (size_t i = reg_slot(key, t->bits);; i = (i + 1) & mask) {
            uintptr_t k = atomic_load_explicit(&t->entries[i].key, memory_order_acquire);
            if (k == KEY_EMPTY)
                break;
            if (k != key)
                continue;
            block_t *b = atomic_load_explicit(&t->entries[i].block, memory_order_relaxed);
            if (ptr >= (uintptr_t)b->base && ptr - (uintptr_t)b->base < b->size)
                return b;
        }
    }
    return NULL;
}

// The tables live as long as the library: a library unloaded (an adapter the loader closes)
// gives them back. No pool can be alive then, its context being gone.
__attribute__((destructor)) static void reg_fini(void) {
    int gens = atomic_load_explicit(&reg_generations, memory_order_acquire);
    for (int g = 0; g < gens; ++g)
        free(atomic_exchange_explicit(&reg_tables[g], NULL, memory_order_acq_rel));
    atomic_store_explicit(&reg_generations, 0, memory_order_release);
}

static bool reg_add_block(block_t *b) {
    pthread_mutex_lock(&reg_lock);
    bool ok = true;
    if (b->cls < 0) {
        ok = reg_insert(base_key(b->base), b);
    } else {
        uintptr_t first = (uintptr_t)b->base >> PAGE_SHIFT;
        uintptr_t last = ((uintptr_t)b->base + b->size - 1) >> PAGE_SHIFT;
        for (uintptr_t p = first; ok && p <= last; ++p)
            ok = reg_insert(page_key(p), b);
        for (uintptr_t p = first; !ok && p <= last; ++p)
            reg_remove(page_key(p), b);
    }
    pthread_mutex_unlock(&reg_lock);
    return ok;
}

static void reg_remove_block(block_t *b) {
    pthread_mutex_lock(&reg_lock);
    if (b->cls < 0) {
        reg_remove(base_key(b->base), b);
    } else {
        uintptr_t last = ((uintptr_t)b->base + b->size - 1) >> PAGE_SHIFT;
        for (uintptr_t p = (uintptr_t)b->base >> PAGE_SHIFT; p <= last; ++p)
            reg_remove(page_key(p), b);
    }
    pthread_mutex_unlock(&reg_lock);
}

// ---- pool ----------------------------------------------------------------------------------

#define SHARDS 8u

typedef struct slab_t {
    block_t block;
    unsigned shard;
    size_t chunk, nchunks, nfree;
    size_t hint;                        // no word below it has a free chunk
    struct slab_t *next, *prev;         // the shard's list of slabs with free chunks
    struct slab_t *all_next, *all_prev; // every block of the pool (slabs and large)
    bool listed;                        // on the shard's free list
    uint64_t bits[];                    // 1: chunk handed out
} slab_t;

typedef struct shard_t {
    pthread_mutex_t lock;
    slab_t *avail;
} shard_t;

struct urc_pool_t {
    urc_pool_ops_t ops;
    void *native, *owner;
    urc_pool_config_t config;
    unsigned nclasses;
    shard_t *shards;             // [class * SHARDS + shard]
    pthread_mutex_t blocks_lock; // the all-blocks list; slow paths only
    slab_t *blocks;
    _Atomic size_t used, used_high, reserved, reserved_high, release_threshold;
};

static size_t round_pow2(size_t n) {
    size_t p = URC_POOL_MIN_CLASS;
    while (p < n)
        p <<= 1;
    return p;
}

ur_result_t urc_pool_config_from_desc(const ur_usm_pool_desc_t *desc, urc_pool_config_t *out,
                                      const ur_usm_pool_buffer_desc_t **buffer) {
    *out = (urc_pool_config_t){0};
    *buffer = NULL;
    if (desc == NULL)
        return UR_RESULT_SUCCESS;
    out->zero_init = (desc->flags & UR_USM_POOL_FLAG_ZERO_INITIALIZE_BLOCK) != 0;
    unsigned n = 0;
    for (const ur_base_desc_t *p = desc->pNext; p != NULL; p = p->pNext) {
        if (++n > 64)
            return UR_RESULT_ERROR_INVALID_VALUE;
        if (p->stype == UR_STRUCTURE_TYPE_USM_POOL_LIMITS_DESC) {
            const ur_usm_pool_limits_desc_t *l = (const ur_usm_pool_limits_desc_t *)p;
            out->max_poolable = l->maxPoolableSize;
            out->min_driver_alloc = l->minDriverAllocSize;
        } else if (p->stype == UR_STRUCTURE_TYPE_USM_POOL_BUFFER_DESC) {
            if (*buffer != NULL)
                return UR_RESULT_ERROR_INVALID_VALUE; // one buffer per pool
            *buffer = (const ur_usm_pool_buffer_desc_t *)p;
        } else {
            return UR_RESULT_ERROR_INVALID_VALUE;
        }
    }
    return UR_RESULT_SUCCESS;
}

ur_result_t urc_pool_create(const urc_pool_ops_t *ops, void *native, void *owner,
                            const urc_pool_config_t *config, urc_pool_t **out) {
    urc_pool_config_t c = config != NULL ? *config : (urc_pool_config_t){0};
    if (c.max_poolable == 0)
        c.max_poolable = URC_POOL_DEFAULT_MAX_POOLABLE;
    if (c.min_driver_alloc == 0)
        c.min_driver_alloc = URC_POOL_DEFAULT_MIN_DRIVER_ALLOC;
    if (c.max_align == 0)
        c.max_align = URC_POOL_DEFAULT_MAX_ALIGN;
    if (c.out_of_memory == UR_RESULT_SUCCESS)
        c.out_of_memory = UR_RESULT_ERROR_OUT_OF_DEVICE_MEMORY;
    // Classes above 2^40 bytes would be no pool; the slab size must not overflow either.
    if (c.max_poolable > ((size_t)1 << 40) || c.min_driver_alloc > ((size_t)1 << 40) ||
        (c.max_align & (c.max_align - 1)) != 0)
        return UR_RESULT_ERROR_INVALID_VALUE;
    urc_pool_t *p = URC_NEW(urc_pool_t);
    if (p == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    p->ops = *ops;
    p->native = native;
    p->owner = owner;
    p->config = c;
    for (size_t s = URC_POOL_MIN_CLASS; s <= c.max_poolable; s <<= 1)
        ++p->nclasses;
    p->shards = urc_calloc((size_t)p->nclasses * SHARDS + 1, sizeof *p->shards);
    if (p->shards == NULL) {
        free(p);
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    for (size_t i = 0; i < (size_t)p->nclasses * SHARDS; ++i)
        pthread_mutex_init(&p->shards[i].lock, NULL);
    pthread_mutex_init(&p->blocks_lock, NULL);
    atomic_init(&p->release_threshold, SIZE_MAX);
    *out = p;
    return UR_RESULT_SUCCESS;
}

static void raise_high(_Atomic size_t *high, size_t value) {
    size_t h = atomic_load_explicit(high, memory_order_relaxed);
    while (value > h && !atomic_compare_exchange_weak_explicit(
                            high, &h, value, memory_order_relaxed, memory_order_relaxed))
        ;
}

static void count(_Atomic size_t *now, _Atomic size_t *high, size_t add) {
    size_t v = atomic_fetch_add_explicit(now, add, memory_order_relaxed) + add;
    raise_high(high, v);
}

static void link_block(urc_pool_t *p, slab_t *s) {
    pthread_mutex_lock(&p->blocks_lock);
    s->all_next = p->blocks;
    s->all_prev = NULL;
    if (p->blocks != NULL)
        p->blocks->all_prev = s;
    p->blocks = s;
    pthread_mutex_unlock(&p->blocks_lock);
}

static void unlink_block(urc_pool_t *p, slab_t *s) {
    pthread_mutex_lock(&p->blocks_lock);
    if (s->all_prev != NULL)
        s->all_prev->all_next = s->all_next;
    else
        p->blocks = s->all_next;
    if (s->all_next != NULL)
        s->all_next->all_prev = s->all_prev;
    pthread_mutex_unlock(&p->blocks_lock);
}

/// Takes `size` bytes from the driver as a new block (a slab of class `cls`, or large).
static ur_result_t new_block(urc_pool_t *p, int cls, size_t chunk, size_t size, size_t align,
                             slab_t **out) {
    size_t nchunks = cls >= 0 ? size / chunk : 0;
    size_t words = (nchunks + 63) / 64;
    // Keep under the pool's limit, trimming empty slabs first.
    if (p->config.max_size != 0) {
        size_t limit = p->config.max_size;
        if (size > limit)
            return p->config.out_of_memory;
        if (atomic_load_explicit(&p->reserved, memory_order_relaxed) + size > limit)
            urc_pool_trim(p, limit - size);
        if (atomic_load_explicit(&p->reserved, memory_order_relaxed) + size > limit)
            return p->config.out_of_memory;
    }
    slab_t *s = urc_calloc(1, sizeof *s + words * sizeof(uint64_t));
    if (s == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    void *mem = NULL;
    ur_result_t res = p->ops.alloc(p->native, size, align, p->config.zero_init, &mem);
    if (res != UR_RESULT_SUCCESS) {
        free(s);
        return res;
    }
    s->block = (block_t){p, mem, size, cls};
    s->chunk = chunk;
    s->nchunks = nchunks;
    s->nfree = nchunks;
    if (!reg_add_block(&s->block)) {
        p->ops.free(p->native, mem);
        free(s);
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    link_block(p, s);
    count(&p->reserved, &p->reserved_high, size);
    *out = s;
    return UR_RESULT_SUCCESS;
}

static void release_block(urc_pool_t *p, slab_t *s) {
    reg_remove_block(&s->block);
    unlink_block(p, s);
    p->ops.free(p->native, s->block.base);
    atomic_fetch_sub_explicit(&p->reserved, s->block.size, memory_order_relaxed);
    free(s);
}

static unsigned my_shard(void) {
    static atomic_uint next;
    static _Thread_local unsigned shard = UINT_MAX;
    if (shard == UINT_MAX)
        shard = atomic_fetch_add_explicit(&next, 1, memory_order_relaxed) % SHARDS;
    return shard;
}

static void avail_push(shard_t *sh, slab_t *s) {
    s->prev = NULL;
    s->next = sh->avail;
    if (sh->avail != NULL)
        sh->avail->prev = s;
    sh->avail = s;
    s->listed = true;
}

static void avail_remove(shard_t *sh, slab_t *s) {
    if (s->prev != NULL)
        s->prev->next = s->next;
    else
        sh->avail = s->next;
    if (s->next != NULL)
        s->next->prev = s->prev;
    s->listed = false;
}

// Called with the slab's shard locked; the slab has a free chunk.
static void *take_chunk(shard_t *sh, slab_t *s) {
    size_t w = s->hint;
    while (s->bits[w] == ~(uint64_t)0)
        ++w;
    unsigned b = (unsigned)__builtin_ctzll(~s->bits[w]);
    s->bits[w] |= (uint64_t)1 << b;
    s->hint = w;
    if (--s->nfree == 0)
        avail_remove(sh, s);
    return s->block.base + (w * 64 + b) * s->chunk;
}

static ur_result_t alloc_large(urc_pool_t *p, size_t size, size_t align, void **out) {
    slab_t *s = NULL;
    ur_result_t res = new_block(p, -1, 0, size, align != 0 ? align : p->config.max_align, &s);
    if (res != UR_RESULT_SUCCESS)
        return res;
    count(&p->used, &p->used_high, size);
    *out = s->block.base;
    return UR_RESULT_SUCCESS;
}

ur_result_t urc_pool_alloc(urc_pool_t *p, size_t size, size_t align, void **out) {
    if (align & (align - 1))
        return UR_RESULT_ERROR_INVALID_VALUE;
    size_t need = size > align ? size : align;
    if (need == 0)
        need = 1;
    // A chunk is aligned to its class as far as the slab's base is: requests for more, and
    // requests above the poolable size, go to the driver.
    if (need > p->config.max_poolable || align > p->config.max_align)
        return alloc_large(p, size != 0 ? size : 1, align, out);
    size_t chunk = round_pow2(need);
    unsigned cls = (unsigned)__builtin_ctzll(chunk / URC_POOL_MIN_CLASS);
    shard_t *sh = &p->shards[cls * SHARDS + my_shard()];
    pthread_mutex_lock(&sh->lock);
    if (sh->avail == NULL) {
        // No lock is held over the driver call; another thread may fill the shard meanwhile,
        // and the new slab simply joins the list.
        pthread_mutex_unlock(&sh->lock);
        size_t slab = chunk > p->config.min_driver_alloc ? chunk : p->config.min_driver_alloc;
        slab -= slab % chunk;
        size_t align_slab = chunk < p->config.max_align ? chunk : p->config.max_align;
        slab_t *s = NULL;
        ur_result_t res = new_block(p, (int)cls, chunk, slab, align_slab, &s);
        // A slab of one chunk may still fit where a whole slab does not: a caller's buffer
        // whose base is not aligned to the slab (4 KiB of USM on Intel's CPU runtime), a
        // nearly full device.
        if (res == p->config.out_of_memory && slab > chunk)
            res = new_block(p, (int)cls, chunk, chunk, align_slab, &s);
        if (res != UR_RESULT_SUCCESS)
            return res;
        s->shard = (unsigned)(sh - p->shards) % SHARDS;
        pthread_mutex_lock(&sh->lock);
        avail_push(sh, s);
    }
    *out = take_chunk(sh, sh->avail);
    pthread_mutex_unlock(&sh->lock);
    count(&p->used, &p->used_high, chunk);
    return UR_RESULT_SUCCESS;
}

static ur_result_t not_ours(const void *ptr, const char *why) {
    return urc_error_set(UR_RESULT_ERROR_INVALID_MEM_OBJECT, 0, "%p %s", ptr, why);
}

ur_result_t urc_pool_free(urc_pool_t *p, void *ptr) {
    block_t *b = reg_lookup(page_key((uintptr_t)ptr >> PAGE_SHIFT), (uintptr_t)ptr);
    if (b == NULL)
        b = reg_lookup(base_key(ptr), (uintptr_t)ptr);
    if (b == NULL || b->pool != p)
        return not_ours(ptr, "was not allocated from this USM pool (or was freed already)");
    slab_t *s = (slab_t *)b;
    if (b->cls < 0) {
        if (ptr != b->base)
            return not_ours(ptr, "is inside a pooled allocation, not its start");
        size_t size = b->size;
        release_block(p, s);
        atomic_fetch_sub_explicit(&p->used, size, memory_order_relaxed);
        return UR_RESULT_SUCCESS;
    }
    size_t offset = (size_t)((char *)ptr - b->base);
    if (offset % s->chunk != 0)
        return not_ours(ptr, "is inside a pooled allocation, not its start");
    size_t i = offset / s->chunk;
    uint64_t bit = (uint64_t)1 << (i % 64);
    shard_t *sh = &p->shards[(unsigned)b->cls * SHARDS + s->shard];
    pthread_mutex_lock(&sh->lock);
    if ((s->bits[i / 64] & bit) == 0) {
        pthread_mutex_unlock(&sh->lock);
        return not_ours(ptr, "was freed already");
    }
    s->bits[i / 64] &= ~bit;
    if (i / 64 < s->hint)
        s->hint = i / 64;
    if (s->nfree++ == 0)
        avail_push(sh, s);
    // An empty slab goes back to the driver at once only above the release threshold.
    bool release = s->nfree == s->nchunks &&
                   atomic_load_explicit(&p->reserved, memory_order_relaxed) >
                       atomic_load_explicit(&p->release_threshold, memory_order_relaxed);
    if (release)
        avail_remove(sh, s);
    pthread_mutex_unlock(&sh->lock);
    atomic_fetch_sub_explicit(&p->used, s->chunk, memory_order_relaxed);
    if (release)
        release_block(p, s);
    return UR_RESULT_SUCCESS;
}

urc_pool_t *urc_pool_find(const void *ptr, void **base, size_t *size) {
    block_t *b = reg_lookup(page_key((uintptr_t)ptr >> PAGE_SHIFT), (uintptr_t)ptr);
    if (b != NULL && b->cls >= 0) {
        const slab_t *s = (const slab_t *)b;
        size_t i = (size_t)((const char *)ptr - b->base) / s->chunk;
        if (base != NULL)
            *base = b->base + i * s->chunk;
        if (size != NULL)
            *size = s->chunk;
        return b->pool;
    }
    b = reg_lookup(base_key(ptr), (uintptr_t)ptr);
    if (b == NULL)
        return NULL;
    if (base != NULL)
        *base = b->base;
    if (size != NULL)
        *size = b->size;
    return b->pool;
}

urc_pool_t *urc_pool_find_large(const void *driver_base) {
    block_t *b = reg_lookup(base_key(driver_base), (uintptr_t)driver_base);
    return b != NULL ? b->pool : NULL;
}

void *urc_pool_owner(const urc_pool_t *p) {
    return p->owner;
}
void *urc_pool_native(const urc_pool_t *p) {
    return p->native;
}
const urc_pool_config_t *urc_pool_config(const urc_pool_t *p) {
    return &p->config;
}

void urc_pool_trim(urc_pool_t *p, size_t keep) {
    for (size_t i = 0; i < (size_t)p->nclasses * SHARDS; ++i) {
        if (atomic_load_explicit(&p->reserved, memory_order_relaxed) <= keep)
            return;
        shard_t *sh = &p->shards[i];
        // Empty slabs leave the list under the shard's lock and go back to the driver after.
        slab_t *empty = NULL;
        pthread_mutex_lock(&sh->lock);
        size_t reserved = atomic_load_explicit(&p->reserved, memory_order_relaxed);
        for (slab_t *s = sh->avail, *next; s != NULL && reserved > keep; s = next) {
            next = s->next;
            if (s->nfree != s->nchunks)
                continue;
            avail_remove(sh, s);
            s->next = empty;
            empty = s;
            reserved -= reserved >= s->block.size ? s->block.size : reserved;
        }
        pthread_mutex_unlock(&sh->lock);
        while (empty != NULL) {
            slab_t *next = empty->next;
            release_block(p, empty);
            empty = next;
        }
    }
}

void urc_pool_set_release_threshold(urc_pool_t *p, size_t bytes) {
    atomic_store_explicit(&p->release_threshold, bytes, memory_order_relaxed);
    urc_pool_trim(p, bytes);
}

size_t urc_pool_release_threshold(const urc_pool_t *p) {
    return atomic_load_explicit(&((urc_pool_t *)p)->release_threshold, memory_order_relaxed);
}

void urc_pool_stats(const urc_pool_t *cp, urc_pool_stats_t *out) {
    urc_pool_t *p = (urc_pool_t *)cp;
    out->used = atomic_load_explicit(&p->used, memory_order_relaxed);
    out->used_high = atomic_load_explicit(&p->used_high, memory_order_relaxed);
    out->reserved = atomic_load_explicit(&p->reserved, memory_order_relaxed);
    out->reserved_high = atomic_load_explicit(&p->reserved_high, memory_order_relaxed);
}

void urc_pool_reset_high(urc_pool_t *p, bool used, bool reserved) {
    if (used)
        atomic_store_explicit(&p->used_high, atomic_load(&p->used), memory_order_relaxed);
    if (reserved)
        atomic_store_explicit(&p->reserved_high, atomic_load(&p->reserved), memory_order_relaxed);
}

void urc_pool_destroy(urc_pool_t *p) {
    if (p == NULL)
        return;
    while (p->blocks != NULL)
        release_block(p, p->blocks);
    for (size_t i = 0; i < (size_t)p->nclasses * SHARDS; ++i)
        pthread_mutex_destroy(&p->shards[i].lock);
    pthread_mutex_destroy(&p->blocks_lock);
    free(p->shards);
    free(p);
}

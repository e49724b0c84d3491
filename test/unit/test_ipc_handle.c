// SPDX-License-Identifier: MIT
// common/ipc/ipc_handle: the one framing of IPC memory, physical-memory and event handle data.
// Round trips of every kind, the header's layout, and what is refused before a driver sees
// it: wrong sizes (nothing read), other adapters and kinds (for opens and for puts, which then
// keep the data), damage, garbage, an older layout, puts of data never handed out or put
// twice, and puts racing each other.
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ipc/ipc_handle.h"
#include "urc_test.h"

// The payload sizes the adapters use: a driver's handle and an offset (memory), a descriptor
// with its identity, size and device (CUDA physical memory), a driver's handle (events).
static const struct {
    urc_ipc_kind_t kind;
    size_t payload_size;
} kinds[] = {{URC_IPC_MEMORY, 72}, {URC_IPC_PHYSICAL_MEMORY, 48}, {URC_IPC_EVENT, 64}};
static const ur_backend_t backends[] = {UR_BACKEND_CUDA, UR_BACKEND_LEVEL_ZERO};

#define NKINDS    (sizeof kinds / sizeof kinds[0])
#define NBACKENDS (sizeof backends / sizeof backends[0])
#define PAYLOAD   72 // the largest above

static void sample(unsigned char *p, size_t n, unsigned seed) {
    for (size_t i = 0; i < n; ++i)
        p[i] = (unsigned char)(i * 7u + 3u + seed);
}

static void *pack(ur_backend_t backend, urc_ipc_kind_t kind, size_t payload_size, size_t *size) {
    unsigned char in[PAYLOAD];
    sample(in, payload_size, (unsigned)kind);
    void *data = NULL;
    ck_assert_ur_ok(urc_ipc_pack(backend, kind, in, payload_size, &data, size));
    ck_assert_ptr_nonnull(data);
    return data;
}

START_TEST(every_kind_round_trips) {
    size_t before = urc_ipc_outstanding();
    for (size_t b = 0; b < NBACKENDS; ++b)
        for (size_t k = 0; k < NKINDS; ++k) {
            const size_t n = kinds[k].payload_size;
            unsigned char in[PAYLOAD], out[PAYLOAD];
            sample(in, n, (unsigned)kinds[k].kind);
            size_t size = 0;
            void *data = pack(backends[b], kinds[k].kind, n, &size);
            ck_assert_uint_eq(size, sizeof(urc_ipc_header_t) + n);
            ck_assert_uint_eq(urc_ipc_outstanding(), before + 1);
            uint32_t pid = 0;
            ck_assert_ur_ok(urc_ipc_unpack(backends[b], kinds[k].kind, data, size, out, n, &pid));
            ck_assert_mem_eq(out, in, n);
            ck_assert_uint_eq(pid, (uint32_t)getpid());
            // The put hands the payload back (what the adapter releases with it) and frees.
            memset(out, 0, sizeof out);
            ck_assert_ur_ok(urc_ipc_put(backends[b], kinds[k].kind, data, out, n));
            ck_assert_mem_eq(out, in, n);
            ck_assert_uint_eq(urc_ipc_outstanding(), before);
        }
}
END_TEST

START_TEST(header_layout) {
    ck_assert_uint_eq(sizeof(urc_ipc_header_t), 32);
    size_t size = 0;
    void *data = pack(UR_BACKEND_LEVEL_ZERO, URC_IPC_EVENT, 64, &size);
    urc_ipc_header_t h;
    memcpy(&h, data, sizeof h);
    ck_assert_uint_eq(h.magic, URC_IPC_MAGIC);
    ck_assert_mem_eq(data, "UIPC", 4); // on the little-endian machines urc runs on
    ck_assert_uint_eq(h.version, URC_IPC_VERSION);
    ck_assert_uint_eq(h.kind, URC_IPC_EVENT);
    ck_assert_uint_eq(h.backend, UR_BACKEND_LEVEL_ZERO);
    ck_assert_uint_eq(h.pid, (uint32_t)getpid());
    ck_assert_uint_eq(h.payload_size, 64);
    ck_assert_uint_eq(h.reserved, 0);
    ck_assert_uint_ne(h.check, 0);
    ck_assert_ur_ok(urc_ipc_put(UR_BACKEND_LEVEL_ZERO, URC_IPC_EVENT, data, NULL, 0));
}
END_TEST

START_TEST(wrong_sizes_are_refused_unread) {
    size_t size = 0;
    void *data = pack(UR_BACKEND_CUDA, URC_IPC_MEMORY, 72, &size);
    unsigned char out[PAYLOAD];
    ck_assert_ur(urc_ipc_unpack(UR_BACKEND_CUDA, URC_IPC_MEMORY, data, size - 1, out, 72, NULL),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(urc_ipc_unpack(UR_BACKEND_CUDA, URC_IPC_MEMORY, data, size + 1, out, 72, NULL),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(urc_ipc_unpack(UR_BACKEND_CUDA, URC_IPC_MEMORY, data, 0, out, 72, NULL),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(urc_ipc_unpack(UR_BACKEND_CUDA, URC_IPC_MEMORY, NULL, size, out, 72, NULL),
                 UR_RESULT_ERROR_INVALID_VALUE);
    // One byte that claims to be more: the size check comes first (AddressSanitizer would see
    // a read past it).
    unsigned char *tiny = malloc(1);
    ck_assert_ur(urc_ipc_unpack(UR_BACKEND_CUDA, URC_IPC_MEMORY, tiny, 1, out, 72, NULL),
                 UR_RESULT_ERROR_INVALID_VALUE);
    free(tiny);
    // The right size for another payload: a physical-memory datum read as memory.
    size_t other = 0;
    void *phys = pack(UR_BACKEND_CUDA, URC_IPC_PHYSICAL_MEMORY, 48, &other);
    ck_assert_ur(urc_ipc_unpack(UR_BACKEND_CUDA, URC_IPC_MEMORY, phys, other, out, 72, NULL),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(urc_ipc_unpack(UR_BACKEND_CUDA, URC_IPC_MEMORY, phys, size, out, 72, NULL),
                 UR_RESULT_ERROR_INVALID_VALUE);
    // Payloads beyond any driver's handle are not made.
    void *big = NULL;
    size_t big_size = 0;
    ck_assert_ur(urc_ipc_pack(UR_BACKEND_CUDA, URC_IPC_MEMORY, out, URC_IPC_PAYLOAD_MAX + 1, &big,
                              &big_size),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur_ok(urc_ipc_put(UR_BACKEND_CUDA, URC_IPC_PHYSICAL_MEMORY, phys, NULL, 0));
    ck_assert_ur_ok(urc_ipc_put(UR_BACKEND_CUDA, URC_IPC_MEMORY, data, NULL, 0));
}
END_TEST

// Every kind of every adapter offered where another belongs, with a payload of the size the
// other expects, so that only the header can tell: opens and puts refuse it, and a refused put
// keeps the data for the right one.
START_TEST(kinds_and_adapters_do_not_mix) {
    for (size_t b = 0; b < NBACKENDS; ++b)
        for (size_t k = 0; k < NKINDS; ++k) {
            size_t size = 0;
            void *data = pack(backends[b], kinds[k].kind, 64, &size);
            unsigned char out[PAYLOAD];
            for (size_t ob = 0; ob < NBACKENDS; ++ob)
                for (size_t ok = 0; ok < NKINDS; ++ok) {
                    if (ob == b && ok == k)
                        continue;
                    ck_assert_ur(
                        urc_ipc_unpack(backends[ob], kinds[ok].kind, data, size, out, 64, NULL),
                        UR_RESULT_ERROR_INVALID_VALUE);
                    ck_assert_ur(urc_ipc_put(backends[ob], kinds[ok].kind, data, NULL, 0),
                                 UR_RESULT_ERROR_INVALID_VALUE);
                }
            ck_assert_ur_ok(urc_ipc_unpack(backends[b], kinds[k].kind, data, size, out, 64, NULL));
            ck_assert_ur_ok(urc_ipc_put(backends[b], kinds[k].kind, data, NULL, 0));
        }
}
END_TEST

START_TEST(damage_and_garbage_are_refused) {
    size_t size = 0;
    void *data = pack(UR_BACKEND_CUDA, URC_IPC_PHYSICAL_MEMORY, 48, &size);
    unsigned char out[PAYLOAD];
    unsigned char *copy = malloc(size);
    // Every single changed bit of every byte is noticed.
    for (size_t i = 0; i < size; ++i)
        for (unsigned bit = 0; bit < 8; ++bit) {
            memcpy(copy, data, size);
            copy[i] ^= (unsigned char)(1u << bit);
            ck_assert_ur(
                urc_ipc_unpack(UR_BACKEND_CUDA, URC_IPC_PHYSICAL_MEMORY, copy, size, out, 48, NULL),
                UR_RESULT_ERROR_INVALID_VALUE);
        }
    for (int fill = 0; fill < 256; fill += 51) {
        memset(copy, fill, size);
        ck_assert_ur(
            urc_ipc_unpack(UR_BACKEND_CUDA, URC_IPC_PHYSICAL_MEMORY, copy, size, out, 48, NULL),
            UR_RESULT_ERROR_INVALID_VALUE);
    }
    // An older layout, its checksum made right: refused by its version.
    memcpy(copy, data, size);
    urc_ipc_header_t h;
    memcpy(&h, copy, sizeof h);
    h.version = 1;
    memcpy(copy, &h, sizeof h);
    ck_assert_ur(
        urc_ipc_unpack(UR_BACKEND_CUDA, URC_IPC_PHYSICAL_MEMORY, copy, size, out, 48, NULL),
        UR_RESULT_ERROR_INVALID_VALUE);
    // An exact copy opens (another process receives just that), but is not put.
    memcpy(copy, data, size);
    ck_assert_ur_ok(
        urc_ipc_unpack(UR_BACKEND_CUDA, URC_IPC_PHYSICAL_MEMORY, copy, size, out, 48, NULL));
    ck_assert_ur(urc_ipc_put(UR_BACKEND_CUDA, URC_IPC_PHYSICAL_MEMORY, copy, NULL, 0),
                 UR_RESULT_ERROR_INVALID_VALUE);
    free(copy);
    ck_assert_ur_ok(urc_ipc_put(UR_BACKEND_CUDA, URC_IPC_PHYSICAL_MEMORY, data, NULL, 0));
}
END_TEST

START_TEST(only_data_handed_out_are_put_once) {
    size_t before = urc_ipc_outstanding();
    size_t size = 0;
    void *data = pack(UR_BACKEND_LEVEL_ZERO, URC_IPC_MEMORY, 72, &size);
    // Values that were never handed out are answered without being read.
    ck_assert_ur(urc_ipc_put(UR_BACKEND_LEVEL_ZERO, URC_IPC_MEMORY, NULL, NULL, 0),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(
        urc_ipc_put(UR_BACKEND_LEVEL_ZERO, URC_IPC_MEMORY, (void *)(uintptr_t)0x10, NULL, 0),
        UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(urc_ipc_put(UR_BACKEND_LEVEL_ZERO, URC_IPC_MEMORY, (char *)data + 1, NULL, 0),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur_ok(urc_ipc_put(UR_BACKEND_LEVEL_ZERO, URC_IPC_MEMORY, data, NULL, 0));
    ck_assert_ur(urc_ipc_put(UR_BACKEND_LEVEL_ZERO, URC_IPC_MEMORY, data, NULL, 0),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_uint_eq(urc_ipc_outstanding(), before);
}
END_TEST

START_TEST(many_handles_put_in_any_order) {
    void *data[16];
    size_t size = 0;
    for (int i = 0; i < 16; ++i)
        data[i] =
            pack(UR_BACKEND_CUDA, kinds[i % NKINDS].kind, kinds[i % NKINDS].payload_size, &size);
    for (int i = 0; i < 16; i += 2)
        ck_assert_ur_ok(urc_ipc_put(UR_BACKEND_CUDA, kinds[i % NKINDS].kind, data[i], NULL, 0));
    for (int i = 15; i > 0; i -= 2)
        ck_assert_ur_ok(urc_ipc_put(UR_BACKEND_CUDA, kinds[i % NKINDS].kind, data[i], NULL, 0));
}
END_TEST

// Threads packing and putting their own data at once: every put succeeds, exactly once.
static void *pack_and_put(void *arg) {
    const urc_ipc_kind_t kind = kinds[(uintptr_t)arg % NKINDS].kind;
    unsigned char in[PAYLOAD] = {0};
    intptr_t failures = 0;
    for (int round = 0; round < 2000; ++round) {
        void *data = NULL;
        size_t size = 0;
        if (urc_ipc_pack(UR_BACKEND_CUDA, kind, in, sizeof in, &data, &size) != UR_RESULT_SUCCESS ||
            urc_ipc_put(UR_BACKEND_CUDA, kind, data, NULL, 0) != UR_RESULT_SUCCESS)
            ++failures;
    }
    return (void *)failures;
}

START_TEST(threads_pack_and_put) {
    pthread_t t[4];
    for (uintptr_t i = 0; i < 4; ++i)
        ck_assert_int_eq(pthread_create(&t[i], NULL, pack_and_put, (void *)i), 0);
    for (int i = 0; i < 4; ++i) {
        void *failures = NULL;
        ck_assert_int_eq(pthread_join(t[i], &failures), 0);
        ck_assert_ptr_null(failures);
    }
}
END_TEST

// Threads putting the same data: each datum is freed by exactly one of them; a thread putting
// them as another kind never takes one.
#define RACED 256
static void *raced[RACED];
static atomic_int raced_puts;

static void *put_all(void *arg) {
    const urc_ipc_kind_t kind = (urc_ipc_kind_t)(uintptr_t)arg;
    for (int i = 0; i < RACED; ++i)
        if (urc_ipc_put(UR_BACKEND_LEVEL_ZERO, kind, raced[i], NULL, 0) == UR_RESULT_SUCCESS)
            atomic_fetch_add(&raced_puts, kind == URC_IPC_EVENT ? 1 : 1000000);
    return NULL;
}

START_TEST(puts_racing_free_each_datum_once) {
    size_t size = 0;
    for (int i = 0; i < RACED; ++i)
        raced[i] = pack(UR_BACKEND_LEVEL_ZERO, URC_IPC_EVENT, 64, &size);
    atomic_store(&raced_puts, 0);
    pthread_t t[3];
    const urc_ipc_kind_t as[3] = {URC_IPC_EVENT, URC_IPC_MEMORY, URC_IPC_EVENT};
    for (int i = 0; i < 3; ++i)
        ck_assert_int_eq(pthread_create(&t[i], NULL, put_all, (void *)(uintptr_t)as[i]), 0);
    for (int i = 0; i < 3; ++i)
        ck_assert_int_eq(pthread_join(t[i], NULL), 0);
    ck_assert_int_eq(atomic_load(&raced_puts), RACED);
}
END_TEST

int main(void) {
    Suite *s = suite_create("ipc_handle");
    TCase *tc = tcase_create("urc_ipc");
    tcase_add_test(tc, every_kind_round_trips);
    tcase_add_test(tc, header_layout);
    tcase_add_test(tc, wrong_sizes_are_refused_unread);
    tcase_add_test(tc, kinds_and_adapters_do_not_mix);
    tcase_add_test(tc, damage_and_garbage_are_refused);
    tcase_add_test(tc, only_data_handed_out_are_put_once);
    tcase_add_test(tc, many_handles_put_in_any_order);
    tcase_add_test(tc, threads_pack_and_put);
    tcase_add_test(tc, puts_racing_free_each_datum_once);
    suite_add_tcase(s, tc);
    return urc_test_run(s);
}

// SPDX-License-Identifier: MIT
// The record of vm_map.h: a list of reservations, each with its mapped pieces as a sorted array
// of disjoint byte intervals (pieces that touch are joined), under one read-write lock that only
// the virtual memory calls write. The USM range check reads it only while a reservation exists.
#include "memory/vm_map.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

#include "core/alloc.h"
#include "core/error.h"
#include "ipc/mem_export.h"

typedef struct piece_t {
    uintptr_t begin, end;
} piece_t;

typedef struct reservation_t {
    uintptr_t begin, end;
    piece_t *pieces; // sorted, disjoint, not touching
    size_t npieces, cap;
    struct reservation_t *next;
} reservation_t;

static pthread_rwlock_t lock = PTHREAD_RWLOCK_INITIALIZER;
static reservation_t *reservations;
static _Atomic size_t live; // reservations in the list, read without the lock

// The reservation holding all of [b, e); called under the lock.
static reservation_t *find(uintptr_t b, uintptr_t e) {
    for (reservation_t *r = reservations; r != NULL; r = r->next)
        if (b >= r->begin && e <= r->end && b < e)
            return r;
    return NULL;
}

// [b, e) as a range, or false when it wraps.
static bool range_of(const void *start, size_t size, uintptr_t *b, uintptr_t *e) {
    *b = (uintptr_t)start;
    if (size == 0 || size > UINTPTR_MAX - *b)
        return false;
    *e = *b + size;
    return true;
}

ur_result_t urc_vm_reserve_note(const void *start, size_t size) {
    uintptr_t b, e;
    if (!range_of(start, size, &b, &e))
        return UR_RESULT_SUCCESS; // the driver never makes such a range
    reservation_t *r = URC_NEW(reservation_t);
    if (r == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    r->begin = b;
    r->end = e;
    pthread_rwlock_wrlock(&lock);
    r->next = reservations;
    reservations = r;
    atomic_fetch_add(&live, 1);
    pthread_rwlock_unlock(&lock);
    return UR_RESULT_SUCCESS;
}

ur_result_t urc_vm_free_claim(const void *start, size_t size, bool *known) {
    *known = false;
    uintptr_t b, e;
    if (!range_of(start, size, &b, &e))
        return UR_RESULT_SUCCESS;
    ur_result_t res = UR_RESULT_SUCCESS;
    reservation_t *taken = NULL;
    pthread_rwlock_wrlock(&lock);
    for (reservation_t **at = &reservations; *at != NULL; at = &(*at)->next) {
        reservation_t *r = *at;
        if (r->begin != b || r->end != e)
            continue;
        *known = true;
        if (r->npieces != 0) {
            res = urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                                "the reservation at %p still has memory mapped at %p; unmap it "
                                "with urVirtualMemUnmap first",
                                start, (void *)r->pieces[0].begin);
        } else {
            taken = r;
            *at = r->next;
            atomic_fetch_sub(&live, 1);
        }
        break;
    }
    pthread_rwlock_unlock(&lock);
    if (taken != NULL) {
        free(taken->pieces);
        free(taken);
    }
    return res;
}

// Inserts [b, e), which overlaps no piece, joining the pieces it touches.
static bool insert_piece(reservation_t *r, uintptr_t b, uintptr_t e) {
    size_t i = 0;
    while (i < r->npieces && r->pieces[i].end < b)
        ++i;
    // Pieces i (if it ends at b) and the next (if it starts at e) touch the new one.
    bool left = i < r->npieces && r->pieces[i].end == b;
    size_t right_at = left ? i + 1 : i;
    bool right = right_at < r->npieces && r->pieces[right_at].begin == e;
    if (left && right) {
        r->pieces[i].end = r->pieces[right_at].end;
        for (size_t k = right_at; k + 1 < r->npieces; ++k)
            r->pieces[k] = r->pieces[k + 1];
        --r->npieces;
        return true;
    }
    if (left) {
        r->pieces[i].end = e;
        return true;
    }
    if (right) {
        r->pieces[right_at].begin = b;
        return true;
    }
    if (r->npieces == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 4;
        piece_t *p = realloc(r->pieces, cap * sizeof *p);
        if (p == NULL)
            return false;
        r->pieces = p;
        r->cap = cap;
    }
    for (size_t k = r->npieces; k > i; --k)
        r->pieces[k] = r->pieces[k - 1];
    r->pieces[i] = (piece_t){b, e};
    ++r->npieces;
    return true;
}

ur_result_t urc_vm_map_claim(const void *start, size_t size, bool *known) {
    *known = false;
    uintptr_t b, e;
    if (!range_of(start, size, &b, &e))
        return UR_RESULT_SUCCESS;
    ur_result_t res = UR_RESULT_SUCCESS;
    pthread_rwlock_wrlock(&lock);
    reservation_t *r = find(b, e);
    if (r != NULL) {
        *known = true;
        for (size_t i = 0; i < r->npieces && res == UR_RESULT_SUCCESS; ++i)
            if (r->pieces[i].begin < e && b < r->pieces[i].end)
                res = urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                                    "%p..+%zu overlaps memory mapped already", start, size);
        if (res == UR_RESULT_SUCCESS && !insert_piece(r, b, e))
            res = UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    pthread_rwlock_unlock(&lock);
    return res;
}

// Removes [b, e) from the pieces; every byte of it is mapped.
static bool remove_piece(reservation_t *r, uintptr_t b, uintptr_t e) {
    size_t i = 0;
    while (r->pieces[i].end <= b)
        ++i;
    piece_t p = r->pieces[i];
    if (p.begin < b && e < p.end) { // a hole in the middle: one piece becomes two
        if (r->npieces == r->cap) {
            size_t cap = 2 * r->cap;
            piece_t *grown = realloc(r->pieces, cap * sizeof *grown);
            if (grown == NULL)
                return false;
            r->pieces = grown;
            r->cap = cap;
        }
        for (size_t k = r->npieces; k > i + 1; --k)
            r->pieces[k] = r->pieces[k - 1];
        r->pieces[i].end = b;
        r->pieces[i + 1] = (piece_t){e, p.end};
        ++r->npieces;
    } else if (p.begin < b) {
        r->pieces[i].end = b;
    } else if (e < p.end) {
        r->pieces[i].begin = e;
    } else {
        for (size_t k = i; k + 1 < r->npieces; ++k)
            r->pieces[k] = r->pieces[k + 1];
        --r->npieces;
    }
    return true;
}

ur_result_t urc_vm_unmap_claim(const void *start, size_t size, bool *known) {
    *known = false;
    uintptr_t b, e;
    if (!range_of(start, size, &b, &e))
        return UR_RESULT_SUCCESS;
    ur_result_t res = UR_RESULT_SUCCESS;
    pthread_rwlock_wrlock(&lock);
    reservation_t *r = find(b, e);
    if (r != NULL) {
        *known = true;
        // Joined pieces: the range is all mapped only when one piece covers it.
        bool covered = false;
        for (size_t i = 0; i < r->npieces && !covered; ++i)
            covered = r->pieces[i].begin <= b && e <= r->pieces[i].end;
        if (!covered)
            res = urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                                "%p..+%zu is not (or not all) mapped: unmapped already?", start,
                                size);
        else if (!remove_piece(r, b, e))
            res = UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    pthread_rwlock_unlock(&lock);
    return res;
}

void urc_vm_unmap_note(const void *start, size_t size) {
    uintptr_t b, e;
    if (!range_of(start, size, &b, &e))
        return;
    pthread_rwlock_wrlock(&lock);
    reservation_t *r = find(b, e);
    if (r != NULL) {
        // Cut [b, e) out of each piece it overlaps.
        for (size_t i = 0; i < r->npieces;) {
            piece_t p = r->pieces[i];
            uintptr_t cb = p.begin > b ? p.begin : b, ce = p.end < e ? p.end : e;
            if (cb < ce && remove_piece(r, cb, ce))
                continue; // what is left at i no longer overlaps, or is the next piece
            ++i;
        }
    }
    pthread_rwlock_unlock(&lock);
}

bool urc_vm_holds(const void *ptr) {
    if (atomic_load_explicit(&live, memory_order_relaxed) == 0)
        return false;
    uintptr_t p = (uintptr_t)ptr;
    pthread_rwlock_rdlock(&lock);
    bool found = p < UINTPTR_MAX && find(p, p + 1) != NULL;
    pthread_rwlock_unlock(&lock);
    return found;
}

bool urc_vm_mapped_run(const void *ptr, const void **base, size_t *size) {
    if (atomic_load_explicit(&live, memory_order_relaxed) == 0)
        return false;
    uintptr_t p = (uintptr_t)ptr;
    bool found = false;
    pthread_rwlock_rdlock(&lock);
    reservation_t *r = p < UINTPTR_MAX ? find(p, p + 1) : NULL;
    for (size_t i = 0; r != NULL && i < r->npieces && !found; ++i)
        if (r->pieces[i].begin <= p && p < r->pieces[i].end) {
            *base = (const void *)r->pieces[i].begin;
            *size = r->pieces[i].end - r->pieces[i].begin;
            found = true;
        }
    pthread_rwlock_unlock(&lock);
    return found;
}

ur_result_t urc_vm_check_user_range(const void *start, size_t size, bool mapped) {
    if (urc_mem_export_holds(start))
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "%p is exportable memory, not a range of urVirtualMemReserve", start);
    if (atomic_load_explicit(&live, memory_order_relaxed) == 0)
        return UR_RESULT_SUCCESS;
    uintptr_t p = (uintptr_t)start, b = 0, e = 0;
    bool whole = range_of(start, size, &b, &e);
    ur_result_t res = UR_RESULT_SUCCESS;
    pthread_rwlock_rdlock(&lock);
    reservation_t *r = p < UINTPTR_MAX ? find(p, p + 1) : NULL;
    if (r != NULL && size != 0 && (!whole || e > r->end)) {
        res = urc_error_set(UR_RESULT_ERROR_INVALID_SIZE, 0,
                            "%p..+%zu runs past the end of its reservation (%p..+%zu)", start, size,
                            (void *)r->begin, (size_t)(r->end - r->begin));
    } else if (r != NULL && mapped && size != 0) {
        bool covered = false;
        for (size_t i = 0; i < r->npieces && !covered; ++i)
            covered = r->pieces[i].begin <= b && e <= r->pieces[i].end;
        if (!covered)
            res = urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                                "%p..+%zu is not (or not all) mapped", start, size);
    }
    pthread_rwlock_unlock(&lock);
    return res;
}

ur_result_t urc_vm_check_info_range(const void *start, size_t size) {
    ur_result_t res = urc_vm_check_user_range(start, size, true);
    if (res == UR_RESULT_SUCCESS && !urc_vm_holds(start))
        res = urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                            "%p is not in a range of urVirtualMemReserve", start);
    return res;
}

ur_result_t urc_vm_refuse_for(const void *ptr, const char *call) {
    if (urc_mem_export_holds(ptr))
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "%s: %p is exportable memory, not USM", call, ptr);
    if (urc_vm_holds(ptr))
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "%s: %p is reserved virtual memory, not USM", call, ptr);
    return UR_RESULT_SUCCESS;
}

ur_result_t urc_usm_free_not_virtual(const void *ptr) {
    if (urc_mem_export_holds(ptr))
        return urc_error_set(UR_RESULT_ERROR_INVALID_MEM_OBJECT, 0,
                             "%p is exportable memory: free it with "
                             "urMemoryExportFreeExportableMemoryExp, not urUSMFree",
                             ptr);
    if (urc_vm_holds(ptr))
        return urc_error_set(UR_RESULT_ERROR_INVALID_MEM_OBJECT, 0,
                             "%p is reserved virtual memory: give it back with urVirtualMemUnmap "
                             "and urVirtualMemFree, not urUSMFree",
                             ptr);
    return UR_RESULT_SUCCESS;
}

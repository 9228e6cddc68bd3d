/* atomics.c: OpenSHMEM 1.5 atomic memory operations (every AMO of the standard, extended
 * and bitwise type tables, blocking and _nbi, with and without a context, and the
 * deprecated names), distributed locks, and put-with-signal.
 *
 * Atomics run in the target's host interface (libcanopy's canopy_amo, docs/host-
 * interface.md "Atomics"): the target node does the read-modify-write on its memory, one
 * atomic at a time, so atomics on an object from every PE, the target itself included
 * (a PE's atomics on its own memory go through its own host interface too), are atomic
 * with respect to each other. A fetching atomic's old value comes back into this PE's
 * window: a blocking one into reply slot 0, then returned; a non-blocking one straight
 * into `fetch` when that is symmetric, else into a reply slot, copied to `fetch` at the
 * next quiet. Non-fetching atomics complete at quiet; shmem_fence after atomics waits for
 * them (a put after an atomic to the same PE could otherwise overtake it, see p2p.c).
 *
 * Locks are MCS queue locks (fair: first come, first served, so no PE starves), built on
 * 4-byte atomics on the two halves of the symmetric lock word: the low half of the lock
 * word on the lock's home PE (chosen by the word's symmetric offset) holds the tail of
 * the queue (PE + 1, 0 = free); the high half of each PE's own copy is that PE's queue
 * node: bit 31 "waiting", bits 30..0 the successor (PE + 1). Acquire: set my node to
 * "waiting, no successor", swap myself into the tail; if there was a predecessor, OR my
 * number into its node and wait (locally) until my "waiting" bit clears. Release: if I have
 * no successor, compare-and-swap the tail from me back to free; if that fails a successor
 * is linking itself in: wait for its number; then clear its "waiting" bit with an AND. The
 * lock word must be 0 on every PE before first use (the specification requires it).
 */
#include <stdlib.h>
#include <string.h>

#include "shmem_internal.h"

/* ------------------------------------------------------------------ core */
static unsigned op_size_check(const char *call, const void *dest, unsigned size, int pe, uint64_t *off)
{
    shmi_check_pe(call, pe);
    *off = shmi_sym(call, dest, size);
    if (*off % size)
        shmi_fatal(call, "address %p is not aligned to its size (%u bytes): an atomic needs a naturally aligned object",
                   dest, size);
    return size;
}

uint64_t shmi_amo(const char *call, void *dest, unsigned size, unsigned op, uint64_t operand, uint64_t compare, int pe)
{
    SHMI_LOCKED;
    uint64_t off, old = 0;
    op_size_check(call, dest, size, pe, &off);
    const uint64_t reply = shmi.amo_off;
    int rc = canopy_amo_fetch(shmi.dev, pe, off, op, size, operand, compare, reply, &old, SHMI_TIMEOUT_NS);
    shmi_check(call, "canopy_amo", rc);
    return old;
}

/* Deliver the values of non-blocking fetching atomics parked in reply slots. */
void shmi_amo_quiet(void)
{
    for (unsigned i = 0; i < shmi.amo_npending; ++i) {
        const uint8_t *slot = shmi_local(shmi.amo_off + 8u * (i + 1));
        memcpy(shmi.amo_pending[i].dst, slot, shmi.amo_pending[i].size);
    }
    shmi.amo_npending = 0;
    shmi.amo_outstanding = 0;
}

void shmi_amo_nbi(const char *call, void *fetch, void *dest, unsigned size, unsigned op, uint64_t operand,
                  uint64_t compare, int pe)
{
    SHMI_LOCKED;
    uint64_t off;
    op_size_check(call, dest, size, pe, &off);
    uint64_t reply = CANOPY_AMO_NO_REPLY;
    if (fetch) {
        const int64_t f = shmi_offset(fetch, size);
        if (f >= 0) {
            reply = (uint64_t)f;
        } else {
            if (shmi.amo_npending == SHMI_AMO_SLOTS - 1) shmi_quiet(call); /* slots full: deliver them */
            if (!shmi.amo_pending) {
                shmi.amo_pending = calloc(SHMI_AMO_SLOTS, sizeof *shmi.amo_pending);
                if (!shmi.amo_pending) shmi_fatal(call, "out of memory");
            }
            shmi.amo_pending[shmi.amo_npending].dst = fetch;
            shmi.amo_pending[shmi.amo_npending].size = size;
            reply = shmi.amo_off + 8u * (++shmi.amo_npending);
        }
    }
    shmi_check(call, "canopy_amo", canopy_amo(shmi.dev, pe, off, op, size, operand, compare, reply));
    shmi.amo_outstanding = 1;
}

/* Values as raw bits of their size (floating point included: fetch, set and swap only). */
static inline uint64_t to_bits(const void *p, unsigned size)
{
    uint64_t v = 0;
    memcpy(&v, p, size); /* little-endian: the low bytes */
    return v;
}

/* ------------------------------------------------------------------ the API
 * One set of definitions per type; each form with a context translates its PE first. */
#define FROM_BITS(T, v)                                                                    \
    ({                                                                                     \
        uint64_t b_ = (v);                                                                 \
        T r_;                                                                              \
        memcpy(&r_, &b_, sizeof r_);                                                       \
        r_;                                                                                \
    })

#define DEF_AMO_EXT(T, N)                                                                  \
    T shmem_##N##_atomic_fetch(const T *source, int pe)                                    \
    {                                                                                      \
        return FROM_BITS(T, shmi_amo("shmem_" #N "_atomic_fetch", (void *)(uintptr_t)source, sizeof(T), \
                                     CANOPY_AMO_FETCH, 0, 0, pe));                         \
    }                                                                                      \
    T shmem_ctx_##N##_atomic_fetch(shmem_ctx_t ctx, const T *source, int pe)               \
    {                                                                                      \
        const char *c = "shmem_ctx_" #N "_atomic_fetch";                                   \
        return FROM_BITS(T, shmi_amo(c, (void *)(uintptr_t)source, sizeof(T), CANOPY_AMO_FETCH, 0, 0, \
                                     shmi_ctx_pe(c, ctx, pe)));                            \
    }                                                                                      \
    void shmem_##N##_atomic_set(T *dest, T value, int pe)                                  \
    {                                                                                      \
        shmi_amo_nbi("shmem_" #N "_atomic_set", NULL, dest, sizeof(T), CANOPY_AMO_SET, to_bits(&value, sizeof(T)), 0, pe); \
    }                                                                                      \
    void shmem_ctx_##N##_atomic_set(shmem_ctx_t ctx, T *dest, T value, int pe)             \
    {                                                                                      \
        const char *c = "shmem_ctx_" #N "_atomic_set";                                     \
        shmi_amo_nbi(c, NULL, dest, sizeof(T), CANOPY_AMO_SET, to_bits(&value, sizeof(T)), 0, shmi_ctx_pe(c, ctx, pe)); \
    }                                                                                      \
    T shmem_##N##_atomic_swap(T *dest, T value, int pe)                                    \
    {                                                                                      \
        return FROM_BITS(T, shmi_amo("shmem_" #N "_atomic_swap", dest, sizeof(T), CANOPY_AMO_SET, \
                                     to_bits(&value, sizeof(T)), 0, pe));                  \
    }                                                                                      \
    T shmem_ctx_##N##_atomic_swap(shmem_ctx_t ctx, T *dest, T value, int pe)               \
    {                                                                                      \
        const char *c = "shmem_ctx_" #N "_atomic_swap";                                    \
        return FROM_BITS(T, shmi_amo(c, dest, sizeof(T), CANOPY_AMO_SET, to_bits(&value, sizeof(T)), 0, \
                                     shmi_ctx_pe(c, ctx, pe)));                            \
    }                                                                                      \
    void shmem_##N##_atomic_fetch_nbi(T *fetch, const T *source, int pe)                   \
    {                                                                                      \
        shmi_amo_nbi("shmem_" #N "_atomic_fetch_nbi", fetch, (void *)(uintptr_t)source, sizeof(T), \
                     CANOPY_AMO_FETCH, 0, 0, pe);                                          \
    }                                                                                      \
    void shmem_ctx_##N##_atomic_fetch_nbi(shmem_ctx_t ctx, T *fetch, const T *source, int pe) \
    {                                                                                      \
        const char *c = "shmem_ctx_" #N "_atomic_fetch_nbi";                               \
        shmi_amo_nbi(c, fetch, (void *)(uintptr_t)source, sizeof(T), CANOPY_AMO_FETCH, 0, 0, shmi_ctx_pe(c, ctx, pe)); \
    }                                                                                      \
    void shmem_##N##_atomic_swap_nbi(T *fetch, T *dest, T value, int pe)                   \
    {                                                                                      \
        shmi_amo_nbi("shmem_" #N "_atomic_swap_nbi", fetch, dest, sizeof(T), CANOPY_AMO_SET, \
                     to_bits(&value, sizeof(T)), 0, pe);                                   \
    }                                                                                      \
    void shmem_ctx_##N##_atomic_swap_nbi(shmem_ctx_t ctx, T *fetch, T *dest, T value, int pe) \
    {                                                                                      \
        const char *c = "shmem_ctx_" #N "_atomic_swap_nbi";                                \
        shmi_amo_nbi(c, fetch, dest, sizeof(T), CANOPY_AMO_SET, to_bits(&value, sizeof(T)), 0, shmi_ctx_pe(c, ctx, pe)); \
    }
SHMEMI_AMO_EXT_TYPES(DEF_AMO_EXT)

/* Integer types: values converted (sign-extended operands are cut to the size by the
 * driver), results cut back to T. */
#define DEF_AMO_STD(T, N)                                                                  \
    T shmem_##N##_atomic_compare_swap(T *dest, T cond, T value, int pe)                    \
    {                                                                                      \
        return (T)shmi_amo("shmem_" #N "_atomic_compare_swap", dest, sizeof(T), CANOPY_AMO_CSWAP, (uint64_t)value, \
                           (uint64_t)cond, pe);                                            \
    }                                                                                      \
    T shmem_ctx_##N##_atomic_compare_swap(shmem_ctx_t ctx, T *dest, T cond, T value, int pe) \
    {                                                                                      \
        const char *c = "shmem_ctx_" #N "_atomic_compare_swap";                            \
        return (T)shmi_amo(c, dest, sizeof(T), CANOPY_AMO_CSWAP, (uint64_t)value, (uint64_t)cond, shmi_ctx_pe(c, ctx, pe)); \
    }                                                                                      \
    T shmem_##N##_atomic_fetch_inc(T *dest, int pe)                                        \
    {                                                                                      \
        return (T)shmi_amo("shmem_" #N "_atomic_fetch_inc", dest, sizeof(T), CANOPY_AMO_ADD, 1, 0, pe); \
    }                                                                                      \
    T shmem_ctx_##N##_atomic_fetch_inc(shmem_ctx_t ctx, T *dest, int pe)                   \
    {                                                                                      \
        const char *c = "shmem_ctx_" #N "_atomic_fetch_inc";                               \
        return (T)shmi_amo(c, dest, sizeof(T), CANOPY_AMO_ADD, 1, 0, shmi_ctx_pe(c, ctx, pe)); \
    }                                                                                      \
    void shmem_##N##_atomic_inc(T *dest, int pe)                                           \
    {                                                                                      \
        shmi_amo_nbi("shmem_" #N "_atomic_inc", NULL, dest, sizeof(T), CANOPY_AMO_ADD, 1, 0, pe); \
    }                                                                                      \
    void shmem_ctx_##N##_atomic_inc(shmem_ctx_t ctx, T *dest, int pe)                      \
    {                                                                                      \
        const char *c = "shmem_ctx_" #N "_atomic_inc";                                     \
        shmi_amo_nbi(c, NULL, dest, sizeof(T), CANOPY_AMO_ADD, 1, 0, shmi_ctx_pe(c, ctx, pe)); \
    }                                                                                      \
    T shmem_##N##_atomic_fetch_add(T *dest, T value, int pe)                               \
    {                                                                                      \
        return (T)shmi_amo("shmem_" #N "_atomic_fetch_add", dest, sizeof(T), CANOPY_AMO_ADD, (uint64_t)value, 0, pe); \
    }                                                                                      \
    T shmem_ctx_##N##_atomic_fetch_add(shmem_ctx_t ctx, T *dest, T value, int pe)          \
    {                                                                                      \
        const char *c = "shmem_ctx_" #N "_atomic_fetch_add";                               \
        return (T)shmi_amo(c, dest, sizeof(T), CANOPY_AMO_ADD, (uint64_t)value, 0, shmi_ctx_pe(c, ctx, pe)); \
    }                                                                                      \
    void shmem_##N##_atomic_add(T *dest, T value, int pe)                                  \
    {                                                                                      \
        shmi_amo_nbi("shmem_" #N "_atomic_add", NULL, dest, sizeof(T), CANOPY_AMO_ADD, (uint64_t)value, 0, pe); \
    }                                                                                      \
    void shmem_ctx_##N##_atomic_add(shmem_ctx_t ctx, T *dest, T value, int pe)             \
    {                                                                                      \
        const char *c = "shmem_ctx_" #N "_atomic_add";                                     \
        shmi_amo_nbi(c, NULL, dest, sizeof(T), CANOPY_AMO_ADD, (uint64_t)value, 0, shmi_ctx_pe(c, ctx, pe)); \
    }                                                                                      \
    void shmem_##N##_atomic_compare_swap_nbi(T *fetch, T *dest, T cond, T value, int pe)   \
    {                                                                                      \
        shmi_amo_nbi("shmem_" #N "_atomic_compare_swap_nbi", fetch, dest, sizeof(T), CANOPY_AMO_CSWAP, \
                     (uint64_t)value, (uint64_t)cond, pe);                                 \
    }                                                                                      \
    void shmem_ctx_##N##_atomic_compare_swap_nbi(shmem_ctx_t ctx, T *fetch, T *dest, T cond, T value, int pe) \
    {                                                                                      \
        const char *c = "shmem_ctx_" #N "_atomic_compare_swap_nbi";                        \
        shmi_amo_nbi(c, fetch, dest, sizeof(T), CANOPY_AMO_CSWAP, (uint64_t)value, (uint64_t)cond, \
                     shmi_ctx_pe(c, ctx, pe));                                             \
    }                                                                                      \
    void shmem_##N##_atomic_fetch_inc_nbi(T *fetch, T *dest, int pe)                       \
    {                                                                                      \
        shmi_amo_nbi("shmem_" #N "_atomic_fetch_inc_nbi", fetch, dest, sizeof(T), CANOPY_AMO_ADD, 1, 0, pe); \
    }                                                                                      \
    void shmem_ctx_##N##_atomic_fetch_inc_nbi(shmem_ctx_t ctx, T *fetch, T *dest, int pe)  \
    {                                                                                      \
        const char *c = "shmem_ctx_" #N "_atomic_fetch_inc_nbi";                           \
        shmi_amo_nbi(c, fetch, dest, sizeof(T), CANOPY_AMO_ADD, 1, 0, shmi_ctx_pe(c, ctx, pe)); \
    }                                                                                      \
    void shmem_##N##_atomic_fetch_add_nbi(T *fetch, T *dest, T value, int pe)              \
    {                                                                                      \
        shmi_amo_nbi("shmem_" #N "_atomic_fetch_add_nbi", fetch, dest, sizeof(T), CANOPY_AMO_ADD, (uint64_t)value, \
                     0, pe);                                                               \
    }                                                                                      \
    void shmem_ctx_##N##_atomic_fetch_add_nbi(shmem_ctx_t ctx, T *fetch, T *dest, T value, int pe) \
    {                                                                                      \
        const char *c = "shmem_ctx_" #N "_atomic_fetch_add_nbi";                           \
        shmi_amo_nbi(c, fetch, dest, sizeof(T), CANOPY_AMO_ADD, (uint64_t)value, 0, shmi_ctx_pe(c, ctx, pe)); \
    }
SHMEMI_AMO_STD_TYPES(DEF_AMO_STD)

#define DEF_AMO_BIT1(T, N, NAME, OPC)                                                      \
    T shmem_##N##_atomic_fetch_##NAME(T *dest, T value, int pe)                            \
    {                                                                                      \
        return (T)shmi_amo("shmem_" #N "_atomic_fetch_" #NAME, dest, sizeof(T), OPC, (uint64_t)value, 0, pe); \
    }                                                                                      \
    T shmem_ctx_##N##_atomic_fetch_##NAME(shmem_ctx_t ctx, T *dest, T value, int pe)       \
    {                                                                                      \
        const char *c = "shmem_ctx_" #N "_atomic_fetch_" #NAME;                            \
        return (T)shmi_amo(c, dest, sizeof(T), OPC, (uint64_t)value, 0, shmi_ctx_pe(c, ctx, pe)); \
    }                                                                                      \
    void shmem_##N##_atomic_##NAME(T *dest, T value, int pe)                               \
    {                                                                                      \
        shmi_amo_nbi("shmem_" #N "_atomic_" #NAME, NULL, dest, sizeof(T), OPC, (uint64_t)value, 0, pe); \
    }                                                                                      \
    void shmem_ctx_##N##_atomic_##NAME(shmem_ctx_t ctx, T *dest, T value, int pe)          \
    {                                                                                      \
        const char *c = "shmem_ctx_" #N "_atomic_" #NAME;                                  \
        shmi_amo_nbi(c, NULL, dest, sizeof(T), OPC, (uint64_t)value, 0, shmi_ctx_pe(c, ctx, pe)); \
    }                                                                                      \
    void shmem_##N##_atomic_fetch_##NAME##_nbi(T *fetch, T *dest, T value, int pe)         \
    {                                                                                      \
        shmi_amo_nbi("shmem_" #N "_atomic_fetch_" #NAME "_nbi", fetch, dest, sizeof(T), OPC, (uint64_t)value, 0, pe); \
    }                                                                                      \
    void shmem_ctx_##N##_atomic_fetch_##NAME##_nbi(shmem_ctx_t ctx, T *fetch, T *dest, T value, int pe) \
    {                                                                                      \
        const char *c = "shmem_ctx_" #N "_atomic_fetch_" #NAME "_nbi";                     \
        shmi_amo_nbi(c, fetch, dest, sizeof(T), OPC, (uint64_t)value, 0, shmi_ctx_pe(c, ctx, pe)); \
    }
#define DEF_AMO_BITWISE(T, N)                                                              \
    DEF_AMO_BIT1(T, N, and, CANOPY_AMO_AND) DEF_AMO_BIT1(T, N, or, CANOPY_AMO_OR) DEF_AMO_BIT1(T, N, xor, CANOPY_AMO_XOR)
SHMEMI_AMO_BITWISE_TYPES(DEF_AMO_BITWISE)

/* ------------------------------------------------------------------ deprecated names */
#define DEF_AMO_DEPR_EXT(T, N)                                                             \
    T shmem_##N##_fetch(const T *source, int pe)                                           \
    {                                                                                      \
        return FROM_BITS(T, shmi_amo("shmem_" #N "_fetch", (void *)(uintptr_t)source, sizeof(T), CANOPY_AMO_FETCH, \
                                     0, 0, pe));                                           \
    }                                                                                      \
    void shmem_##N##_set(T *dest, T value, int pe)                                         \
    {                                                                                      \
        shmi_amo_nbi("shmem_" #N "_set", NULL, dest, sizeof(T), CANOPY_AMO_SET, to_bits(&value, sizeof(T)), 0, pe); \
    }                                                                                      \
    T shmem_##N##_swap(T *dest, T value, int pe)                                           \
    {                                                                                      \
        return FROM_BITS(T, shmi_amo("shmem_" #N "_swap", dest, sizeof(T), CANOPY_AMO_SET, \
                                     to_bits(&value, sizeof(T)), 0, pe));                  \
    }
SHMEMI_AMO_DEPR_EXT_TYPES(DEF_AMO_DEPR_EXT)

#define DEF_AMO_DEPR(T, N)                                                                 \
    T shmem_##N##_cswap(T *dest, T cond, T value, int pe)                                  \
    {                                                                                      \
        return (T)shmi_amo("shmem_" #N "_cswap", dest, sizeof(T), CANOPY_AMO_CSWAP, (uint64_t)value, \
                           (uint64_t)cond, pe);                                            \
    }                                                                                      \
    T shmem_##N##_finc(T *dest, int pe)                                                    \
    {                                                                                      \
        return (T)shmi_amo("shmem_" #N "_finc", dest, sizeof(T), CANOPY_AMO_ADD, 1, 0, pe); \
    }                                                                                      \
    void shmem_##N##_inc(T *dest, int pe)                                                  \
    {                                                                                      \
        shmi_amo_nbi("shmem_" #N "_inc", NULL, dest, sizeof(T), CANOPY_AMO_ADD, 1, 0, pe); \
    }                                                                                      \
    T shmem_##N##_fadd(T *dest, T value, int pe)                                           \
    {                                                                                      \
        return (T)shmi_amo("shmem_" #N "_fadd", dest, sizeof(T), CANOPY_AMO_ADD, (uint64_t)value, 0, pe); \
    }                                                                                      \
    void shmem_##N##_add(T *dest, T value, int pe)                                         \
    {                                                                                      \
        shmi_amo_nbi("shmem_" #N "_add", NULL, dest, sizeof(T), CANOPY_AMO_ADD, (uint64_t)value, 0, pe); \
    }
SHMEMI_AMO_DEPR_TYPES(DEF_AMO_DEPR)

long (shmem_swap)(long *dest, long value, int pe)
{
    return (long)shmi_amo("shmem_swap", dest, sizeof(long), CANOPY_AMO_SET, (uint64_t)value, 0, pe);
}

/* ------------------------------------------------------------------ locks */
enum { LOCK_WAITING = 0x80000000u, LOCK_NEXT = 0x7fffffffu };

static void lock_check(const char *call, long *lock, uint64_t *off)
{
    shmi_require_init(call);
    *off = shmi_sym(call, lock, sizeof *lock);
    if (*off % 8) shmi_fatal(call, "lock %p is not aligned to 8 bytes", (void *)lock);
}

/* The lock's home PE (holds the queue's tail): spread by the word's symmetric offset. */
static int lock_home(uint64_t off) { return (int)((off / 8) % (uint64_t)shmi.npes); }
static uint32_t *my_node(long *lock) { return (uint32_t *)lock + 1; }

static void lock_acquire_queued(const char *call, long *lock, uint64_t off, int prev)
{
    /* Link behind prev (its node's successor bits were 0: it set them so itself), then
     * wait for prev's hand-over. */
    shmi_amo(call, my_node(lock), 4, CANOPY_AMO_OR, (uint32_t)(shmi.me + 1), 0, prev);
    const volatile uint64_t *w = (const volatile uint64_t *)shmi_local(off);
    for (;;) {
        const uint64_t cur = *w;
        if (!((uint32_t)(cur >> 32) & LOCK_WAITING)) return;
        shmi_wait_u64(call, w, CANOPY_CMP_NE, cur);
    }
}

void shmem_set_lock(long *lock)
{
    const char *call = "shmem_set_lock";
    SHMI_LOCKED;
    uint64_t off;
    lock_check(call, lock, &off);
    void *tail = lock; /* the symmetric address: its low half at the home PE */
    /* My node: waiting, no successor (blocking: done before anyone can link to me). */
    shmi_amo(call, my_node(lock), 4, CANOPY_AMO_SET, LOCK_WAITING, 0, shmi.me);
    const uint32_t prev = (uint32_t)shmi_amo(call, tail, 4, CANOPY_AMO_SET, (uint32_t)(shmi.me + 1), 0, lock_home(off));
    if (prev) lock_acquire_queued(call, lock, off, (int)prev - 1);
}

int shmem_test_lock(long *lock)
{
    const char *call = "shmem_test_lock";
    SHMI_LOCKED;
    uint64_t off;
    lock_check(call, lock, &off);
    shmi_amo(call, my_node(lock), 4, CANOPY_AMO_SET, LOCK_WAITING, 0, shmi.me);
    const uint32_t prev =
        (uint32_t)shmi_amo(call, lock, 4, CANOPY_AMO_CSWAP, (uint32_t)(shmi.me + 1), 0, lock_home(off));
    return prev == 0 ? 0 : 1;
}

void shmem_clear_lock(long *lock)
{
    const char *call = "shmem_clear_lock";
    SHMI_LOCKED;
    uint64_t off;
    lock_check(call, lock, &off);
    /* Earlier puts and atomics complete before the next holder can see the lock. */
    shmi_quiet(call);
    const volatile uint64_t *w = (const volatile uint64_t *)shmi_local(off);
    uint32_t next = (uint32_t)(*w >> 32) & LOCK_NEXT;
    if (!next) {
        const uint32_t me1 = (uint32_t)(shmi.me + 1);
        const uint32_t was = (uint32_t)shmi_amo(call, lock, 4, CANOPY_AMO_CSWAP, 0, me1, lock_home(off));
        if (was == me1) return; /* nobody waiting: free */
        if (was == 0) shmi_fatal(call, "lock %p is not held (cleared without shmem_set_lock or shmem_test_lock)", (void *)lock);
        /* A successor swapped itself in and is linking to me. */
        for (;;) {
            const uint64_t cur = *w;
            if ((next = (uint32_t)(cur >> 32) & LOCK_NEXT)) break;
            shmi_wait_u64(call, w, CANOPY_CMP_NE, cur);
        }
    }
    if (next > (uint32_t)shmi.npes) shmi_fatal(call, "lock %p holds a corrupt queue (successor %u)", (void *)lock, next);
    /* Hand over: clear the successor's waiting bit (its successor bits may change meanwhile). */
    shmi_amo(call, my_node(lock), 4, CANOPY_AMO_AND, ~(uint64_t)LOCK_WAITING, 0, (int)next - 1);
}

/* ------------------------------------------------------------------ signals */
static void put_signal(const char *call, void *dest, const void *src, size_t len, uint64_t *sig_addr,
                       uint64_t signal, int sig_op, int pe)
{
    SHMI_LOCKED;
    shmi_check_pe(call, pe);
    if (sig_op != SHMEM_SIGNAL_SET && sig_op != SHMEM_SIGNAL_ADD)
        shmi_fatal(call, "invalid sig_op %d (use SHMEM_SIGNAL_SET or SHMEM_SIGNAL_ADD)", sig_op);
    const uint64_t soff = shmi_sym(call, sig_addr, 8);
    if (soff % 8) shmi_fatal(call, "sig_addr %p is not aligned to 8 bytes", (void *)sig_addr);
    const int64_t doff = len ? shmi_offset(dest, len) : 0;
    if (doff >= 0 && len && doff < (int64_t)soff + 8 && (int64_t)soff < doff + (int64_t)len)
        shmi_fatal(call, "the signal word overlaps the destination");
    /* The data first: the target does an atomic only once every DMA write that reached it
     * before has landed, and puts from here arrive in order, so the signal is never seen
     * before the data. */
    shmi_put(call, dest, src, len, pe);
    shmi_amo_nbi(call, NULL, sig_addr, 8, sig_op == SHMEM_SIGNAL_SET ? CANOPY_AMO_SET : CANOPY_AMO_ADD, signal, 0, pe);
}

#define DEF_PUT_SIGNAL(T, N)                                                               \
    void shmem_##N##_put_signal(T *dest, const T *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, \
                                int sig_op, int pe)                                        \
    {                                                                                      \
        put_signal("shmem_" #N "_put_signal", dest, source, nelems * sizeof(T), sig_addr, signal, sig_op, pe); \
    }                                                                                      \
    void shmem_##N##_put_signal_nbi(T *dest, const T *source, size_t nelems, uint64_t *sig_addr, \
                                    uint64_t signal, int sig_op, int pe)                   \
    {                                                                                      \
        put_signal("shmem_" #N "_put_signal_nbi", dest, source, nelems * sizeof(T), sig_addr, signal, sig_op, pe); \
    }                                                                                      \
    void shmem_ctx_##N##_put_signal(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, uint64_t *sig_addr, \
                                    uint64_t signal, int sig_op, int pe)                   \
    {                                                                                      \
        const char *c = "shmem_ctx_" #N "_put_signal";                                     \
        put_signal(c, dest, source, nelems * sizeof(T), sig_addr, signal, sig_op, shmi_ctx_pe(c, ctx, pe)); \
    }                                                                                      \
    void shmem_ctx_##N##_put_signal_nbi(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, \
                                        uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) \
    {                                                                                      \
        const char *c = "shmem_ctx_" #N "_put_signal_nbi";                                 \
        put_signal(c, dest, source, nelems * sizeof(T), sig_addr, signal, sig_op, shmi_ctx_pe(c, ctx, pe)); \
    }
SHMEMI_RMA_TYPES(DEF_PUT_SIGNAL)

#define DEF_PUT_SIGNAL_SIZED(B)                                                            \
    void shmem_put##B##_signal(void *dest, const void *source, size_t nelems, uint64_t *sig_addr, \
                               uint64_t signal, int sig_op, int pe)                        \
    {                                                                                      \
        put_signal("shmem_put" #B "_signal", dest, source, nelems * (B / 8), sig_addr, signal, sig_op, pe); \
    }                                                                                      \
    void shmem_put##B##_signal_nbi(void *dest, const void *source, size_t nelems, uint64_t *sig_addr, \
                                   uint64_t signal, int sig_op, int pe)                    \
    {                                                                                      \
        put_signal("shmem_put" #B "_signal_nbi", dest, source, nelems * (B / 8), sig_addr, signal, sig_op, pe); \
    }                                                                                      \
    void shmem_ctx_put##B##_signal(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, \
                                   uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) \
    {                                                                                      \
        const char *c = "shmem_ctx_put" #B "_signal";                                      \
        put_signal(c, dest, source, nelems * (B / 8), sig_addr, signal, sig_op, shmi_ctx_pe(c, ctx, pe)); \
    }                                                                                      \
    void shmem_ctx_put##B##_signal_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, \
                                       uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) \
    {                                                                                      \
        const char *c = "shmem_ctx_put" #B "_signal_nbi";                                  \
        put_signal(c, dest, source, nelems * (B / 8), sig_addr, signal, sig_op, shmi_ctx_pe(c, ctx, pe)); \
    }
SHMEMI_SIZES(DEF_PUT_SIGNAL_SIZED)

void shmem_putmem_signal(void *dest, const void *source, size_t nelems, uint64_t *sig_addr, uint64_t signal,
                         int sig_op, int pe)
{
    put_signal("shmem_putmem_signal", dest, source, nelems, sig_addr, signal, sig_op, pe);
}
void shmem_putmem_signal_nbi(void *dest, const void *source, size_t nelems, uint64_t *sig_addr, uint64_t signal,
                             int sig_op, int pe)
{
    put_signal("shmem_putmem_signal_nbi", dest, source, nelems, sig_addr, signal, sig_op, pe);
}
void shmem_ctx_putmem_signal(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, uint64_t *sig_addr,
                             uint64_t signal, int sig_op, int pe)
{
    const char *c = "shmem_ctx_putmem_signal";
    put_signal(c, dest, source, nelems, sig_addr, signal, sig_op, shmi_ctx_pe(c, ctx, pe));
}
void shmem_ctx_putmem_signal_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems,
                                 uint64_t *sig_addr, uint64_t signal, int sig_op, int pe)
{
    const char *c = "shmem_ctx_putmem_signal_nbi";
    put_signal(c, dest, source, nelems, sig_addr, signal, sig_op, shmi_ctx_pe(c, ctx, pe));
}

/* The signal word is this PE's: the device writes it whole (an 8-byte aligned store), so a
 * load sees one value or the other. A loop that fetches until the value changes must let
 * the device run: a fetch that would return what the last one did waits a moment first
 * (shmi_poll). */
uint64_t shmem_signal_fetch(const uint64_t *sig_addr)
{
    const char *call = "shmem_signal_fetch";
    SHMI_LOCKED;
    shmi_require_init(call);
    const uint64_t off = shmi_sym(call, sig_addr, 8);
    if (off % 8) shmi_fatal(call, "sig_addr %p is not aligned to 8 bytes", (const void *)sig_addr);
    const volatile uint64_t *w = (const volatile uint64_t *)shmi_local(off);
    shmi_poll(call, off, *w);
    return *w;
}

uint64_t shmem_signal_wait_until(uint64_t *sig_addr, int cmp, uint64_t cmp_value)
{
    const char *call = "shmem_signal_wait_until";
    SHMI_LOCKED;
    shmi_require_init(call);
    if (cmp < SHMEM_CMP_EQ || cmp > SHMEM_CMP_LE)
        shmi_fatal(call, "invalid comparison %d (use SHMEM_CMP_EQ, _NE, _GT, _GE, _LT or _LE)", cmp);
    const uint64_t off = shmi_sym(call, sig_addr, 8);
    if (off % 8) shmi_fatal(call, "sig_addr %p is not aligned to 8 bytes", (void *)sig_addr);
    const volatile uint64_t *w = (const volatile uint64_t *)shmi_local(off);
    /* CANOPY_CMP_* and SHMEM_CMP_* are the same numbers (unsigned 64-bit comparisons). */
    shmi_wait_u64(call, w, cmp, cmp_value);
    return *w;
}

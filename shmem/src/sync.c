/* sync.c: point-to-point synchronization (shmem_TYPE_wait_until, _test, the _all/_any/_some
 * families and their _vector forms, the deprecated shmem_wait*), the barrier / sync entry
 * points (shmem_barrier_all, shmem_barrier, shmem_sync_all, shmem_sync, shmem_team_sync),
 * and the library's waiting and threading machinery.
 *
 * Waiting never spins against the simulator: one variable is waited on through its
 * containing aligned 64-bit word with canopy_wait_u64 (the co-simulation resumes the PE
 * when the word changes); several at once, with canopy_wait_any (resumed at the device's
 * next write into this PE's memory); the comparison of the actual type is evaluated again
 * each time. A test (shmem_TYPE_test*) that finds its condition false lets the device make
 * progress for a moment (canopy_wait_any with a short timeout) and looks again before it
 * returns: a loop of tests then sees the puts it waits for land, as a loop of plain loads
 * would on a real machine. A variable that is a global is watched through its window
 * address (the same memory, shmi_local).
 *
 * Threads (SHMEM_THREAD_MULTIPLE): one recursive lock serializes the library (every entry
 * point takes it, SHMI_LOCKED); a wait gives it up between slices of SLICE_NS of device
 * time, so other threads of the PE can go on (one of them may be what the wait waits for).
 */
#include <pthread.h>
#include <sched.h>
#include <string.h>

#include "shmem_internal.h"

#define SLICE_NS 2000ull       /* MULTIPLE: device time a wait holds the lock at most */
#define TEST_PROGRESS_NS 500ull /* a false test lets the device run this long (or to its next write) */

/* ------------------------------------------------------------------ the lock */
static pthread_mutex_t big_lock;
static pthread_once_t big_lock_once = PTHREAD_ONCE_INIT;
static __thread int lock_depth;

static void big_lock_init(void)
{
    pthread_mutexattr_t a;
    pthread_mutexattr_init(&a);
    pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&big_lock, &a);
    pthread_mutexattr_destroy(&a);
}

int shmi_lock_enter(void)
{
    if (shmi.thread_level != SHMEM_THREAD_MULTIPLE) return 0;
    pthread_once(&big_lock_once, big_lock_init);
    pthread_mutex_lock(&big_lock);
    ++lock_depth;
    return 1;
}

void shmi_lock_leave(int *held)
{
    if (!*held) return;
    --lock_depth;
    pthread_mutex_unlock(&big_lock);
}

void shmi_lock_yield(void)
{
    if (shmi.thread_level != SHMEM_THREAD_MULTIPLE || lock_depth == 0) return;
    const int depth = lock_depth;
    for (int i = 0; i < depth; ++i) pthread_mutex_unlock(&big_lock);
    lock_depth = 0;
    sched_yield();
    for (int i = 0; i < depth; ++i) pthread_mutex_lock(&big_lock);
    lock_depth = depth;
}

static int multiple(void) { return shmi.thread_level == SHMEM_THREAD_MULTIPLE && lock_depth > 0; }

void shmi_wait_u64(const char *call, const volatile uint64_t *w, int cmp, uint64_t v)
{
    for (;;) {
        int rc = canopy_wait_u64(shmi.dev, w, cmp, v, multiple() ? SLICE_NS : SHMI_TIMEOUT_NS);
        if (rc == CANOPY_OK) return;
        if (rc != CANOPY_ETIMEDOUT) shmi_check(call, "canopy_wait_u64", rc);
        shmi_lock_yield();
    }
}

void shmi_progress(const char *call, uint64_t timeout_ns)
{
    if (multiple() && timeout_ns > SLICE_NS) timeout_ns = SLICE_NS;
    int rc = canopy_wait_any(shmi.dev, timeout_ns);
    if (rc != CANOPY_OK && rc != CANOPY_ETIMEDOUT) shmi_check(call, "canopy_wait_any", rc);
    shmi_lock_yield();
}

int shmi_coll_wait(struct canopy_coll *c)
{
    for (;;) {
        int rc = canopy_coll_wait(shmi.dev, c, multiple() ? SLICE_NS : SHMI_TIMEOUT_NS);
        if (rc != CANOPY_ETIMEDOUT || !multiple()) return rc;
        shmi_lock_yield();
    }
}

void shmi_poll(const char *call, uint64_t off, uint64_t value)
{
    static uint64_t last_off = UINT64_MAX, last_value;
    if (off == last_off && value == last_value) shmi_progress(call, TEST_PROGRESS_NS);
    last_off = off;
    last_value = value;
}

void shmi_wait_word(uint64_t off, int cmp, uint64_t value)
{
    shmi_wait_u64("shmem (internal wait)", (const volatile uint64_t *)shmi_local(off), cmp, value);
}

/* ------------------------------------------------------------------ comparisons */
static void check_cmp(const char *call, int cmp)
{
    if (cmp < SHMEM_CMP_EQ || cmp > SHMEM_CMP_LE)
        shmi_fatal(call, "invalid comparison %d (use SHMEM_CMP_EQ, _NE, _GT, _GE, _LT or _LE)", cmp);
}

#define HOLDS(x, cmp, v)                                                                   \
    ((cmp) == SHMEM_CMP_EQ ? (x) == (v) : (cmp) == SHMEM_CMP_NE ? (x) != (v)               \
     : (cmp) == SHMEM_CMP_GT ? (x) > (v) : (cmp) == SHMEM_CMP_GE ? (x) >= (v)              \
     : (cmp) == SHMEM_CMP_LT ? (x) < (v) : (x) <= (v))

/* The vector routines' arrays: symmetric (remotely updated), the same check as one variable. */
static uint64_t ivars_off(const char *call, const void *ivars, size_t nelems, size_t size)
{
    shmi_require_init(call);
    if (nelems && !ivars) shmi_fatal(call, "ivars is NULL");
    if (nelems > SIZE_MAX / size) shmi_fatal(call, "nelems %zu is too large", nelems);
    return nelems ? shmi_sym(call, ivars, nelems * size) : 0;
}

/* One round of waiting for any of several variables: until the device writes something. */
static void wait_round(const char *call) { shmi_progress(call, SHMI_TIMEOUT_NS); }

#define DEF_WAIT(T, N)                                                                     \
    void shmem_##N##_wait_until(T *ivar, int cmp, T cmp_value)                             \
    {                                                                                      \
        const char *call = "shmem_" #N "_wait_until";                                      \
        SHMI_LOCKED;                                                                       \
        shmi_require_init(call);                                                           \
        check_cmp(call, cmp);                                                              \
        uint64_t off = shmi_sym(call, ivar, sizeof(T));                                    \
        uint64_t word = off & ~(uint64_t)7;                                                \
        for (;;) {                                                                         \
            /* The word first: a change after this read ends the wait below at once. */   \
            uint64_t w = *(volatile uint64_t *)shmi_local(word);                           \
            T x = *(volatile T *)shmi_local(off);                                          \
            if (HOLDS(x, cmp, cmp_value)) return;                                          \
            shmi_wait_u64(call, (const volatile uint64_t *)shmi_local(word), CANOPY_CMP_NE, w); \
        }                                                                                  \
    }                                                                                      \
    int shmem_##N##_test(T *ivar, int cmp, T cmp_value)                                    \
    {                                                                                      \
        const char *call = "shmem_" #N "_test";                                            \
        SHMI_LOCKED;                                                                       \
        shmi_require_init(call);                                                           \
        check_cmp(call, cmp);                                                              \
        uint64_t off = shmi_sym(call, ivar, sizeof(T));                                    \
        T x = *(volatile T *)shmi_local(off);                                              \
        if (HOLDS(x, cmp, cmp_value)) return 1;                                            \
        shmi_progress(call, TEST_PROGRESS_NS);                                             \
        x = *(volatile T *)shmi_local(off);                                                \
        return HOLDS(x, cmp, cmp_value) ? 1 : 0;                                           \
    }                                                                                      \
    /* The families: element i takes part unless status[i] is nonzero; VAL(i) is what it  \
     * is compared with. */                                                                \
    static size_t N##_scan(const char *call, T *ivars, size_t nelems, size_t *indices, const int *status, \
                           int cmp, T cmp_value, const T *cmp_values, int want_all, size_t *active) \
    {                                                                                      \
        const uint64_t off = ivars_off(call, ivars, nelems, sizeof(T));                    \
        const volatile T *v = (const volatile T *)shmi_local(off);                         \
        size_t n = 0, act = 0;                                                             \
        /* _any: fair, from after the index the previous _any call returned (shmi) */       \
        const size_t first = !indices && !want_all && nelems ? shmi.any_next % nelems : 0; \
        for (size_t j = 0; j < nelems; ++j) {                                              \
            const size_t i = (first + j) % nelems;                                         \
            if (status && status[i]) continue;                                             \
            ++act;                                                                         \
            const T want = cmp_values ? cmp_values[i] : cmp_value;                        \
            const T x = v[i];                                                              \
            if (HOLDS(x, cmp, want)) {                                                     \
                if (indices) indices[n] = i;                                               \
                ++n;                                                                       \
                if (!indices && !want_all) { /* any: this one (1-based here) */            \
                    shmi.any_next = i + 1;                                                 \
                    return i + 1;                                                          \
                }                                                                          \
            }                                                                              \
        }                                                                                  \
        *active = act;                                                                     \
        return want_all ? (n == act) : indices ? n : 0;                                    \
    }                                                                                      \
    static void N##_all(const char *call, T *ivars, size_t nelems, const int *status, int cmp, T cmp_value, \
                        const T *cmp_values, int block)                                    \
    {                                                                                      \
        size_t act;                                                                        \
        while (!N##_scan(call, ivars, nelems, NULL, status, cmp, cmp_value, cmp_values, 1, &act) && block) \
            wait_round(call);                                                              \
    }                                                                                      \
    void shmem_##N##_wait_until_all(T *ivars, size_t nelems, const int *status, int cmp, T cmp_value) \
    {                                                                                      \
        const char *call = "shmem_" #N "_wait_until_all";                                  \
        SHMI_LOCKED;                                                                       \
        check_cmp(call, cmp);                                                              \
        N##_all(call, ivars, nelems, status, cmp, cmp_value, NULL, 1);                     \
    }                                                                                      \
    void shmem_##N##_wait_until_all_vector(T *ivars, size_t nelems, const int *status, int cmp, T *cmp_values) \
    {                                                                                      \
        const char *call = "shmem_" #N "_wait_until_all_vector";                           \
        SHMI_LOCKED;                                                                       \
        check_cmp(call, cmp);                                                              \
        if (nelems && !cmp_values) shmi_fatal(call, "cmp_values is NULL");                 \
        N##_all(call, ivars, nelems, status, cmp, 0, cmp_values, 1);                       \
    }                                                                                      \
    static size_t N##_any(const char *call, T *ivars, size_t nelems, const int *status, int cmp, T cmp_value, \
                          const T *cmp_values, int block)                                  \
    {                                                                                      \
        for (;;) {                                                                         \
            size_t act = 0;                                                                \
            const size_t i = N##_scan(call, ivars, nelems, NULL, status, cmp, cmp_value, cmp_values, 0, &act); \
            if (i) return i - 1;                                                           \
            if (!act) return SIZE_MAX; /* nothing to wait for */                           \
            if (!block) return SIZE_MAX;                                                   \
            wait_round(call);                                                              \
        }                                                                                  \
    }                                                                                      \
    size_t shmem_##N##_wait_until_any(T *ivars, size_t nelems, const int *status, int cmp, T cmp_value) \
    {                                                                                      \
        const char *call = "shmem_" #N "_wait_until_any";                                  \
        SHMI_LOCKED;                                                                       \
        check_cmp(call, cmp);                                                              \
        return N##_any(call, ivars, nelems, status, cmp, cmp_value, NULL, 1);              \
    }                                                                                      \
    size_t shmem_##N##_wait_until_any_vector(T *ivars, size_t nelems, const int *status, int cmp, T *cmp_values) \
    {                                                                                      \
        const char *call = "shmem_" #N "_wait_until_any_vector";                           \
        SHMI_LOCKED;                                                                       \
        check_cmp(call, cmp);                                                              \
        if (nelems && !cmp_values) shmi_fatal(call, "cmp_values is NULL");                 \
        return N##_any(call, ivars, nelems, status, cmp, 0, cmp_values, 1);                \
    }                                                                                      \
    static size_t N##_some(const char *call, T *ivars, size_t nelems, size_t *indices, const int *status, \
                           int cmp, T cmp_value, const T *cmp_values, int block)           \
    {                                                                                      \
        if (nelems && !indices) shmi_fatal(call, "indices is NULL");                       \
        for (;;) {                                                                         \
            size_t act = 0;                                                                \
            const size_t n = N##_scan(call, ivars, nelems, indices, status, cmp, cmp_value, cmp_values, 0, &act); \
            if (n || !act || !block) return n;                                             \
            wait_round(call);                                                              \
        }                                                                                  \
    }                                                                                      \
    size_t shmem_##N##_wait_until_some(T *ivars, size_t nelems, size_t *indices, const int *status, int cmp, \
                                       T cmp_value)                                        \
    {                                                                                      \
        const char *call = "shmem_" #N "_wait_until_some";                                 \
        SHMI_LOCKED;                                                                       \
        check_cmp(call, cmp);                                                              \
        return N##_some(call, ivars, nelems, indices, status, cmp, cmp_value, NULL, 1);    \
    }                                                                                      \
    size_t shmem_##N##_wait_until_some_vector(T *ivars, size_t nelems, size_t *indices, const int *status, \
                                              int cmp, T *cmp_values)                      \
    {                                                                                      \
        const char *call = "shmem_" #N "_wait_until_some_vector";                          \
        SHMI_LOCKED;                                                                       \
        check_cmp(call, cmp);                                                              \
        if (nelems && !cmp_values) shmi_fatal(call, "cmp_values is NULL");                 \
        return N##_some(call, ivars, nelems, indices, status, cmp, 0, cmp_values, 1);      \
    }                                                                                      \
    /* Tests: look; if false, let the device run a moment and look again. */              \
    int shmem_##N##_test_all(T *ivars, size_t nelems, const int *status, int cmp, T cmp_value) \
    {                                                                                      \
        const char *call = "shmem_" #N "_test_all";                                        \
        SHMI_LOCKED;                                                                       \
        check_cmp(call, cmp);                                                              \
        size_t act;                                                                        \
        if (N##_scan(call, ivars, nelems, NULL, status, cmp, cmp_value, NULL, 1, &act)) return 1; \
        shmi_progress(call, TEST_PROGRESS_NS);                                             \
        return N##_scan(call, ivars, nelems, NULL, status, cmp, cmp_value, NULL, 1, &act) ? 1 : 0; \
    }                                                                                      \
    int shmem_##N##_test_all_vector(T *ivars, size_t nelems, const int *status, int cmp, T *cmp_values) \
    {                                                                                      \
        const char *call = "shmem_" #N "_test_all_vector";                                 \
        SHMI_LOCKED;                                                                       \
        check_cmp(call, cmp);                                                              \
        if (nelems && !cmp_values) shmi_fatal(call, "cmp_values is NULL");                 \
        size_t act;                                                                        \
        if (N##_scan(call, ivars, nelems, NULL, status, cmp, 0, cmp_values, 1, &act)) return 1; \
        shmi_progress(call, TEST_PROGRESS_NS);                                             \
        return N##_scan(call, ivars, nelems, NULL, status, cmp, 0, cmp_values, 1, &act) ? 1 : 0; \
    }                                                                                      \
    size_t shmem_##N##_test_any(T *ivars, size_t nelems, const int *status, int cmp, T cmp_value) \
    {                                                                                      \
        const char *call = "shmem_" #N "_test_any";                                        \
        SHMI_LOCKED;                                                                       \
        check_cmp(call, cmp);                                                              \
        size_t i = N##_any(call, ivars, nelems, status, cmp, cmp_value, NULL, 0);          \
        if (i != SIZE_MAX) return i;                                                       \
        shmi_progress(call, TEST_PROGRESS_NS);                                             \
        return N##_any(call, ivars, nelems, status, cmp, cmp_value, NULL, 0);              \
    }                                                                                      \
    size_t shmem_##N##_test_any_vector(T *ivars, size_t nelems, const int *status, int cmp, T *cmp_values) \
    {                                                                                      \
        const char *call = "shmem_" #N "_test_any_vector";                                 \
        SHMI_LOCKED;                                                                       \
        check_cmp(call, cmp);                                                              \
        if (nelems && !cmp_values) shmi_fatal(call, "cmp_values is NULL");                 \
        size_t i = N##_any(call, ivars, nelems, status, cmp, 0, cmp_values, 0);            \
        if (i != SIZE_MAX) return i;                                                       \
        shmi_progress(call, TEST_PROGRESS_NS);                                             \
        return N##_any(call, ivars, nelems, status, cmp, 0, cmp_values, 0);                \
    }                                                                                      \
    size_t shmem_##N##_test_some(T *ivars, size_t nelems, size_t *indices, const int *status, int cmp, \
                                 T cmp_value)                                              \
    {                                                                                      \
        const char *call = "shmem_" #N "_test_some";                                       \
        SHMI_LOCKED;                                                                       \
        check_cmp(call, cmp);                                                              \
        size_t n = N##_some(call, ivars, nelems, indices, status, cmp, cmp_value, NULL, 0); \
        if (n) return n;                                                                   \
        shmi_progress(call, TEST_PROGRESS_NS);                                             \
        return N##_some(call, ivars, nelems, indices, status, cmp, cmp_value, NULL, 0);    \
    }                                                                                      \
    size_t shmem_##N##_test_some_vector(T *ivars, size_t nelems, size_t *indices, const int *status, int cmp, \
                                        T *cmp_values)                                     \
    {                                                                                      \
        const char *call = "shmem_" #N "_test_some_vector";                                \
        SHMI_LOCKED;                                                                       \
        check_cmp(call, cmp);                                                              \
        if (nelems && !cmp_values) shmi_fatal(call, "cmp_values is NULL");                 \
        size_t n = N##_some(call, ivars, nelems, indices, status, cmp, 0, cmp_values, 0);  \
        if (n) return n;                                                                   \
        shmi_progress(call, TEST_PROGRESS_NS);                                             \
        return N##_some(call, ivars, nelems, indices, status, cmp, 0, cmp_values, 0);      \
    }
SHMEMI_SYNC_TYPES(DEF_WAIT)

/* The deprecated forms (the C11 generic shmem_wait_until macro is not in the way here:
 * the parentheses stop its expansion). */
void (shmem_wait_until)(long *ivar, int cmp, long cmp_value) { shmem_long_wait_until(ivar, cmp, cmp_value); }
void shmem_wait(long *ivar, long cmp_value) { shmem_long_wait_until(ivar, SHMEM_CMP_NE, cmp_value); }
void shmem_short_wait(short *ivar, short cmp_value) { shmem_short_wait_until(ivar, SHMEM_CMP_NE, cmp_value); }
void shmem_int_wait(int *ivar, int cmp_value) { shmem_int_wait_until(ivar, SHMEM_CMP_NE, cmp_value); }
void shmem_long_wait(long *ivar, long cmp_value) { shmem_long_wait_until(ivar, SHMEM_CMP_NE, cmp_value); }
void shmem_longlong_wait(long long *ivar, long long cmp_value)
{
    shmem_longlong_wait_until(ivar, SHMEM_CMP_NE, cmp_value);
}

/* ------------------------------------------------------------------ barriers */
void shmem_barrier_all(void)
{
    SHMI_LOCKED;
    shmi_require_init("shmem_barrier_all");
    shmi_barrier(&shmi.world.g, 1);
}

void shmem_sync_all(void)
{
    SHMI_LOCKED;
    shmi_require_init("shmem_sync_all");
    shmi_barrier(&shmi.world.g, 0);
}

void shmem_barrier(int PE_start, int logPE_stride, int PE_size, long *pSync)
{
    SHMI_LOCKED;
    (void)pSync; /* not used: see SHMEM_BARRIER_SYNC_SIZE in shmem.h */
    shmi_barrier(shmi_aset_group("shmem_barrier", PE_start, logPE_stride, PE_size), 1);
}

/* (Parentheses: under C11 shmem_sync is also the generic macro of shmem_sync(team).) */
void (shmem_sync)(int PE_start, int logPE_stride, int PE_size, long *pSync)
{
    SHMI_LOCKED;
    (void)pSync;
    shmi_barrier(shmi_aset_group("shmem_sync", PE_start, logPE_stride, PE_size), 0);
}

int shmem_team_sync(shmem_team_t team)
{
    SHMI_LOCKED;
    shmi_require_init("shmem_team_sync");
    struct shmemi_team *t = shmi_team("shmem_team_sync", team);
    if (!t) return -1;
    shmi_barrier(&t->g, 0);
    return 0;
}

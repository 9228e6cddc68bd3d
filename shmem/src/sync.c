/* sync.c: point-to-point synchronization (shmem_TYPE_wait_until, shmem_TYPE_test, the
 * deprecated shmem_wait*) and the barrier / sync entry points (shmem_barrier_all,
 * shmem_barrier, shmem_sync_all, shmem_sync, shmem_team_sync).
 *
 * Waiting never spins against the simulator: the variable's containing aligned 64-bit
 * word is watched with canopy_wait_u64 (the co-simulation resumes the PE when the word
 * changes), and the comparison of the actual type is re-evaluated each time. A variable
 * that is a global is watched through its window address (the same memory, shmi_local).
 */
#include <string.h>

#include "shmem_internal.h"

/* Block until the window word at word_off (8-aligned) differs from old. */
static void wait_change(uint64_t word_off, uint64_t old)
{
    const volatile uint64_t *w = (const volatile uint64_t *)shmi_local(word_off);
    for (;;) {
        int rc = canopy_wait_u64(shmi.dev, w, CANOPY_CMP_NE, old, SHMI_TIMEOUT_NS);
        if (rc == CANOPY_OK) return;
        if (rc != CANOPY_ETIMEDOUT) shmi_check("shmem_wait_until", "canopy_wait_u64", rc);
    }
}

void shmi_wait_word(uint64_t off, int cmp, uint64_t value)
{
    const volatile uint64_t *w = (const volatile uint64_t *)shmi_local(off);
    for (;;) {
        int rc = canopy_wait_u64(shmi.dev, w, cmp, value, SHMI_TIMEOUT_NS);
        if (rc == CANOPY_OK) return;
        if (rc != CANOPY_ETIMEDOUT) shmi_check("shmem (internal wait)", "canopy_wait_u64", rc);
    }
}

static void check_cmp(const char *call, int cmp)
{
    if (cmp < SHMEM_CMP_EQ || cmp > SHMEM_CMP_LE)
        shmi_fatal(call, "invalid comparison %d (use SHMEM_CMP_EQ, _NE, _GT, _GE, _LT or _LE)", cmp);
}

#define HOLDS(x, cmp, v)                                                                   \
    ((cmp) == SHMEM_CMP_EQ ? (x) == (v) : (cmp) == SHMEM_CMP_NE ? (x) != (v)               \
     : (cmp) == SHMEM_CMP_GT ? (x) > (v) : (cmp) == SHMEM_CMP_GE ? (x) >= (v)              \
     : (cmp) == SHMEM_CMP_LT ? (x) < (v) : (x) <= (v))

#define DEF_WAIT(T, N)                                                                     \
    void shmem_##N##_wait_until(T *ivar, int cmp, T cmp_value)                             \
    {                                                                                      \
        const char *call = "shmem_" #N "_wait_until";                                      \
        shmi_require_init(call);                                                           \
        check_cmp(call, cmp);                                                              \
        uint64_t off = shmi_sym(call, ivar, sizeof(T));                                    \
        uint64_t word = off & ~(uint64_t)7;                                                \
        for (;;) {                                                                         \
            /* The word first: a change after this read ends the wait below at once. */   \
            uint64_t w = *(volatile uint64_t *)shmi_local(word);                           \
            T x = *(volatile T *)shmi_local(off);                                          \
            if (HOLDS(x, cmp, cmp_value)) return;                                          \
            wait_change(word, w);                                                          \
        }                                                                                  \
    }                                                                                      \
    int shmem_##N##_test(T *ivar, int cmp, T cmp_value)                                    \
    {                                                                                      \
        const char *call = "shmem_" #N "_test";                                            \
        shmi_require_init(call);                                                           \
        check_cmp(call, cmp);                                                              \
        uint64_t off = shmi_sym(call, ivar, sizeof(T));                                    \
        T x = *(volatile T *)shmi_local(off);                                              \
        return HOLDS(x, cmp, cmp_value) ? 1 : 0;                                           \
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
    shmi_require_init("shmem_barrier_all");
    shmi_barrier(&shmi.world.g, 1);
}

void shmem_sync_all(void)
{
    shmi_require_init("shmem_sync_all");
    shmi_barrier(&shmi.world.g, 0);
}

void shmem_barrier(int PE_start, int logPE_stride, int PE_size, long *pSync)
{
    (void)pSync; /* not used: see SHMEM_BARRIER_SYNC_SIZE in shmem.h */
    shmi_barrier(shmi_aset_group("shmem_barrier", PE_start, logPE_stride, PE_size), 1);
}

void shmem_sync(int PE_start, int logPE_stride, int PE_size, long *pSync)
{
    (void)pSync;
    shmi_barrier(shmi_aset_group("shmem_sync", PE_start, logPE_stride, PE_size), 0);
}

int shmem_team_sync(shmem_team_t team)
{
    struct shmemi_team *t = shmi_team("shmem_team_sync", team);
    if (!t) return -1;
    shmi_barrier(&t->g, 0);
    return 0;
}

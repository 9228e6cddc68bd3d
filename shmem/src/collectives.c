/* collectives.c: the collective routines of the API, 1.5 teams (shmem_TYPE_broadcast,
 * _collect, _fcollect, _alltoall, _alltoalls, *mem, shmem_TYPE_OP_reduce) and 1.4 active
 * sets (broadcast32/64, collect32/64, fcollect32/64, alltoall(s)32/64,
 * shmem_TYPE_OP_to_all), and the choice between the routers (coll_hw.c) and software
 * (coll_sw.c) for each call.
 *
 * Alltoall: a sync of the group (so every member's dest is free), then each member puts
 * its block for member j straight into j's dest (members in turn from the next one, so
 * they do not all start on the same target), then a barrier (quiet, then sync). The two
 * syncs run in the routers when the group has a tree; the data cannot (the routers
 * replicate and combine, they do not permute).
 *
 * The choice depends only on the group, the operation, the type and CANOPY_SHMEM_HW, all
 * the same on every member, so all members take the same path (hardware reduce ids and
 * software channel counts must stay in step). Each call is counted for
 * CANOPY_SHMEM_STATS. pSync and pWrk of the active-set routines are never written (so
 * pSync holds SHMEM_SYNC_VALUE on return, as required).
 */
#include <limits.h>
#include <string.h>

#include "shmem_internal.h"

_Static_assert(sizeof(long) == 8 && sizeof(int) == 4 && sizeof(short) == 2, "LP64 assumed by the type classes");

#define CLASS_OF(T)                                                                        \
    _Generic((T)0, char: (CHAR_MIN < 0 ? C_I8 : C_U8), signed char: C_I8, short: C_I16,    \
             int: C_I32, long: C_I64, long long: C_I64, unsigned char: C_U8,               \
             unsigned short: C_U16, unsigned int: C_U32, unsigned long: C_U64,             \
             unsigned long long: C_U64, float: C_F32, double: C_F64, long double: C_FLD,   \
             float _Complex: C_CF32, double _Complex: C_CF64)
#define DTYPE(T) ((struct shmi_dtype){.cls = CLASS_OF(T), .size = sizeof(T)})

void shmi_barrier(const struct shmi_group *g, int quiet_first)
{
    SHMI_LOCKED;
    if (quiet_first) shmi_quiet("shmem barrier");
    const enum shmi_kind k = quiet_first ? K_BARRIER : K_SYNC;
    if (g->size == 1) {
        shmi_count(k, 0);
        return;
    }
    int hw = shmi.hw && shmi_hw_barrier(g);
    if (!hw) shmi_sw_barrier(g);
    shmi_count(k, hw);
}

void shmi_bcast(const struct shmi_group *g, void *dest, const void *src, size_t len, int root_idx, int write_root,
                const char *call)
{
    SHMI_LOCKED;
    if (root_idx < 0 || root_idx >= g->size)
        shmi_fatal(call, "invalid root %d (the team/active set has PEs 0..%d)", root_idx, g->size - 1);
    if (len == 0) return;
    const uint64_t off = shmi_sym(call, dest, len);
    int hw = 0;
    if (g->size == 1) {
        if (write_root) memmove(dest, src, len);
    } else {
        hw = shmi.hw && shmi_hw_bcast(g, off, src, len, root_idx, write_root);
        if (!hw) shmi_sw_bcast(g, off, src, len, root_idx, write_root);
    }
    shmi_count(K_BCAST, hw);
}

void shmi_reduce(const struct shmi_group *g, void *dest, const void *src, size_t count, struct shmi_dtype t,
                 enum shmi_op op, const char *call)
{
    SHMI_LOCKED;
    if (count == 0) return;
    const size_t bytes = count * t.size;
    const uint64_t off = shmi_sym(call, dest, bytes);
    /* The specification allows dest == source or disjoint buffers, nothing in between. */
    const uint8_t *d = dest, *s = src;
    if (d != s && d < s + bytes && s < d + bytes)
        shmi_fatal(call, "dest and source overlap without being the same array");
    int hw = 0;
    if (g->size == 1) {
        memmove(dest, src, bytes);
    } else {
        hw = shmi.hw && shmi_hw_allreduce(g, off, src, count, t, op);
        if (!hw) shmi_sw_allreduce(g, dest, src, count, t, op);
    }
    shmi_count(K_REDUCE, hw);
}

void shmi_collect(const struct shmi_group *g, void *dest, const void *src, size_t len, int fixed, const char *call)
{
    SHMI_LOCKED;
    /* dest's size is only known once the lengths are exchanged: check its first byte. Zero
     * bytes everywhere may come with NULL pointers. */
    if (fixed && len == 0) {
        shmi_count(K_FCOLLECT, 0);
        return;
    }
    const uint64_t off = !dest && !len ? 0 : shmi_sym(call, dest, fixed ? len * (size_t)g->size : 0);
    if (g->size == 1) {
        if (len) memmove(dest, src, len);
    } else {
        shmi_sw_collect(g, off, src, len, fixed);
    }
    shmi_count(fixed ? K_FCOLLECT : K_COLLECT, 0);
}

/* Alltoall(s): member me's block j (nelems elements of size bytes, source elements sst
 * apart, block j starting at element j*nelems*sst) goes to member j's dest at element
 * (me*nelems)*dst, dest elements dst apart. */
static void shmi_alltoall(const struct shmi_group *g, void *dest, const void *src, ptrdiff_t dst, ptrdiff_t sst,
                          size_t nelems, size_t size, const char *call)
{
    SHMI_LOCKED;
    if (dst < 1 || sst < 1) shmi_fatal(call, "invalid strides (dst %td, sst %td): they must be positive", dst, sst);
    const size_t n = (size_t)g->size, span = n * nelems;
    if (!nelems) {
        shmi_barrier(g, 1);
        shmi_count(K_ALLTOALL, 0);
        return;
    }
    /* dest must be symmetric for every element the routine writes. (Overlapping dest and
     * source are the caller's error, undefined by the specification, and not refused: a
     * Sandia test, shmem_team_b2b_collectives, passes arrays a team's size too small.) */
    const size_t dlen = ((span - 1) * (size_t)dst + 1) * size;
    shmi_sym(call, dest, dlen);
    const uint8_t *s = src;
    /* Every member's dest is free once every member has entered. */
    shmi_barrier(g, 0);
    for (size_t k = 0; k < n; ++k) {
        const int j = (int)(((size_t)g->me + k) % n);
        const int pe = shmi_group_pe(g, j);
        const uint8_t *blk = s + (size_t)j * nelems * (size_t)sst * size;
        uint8_t *at = (uint8_t *)dest + (size_t)g->me * nelems * (size_t)dst * size;
        if (dst == 1 && sst == 1) {
            shmi_put(call, at, blk, nelems * size, pe);
        } else {
            for (size_t e = 0; e < nelems; ++e)
                shmi_put(call, at + e * (size_t)dst * size, blk + e * (size_t)sst * size, size, pe);
        }
    }
    /* Complete, then every member has every block. */
    shmi_barrier(g, 1);
    shmi_count(K_ALLTOALL, g->tree >= 0 && shmi.hw);
}

/* A team handle for a collective: SHMEM_TEAM_INVALID is an error here. */
static const struct shmi_group *team_group(const char *call, shmem_team_t team)
{
    shmi_require_init(call);
    struct shmemi_team *t = shmi_team(call, team);
    if (!t) shmi_fatal(call, "called with SHMEM_TEAM_INVALID");
    return &t->g;
}

/* ------------------------------------------------------------------ 1.5 team routines */
#define DEF_TEAM_COLL(T, N)                                                                \
    int shmem_##N##_alltoall(shmem_team_t team, T *dest, const T *source, size_t nelems)   \
    {                                                                                      \
        const char *call = "shmem_" #N "_alltoall";                                        \
        shmi_alltoall(team_group(call, team), dest, source, 1, 1, nelems, sizeof(T), call); \
        return 0;                                                                          \
    }                                                                                      \
    int shmem_##N##_alltoalls(shmem_team_t team, T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, \
                              size_t nelems)                                               \
    {                                                                                      \
        const char *call = "shmem_" #N "_alltoalls";                                       \
        shmi_alltoall(team_group(call, team), dest, source, dst, sst, nelems, sizeof(T), call); \
        return 0;                                                                          \
    }                                                                                      \
    int shmem_##N##_broadcast(shmem_team_t team, T *dest, const T *source, size_t nelems, int PE_root) \
    {                                                                                      \
        const char *call = "shmem_" #N "_broadcast";                                       \
        shmi_bcast(team_group(call, team), dest, source, nelems * sizeof(T), PE_root, 1, call); \
        return 0;                                                                          \
    }                                                                                      \
    int shmem_##N##_collect(shmem_team_t team, T *dest, const T *source, size_t nelems)    \
    {                                                                                      \
        const char *call = "shmem_" #N "_collect";                                         \
        shmi_collect(team_group(call, team), dest, source, nelems * sizeof(T), 0, call);   \
        return 0;                                                                          \
    }                                                                                      \
    int shmem_##N##_fcollect(shmem_team_t team, T *dest, const T *source, size_t nelems)   \
    {                                                                                      \
        const char *call = "shmem_" #N "_fcollect";                                        \
        shmi_collect(team_group(call, team), dest, source, nelems * sizeof(T), 1, call);   \
        return 0;                                                                          \
    }
SHMEMI_RMA_TYPES(DEF_TEAM_COLL)

int shmem_alltoallmem(shmem_team_t team, void *dest, const void *source, size_t nelems)
{
    shmi_alltoall(team_group("shmem_alltoallmem", team), dest, source, 1, 1, nelems, 1, "shmem_alltoallmem");
    return 0;
}
int shmem_alltoallsmem(shmem_team_t team, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,
                       size_t nelems)
{
    shmi_alltoall(team_group("shmem_alltoallsmem", team), dest, source, dst, sst, nelems, 1, "shmem_alltoallsmem");
    return 0;
}

int shmem_broadcastmem(shmem_team_t team, void *dest, const void *source, size_t nelems, int PE_root)
{
    shmi_bcast(team_group("shmem_broadcastmem", team), dest, source, nelems, PE_root, 1, "shmem_broadcastmem");
    return 0;
}
int shmem_collectmem(shmem_team_t team, void *dest, const void *source, size_t nelems)
{
    shmi_collect(team_group("shmem_collectmem", team), dest, source, nelems, 0, "shmem_collectmem");
    return 0;
}
int shmem_fcollectmem(shmem_team_t team, void *dest, const void *source, size_t nelems)
{
    shmi_collect(team_group("shmem_fcollectmem", team), dest, source, nelems, 1, "shmem_fcollectmem");
    return 0;
}

#define DEF_REDUCE(T, N, OP, OPC)                                                          \
    int shmem_##N##_##OP##_reduce(shmem_team_t team, T *dest, const T *source, size_t nreduce) \
    {                                                                                      \
        const char *call = "shmem_" #N "_" #OP "_reduce";                                  \
        shmi_reduce(team_group(call, team), dest, source, nreduce, DTYPE(T), OPC, call);   \
        return 0;                                                                          \
    }
#define DEF_BITWISE_REDUCE(T, N) DEF_REDUCE(T, N, and, OP_AND) DEF_REDUCE(T, N, or, OP_OR) DEF_REDUCE(T, N, xor, OP_XOR)
#define DEF_MINMAX_REDUCE(T, N) DEF_REDUCE(T, N, min, OP_MIN) DEF_REDUCE(T, N, max, OP_MAX)
#define DEF_ARITH_REDUCE(T, N) DEF_REDUCE(T, N, sum, OP_SUM) DEF_REDUCE(T, N, prod, OP_PROD)
SHMEMI_BITWISE_TYPES(DEF_BITWISE_REDUCE)
SHMEMI_MINMAX_TYPES(DEF_MINMAX_REDUCE)
SHMEMI_MINMAX_TYPES(DEF_ARITH_REDUCE)
SHMEMI_COMPLEX_TYPES(DEF_ARITH_REDUCE)

/* ------------------------------------------------------------------ 1.4 active sets */
void shmem_broadcast32(void *dest, const void *source, size_t nelems, int PE_root, int PE_start, int logPE_stride,
                       int PE_size, long *pSync)
{
    (void)pSync;
    shmi_bcast(shmi_aset_group("shmem_broadcast32", PE_start, logPE_stride, PE_size), dest, source, nelems * 4,
               PE_root, 0, "shmem_broadcast32");
}
void shmem_broadcast64(void *dest, const void *source, size_t nelems, int PE_root, int PE_start, int logPE_stride,
                       int PE_size, long *pSync)
{
    (void)pSync;
    shmi_bcast(shmi_aset_group("shmem_broadcast64", PE_start, logPE_stride, PE_size), dest, source, nelems * 8,
               PE_root, 0, "shmem_broadcast64");
}
#define DEF_ASET_COLLECT(NAME, B, FIXED)                                                   \
    void NAME(void *dest, const void *source, size_t nelems, int PE_start, int logPE_stride, int PE_size, \
              long *pSync)                                                                 \
    {                                                                                      \
        (void)pSync;                                                                       \
        shmi_collect(shmi_aset_group(#NAME, PE_start, logPE_stride, PE_size), dest, source, nelems * (B), FIXED, \
                     #NAME);                                                               \
    }
DEF_ASET_COLLECT(shmem_collect32, 4, 0)
DEF_ASET_COLLECT(shmem_collect64, 8, 0)
DEF_ASET_COLLECT(shmem_fcollect32, 4, 1)
DEF_ASET_COLLECT(shmem_fcollect64, 8, 1)
#define DEF_ASET_ALLTOALL(NAME, B)                                                         \
    void NAME(void *dest, const void *source, size_t nelems, int PE_start, int logPE_stride, int PE_size, \
              long *pSync)                                                                 \
    {                                                                                      \
        (void)pSync;                                                                       \
        shmi_alltoall(shmi_aset_group(#NAME, PE_start, logPE_stride, PE_size), dest, source, 1, 1, nelems, B, \
                      #NAME);                                                              \
    }
DEF_ASET_ALLTOALL(shmem_alltoall32, 4)
DEF_ASET_ALLTOALL(shmem_alltoall64, 8)
#define DEF_ASET_ALLTOALLS(NAME, B)                                                        \
    void NAME(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int PE_start, \
              int logPE_stride, int PE_size, long *pSync)                                  \
    {                                                                                      \
        (void)pSync;                                                                       \
        shmi_alltoall(shmi_aset_group(#NAME, PE_start, logPE_stride, PE_size), dest, source, dst, sst, nelems, B, \
                      #NAME);                                                              \
    }
DEF_ASET_ALLTOALLS(shmem_alltoalls32, 4)
DEF_ASET_ALLTOALLS(shmem_alltoalls64, 8)

#define DEF_TOALL(T, N, OP, OPC)                                                           \
    void shmem_##N##_##OP##_to_all(T *dest, const T *source, int nreduce, int PE_start, int logPE_stride, \
                                   int PE_size, T *pWrk, long *pSync)                      \
    {                                                                                      \
        const char *call = "shmem_" #N "_" #OP "_to_all";                                  \
        (void)pWrk, (void)pSync;                                                           \
        if (nreduce < 0) shmi_fatal(call, "invalid nreduce %d", nreduce);                  \
        shmi_reduce(shmi_aset_group(call, PE_start, logPE_stride, PE_size), dest, source, (size_t)nreduce, \
                    DTYPE(T), OPC, call);                                                  \
    }
#define DEF_BITWISE_TOALL(T, N) DEF_TOALL(T, N, and, OP_AND) DEF_TOALL(T, N, or, OP_OR) DEF_TOALL(T, N, xor, OP_XOR)
#define DEF_MINMAX_TOALL(T, N) DEF_TOALL(T, N, min, OP_MIN) DEF_TOALL(T, N, max, OP_MAX)
#define DEF_ARITH_TOALL(T, N) DEF_TOALL(T, N, sum, OP_SUM) DEF_TOALL(T, N, prod, OP_PROD)
SHMEMI_TOALL_BITWISE_TYPES(DEF_BITWISE_TOALL)
SHMEMI_TOALL_MINMAX_TYPES(DEF_MINMAX_TOALL)
SHMEMI_TOALL_MINMAX_TYPES(DEF_ARITH_TOALL)
SHMEMI_COMPLEX_TYPES(DEF_ARITH_TOALL)

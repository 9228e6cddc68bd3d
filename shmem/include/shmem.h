/* shmem.h: OpenSHMEM 1.5 for canopy (libcanopy_shmem), the standard header name.
 *
 * An OpenSHMEM program includes this header, is compiled with shmem/oshcc and started with
 * shmem/oshrun (one PE per node of the simulated torus). Contract: the routines below
 * follow the OpenSHMEM 1.5 specification (signatures and semantics); docs/shmem.md says
 * what runs in the routers, what in software, and the limits of this implementation
 * (no contexts, no atomics, no alltoall; what is declared here is implemented).
 *
 * The header is plain C99 (compiles with -std=c99 -pedantic as well as C11); the type-
 * generic macros of the specification (shmem_put, shmem_sum_reduce, ...) are defined only
 * for C11 and later, since they need _Generic. Identifiers starting with SHMEMI_ / shmemi_
 * are this implementation's own.
 */
#ifndef CANOPY_SHMEM_H
#define CANOPY_SHMEM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define SHMEMI_NORETURN __attribute__((noreturn))
#else
#define SHMEMI_NORETURN
#endif

/* ------------------------------------------------------------------ constants */
#define SHMEM_MAJOR_VERSION 1
#define SHMEM_MINOR_VERSION 5
#define SHMEM_MAX_NAME_LEN 64
#define SHMEM_VENDOR_STRING "canopy OpenSHMEM (torus routers with in-network collectives)"
#define _SHMEM_MAJOR_VERSION SHMEM_MAJOR_VERSION
#define _SHMEM_MINOR_VERSION SHMEM_MINOR_VERSION
#define _SHMEM_MAX_NAME_LEN SHMEM_MAX_NAME_LEN
#define _SHMEM_VENDOR_STRING SHMEM_VENDOR_STRING

#define SHMEM_THREAD_SINGLE 0
#define SHMEM_THREAD_FUNNELED 1
#define SHMEM_THREAD_SERIALIZED 2
#define SHMEM_THREAD_MULTIPLE 3

/* pSync / pWrk: this implementation never writes pSync (its software collectives use
 * library-owned symmetric memory), so the sizes only have to be positive; they are kept
 * generous so programs sized for other implementations still fit. */
#define SHMEM_SYNC_VALUE (-1L)
#define SHMEM_SYNC_SIZE 64
#define SHMEM_BCAST_SYNC_SIZE 64
#define SHMEM_BARRIER_SYNC_SIZE 64
#define SHMEM_REDUCE_SYNC_SIZE 64
#define SHMEM_COLLECT_SYNC_SIZE 64
#define SHMEM_ALLTOALL_SYNC_SIZE 64
#define SHMEM_ALLTOALLS_SYNC_SIZE 64
#define SHMEM_REDUCE_MIN_WRKDATA_SIZE 16
#define _SHMEM_SYNC_VALUE SHMEM_SYNC_VALUE
#define _SHMEM_BCAST_SYNC_SIZE SHMEM_BCAST_SYNC_SIZE
#define _SHMEM_BARRIER_SYNC_SIZE SHMEM_BARRIER_SYNC_SIZE
#define _SHMEM_REDUCE_SYNC_SIZE SHMEM_REDUCE_SYNC_SIZE
#define _SHMEM_COLLECT_SYNC_SIZE SHMEM_COLLECT_SYNC_SIZE
#define _SHMEM_REDUCE_MIN_WRKDATA_SIZE SHMEM_REDUCE_MIN_WRKDATA_SIZE

/* Point-to-point synchronization comparisons. */
#define SHMEM_CMP_EQ 0
#define SHMEM_CMP_NE 1
#define SHMEM_CMP_GT 2
#define SHMEM_CMP_GE 3
#define SHMEM_CMP_LT 4
#define SHMEM_CMP_LE 5
#define _SHMEM_CMP_EQ SHMEM_CMP_EQ
#define _SHMEM_CMP_NE SHMEM_CMP_NE
#define _SHMEM_CMP_GT SHMEM_CMP_GT
#define _SHMEM_CMP_GE SHMEM_CMP_GE
#define _SHMEM_CMP_LT SHMEM_CMP_LT
#define _SHMEM_CMP_LE SHMEM_CMP_LE

/* shmem_malloc_with_hints: how the block will be used. Accepted and ignored: canopy's
 * heap has one kind of memory (the registered window). */
#define SHMEM_MALLOC_ATOMICS_REMOTE (1L << 0)
#define SHMEM_MALLOC_SIGNAL_REMOTE (1L << 1)

/* ------------------------------------------------------------------ teams */
typedef struct shmemi_team *shmem_team_t;
typedef struct {
    int num_contexts;
} shmem_team_config_t;
#define SHMEM_TEAM_NUM_CONTEXTS (1L << 0)
/* Predefined handles: small non-pointer values the library recognizes. */
#define SHMEM_TEAM_INVALID ((shmem_team_t)0)
#define SHMEM_TEAM_WORLD ((shmem_team_t)1)
#define SHMEM_TEAM_SHARED ((shmem_team_t)2)

/* ------------------------------------------------------------------ type tables
 * X(TYPE, TYPENAME) lists of the specification's tables, used to declare the typed
 * routines below (and by the library to define them). */
#define SHMEMI_RMA_TYPES(X)                                                                 \
    X(float, float) X(double, double) X(long double, longdouble) X(char, char)              \
    X(signed char, schar) X(short, short) X(int, int) X(long, long) X(long long, longlong)  \
    X(unsigned char, uchar) X(unsigned short, ushort) X(unsigned int, uint)                 \
    X(unsigned long, ulong) X(unsigned long long, ulonglong) X(int8_t, int8)                \
    X(int16_t, int16) X(int32_t, int32) X(int64_t, int64) X(uint8_t, uint8)                 \
    X(uint16_t, uint16) X(uint32_t, uint32) X(uint64_t, uint64) X(size_t, size)             \
    X(ptrdiff_t, ptrdiff)
#define SHMEMI_SYNC_TYPES(X)                                                                \
    X(short, short) X(int, int) X(long, long) X(long long, longlong)                        \
    X(unsigned short, ushort) X(unsigned int, uint) X(unsigned long, ulong)                 \
    X(unsigned long long, ulonglong) X(int32_t, int32) X(int64_t, int64) X(uint32_t, uint32) \
    X(uint64_t, uint64) X(size_t, size) X(ptrdiff_t, ptrdiff)
/* Team reductions (1.5): AND/OR/XOR; MIN/MAX; SUM/PROD (MIN/MAX types plus complex). */
#define SHMEMI_BITWISE_TYPES(X)                                                             \
    X(unsigned char, uchar) X(unsigned short, ushort) X(unsigned int, uint)                 \
    X(unsigned long, ulong) X(unsigned long long, ulonglong) X(int8_t, int8)                \
    X(int16_t, int16) X(int32_t, int32) X(int64_t, int64) X(uint8_t, uint8)                 \
    X(uint16_t, uint16) X(uint32_t, uint32) X(uint64_t, uint64) X(size_t, size)
#define SHMEMI_MINMAX_TYPES(X)                                                              \
    X(char, char) X(signed char, schar) X(short, short) X(int, int) X(long, long)           \
    X(long long, longlong) X(ptrdiff_t, ptrdiff) X(unsigned char, uchar)                    \
    X(unsigned short, ushort) X(unsigned int, uint) X(unsigned long, ulong)                 \
    X(unsigned long long, ulonglong) X(int8_t, int8) X(int16_t, int16) X(int32_t, int32)    \
    X(int64_t, int64) X(uint8_t, uint8) X(uint16_t, uint16) X(uint32_t, uint32)             \
    X(uint64_t, uint64) X(size_t, size) X(float, float) X(double, double)                   \
    X(long double, longdouble)
#define SHMEMI_COMPLEX_TYPES(X) X(double _Complex, complexd) X(float _Complex, complexf)
/* Active-set reductions (1.4 *_to_all). */
#define SHMEMI_TOALL_BITWISE_TYPES(X) X(short, short) X(int, int) X(long, long) X(long long, longlong)
#define SHMEMI_TOALL_MINMAX_TYPES(X)                                                        \
    SHMEMI_TOALL_BITWISE_TYPES(X) X(float, float) X(double, double) X(long double, longdouble)
/* put8/16/32/64/128 and the like: sizes in bits. */
#define SHMEMI_SIZES(X) X(8) X(16) X(32) X(64) X(128)

/* ------------------------------------------------------------------ setup, query, exit */
void shmem_init(void);
int shmem_init_thread(int requested, int *provided);
void shmem_query_thread(int *provided);
void shmem_finalize(void);
void shmem_global_exit(int status) SHMEMI_NORETURN;
int shmem_my_pe(void);
int shmem_n_pes(void);
int shmem_pe_accessible(int pe);
int shmem_addr_accessible(const void *addr, int pe);
void *shmem_ptr(const void *dest, int pe);
void shmem_info_get_version(int *major, int *minor);
void shmem_info_get_name(char *name);
/* Deprecated names. */
void start_pes(int npes);
int _my_pe(void);
int _num_pes(void);

/* ------------------------------------------------------------------ symmetric heap */
void *shmem_malloc(size_t size);
void *shmem_calloc(size_t count, size_t size);
void *shmem_align(size_t alignment, size_t size);
void *shmem_malloc_with_hints(size_t size, long hints);
void *shmem_realloc(void *ptr, size_t size);
void shmem_free(void *ptr);
void *shmalloc(size_t size);
void *shmemalign(size_t alignment, size_t size);
void *shrealloc(void *ptr, size_t size);
void shfree(void *ptr);

/* ------------------------------------------------------------------ RMA */
#define SHMEMI_DECL_RMA(T, N)                                                               \
    void shmem_##N##_put(T *dest, const T *source, size_t nelems, int pe);                  \
    void shmem_##N##_put_nbi(T *dest, const T *source, size_t nelems, int pe);              \
    void shmem_##N##_p(T *dest, T value, int pe);                                           \
    void shmem_##N##_iput(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe); \
    void shmem_##N##_get(T *dest, const T *source, size_t nelems, int pe);                  \
    void shmem_##N##_get_nbi(T *dest, const T *source, size_t nelems, int pe);              \
    T shmem_##N##_g(const T *source, int pe);                                               \
    void shmem_##N##_iget(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe);
SHMEMI_RMA_TYPES(SHMEMI_DECL_RMA)
#define SHMEMI_DECL_SIZED(B)                                                                \
    void shmem_put##B(void *dest, const void *source, size_t nelems, int pe);               \
    void shmem_put##B##_nbi(void *dest, const void *source, size_t nelems, int pe);         \
    void shmem_iput##B(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe); \
    void shmem_get##B(void *dest, const void *source, size_t nelems, int pe);               \
    void shmem_get##B##_nbi(void *dest, const void *source, size_t nelems, int pe);         \
    void shmem_iget##B(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe);
SHMEMI_SIZES(SHMEMI_DECL_SIZED)
void shmem_putmem(void *dest, const void *source, size_t nelems, int pe);
void shmem_putmem_nbi(void *dest, const void *source, size_t nelems, int pe);
void shmem_getmem(void *dest, const void *source, size_t nelems, int pe);
void shmem_getmem_nbi(void *dest, const void *source, size_t nelems, int pe);

/* ------------------------------------------------------------------ ordering, sync */
void shmem_quiet(void);
void shmem_fence(void);
#define SHMEMI_DECL_WAIT(T, N)                                                              \
    void shmem_##N##_wait_until(T *ivar, int cmp, T cmp_value);                             \
    int shmem_##N##_test(T *ivar, int cmp, T cmp_value);
SHMEMI_SYNC_TYPES(SHMEMI_DECL_WAIT)
/* Deprecated: wait until *ivar != cmp_value. */
void shmem_wait(long *ivar, long cmp_value);
void shmem_wait_until(long *ivar, int cmp, long cmp_value);
void shmem_short_wait(short *ivar, short cmp_value);
void shmem_int_wait(int *ivar, int cmp_value);
void shmem_long_wait(long *ivar, long cmp_value);
void shmem_longlong_wait(long long *ivar, long long cmp_value);

/* ------------------------------------------------------------------ barriers */
void shmem_barrier_all(void);
void shmem_barrier(int PE_start, int logPE_stride, int PE_size, long *pSync);
void shmem_sync_all(void);
void shmem_sync(int PE_start, int logPE_stride, int PE_size, long *pSync);
int shmem_team_sync(shmem_team_t team);

/* ------------------------------------------------------------------ teams */
int shmem_team_my_pe(shmem_team_t team);
int shmem_team_n_pes(shmem_team_t team);
int shmem_team_get_config(shmem_team_t team, long config_mask, shmem_team_config_t *config);
int shmem_team_translate_pe(shmem_team_t src_team, int src_pe, shmem_team_t dest_team);
int shmem_team_split_strided(shmem_team_t parent_team, int start, int stride, int size,
                             const shmem_team_config_t *config, long config_mask, shmem_team_t *new_team);
int shmem_team_split_2d(shmem_team_t parent_team, int xrange, const shmem_team_config_t *xaxis_config,
                        long xaxis_mask, shmem_team_t *xaxis_team, const shmem_team_config_t *yaxis_config,
                        long yaxis_mask, shmem_team_t *yaxis_team);
void shmem_team_destroy(shmem_team_t team);

/* ------------------------------------------------------------------ team collectives (1.5) */
#define SHMEMI_DECL_TEAM_COLL(T, N)                                                         \
    int shmem_##N##_broadcast(shmem_team_t team, T *dest, const T *source, size_t nelems, int PE_root); \
    int shmem_##N##_collect(shmem_team_t team, T *dest, const T *source, size_t nelems);    \
    int shmem_##N##_fcollect(shmem_team_t team, T *dest, const T *source, size_t nelems);
SHMEMI_RMA_TYPES(SHMEMI_DECL_TEAM_COLL)
int shmem_broadcastmem(shmem_team_t team, void *dest, const void *source, size_t nelems, int PE_root);
int shmem_collectmem(shmem_team_t team, void *dest, const void *source, size_t nelems);
int shmem_fcollectmem(shmem_team_t team, void *dest, const void *source, size_t nelems);

#define SHMEMI_DECL_REDUCE(T, N, OP)                                                        \
    int shmem_##N##_##OP##_reduce(shmem_team_t team, T *dest, const T *source, size_t nreduce);
#define SHMEMI_DECL_BITWISE_REDUCE(T, N) SHMEMI_DECL_REDUCE(T, N, and) SHMEMI_DECL_REDUCE(T, N, or) SHMEMI_DECL_REDUCE(T, N, xor)
#define SHMEMI_DECL_MINMAX_REDUCE(T, N) SHMEMI_DECL_REDUCE(T, N, min) SHMEMI_DECL_REDUCE(T, N, max)
#define SHMEMI_DECL_ARITH_REDUCE(T, N) SHMEMI_DECL_REDUCE(T, N, sum) SHMEMI_DECL_REDUCE(T, N, prod)
SHMEMI_BITWISE_TYPES(SHMEMI_DECL_BITWISE_REDUCE)
SHMEMI_MINMAX_TYPES(SHMEMI_DECL_MINMAX_REDUCE)
SHMEMI_MINMAX_TYPES(SHMEMI_DECL_ARITH_REDUCE)
SHMEMI_COMPLEX_TYPES(SHMEMI_DECL_ARITH_REDUCE)

/* ------------------------------------------------------------------ active-set collectives (1.4) */
void shmem_broadcast32(void *dest, const void *source, size_t nelems, int PE_root, int PE_start, int logPE_stride,
                       int PE_size, long *pSync);
void shmem_broadcast64(void *dest, const void *source, size_t nelems, int PE_root, int PE_start, int logPE_stride,
                       int PE_size, long *pSync);
void shmem_collect32(void *dest, const void *source, size_t nelems, int PE_start, int logPE_stride, int PE_size,
                     long *pSync);
void shmem_collect64(void *dest, const void *source, size_t nelems, int PE_start, int logPE_stride, int PE_size,
                     long *pSync);
void shmem_fcollect32(void *dest, const void *source, size_t nelems, int PE_start, int logPE_stride, int PE_size,
                      long *pSync);
void shmem_fcollect64(void *dest, const void *source, size_t nelems, int PE_start, int logPE_stride, int PE_size,
                      long *pSync);
#define SHMEMI_DECL_TOALL(T, N, OP)                                                         \
    void shmem_##N##_##OP##_to_all(T *dest, const T *source, int nreduce, int PE_start, int logPE_stride, \
                                   int PE_size, T *pWrk, long *pSync);
#define SHMEMI_DECL_BITWISE_TOALL(T, N) SHMEMI_DECL_TOALL(T, N, and) SHMEMI_DECL_TOALL(T, N, or) SHMEMI_DECL_TOALL(T, N, xor)
#define SHMEMI_DECL_MINMAX_TOALL(T, N) SHMEMI_DECL_TOALL(T, N, min) SHMEMI_DECL_TOALL(T, N, max)
#define SHMEMI_DECL_ARITH_TOALL(T, N) SHMEMI_DECL_TOALL(T, N, sum) SHMEMI_DECL_TOALL(T, N, prod)
SHMEMI_TOALL_BITWISE_TYPES(SHMEMI_DECL_BITWISE_TOALL)
SHMEMI_TOALL_MINMAX_TYPES(SHMEMI_DECL_MINMAX_TOALL)
SHMEMI_TOALL_MINMAX_TYPES(SHMEMI_DECL_ARITH_TOALL)
SHMEMI_COMPLEX_TYPES(SHMEMI_DECL_ARITH_TOALL)

/* ------------------------------------------------------------------ C11 type-generic interfaces */
#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L && !defined(__cplusplus)
/* Dispatch on the element type: the lvalue conversion in _Generic drops const. */
#define SHMEMI_GEN_STD(x, OP)                                                               \
    _Generic((x), float: shmem_float_##OP, double: shmem_double_##OP,                       \
             long double: shmem_longdouble_##OP, char: shmem_char_##OP,                     \
             signed char: shmem_schar_##OP, short: shmem_short_##OP, int: shmem_int_##OP,   \
             long: shmem_long_##OP, long long: shmem_longlong_##OP,                         \
             unsigned char: shmem_uchar_##OP, unsigned short: shmem_ushort_##OP,            \
             unsigned int: shmem_uint_##OP, unsigned long: shmem_ulong_##OP,                \
             unsigned long long: shmem_ulonglong_##OP)
#define SHMEMI_GEN_SYNC(x, OP)                                                              \
    _Generic((x), short: shmem_short_##OP, int: shmem_int_##OP, long: shmem_long_##OP,      \
             long long: shmem_longlong_##OP, unsigned short: shmem_ushort_##OP,             \
             unsigned int: shmem_uint_##OP, unsigned long: shmem_ulong_##OP,                \
             unsigned long long: shmem_ulonglong_##OP)
#define SHMEMI_GEN_BITWISE(x, OP)                                                           \
    _Generic((x), unsigned char: shmem_uchar_##OP, unsigned short: shmem_ushort_##OP,       \
             unsigned int: shmem_uint_##OP, unsigned long: shmem_ulong_##OP,                \
             unsigned long long: shmem_ulonglong_##OP, signed char: shmem_int8_##OP,        \
             short: shmem_int16_##OP, int: shmem_int32_##OP, long: shmem_int64_##OP)
#define SHMEMI_GEN_MINMAX(x, OP)                                                            \
    _Generic((x), char: shmem_char_##OP, signed char: shmem_schar_##OP,                     \
             short: shmem_short_##OP, int: shmem_int_##OP, long: shmem_long_##OP,           \
             long long: shmem_longlong_##OP, unsigned char: shmem_uchar_##OP,               \
             unsigned short: shmem_ushort_##OP, unsigned int: shmem_uint_##OP,              \
             unsigned long: shmem_ulong_##OP, unsigned long long: shmem_ulonglong_##OP,     \
             float: shmem_float_##OP, double: shmem_double_##OP,                            \
             long double: shmem_longdouble_##OP)
#define SHMEMI_GEN_ARITH(x, OP)                                                             \
    _Generic((x), char: shmem_char_##OP, signed char: shmem_schar_##OP,                     \
             short: shmem_short_##OP, int: shmem_int_##OP, long: shmem_long_##OP,           \
             long long: shmem_longlong_##OP, unsigned char: shmem_uchar_##OP,               \
             unsigned short: shmem_ushort_##OP, unsigned int: shmem_uint_##OP,              \
             unsigned long: shmem_ulong_##OP, unsigned long long: shmem_ulonglong_##OP,     \
             float: shmem_float_##OP, double: shmem_double_##OP,                            \
             long double: shmem_longdouble_##OP, double _Complex: shmem_complexd_##OP,      \
             float _Complex: shmem_complexf_##OP)

#define shmem_put(dest, source, nelems, pe) SHMEMI_GEN_STD(*(dest), put)(dest, source, nelems, pe)
#define shmem_put_nbi(dest, source, nelems, pe) SHMEMI_GEN_STD(*(dest), put_nbi)(dest, source, nelems, pe)
#define shmem_p(dest, value, pe) SHMEMI_GEN_STD(*(dest), p)(dest, value, pe)
#define shmem_iput(dest, source, dst, sst, nelems, pe) SHMEMI_GEN_STD(*(dest), iput)(dest, source, dst, sst, nelems, pe)
#define shmem_get(dest, source, nelems, pe) SHMEMI_GEN_STD(*(dest), get)(dest, source, nelems, pe)
#define shmem_get_nbi(dest, source, nelems, pe) SHMEMI_GEN_STD(*(dest), get_nbi)(dest, source, nelems, pe)
#define shmem_g(source, pe) SHMEMI_GEN_STD(*(source), g)(source, pe)
#define shmem_iget(dest, source, dst, sst, nelems, pe) SHMEMI_GEN_STD(*(dest), iget)(dest, source, dst, sst, nelems, pe)
#define shmem_wait_until(ivar, cmp, cmp_value) SHMEMI_GEN_SYNC(*(ivar), wait_until)(ivar, cmp, cmp_value)
#define shmem_test(ivar, cmp, cmp_value) SHMEMI_GEN_SYNC(*(ivar), test)(ivar, cmp, cmp_value)
#define shmem_broadcast(team, dest, source, nelems, PE_root) \
    SHMEMI_GEN_STD(*(dest), broadcast)(team, dest, source, nelems, PE_root)
#define shmem_collect(team, dest, source, nelems) SHMEMI_GEN_STD(*(dest), collect)(team, dest, source, nelems)
#define shmem_fcollect(team, dest, source, nelems) SHMEMI_GEN_STD(*(dest), fcollect)(team, dest, source, nelems)
#define shmem_and_reduce(team, dest, source, n) SHMEMI_GEN_BITWISE(*(dest), and_reduce)(team, dest, source, n)
#define shmem_or_reduce(team, dest, source, n) SHMEMI_GEN_BITWISE(*(dest), or_reduce)(team, dest, source, n)
#define shmem_xor_reduce(team, dest, source, n) SHMEMI_GEN_BITWISE(*(dest), xor_reduce)(team, dest, source, n)
#define shmem_min_reduce(team, dest, source, n) SHMEMI_GEN_MINMAX(*(dest), min_reduce)(team, dest, source, n)
#define shmem_max_reduce(team, dest, source, n) SHMEMI_GEN_MINMAX(*(dest), max_reduce)(team, dest, source, n)
#define shmem_sum_reduce(team, dest, source, n) SHMEMI_GEN_ARITH(*(dest), sum_reduce)(team, dest, source, n)
#define shmem_prod_reduce(team, dest, source, n) SHMEMI_GEN_ARITH(*(dest), prod_reduce)(team, dest, source, n)
#endif

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_SHMEM_H */

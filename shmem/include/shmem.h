/* shmem.h: OpenSHMEM 1.5 for canopy (libcanopy_shmem), the standard header name.
 *
 * An OpenSHMEM program includes this header, is compiled with shmem/oshcc and started with
 * shmem/oshrun (one PE per node of the simulated torus). Contract: the routines below
 * follow the OpenSHMEM 1.5 specification (signatures and semantics); docs/shmem.md says
 * what runs in the routers, what in software, and the limits of this implementation
 * (what is declared here is implemented).
 *
 * The header is plain C99 (compiles with -std=c99 -pedantic as well as C11, GNU C and
 * C++); the type-generic macros of the specification (shmem_put, shmem_atomic_add,
 * shmem_sum_reduce, ..., with or without a context first) are defined only for C11 and
 * later, since they need _Generic. Identifiers starting with SHMEMI_ / shmemi_ are this
 * implementation's own.
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

/* Signals (put-with-signal). */
#define SHMEM_SIGNAL_SET 0
#define SHMEM_SIGNAL_ADD 1

/* ------------------------------------------------------------------ contexts */
typedef struct shmemi_ctx *shmem_ctx_t;
#define SHMEM_CTX_SERIALIZED (1L << 0)
#define SHMEM_CTX_PRIVATE (1L << 1)
#define SHMEM_CTX_NOSTORE (1L << 2)
/* Predefined handles: small non-pointer values the library recognizes. */
#define SHMEM_CTX_INVALID ((shmem_ctx_t)0)
#define SHMEM_CTX_DEFAULT ((shmem_ctx_t)1)

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
/* Atomics (1.5): the standard AMO types (compare_swap, fetch_inc, inc, fetch_add, add),
 * the extended ones (fetch, set, swap: the standard ones and float, double) and the
 * bitwise ones (fetch_and, and, fetch_or, or, fetch_xor, xor); the deprecated names. */
#define SHMEMI_AMO_STD_TYPES(X)                                                             \
    X(int, int) X(long, long) X(long long, longlong) X(unsigned int, uint)                  \
    X(unsigned long, ulong) X(unsigned long long, ulonglong) X(int32_t, int32)              \
    X(int64_t, int64) X(uint32_t, uint32) X(uint64_t, uint64) X(size_t, size)               \
    X(ptrdiff_t, ptrdiff)
#define SHMEMI_AMO_EXT_TYPES(X) SHMEMI_AMO_STD_TYPES(X) X(float, float) X(double, double)
#define SHMEMI_AMO_BITWISE_TYPES(X)                                                         \
    X(unsigned int, uint) X(unsigned long, ulong) X(unsigned long long, ulonglong)          \
    X(int32_t, int32) X(int64_t, int64) X(uint32_t, uint32) X(uint64_t, uint64)
#define SHMEMI_AMO_DEPR_TYPES(X) X(int, int) X(long, long) X(long long, longlong)
#define SHMEMI_AMO_DEPR_EXT_TYPES(X) SHMEMI_AMO_DEPR_TYPES(X) X(float, float) X(double, double)

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
void *shmem_team_ptr(shmem_team_t team, const void *dest, int pe);
void shmem_info_get_version(int *major, int *minor);
void shmem_info_get_name(char *name);
/* Profiling control: accepted, no effect (no profiling interface here). */
void shmem_pcontrol(const int level, ...);
/* Deprecated cache management: no effect (the device's writes are coherent). */
void shmem_clear_cache_inv(void);
void shmem_set_cache_inv(void);
void shmem_clear_cache_line_inv(void *dest);
void shmem_set_cache_line_inv(void *dest);
void shmem_udcflush(void);
void shmem_udcflush_line(void *dest);
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
    void shmem_ctx_##N##_put(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, int pe); \
    void shmem_ctx_##N##_put_nbi(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, int pe); \
    void shmem_ctx_##N##_p(shmem_ctx_t ctx, T *dest, T value, int pe);                      \
    void shmem_ctx_##N##_iput(shmem_ctx_t ctx, T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, \
                              size_t nelems, int pe);                                       \
    void shmem_ctx_##N##_get(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, int pe); \
    void shmem_ctx_##N##_get_nbi(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, int pe); \
    T shmem_ctx_##N##_g(shmem_ctx_t ctx, const T *source, int pe);                          \
    void shmem_ctx_##N##_iget(shmem_ctx_t ctx, T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, \
                              size_t nelems, int pe);                                       \
    void shmem_##N##_put_signal(T *dest, const T *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, \
                                int sig_op, int pe);                                        \
    void shmem_##N##_put_signal_nbi(T *dest, const T *source, size_t nelems, uint64_t *sig_addr, \
                                    uint64_t signal, int sig_op, int pe);                   \
    void shmem_ctx_##N##_put_signal(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, \
                                    uint64_t *sig_addr, uint64_t signal, int sig_op, int pe); \
    void shmem_ctx_##N##_put_signal_nbi(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, \
                                        uint64_t *sig_addr, uint64_t signal, int sig_op, int pe); \
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
    void shmem_ctx_put##B(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe); \
    void shmem_ctx_put##B##_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe); \
    void shmem_ctx_iput##B(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, \
                           size_t nelems, int pe);                                          \
    void shmem_ctx_get##B(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe); \
    void shmem_ctx_get##B##_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe); \
    void shmem_ctx_iget##B(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, \
                           size_t nelems, int pe);                                          \
    void shmem_put##B##_signal(void *dest, const void *source, size_t nelems, uint64_t *sig_addr, \
                               uint64_t signal, int sig_op, int pe);                        \
    void shmem_put##B##_signal_nbi(void *dest, const void *source, size_t nelems, uint64_t *sig_addr, \
                                   uint64_t signal, int sig_op, int pe);                    \
    void shmem_ctx_put##B##_signal(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, \
                                   uint64_t *sig_addr, uint64_t signal, int sig_op, int pe); \
    void shmem_ctx_put##B##_signal_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, \
                                       uint64_t *sig_addr, uint64_t signal, int sig_op, int pe); \
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
void shmem_ctx_putmem(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe);
void shmem_ctx_putmem_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe);
void shmem_ctx_getmem(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe);
void shmem_ctx_getmem_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe);
void shmem_putmem_signal(void *dest, const void *source, size_t nelems, uint64_t *sig_addr, uint64_t signal,
                         int sig_op, int pe);
void shmem_putmem_signal_nbi(void *dest, const void *source, size_t nelems, uint64_t *sig_addr, uint64_t signal,
                             int sig_op, int pe);
void shmem_ctx_putmem_signal(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, uint64_t *sig_addr,
                             uint64_t signal, int sig_op, int pe);
void shmem_ctx_putmem_signal_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems,
                                 uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);
uint64_t shmem_signal_fetch(const uint64_t *sig_addr);
uint64_t shmem_signal_wait_until(uint64_t *sig_addr, int cmp, uint64_t cmp_value);

/* ------------------------------------------------------------------ contexts */
int shmem_ctx_create(long options, shmem_ctx_t *ctx);
int shmem_team_create_ctx(shmem_team_t team, long options, shmem_ctx_t *ctx);
void shmem_ctx_destroy(shmem_ctx_t ctx);
int shmem_ctx_get_team(shmem_ctx_t ctx, shmem_team_t *team);

/* ------------------------------------------------------------------ atomics */
#define SHMEMI_DECL_AMO_EXT(T, N)                                                           \
    T shmem_##N##_atomic_fetch(const T *source, int pe);                                    \
    T shmem_ctx_##N##_atomic_fetch(shmem_ctx_t ctx, const T *source, int pe);               \
    void shmem_##N##_atomic_set(T *dest, T value, int pe);                                  \
    void shmem_ctx_##N##_atomic_set(shmem_ctx_t ctx, T *dest, T value, int pe);             \
    T shmem_##N##_atomic_swap(T *dest, T value, int pe);                                    \
    T shmem_ctx_##N##_atomic_swap(shmem_ctx_t ctx, T *dest, T value, int pe);               \
    void shmem_##N##_atomic_fetch_nbi(T *fetch, const T *source, int pe);                   \
    void shmem_ctx_##N##_atomic_fetch_nbi(shmem_ctx_t ctx, T *fetch, const T *source, int pe); \
    void shmem_##N##_atomic_swap_nbi(T *fetch, T *dest, T value, int pe);                   \
    void shmem_ctx_##N##_atomic_swap_nbi(shmem_ctx_t ctx, T *fetch, T *dest, T value, int pe);
SHMEMI_AMO_EXT_TYPES(SHMEMI_DECL_AMO_EXT)
#define SHMEMI_DECL_AMO_STD(T, N)                                                           \
    T shmem_##N##_atomic_compare_swap(T *dest, T cond, T value, int pe);                    \
    T shmem_ctx_##N##_atomic_compare_swap(shmem_ctx_t ctx, T *dest, T cond, T value, int pe); \
    T shmem_##N##_atomic_fetch_inc(T *dest, int pe);                                        \
    T shmem_ctx_##N##_atomic_fetch_inc(shmem_ctx_t ctx, T *dest, int pe);                   \
    void shmem_##N##_atomic_inc(T *dest, int pe);                                           \
    void shmem_ctx_##N##_atomic_inc(shmem_ctx_t ctx, T *dest, int pe);                      \
    T shmem_##N##_atomic_fetch_add(T *dest, T value, int pe);                               \
    T shmem_ctx_##N##_atomic_fetch_add(shmem_ctx_t ctx, T *dest, T value, int pe);          \
    void shmem_##N##_atomic_add(T *dest, T value, int pe);                                  \
    void shmem_ctx_##N##_atomic_add(shmem_ctx_t ctx, T *dest, T value, int pe);             \
    void shmem_##N##_atomic_compare_swap_nbi(T *fetch, T *dest, T cond, T value, int pe);   \
    void shmem_ctx_##N##_atomic_compare_swap_nbi(shmem_ctx_t ctx, T *fetch, T *dest, T cond, T value, int pe); \
    void shmem_##N##_atomic_fetch_inc_nbi(T *fetch, T *dest, int pe);                       \
    void shmem_ctx_##N##_atomic_fetch_inc_nbi(shmem_ctx_t ctx, T *fetch, T *dest, int pe);  \
    void shmem_##N##_atomic_fetch_add_nbi(T *fetch, T *dest, T value, int pe);              \
    void shmem_ctx_##N##_atomic_fetch_add_nbi(shmem_ctx_t ctx, T *fetch, T *dest, T value, int pe);
SHMEMI_AMO_STD_TYPES(SHMEMI_DECL_AMO_STD)
#define SHMEMI_DECL_AMO_BIT1(T, N, OP)                                                      \
    T shmem_##N##_atomic_fetch_##OP(T *dest, T value, int pe);                              \
    T shmem_ctx_##N##_atomic_fetch_##OP(shmem_ctx_t ctx, T *dest, T value, int pe);         \
    void shmem_##N##_atomic_##OP(T *dest, T value, int pe);                                 \
    void shmem_ctx_##N##_atomic_##OP(shmem_ctx_t ctx, T *dest, T value, int pe);            \
    void shmem_##N##_atomic_fetch_##OP##_nbi(T *fetch, T *dest, T value, int pe);           \
    void shmem_ctx_##N##_atomic_fetch_##OP##_nbi(shmem_ctx_t ctx, T *fetch, T *dest, T value, int pe);
#define SHMEMI_DECL_AMO_BITWISE(T, N)                                                       \
    SHMEMI_DECL_AMO_BIT1(T, N, and) SHMEMI_DECL_AMO_BIT1(T, N, or) SHMEMI_DECL_AMO_BIT1(T, N, xor)
SHMEMI_AMO_BITWISE_TYPES(SHMEMI_DECL_AMO_BITWISE)
/* Deprecated names (1.3 and earlier). */
#define SHMEMI_DECL_AMO_DEPR_EXT(T, N)                                                      \
    T shmem_##N##_fetch(const T *source, int pe);                                           \
    void shmem_##N##_set(T *dest, T value, int pe);                                         \
    T shmem_##N##_swap(T *dest, T value, int pe);
SHMEMI_AMO_DEPR_EXT_TYPES(SHMEMI_DECL_AMO_DEPR_EXT)
#define SHMEMI_DECL_AMO_DEPR(T, N)                                                          \
    T shmem_##N##_cswap(T *dest, T cond, T value, int pe);                                  \
    T shmem_##N##_finc(T *dest, int pe);                                                    \
    void shmem_##N##_inc(T *dest, int pe);                                                  \
    T shmem_##N##_fadd(T *dest, T value, int pe);                                           \
    void shmem_##N##_add(T *dest, T value, int pe);
SHMEMI_AMO_DEPR_TYPES(SHMEMI_DECL_AMO_DEPR)
long shmem_swap(long *dest, long value, int pe);

/* ------------------------------------------------------------------ locks */
void shmem_set_lock(long *lock);
void shmem_clear_lock(long *lock);
int shmem_test_lock(long *lock);

/* ------------------------------------------------------------------ ordering, sync */
void shmem_quiet(void);
void shmem_fence(void);
void shmem_ctx_quiet(shmem_ctx_t ctx);
void shmem_ctx_fence(shmem_ctx_t ctx);
#define SHMEMI_DECL_WAIT(T, N)                                                              \
    void shmem_##N##_wait_until(T *ivar, int cmp, T cmp_value);                             \
    int shmem_##N##_test(T *ivar, int cmp, T cmp_value);                                    \
    void shmem_##N##_wait_until_all(T *ivars, size_t nelems, const int *status, int cmp, T cmp_value); \
    size_t shmem_##N##_wait_until_any(T *ivars, size_t nelems, const int *status, int cmp, T cmp_value); \
    size_t shmem_##N##_wait_until_some(T *ivars, size_t nelems, size_t *indices, const int *status, int cmp, \
                                       T cmp_value);                                        \
    void shmem_##N##_wait_until_all_vector(T *ivars, size_t nelems, const int *status, int cmp, T *cmp_values); \
    size_t shmem_##N##_wait_until_any_vector(T *ivars, size_t nelems, const int *status, int cmp, \
                                             T *cmp_values);                                \
    size_t shmem_##N##_wait_until_some_vector(T *ivars, size_t nelems, size_t *indices, const int *status, \
                                              int cmp, T *cmp_values);                      \
    int shmem_##N##_test_all(T *ivars, size_t nelems, const int *status, int cmp, T cmp_value); \
    size_t shmem_##N##_test_any(T *ivars, size_t nelems, const int *status, int cmp, T cmp_value); \
    size_t shmem_##N##_test_some(T *ivars, size_t nelems, size_t *indices, const int *status, int cmp, \
                                 T cmp_value);                                              \
    int shmem_##N##_test_all_vector(T *ivars, size_t nelems, const int *status, int cmp, T *cmp_values); \
    size_t shmem_##N##_test_any_vector(T *ivars, size_t nelems, const int *status, int cmp, T *cmp_values); \
    size_t shmem_##N##_test_some_vector(T *ivars, size_t nelems, size_t *indices, const int *status, int cmp, \
                                        T *cmp_values);
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
    int shmem_##N##_alltoall(shmem_team_t team, T *dest, const T *source, size_t nelems);   \
    int shmem_##N##_alltoalls(shmem_team_t team, T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, \
                              size_t nelems);                                               \
    int shmem_##N##_broadcast(shmem_team_t team, T *dest, const T *source, size_t nelems, int PE_root); \
    int shmem_##N##_collect(shmem_team_t team, T *dest, const T *source, size_t nelems);    \
    int shmem_##N##_fcollect(shmem_team_t team, T *dest, const T *source, size_t nelems);
SHMEMI_RMA_TYPES(SHMEMI_DECL_TEAM_COLL)
int shmem_broadcastmem(shmem_team_t team, void *dest, const void *source, size_t nelems, int PE_root);
int shmem_collectmem(shmem_team_t team, void *dest, const void *source, size_t nelems);
int shmem_fcollectmem(shmem_team_t team, void *dest, const void *source, size_t nelems);
int shmem_alltoallmem(shmem_team_t team, void *dest, const void *source, size_t nelems);
int shmem_alltoallsmem(shmem_team_t team, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,
                       size_t nelems);

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
void shmem_alltoall32(void *dest, const void *source, size_t nelems, int PE_start, int logPE_stride, int PE_size,
                      long *pSync);
void shmem_alltoall64(void *dest, const void *source, size_t nelems, int PE_start, int logPE_stride, int PE_size,
                      long *pSync);
void shmem_alltoalls32(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int PE_start,
                       int logPE_stride, int PE_size, long *pSync);
void shmem_alltoalls64(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int PE_start,
                       int logPE_stride, int PE_size, long *pSync);
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
/* Dispatch on the element type: the lvalue conversion in _Generic drops const. P is the
 * prefix: shmem_ or shmem_ctx_ (the forms with a context first). */
#define SHMEMI_GEN_STD_P(x, P, OP)                                                          \
    _Generic((x), float: P##float_##OP, double: P##double_##OP,                             \
             long double: P##longdouble_##OP, char: P##char_##OP,                           \
             signed char: P##schar_##OP, short: P##short_##OP, int: P##int_##OP,            \
             long: P##long_##OP, long long: P##longlong_##OP,                               \
             unsigned char: P##uchar_##OP, unsigned short: P##ushort_##OP,                  \
             unsigned int: P##uint_##OP, unsigned long: P##ulong_##OP,                      \
             unsigned long long: P##ulonglong_##OP)
#define SHMEMI_GEN_STD(x, OP) SHMEMI_GEN_STD_P(x, shmem_, OP)
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
/* Atomics: the standard AMO types, the extended ones (and float, double), the bitwise ones
 * (int and long stand for int32_t and int64_t). */
#define SHMEMI_GEN_AMO_STD_P(x, P, OP)                                                      \
    _Generic((x), int: P##int_##OP, long: P##long_##OP, long long: P##longlong_##OP,        \
             unsigned int: P##uint_##OP, unsigned long: P##ulong_##OP,                      \
             unsigned long long: P##ulonglong_##OP)
#define SHMEMI_GEN_AMO_EXT_P(x, P, OP)                                                      \
    _Generic((x), int: P##int_##OP, long: P##long_##OP, long long: P##longlong_##OP,        \
             unsigned int: P##uint_##OP, unsigned long: P##ulong_##OP,                      \
             unsigned long long: P##ulonglong_##OP, float: P##float_##OP, double: P##double_##OP)
#define SHMEMI_GEN_AMO_BIT_P(x, P, OP)                                                      \
    _Generic((x), unsigned int: P##uint_##OP, unsigned long: P##ulong_##OP,                 \
             unsigned long long: P##ulonglong_##OP, int: P##int32_##OP, long: P##int64_##OP)

/* A context first or not: the forms with one differ by one argument, so the number of
 * arguments picks (plain C99 preprocessor: count, then paste). */
#define SHMEMI_NARG(...) SHMEMI_NARG_(__VA_ARGS__, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define SHMEMI_NARG_(_1, _2, _3, _4, _5, _6, _7, _8, _9, N, ...) N
#define SHMEMI_CAT(a, b) SHMEMI_CAT_(a, b)
#define SHMEMI_CAT_(a, b) a##b
#define SHMEMI_BY_NARG(name, ...) SHMEMI_CAT(name, SHMEMI_NARG(__VA_ARGS__))(__VA_ARGS__)

#define shmem_put(...) SHMEMI_BY_NARG(shmemi_put_, __VA_ARGS__)
#define shmemi_put_4(d, s, n, pe) SHMEMI_GEN_STD(*(d), put)(d, s, n, pe)
#define shmemi_put_5(c, d, s, n, pe) SHMEMI_GEN_STD_P(*(d), shmem_ctx_, put)(c, d, s, n, pe)
#define shmem_put_nbi(...) SHMEMI_BY_NARG(shmemi_put_nbi_, __VA_ARGS__)
#define shmemi_put_nbi_4(d, s, n, pe) SHMEMI_GEN_STD(*(d), put_nbi)(d, s, n, pe)
#define shmemi_put_nbi_5(c, d, s, n, pe) SHMEMI_GEN_STD_P(*(d), shmem_ctx_, put_nbi)(c, d, s, n, pe)
#define shmem_p(...) SHMEMI_BY_NARG(shmemi_p_, __VA_ARGS__)
#define shmemi_p_3(d, v, pe) SHMEMI_GEN_STD(*(d), p)(d, v, pe)
#define shmemi_p_4(c, d, v, pe) SHMEMI_GEN_STD_P(*(d), shmem_ctx_, p)(c, d, v, pe)
#define shmem_iput(...) SHMEMI_BY_NARG(shmemi_iput_, __VA_ARGS__)
#define shmemi_iput_6(d, s, ds, ss, n, pe) SHMEMI_GEN_STD(*(d), iput)(d, s, ds, ss, n, pe)
#define shmemi_iput_7(c, d, s, ds, ss, n, pe) SHMEMI_GEN_STD_P(*(d), shmem_ctx_, iput)(c, d, s, ds, ss, n, pe)
#define shmem_get(...) SHMEMI_BY_NARG(shmemi_get_, __VA_ARGS__)
#define shmemi_get_4(d, s, n, pe) SHMEMI_GEN_STD(*(d), get)(d, s, n, pe)
#define shmemi_get_5(c, d, s, n, pe) SHMEMI_GEN_STD_P(*(d), shmem_ctx_, get)(c, d, s, n, pe)
#define shmem_get_nbi(...) SHMEMI_BY_NARG(shmemi_get_nbi_, __VA_ARGS__)
#define shmemi_get_nbi_4(d, s, n, pe) SHMEMI_GEN_STD(*(d), get_nbi)(d, s, n, pe)
#define shmemi_get_nbi_5(c, d, s, n, pe) SHMEMI_GEN_STD_P(*(d), shmem_ctx_, get_nbi)(c, d, s, n, pe)
#define shmem_g(...) SHMEMI_BY_NARG(shmemi_g_, __VA_ARGS__)
#define shmemi_g_2(s, pe) SHMEMI_GEN_STD(*(s), g)(s, pe)
#define shmemi_g_3(c, s, pe) SHMEMI_GEN_STD_P(*(s), shmem_ctx_, g)(c, s, pe)
#define shmem_iget(...) SHMEMI_BY_NARG(shmemi_iget_, __VA_ARGS__)
#define shmemi_iget_6(d, s, ds, ss, n, pe) SHMEMI_GEN_STD(*(d), iget)(d, s, ds, ss, n, pe)
#define shmemi_iget_7(c, d, s, ds, ss, n, pe) SHMEMI_GEN_STD_P(*(d), shmem_ctx_, iget)(c, d, s, ds, ss, n, pe)
#define shmem_put_signal(...) SHMEMI_BY_NARG(shmemi_put_signal_, __VA_ARGS__)
#define shmemi_put_signal_7(d, s, n, a, v, o, pe) SHMEMI_GEN_STD(*(d), put_signal)(d, s, n, a, v, o, pe)
#define shmemi_put_signal_8(c, d, s, n, a, v, o, pe)                                        \
    SHMEMI_GEN_STD_P(*(d), shmem_ctx_, put_signal)(c, d, s, n, a, v, o, pe)
#define shmem_put_signal_nbi(...) SHMEMI_BY_NARG(shmemi_put_signal_nbi_, __VA_ARGS__)
#define shmemi_put_signal_nbi_7(d, s, n, a, v, o, pe) SHMEMI_GEN_STD(*(d), put_signal_nbi)(d, s, n, a, v, o, pe)
#define shmemi_put_signal_nbi_8(c, d, s, n, a, v, o, pe)                                    \
    SHMEMI_GEN_STD_P(*(d), shmem_ctx_, put_signal_nbi)(c, d, s, n, a, v, o, pe)

/* Atomics, with or without a context. */
#define shmem_atomic_fetch(...) SHMEMI_BY_NARG(shmemi_atomic_fetch_, __VA_ARGS__)
#define shmemi_atomic_fetch_2(s, pe) SHMEMI_GEN_AMO_EXT_P(*(s), shmem_, atomic_fetch)(s, pe)
#define shmemi_atomic_fetch_3(c, s, pe) SHMEMI_GEN_AMO_EXT_P(*(s), shmem_ctx_, atomic_fetch)(c, s, pe)
#define shmem_atomic_set(...) SHMEMI_BY_NARG(shmemi_atomic_set_, __VA_ARGS__)
#define shmemi_atomic_set_3(d, v, pe) SHMEMI_GEN_AMO_EXT_P(*(d), shmem_, atomic_set)(d, v, pe)
#define shmemi_atomic_set_4(c, d, v, pe) SHMEMI_GEN_AMO_EXT_P(*(d), shmem_ctx_, atomic_set)(c, d, v, pe)
#define shmem_atomic_swap(...) SHMEMI_BY_NARG(shmemi_atomic_swap_, __VA_ARGS__)
#define shmemi_atomic_swap_3(d, v, pe) SHMEMI_GEN_AMO_EXT_P(*(d), shmem_, atomic_swap)(d, v, pe)
#define shmemi_atomic_swap_4(c, d, v, pe) SHMEMI_GEN_AMO_EXT_P(*(d), shmem_ctx_, atomic_swap)(c, d, v, pe)
#define shmem_atomic_compare_swap(...) SHMEMI_BY_NARG(shmemi_atomic_compare_swap_, __VA_ARGS__)
#define shmemi_atomic_compare_swap_4(d, k, v, pe) SHMEMI_GEN_AMO_STD_P(*(d), shmem_, atomic_compare_swap)(d, k, v, pe)
#define shmemi_atomic_compare_swap_5(c, d, k, v, pe)                                        \
    SHMEMI_GEN_AMO_STD_P(*(d), shmem_ctx_, atomic_compare_swap)(c, d, k, v, pe)
#define shmem_atomic_fetch_inc(...) SHMEMI_BY_NARG(shmemi_atomic_fetch_inc_, __VA_ARGS__)
#define shmemi_atomic_fetch_inc_2(d, pe) SHMEMI_GEN_AMO_STD_P(*(d), shmem_, atomic_fetch_inc)(d, pe)
#define shmemi_atomic_fetch_inc_3(c, d, pe) SHMEMI_GEN_AMO_STD_P(*(d), shmem_ctx_, atomic_fetch_inc)(c, d, pe)
#define shmem_atomic_inc(...) SHMEMI_BY_NARG(shmemi_atomic_inc_, __VA_ARGS__)
#define shmemi_atomic_inc_2(d, pe) SHMEMI_GEN_AMO_STD_P(*(d), shmem_, atomic_inc)(d, pe)
#define shmemi_atomic_inc_3(c, d, pe) SHMEMI_GEN_AMO_STD_P(*(d), shmem_ctx_, atomic_inc)(c, d, pe)
#define shmem_atomic_fetch_add(...) SHMEMI_BY_NARG(shmemi_atomic_fetch_add_, __VA_ARGS__)
#define shmemi_atomic_fetch_add_3(d, v, pe) SHMEMI_GEN_AMO_STD_P(*(d), shmem_, atomic_fetch_add)(d, v, pe)
#define shmemi_atomic_fetch_add_4(c, d, v, pe) SHMEMI_GEN_AMO_STD_P(*(d), shmem_ctx_, atomic_fetch_add)(c, d, v, pe)
#define shmem_atomic_add(...) SHMEMI_BY_NARG(shmemi_atomic_add_, __VA_ARGS__)
#define shmemi_atomic_add_3(d, v, pe) SHMEMI_GEN_AMO_STD_P(*(d), shmem_, atomic_add)(d, v, pe)
#define shmemi_atomic_add_4(c, d, v, pe) SHMEMI_GEN_AMO_STD_P(*(d), shmem_ctx_, atomic_add)(c, d, v, pe)
#define shmem_atomic_fetch_and(...) SHMEMI_BY_NARG(shmemi_atomic_fetch_and_, __VA_ARGS__)
#define shmemi_atomic_fetch_and_3(d, v, pe) SHMEMI_GEN_AMO_BIT_P(*(d), shmem_, atomic_fetch_and)(d, v, pe)
#define shmemi_atomic_fetch_and_4(c, d, v, pe) SHMEMI_GEN_AMO_BIT_P(*(d), shmem_ctx_, atomic_fetch_and)(c, d, v, pe)
#define shmem_atomic_and(...) SHMEMI_BY_NARG(shmemi_atomic_and_, __VA_ARGS__)
#define shmemi_atomic_and_3(d, v, pe) SHMEMI_GEN_AMO_BIT_P(*(d), shmem_, atomic_and)(d, v, pe)
#define shmemi_atomic_and_4(c, d, v, pe) SHMEMI_GEN_AMO_BIT_P(*(d), shmem_ctx_, atomic_and)(c, d, v, pe)
#define shmem_atomic_fetch_or(...) SHMEMI_BY_NARG(shmemi_atomic_fetch_or_, __VA_ARGS__)
#define shmemi_atomic_fetch_or_3(d, v, pe) SHMEMI_GEN_AMO_BIT_P(*(d), shmem_, atomic_fetch_or)(d, v, pe)
#define shmemi_atomic_fetch_or_4(c, d, v, pe) SHMEMI_GEN_AMO_BIT_P(*(d), shmem_ctx_, atomic_fetch_or)(c, d, v, pe)
#define shmem_atomic_or(...) SHMEMI_BY_NARG(shmemi_atomic_or_, __VA_ARGS__)
#define shmemi_atomic_or_3(d, v, pe) SHMEMI_GEN_AMO_BIT_P(*(d), shmem_, atomic_or)(d, v, pe)
#define shmemi_atomic_or_4(c, d, v, pe) SHMEMI_GEN_AMO_BIT_P(*(d), shmem_ctx_, atomic_or)(c, d, v, pe)
#define shmem_atomic_fetch_xor(...) SHMEMI_BY_NARG(shmemi_atomic_fetch_xor_, __VA_ARGS__)
#define shmemi_atomic_fetch_xor_3(d, v, pe) SHMEMI_GEN_AMO_BIT_P(*(d), shmem_, atomic_fetch_xor)(d, v, pe)
#define shmemi_atomic_fetch_xor_4(c, d, v, pe) SHMEMI_GEN_AMO_BIT_P(*(d), shmem_ctx_, atomic_fetch_xor)(c, d, v, pe)
#define shmem_atomic_xor(...) SHMEMI_BY_NARG(shmemi_atomic_xor_, __VA_ARGS__)
#define shmemi_atomic_xor_3(d, v, pe) SHMEMI_GEN_AMO_BIT_P(*(d), shmem_, atomic_xor)(d, v, pe)
#define shmemi_atomic_xor_4(c, d, v, pe) SHMEMI_GEN_AMO_BIT_P(*(d), shmem_ctx_, atomic_xor)(c, d, v, pe)
/* Non-blocking fetching atomics (the fetch pointer first, after the context if any). */
#define shmem_atomic_fetch_nbi(...) SHMEMI_BY_NARG(shmemi_atomic_fetch_nbi_, __VA_ARGS__)
#define shmemi_atomic_fetch_nbi_3(f, s, pe) SHMEMI_GEN_AMO_EXT_P(*(s), shmem_, atomic_fetch_nbi)(f, s, pe)
#define shmemi_atomic_fetch_nbi_4(c, f, s, pe) SHMEMI_GEN_AMO_EXT_P(*(s), shmem_ctx_, atomic_fetch_nbi)(c, f, s, pe)
#define shmem_atomic_swap_nbi(...) SHMEMI_BY_NARG(shmemi_atomic_swap_nbi_, __VA_ARGS__)
#define shmemi_atomic_swap_nbi_4(f, d, v, pe) SHMEMI_GEN_AMO_EXT_P(*(d), shmem_, atomic_swap_nbi)(f, d, v, pe)
#define shmemi_atomic_swap_nbi_5(c, f, d, v, pe) SHMEMI_GEN_AMO_EXT_P(*(d), shmem_ctx_, atomic_swap_nbi)(c, f, d, v, pe)
#define shmem_atomic_compare_swap_nbi(...) SHMEMI_BY_NARG(shmemi_atomic_compare_swap_nbi_, __VA_ARGS__)
#define shmemi_atomic_compare_swap_nbi_5(f, d, k, v, pe)                                    \
    SHMEMI_GEN_AMO_STD_P(*(d), shmem_, atomic_compare_swap_nbi)(f, d, k, v, pe)
#define shmemi_atomic_compare_swap_nbi_6(c, f, d, k, v, pe)                                 \
    SHMEMI_GEN_AMO_STD_P(*(d), shmem_ctx_, atomic_compare_swap_nbi)(c, f, d, k, v, pe)
#define shmem_atomic_fetch_inc_nbi(...) SHMEMI_BY_NARG(shmemi_atomic_fetch_inc_nbi_, __VA_ARGS__)
#define shmemi_atomic_fetch_inc_nbi_3(f, d, pe) SHMEMI_GEN_AMO_STD_P(*(d), shmem_, atomic_fetch_inc_nbi)(f, d, pe)
#define shmemi_atomic_fetch_inc_nbi_4(c, f, d, pe)                                          \
    SHMEMI_GEN_AMO_STD_P(*(d), shmem_ctx_, atomic_fetch_inc_nbi)(c, f, d, pe)
#define shmem_atomic_fetch_add_nbi(...) SHMEMI_BY_NARG(shmemi_atomic_fetch_add_nbi_, __VA_ARGS__)
#define shmemi_atomic_fetch_add_nbi_4(f, d, v, pe)                                          \
    SHMEMI_GEN_AMO_STD_P(*(d), shmem_, atomic_fetch_add_nbi)(f, d, v, pe)
#define shmemi_atomic_fetch_add_nbi_5(c, f, d, v, pe)                                       \
    SHMEMI_GEN_AMO_STD_P(*(d), shmem_ctx_, atomic_fetch_add_nbi)(c, f, d, v, pe)
#define shmem_atomic_fetch_and_nbi(...) SHMEMI_BY_NARG(shmemi_atomic_fetch_and_nbi_, __VA_ARGS__)
#define shmemi_atomic_fetch_and_nbi_4(f, d, v, pe)                                          \
    SHMEMI_GEN_AMO_BIT_P(*(d), shmem_, atomic_fetch_and_nbi)(f, d, v, pe)
#define shmemi_atomic_fetch_and_nbi_5(c, f, d, v, pe)                                       \
    SHMEMI_GEN_AMO_BIT_P(*(d), shmem_ctx_, atomic_fetch_and_nbi)(c, f, d, v, pe)
#define shmem_atomic_fetch_or_nbi(...) SHMEMI_BY_NARG(shmemi_atomic_fetch_or_nbi_, __VA_ARGS__)
#define shmemi_atomic_fetch_or_nbi_4(f, d, v, pe)                                           \
    SHMEMI_GEN_AMO_BIT_P(*(d), shmem_, atomic_fetch_or_nbi)(f, d, v, pe)
#define shmemi_atomic_fetch_or_nbi_5(c, f, d, v, pe)                                        \
    SHMEMI_GEN_AMO_BIT_P(*(d), shmem_ctx_, atomic_fetch_or_nbi)(c, f, d, v, pe)
#define shmem_atomic_fetch_xor_nbi(...) SHMEMI_BY_NARG(shmemi_atomic_fetch_xor_nbi_, __VA_ARGS__)
#define shmemi_atomic_fetch_xor_nbi_4(f, d, v, pe)                                          \
    SHMEMI_GEN_AMO_BIT_P(*(d), shmem_, atomic_fetch_xor_nbi)(f, d, v, pe)
#define shmemi_atomic_fetch_xor_nbi_5(c, f, d, v, pe)                                       \
    SHMEMI_GEN_AMO_BIT_P(*(d), shmem_ctx_, atomic_fetch_xor_nbi)(c, f, d, v, pe)
/* Deprecated generic names (1.3), on the deprecated names' types. */
#define SHMEMI_GEN_AMO_DEPR(x, OP) _Generic((x), int: shmem_int_##OP, long: shmem_long_##OP, long long: shmem_longlong_##OP)
#define SHMEMI_GEN_AMO_DEPR_EXT(x, OP)                                                      \
    _Generic((x), int: shmem_int_##OP, long: shmem_long_##OP, long long: shmem_longlong_##OP, \
             float: shmem_float_##OP, double: shmem_double_##OP)
#define shmem_fetch(s, pe) SHMEMI_GEN_AMO_DEPR_EXT(*(s), fetch)(s, pe)
#define shmem_set(d, v, pe) SHMEMI_GEN_AMO_DEPR_EXT(*(d), set)(d, v, pe)
#define shmem_swap(d, v, pe) SHMEMI_GEN_AMO_DEPR_EXT(*(d), swap)(d, v, pe)
#define shmem_cswap(d, k, v, pe) SHMEMI_GEN_AMO_DEPR(*(d), cswap)(d, k, v, pe)
#define shmem_finc(d, pe) SHMEMI_GEN_AMO_DEPR(*(d), finc)(d, pe)
#define shmem_inc(d, pe) SHMEMI_GEN_AMO_DEPR(*(d), inc)(d, pe)
#define shmem_fadd(d, v, pe) SHMEMI_GEN_AMO_DEPR(*(d), fadd)(d, v, pe)
#define shmem_add(d, v, pe) SHMEMI_GEN_AMO_DEPR(*(d), add)(d, v, pe)

/* Point-to-point synchronization. */
#define shmem_wait_until(ivar, cmp, cmp_value) SHMEMI_GEN_SYNC(*(ivar), wait_until)(ivar, cmp, cmp_value)
#define shmem_test(ivar, cmp, cmp_value) SHMEMI_GEN_SYNC(*(ivar), test)(ivar, cmp, cmp_value)
#define shmem_wait_until_all(v, n, st, cmp, x) SHMEMI_GEN_SYNC(*(v), wait_until_all)(v, n, st, cmp, x)
#define shmem_wait_until_any(v, n, st, cmp, x) SHMEMI_GEN_SYNC(*(v), wait_until_any)(v, n, st, cmp, x)
#define shmem_wait_until_some(v, n, ix, st, cmp, x) SHMEMI_GEN_SYNC(*(v), wait_until_some)(v, n, ix, st, cmp, x)
#define shmem_wait_until_all_vector(v, n, st, cmp, x) SHMEMI_GEN_SYNC(*(v), wait_until_all_vector)(v, n, st, cmp, x)
#define shmem_wait_until_any_vector(v, n, st, cmp, x) SHMEMI_GEN_SYNC(*(v), wait_until_any_vector)(v, n, st, cmp, x)
#define shmem_wait_until_some_vector(v, n, ix, st, cmp, x)                                  \
    SHMEMI_GEN_SYNC(*(v), wait_until_some_vector)(v, n, ix, st, cmp, x)
#define shmem_test_all(v, n, st, cmp, x) SHMEMI_GEN_SYNC(*(v), test_all)(v, n, st, cmp, x)
#define shmem_test_any(v, n, st, cmp, x) SHMEMI_GEN_SYNC(*(v), test_any)(v, n, st, cmp, x)
#define shmem_test_some(v, n, ix, st, cmp, x) SHMEMI_GEN_SYNC(*(v), test_some)(v, n, ix, st, cmp, x)
#define shmem_test_all_vector(v, n, st, cmp, x) SHMEMI_GEN_SYNC(*(v), test_all_vector)(v, n, st, cmp, x)
#define shmem_test_any_vector(v, n, st, cmp, x) SHMEMI_GEN_SYNC(*(v), test_any_vector)(v, n, st, cmp, x)
#define shmem_test_some_vector(v, n, ix, st, cmp, x) SHMEMI_GEN_SYNC(*(v), test_some_vector)(v, n, ix, st, cmp, x)
/* shmem_sync(team) (1.5) beside the active-set shmem_sync of 1.4. */
#define shmem_sync(...) SHMEMI_BY_NARG(shmemi_sync_, __VA_ARGS__)
#define shmemi_sync_1(team) shmem_team_sync(team)
#define shmemi_sync_4(start, logstride, size, psync) (shmem_sync)(start, logstride, size, psync)

/* Collectives. */
#define shmem_broadcast(team, dest, source, nelems, PE_root) \
    SHMEMI_GEN_STD(*(dest), broadcast)(team, dest, source, nelems, PE_root)
#define shmem_collect(team, dest, source, nelems) SHMEMI_GEN_STD(*(dest), collect)(team, dest, source, nelems)
#define shmem_fcollect(team, dest, source, nelems) SHMEMI_GEN_STD(*(dest), fcollect)(team, dest, source, nelems)
#define shmem_alltoall(team, dest, source, nelems) SHMEMI_GEN_STD(*(dest), alltoall)(team, dest, source, nelems)
#define shmem_alltoalls(team, dest, source, dst, sst, nelems) \
    SHMEMI_GEN_STD(*(dest), alltoalls)(team, dest, source, dst, sst, nelems)
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

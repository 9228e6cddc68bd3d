/* shmem_internal.h: the library context of libcanopy_shmem and the helpers its source
 * files share (init.c, heap.c, p2p.c, sync.c, coll_hw.c, coll_sw.c, collectives.c,
 * teams.c, stats.c). Not installed.
 *
 * Window layout (one registered libcanopy window per PE, the same on every PE):
 *
 *   0 ............ data_len            the program's .data+.bss pages (aliased, init.c)
 *   heap_off ..... heap_off+heap_size  the symmetric heap (heap.c)
 *   chan_off ..... + npes*CHAN_BYTES   software-collective channels, one per peer (coll_sw.c)
 *   bounce_off ... + BOUNCE_BYTES      gets into non-symmetric memory land here first (p2p.c)
 *   red_off ...... + RED_BYTES         widened results of hardware reduces of short/char (coll_hw.c)
 *   amo_off ...... + AMO_SLOTS*8       old values of atomics: slot 0 for blocking ones, the
 *                                      others for non-blocking ones into private memory (atomics.c)
 *
 * A symmetric address (a global in .data/.bss, or a heap block) has the same window
 * offset on every PE: shmi_offset() translates.
 */
#ifndef SHMEM_INTERNAL_H
#define SHMEM_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "canopy.h"
#include "canopy_fm.h"
#include "shmem.h"

#define SHMI_TIMEOUT_NS (60ull * 1000 * 1000 * 1000) /* per wait; the simulator's watchdogs come first */
#define SHMI_CHUNK 1024u      /* payload bytes of one channel message */
#define SHMI_CHAN_BYTES (64u + 2u * (16u + SHMI_CHUNK)) /* counts, then two slots (header + payload) */
#define SHMI_BOUNCE_BYTES (64u * 1024u)
#define SHMI_RED_BYTES (64u * 1024u)
#define SHMI_AMO_SLOTS 512u   /* 8-byte reply slots of atomics */
#define SHMI_DEFAULT_HEAP ((size_t)256 << 20) /* SHMEM_SYMMETRIC_SIZE unset (docs/shmem.md) */
#define SHMI_MAX_TREES 16
#define SHMI_WORLD_TREE 0u
#define SHMI_MAX_STRIDE_LOG 7 /* stride trees for logPE_stride 1..7 (ids 1..7) at most */

/* A set of PEs: world PEs start + i*stride for i < size (every team and active set here is
 * strided in world numbering; the stride is negative for a team split with one). */
struct shmi_group {
    int start, stride, size;
    int me;         /* my index in the group, -1 if not a member */
    int tree;       /* hardware tree id (a tree whose member set is exactly the group), or -1 */
    int tree_root;  /* world PE at the tree's root */
};

struct shmemi_team {
    struct shmi_group g;
    shmem_team_config_t config;
    long config_mask;
};

/* A context (shmem_ctx_create, shmem_team_create_ctx). Never freed: a destroyed one stays
 * marked, so a call that still uses it is told so (p2p.c). */
struct shmemi_ctx {
    uint32_t magic;          /* SHMI_CTX_MAGIC while live, SHMI_CTX_DEAD after destroy */
    long options;
    struct shmemi_team *team; /* NULL: the world team */
    struct shmemi_ctx *next;  /* every context ever made */
};
#define SHMI_CTX_MAGIC 0x43545831u
#define SHMI_CTX_DEAD 0x44454144u

/* Active sets (1.4 API) seen so far, with their lazily made trees. */
struct shmi_aset {
    int start, logstride, size;
    struct shmi_group g;
};

enum shmi_kind { K_BARRIER, K_SYNC, K_BCAST, K_REDUCE, K_COLLECT, K_FCOLLECT, K_ALLTOALL, K_NKINDS };
struct shmi_stats {
    uint64_t hw[K_NKINDS], sw[K_NKINDS];
};

/* Reduce operations and element classes (what the software path combines). */
enum shmi_op { OP_SUM, OP_PROD, OP_MIN, OP_MAX, OP_AND, OP_OR, OP_XOR };
enum shmi_class {
    C_I8, C_I16, C_I32, C_I64, C_U8, C_U16, C_U32, C_U64, C_F32, C_F64, C_FLD, C_CF32, C_CF64
};
struct shmi_dtype {
    enum shmi_class cls;
    size_t size;
};

struct shmi_ctx {
    int initialized, finalized;
    int exiting;               /* init.c: in the implicit finalize at exit */
    long init_pid;             /* init.c: the process that called shmem_init (not a fork of it) */
    canopy_dev *dev;
    int me, npes;
    uint8_t *win;
    size_t win_size;
    /* .data/.bss alias: [data_lo, data_hi) is window offset 0.. */
    uintptr_t data_lo, data_hi;
    int data_aliased;
    uint64_t heap_off, heap_size;
    struct shmi_block *blocks; /* heap.c */
    uint64_t win_align;        /* heap.c: the PEs' window bases agree modulo this; 0 = not agreed yet */
    uint64_t chan_off, bounce_off, red_off, amo_off;
    /* Atomics (atomics.c): non-blocking fetching atomics into private memory wait in
     * reply slots until the next quiet copies them out; amo_outstanding: a non-fetching or
     * non-blocking atomic was issued since the last quiet (fence then waits for it). */
    struct shmi_amo_pending { void *dst; unsigned size; } *amo_pending;
    unsigned amo_npending;
    int amo_outstanding;
    /* Threads (init.c): SHMEM_THREAD_* provided. */
    int thread_level;
    struct shmemi_ctx *ctxs;
    /* Wait/test _any (sync.c): the scan starts after the index the previous _any call
     * returned, so repeated calls with several variables satisfied return each in turn. */
    size_t any_next;
    /* Channels (coll_sw.c): messages sent to / consumed from each peer. */
    uint64_t *sent, *consumed;
    /* Trees (coll_hw.c). */
    unsigned ntrees;        /* usable tree ids (device CAPS, at most SHMI_MAX_TREES) */
    uint32_t member_ids;    /* ids of live trees this PE is a member of */
    uint32_t transit_ids;   /* ids this PE's router may hold as a transit node (conservative) */
    uint32_t reserved_ids;  /* ids programmed at shmem_init on every router, never reused: the
                             * world tree and the stride trees */
    /* Stride trees (coll_hw.c): stride[k] for logPE_stride k = 1..nstride is the tree of
     * the active set (0, k, size); tree -1 when not made. */
    int nstride;
    int nworld_stripe;      /* trees the world team's reductions spread over (1: its own alone) */
    struct { int tree, root, size; } stride[SHMI_MAX_STRIDE_LOG + 1];
    struct canopy_fm_torus torus;
    int hw;                 /* CANOPY_SHMEM_HW (default 1) */
    uint64_t coll_timeout_ns; /* CANOPY_SHMEM_COLL_TIMEOUT_US (libcanopy's default when unset) */
    int links_down;         /* fault.c: dead link ends known (then no collective runs in hardware) */
    uint64_t world_done;    /* fault.c: world-team hardware collectives completed here ... */
    uint8_t *last;          /* ... the last one's result as it landed (reduce, broadcast) */
    size_t last_bytes, last_cap;
    int stats_mode;         /* CANOPY_SHMEM_STATS: 0 off, 1 PE 0, 2 every PE */
    struct shmi_stats stats;
    struct shmemi_team world, shared;
    struct shmi_aset *asets;
    int nasets, asets_cap;
    struct shmemi_team **teams; /* live user-created teams, to recognize their handles */
    int nteams, teams_cap;
};

extern struct shmi_ctx shmi;

/* ---- errors (init.c) ---- */
/* Print "canopy-shmem: PE n: <call>: <message>" and stop the whole program (exit 1). */
void shmi_fatal(const char *call, const char *fmt, ...) SHMEMI_NORETURN __attribute__((format(printf, 2, 3)));
/* The same for a failed libcanopy call. */
void shmi_check(const char *call, const char *what, int rc);
void shmi_require_init(const char *call);
void shmi_check_pe(const char *call, int pe);

/* ---- addresses (init.c) ---- */
/* Window offset of [p, p+len) if it is symmetric (all of it in the data alias or the heap),
 * else -1. */
int64_t shmi_offset(const void *p, size_t len);
/* The same, stopping with a message naming the call if it is not. */
uint64_t shmi_sym(const char *call, const void *p, size_t len);
static inline void *shmi_local(uint64_t off) { return shmi.win + off; }

/* ---- threads (init.c) ----
 * With SHMEM_THREAD_MULTIPLE every entry point holds one recursive lock (SHMI_LOCKED at
 * its top: released when the function returns); waits that depend on other PEs' software
 * (shmi_wait_u64, shmi_progress, collective completions) release it between short slices
 * so the PE's other threads can go on. Other levels: no lock. */
int shmi_lock_enter(void);
void shmi_lock_leave(int *held);
#define SHMI_LOCKED __attribute__((cleanup(shmi_lock_leave), unused)) int shmi_lock_held_ = shmi_lock_enter()
/* Give the lock up entirely for a moment (MULTIPLE), then take it back as it was held. */
void shmi_lock_yield(void);
/* Block until the window word w compares to v (canopy_wait_u64), or, for progress, until
 * the device writes anything or timeout_ns passes (canopy_wait_any). */
void shmi_wait_u64(const char *call, const volatile uint64_t *w, int cmp, uint64_t v);
void shmi_progress(const char *call, uint64_t timeout_ns);
/* Wait for a collective's completion the same way. */
int shmi_coll_wait(struct canopy_coll *c);
/* A read of this PE's own memory (window offset off) found `value`: if the previous such
 * read was of the same word and found the same, let the device run a moment first (a
 * loop polling memory through the library must see the device's writes land; under the
 * co-simulation no time passes otherwise). */
void shmi_poll(const char *call, uint64_t off, uint64_t value);

/* ---- point to point (p2p.c), world PE numbers ---- */
void shmi_put(const char *call, void *dest, const void *src, size_t len, int pe);
void shmi_get(const char *call, void *dest, const void *src, size_t len, int pe, int nbi);
void shmi_quiet(const char *call);
void shmi_fence(const char *call);
/* A context's world PE for its pe (team contexts number PEs in their team), and the
 * context checked: SHMEM_CTX_INVALID or a destroyed one stops the program. */
int shmi_ctx_pe(const char *call, shmem_ctx_t ctx, int pe);
void shmi_ctx_check(const char *call, shmem_ctx_t ctx);

/* ---- atomics (atomics.c) ---- */
/* Atomic op (CANOPY_AMO_*) on the size-byte symmetric object at dest of world PE pe. The
 * blocking form returns the old value (zero-extended); the non-blocking one writes it to
 * *fetch at the next quiet (NULL: no value wanted). */
uint64_t shmi_amo(const char *call, void *dest, unsigned size, unsigned op, uint64_t operand, uint64_t compare, int pe);
void shmi_amo_nbi(const char *call, void *fetch, void *dest, unsigned size, unsigned op, uint64_t operand,
                  uint64_t compare, int pe);
void shmi_amo_quiet(void); /* after canopy_quiet: deliver the pending fetched values */

/* ---- heap (heap.c) ---- */
void shmi_heap_init(void);
void shmi_heap_fini(void);

/* ---- waiting (sync.c) ---- */
/* Block until the 64-bit window word at offset off satisfies pred(word, arg). */
void shmi_wait_word(uint64_t off, int cmp, uint64_t value);

/* ---- groups ---- */
static inline int shmi_group_pe(const struct shmi_group *g, int i) { return g->start + i * g->stride; }
/* Index of world PE pe in g, or -1. */
static inline int shmi_group_index(const struct shmi_group *g, int pe)
{
    int d = pe - g->start;
    if (g->stride == 0) return d == 0 && g->size >= 1 ? 0 : -1;
    if (d % g->stride) return -1;
    const int i = d / g->stride; /* a team split with a negative stride has a negative one */
    return i >= 0 && i < g->size ? i : -1;
}
void shmi_group_init(struct shmi_group *g, int start, int stride, int size);
struct shmi_group *shmi_aset_group(const char *call, int start, int logstride, int size);

/* ---- software collectives (coll_sw.c) ---- */
void shmi_chan_init(void);
/* The tree-ready message of coll_hw.c and the dead-link map of fault.c (the other tags:
 * coll_sw.c). */
enum { SHMI_TAG_TREE = 8, SHMI_TAG_DEAD = 9 };
/* One flow-controlled message of at most SHMI_CHUNK bytes to / from a world PE. */
void shmi_send(int pe, uint32_t tag, const void *buf, size_t len);
void shmi_recv(int pe, uint32_t tag, void *buf, size_t len);
/* The same, giving up after timeout_ns of device time (CANOPY_ETIMEDOUT; nothing consumed). */
int shmi_recv_within(int pe, uint32_t tag, void *buf, size_t len, uint64_t timeout_ns);
void shmi_sw_barrier(const struct shmi_group *g);
void shmi_sw_bcast(const struct shmi_group *g, uint64_t dst_off, const void *src, size_t len, int root_idx,
                   int write_root);
void shmi_sw_allreduce(const struct shmi_group *g, void *dest, const void *src, size_t count,
                       struct shmi_dtype t, enum shmi_op op);
void shmi_sw_collect(const struct shmi_group *g, uint64_t dst_off, const void *src, size_t len, int fixed);
/* Bitwise OR of a 32-bit word over the group (tree-id agreement). */
uint32_t shmi_sw_or32(const struct shmi_group *g, uint32_t v);
void shmi_combine(void *acc, const void *in, size_t count, struct shmi_dtype t, enum shmi_op op);

/* ---- links that die (fault.c) ---- */
/* A hardware collective on g completed here: its result, bytes at data (what landed in
 * dest), is kept for PEs that missed it when a link died under it. */
void shmi_hw_done(const struct shmi_group *g, const void *data, size_t bytes);
/* A hardware collective on g ended with CANOPY_ETREEDOWN: recover with every PE (they
 * learn the dead links; collectives go on in software) or stop with the reason. Returns
 * 1 if the call turned out complete elsewhere (its result, bytes long, is now at window
 * offset off; SHMI_NO_OFF: not written), 0 if the caller must run it in software. */
#define SHMI_NO_OFF UINT64_MAX
int shmi_links_failed(const struct shmi_group *g, const char *call, uint64_t off, size_t bytes);
/* bytes at buf, from member root to every member of g, as messages down the tree of live
 * routes (coll_sw.c; links must be known down). */
void shmi_sw_bcast_msgs(const struct shmi_group *g, int root, void *buf, size_t bytes);

/* ---- hardware collectives (coll_hw.c) ---- */
void shmi_hw_init(void);
/* Make (once) and attach a tree for each group in gs[0..n) that can have one; the call is
 * collective over `over` (the parent team / the active set itself). why names the groups
 * in messages ("team", "active set"). */
void shmi_hw_make_trees(const struct shmi_group *over, struct shmi_group **gs, int n, const char *why);
void shmi_hw_release(struct shmi_group *g);
/* If the active set (start, logstride, size) is exactly a stride tree's member set (made at
 * shmem_init: (0, k, PEs divisible by 2^k)), give g that tree and return 1; else 0. */
int shmi_hw_stride_tree(struct shmi_group *g, int start, int logstride, int size);
int shmi_hw_barrier(const struct shmi_group *g);
int shmi_hw_bcast(const struct shmi_group *g, uint64_t dst_off, const void *src, size_t len, int root_idx,
                  int write_root);
int shmi_hw_allreduce(const struct shmi_group *g, uint64_t dst_off, const void *src, size_t count,
                      struct shmi_dtype t, enum shmi_op op);

/* ---- the collective operations, choosing hardware or software (collectives.c) ---- */
void shmi_barrier(const struct shmi_group *g, int quiet_first);
void shmi_bcast(const struct shmi_group *g, void *dest, const void *src, size_t len, int root_idx,
                int write_root, const char *call);
void shmi_reduce(const struct shmi_group *g, void *dest, const void *src, size_t count, struct shmi_dtype t,
                 enum shmi_op op, const char *call);
void shmi_collect(const struct shmi_group *g, void *dest, const void *src, size_t len, int fixed,
                  const char *call);

/* ---- teams (teams.c) ---- */
struct shmemi_team *shmi_team(const char *call, shmem_team_t t); /* NULL for SHMEM_TEAM_INVALID */

/* ---- stats (stats.c) ---- */
static inline void shmi_count(enum shmi_kind k, int hw)
{
    if (hw) ++shmi.stats.hw[k];
    else ++shmi.stats.sw[k];
}
void shmi_stats_print(void);

#endif /* SHMEM_INTERNAL_H */

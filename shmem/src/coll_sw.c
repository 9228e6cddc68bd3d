/* coll_sw.c: collectives in software, over puts: the path for everything the routers
 * cannot do (prod, and/or/xor, floating point, complex, collect/fcollect, groups without
 * a tree) and for everything when CANOPY_SHMEM_HW=0.
 *
 * Channels. Every PE keeps, in its window, one channel per peer: a message count and an
 * acknowledgement count written by that peer, and two message slots. Sending message k to
 * PE d: wait until d has consumed message k-2 (its acknowledgement, in my window), put the
 * slot (header + payload) then the count k; puts from one source to one target arrive in
 * order, so d sees the slot before the count. Receiving: wait for the count, check the
 * header (kind and length: a mismatch means two PEs disagree about which collective comes
 * next, reported instead of computing garbage), copy, acknowledge. Counts only grow, so
 * no word is ever reset and no pSync is needed. Contract: two PEs issue the collectives
 * they share in the same order (true of any program that does not deadlock on blocking
 * collectives, with one exception: broadcasts of different groups issued in opposite
 * orders, see docs/shmem.md).
 *
 * Algorithms (correct first; the routers are the fast path): dissemination barrier;
 * broadcast: the root puts the data into every member's dest, then a message; allreduce:
 * every member sends its vector in chunks to member 0, which combines in member order
 * (so every PE gets the same bits, floating point included) and puts the result into
 * every member's dest; collect/fcollect: every member puts its block into every member's
 * dest, then a message to each.
 *
 * Once links are down (fault.c) some pairs of PEs have no route, so every collective runs
 * over a spanning tree of the live routes instead (live_tree: breadth first from the
 * root, members in order, so every PE builds the same tree from the same map): barrier,
 * reduce and the OR go up to the root and back down; a broadcast goes down from its root;
 * collect is an allreduce of the lengths, then one broadcast per member. Alltoall still
 * puts directly, so a pair without a route stops it (CANOPY_EUNREACH).
 */
#include <complex.h>
#include <stdlib.h>
#include <string.h>

#include "shmem_internal.h"

enum { SLOT_HDR = 16, SLOT_BYTES = SLOT_HDR + SHMI_CHUNK, CHAN_SEQ = 0, CHAN_ACK = 8, CHAN_SLOTS = 64 };
_Static_assert(CHAN_SLOTS + 2 * SLOT_BYTES == SHMI_CHAN_BYTES, "channel layout");

enum { TAG_BARRIER = 1, TAG_BCAST, TAG_RED, TAG_RED_DONE, TAG_LEN, TAG_COLLECT, TAG_OR, TAG_TREE, TAG_DEAD };
_Static_assert((int)TAG_TREE == (int)SHMI_TAG_TREE && (int)TAG_DEAD == (int)SHMI_TAG_DEAD, "tag numbering");
/* A reduce's messages also name its type and operation (bits 8 and up), so PEs that
 * disagree on which reduce comes next are told so, not handed each other's bits. */
static uint32_t red_tag(uint32_t tag, struct shmi_dtype t, enum shmi_op op)
{
    return tag | ((uint32_t)t.cls + 1u) << 8 | ((uint32_t)op + 1u) << 16;
}
static const char *tag_name(uint32_t t)
{
    t &= 0xffu;
    static const char *const n[] = {"?", "barrier", "broadcast", "reduce contribution", "reduce result",
                                    "collect size", "collect", "tree agreement", "tree ready", "dead links"};
    return t < sizeof n / sizeof n[0] ? n[t] : "?";
}

/* My channel for peer pe: written by pe. */
static uint64_t chan(int pe) { return shmi.chan_off + (uint64_t)pe * SHMI_CHAN_BYTES; }

void shmi_chan_init(void)
{
    shmi.sent = calloc((size_t)shmi.npes, sizeof *shmi.sent);
    shmi.consumed = calloc((size_t)shmi.npes, sizeof *shmi.consumed);
    if (!shmi.sent || !shmi.consumed) shmi_fatal("shmem_init", "out of memory");
}

void shmi_send(int pe, uint32_t tag, const void *buf, size_t len)
{
    if (len > SHMI_CHUNK || pe == shmi.me) shmi_fatal("shmem (internal)", "bad message to PE %d (%zu bytes)", pe, len);
    const uint64_t k = ++shmi.sent[pe];
    if (k > 2) shmi_wait_word(chan(pe) + CHAN_ACK, CANOPY_CMP_GE, k - 2);
    uint8_t slot[SLOT_BYTES];
    uint32_t hdr[4] = {tag, (uint32_t)len, (uint32_t)k, 0};
    memcpy(slot, hdr, sizeof hdr);
    if (len) memcpy(slot + SLOT_HDR, buf, len);
    /* At the peer, my channel is at index shmi.me. */
    const uint64_t base = shmi.chan_off + (uint64_t)shmi.me * SHMI_CHAN_BYTES;
    shmi_check("shmem collective", "canopy_put", canopy_put(shmi.dev, pe, base + CHAN_SLOTS + (k & 1) * SLOT_BYTES,
                                                            slot, SLOT_HDR + len, 0));
    shmi_check("shmem collective", "canopy_put", canopy_put(shmi.dev, pe, base + CHAN_SEQ, &k, 8, 0));
}

/* Message k from pe has arrived: check it, copy it out, acknowledge it. */
static void take(int pe, uint32_t tag, void *buf, size_t len, uint64_t k)
{
    const uint8_t *slot = shmi_local(chan(pe) + CHAN_SLOTS + (k & 1) * SLOT_BYTES);
    uint32_t hdr[4];
    memcpy(hdr, slot, sizeof hdr);
    if (hdr[0] != tag || hdr[1] != len || hdr[2] != (uint32_t)k)
        shmi_fatal("shmem collective",
                   "out of step with PE %d: expected its %s message #%llu (%zu bytes), got a %s message #%u (%u "
                   "bytes); PEs must call the collectives they share in the same order",
                   pe, tag_name(tag), (unsigned long long)k, len, tag_name(hdr[0]), hdr[2], hdr[1]);
    if (len) memcpy(buf, slot + SLOT_HDR, len);
    const uint64_t ack_at_peer = shmi.chan_off + (uint64_t)shmi.me * SHMI_CHAN_BYTES + CHAN_ACK;
    shmi_check("shmem collective", "canopy_put", canopy_put(shmi.dev, pe, ack_at_peer, &k, 8, 0));
}

void shmi_recv(int pe, uint32_t tag, void *buf, size_t len)
{
    const uint64_t k = ++shmi.consumed[pe];
    shmi_wait_word(chan(pe) + CHAN_SEQ, CANOPY_CMP_GE, k);
    take(pe, tag, buf, len, k);
}

int shmi_recv_within(int pe, uint32_t tag, void *buf, size_t len, uint64_t timeout_ns)
{
    const uint64_t k = shmi.consumed[pe] + 1;
    const volatile uint64_t *w = (const volatile uint64_t *)shmi_local(chan(pe) + CHAN_SEQ);
    const int rc = canopy_wait_u64(shmi.dev, w, CANOPY_CMP_GE, k, timeout_ns);
    if (rc == CANOPY_ETIMEDOUT) return rc;
    shmi_check("shmem collective", "canopy_wait_u64", rc);
    shmi.consumed[pe] = k;
    take(pe, tag, buf, len, k);
    return CANOPY_OK;
}

/* ------------------------------------------------------------------ around dead links */
static int linked(const struct shmi_group *g, int a, int b)
{
    const int pa = shmi_group_pe(g, a), pb = shmi_group_pe(g, b);
    return canopy_route_up(shmi.dev, pa, pb) == 1 && canopy_route_up(shmi.dev, pb, pa) == 1;
}

/* parent[i] for each member i of the spanning tree of live routes rooted at member root
 * (-1 at the root); the caller frees it. */
static int *live_tree(const struct shmi_group *g, int root)
{
    const int n = g->size;
    int *parent = malloc((size_t)n * sizeof *parent), *queue = malloc((size_t)n * sizeof *queue);
    if (!parent || !queue) shmi_fatal("shmem collective", "out of memory");
    for (int i = 0; i < n; ++i) parent[i] = -2;
    parent[root] = -1;
    int head = 0, tail = 0;
    queue[tail++] = root;
    while (head < tail) {
        const int u = queue[head++];
        for (int v = 0; v < n; ++v)
            if (parent[v] == -2 && linked(g, u, v)) parent[v] = u, queue[tail++] = v;
    }
    for (int v = 0; v < n; ++v)
        if (parent[v] == -2)
            shmi_fatal("shmem collective", "the links that are down cut PE %d off from PE %d: no collective "
                       "can include both", shmi_group_pe(g, v), shmi_group_pe(g, root));
    free(queue);
    return parent;
}

static void tree_barrier(const struct shmi_group *g)
{
    int *parent = live_tree(g, 0);
    for (int c = 0; c < g->size; ++c)
        if (parent[c] == g->me) shmi_recv(shmi_group_pe(g, c), TAG_BARRIER, NULL, 0);
    if (parent[g->me] >= 0) {
        shmi_send(shmi_group_pe(g, parent[g->me]), TAG_BARRIER, NULL, 0);
        shmi_recv(shmi_group_pe(g, parent[g->me]), TAG_BARRIER, NULL, 0);
    }
    for (int c = 0; c < g->size; ++c)
        if (parent[c] == g->me) shmi_send(shmi_group_pe(g, c), TAG_BARRIER, NULL, 0);
    free(parent);
}

/* len bytes from the root's src into every other member's dst_off, hop by hop down the
 * tree: a member forwards from its own dest once its parent's message says it is there. */
static void tree_bcast(const struct shmi_group *g, uint64_t dst_off, const void *src, size_t len, int root,
                       uint32_t tag)
{
    int *parent = live_tree(g, root);
    const void *from = src;
    if (g->me != root) {
        shmi_recv(shmi_group_pe(g, parent[g->me]), tag, NULL, 0);
        from = shmi_local(dst_off);
    }
    for (int c = 0; c < g->size; ++c) {
        if (parent[c] != g->me) continue;
        const int pe = shmi_group_pe(g, c);
        if (len) shmi_check("shmem collective", "canopy_put", canopy_put(shmi.dev, pe, dst_off, from, len, 0));
        shmi_send(pe, tag, NULL, 0);
    }
    free(parent);
}

/* Reduce up the tree to member 0 chunk by chunk, the result back down in messages (dest
 * need not be symmetric). */
static void tree_allreduce(const struct shmi_group *g, void *dest, const void *src, size_t count,
                           struct shmi_dtype t, enum shmi_op op, uint32_t tag)
{
    const size_t bytes = count * t.size, chunk = SHMI_CHUNK / t.size * t.size;
    int *parent = live_tree(g, 0);
    const int up = parent[g->me] >= 0 ? shmi_group_pe(g, parent[g->me]) : -1;
    uint8_t *acc = malloc(bytes ? bytes : 1), tmp[SHMI_CHUNK];
    if (!acc) shmi_fatal("shmem reduction", "out of memory (%zu bytes)", bytes);
    memcpy(acc, src, bytes);
    for (size_t off = 0; off < bytes; off += chunk) {
        const size_t n = bytes - off < chunk ? bytes - off : chunk;
        for (int c = 0; c < g->size; ++c) {
            if (parent[c] != g->me) continue;
            shmi_recv(shmi_group_pe(g, c), tag, tmp, n);
            shmi_combine(acc + off, tmp, n / t.size, t, op);
        }
        if (up >= 0) shmi_send(up, tag, acc + off, n);
    }
    for (size_t off = 0; off < bytes; off += chunk) {
        const size_t n = bytes - off < chunk ? bytes - off : chunk;
        if (up >= 0) shmi_recv(up, TAG_RED_DONE, acc + off, n);
        for (int c = 0; c < g->size; ++c)
            if (parent[c] == g->me) shmi_send(shmi_group_pe(g, c), TAG_RED_DONE, acc + off, n);
    }
    memcpy(dest, acc, bytes);
    free(acc);
    free(parent);
}

void shmi_sw_bcast_msgs(const struct shmi_group *g, int root, void *buf, size_t bytes)
{
    int *parent = live_tree(g, root);
    const int up = parent[g->me] >= 0 ? shmi_group_pe(g, parent[g->me]) : -1;
    uint8_t *b = buf;
    for (size_t off = 0; off < bytes; off += SHMI_CHUNK) {
        const size_t n = bytes - off < SHMI_CHUNK ? bytes - off : SHMI_CHUNK;
        if (up >= 0) shmi_recv(up, TAG_BCAST, b + off, n);
        for (int c = 0; c < g->size; ++c)
            if (parent[c] == g->me) shmi_send(shmi_group_pe(g, c), TAG_BCAST, b + off, n);
    }
    free(parent);
}

static void tree_collect(const struct shmi_group *g, uint64_t dst_off, const void *src, size_t len, int fixed)
{
    const int n = g->size;
    uint64_t *lens = calloc((size_t)n, sizeof *lens), *sum = malloc((size_t)n * sizeof *sum);
    if (!lens || !sum) shmi_fatal("shmem collect", "out of memory");
    lens[g->me] = len;
    if (fixed) {
        for (int i = 0; i < n; ++i) sum[i] = len;
    } else {
        tree_allreduce(g, sum, lens, (size_t)n, (struct shmi_dtype){.cls = C_U64, .size = 8}, OP_SUM, TAG_LEN);
    }
    uint64_t at = 0;
    for (int i = 0; i < n; ++i) {
        if (i == g->me && sum[i]) memmove(shmi_local(dst_off + at), src, sum[i]);
        tree_bcast(g, dst_off + at, src, sum[i], i, TAG_COLLECT);
        at += sum[i];
    }
    free(lens);
    free(sum);
}

void shmi_sw_barrier(const struct shmi_group *g)
{
    if (shmi.links_down) {
        tree_barrier(g);
        return;
    }
    const int n = g->size, me = g->me;
    for (int dist = 1; dist < n; dist <<= 1) {
        shmi_send(shmi_group_pe(g, (me + dist) % n), TAG_BARRIER, NULL, 0);
        shmi_recv(shmi_group_pe(g, (me - dist + n) % n), TAG_BARRIER, NULL, 0);
    }
}

void shmi_sw_bcast(const struct shmi_group *g, uint64_t dst_off, const void *src, size_t len, int root_idx,
                   int write_root)
{
    if (shmi.links_down) {
        tree_bcast(g, dst_off, src, len, root_idx, TAG_BCAST);
        if (g->me == root_idx && write_root) memmove(shmi_local(dst_off), src, len);
        return;
    }
    const int root = shmi_group_pe(g, root_idx);
    if (g->me != root_idx) {
        shmi_recv(root, TAG_BCAST, NULL, 0);
        return;
    }
    for (int i = 0; i < g->size; ++i) {
        if (i == root_idx) continue;
        shmi_check("shmem broadcast", "canopy_put", canopy_put(shmi.dev, shmi_group_pe(g, i), dst_off, src, len, 0));
        shmi_send(shmi_group_pe(g, i), TAG_BCAST, NULL, 0);
    }
    if (write_root) memmove(shmi_local(dst_off), src, len);
}

/* ------------------------------------------------------------------ combining */
#define COMBINE_INT(T)                                                                     \
    do {                                                                                   \
        T *a = acc;                                                                        \
        const T *b = in;                                                                   \
        for (size_t i = 0; i < count; ++i) {                                               \
            T x = a[i], y = b[i];                                                          \
            switch (op) {                                                                  \
            case OP_SUM: a[i] = (T)(x + y); break;                                         \
            case OP_PROD: a[i] = (T)(x * y); break;                                        \
            case OP_MIN: a[i] = y < x ? y : x; break;                                      \
            case OP_MAX: a[i] = y > x ? y : x; break;                                      \
            case OP_AND: a[i] = (T)(x & y); break;                                         \
            case OP_OR: a[i] = (T)(x | y); break;                                          \
            case OP_XOR: a[i] = (T)(x ^ y); break;                                         \
            }                                                                              \
        }                                                                                  \
    } while (0)
#define COMBINE_FLOAT(T)                                                                   \
    do {                                                                                   \
        T *a = acc;                                                                        \
        const T *b = in;                                                                   \
        for (size_t i = 0; i < count; ++i) {                                               \
            T x = a[i], y = b[i];                                                          \
            switch (op) {                                                                  \
            case OP_SUM: a[i] = x + y; break;                                              \
            case OP_PROD: a[i] = x * y; break;                                             \
            case OP_MIN: a[i] = y < x ? y : x; break;                                      \
            case OP_MAX: a[i] = y > x ? y : x; break;                                      \
            default: break; /* no bitwise operations on floating point (not in the API) */ \
            }                                                                              \
        }                                                                                  \
    } while (0)
#define COMBINE_COMPLEX(T)                                                                 \
    do {                                                                                   \
        T *a = acc;                                                                        \
        const T *b = in;                                                                   \
        for (size_t i = 0; i < count; ++i) a[i] = op == OP_PROD ? a[i] * b[i] : a[i] + b[i]; \
    } while (0)

/* Unsigned arithmetic for the signed sums and products: they wrap (two's complement)
 * instead of overflowing, as the hardware's integer sums do. */
void shmi_combine(void *acc, const void *in, size_t count, struct shmi_dtype t, enum shmi_op op)
{
    int is_signed_arith = op == OP_SUM || op == OP_PROD;
    switch (t.cls) {
    case C_I8: if (is_signed_arith) COMBINE_INT(uint8_t); else COMBINE_INT(int8_t); break;
    case C_I16: if (is_signed_arith) COMBINE_INT(uint16_t); else COMBINE_INT(int16_t); break;
    case C_I32: if (is_signed_arith) COMBINE_INT(uint32_t); else COMBINE_INT(int32_t); break;
    case C_I64: if (is_signed_arith) COMBINE_INT(uint64_t); else COMBINE_INT(int64_t); break;
    case C_U8: COMBINE_INT(uint8_t); break;
    case C_U16: COMBINE_INT(uint16_t); break;
    case C_U32: COMBINE_INT(uint32_t); break;
    case C_U64: COMBINE_INT(uint64_t); break;
    case C_F32: COMBINE_FLOAT(float); break;
    case C_F64: COMBINE_FLOAT(double); break;
    case C_FLD: COMBINE_FLOAT(long double); break;
    case C_CF32: COMBINE_COMPLEX(float _Complex); break;
    case C_CF64: COMBINE_COMPLEX(double _Complex); break;
    }
}

void shmi_sw_allreduce(const struct shmi_group *g, void *dest, const void *src, size_t count, struct shmi_dtype t,
                       enum shmi_op op)
{
    if (shmi.links_down) {
        tree_allreduce(g, dest, src, count, t, op, red_tag(TAG_RED, t, op));
        return;
    }
    const size_t bytes = count * t.size;
    const size_t chunk = SHMI_CHUNK / t.size * t.size;
    const int leader = shmi_group_pe(g, 0);
    const uint64_t dst_off = shmi_sym("shmem reduction", dest, bytes);
    if (g->me != 0) {
        for (size_t off = 0; off < bytes; off += chunk)
            shmi_send(leader, red_tag(TAG_RED, t, op), (const uint8_t *)src + off, bytes - off < chunk ? bytes - off : chunk);
        shmi_recv(leader, TAG_RED_DONE, NULL, 0);
        return;
    }
    uint8_t *acc = malloc(bytes ? bytes : 1), tmp[SHMI_CHUNK];
    if (!acc) shmi_fatal("shmem reduction", "out of memory (%zu bytes)", bytes);
    memcpy(acc, src, bytes);
    for (size_t off = 0; off < bytes; off += chunk) {
        const size_t n = bytes - off < chunk ? bytes - off : chunk;
        for (int i = 1; i < g->size; ++i) {
            shmi_recv(shmi_group_pe(g, i), red_tag(TAG_RED, t, op), tmp, n);
            shmi_combine(acc + off, tmp, n / t.size, t, op);
        }
    }
    for (int i = 1; i < g->size; ++i) {
        const int pe = shmi_group_pe(g, i);
        if (bytes) shmi_check("shmem reduction", "canopy_put", canopy_put(shmi.dev, pe, dst_off, acc, bytes, 0));
        shmi_send(pe, TAG_RED_DONE, NULL, 0);
    }
    memcpy(dest, acc, bytes);
    free(acc);
}

uint32_t shmi_sw_or32(const struct shmi_group *g, uint32_t v)
{
    const int leader = shmi_group_pe(g, 0);
    if (g->size == 1) return v;
    if (shmi.links_down) {
        uint32_t r;
        tree_allreduce(g, &r, &v, 1, (struct shmi_dtype){.cls = C_U32, .size = 4}, OP_OR, TAG_OR);
        return r;
    }
    if (g->me != 0) {
        shmi_send(leader, TAG_OR, &v, sizeof v);
        shmi_recv(leader, TAG_OR, &v, sizeof v);
        return v;
    }
    for (int i = 1; i < g->size; ++i) {
        uint32_t x;
        shmi_recv(shmi_group_pe(g, i), TAG_OR, &x, sizeof x);
        v |= x;
    }
    for (int i = 1; i < g->size; ++i) shmi_send(shmi_group_pe(g, i), TAG_OR, &v, sizeof v);
    return v;
}

void shmi_sw_collect(const struct shmi_group *g, uint64_t dst_off, const void *src, size_t len, int fixed)
{
    if (shmi.links_down) {
        tree_collect(g, dst_off, src, len, fixed);
        return;
    }
    const int n = g->size, me = g->me;
    uint64_t at = (uint64_t)me * len;
    if (!fixed) {
        /* Everyone's length first: my block goes after those of lower members. */
        uint64_t mine = len;
        for (int i = 0; i < n; ++i)
            if (i != me) shmi_send(shmi_group_pe(g, i), TAG_LEN, &mine, 8);
        at = 0;
        for (int i = 0; i < n; ++i) {
            if (i == me) continue;
            uint64_t l;
            shmi_recv(shmi_group_pe(g, i), TAG_LEN, &l, 8);
            if (i < me) at += l;
        }
    }
    for (int i = 0; i < n; ++i) {
        if (i == me) continue;
        if (len)
            shmi_check("shmem collect", "canopy_put", canopy_put(shmi.dev, shmi_group_pe(g, i), dst_off + at, src, len, 0));
        shmi_send(shmi_group_pe(g, i), TAG_COLLECT, NULL, 0);
    }
    if (len) memmove(shmi_local(dst_off + at), src, len);
    for (int i = 0; i < n; ++i)
        if (i != me) shmi_recv(shmi_group_pe(g, i), TAG_COLLECT, NULL, 0);
}

/* fault.c: what the library does when a link dies under a hardware collective
 * (docs/shmem.md, "When a link goes down").
 *
 * A reduce or barrier whose tree has lost a link completes nowhere: every PE's call ends
 * with CANOPY_ETREEDOWN within the collective timeout (CANOPY_SHMEM_COLL_TIMEOUT_US). On
 * the world team every PE therefore enters shmi_links_failed for the same call, and they
 * recover together:
 *
 *  1. Each PE reads which of its own links are down (LINK_DOWN, canopy_counters): both
 *     ends of a dead link declare it, long before the collective timeout runs out.
 *  2. The map of dead links is flooded over the live one-hop routes (a neighbour whose
 *     dimension-order route, out and back, is only the link between them): npes-1 rounds,
 *     each PE sending its map to every live neighbour and OR-ing what they send, so every
 *     PE connected to the others ends with the same map.
 *  3. The map goes to the driver (canopy_set_dead_links): from then on a put, get or
 *     atomic whose route crosses a dead link is refused at the sender (CANOPY_EUNREACH,
 *     fatal with that message, as any failed put), and every collective runs in software
 *     over a spanning tree of the live routes (coll_sw.c), the failed call first.
 *
 * The PEs need not have failed the same call. A link that dies while a reduce's result
 * is coming down the tree, or under a broadcast, leaves the PEs above it done with that
 * call and the PEs below it failed; the ones done fail the next call instead (the tree
 * is dead). So the flood also carries how many world collectives each PE completed
 * (shmi_hw_done counts them and keeps the last one's result): one apart, the lowest PE
 * that completed the call sends its result to those that did not, and they are done with
 * it. Further apart (broadcasts from above the link went on without the PEs below), and
 * for teams smaller than the world (the flood needs every PE), and for a tree that went
 * down with no link down (a PE stopped taking part), the program stops, saying why.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shmem_internal.h"

/* A world PE's live one-hop neighbours, judged by this PE's own link ends. */
static int live_neighbours(uint8_t own_dead, int *nb)
{
    uint8_t mine[SHMI_CHUNK] = {0}; /* npes <= SHMI_CHUNK (recover) */
    mine[shmi.me] = own_dead;
    shmi_check("shmem (link recovery)", "canopy_set_dead_links",
               canopy_set_dead_links(shmi.dev, mine, (size_t)shmi.npes));
    int n = 0;
    for (unsigned p = 0; p < 2 * shmi.torus.ndims; ++p) {
        const int pe = canopy_fm_neighbour(&shmi.torus, (unsigned)shmi.me, p);
        int seen = pe == shmi.me;
        for (int i = 0; i < n && !seen; ++i) seen = nb[i] == pe;
        if (seen) continue;
        /* The routes to and from a neighbour cross only the link between us (in a ring of
         * two, the one dimension-order routing picks), whose state my own end knows. */
        if (canopy_route_up(shmi.dev, shmi.me, pe) == 1 && canopy_route_up(shmi.dev, pe, shmi.me) == 1) nb[n++] = pe;
    }
    return n;
}

/* What the flood carries: the dead-link map, and how far the PEs got: the fewest and the
 * most world collectives completed, and the lowest PE that completed the most. */
struct flood {
    uint64_t least, most, first_most;
};

static void merge(struct flood *f, const struct flood *in)
{
    if (in->least < f->least) f->least = in->least;
    if (in->most > f->most || (in->most == f->most && in->first_most < f->first_most)) {
        f->most = in->most;
        f->first_most = in->first_most;
    }
}

/* Steps 1 and 2: every PE's map and progress, flooded. */
static void flood(const char *call, uint8_t *map, struct flood *f)
{
    const int n = shmi.npes;
    struct canopy_counters c;
    shmi_check(call, "reading the link state", canopy_counters(shmi.dev, &c));
    map[shmi.me] = (uint8_t)c.link_down;
    const size_t len = (size_t)n + sizeof *f; /* <= SHMI_CHUNK (recover) */
    uint8_t msg[SHMI_CHUNK], in[SHMI_CHUNK];
    int nb[2 * CANOPY_MAX_DIMS];
    const int nnb = live_neighbours(map[shmi.me], nb);
    for (int round = 0; round < n - 1; ++round) {
        memcpy(msg, map, (size_t)n);
        memcpy(msg + n, f, sizeof *f);
        for (int i = 0; i < nnb; ++i) shmi_send(nb[i], SHMI_TAG_DEAD, msg, len);
        for (int i = 0; i < nnb; ++i) {
            /* Every PE failed its call within one collective timeout of the others (a later
             * one would have been a silent member), so a neighbour that has not spoken
             * after two of them, and a millisecond for the rounds, is not coming. */
            const uint64_t wait_ns = 2 * shmi.coll_timeout_ns + 1000000;
            if (shmi_recv_within(nb[i], SHMI_TAG_DEAD, in, len, wait_ns))
                shmi_fatal(call, "a collective's tree went down and PE %d did not join the recovery within %llu us: "
                                 "a PE stopped taking part in collectives (its host stopped, or it never made the "
                                 "call)", nb[i], (unsigned long long)(wait_ns / 1000));
            struct flood g;
            memcpy(&g, in + n, sizeof g);
            for (int j = 0; j < n; ++j) map[j] |= in[j];
            merge(f, &g);
        }
    }
}

static int recover(const char *call, uint64_t off, size_t bytes)
{
    const int n = shmi.npes;
    if ((size_t)n + sizeof(struct flood) > SHMI_CHUNK) shmi_fatal(call, "link recovery: too many PEs (%d)", n);
    uint8_t map[SHMI_CHUNK] = {0};
    struct flood f = {.least = shmi.world_done, .most = shmi.world_done, .first_most = (uint64_t)shmi.me};
    flood(call, map, &f);
    int ends = 0;
    for (int j = 0; j < n; ++j) ends += __builtin_popcount(map[j]);
    if (!ends)
        shmi_fatal(call, "a collective's tree went down and every PE joined the recovery, yet no link is down: "
                         "the collective timeout (CANOPY_SHMEM_COLL_TIMEOUT_US) is shorter than the collective, or "
                         "a PE came to it that much later than the others");
    if (f.most - f.least > 1)
        shmi_fatal(call, "a link died while the PEs were %llu collectives apart (broadcasts from above the dead "
                         "link went on without the PEs below it): they cannot be brought back in step",
                   (unsigned long long)(f.most - f.least));
    shmi_check(call, "canopy_set_dead_links", canopy_set_dead_links(shmi.dev, map, (size_t)n));
    shmi.links_down = ends;
    if (shmi.me == 0) {
        char buf[512];
        size_t o = 0;
        for (int j = 0; j < n && o < sizeof buf; ++j)
            for (unsigned p = 0; p < 8 && o < sizeof buf; ++p)
                if (map[j] >> p & 1u)
                    o += (size_t)snprintf(buf + o, sizeof buf - o, " PE %d %s", j,
                                          canopy_fm_port_name(&shmi.torus, p));
        fprintf(stderr, "canopy-shmem: PE 0: %s: a tree went down; link ends down:%s; %s; collectives go on in "
                        "software over the live routes\n", call, buf,
                f.most == f.least ? "no PE had completed the call" : "the PEs that missed the last call get its "
                                                                     "result from one that completed it");
    }
    if (f.most == f.least) return 0; /* nobody completed it: everyone runs it in software */
    /* Some PEs completed collective f.least (the last one before the failure) and failed
     * the next; the others failed f.least itself. PE f.first_most hands its result down
     * the tree: those that missed it are then done, the others run their call in software. */
    const int behind = shmi.world_done == f.least;
    uint8_t *buf = behind ? malloc(bytes ? bytes : 1) : shmi.last;
    if (!buf) shmi_fatal(call, "out of memory");
    const size_t len = behind ? bytes : shmi.last_bytes; /* PE first_most sends its own shmi.last */
    shmi_sw_bcast_msgs(&shmi.world.g, (int)f.first_most, buf, len);
    if (behind) {
        if (off != SHMI_NO_OFF) memcpy(shmi_local(off), buf, len);
        free(buf);
        ++shmi.world_done;
    }
    return behind;
}

void shmi_hw_done(const struct shmi_group *g, const void *data, size_t bytes)
{
    if (g->size != shmi.npes) return;
    if (bytes > shmi.last_cap) {
        uint8_t *p = realloc(shmi.last, bytes);
        if (!p) shmi_fatal("shmem collective", "out of memory (%zu bytes)", bytes);
        shmi.last = p;
        shmi.last_cap = bytes;
    }
    if (bytes) memcpy(shmi.last, data, bytes);
    shmi.last_bytes = bytes;
    ++shmi.world_done;
}

int shmi_links_failed(const struct shmi_group *g, const char *call, uint64_t off, size_t bytes)
{
    if (g->size != shmi.npes)
        shmi_fatal(call, "the tree of a team of %d PEs went down (a link died); recovery needs every PE "
                         "(only the world team's collectives recover, docs/shmem.md)", g->size);
    if (shmi.links_down) shmi_fatal(call, "a tree went down after the links were recovered");
    return recover(call, off, bytes);
}

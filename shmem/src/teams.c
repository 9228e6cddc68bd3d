/* teams.c: OpenSHMEM 1.5 teams (SHMEM_TEAM_WORLD, SHMEM_TEAM_SHARED, split_strided,
 * split_2d, destroy, my_pe, n_pes, get_config, translate_pe) and the active sets of the
 * 1.4 collectives, both as groups of world PEs (shmem_internal.h).
 *
 * Every team here is a strided set of world PEs (a strided subset of a strided set is
 * strided; split_2d makes rows and columns), so a group is (start, stride, size). A team
 * gets its hardware tree at creation (coll_hw.c, collective over the parent team); an
 * active set uses a stride tree of shmem_init when it is (0, k, size) of one, otherwise it
 * gets a tree at its first collective. Teams never use the stride trees: an active set and
 * a team with the same PEs are different groups, whose collectives the specification does
 * not order against each other, and the reduce ids and broadcast counter of one tree need
 * every member to issue its collectives in the same order. SHMEM_TEAM_SHARED is the PEs sharing this PE's
 * memory: each PE is its own node, so it is this PE alone.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shmem_internal.h"

void shmi_group_init(struct shmi_group *g, int start, int stride, int size)
{
    g->start = start;
    g->stride = stride;
    g->size = size;
    g->tree = -1;
    g->tree_root = -1;
    g->me = shmi_group_index(g, shmi.me);
}

struct shmi_group *shmi_aset_group(const char *call, int start, int logstride, int size)
{
    shmi_require_init(call);
    if (start < 0 || logstride < 0 || logstride > 30 || size < 1 ||
        (long long)start + (long long)(size - 1) * (1LL << logstride) >= shmi.npes)
        shmi_fatal(call, "invalid active set (PE_start %d, logPE_stride %d, PE_size %d) for %d PEs", start, logstride,
                   size, shmi.npes);
    for (int i = 0; i < shmi.nasets; ++i) {
        struct shmi_aset *a = &shmi.asets[i];
        if (a->start == start && a->logstride == logstride && a->size == size) return &a->g;
    }
    struct shmi_group g;
    shmi_group_init(&g, start, 1 << logstride, size);
    if (g.me < 0)
        shmi_fatal(call, "PE %d is not in the active set (PE_start %d, logPE_stride %d, PE_size %d)", shmi.me, start,
                   logstride, size);
    if (shmi.nasets == shmi.asets_cap) {
        int cap = shmi.asets_cap ? 2 * shmi.asets_cap : 8;
        struct shmi_aset *n = realloc(shmi.asets, (size_t)cap * sizeof *n);
        if (!n) shmi_fatal(call, "out of memory");
        shmi.asets = n;
        shmi.asets_cap = cap;
    }
    struct shmi_aset *a = &shmi.asets[shmi.nasets++];
    a->start = start;
    a->logstride = logstride;
    a->size = size;
    a->g = g;
    if (size == shmi.npes) {
        a->g.tree = shmi.world.g.tree; /* the world tree */
        a->g.tree_root = shmi.world.g.tree_root;
    } else if (shmi.hw && shmi_hw_stride_tree(&a->g, start, logstride, size)) {
        /* a stride tree, made at shmem_init */
    } else {
        struct shmi_group *gp = &a->g;
        shmi_hw_make_trees(gp, &gp, 1, "active set");
    }
    return &a->g;
}

struct shmemi_team *shmi_team(const char *call, shmem_team_t t)
{
    if (t == SHMEM_TEAM_INVALID) return NULL;
    if (t == SHMEM_TEAM_WORLD) return &shmi.world;
    if (t == SHMEM_TEAM_SHARED) return &shmi.shared;
    for (int i = 0; i < shmi.nteams; ++i)
        if (shmi.teams[i] == t) return t;
    shmi_fatal(call, "invalid team handle %p (destroyed, or never created)", (void *)t);
}

static struct shmemi_team *make_team(const struct shmi_group *g, const shmem_team_config_t *config, long mask)
{
    struct shmemi_team *t = calloc(1, sizeof *t);
    if (!t) shmi_fatal("shmem_team_split", "out of memory");
    t->g = *g;
    t->config_mask = mask;
    if (config && (mask & SHMEM_TEAM_NUM_CONTEXTS)) t->config = *config;
    if (shmi.nteams == shmi.teams_cap) {
        int cap = shmi.teams_cap ? 2 * shmi.teams_cap : 8;
        struct shmemi_team **n = realloc(shmi.teams, (size_t)cap * sizeof *n);
        if (!n) shmi_fatal("shmem_team_split", "out of memory");
        shmi.teams = n;
        shmi.teams_cap = cap;
    }
    shmi.teams[shmi.nteams++] = t;
    return t;
}

int shmem_team_my_pe(shmem_team_t team)
{
    shmi_require_init("shmem_team_my_pe");
    struct shmemi_team *t = shmi_team("shmem_team_my_pe", team);
    return t ? t->g.me : -1;
}

int shmem_team_n_pes(shmem_team_t team)
{
    shmi_require_init("shmem_team_n_pes");
    struct shmemi_team *t = shmi_team("shmem_team_n_pes", team);
    return t ? t->g.size : -1;
}

int shmem_team_get_config(shmem_team_t team, long config_mask, shmem_team_config_t *config)
{
    shmi_require_init("shmem_team_get_config");
    struct shmemi_team *t = shmi_team("shmem_team_get_config", team);
    if (!t || !config) return -1;
    if (config_mask & SHMEM_TEAM_NUM_CONTEXTS) config->num_contexts = t->config.num_contexts;
    return 0;
}

int shmem_team_translate_pe(shmem_team_t src_team, int src_pe, shmem_team_t dest_team)
{
    shmi_require_init("shmem_team_translate_pe");
    struct shmemi_team *s = shmi_team("shmem_team_translate_pe", src_team);
    struct shmemi_team *d = shmi_team("shmem_team_translate_pe", dest_team);
    if (!s || !d || src_pe < 0 || src_pe >= s->g.size) return -1;
    return shmi_group_index(&d->g, shmi_group_pe(&s->g, src_pe));
}

int shmem_team_split_strided(shmem_team_t parent_team, int start, int stride, int size,
                             const shmem_team_config_t *config, long config_mask, shmem_team_t *new_team)
{
    const char *call = "shmem_team_split_strided";
    SHMI_LOCKED;
    shmi_require_init(call);
    if (!new_team) shmi_fatal(call, "new_team is NULL");
    *new_team = SHMEM_TEAM_INVALID;
    struct shmemi_team *p = shmi_team(call, parent_team);
    if (!p) return -1;
    const struct shmi_group *pg = &p->g;
    /* A valid triplet: start + stride*i is a PE of the parent for every i < size (the
     * stride may be negative; 0 only for a team of one). Every PE of the parent sees the
     * same arguments, so all return the same error together. */
    const long long last = (long long)start + (long long)(size - 1) * stride;
    if (size < 1 || start < 0 || (size > 1 && stride == 0) || start >= pg->size || last < 0 || last >= pg->size) {
        fprintf(stderr, "canopy-shmem: PE %d: %s: invalid triplet (start %d, stride %d, size %d) for a parent "
                        "team of %d PEs\n", shmi.me, call, start, stride, size, pg->size);
        return -1;
    }
    struct shmi_group g;
    shmi_group_init(&g, shmi_group_pe(pg, start), size > 1 ? stride * pg->stride : 1, size);
    struct shmi_group *gp = &g;
    shmi_hw_make_trees(pg, &gp, 1, "team");
    if (g.me >= 0) *new_team = make_team(&g, config, config_mask);
    return 0;
}

int shmem_team_split_2d(shmem_team_t parent_team, int xrange, const shmem_team_config_t *xaxis_config,
                        long xaxis_mask, shmem_team_t *xaxis_team, const shmem_team_config_t *yaxis_config,
                        long yaxis_mask, shmem_team_t *yaxis_team)
{
    const char *call = "shmem_team_split_2d";
    SHMI_LOCKED;
    shmi_require_init(call);
    if (!xaxis_team || !yaxis_team) shmi_fatal(call, "xaxis_team or yaxis_team is NULL");
    *xaxis_team = *yaxis_team = SHMEM_TEAM_INVALID;
    struct shmemi_team *p = shmi_team(call, parent_team);
    if (!p) return -1;
    const struct shmi_group *pg = &p->g;
    if (xrange < 1) {
        fprintf(stderr, "canopy-shmem: PE %d: %s: invalid xrange %d\n", shmi.me, call, xrange);
        return -1;
    }
    const int n = pg->size;
    if (xrange > n) xrange = n;
    const int yrange = (n + xrange - 1) / xrange;
    /* Parent PE i sits at (i % xrange, i / xrange): rows are the x-axis teams, columns the
     * y-axis teams, each ordered along its axis. */
    struct shmi_group *rows = calloc((size_t)yrange, sizeof *rows), *cols = calloc((size_t)xrange, sizeof *cols);
    struct shmi_group **rp = calloc((size_t)yrange, sizeof *rp), **cp = calloc((size_t)xrange, sizeof *cp);
    if (!rows || !cols || !rp || !cp) shmi_fatal(call, "out of memory");
    for (int y = 0; y < yrange; ++y) {
        int size = n - y * xrange < xrange ? n - y * xrange : xrange;
        shmi_group_init(&rows[y], shmi_group_pe(pg, y * xrange), pg->stride, size);
        rp[y] = &rows[y];
    }
    for (int x = 0; x < xrange; ++x) {
        int size = (n - x + xrange - 1) / xrange;
        shmi_group_init(&cols[x], shmi_group_pe(pg, x), size > 1 ? pg->stride * xrange : 1, size);
        cp[x] = &cols[x];
    }
    shmi_hw_make_trees(pg, rp, yrange, "team");
    shmi_hw_make_trees(pg, cp, xrange, "team");
    if (pg->me >= 0) {
        *xaxis_team = make_team(&rows[pg->me / xrange], xaxis_config, xaxis_mask);
        *yaxis_team = make_team(&cols[pg->me % xrange], yaxis_config, yaxis_mask);
    }
    free(rows), free(cols), free(rp), free(cp);
    return 0;
}

void shmem_team_destroy(shmem_team_t team)
{
    const char *call = "shmem_team_destroy";
    SHMI_LOCKED;
    shmi_require_init(call);
    if (team == SHMEM_TEAM_WORLD || team == SHMEM_TEAM_SHARED)
        shmi_fatal(call, "the predefined team %s cannot be destroyed",
                   team == SHMEM_TEAM_WORLD ? "SHMEM_TEAM_WORLD" : "SHMEM_TEAM_SHARED");
    struct shmemi_team *t = shmi_team(call, team);
    if (!t) return;
    /* Every member is past its last collective on the team before its tree id is freed. */
    shmi_barrier(&t->g, 0);
    shmi_hw_release(&t->g);
    /* Its contexts go with it, once their operations are complete. */
    shmi_quiet(call);
    for (struct shmemi_ctx *c = shmi.ctxs; c; c = c->next)
        if (c->team == t) c->magic = SHMI_CTX_DEAD, c->team = NULL;
    for (int i = 0; i < shmi.nteams; ++i)
        if (shmi.teams[i] == t) shmi.teams[i] = shmi.teams[--shmi.nteams];
    free(t);
}

/* ------------------------------------------------------------------ contexts
 * A context here is a handle and a team: every context shares the PE's one device, so
 * operations on any context are ordered and completed together (a context's quiet or fence
 * does what the PE's does). SHMEM_CTX_PRIVATE, _SERIALIZED and _NOSTORE are accepted and
 * change nothing (they permit an implementation to do less, never require more). */
static struct shmemi_ctx *ctx_lookup(shmem_ctx_t ctx)
{
    for (struct shmemi_ctx *c = shmi.ctxs; c; c = c->next)
        if (c == ctx) return c;
    return NULL;
}

void shmi_ctx_check(const char *call, shmem_ctx_t ctx)
{
    shmi_require_init(call);
    if (ctx == SHMEM_CTX_DEFAULT) return;
    if (ctx == SHMEM_CTX_INVALID) shmi_fatal(call, "called with SHMEM_CTX_INVALID");
    struct shmemi_ctx *c = ctx_lookup(ctx);
    if (!c) shmi_fatal(call, "invalid context handle %p (never created)", (void *)ctx);
    if (c->magic != SHMI_CTX_MAGIC) shmi_fatal(call, "context %p used after shmem_ctx_destroy", (void *)ctx);
}

int shmi_ctx_pe(const char *call, shmem_ctx_t ctx, int pe)
{
    shmi_ctx_check(call, ctx);
    if (ctx == SHMEM_CTX_DEFAULT || !ctx->team) return pe;
    const struct shmi_group *g = &ctx->team->g;
    if (pe < 0 || pe >= g->size)
        shmi_fatal(call, "invalid PE %d for the context's team (PEs 0..%d)", pe, g->size - 1);
    return shmi_group_pe(g, pe);
}

static int ctx_make(const char *call, struct shmemi_team *team, long options, shmem_ctx_t *ctx)
{
    const long known = SHMEM_CTX_SERIALIZED | SHMEM_CTX_PRIVATE | SHMEM_CTX_NOSTORE;
    if (options & ~known) shmi_fatal(call, "unknown options 0x%lx", options & ~known);
    struct shmemi_ctx *c = calloc(1, sizeof *c);
    if (!c) return -1;
    c->magic = SHMI_CTX_MAGIC;
    c->options = options;
    c->team = team;
    c->next = shmi.ctxs;
    shmi.ctxs = c;
    *ctx = c;
    return 0;
}

int shmem_ctx_create(long options, shmem_ctx_t *ctx)
{
    const char *call = "shmem_ctx_create";
    SHMI_LOCKED;
    shmi_require_init(call);
    if (!ctx) shmi_fatal(call, "ctx is NULL");
    return ctx_make(call, NULL, options, ctx);
}

int shmem_team_create_ctx(shmem_team_t team, long options, shmem_ctx_t *ctx)
{
    const char *call = "shmem_team_create_ctx";
    SHMI_LOCKED;
    shmi_require_init(call);
    if (!ctx) shmi_fatal(call, "ctx is NULL");
    *ctx = SHMEM_CTX_INVALID;
    struct shmemi_team *t = shmi_team(call, team);
    if (!t) return -1; /* SHMEM_TEAM_INVALID: the specification asks for a nonzero return */
    return ctx_make(call, t == &shmi.world ? NULL : t, options, ctx);
}

void shmem_ctx_destroy(shmem_ctx_t ctx)
{
    const char *call = "shmem_ctx_destroy";
    SHMI_LOCKED;
    shmi_require_init(call);
    if (ctx == SHMEM_CTX_INVALID) return;
    if (ctx == SHMEM_CTX_DEFAULT) shmi_fatal(call, "SHMEM_CTX_DEFAULT cannot be destroyed");
    shmi_ctx_check(call, ctx);
    /* Its operations complete first (a destroyed context's puts are still delivered). */
    shmi_quiet(call);
    ctx->magic = SHMI_CTX_DEAD;
}

int shmem_ctx_get_team(shmem_ctx_t ctx, shmem_team_t *team)
{
    const char *call = "shmem_ctx_get_team";
    shmi_require_init(call);
    if (!team) shmi_fatal(call, "team is NULL");
    if (ctx == SHMEM_CTX_INVALID) {
        *team = SHMEM_TEAM_INVALID;
        return -1;
    }
    shmi_ctx_check(call, ctx);
    *team = ctx == SHMEM_CTX_DEFAULT || !ctx->team ? SHMEM_TEAM_WORLD : ctx->team;
    return 0;
}

/* Only this PE's own memory is load/store accessible (no memory is shared between nodes). */
void *shmem_team_ptr(shmem_team_t team, const void *dest, int pe)
{
    const char *call = "shmem_team_ptr";
    shmi_require_init(call);
    struct shmemi_team *t = shmi_team(call, team);
    if (!t || pe < 0 || pe >= t->g.size) return NULL;
    return shmi_group_pe(&t->g, pe) == shmi.me && shmi_offset(dest, 1) >= 0 ? (void *)(uintptr_t)dest : NULL;
}

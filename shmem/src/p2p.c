/* p2p.c: point-to-point RMA (OpenSHMEM 1.5 "Remote Memory Access Routines"): typed and
 * untyped put/get, p/g, put/get<bits>, strided iput/iget, their _nbi forms, and
 * shmem_quiet / shmem_fence.
 *
 * Puts are libcanopy puts into the target's window at the object's symmetric offset;
 * they return once the data is in the device (the source may be reused), and complete at
 * shmem_quiet (acknowledged by the target). Gets are canopy_get, a read served by the
 * target's hardware into this node's window, complete at canopy_quiet; a get into memory
 * outside the window goes through the bounce area and a copy. A PE's own memory is
 * copied directly. Every routine has its form with a context first (shmem_ctx_*): a
 * team context numbers PEs in its team; contexts share the PE's one device, so a
 * context's quiet completes every operation of the PE (more than it must, never less).
 */
#include <string.h>

#include "shmem_internal.h"

void shmi_put(const char *call, void *dest, const void *src, size_t len, int pe)
{
    SHMI_LOCKED;
    shmi_check_pe(call, pe);
    if (!len) return;
    uint64_t off = shmi_sym(call, dest, len);
    if (pe == shmi.me) {
        memmove(dest, src, len);
        return;
    }
    shmi_check(call, "canopy_put", canopy_put(shmi.dev, pe, off, src, len, 0));
}

static void get_into_window(const char *call, uint64_t local_off, uint64_t remote_off, size_t len, int pe)
{
    shmi_check(call, "canopy_get", canopy_get(shmi.dev, pe, remote_off, local_off, len));
}

void shmi_quiet(const char *call)
{
    SHMI_LOCKED;
    int rc = canopy_quiet(shmi.dev, SHMI_TIMEOUT_NS);
    if (rc == CANOPY_EREFUSED) shmi_fatal(call, "a target PE refused a put, get or atomic (outside its window)");
    shmi_check(call, "canopy_quiet", rc);
    shmi_amo_quiet();
}
#define quiet shmi_quiet

/* Puts from one PE to another arrive in issue order (fixed dimension-order routes, in-order
 * DMA), which is all the specification asks of a fence for puts. Atomics are done by the
 * target after a wait in its request table, so a put issued after one could land first:
 * after atomics the fence waits for them. */
void shmi_fence(const char *call)
{
    SHMI_LOCKED;
    if (shmi.amo_outstanding) shmi_quiet(call);
}

/* Blocking unless nbi: then a get into symmetric memory completes at shmem_quiet. */
void shmi_get(const char *call, void *dest, const void *src, size_t len, int pe, int nbi)
{
    SHMI_LOCKED;
    shmi_check_pe(call, pe);
    if (!len) return;
    uint64_t roff = shmi_sym(call, src, len);
    if (pe == shmi.me) {
        /* A loop reading its own memory (shmem_g of its own PE) must see the device's
         * writes land: shmi_poll lets it run when the same word reads the same. */
        if (len <= 8) {
            uint64_t v = 0;
            memcpy(&v, src, len);
            shmi_poll(call, roff, v);
        }
        memmove(dest, src, len);
        return;
    }
    int64_t loff = shmi_offset(dest, len);
    if (loff >= 0) {
        get_into_window(call, (uint64_t)loff, roff, len, pe);
        if (!nbi) quiet(call);
        return;
    }
    for (size_t done = 0; done < len;) {
        size_t n = len - done < SHMI_BOUNCE_BYTES ? len - done : SHMI_BOUNCE_BYTES;
        get_into_window(call, shmi.bounce_off, roff + done, n, pe);
        quiet(call);
        memcpy((uint8_t *)dest + done, shmi_local(shmi.bounce_off), n);
        done += n;
    }
}

#define do_put shmi_put
#define do_get shmi_get

static void do_iput(const char *call, void *dest, const void *src, ptrdiff_t dst, ptrdiff_t sst, size_t nelems,
                    size_t size, int pe)
{
    SHMI_LOCKED;
    shmi_check_pe(call, pe);
    if (dst == 1 && sst == 1) {
        do_put(call, dest, src, nelems * size, pe);
        return;
    }
    for (size_t i = 0; i < nelems; ++i)
        do_put(call, (uint8_t *)dest + (ptrdiff_t)i * dst * (ptrdiff_t)size,
               (const uint8_t *)src + (ptrdiff_t)i * sst * (ptrdiff_t)size, size, pe);
}

static void do_iget(const char *call, void *dest, const void *src, ptrdiff_t dst, ptrdiff_t sst, size_t nelems,
                    size_t size, int pe)
{
    SHMI_LOCKED;
    shmi_check_pe(call, pe);
    if (dst == 1 && sst == 1) {
        do_get(call, dest, src, nelems * size, pe, 0);
        return;
    }
    if (pe == shmi.me) {
        for (size_t i = 0; i < nelems; ++i)
            memmove((uint8_t *)dest + (ptrdiff_t)i * dst * (ptrdiff_t)size,
                    (const uint8_t *)src + (ptrdiff_t)i * sst * (ptrdiff_t)size, size);
        return;
    }
    /* Every element into the bounce area (one quiet per bounce-full), then scattered. */
    const size_t per = SHMI_BOUNCE_BYTES / size;
    for (size_t first = 0; first < nelems;) {
        size_t n = nelems - first < per ? nelems - first : per;
        for (size_t i = 0; i < n; ++i) {
            const uint8_t *s = (const uint8_t *)src + (ptrdiff_t)(first + i) * sst * (ptrdiff_t)size;
            get_into_window(call, shmi.bounce_off + i * size, shmi_sym(call, s, size), size, pe);
        }
        quiet(call);
        for (size_t i = 0; i < n; ++i)
            memcpy((uint8_t *)dest + (ptrdiff_t)(first + i) * dst * (ptrdiff_t)size,
                   (const uint8_t *)shmi_local(shmi.bounce_off) + i * size, size);
        first += n;
    }
}

#define DEF_RMA(T, N)                                                                          \
    void shmem_##N##_put(T *dest, const T *source, size_t nelems, int pe)                      \
    {                                                                                          \
        do_put("shmem_" #N "_put", dest, source, nelems * sizeof(T), pe);                      \
    }                                                                                          \
    void shmem_##N##_put_nbi(T *dest, const T *source, size_t nelems, int pe)                  \
    {                                                                                          \
        do_put("shmem_" #N "_put_nbi", dest, source, nelems * sizeof(T), pe);                  \
    }                                                                                          \
    void shmem_##N##_p(T *dest, T value, int pe)                                               \
    {                                                                                          \
        do_put("shmem_" #N "_p", dest, &value, sizeof(T), pe);                                 \
    }                                                                                          \
    void shmem_##N##_iput(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) \
    {                                                                                          \
        do_iput("shmem_" #N "_iput", dest, source, dst, sst, nelems, sizeof(T), pe);           \
    }                                                                                          \
    void shmem_##N##_get(T *dest, const T *source, size_t nelems, int pe)                      \
    {                                                                                          \
        do_get("shmem_" #N "_get", dest, source, nelems * sizeof(T), pe, 0);                   \
    }                                                                                          \
    void shmem_##N##_get_nbi(T *dest, const T *source, size_t nelems, int pe)                  \
    {                                                                                          \
        do_get("shmem_" #N "_get_nbi", dest, source, nelems * sizeof(T), pe, 1);               \
    }                                                                                          \
    T shmem_##N##_g(const T *source, int pe)                                                   \
    {                                                                                          \
        T v;                                                                                   \
        do_get("shmem_" #N "_g", &v, source, sizeof(T), pe, 0);                                \
        return v;                                                                              \
    }                                                                                          \
    void shmem_##N##_iget(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) \
    {                                                                                          \
        do_iget("shmem_" #N "_iget", dest, source, dst, sst, nelems, sizeof(T), pe);           \
    }                                                                                          \
    void shmem_ctx_##N##_put(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, int pe) \
    {                                                                                          \
        const char *c = "shmem_ctx_" #N "_put";                                                \
        do_put(c, dest, source, nelems * sizeof(T), shmi_ctx_pe(c, ctx, pe));                  \
    }                                                                                          \
    void shmem_ctx_##N##_put_nbi(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, int pe) \
    {                                                                                          \
        const char *c = "shmem_ctx_" #N "_put_nbi";                                            \
        do_put(c, dest, source, nelems * sizeof(T), shmi_ctx_pe(c, ctx, pe));                  \
    }                                                                                          \
    void shmem_ctx_##N##_p(shmem_ctx_t ctx, T *dest, T value, int pe)                          \
    {                                                                                          \
        const char *c = "shmem_ctx_" #N "_p";                                                  \
        do_put(c, dest, &value, sizeof(T), shmi_ctx_pe(c, ctx, pe));                           \
    }                                                                                          \
    void shmem_ctx_##N##_iput(shmem_ctx_t ctx, T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, \
                              size_t nelems, int pe)                                           \
    {                                                                                          \
        const char *c = "shmem_ctx_" #N "_iput";                                               \
        do_iput(c, dest, source, dst, sst, nelems, sizeof(T), shmi_ctx_pe(c, ctx, pe));        \
    }                                                                                          \
    void shmem_ctx_##N##_get(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, int pe) \
    {                                                                                          \
        const char *c = "shmem_ctx_" #N "_get";                                                \
        do_get(c, dest, source, nelems * sizeof(T), shmi_ctx_pe(c, ctx, pe), 0);               \
    }                                                                                          \
    void shmem_ctx_##N##_get_nbi(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, int pe) \
    {                                                                                          \
        const char *c = "shmem_ctx_" #N "_get_nbi";                                            \
        do_get(c, dest, source, nelems * sizeof(T), shmi_ctx_pe(c, ctx, pe), 1);               \
    }                                                                                          \
    T shmem_ctx_##N##_g(shmem_ctx_t ctx, const T *source, int pe)                              \
    {                                                                                          \
        const char *c = "shmem_ctx_" #N "_g";                                                  \
        T v;                                                                                   \
        do_get(c, &v, source, sizeof(T), shmi_ctx_pe(c, ctx, pe), 0);                          \
        return v;                                                                              \
    }                                                                                          \
    void shmem_ctx_##N##_iget(shmem_ctx_t ctx, T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, \
                              size_t nelems, int pe)                                           \
    {                                                                                          \
        const char *c = "shmem_ctx_" #N "_iget";                                               \
        do_iget(c, dest, source, dst, sst, nelems, sizeof(T), shmi_ctx_pe(c, ctx, pe));        \
    }
SHMEMI_RMA_TYPES(DEF_RMA)

#define DEF_SIZED(B)                                                                           \
    void shmem_put##B(void *dest, const void *source, size_t nelems, int pe)                   \
    {                                                                                          \
        do_put("shmem_put" #B, dest, source, nelems * (B / 8), pe);                            \
    }                                                                                          \
    void shmem_put##B##_nbi(void *dest, const void *source, size_t nelems, int pe)             \
    {                                                                                          \
        do_put("shmem_put" #B "_nbi", dest, source, nelems * (B / 8), pe);                     \
    }                                                                                          \
    void shmem_iput##B(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) \
    {                                                                                          \
        do_iput("shmem_iput" #B, dest, source, dst, sst, nelems, B / 8, pe);                   \
    }                                                                                          \
    void shmem_get##B(void *dest, const void *source, size_t nelems, int pe)                   \
    {                                                                                          \
        do_get("shmem_get" #B, dest, source, nelems * (B / 8), pe, 0);                         \
    }                                                                                          \
    void shmem_get##B##_nbi(void *dest, const void *source, size_t nelems, int pe)             \
    {                                                                                          \
        do_get("shmem_get" #B "_nbi", dest, source, nelems * (B / 8), pe, 1);                  \
    }                                                                                          \
    void shmem_iget##B(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) \
    {                                                                                          \
        do_iget("shmem_iget" #B, dest, source, dst, sst, nelems, B / 8, pe);                   \
    }                                                                                          \
    void shmem_ctx_put##B(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe) \
    {                                                                                          \
        const char *c = "shmem_ctx_put" #B;                                                    \
        do_put(c, dest, source, nelems * (B / 8), shmi_ctx_pe(c, ctx, pe));                    \
    }                                                                                          \
    void shmem_ctx_put##B##_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe) \
    {                                                                                          \
        const char *c = "shmem_ctx_put" #B "_nbi";                                             \
        do_put(c, dest, source, nelems * (B / 8), shmi_ctx_pe(c, ctx, pe));                    \
    }                                                                                          \
    void shmem_ctx_iput##B(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, \
                           size_t nelems, int pe)                                              \
    {                                                                                          \
        const char *c = "shmem_ctx_iput" #B;                                                   \
        do_iput(c, dest, source, dst, sst, nelems, B / 8, shmi_ctx_pe(c, ctx, pe));            \
    }                                                                                          \
    void shmem_ctx_get##B(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe) \
    {                                                                                          \
        const char *c = "shmem_ctx_get" #B;                                                    \
        do_get(c, dest, source, nelems * (B / 8), shmi_ctx_pe(c, ctx, pe), 0);                 \
    }                                                                                          \
    void shmem_ctx_get##B##_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe) \
    {                                                                                          \
        const char *c = "shmem_ctx_get" #B "_nbi";                                             \
        do_get(c, dest, source, nelems * (B / 8), shmi_ctx_pe(c, ctx, pe), 1);                 \
    }                                                                                          \
    void shmem_ctx_iget##B(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, \
                           size_t nelems, int pe)                                              \
    {                                                                                          \
        const char *c = "shmem_ctx_iget" #B;                                                   \
        do_iget(c, dest, source, dst, sst, nelems, B / 8, shmi_ctx_pe(c, ctx, pe));            \
    }
SHMEMI_SIZES(DEF_SIZED)

void shmem_putmem(void *dest, const void *source, size_t nelems, int pe)
{
    do_put("shmem_putmem", dest, source, nelems, pe);
}
void shmem_putmem_nbi(void *dest, const void *source, size_t nelems, int pe)
{
    do_put("shmem_putmem_nbi", dest, source, nelems, pe);
}
void shmem_getmem(void *dest, const void *source, size_t nelems, int pe)
{
    do_get("shmem_getmem", dest, source, nelems, pe, 0);
}
void shmem_getmem_nbi(void *dest, const void *source, size_t nelems, int pe)
{
    do_get("shmem_getmem_nbi", dest, source, nelems, pe, 1);
}

void shmem_ctx_putmem(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe)
{
    do_put("shmem_ctx_putmem", dest, source, nelems, shmi_ctx_pe("shmem_ctx_putmem", ctx, pe));
}
void shmem_ctx_putmem_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe)
{
    do_put("shmem_ctx_putmem_nbi", dest, source, nelems, shmi_ctx_pe("shmem_ctx_putmem_nbi", ctx, pe));
}
void shmem_ctx_getmem(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe)
{
    do_get("shmem_ctx_getmem", dest, source, nelems, shmi_ctx_pe("shmem_ctx_getmem", ctx, pe), 0);
}
void shmem_ctx_getmem_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe)
{
    do_get("shmem_ctx_getmem_nbi", dest, source, nelems, shmi_ctx_pe("shmem_ctx_getmem_nbi", ctx, pe), 1);
}

void shmem_quiet(void)
{
    shmi_require_init("shmem_quiet");
    quiet("shmem_quiet");
}

void shmem_fence(void)
{
    shmi_require_init("shmem_fence");
    shmi_fence("shmem_fence");
}

/* On SHMEM_CTX_INVALID (what shmem_team_create_ctx gives a PE outside the team) quiet and
 * fence do nothing, as OpenSHMEM 1.5 says; any other routine on it is an error. */
void shmem_ctx_quiet(shmem_ctx_t ctx)
{
    if (ctx == SHMEM_CTX_INVALID) return;
    shmi_ctx_check("shmem_ctx_quiet", ctx);
    quiet("shmem_ctx_quiet");
}

void shmem_ctx_fence(shmem_ctx_t ctx)
{
    if (ctx == SHMEM_CTX_INVALID) return;
    shmi_ctx_check("shmem_ctx_fence", ctx);
    shmi_fence("shmem_ctx_fence");
}

/* heap.c: the symmetric heap (shmem_malloc, shmem_malloc_with_hints, shmem_calloc, shmem_align,
 * shmem_realloc, shmem_free and the deprecated shmalloc, shmemalign, shrealloc, shfree).
 *
 * The heap is a range of the registered window. Allocation is first fit over a list of
 * blocks kept in private memory, with no randomness and no dependence on addresses, so
 * the same sequence of calls gives the same window offsets on every PE: that is what makes
 * the blocks symmetric. The calls are collective and synchronize as the specification
 * says (a barrier at the end of an allocation, at the start of shmem_free) so no PE puts
 * into a block another PE has not allocated yet or has already reused.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shmem_internal.h"

#define HEAP_MIN_ALIGN 64u    /* cache line: every block starts aligned for any type */

struct shmi_block {
    uint64_t off, size; /* window offset and length */
    int free;
    struct shmi_block *next;
};

void shmi_heap_init(void)
{
    struct shmi_block *b = calloc(1, sizeof *b);
    if (!b) shmi_fatal("shmem_init", "out of memory");
    b->off = shmi.heap_off;
    b->size = shmi.heap_size;
    b->free = 1;
    shmi.blocks = b;
}

void shmi_heap_fini(void)
{
    for (struct shmi_block *b = shmi.blocks, *n; b; b = n) {
        n = b->next;
        free(b);
    }
    shmi.blocks = NULL;
}

static struct shmi_block *split(struct shmi_block *b, uint64_t at)
{
    /* b keeps [b->off, at); a new free block takes the rest. */
    struct shmi_block *n = calloc(1, sizeof *n);
    if (!n) shmi_fatal("shmem_malloc", "out of memory");
    n->off = at;
    n->size = b->off + b->size - at;
    n->free = b->free;
    n->next = b->next;
    b->size = at - b->off;
    b->next = n;
    return n;
}

/* The alignment a symmetric offset can give on every PE at once: the largest power of two
 * modulo which every PE's window base address is the same (a block whose address is
 * aligned on one PE then is on all, at one offset). libcanopy promises a congruence
 * (canopy_window_congruence: the arena layout under sim, up to 1 GiB; 2 MiB hugepages on
 * a board); the PEs check it once, the first time more than a page is asked for (the
 * allocating calls are collective, so every PE is here then): the lowest bit where their
 * base addresses differ, from an OR of the bases and an OR of their complements. Never
 * more than the promise: bits above it depend on where mmap put memory, and the answer to
 * shmem_align must not change from run to run. */
static uint64_t window_congruence(void)
{
    if (!shmi.win_align) {
        uint64_t promised = canopy_window_congruence(shmi.dev);
        if (promised < 4096) promised = 4096;
        const uint32_t base = (uint32_t)(uintptr_t)shmi.win;
        const uint32_t any = shmi_sw_or32(&shmi.world.g, base), all = ~shmi_sw_or32(&shmi.world.g, ~base);
        const uint32_t differ = any ^ all;
        const uint64_t have = differ ? (uint64_t)(differ & (~differ + 1)) : (uint64_t)1 << 32;
        shmi.win_align = have < promised ? have : promised;
    }
    return shmi.win_align;
}

/* First fit; NULL (after the barrier) if nothing fits, as the specification asks. A block
 * is aligned by its address (the same offset on every PE: window_congruence). */
static void *heap_alloc(const char *call, size_t align, size_t size)
{
    if (align < HEAP_MIN_ALIGN) align = HEAP_MIN_ALIGN;
    if (align & (align - 1)) shmi_fatal(call, "alignment %zu is not a power of two", align);
    if (align > 4096 && align > window_congruence()) {
        if (shmi.me == 0)
            fprintf(stderr, "canopy-shmem: %s: alignment %zu is more than this backend can give at one symmetric "
                            "offset on every PE (%llu bytes); returning NULL\n", call, align,
                    (unsigned long long)shmi.win_align);
        return NULL;
    }
    const uint64_t base = (uint64_t)(uintptr_t)shmi.win;
    const uint64_t need = (size + HEAP_MIN_ALIGN - 1) & ~(uint64_t)(HEAP_MIN_ALIGN - 1);
    for (struct shmi_block *b = shmi.blocks; b; b = b->next) {
        if (!b->free) continue;
        uint64_t start = ((base + b->off + align - 1) & ~(uint64_t)(align - 1)) - base;
        if (start + need > b->off + b->size) continue;
        if (start > b->off) b = split(b, start), b->free = 1;
        if (b->size > need) split(b, b->off + need);
        b->free = 0;
        return shmi_local(b->off);
    }
    return NULL;
}

static struct shmi_block *find(const char *call, void *ptr)
{
    int64_t off = shmi_offset(ptr, 0);
    for (struct shmi_block *b = shmi.blocks; b && off >= 0; b = b->next)
        if (b->off == (uint64_t)off && !b->free) return b;
    shmi_fatal(call, "%p is not a block of the symmetric heap", ptr);
}

static void heap_free(struct shmi_block *b)
{
    b->free = 1;
    /* Merge free neighbours (the list is in offset order). */
    for (struct shmi_block *p = shmi.blocks; p && p->next;) {
        if (p->free && p->next->free) {
            struct shmi_block *n = p->next;
            p->size += n->size;
            p->next = n->next;
            free(n);
        } else {
            p = p->next;
        }
    }
}

static void *collective_alloc(const char *call, size_t align, size_t size)
{
    SHMI_LOCKED;
    shmi_require_init(call);
    void *p = size ? heap_alloc(call, align, size) : NULL;
    shmi_barrier(&shmi.world.g, 1);
    return p;
}

void *shmem_malloc(size_t size) { return collective_alloc("shmem_malloc", HEAP_MIN_ALIGN, size); }

/* Hints describe how the block will be used, for an implementation with several kinds
 * of memory; canopy's heap has one (the window), so every hint allocates as shmem_malloc. */
void *shmem_malloc_with_hints(size_t size, long hints)
{
    (void)hints;
    return collective_alloc("shmem_malloc_with_hints", HEAP_MIN_ALIGN, size);
}

void *shmem_align(size_t alignment, size_t size)
{
    if (alignment == 0) alignment = HEAP_MIN_ALIGN;
    return collective_alloc("shmem_align", alignment, size);
}

void *shmem_calloc(size_t count, size_t size)
{
    SHMI_LOCKED;
    shmi_require_init("shmem_calloc");
    void *p = NULL;
    if (count && size && count <= SIZE_MAX / size) {
        p = heap_alloc("shmem_calloc", HEAP_MIN_ALIGN, count * size);
        if (p) memset(p, 0, count * size);
    }
    shmi_barrier(&shmi.world.g, 1);
    return p;
}

void shmem_free(void *ptr)
{
    SHMI_LOCKED;
    shmi_require_init("shmem_free");
    /* Barrier first: no PE may still be putting into the block. */
    shmi_barrier(&shmi.world.g, 1);
    if (ptr) heap_free(find("shmem_free", ptr));
}

void *shmem_realloc(void *ptr, size_t size)
{
    SHMI_LOCKED;
    shmi_require_init("shmem_realloc");
    if (!ptr) return shmem_malloc(size);
    if (size == 0) {
        shmem_free(ptr);
        return NULL;
    }
    shmi_barrier(&shmi.world.g, 1);
    struct shmi_block *b = find("shmem_realloc", ptr);
    const uint64_t old = b->size;
    /* Deterministic on every PE: grow in place if the next block is free and big enough,
     * else allocate, copy, free. */
    const uint64_t need = (size + HEAP_MIN_ALIGN - 1) & ~(uint64_t)(HEAP_MIN_ALIGN - 1);
    void *p = NULL;
    if (need <= old) {
        p = ptr;
    } else if (b->next && b->next->free && old + b->next->size >= need) {
        struct shmi_block *n = b->next;
        if (old + n->size > need) split(n, b->off + need);
        b->size += n->size;
        b->next = n->next;
        free(n);
        p = ptr;
    } else {
        p = heap_alloc("shmem_realloc", HEAP_MIN_ALIGN, size);
        if (p) {
            memcpy(p, ptr, old < size ? old : size);
            heap_free(b);
        }
    }
    shmi_barrier(&shmi.world.g, 1);
    return p;
}

/* Deprecated names. */
void *shmalloc(size_t size) { return shmem_malloc(size); }
void *shmemalign(size_t alignment, size_t size) { return shmem_align(alignment, size); }
void *shrealloc(void *ptr, size_t size) { return shmem_realloc(ptr, size); }
void shfree(void *ptr) { shmem_free(ptr); }

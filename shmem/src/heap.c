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
#define WINDOW_MIN_ALIGN 4096u         /* canopy_window's base is page aligned on every PE */
#define WINDOW_BIG_ALIGN (2u << 20)     /* ... and 2 MiB aligned for a window of 2 MiB or more */

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

/* The alignment that every PE's window base address has. A block's offset aligned to at
 * most this is an aligned address on every PE, with the same offset everywhere (which
 * symmetry needs). canopy_window promises the page, or 2 MiB for a window that large; the
 * PEs check that promise (an OR of the base addresses' low bits) the first time more than
 * a page is asked for (the allocating calls are collective, so every PE is here then).
 * Never more than the promise: where a base happens to be better aligned depends on where
 * mmap put it, and the answer to shmem_align must not change from run to run. */
static uint64_t window_alignment(void)
{
    if (!shmi.win_align) {
        const uint64_t promised = shmi.win_size >= WINDOW_BIG_ALIGN ? WINDOW_BIG_ALIGN : WINDOW_MIN_ALIGN;
        const uint32_t bits = shmi_sw_or32(&shmi.world.g, (uint32_t)(uintptr_t)shmi.win);
        const uint64_t have = bits ? (uint64_t)(bits & (~bits + 1)) : (uint64_t)1 << 31;
        shmi.win_align = have < promised ? have : promised;
    }
    return shmi.win_align;
}

/* First fit; NULL (after the barrier) if nothing fits, as the specification asks. */
static void *heap_alloc(const char *call, size_t align, size_t size)
{
    if (align < HEAP_MIN_ALIGN) align = HEAP_MIN_ALIGN;
    if (align & (align - 1)) shmi_fatal(call, "alignment %zu is not a power of two", align);
    if (align > WINDOW_MIN_ALIGN && align > window_alignment()) {
        if (shmi.me == 0)
            fprintf(stderr, "canopy-shmem: %s: alignment %zu is more than the %llu bytes every PE's window base "
                            "has; returning NULL\n", call, align, (unsigned long long)shmi.win_align);
        return NULL;
    }
    const uint64_t need = (size + HEAP_MIN_ALIGN - 1) & ~(uint64_t)(HEAP_MIN_ALIGN - 1);
    for (struct shmi_block *b = shmi.blocks; b; b = b->next) {
        if (!b->free) continue;
        uint64_t start = (b->off + align - 1) & ~(uint64_t)(align - 1);
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
    shmi_require_init("shmem_free");
    /* Barrier first: no PE may still be putting into the block. */
    shmi_barrier(&shmi.world.g, 1);
    if (ptr) heap_free(find("shmem_free", ptr));
}

void *shmem_realloc(void *ptr, size_t size)
{
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

/* init.c: setup, query and exit of libcanopy_shmem (OpenSHMEM 1.5 sections "Library
 * setup, exit and query" and "Memory management" addressing), and the library context.
 *
 * shmem_init opens this node's canopy device, registers one window holding (in order) the
 * program's .data/.bss pages, the symmetric heap and the library's own areas (layout in
 * shmem_internal.h), maps the window over .data/.bss so ordinary globals are symmetric
 * objects, says hello to every PE (a put is refused until the target's window exists),
 * programs the world tree and the stride trees (coll_hw.c) and ends with a barrier. A
 * program that exits without shmem_finalize gets it at exit. Errors stop the program with
 * a message naming the call (shmi_fatal): a SHMEM program has no error return to give
 * them to.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "shmem_internal.h"

/* The one library context: the state OpenSHMEM's API implies (it has no handle). */
struct shmi_ctx shmi;

/* Linker-provided bounds of the executable's writable data (glibc crt1 / GNU ld). */
extern char __data_start[], _end[];

void shmi_fatal(const char *call, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fflush(stdout);
    fprintf(stderr, "canopy-shmem: PE %d: %s: %s\n", shmi.me, call, msg);
    fflush(stderr);
    if (shmi.exiting) _exit(1); /* already inside exit (implicit finalize): no second exit */
    exit(1);
}

void shmi_check(const char *call, const char *what, int rc)
{
    if (rc) shmi_fatal(call, "%s failed: %s (%d)", what, canopy_strerror(rc), rc);
}

void shmi_require_init(const char *call)
{
    if (!shmi.initialized || shmi.finalized)
        shmi_fatal(call, "called %s shmem_init", shmi.finalized ? "after shmem_finalize, without" : "before");
}

void shmi_check_pe(const char *call, int pe)
{
    shmi_require_init(call);
    if (pe < 0 || pe >= shmi.npes) shmi_fatal(call, "invalid PE %d (the program has PEs 0..%d)", pe, shmi.npes - 1);
}

int64_t shmi_offset(const void *p, size_t len)
{
    const uintptr_t a = (uintptr_t)p;
    if (shmi.data_aliased && a >= shmi.data_lo && a <= shmi.data_hi && len <= shmi.data_hi - a)
        return (int64_t)(a - shmi.data_lo);
    const uintptr_t h = (uintptr_t)shmi.win + shmi.heap_off;
    if (shmi.win && a >= h && a <= h + shmi.heap_size && len <= h + shmi.heap_size - a)
        return (int64_t)(a - (uintptr_t)shmi.win);
    return -1;
}

uint64_t shmi_sym(const char *call, const void *p, size_t len)
{
    int64_t off = shmi_offset(p, len);
    if (off < 0)
        shmi_fatal(call, "address %p (%zu bytes) is not symmetric: use a global/static variable%s or shmem_malloc",
                   p, len, shmi.data_aliased ? "" : " (not on this backend)");
    return (uint64_t)off;
}

/* SHMEM_SYMMETRIC_SIZE: bytes, with an optional K, M or G suffix (powers of 1024); unset:
 * SHMI_DEFAULT_HEAP (256 MiB: what test suites and benchmarks written for other
 * implementations allocate; pages of it nobody touches cost nothing, docs/shmem.md). */
static size_t heap_size_from_env(void)
{
    const char *s = getenv("SHMEM_SYMMETRIC_SIZE");
    if (!s || !*s) return SHMI_DEFAULT_HEAP;
    char *end = NULL;
    unsigned long long v = strtoull(s, &end, 10);
    switch (*end) {
    case 'k': case 'K': v <<= 10, ++end; break;
    case 'm': case 'M': v <<= 20, ++end; break;
    case 'g': case 'G': v <<= 30, ++end; break;
    default: break;
    }
    if (*end || v == 0) shmi_fatal("shmem_init", "SHMEM_SYMMETRIC_SIZE=%s is not a size (e.g. 16M)", s);
    return (size_t)v;
}

static int env_flag(const char *name, int dflt)
{
    const char *s = getenv(name);
    if (!s || !*s) return dflt;
    if (!strcmp(s, "all")) return 2;
    return atoi(s);
}

/* Put a word into every PE's bounce area until it is accepted: a target refuses puts
 * until it has registered its window, and it does that at its own pace. */
static void hello_all(void)
{
    const uint64_t one = 1;
    for (int pe = 0; pe < shmi.npes; ++pe) {
        int rc;
        long tries = 0;
        do {
            shmi_check("shmem_init", "hello put", canopy_put(shmi.dev, pe, shmi.bounce_off + 8u * (unsigned)shmi.me, &one, 8, 0));
            rc = canopy_quiet(shmi.dev, SHMI_TIMEOUT_NS);
        } while (rc == CANOPY_EREFUSED && ++tries < 1000000);
        shmi_check("shmem_init", "waiting for every PE's window", rc);
    }
}

/* A program that ends with exit status 0 without calling shmem_finalize (start_pes-era
 * code does not call it) gets one here: its PEs still meet in the finalize barrier, where
 * a PE that did call shmem_finalize waits for them, and CANOPY_SHMEM_STATS still prints.
 * A failing exit (nonzero status, shmi_fatal) does not wait for anyone: the launcher ends
 * the job. A forked child inherits the handler but not the device: it does nothing there.
 * (exit is not async-signal-safe: a signal handler ends a PE with _exit.) */
static void implicit_finalize(int status, void *unused)
{
    (void)unused;
    if (status != 0 || (long)getpid() != shmi.init_pid) return;
    shmi.exiting = 1;
    shmem_finalize();
}

void shmem_init(void)
{
    if (shmi.initialized && !shmi.finalized) return;
    if (shmi.finalized) shmi_fatal("shmem_init", "the library cannot be initialized again after shmem_finalize");
    shmi.me = -1;
    char err[256] = "";
    struct canopy_open_opts o = {.errmsg = err, .errmsg_len = sizeof err};
    int rc = canopy_open(&shmi.dev, &o);
    if (rc) shmi_fatal("shmem_init", "no canopy device: %s (%s); start the program with shmem/oshrun", canopy_strerror(rc), err);
    shmi.me = canopy_my_node(shmi.dev);
    shmi.npes = canopy_num_nodes(shmi.dev);
    shmi.hw = env_flag("CANOPY_SHMEM_HW", 1) != 0;
    shmi.stats_mode = env_flag("CANOPY_SHMEM_STATS", 0);
    const char *ct = getenv("CANOPY_SHMEM_COLL_TIMEOUT_US");
    shmi.coll_timeout_ns = CANOPY_COLL_TIMEOUT_DEFAULT_NS;
    if (ct && *ct) {
        char *end = NULL;
        const unsigned long long us = strtoull(ct, &end, 10);
        if (*end || us == 0 || us > UINT64_MAX / 1000)
            shmi_fatal("shmem_init", "CANOPY_SHMEM_COLL_TIMEOUT_US=%s is not a count of microseconds", ct);
        shmi.coll_timeout_ns = us * 1000;
        shmi_check("shmem_init", "canopy_coll_set_timeout", canopy_coll_set_timeout(shmi.dev, shmi.coll_timeout_ns));
    }

    const uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    shmi.data_lo = (uintptr_t)__data_start & ~(page - 1);
    shmi.data_hi = ((uintptr_t)_end + page - 1) & ~(page - 1);
    const size_t data_len = shmi.data_hi - shmi.data_lo;
    size_t heap = (heap_size_from_env() + page - 1) & ~(page - 1);
    shmi.heap_off = data_len;
    shmi.heap_size = heap;
    shmi.chan_off = shmi.heap_off + heap;
    shmi.bounce_off = shmi.chan_off + (uint64_t)shmi.npes * SHMI_CHAN_BYTES;
    shmi.red_off = shmi.bounce_off + SHMI_BOUNCE_BYTES;
    shmi.amo_off = shmi.red_off + SHMI_RED_BYTES;
    size_t total = ((size_t)shmi.amo_off + 8u * SHMI_AMO_SLOTS + page - 1) & ~(page - 1);
    void *base = NULL;
    rc = canopy_window(shmi.dev, total, &base);
    if (rc)
        shmi_fatal("shmem_init", "registering a %zu-byte window (data %zu + heap %zu + library) failed: %s; "
                   "lower SHMEM_SYMMETRIC_SIZE or raise the co-simulator's --arena-mb", total, data_len, heap,
                   canopy_strerror(rc));
    shmi.win = base;
    shmi.win_size = total;

    /* From here on the globals (this context included) live in the window: the alias
     * call copies them in before it maps the window over them. */
    char aerr[256] = "";
    rc = canopy_window_alias(shmi.dev, (void *)shmi.data_lo, data_len, 0, aerr, sizeof aerr);
    if (rc == CANOPY_OK) {
        shmi.data_aliased = 1;
    } else if (rc == CANOPY_ENODEV) {
        if (shmi.me == 0)
            fprintf(stderr, "canopy-shmem: global and static variables are not symmetric on this backend (%s); "
                            "use shmem_malloc for remotely accessed data\n", aerr);
    } else {
        shmi_fatal("shmem_init", "aliasing .data/.bss into the window: %s (%s)", canopy_strerror(rc), aerr);
    }
    shmi.initialized = 1;
    shmi.init_pid = (long)getpid();
    if (on_exit(implicit_finalize, NULL) != 0) shmi_fatal("shmem_init", "on_exit failed");
    shmi_heap_init();
    shmi_chan_init();
    hello_all();
    shmi_group_init(&shmi.world.g, 0, 1, shmi.npes);
    shmi_group_init(&shmi.shared.g, shmi.me, 1, 1);
    shmi_hw_init();
    shmi_barrier(&shmi.world.g, 1);
}

/* Every level is provided: with SHMEM_THREAD_MULTIPLE the library serializes its threads
 * (one lock; waits give it up between slices: sync.c). Threads of one PE then take turns
 * in the co-simulation in an order the OS scheduler picks: such runs are correct but not
 * cycle-for-cycle repeatable (docs/shmem.md). */
int shmem_init_thread(int requested, int *provided)
{
    if (requested < SHMEM_THREAD_SINGLE || requested > SHMEM_THREAD_MULTIPLE) {
        fprintf(stderr, "canopy-shmem: shmem_init_thread: unknown thread level %d (SHMEM_THREAD_SINGLE .. "
                        "SHMEM_THREAD_MULTIPLE)\n", requested);
        return -1;
    }
    if (shmi.initialized && !shmi.finalized) {
        if (requested > shmi.thread_level) requested = shmi.thread_level; /* already initialized */
    } else {
        shmi.thread_level = requested;
        shmem_init();
    }
    if (provided) *provided = requested;
    return 0;
}

void shmem_query_thread(int *provided)
{
    shmi_require_init("shmem_query_thread");
    if (provided) *provided = shmi.thread_level;
}

void shmem_pcontrol(const int level, ...) { (void)level; }
void shmem_clear_cache_inv(void) {}
void shmem_set_cache_inv(void) {}
void shmem_clear_cache_line_inv(void *dest) { (void)dest; }
void shmem_set_cache_line_inv(void *dest) { (void)dest; }
void shmem_udcflush(void) {}
void shmem_udcflush_line(void *dest) { (void)dest; }

void shmem_finalize(void)
{
    SHMI_LOCKED;
    if (!shmi.initialized || shmi.finalized) return;
    shmi_barrier(&shmi.world.g, 1);
    shmi_stats_print();
    shmi_barrier(&shmi.world.g, 1);
    shmi.finalized = 1;
    shmi_heap_fini();
    for (int i = 0; i < shmi.nteams; ++i) free(shmi.teams[i]);
    free(shmi.teams);
    shmi.teams = NULL;
    shmi.nteams = 0;
    free(shmi.asets);
    free(shmi.amo_pending);
    shmi.amo_pending = NULL;
    free(shmi.sent);
    free(shmi.consumed);
    shmi.asets = NULL;
    shmi.sent = shmi.consumed = NULL;
    canopy_close(&shmi.dev);
}

/* Every PE ends, the job with `status` (as OpenSHMEM 1.5 asks): libcanopy's job exit stops
 * the other PEs where they are. Without a job to end (the pci backend) only this PE ends.
 * _exit, not exit: nothing may call the library afterwards (atexit handlers, finalize). */
void shmem_global_exit(int status)
{
    fflush(stdout);
    fflush(stderr);
    const int code = status & 0xff;
    if (shmi.dev) canopy_job_exit(shmi.dev, code);
    _exit(code);
}

int shmem_my_pe(void)
{
    shmi_require_init("shmem_my_pe");
    return shmi.me;
}

int shmem_n_pes(void)
{
    shmi_require_init("shmem_n_pes");
    return shmi.npes;
}

int shmem_pe_accessible(int pe)
{
    shmi_require_init("shmem_pe_accessible");
    return pe >= 0 && pe < shmi.npes;
}

int shmem_addr_accessible(const void *addr, int pe)
{
    shmi_require_init("shmem_addr_accessible");
    return pe >= 0 && pe < shmi.npes && shmi_offset(addr, 1) >= 0;
}

void *shmem_ptr(const void *dest, int pe)
{
    shmi_require_init("shmem_ptr");
    /* Only this PE's own memory is load/store accessible (no shared memory between nodes). */
    return pe == shmi.me && shmi_offset(dest, 1) >= 0 ? (void *)(uintptr_t)dest : NULL;
}

void shmem_info_get_version(int *major, int *minor)
{
    if (major) *major = SHMEM_MAJOR_VERSION;
    if (minor) *minor = SHMEM_MINOR_VERSION;
}

void shmem_info_get_name(char *name)
{
    if (!name) return;
    strncpy(name, SHMEM_VENDOR_STRING, SHMEM_MAX_NAME_LEN - 1);
    name[SHMEM_MAX_NAME_LEN - 1] = '\0';
}

/* Deprecated names (OpenSHMEM 1.5 Annex "Deprecated API"). */
void start_pes(int npes)
{
    (void)npes; /* the launcher decides the number of PEs */
    shmem_init(); /* a second call does nothing, as start_pes allows */
}
int _my_pe(void) { return shmem_my_pe(); }
int _num_pes(void) { return shmem_n_pes(); }

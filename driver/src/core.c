/* core.c: libcanopy's API over the hardware-access layer (hal.h).
 *
 * Device-side structures (docs/host-interface.md): the injection ring lives in BAR0; this
 * file writes packets into it and rings the INJ_TAIL doorbell. Host-side structures live
 * in DMA memory from the backend: the writeback block (the device writes INJ_HEAD and the
 * ack and get counters there, so waits poll RAM, not MMIO), the ejection ring
 * (notifications and refusals), the get completion area (a count per target node, for the
 * per-target bound on outstanding gets) and the window (where remote puts and this node's
 * gets land).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "canopy.h"
#include "canopy_packet.h"
#include "canopy_raw.h"
#include "canopy_regs.h"
#include "dev.h"
#include "hal.h"


/* ------------------------------------------------------------------ status text */
const char *canopy_strerror(int status)
{
    switch (status) {
    case CANOPY_OK: return "success";
    case CANOPY_EINVAL: return "invalid argument";
    case CANOPY_ENODEV: return "no canopy device found";
    case CANOPY_ENOMEM: return "out of DMA-able memory";
    case CANOPY_ERANGE: return "node, offset or size out of range";
    case CANOPY_ETIMEDOUT: return "timed out";
    case CANOPY_EIO: return "device error";
    case CANOPY_ECLOSED: return "device handle is closed (NULL)";
    case CANOPY_ENOTREG: return "memory is not in the registered window";
    case CANOPY_EBUSY: return "already in use";
    case CANOPY_EREFUSED: return "a target refused a put or get (outside its window)";
    case CANOPY_EAGAIN: return "nothing available yet";
    case CANOPY_EPERM: return "permission denied by the operating system";
    case CANOPY_ENOTREE: return "collective tree not set up on this node";
    case CANOPY_EREDUCE: return "a reduce failed: contributions disagreed or repeated";
    case CANOPY_ERETRY: return "a reduce stayed refused: the routers' reduce memory was full each time it was re-issued";
    case CANOPY_ENOPORT: return "serial port missing or unusable";
    case CANOPY_ENOANSWER: return "no answer from the board on the serial port";
    case CANOPY_ECHECKSUM: return "serial frames kept failing their checksum";
    case CANOPY_EDEVTIMEOUT: return "the board's bus did not answer in time (serial bridge timeout)";
    case CANOPY_ETREEDOWN: return "the collective tree is down: a collective on it did not complete in time";
    case CANOPY_EUNREACH: return "the route to that node (or back) crosses a link that is down";
    default: return "unknown canopy status";
    }
}

static int node_of_packed(const canopy_dev *dev, uint64_t coords)
{
    int n = 0;
    for (int d = (int)dev->ndims - 1; d >= 0; --d) n = n * (int)dev->sizes[d] + (int)canopy_coord_get(coords, (unsigned)d);
    return n;
}

/* ------------------------------------------------------------------ open / close */
static int read_identity(canopy_dev *dev, char *errmsg, size_t errlen)
{
    uint64_t id, build, caps, rings, topo, caps_get = 0;
    int rc;
    if ((rc = csr_read(dev, CANOPY_REG_ID, &id)) || (rc = csr_read(dev, CANOPY_REG_BUILD, &build)) ||
        (rc = csr_read(dev, CANOPY_REG_CAPS, &caps)) || (rc = csr_read(dev, CANOPY_REG_RINGS, &rings)) ||
        (rc = csr_read(dev, CANOPY_REG_TOPO, &topo)))
        return rc;
    /* CAPS_GET exists from version 1.1 on; without it the device serves no gets. */
    if (CANOPY_FIELD(id, ID, MINOR) >= 1 && (rc = csr_read(dev, CANOPY_REG_CAPS_GET, &caps_get))) return rc;
    if (CANOPY_FIELD(id, ID, MAGIC) != CANOPY_MAGIC || CANOPY_FIELD(id, ID, MAJOR) != CANOPY_VERSION_MAJOR) {
        if (errmsg)
            snprintf(errmsg, errlen, "%s: ID register 0x%016llx is not canopy host interface v%u",
                     dev->hal.ops->name, (unsigned long long)id, CANOPY_VERSION_MAJOR);
        return CANOPY_EIO;
    }
    struct canopy_caps *c = &dev->caps;
    c->magic = (uint32_t)CANOPY_FIELD(id, ID, MAGIC);
    c->version_major = (uint32_t)CANOPY_FIELD(id, ID, MAJOR);
    c->version_minor = (uint32_t)CANOPY_FIELD(id, ID, MINOR);
    c->build_git = (uint32_t)CANOPY_FIELD(build, BUILD, GIT);
    c->build_date = (uint32_t)CANOPY_FIELD(build, BUILD, DATE);
    c->trees = (uint32_t)CANOPY_FIELD(caps, CAPS, TREES);
    c->reduce_ids = (uint32_t)CANOPY_FIELD(caps, CAPS, REDUCE_IDS);
    c->ops_mask = (uint32_t)CANOPY_FIELD(caps, CAPS, OPS);
    c->dtypes_mask = (uint32_t)CANOPY_FIELD(caps, CAPS, DTYPES);
    c->max_payload = (uint32_t)CANOPY_FIELD(caps, CAPS, MAX_PAYLOAD);
    c->flit_bits = (uint32_t)CANOPY_FIELD(caps, CAPS, FLIT_BITS);
    c->vcs = (uint32_t)CANOPY_FIELD(caps, CAPS, VCS);
    c->inj_ring_words = (uint32_t)CANOPY_FIELD(rings, RINGS, INJ_WORDS);
    c->get_slots = (uint32_t)CANOPY_FIELD(caps_get, CAPS_GET, SLOTS);
    c->max_get_bytes = (uint32_t)CANOPY_FIELD(caps_get, CAPS_GET, MAX_BYTES);
    c->amo_ops = (uint32_t)CANOPY_FIELD(caps_get, CAPS_GET, AMO_OPS);
    if (c->max_get_bytes > CANOPY_MAX_GET_BYTES) c->max_get_bytes = CANOPY_MAX_GET_BYTES;
    if (c->max_get_bytes == 0) c->get_slots = 0;
    if (c->get_slots == 0) c->amo_ops = 0;
    if (c->flit_bits != 64 || c->max_payload == 0 || c->max_payload > CANOPY_PKT_MAX_PAYLOAD ||
        c->inj_ring_words < 2 * (3 + CANOPY_PKT_MAX_PAYLOAD / 8)) {
        if (errmsg) snprintf(errmsg, errlen, "%s: unsupported capabilities (flit %u bits, payload %u, ring %u words)",
                             dev->hal.ops->name, c->flit_bits, c->max_payload, c->inj_ring_words);
        return CANOPY_EIO;
    }
    dev->inj_words = c->inj_ring_words;
    dev->ndims = (unsigned)CANOPY_FIELD(topo, TOPO, NDIMS);
    uint64_t coords = CANOPY_FIELD(topo, TOPO, COORDS), sizes = CANOPY_FIELD(topo, TOPO, SIZES);
    dev->nodes = 1;
    for (unsigned d = 0; d < CANOPY_MAX_DIMS; ++d) {
        dev->sizes[d] = d < dev->ndims ? (unsigned)((sizes >> (5 * d)) & 31u) : 1;
        dev->my_coords[d] = canopy_coord_get(coords, d);
        if (dev->sizes[d] == 0) return CANOPY_EIO;
        dev->nodes *= (int)dev->sizes[d];
    }
    dev->node = node_of_packed(dev, coords);
    if (dev->hal.node >= 0 && (dev->hal.node != dev->node || dev->hal.nodes != dev->nodes)) {
        if (errmsg) snprintf(errmsg, errlen, "%s: launcher says node %d of %d, device says %d of %d",
                             dev->hal.ops->name, dev->hal.node, dev->hal.nodes, dev->node, dev->nodes);
        return CANOPY_EIO;
    }
    return CANOPY_OK;
}

static int setup_host_structures(canopy_dev *dev)
{
    int rc;
    if ((rc = dev->hal.ops->dma_alloc(&dev->hal, WB_BYTES, &dev->wb)) ||
        (rc = dev->hal.ops->dma_alloc(&dev->hal, EJ_ENTRIES * EJ_ENTRY_BYTES, &dev->ej)) ||
        (rc = dev->hal.ops->dma_alloc(&dev->hal, COLL_AREA_BYTES, &dev->coll)) ||
        (rc = dev->hal.ops->dma_alloc(&dev->hal, 8u * (size_t)dev->nodes, &dev->get_area)))
        return rc;
    if (!(dev->get_issued_to = calloc((size_t)dev->nodes, sizeof *dev->get_issued_to))) return CANOPY_ENOMEM;
    /* Seed the writeback block with the device's current values, so waits are right even
     * before the device's first writeback, and take them as this handle's baselines. */
    uint64_t head, acked, failed, gdone = 0, gfailed = 0;
    /* Doorbell mode first: a packet a previous user left half written in auto-commit mode
     * is then refused (ERR_INJ_DESC) and the ring is empty when its head is read. */
    const int auto_commit = dev->caps.version_minor >= 3;
    if (auto_commit && (rc = csr_write(dev, CANOPY_REG_INJ_MODE, 0))) return rc;
    if ((rc = csr_read(dev, CANOPY_REG_INJ_HEAD, &head)) || (rc = csr_read(dev, CANOPY_REG_PUTS_ACKED, &acked)) ||
        (rc = csr_read(dev, CANOPY_REG_PUTS_FAILED, &failed)))
        return rc;
    if (dev->caps.get_slots &&
        ((rc = csr_read(dev, CANOPY_REG_GETS_DONE, &gdone)) || (rc = csr_read(dev, CANOPY_REG_GETS_FAILED, &gfailed))))
        return rc;
    acked &= WB_ACKED_MASK;
    failed &= WB_FAILED_MASK;
    gdone &= WB_ACKED_MASK;
    gfailed &= WB_FAILED_MASK;
    *wb_word(dev, WB_INJ_HEAD) = head;
    *wb_word(dev, WB_PUTS) = acked | failed << WB_FAILED_SHIFT;
    *wb_word(dev, WB_GETS) = gdone | gfailed << WB_FAILED_SHIFT;
    dev->inj_tail = dev->inj_head_seen = (uint32_t)head;
    dev->puts_issued = acked;
    dev->failed_seen = failed;
    dev->gets_issued = gdone;
    dev->gets_failed_seen = gfailed;
    /* Self-committing ring (host interface 1.3): the injector starts on a packet as soon as
     * its last word has been written, with no doorbell (docs/host-interface.md). */
    if (auto_commit && (rc = csr_write(dev, CANOPY_REG_INJ_MODE, 1ull << CANOPY_INJ_MODE_AUTO_COMMIT_LSB))) return rc;
    dev->inj_auto = auto_commit;
    if ((rc = csr_write(dev, CANOPY_REG_WB_BASE, dev->wb.bus)) || (rc = csr_write(dev, CANOPY_REG_EJ_BASE, dev->ej.bus)) ||
        (rc = csr_write(dev, CANOPY_REG_EJ_ENTRIES, EJ_ENTRIES)) ||
        (rc = csr_write(dev, CANOPY_REG_COLL_WB_BASE, dev->coll.bus)))
        return rc;
    /* The per-target counts restart while GET_WB_BASE is 0: a 0 first, in case a previous
     * user of the device left the same address registered, so they match get_issued_to. */
    if (dev->caps.get_slots && ((rc = csr_write(dev, CANOPY_REG_GET_WB_BASE, 0)) ||
                                (rc = csr_write(dev, CANOPY_REG_GET_WB_BASE, dev->get_area.bus))))
        return rc;
    return CANOPY_OK;
}


int canopy_open(canopy_dev **out, const struct canopy_open_opts *opts)
{
    static const struct canopy_open_opts defaults;
    if (!out) return CANOPY_EINVAL;
    *out = NULL;
    if (!opts) opts = &defaults;
    char *errmsg = opts->errmsg;
    size_t errlen = opts->errmsg_len;
    if (errmsg && errlen) errmsg[0] = '\0';

    const char *backend = opts->backend ? opts->backend : getenv("CANOPY_BACKEND");
    if (!backend) backend = getenv("CANOPY_COSIM") ? "sim" : "pci";
    canopy_dev *dev = calloc(1, sizeof *dev);
    if (!dev) return CANOPY_ENOMEM;
    int rc;
    if (strcmp(backend, "sim") == 0) {
        rc = canopy_hal_sim_open(&dev->hal, errmsg, errlen);
    } else if (strcmp(backend, "pci") == 0) {
        rc = canopy_hal_pci_open(&dev->hal, opts, errmsg, errlen);
    } else if (strcmp(backend, "serial") == 0) {
        rc = canopy_hal_serial_open(&dev->hal, opts, errmsg, errlen);
    } else {
        if (errmsg) snprintf(errmsg, errlen, "unknown backend \"%s\" (use \"sim\", \"pci\" or \"serial\")", backend);
        rc = CANOPY_EINVAL;
    }
    if (rc) {
        free(dev);
        return rc;
    }
    if ((rc = read_identity(dev, errmsg, errlen)) || (rc = setup_host_structures(dev))) {
        dev->hal.ops->close(&dev->hal);
        free(dev->get_issued_to);
        free(dev);
        return rc;
    }
    *out = dev;
    return CANOPY_OK;
}

int canopy_close(canopy_dev **devp)
{
    if (!devp || !*devp) return CANOPY_OK;
    canopy_dev *dev = *devp;
    *devp = NULL;
    int rc = canopy_quiet(dev, DEFAULT_TIMEOUT_NS);
    /* Unregister so the device writes nothing more into memory that is going away. */
    csr_write(dev, CANOPY_REG_WIN_SIZE, 0);
    csr_write(dev, CANOPY_REG_EJ_ENTRIES, 0);
    csr_write(dev, CANOPY_REG_WB_BASE, 0);
    csr_write(dev, CANOPY_REG_COLL_WB_BASE, 0);
    if (dev->caps.get_slots) csr_write(dev, CANOPY_REG_GET_WB_BASE, 0);
    uint64_t fence;
    csr_read(dev, CANOPY_REG_ID, &fence); /* non-posted: the writes above have landed */
    dev->hal.ops->close(&dev->hal);
    free(dev->get_issued_to);
    free(dev->dead_links);
    for (unsigned t = 0; t < CANOPY_MAX_TREES; ++t) free(dev->trees[t].saved);
    free(dev);
    return rc == CANOPY_EREFUSED ? CANOPY_OK : rc;
}

/* ------------------------------------------------------------------ queries */
int canopy_caps(canopy_dev *dev, struct canopy_caps *caps)
{
    int rc = usable(dev);
    if (rc) return rc;
    if (!caps) return CANOPY_EINVAL;
    *caps = dev->caps;
    return CANOPY_OK;
}

int canopy_my_node(canopy_dev *dev) { return usable(dev) ? usable(dev) : dev->node; }
int canopy_num_nodes(canopy_dev *dev) { return usable(dev) ? usable(dev) : dev->nodes; }
int canopy_ndims(canopy_dev *dev) { return usable(dev) ? usable(dev) : (int)dev->ndims; }

int canopy_coords(canopy_dev *dev, int node, unsigned coords[4])
{
    int rc = usable(dev);
    if (rc) return rc;
    if (!coords) return CANOPY_EINVAL;
    if (node < 0 || node >= dev->nodes) return CANOPY_ERANGE;
    uint64_t c = packed_coords(dev, node);
    for (unsigned d = 0; d < CANOPY_MAX_DIMS; ++d) coords[d] = canopy_coord_get(c, d);
    return CANOPY_OK;
}

int canopy_job_exit(canopy_dev *dev, int status)
{
    int rc = usable(dev);
    if (rc) return rc;
    if (status < 0 || status > 255) return CANOPY_EINVAL;
    return dev->hal.ops->job_exit(&dev->hal, status);
}

uint64_t canopy_time_ns(canopy_dev *dev) { return usable(dev) ? 0 : dev->hal.ops->now_ns(&dev->hal); }
uint64_t canopy_cycles(canopy_dev *dev) { return usable(dev) ? 0 : dev->hal.ops->cycles(&dev->hal); }

int canopy_counters(canopy_dev *dev, struct canopy_counters *c)
{
    int rc = usable(dev);
    if (rc) return rc;
    if (!c) return CANOPY_EINVAL;
    const struct { uint32_t off; uint64_t *dst; } regs[] = {
        {CANOPY_REG_ERR_BAD_TYPE, &c->err_bad_type},   {CANOPY_REG_ERR_BAD_DST, &c->err_bad_dst},
        {CANOPY_REG_ERR_BAD_LEN, &c->err_bad_len},     {CANOPY_REG_ERR_DMA_BOUNDS, &c->err_dma_bounds},
        {CANOPY_REG_ERR_INJ_DESC, &c->err_inj_desc},   {CANOPY_REG_ERR_INJ_WRITE, &c->err_inj_write},
        {CANOPY_REG_ERR_DOORBELL, &c->err_doorbell},   {CANOPY_REG_ERR_CSR, &c->err_csr},
        {CANOPY_REG_ERR_EJ_NORING, &c->err_ej_noring}, {CANOPY_REG_TX_PKTS, &c->tx_pkts},
        {CANOPY_REG_TX_FLITS, &c->tx_flits},           {CANOPY_REG_RX_PKTS, &c->rx_pkts},
        {CANOPY_REG_RX_FLITS, &c->rx_flits},           {CANOPY_REG_RX_PUTS, &c->rx_puts},
        {CANOPY_REG_PUTS_ACKED, &c->puts_acked},       {CANOPY_REG_PUTS_FAILED, &c->puts_failed},
        {CANOPY_REG_ERR_TREE_WRITE, &c->err_tree_write}, {CANOPY_REG_ERR_COLL_DIR, &c->err_coll_dir},
        {CANOPY_REG_ERR_COLL_TREE, &c->err_coll_tree},   {CANOPY_REG_RX_BCASTS, &c->rx_bcasts},
        {CANOPY_REG_ERR_REDUCE, &c->err_reduce},         {CANOPY_REG_REDUCES_SENT, &c->reduces_sent},
        {CANOPY_REG_REDUCES_DONE, &c->reduces_done},
        {CANOPY_REG_ERR_GET_BOUNDS, &c->err_get_bounds}, {CANOPY_REG_ERR_GET_DROPPED, &c->err_get_dropped},
        {CANOPY_REG_GETS_SERVED, &c->gets_served},       {CANOPY_REG_GET_RESPS, &c->get_resps},
        {CANOPY_REG_GETS_DONE, &c->gets_done},           {CANOPY_REG_GETS_FAILED, &c->gets_failed},
        {CANOPY_REG_AMOS_SERVED, &c->amos_served},
    };
    for (size_t i = 0; i < sizeof regs / sizeof regs[0]; ++i) {
        if ((rc = csr_read(dev, regs[i].off, regs[i].dst))) return rc;
    }
    c->reduces_refused = 0; /* a device before 1.2 has no such register (and refuses nothing) */
    if (dev->caps.version_minor >= 2 && (rc = csr_read(dev, CANOPY_REG_REDUCES_REFUSED, &c->reduces_refused)))
        return rc;
    c->err_dma_write = c->err_dma_read = 0;
    if (dev->caps.version_minor >= 4 && ((rc = csr_read(dev, CANOPY_REG_ERR_DMA_WRITE, &c->err_dma_write)) ||
                                         (rc = csr_read(dev, CANOPY_REG_ERR_DMA_READ, &c->err_dma_read))))
        return rc;
    c->link_down = c->link_drops = 0;
    if (dev->caps.version_minor >= 5 && ((rc = csr_read(dev, CANOPY_REG_LINK_DOWN, &c->link_down)) ||
                                         (rc = csr_read(dev, CANOPY_REG_LINK_DROPS, &c->link_drops))))
        return rc;
    return CANOPY_OK;
}

/* ------------------------------------------------------------------ window */
int canopy_window(canopy_dev *dev, size_t size, void **base)
{
    int rc = usable(dev);
    if (rc) return rc;
    if (!base || size == 0 || size % 8) return CANOPY_EINVAL;
    if (dev->win.vaddr) return CANOPY_EBUSY;
    if ((rc = dev->hal.ops->dma_alloc(&dev->hal, size, &dev->win))) return rc;
    if ((rc = csr_write(dev, CANOPY_REG_WIN_BASE, dev->win.bus)) || (rc = csr_write(dev, CANOPY_REG_WIN_SIZE, size)))
        return rc;
    *base = dev->win.vaddr;
    return CANOPY_OK;
}

size_t canopy_window_size(canopy_dev *dev) { return usable(dev) || !dev->win.vaddr ? 0 : dev->win.size; }
uint64_t canopy_window_congruence(canopy_dev *dev) { return usable(dev) ? 0 : dev->hal.congruence; }

/* ------------------------------------------------------------------ injection ring */
int canopy_dev_doorbell(canopy_dev *dev)
{
    if (!dev->unrung) return CANOPY_OK;
    dev->unrung = 0;
    if (dev->inj_auto) return CANOPY_OK; /* committed as written */
    return csr_write(dev, CANOPY_REG_INJ_TAIL, dev->inj_tail);
}

/* Every wait of the library. While reduces are in flight on some tree, it waits in slices
 * and re-issues, between them, the reduces that routers refused (canopy_coll_progress): a
 * refused reduce needs every member to send its contribution again, and a member may be
 * waiting here for something else (another tree, a put) that waits on that reduce. */
int canopy_dev_wait(canopy_dev *dev, const volatile uint64_t *addr, uint64_t mask, int cmp, uint64_t value,
                    uint64_t timeout_ns)
{
    for (;;) {
        if (dev->in_progress || !canopy_coll_busy(dev))
            return dev->hal.ops->wait(&dev->hal, addr, mask, cmp, value, timeout_ns);
        int rc = canopy_coll_progress(dev);
        if (rc) return rc;
        const uint64_t slice = timeout_ns < COLL_PROGRESS_SLICE_NS ? timeout_ns : COLL_PROGRESS_SLICE_NS;
        rc = dev->hal.ops->wait(&dev->hal, addr, mask, cmp, value, slice);
        if (rc != CANOPY_ETIMEDOUT || slice == timeout_ns) return rc;
        timeout_ns -= slice;
    }
}

/* Wait until `words` ring words are free. Rings the doorbell first: the device can only
 * free space for packets it has been told about. */
static int ring_reserve(canopy_dev *dev, uint32_t words)
{
    int rc;
    for (;;) {
        dev->inj_head_seen = (uint32_t)*wb_word(dev, WB_INJ_HEAD);
        uint32_t used = dev->inj_tail - dev->inj_head_seen;
        if (used > dev->inj_words) return CANOPY_EIO; /* device wrote back nonsense */
        if (dev->inj_words - used >= words) return CANOPY_OK;
        if ((rc = canopy_dev_doorbell(dev))) return rc;
        rc = canopy_dev_wait(dev, wb_word(dev, WB_INJ_HEAD), 0xffffffffull, CANOPY_CMP_NE,
                                dev->inj_head_seen, DEFAULT_TIMEOUT_NS);
        if (rc) return rc == CANOPY_ETIMEDOUT ? CANOPY_EIO : rc;
    }
}

/* Copy words into the ring at the tail, wrapping, as at most two bursts per call. */
static int ring_write(canopy_dev *dev, const uint64_t *words, uint32_t n)
{
    uint32_t pos = dev->inj_tail % dev->inj_words;
    uint32_t first = n < dev->inj_words - pos ? n : dev->inj_words - pos;
    int rc;
    for (uint32_t done = 0; done < first;) {
        uint32_t chunk = first - done < CANOPY_PKT_MAX_PAYLOAD / 8 * 2 ? first - done : CANOPY_PKT_MAX_PAYLOAD / 8 * 2;
        if ((rc = dev->hal.ops->mmio_write(&dev->hal, CANOPY_INJ_WINDOW_OFFSET + 8 * (pos + done), words + done, 8u * chunk)))
            return rc;
        done += chunk;
    }
    if (n > first &&
        (rc = dev->hal.ops->mmio_write(&dev->hal, CANOPY_INJ_WINDOW_OFFSET, words + first, 8u * (n - first))))
        return rc;
    dev->inj_tail += n;
    return CANOPY_OK;
}

/* One ring entry: a descriptor word, then its words (npkts packets). Doorbells are
 * batched by packets; a doorbell always covers whole entries (the device checks each
 * packet of a batch against the tail when it reaches it). */
static int inject_entry(canopy_dev *dev, uint64_t desc, const uint64_t *words, unsigned nwords, unsigned npkts)
{
    uint64_t buf[1 + MAX_ENTRY_WORDS];
    buf[0] = desc;
    if (nwords) memcpy(buf + 1, words, 8u * nwords);
    int rc;
    if ((rc = ring_reserve(dev, 1 + nwords)) || (rc = ring_write(dev, buf, 1 + nwords))) return rc;
    dev->unrung += npkts;
    if (dev->unrung >= DOORBELL_BATCH) return canopy_dev_doorbell(dev);
    return CANOPY_OK;
}

static int inject_words(canopy_dev *dev, uint64_t desc, const uint64_t *words, unsigned nwords)
{
    return inject_entry(dev, desc, words, nwords, 1);
}

/* Descriptor word (docs/host-interface.md): flit count, local-port VC, and how many more
 * packets of that size follow in the same entry. */
static uint64_t descriptor(unsigned nflits, unsigned vc, unsigned more)
{
    return (uint64_t)nflits | ((uint64_t)vc << 8) | ((uint64_t)more << 10);
}

int canopy_dev_inject(canopy_dev *dev, const uint64_t *flits, unsigned nflits, unsigned vc)
{
    return inject_words(dev, descriptor(nflits, vc, 0), flits, nflits);
}

/* npkts packets of nflits flits each, back to back in flits[], as one ring entry: one
 * descriptor word for all of them, so a stream of full packets costs the host's MMIO
 * path and the injector no word per packet beyond the packet's own. */
int canopy_dev_inject_batch(canopy_dev *dev, const uint64_t *flits, unsigned nflits, unsigned npkts, unsigned vc)
{
    if (npkts == 0 || npkts > MAX_BATCH_PKTS || (size_t)nflits * npkts > MAX_ENTRY_WORDS) return CANOPY_EINVAL;
    return inject_entry(dev, descriptor(nflits, vc, npkts - 1), flits, nflits * npkts, npkts);
}

/* Packets of nflits flits that fit one ring entry on this device. */
static unsigned batch_limit(const canopy_dev *dev, unsigned nflits)
{
    unsigned fit = (dev->inj_words - 1) / nflits, lim = MAX_ENTRY_WORDS / nflits;
    if (lim > fit) lim = fit;
    if (lim > MAX_BATCH_PKTS) lim = MAX_BATCH_PKTS;
    return lim ? lim : 1;
}

int canopy_batch_flush(canopy_dev *dev, struct canopy_batch *b)
{
    if (!b->npkts) return CANOPY_OK;
    int rc = canopy_dev_inject_batch(dev, b->words, b->nflits, b->npkts, b->vc);
    b->npkts = 0;
    return rc;
}

int canopy_batch_slot(canopy_dev *dev, struct canopy_batch *b, unsigned nflits, uint64_t **slot)
{
    int rc;
    if (b->npkts && (nflits != b->nflits || b->npkts == batch_limit(dev, nflits)) &&
        (rc = canopy_batch_flush(dev, b)))
        return rc;
    b->nflits = nflits;
    *slot = b->words + (size_t)b->npkts++ * nflits;
    memset(*slot, 0, 8u * nflits);
    return CANOPY_OK;
}

int canopy_raw_inject(canopy_dev *dev, const uint64_t *flits, unsigned nflits, unsigned vc)
{
    int rc = usable(dev);
    if (rc) return rc;
    if (!flits || nflits == 0 || nflits > MAX_FLITS || vc >= dev->caps.vcs || nflits + 1 > dev->inj_words)
        return CANOPY_EINVAL;
    if ((rc = canopy_dev_inject(dev, flits, nflits, vc))) return rc;
    return canopy_dev_doorbell(dev);
}

int canopy_raw_inject_desc(canopy_dev *dev, uint64_t desc, const uint64_t *words, unsigned nwords)
{
    int rc = usable(dev);
    if (rc) return rc;
    if ((nwords && !words) || nwords > MAX_FLITS || nwords + 1 > dev->inj_words) return CANOPY_EINVAL;
    if ((rc = inject_words(dev, desc, words, nwords))) return rc;
    return canopy_dev_doorbell(dev);
}

int canopy_raw_mmio_write(canopy_dev *dev, uint32_t off, const void *src, size_t len)
{
    int rc = usable(dev);
    if (rc) return rc;
    if (!src || len == 0 || len % 8 || off % 8 || (uint64_t)off + len > CANOPY_BAR0_BYTES) return CANOPY_EINVAL;
    return dev->hal.ops->mmio_write(&dev->hal, off, src, len);
}

int canopy_raw_mmio_read(canopy_dev *dev, uint32_t off, uint64_t *value)
{
    int rc = usable(dev);
    if (rc) return rc;
    if (!value || off % 8 || off >= CANOPY_BAR0_BYTES) return CANOPY_EINVAL;
    return dev->hal.ops->mmio_read64(&dev->hal, off, value);
}

/* ------------------------------------------------------------------ puts */
int canopy_put(canopy_dev *dev, int node, uint64_t offset, const void *src, size_t len, unsigned flags)
{
    int rc = usable(dev);
    if (rc) return rc;
    if ((!src && len) || (flags & ~CANOPY_PUT_NOTIFY)) return CANOPY_EINVAL;
    if (node < 0 || node >= dev->nodes) return CANOPY_ERANGE;
    if ((rc = canopy_route_ok(dev, node))) return rc;
    const uint64_t offset_limit = (uint64_t)1 << CANOPY_HDR_OFFSET_WIDTH;
    if (offset >= offset_limit || len > offset_limit - offset) return CANOPY_ERANGE;

    const uint8_t *p = src;
    const size_t mp = dev->caps.max_payload;
    struct canopy_batch batch = {.vc = CANOPY_VC_P2P_LO};
    for (size_t done = 0; done < len;) {
        size_t chunk = len - done < mp ? len - done : mp;
        uint64_t *flits;
        if ((rc = canopy_batch_slot(dev, &batch, 2 + (unsigned)((chunk + 7) / 8), &flits))) return rc;
        canopy_hdr_set_ptype(flits, CANOPY_PKT_PUT);
        canopy_hdr_set_flags(flits, CANOPY_FLAG_ACK_REQ | ((flags & CANOPY_PUT_NOTIFY) ? CANOPY_FLAG_NOTIFY : 0));
        canopy_hdr_set_dst(flits, packed_coords(dev, node));
        canopy_hdr_set_src(flits, packed_coords(dev, dev->node));
        canopy_hdr_set_len(flits, chunk);
        canopy_hdr_set_offset(flits, offset + done);
        memcpy(flits + 2, p + done, chunk); /* little-endian payload bytes; the tail stays 0 */
        ++dev->puts_issued;
        done += chunk;
    }
    if ((rc = canopy_batch_flush(dev, &batch))) return rc;
    return canopy_dev_doorbell(dev);
}

/* ------------------------------------------------------------------ gets */
static volatile uint64_t *get_area_word(canopy_dev *dev, int node)
{
    return (volatile uint64_t *)dev->get_area.vaddr + node;
}

/* Wait until fewer than caps.get_slots gets toward node are outstanding: the target holds
 * only that many per source and drops the rest (docs/host-interface.md). Completion
 * counts come from the get area, which the device writes after each get's data. */
static int get_slot_wait(canopy_dev *dev, int node)
{
    volatile uint64_t *w = get_area_word(dev, node);
    int rc;
    for (;;) {
        uint32_t done = (uint32_t)*w;
        uint32_t outstanding = dev->get_issued_to[node] - done;
        if (outstanding > dev->caps.get_slots) return CANOPY_EIO; /* device wrote back nonsense */
        if (outstanding < dev->caps.get_slots) return CANOPY_OK;
        /* The oldest may still be in the ring, unannounced. */
        if ((rc = canopy_dev_doorbell(dev))) return rc;
        if ((rc = canopy_dev_wait(dev, w, 0xffffffffull, CANOPY_CMP_NE, done, DEFAULT_TIMEOUT_NS))) return rc;
    }
}

int canopy_get(canopy_dev *dev, int node, uint64_t remote_offset, uint64_t local_offset, size_t len)
{
    int rc = usable(dev);
    if (rc) return rc;
    if (node < 0 || node >= dev->nodes) return CANOPY_ERANGE;
    if ((rc = canopy_route_ok(dev, node))) return rc;
    if (!dev->caps.get_slots) return CANOPY_ENODEV;
    if (!dev->win.vaddr) return CANOPY_ENOTREG;
    /* Both ranges must be expressible (40-bit offsets); the local one must lie in this
     * node's window, since the device would refuse the data there. The remote one is the
     * target's to check. */
    const uint64_t offset_limit = (uint64_t)1 << CANOPY_HDR_OFFSET_WIDTH;
    if (remote_offset >= offset_limit || len > offset_limit - remote_offset) return CANOPY_ERANGE;
    if (local_offset > dev->win.size || len > dev->win.size - local_offset) return CANOPY_ERANGE;

    const uint64_t dst = packed_coords(dev, node), src = packed_coords(dev, dev->node);
    for (size_t done = 0; done < len;) {
        size_t chunk = len - done < dev->caps.max_get_bytes ? len - done : dev->caps.max_get_bytes;
        if ((rc = get_slot_wait(dev, node))) return rc;
        uint64_t flits[3] = {0, 0, 0};
        canopy_hdr_set_ptype(flits, CANOPY_PKT_GET);
        canopy_hdr_set_dst(flits, dst);
        canopy_hdr_set_src(flits, src);
        canopy_hdr_set_len(flits, 8);
        canopy_hdr_set_offset(flits, remote_offset + done);
        flits[2] = canopy_getreq_set_get_len(canopy_getreq_set_reply_offset(0, local_offset + done), chunk);
        if ((rc = canopy_dev_inject(dev, flits, 3, CANOPY_VC_P2P_LO))) return rc;
        ++dev->gets_issued;
        ++dev->get_issued_to[node];
        done += chunk;
    }
    return canopy_dev_doorbell(dev);
}

/* ------------------------------------------------------------------ atomics */
int canopy_amo(canopy_dev *dev, int node, uint64_t offset, unsigned op, unsigned size, uint64_t operand,
               uint64_t compare, uint64_t reply_offset)
{
    int rc = usable(dev);
    if (rc) return rc;
    if (node < 0 || node >= dev->nodes) return CANOPY_ERANGE;
    if ((rc = canopy_route_ok(dev, node))) return rc;
    if (!dev->caps.amo_ops) return CANOPY_ENODEV;
    if (op > 31 || !(dev->caps.amo_ops >> op & 1u) || (size != 4 && size != 8) || offset % size) return CANOPY_EINVAL;
    const uint64_t offset_limit = (uint64_t)1 << CANOPY_HDR_OFFSET_WIDTH;
    if (offset >= offset_limit || size > offset_limit - offset) return CANOPY_ERANGE;
    const int fetch = reply_offset != CANOPY_AMO_NO_REPLY;
    if (fetch) {
        if (!dev->win.vaddr) return CANOPY_ENOTREG;
        if (reply_offset > dev->win.size || size > dev->win.size - reply_offset) return CANOPY_ERANGE;
    }
    if ((rc = get_slot_wait(dev, node))) return rc;
    uint64_t flits[5] = {0, 0, 0, 0, 0};
    canopy_hdr_set_ptype(flits, CANOPY_PKT_GET);
    canopy_hdr_set_dst(flits, packed_coords(dev, node));
    canopy_hdr_set_src(flits, packed_coords(dev, dev->node));
    canopy_hdr_set_len(flits, 24);
    canopy_hdr_set_offset(flits, offset);
    uint64_t w = canopy_getreq_set_reply_offset(0, fetch ? reply_offset : 0);
    w = canopy_getreq_set_get_len(w, size);
    w = canopy_getreq_set_amo_op(w, op);
    w = canopy_getreq_set_amo_fetch(w, (uint64_t)fetch);
    flits[2] = w;
    flits[3] = size == 4 ? (uint32_t)operand : operand;
    flits[4] = size == 4 ? (uint32_t)compare : compare;
    if ((rc = canopy_dev_inject(dev, flits, 5, CANOPY_VC_P2P_LO))) return rc;
    ++dev->gets_issued;
    ++dev->get_issued_to[node];
    return canopy_dev_doorbell(dev);
}

int canopy_amo_wait(canopy_dev *dev, int node, uint64_t timeout_ns)
{
    int rc = usable(dev);
    if (rc) return rc;
    if (node < 0 || node >= dev->nodes) return CANOPY_ERANGE;
    if (!dev->caps.get_slots) return CANOPY_OK; /* nothing can be outstanding */
    volatile uint64_t *w = get_area_word(dev, node);
    const uint32_t issued = dev->get_issued_to[node];
    if ((uint32_t)*w == issued) return CANOPY_OK;
    if ((rc = canopy_dev_doorbell(dev))) return rc;
    return dev->hal.ops->wait(&dev->hal, w, 0xffffffffull, CANOPY_CMP_EQ, issued, timeout_ns);
}

int canopy_amo_fetch(canopy_dev *dev, int node, uint64_t offset, unsigned op, unsigned size, uint64_t operand,
                     uint64_t compare, uint64_t reply_offset, uint64_t *old, uint64_t timeout_ns)
{
    if (!old || reply_offset == CANOPY_AMO_NO_REPLY) return usable(dev) ? usable(dev) : CANOPY_EINVAL;
    int rc = canopy_amo(dev, node, offset, op, size, operand, compare, reply_offset);
    if (rc || (rc = canopy_amo_wait(dev, node, timeout_ns))) return rc;
    /* An atomic answered FAILED (its target's host refused the read: ERR_DMA_READ there)
     * writes no value: the gets-failed count in the writeback block says so. That word is
     * written with the gets-done count, so once it counts every get and atomic issued it
     * holds this one's outcome (a failure of another get still outstanding is reported
     * here too, and consumed as canopy_quiet would). */
    if ((rc = canopy_dev_wait(dev, wb_word(dev, WB_GETS), WB_ACKED_MASK, CANOPY_CMP_GE,
                              dev->gets_issued & WB_ACKED_MASK, timeout_ns)))
        return rc;
    const uint64_t gfailed = *wb_word(dev, WB_GETS) >> WB_FAILED_SHIFT;
    if (gfailed != dev->gets_failed_seen) {
        dev->gets_failed_seen = gfailed;
        return CANOPY_EREFUSED;
    }
    const uint8_t *p = (const uint8_t *)dev->win.vaddr + reply_offset;
    if (size == 4) {
        uint32_t v;
        memcpy(&v, p, 4);
        *old = v;
    } else {
        memcpy(old, p, 8);
    }
    return CANOPY_OK;
}

int canopy_quiet(canopy_dev *dev, uint64_t timeout_ns)
{
    int rc = usable(dev);
    if (rc) return rc;
    if ((rc = canopy_dev_doorbell(dev))) return rc;
    /* The completed counts only grow toward what was issued, so GE is exact (40 bits: a
     * wrap takes years at line rate). Puts, then gets, share the one timeout. */
    const uint64_t t0 = canopy_time_ns(dev);
    rc = canopy_dev_wait(dev, wb_word(dev, WB_PUTS), WB_ACKED_MASK, CANOPY_CMP_GE,
                            dev->puts_issued & WB_ACKED_MASK, timeout_ns);
    if (rc) return rc;
    const uint64_t spent = canopy_time_ns(dev) - t0;
    rc = canopy_dev_wait(dev, wb_word(dev, WB_GETS), WB_ACKED_MASK, CANOPY_CMP_GE,
                            dev->gets_issued & WB_ACKED_MASK, spent < timeout_ns ? timeout_ns - spent : 0);
    if (rc) return rc;
    uint64_t failed = *wb_word(dev, WB_PUTS) >> WB_FAILED_SHIFT;
    uint64_t gfailed = *wb_word(dev, WB_GETS) >> WB_FAILED_SHIFT;
    int refused = failed != dev->failed_seen || gfailed != dev->gets_failed_seen;
    dev->failed_seen = failed;
    dev->gets_failed_seen = gfailed;
    return refused ? CANOPY_EREFUSED : CANOPY_OK;
}

int canopy_fence(canopy_dev *dev)
{
    return canopy_quiet(dev, DEFAULT_TIMEOUT_NS);
}

/* ------------------------------------------------------------------ events */
int canopy_poll(canopy_dev *dev, struct canopy_event *ev)
{
    int rc = usable(dev);
    if (rc) return rc;
    if (!ev) return CANOPY_EINVAL;
    volatile uint64_t *e = (volatile uint64_t *)dev->ej.vaddr + (dev->ej_head % EJ_ENTRIES) * (EJ_ENTRY_BYTES / 8);
    if (e[EJ_SEQ] != dev->ej_head + 1) return CANOPY_EAGAIN;
    uint64_t hdr[2] = {e[EJ_HDR0], e[EJ_HDR1]};
    ev->kind = (int)(e[EJ_INFO] & 0xff);
    ev->src_node = node_of_packed(dev, canopy_hdr_get_src(hdr));
    ev->offset = canopy_hdr_get_offset(hdr);
    ev->len = (uint32_t)canopy_hdr_get_len(hdr);
    ++dev->ej_head;
    /* Give entries back in batches of a quarter ring: fewer MMIO writes. */
    if (dev->ej_head % (EJ_ENTRIES / 4) == 0) return csr_write(dev, CANOPY_REG_EJ_HEAD, dev->ej_head);
    return CANOPY_OK;
}

int canopy_wait_event(canopy_dev *dev, struct canopy_event *ev, uint64_t timeout_ns)
{
    int rc = canopy_poll(dev, ev);
    if (rc != CANOPY_EAGAIN) return rc;
    volatile uint64_t *e = (volatile uint64_t *)dev->ej.vaddr + (dev->ej_head % EJ_ENTRIES) * (EJ_ENTRY_BYTES / 8);
    rc = canopy_dev_wait(dev, &e[EJ_SEQ], ~0ull, CANOPY_CMP_EQ, dev->ej_head + 1, timeout_ns);
    if (rc) return rc;
    return canopy_poll(dev, ev);
}

int canopy_wait_any(canopy_dev *dev, uint64_t timeout_ns)
{
    int rc = usable(dev);
    if (rc) return rc;
    /* What the device may write next can depend on packets still in the ring. */
    if ((rc = canopy_dev_doorbell(dev))) return rc;
    return dev->hal.ops->wait_any(&dev->hal, timeout_ns);
}

int canopy_wait_u64(canopy_dev *dev, const volatile uint64_t *addr, int cmp, uint64_t value, uint64_t timeout_ns)
{
    int rc = usable(dev);
    if (rc) return rc;
    if (!addr || cmp < CANOPY_CMP_EQ || cmp > CANOPY_CMP_LE || ((uintptr_t)addr & 7)) return CANOPY_EINVAL;
    const uint8_t *a = (const uint8_t *)(uintptr_t)addr, *w = dev->win.vaddr;
    if (!w || a < w || a + 8 > w + dev->win.size) return CANOPY_ENOTREG;
    return canopy_dev_wait(dev, addr, ~0ull, cmp, value, timeout_ns);
}


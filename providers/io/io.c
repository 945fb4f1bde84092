/*
 * io.c — the io provider: io:::start when a block request is issued to a
 * device driver (block:block_rq_issue), io:::done when the device
 * completes it (block:block_rq_complete, usually in interrupt context, so
 * the firing's pid/execname are whoever was interrupted, as in DTrace).
 *
 * args (until the D engine takes provider-declared types, when args[0..2]
 * become bufinfo_t *, devinfo_t *, fileinfo_t *):
 *   arg0 = bytes (b_bcount; for done the bytes completed),
 *   arg1 = the device number (Linux dev_t: major << 20 | minor),
 *   arg2 = the first sector (b_blkno),
 *   arg3 = the request flags as the kernel spells them ("R", "WS", "FWS"..),
 *   arg4 = the error (done; 0 for start),
 *   arg5 = the device name (dev_statname: "vda", "nvme0n1").
 * Linux has no file name at the block layer: fileinfo_t would be
 * "<unknown>" as in DTrace for I/O without a vnode.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "providers/prov_impl.h"

enum { IO_START, IO_DONE, IO_N };

struct io_devname {
	uint32_t dev;
	char name[32];
};

struct io_state {
	struct prov_tp tp[IO_N];
	uint32_t probe[IO_N];
	int planned;
	struct io_devname names[64];	/* dev_t -> name cache */
};

static const char *const io_names[IO_N] = { "start", "done" };
static const char *const io_events[IO_N] = { "block_rq_issue", "block_rq_complete" };
static const char *const io_args[] = { "uint64_t", "dev_t", "uint64_t", "string", "int", "string" };

static int
io_emit(struct prov_registry *r, const struct d_probe_desc *pd, d_probe_cb cb, void *arg)
{
	int n = 0;
	for (int k = 0; k < IO_N; k++) {
		struct prov_probe *p = prov_add(r, &prov_io_ops, "", "", io_names[k]);
		if (!p)
			return prov_errf(r, "out of memory");
		p->pp_param[0] = (uint64_t)k;
		prov_set_args(p, 6, io_args);
		if (!prov_desc_match(pd, &p->pp_info))
			continue;
		if (cb && cb(arg, &p->pp_info) < 0)
			return -1;
		n++;
	}
	return n;
}

static struct io_state *
io_state_get(struct prov_registry *r)
{
	struct io_state *st = prov_state(r, &prov_io_ops);
	if (!st && (st = calloc(1, sizeof(*st))))
		prov_set_state(r, &prov_io_ops, st);
	if (!st)
		prov_errf(r, "out of memory");
	return st;
}

static int
io_match(struct prov_registry *r, const struct d_probe_desc *pd, d_probe_cb cb, void *arg)
{
	return io_state_get(r) ? io_emit(r, pd, cb, arg) : -1;
}

static int
io_list(struct prov_registry *r, const struct d_probe_desc *pd, d_probe_cb cb, void *arg)
{
	if (prov_cfg(r)->replay && !prov_state(r, &prov_io_ops))
		return 0;
	return io_emit(r, pd, cb, arg);
}

static void
io_plan(struct prov_registry *r, struct io_state *st)
{
	for (uint32_t id = 1; id < prov_nprobes(r); id++) {
		struct prov_probe *p = prov_by_id(r, id);
		if (p->pp_ops == &prov_io_ops && prov_is_enabled(r, id))
			st->probe[p->pp_param[0]] = id;
	}
	st->planned = 1;
}

static int
io_enable(struct prov_registry *r, struct smp_session *s)
{
	struct io_state *st = prov_state(r, &prov_io_ops);
	if (!st)
		return 0;
	io_plan(r, st);
	for (int k = 0; k < IO_N; k++) {
		if (!st->probe[k])
			continue;
		if (prov_tp_load(r, "block", io_events[k], &st->tp[k]) < 0 ||
		    prov_tp_add(r, s, &prov_io_ops, &st->tp[k], (uint64_t)k, -1, 0) < 0)
			return -1;
	}
	return 0;
}

static int
io_claim(struct prov_registry *r, struct smp_session *s, int evidx)
{
	const struct smp_event_spec *ev = smp_event(s, evidx);
	if (ev->attr.type != PERF_TYPE_TRACEPOINT || !ev->name || strncmp(ev->name, "block:", 6))
		return 0;
	for (int k = 0; k < IO_N; k++) {
		if (strcmp(ev->name + 6, io_events[k]))
			continue;
		struct io_state *st = io_state_get(r);
		if (!st || prov_tp_load(r, "block", io_events[k], &st->tp[k]) < 0 ||
		    io_emit(r, &(struct d_probe_desc){ 0 }, NULL, NULL) < 0)
			return -1;
		return prov_claim(r, evidx, &prov_io_ops, (uint64_t)k);
	}
	return 0;
}

/* The kernel's dev_t (major << 20 | minor) to the disk's name, from sysfs. */
static const char *
io_devname(struct io_state *st, uint32_t dev)
{
	struct io_devname *e = &st->names[dev % 64];
	if (e->dev == dev && e->name[0])
		return e->name;
	char path[96], line[128];
	e->dev = dev;
	snprintf(e->name, sizeof(e->name), "%u,%u", dev >> 20, dev & 0xfffff);
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/uevent", dev >> 20, dev & 0xfffff);
	FILE *f = fopen(path, "r");
	if (!f)
		return e->name;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "DEVNAME=", 8)) {
			line[strcspn(line, "\n")] = '\0';
			snprintf(e->name, sizeof(e->name), "%.31s", line + 8);
		}
	fclose(f);
	return e->name;
}

static int
io_decode(struct prov_registry *r, const struct smp_record *rec, uint64_t cookie,
    prov_fire_fn fire, void *arg)
{
	struct io_state *st = prov_state(r, &prov_io_ops);
	if (!st || rec->type != PERF_RECORD_SAMPLE || !rec->raw || cookie >= IO_N)
		return 0;
	if (!st->planned)
		io_plan(r, st);
	if (!st->probe[cookie])
		return 0;
	const struct prov_tp *tp = &st->tp[cookie];
	uint64_t kbuf[128], ubuf[128];
	char rwbs[16];
	struct d_firing f;
	prov_firing_from_sample(r, rec, &f, kbuf, ubuf, 128);
	f.df_probe = st->probe[cookie];
	uint32_t dev = (uint32_t)prov_tp_uint(prov_tp_field(tp, "dev"), rec->raw, rec->raw_size);
	const struct prov_tp_field *bytes = prov_tp_field(tp, "bytes");
	f.df_args[0] = bytes ? prov_tp_uint(bytes, rec->raw, rec->raw_size) :
	    512 * prov_tp_uint(prov_tp_field(tp, "nr_sector"), rec->raw, rec->raw_size);
	f.df_args[1] = dev;
	f.df_args[2] = prov_tp_uint(prov_tp_field(tp, "sector"), rec->raw, rec->raw_size);
	f.df_args[3] = (uint64_t)(uintptr_t)prov_tp_str(prov_tp_field(tp, "rwbs"), rec->raw,
	    rec->raw_size, rwbs, sizeof(rwbs));
	f.df_args[4] = prov_tp_uint(prov_tp_field(tp, "error"), rec->raw, rec->raw_size);
	f.df_args[5] = (uint64_t)(uintptr_t)io_devname(st, dev);
	f.df_nargs = 6;
	return fire(arg, &f);
}

const struct prov_ops prov_io_ops = {
	.po_name = "io",
	.po_list = io_list,
	.po_match = io_match,
	.po_enable = io_enable,
	.po_claim = io_claim,
	.po_decode = io_decode,
};

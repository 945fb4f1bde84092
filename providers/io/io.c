/*
 * io.c — the io provider: io:::start when a block request is issued to a
 * device driver (block:block_rq_issue), io:::done when the device
 * completes it (block:block_rq_complete, usually in interrupt context, so
 * the firing's pid/execname are whoever was interrupted, as in DTrace).
 *
 * args, as DTrace's io provider: args[0] is a bufinfo_t *, args[1] a
 * devinfo_t *, args[2] a fileinfo_t * (declared by this provider, filled
 * per firing):
 *   b_bcount   bytes (for done: the bytes completed)
 *   b_blkno    first sector, b_lblkno the same
 *   b_flags    B_READ or B_WRITE from the request's flags, B_ASYNC unless it
 *              is synchronous, B_DONE (and B_ERROR) for done
 *   b_error    the completion status (done), b_edev the dev_t
 *   dev_major/dev_minor, dev_statname/dev_name the disk ("vda"),
 *   dev_pathname /dev/<name>
 * The block layer knows no file: fileinfo_t says "<none>" everywhere and
 * fi_offset is -1, as DTrace does for I/O without a vnode.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "providers/prov_impl.h"

enum { IO_START, IO_DONE, IO_N };

/* The D side of args[]; the C structs below must have the same layout
 * (natural alignment on both sides). */
static const char io_decls[] =
    "typedef struct bufinfo { int b_flags; size_t b_bcount; caddr_t b_addr;\n"
    "    uint64_t b_blkno; uint64_t b_lblkno; size_t b_resid; size_t b_bufsize;\n"
    "    caddr_t b_iodone; int b_error; dev_t b_edev; } bufinfo_t;\n"
    "typedef struct devinfo { int dev_major; int dev_minor; int dev_instance;\n"
    "    char dev_name[32]; char dev_statname[32]; char dev_pathname[128]; } devinfo_t;\n"
    "typedef struct fileinfo { char fi_name[32]; char fi_dirname[32];\n"
    "    char fi_pathname[64]; int64_t fi_offset; char fi_fs[16]; char fi_mount[32];\n"
    "    int fi_oflags; } fileinfo_t;\n"
    "inline int B_BUSY = 0x0001; inline int B_DONE = 0x0002; inline int B_ERROR = 0x0004;\n"
    "inline int B_PAGEIO = 0x0010; inline int B_PHYS = 0x0020; inline int B_READ = 0x0040;\n"
    "inline int B_WRITE = 0x0100; inline int B_ASYNC = 0x0400;\n";
enum { IO_B_DONE = 0x2, IO_B_ERROR = 0x4, IO_B_READ = 0x40, IO_B_WRITE = 0x100, IO_B_ASYNC = 0x400 };

struct io_bufinfo {
	int32_t b_flags;
	uint64_t b_bcount, b_addr, b_blkno, b_lblkno, b_resid, b_bufsize, b_iodone;
	int32_t b_error;
	uint64_t b_edev;
};
struct io_devinfo {
	int32_t dev_major, dev_minor, dev_instance;
	char dev_name[32], dev_statname[32], dev_pathname[128];
};
struct io_fileinfo {
	char fi_name[32], fi_dirname[32], fi_pathname[64];
	int64_t fi_offset;
	char fi_fs[16], fi_mount[32];
	int32_t fi_oflags;
};
struct io_args {
	struct io_bufinfo b;
	struct io_devinfo d;
	struct io_fileinfo fi;
};

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
static const char *const io_argtypes[] = { "bufinfo_t *", "devinfo_t *", "fileinfo_t *" };

static int
io_emit(struct prov_registry *r, const struct d_probe_desc *pd, d_probe_cb cb, void *arg)
{
	int n = 0;
	for (int k = 0; k < IO_N; k++) {
		struct prov_probe *p = prov_add(r, &prov_io_ops, "", "", io_names[k]);
		if (!p)
			return prov_errf(r, "out of memory");
		p->pp_param[0] = (uint64_t)k;
		prov_set_args(p, 3, io_argtypes);
		p->pp_info.dp_decls = io_decls;
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

static void
io_fill(struct io_state *st, const struct prov_tp *tp, const struct smp_record *rec,
    int done, struct io_args *a)
{
	char rwbs[16];
	memset(a, 0, sizeof(*a));
	uint32_t dev = (uint32_t)prov_tp_uint(prov_tp_field(tp, "dev"), rec->raw, rec->raw_size);
	const struct prov_tp_field *bytes = prov_tp_field(tp, "bytes");
	a->b.b_bcount = bytes ? prov_tp_uint(bytes, rec->raw, rec->raw_size) :
	    512 * prov_tp_uint(prov_tp_field(tp, "nr_sector"), rec->raw, rec->raw_size);
	a->b.b_bufsize = a->b.b_bcount;
	a->b.b_blkno = a->b.b_lblkno = prov_tp_uint(prov_tp_field(tp, "sector"), rec->raw, rec->raw_size);
	a->b.b_error = (int32_t)prov_tp_uint(prov_tp_field(tp, "error"), rec->raw, rec->raw_size);
	a->b.b_edev = dev;
	prov_tp_str(prov_tp_field(tp, "rwbs"), rec->raw, rec->raw_size, rwbs, sizeof(rwbs));
	a->b.b_flags = (strchr(rwbs, 'R') ? IO_B_READ : 0) | (strchr(rwbs, 'W') ? IO_B_WRITE : 0) |
	    (strchr(rwbs, 'S') ? 0 : IO_B_ASYNC) | (done ? IO_B_DONE : 0) |
	    (done && a->b.b_error ? IO_B_ERROR : 0);
	a->d.dev_major = (int32_t)(dev >> 20);
	a->d.dev_minor = a->d.dev_instance = (int32_t)(dev & 0xfffff);
	const char *name = io_devname(st, dev);
	snprintf(a->d.dev_name, sizeof(a->d.dev_name), "%s", name);
	snprintf(a->d.dev_statname, sizeof(a->d.dev_statname), "%s", name);
	snprintf(a->d.dev_pathname, sizeof(a->d.dev_pathname), "/dev/%s", name);
	strcpy(a->fi.fi_name, "<none>");
	strcpy(a->fi.fi_dirname, "<none>");
	strcpy(a->fi.fi_pathname, "<none>");
	strcpy(a->fi.fi_fs, "<none>");
	strcpy(a->fi.fi_mount, "<none>");
	a->fi.fi_offset = -1;
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
	uint64_t kbuf[128], ubuf[128];
	struct io_args a;
	struct d_firing f;
	prov_firing_from_sample(r, rec, &f, kbuf, ubuf, 128);
	f.df_probe = st->probe[cookie];
	io_fill(st, &st->tp[cookie], rec, cookie == IO_DONE, &a);
	f.df_mem = &a;
	f.df_memlen = sizeof(a);
	f.df_args[0] = (uint64_t)(uintptr_t)&a.b;
	f.df_args[1] = (uint64_t)(uintptr_t)&a.d;
	f.df_args[2] = (uint64_t)(uintptr_t)&a.fi;
	f.df_nargs = 3;
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

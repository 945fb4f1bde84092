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
#include <string.h>

#include "providers/tpbacked.h"

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
	struct prov_tpb_state tb;	/* first: the state tpbacked.c keeps */
	struct io_devname names[64];	/* dev_t -> name cache */
};

static const char *const io_names[IO_N] = { "start", "done" };
static const struct prov_tpb_event io_events[IO_N] = {
	{ "block", "block_rq_issue", 0 }, { "block", "block_rq_complete", 0 },
};
static const char *const io_argtypes[] = { "bufinfo_t *", "devinfo_t *", "fileinfo_t *" };

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
io_decode(struct prov_registry *r, struct prov_tpb_state *tbs, const struct smp_record *rec,
    uint64_t cookie, prov_fire_fn fire, void *arg)
{
	struct io_state *st = (struct io_state *)tbs;
	if (!tbs->tbs_probe[cookie])
		return 0;
	uint64_t kbuf[128], ubuf[128];
	struct io_args a;
	struct d_firing f;
	prov_firing_from_sample(r, rec, &f, kbuf, ubuf, 128);
	io_fill(st, &tbs->tbs_tp[cookie], rec, cookie == IO_DONE, &a);
	f.df_mem = &a;
	f.df_memlen = sizeof(a);
	f.df_args[0] = (uint64_t)(uintptr_t)&a.b;
	f.df_args[1] = (uint64_t)(uintptr_t)&a.d;
	f.df_args[2] = (uint64_t)(uintptr_t)&a.fi;
	f.df_nargs = 3;
	return prov_tpb_fire(tbs->tbs_probe[cookie], &f, fire, arg);
}

static const struct prov_tpb io_tpb = {
	.tb_ops = &prov_io_ops, .tb_probes = io_names, .tb_nprobes = IO_N,
	.tb_argtypes = io_argtypes, .tb_nargs = 3, .tb_decls = io_decls,
	.tb_events = io_events, .tb_nevents = IO_N, .tb_state_size = sizeof(struct io_state),
	.tb_decode = io_decode,
};

PROV_TPB_OPS(prov_io_ops, "io", io_tpb);

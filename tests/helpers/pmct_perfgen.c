/*
 * pmct_perfgen — writes the perf.data files the reader tests need and no
 * recording on this kind of machine can give: attr size 136 (perf >= 6.3),
 * leader-sampled group reads with read_format LOST, hybrid PMU types in
 * config (cpu_core 4, cpu_atom 10), zstd COMPRESSED records, pipe mode.
 *
 *   pmct_perfgen DIR      writes DIR/NAME.data and DIR/NAME.attr128.data
 *
 * Every file comes twice: with attr size 136 (config3 = 0) and with 128,
 * which perf 6.1 reads, so the figures the tests expect can be checked
 * with `perf script -D` / `perf report --header-only` on the .attr128 copy.
 * Contents are fixed (no clock, no randomness): the same bytes each run.
 *
 *   hybrid-group-lost   file mode; {cpu_core/cycles/,cpu_core/instructions/}:S
 *                       plus cpu_atom/cycles/, read_format ID|GROUP|LOST|
 *                       TOTAL_TIME_*, callchains, a LOST record, 2 CPUs
 *   zstd-regs-stack     file mode; cycles with REGS_USER and STACK_USER,
 *                       the records in zstd COMPRESSED records, the
 *                       FINISHED_ROUNDs between them (as perf record -z)
 *   pipe-zstd           pipe mode; hybrid-group-lost's events and records,
 *                       compressed with the FINISHED_ROUNDs inside the
 *                       stream, features as FEATURE records
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

enum {
	REC_HEADER_ATTR = 64, REC_FINISHED_ROUND = 68, REC_HEADER_FEATURE = 80,
	REC_COMPRESSED = 81, REC_FINISHED_INIT = 82,
	FEAT_HOSTNAME = 3, FEAT_OSRELEASE = 4, FEAT_ARCH = 6, FEAT_NRCPUS = 7,
	FEAT_EVENT_DESC = 12, FEAT_GROUP_DESC = 17, FEAT_COMPRESSED = 27,
	FEAT_HYBRID_TOPOLOGY = 30,
	COMP_MMAP_LEN = 528384,		/* perf's default: (128 + 1) pages */
	PID = 4242, T0_NS = 1000000000,
};
#define CTX_USER 0xfffffffffffffe00ULL	/* PERF_CONTEXT_USER */
#define TEXT 0x401000ULL

struct buf {
	unsigned char *p;
	size_t len, cap;
};

static void
put(struct buf *b, const void *p, size_t n)
{
	if (b->len + n > b->cap) {
		b->cap = (b->len + n) * 2 + 4096;
		b->p = realloc(b->p, b->cap);
		if (!b->p) {
			perror("pmct_perfgen");
			exit(1);
		}
	}
	memcpy(b->p + b->len, p, n);
	b->len += n;
}

static void put64(struct buf *b, uint64_t v) { put(b, &v, 8); }
static void put32(struct buf *b, uint32_t v) { put(b, &v, 4); }

static void
set64(struct buf *b, size_t at, uint64_t v)
{
	memcpy(b->p + at, &v, 8);
}

static void
pad8(struct buf *b)
{
	static const unsigned char z[8];
	put(b, z, (8 - b->len % 8) % 8);
}

/* perf's header string: u32 length (NUL included, padded to 64), bytes. */
static void
put_str(struct buf *b, const char *s)
{
	uint32_t n = (uint32_t)((strlen(s) + 1 + 63) / 64 * 64);
	char tmp[256] = { 0 };
	snprintf(tmp, sizeof(tmp), "%s", s);
	put32(b, n);
	put(b, tmp, n);
}

/* ---- events ---- */

struct ev {
	const char *name;
	struct perf_event_attr attr;
	uint64_t ids[2];		/* one per CPU */
};

struct gen {
	const char *name;
	int nev, pipe, zstd, asz;
	struct ev ev[3];
	struct buf rec;			/* the data records, uncompressed */
	int group;			/* events 0 and 1 form a group */
};

#define ST_COMMON (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | \
		   PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD)

static void
ev_init(struct ev *e, const char *name, uint64_t config, uint64_t period, uint64_t st,
    uint64_t id0)
{
	memset(e, 0, sizeof(*e));
	e->name = name;
	e->attr.type = PERF_TYPE_HARDWARE;
	e->attr.config = config;
	e->attr.sample_period = period;
	e->attr.sample_type = st;
	e->attr.sample_id_all = 1;
	e->attr.disabled = 1;
	e->attr.enable_on_exec = 1;
	e->ids[0] = id0;
	e->ids[1] = id0 + 3;
}

static void
hybrid_events(struct gen *g)
{
	uint64_t st = ST_COMMON | PERF_SAMPLE_READ | PERF_SAMPLE_CALLCHAIN;
	uint64_t rf = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING |
		      PERF_FORMAT_ID | PERF_FORMAT_GROUP | PERF_FORMAT_LOST;
	ev_init(&g->ev[0], "cpu_core/cycles/", 4ULL << 32 | PERF_COUNT_HW_CPU_CYCLES, 100003, st, 101);
	ev_init(&g->ev[1], "cpu_core/instructions/", 4ULL << 32 | PERF_COUNT_HW_INSTRUCTIONS, 0, st, 102);
	ev_init(&g->ev[2], "cpu_atom/cycles/", 10ULL << 32 | PERF_COUNT_HW_CPU_CYCLES, 100003, st, 103);
	for (int i = 0; i < 3; i++)
		g->ev[i].attr.read_format = rf;
	g->ev[0].attr.mmap = g->ev[0].attr.comm = g->ev[0].attr.task = 1;
	g->ev[0].attr.mmap2 = 1;
	g->ev[1].attr.disabled = g->ev[1].attr.enable_on_exec = 0;	/* a member */
	g->nev = 3;
	g->group = 1;
}

static void
stack_events(struct gen *g)
{
	uint64_t st = ST_COMMON | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER |
		      PERF_SAMPLE_STACK_USER;
	ev_init(&g->ev[0], "cycles", PERF_COUNT_HW_CPU_CYCLES, 200003, st, 201);
	g->ev[0].attr.sample_regs_user = 0xff0fff;	/* 20 registers, as perf --call-graph dwarf */
	g->ev[0].attr.sample_stack_user = 1024;
	g->ev[0].attr.mmap = g->ev[0].attr.comm = g->ev[0].attr.task = 1;
	g->ev[0].attr.mmap2 = 1;
	g->nev = 1;
}

/* The attr as a file holds it: asz bytes, config3 (offset 128) zero. */
static void
put_attr(struct buf *b, const struct gen *g, const struct ev *e)
{
	unsigned char a[136] = { 0 };
	struct perf_event_attr at = e->attr;
	at.size = (uint32_t)g->asz;
	memcpy(a, &at, sizeof(at) < sizeof(a) ? sizeof(at) : sizeof(a));
	put(b, a, (size_t)g->asz);
}

/* ---- records ---- */

static size_t
rec_begin(struct buf *b, uint32_t type)
{
	size_t at = b->len;
	struct perf_event_header h = { .type = type };
	put(b, &h, sizeof(h));
	return at;
}

static void
rec_end(struct buf *b, size_t at)
{
	pad8(b);
	uint16_t size = (uint16_t)(b->len - at);
	memcpy(b->p + at + 6, &size, 2);
}

/* sample_id_all trailer: TID, TIME, CPU, IDENTIFIER (no ID/STREAM_ID bits). */
static void
put_trailer(struct buf *b, uint64_t time, uint32_t cpu, uint64_t id)
{
	put32(b, PID);
	put32(b, PID);
	put64(b, time);
	put32(b, cpu);
	put32(b, 0);
	put64(b, id);
}

static void
rec_comm(struct gen *g, uint64_t t, uint64_t id)
{
	size_t at = rec_begin(&g->rec, PERF_RECORD_COMM);
	put32(&g->rec, PID);
	put32(&g->rec, PID);
	put(&g->rec, "pmct-gen\0\0\0\0\0\0\0", 16);
	put_trailer(&g->rec, t, 0, id);
	rec_end(&g->rec, at);
}

static void
rec_mmap2(struct gen *g, uint64_t t, uint64_t id)
{
	size_t at = rec_begin(&g->rec, PERF_RECORD_MMAP2);
	put32(&g->rec, PID);
	put32(&g->rec, PID);
	put64(&g->rec, TEXT);			/* addr */
	put64(&g->rec, 0x2000);			/* len */
	put64(&g->rec, 0x1000);			/* pgoff */
	put32(&g->rec, 8);			/* maj */
	put32(&g->rec, 1);			/* min */
	put64(&g->rec, 1234);			/* ino */
	put64(&g->rec, 0);			/* ino_generation */
	put32(&g->rec, 5);			/* PROT_READ | PROT_EXEC */
	put32(&g->rec, 2);			/* MAP_PRIVATE */
	put(&g->rec, "/usr/bin/pmct-gen\0\0\0\0\0\0\0", 24);
	put_trailer(&g->rec, t, 0, id);
	rec_end(&g->rec, at);
}

static void
rec_exit(struct gen *g, uint64_t t, uint64_t id)
{
	size_t at = rec_begin(&g->rec, PERF_RECORD_EXIT);
	put32(&g->rec, PID);
	put32(&g->rec, 1);
	put32(&g->rec, PID);
	put32(&g->rec, 1);
	put64(&g->rec, t);
	put_trailer(&g->rec, t, 0, id);
	rec_end(&g->rec, at);
}

static void
rec_lost(struct gen *g, uint64_t t, uint64_t id, uint64_t lost)
{
	size_t at = rec_begin(&g->rec, PERF_RECORD_LOST);
	put64(&g->rec, id);
	put64(&g->rec, lost);
	put_trailer(&g->rec, t, 1, id);
	rec_end(&g->rec, at);
}

static void
rec_round(struct gen *g)
{
	rec_end(&g->rec, rec_begin(&g->rec, REC_FINISHED_ROUND));
}

/* The common head of a sample: IDENTIFIER, IP, TID, TIME, CPU, PERIOD. */
static size_t
sample_head(struct gen *g, uint64_t id, uint64_t ip, uint64_t t, uint32_t cpu, uint64_t period)
{
	size_t at = rec_begin(&g->rec, PERF_RECORD_SAMPLE);
	g->rec.p[at + 4] = PERF_RECORD_MISC_USER;
	put64(&g->rec, id);
	put64(&g->rec, ip);
	put32(&g->rec, PID);
	put32(&g->rec, PID);
	put64(&g->rec, t);
	put32(&g->rec, cpu);
	put32(&g->rec, 0);
	put64(&g->rec, period);
	return at;
}

static void
put_chain(struct buf *b, uint64_t ip)
{
	put64(b, 3);
	put64(b, CTX_USER);
	put64(b, ip);
	put64(b, TEXT + 0x100);		/* the caller */
}

/* k-th sample of the cpu_core group on cpu: cumulative counts, and the
 * member's LOST growing by one every 4 samples. */
static void
group_sample(struct gen *g, int k, uint32_t cpu, uint64_t t)
{
	uint64_t ip = TEXT + 0x40 + 8 * (uint64_t)(k % 5);
	size_t at = sample_head(g, g->ev[0].ids[cpu], ip, t, cpu, 100003);
	put64(&g->rec, 2);				/* nr */
	put64(&g->rec, 1000000ULL * (uint64_t)(k + 1));	/* time enabled */
	put64(&g->rec, 900000ULL * (uint64_t)(k + 1));	/* time running */
	put64(&g->rec, 100003ULL * (uint64_t)(k + 1));	/* cycles */
	put64(&g->rec, g->ev[0].ids[cpu]);
	put64(&g->rec, 0);
	put64(&g->rec, 150001ULL * (uint64_t)(k + 1) + (uint64_t)k * 7);	/* instructions */
	put64(&g->rec, g->ev[1].ids[cpu]);
	put64(&g->rec, (uint64_t)(k / 4));
	put_chain(&g->rec, ip);
	rec_end(&g->rec, at);
}

static void
atom_sample(struct gen *g, int k, uint32_t cpu, uint64_t t)
{
	uint64_t ip = TEXT + 0x80;
	size_t at = sample_head(g, g->ev[2].ids[cpu], ip, t, cpu, 100003);
	put64(&g->rec, 1);
	put64(&g->rec, 2000000ULL * (uint64_t)(k + 1));
	put64(&g->rec, 2000000ULL * (uint64_t)(k + 1));
	put64(&g->rec, 100003ULL * (uint64_t)(k + 1));
	put64(&g->rec, g->ev[2].ids[cpu]);
	put64(&g->rec, 0);
	put_chain(&g->rec, ip);
	rec_end(&g->rec, at);
}

/* 24 group samples (12 per CPU), 8 atom samples, a LOST of 3. */
static void
hybrid_records(struct gen *g)
{
	uint64_t t = T0_NS, id = g->ev[0].ids[0];
	int kc[2] = { 0, 0 }, ka[2] = { 0, 0 };
	rec_comm(g, t, id);
	rec_mmap2(g, t + 1, id);
	for (int i = 0; i < 24; i++) {
		uint32_t cpu = (uint32_t)(i % 2);
		t += 1000;
		group_sample(g, kc[cpu]++, cpu, t);
		if (i % 3 == 2)
			atom_sample(g, ka[cpu]++, cpu, t + 500);
		if (i == 10)
			rec_lost(g, t + 600, g->ev[0].ids[1], 3);
		if (i % 8 == 7)
			rec_round(g);
	}
	rec_exit(g, t + 2000, id);
	rec_round(g);
}

static void
stack_sample(struct gen *g, int k, uint64_t t)
{
	uint64_t ip = TEXT + 0x20 + 4 * (uint64_t)(k % 7);
	size_t at = sample_head(g, g->ev[0].ids[0], ip, t, 0, 200003);
	put_chain(&g->rec, ip);
	put64(&g->rec, PERF_SAMPLE_REGS_ABI_64);
	for (int r = 0; r < 20; r++)
		put64(&g->rec, 0x7ffd0000ULL + (uint64_t)(k * 32 + r));
	put64(&g->rec, 1024);
	unsigned char stack[1024];
	for (int i = 0; i < 1024; i++)
		stack[i] = (unsigned char)(i * 7 + k);
	put(&g->rec, stack, sizeof(stack));
	put64(&g->rec, 256 + 16 * (uint64_t)k);	/* dyn_size */
	rec_end(&g->rec, at);
}

/* 40 samples, each with 20 user registers and a 1 KiB user stack. */
static void
stack_records(struct gen *g)
{
	uint64_t t = T0_NS, id = g->ev[0].ids[0];
	rec_comm(g, t, id);
	rec_mmap2(g, t + 1, id);
	for (int i = 0; i < 40; i++) {
		stack_sample(g, i, t += 1000);
		if (i % 10 == 9)
			rec_round(g);
	}
	rec_exit(g, t + 2000, id);
	rec_round(g);
}

/* ---- features ---- */

static void
feat_event_desc(struct buf *b, const struct gen *g)
{
	put32(b, (uint32_t)g->nev);
	put32(b, (uint32_t)g->asz);
	for (int i = 0; i < g->nev; i++) {
		put_attr(b, g, &g->ev[i]);
		put32(b, 2);
		put_str(b, g->ev[i].name);
		put64(b, g->ev[i].ids[0]);
		put64(b, g->ev[i].ids[1]);
	}
}

static void
feat_body(struct buf *b, const struct gen *g, int feat)
{
	switch (feat) {
	case FEAT_HOSTNAME: put_str(b, "pmct-gen"); break;
	case FEAT_OSRELEASE: put_str(b, "6.8.0-pmct"); break;
	case FEAT_ARCH: put_str(b, "x86_64"); break;
	case FEAT_NRCPUS: put32(b, 2); put32(b, 2); break;
	case FEAT_EVENT_DESC: feat_event_desc(b, g); break;
	case FEAT_GROUP_DESC:
		put32(b, 1);
		put_str(b, "{anon_group}");
		put32(b, 0);
		put32(b, 2);
		break;
	case FEAT_COMPRESSED:
		put32(b, 1);			/* version */
		put32(b, 1);			/* zstd */
		put32(b, 1);			/* level */
		put32(b, 4);			/* ratio */
		put32(b, COMP_MMAP_LEN);
		break;
	case FEAT_HYBRID_TOPOLOGY:
		put32(b, 2);
		put_str(b, "cpu_core");
		put_str(b, "0");
		put_str(b, "cpu_atom");
		put_str(b, "1");
		break;
	}
}

static int
feats(const struct gen *g, int *out)
{
	int n = 0;
	static const int common[] = { FEAT_HOSTNAME, FEAT_OSRELEASE, FEAT_ARCH, FEAT_NRCPUS,
				      FEAT_EVENT_DESC };
	for (size_t i = 0; i < sizeof(common) / sizeof(common[0]); i++)
		out[n++] = common[i];
	if (g->group)
		out[n++] = FEAT_GROUP_DESC;
	if (g->zstd)
		out[n++] = FEAT_COMPRESSED;
	if (g->group)
		out[n++] = FEAT_HYBRID_TOPOLOGY;
	return n;
}

/* ---- compression: whole records in, COMPRESSED records out ---- */

static uint16_t
rec_type(const struct buf *b, size_t at)
{
	uint32_t t;
	memcpy(&t, b->p + at, 4);
	return (uint16_t)t;
}

/* One zstd frame per batch of about 8 KiB of records, split over
 * COMPRESSED records of at most 1 KiB payload, so that a frame and a record
 * inside it both span COMPRESSED records.  With rounds_out a batch also
 * ends at a FINISHED_ROUND, written uncompressed as perf record -z does;
 * without, the rounds stay inside the stream. */
static void
compress_into(struct buf *out, const struct buf *in, int rounds_out)
{
	size_t o = 0;
	while (o < in->len) {
		size_t n = 0;
		if (rounds_out && rec_type(in, o) == REC_FINISHED_ROUND) {
			put(out, in->p + o, 8);
			o += 8;
			continue;
		}
		while (o + n < in->len && n < 8192 &&
		       !(rounds_out && rec_type(in, o + n) == REC_FINISHED_ROUND)) {
			uint16_t sz;
			memcpy(&sz, in->p + o + n + 6, 2);
			n += sz;
		}
		size_t cap = ZSTD_compressBound(n);
		unsigned char *z = malloc(cap);
		size_t zn = ZSTD_compress(z, cap, in->p + o, n, 3);
		if (!z || ZSTD_isError(zn)) {
			fprintf(stderr, "pmct_perfgen: zstd failed\n");
			exit(1);
		}
		for (size_t c = 0; c < zn; c += 1024) {
			/* perf sizes COMPRESSED (not COMPRESSED2) records unpadded:
			 * the record after one may sit at any byte offset */
			size_t at = rec_begin(out, REC_COMPRESSED);
			put(out, z + c, zn - c < 1024 ? zn - c : 1024);
			uint16_t size = (uint16_t)(out->len - at);
			memcpy(out->p + at + 6, &size, 2);
		}
		free(z);
		o += n;
	}
}

static void
data_records(struct buf *out, const struct gen *g)
{
	if (g->zstd)
		compress_into(out, &g->rec, !g->pipe);
	else
		put(out, g->rec.p, g->rec.len);
}

/* ---- file layouts ---- */

static void
write_file_mode(struct buf *b, const struct gen *g)
{
	put(b, "PERFILE2", 8);
	put64(b, 104);
	put64(b, (uint64_t)g->asz + 16);
	while (b->len < 104)
		put64(b, 0);			/* sections and feature bits, set below */
	size_t ids_at = b->len;
	for (int i = 0; i < g->nev; i++)
		put(b, g->ev[i].ids, sizeof(g->ev[i].ids));
	size_t attrs_at = b->len;
	for (int i = 0; i < g->nev; i++) {
		put_attr(b, g, &g->ev[i]);
		put64(b, ids_at + 16 * (size_t)i);
		put64(b, 16);
	}
	set64(b, 24, attrs_at);
	set64(b, 32, b->len - attrs_at);
	size_t data_at = b->len;
	data_records(b, g);
	set64(b, 40, data_at);
	set64(b, 48, b->len - data_at);
	int f[16], nf = feats(g, f);
	size_t index = b->len;
	uint64_t bits[4] = { 0 };
	for (int i = 0; i < nf; i++) {
		put64(b, 0);
		put64(b, 0);
		bits[f[i] / 64] |= 1ULL << (f[i] % 64);
	}
	memcpy(b->p + 72, bits, sizeof(bits));
	for (int i = 0; i < nf; i++) {
		size_t at = b->len;
		feat_body(b, g, f[i]);
		set64(b, index + 16 * (size_t)i, at);
		set64(b, index + 16 * (size_t)i + 8, b->len - at);
	}
}

static void
write_pipe_mode(struct buf *b, const struct gen *g)
{
	put(b, "PERFILE2", 8);
	put64(b, 16);
	for (int i = 0; i < g->nev; i++) {
		size_t at = rec_begin(b, REC_HEADER_ATTR);
		put_attr(b, g, &g->ev[i]);
		put(b, g->ev[i].ids, sizeof(g->ev[i].ids));
		rec_end(b, at);
	}
	int f[16], nf = feats(g, f);
	for (int i = 0; i < nf; i++) {
		size_t at = rec_begin(b, REC_HEADER_FEATURE);
		put64(b, (uint64_t)f[i]);
		feat_body(b, g, f[i]);
		rec_end(b, at);
	}
	rec_end(b, rec_begin(b, REC_FINISHED_INIT));
	data_records(b, g);
}

static int
write_one(const char *dir, const struct gen *g)
{
	char path[4096];
	struct buf b = { 0 };
	snprintf(path, sizeof(path), "%s/%s%s.data", dir, g->name, g->asz == 128 ? ".attr128" : "");
	if (g->pipe)
		write_pipe_mode(&b, g);
	else
		write_file_mode(&b, g);
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(b.p, 1, b.len, f) != b.len || fclose(f) != 0) {
		fprintf(stderr, "pmct_perfgen: %s: %s\n", path, strerror(errno));
		return 1;
	}
	free(b.p);
	return 0;
}

int
main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: pmct_perfgen DIR\n");
		return 2;
	}
	int bad = 0;
	for (int asz = 136; asz >= 128; asz -= 8) {
		struct gen g;
		memset(&g, 0, sizeof(g));
		g = (struct gen){ .name = "hybrid-group-lost", .asz = asz };
		hybrid_events(&g);
		hybrid_records(&g);
		bad |= write_one(argv[1], &g);
		g.name = "pipe-zstd";
		g.pipe = g.zstd = 1;
		bad |= write_one(argv[1], &g);
		free(g.rec.p);

		g = (struct gen){ .name = "zstd-regs-stack", .asz = asz, .zstd = 1 };
		stack_events(&g);
		stack_records(&g);
		bad |= write_one(argv[1], &g);
		free(g.rec.p);
	}
	return bad;
}

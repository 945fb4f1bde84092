/*
 * test_sampler_file.c — replay of every perf.data fixture, and malformed
 * input.  Expected counts were cross-checked with perf 6.1
 * (`perf script -D -i FILE`, `perf script -F event`, and
 * `perf report --header-only`); for the attr-136 files perf 6.1 refuses,
 * the numbers come from their .attr128 copies.
 *
 * Files are found in $FIXTURES (default tests/fixtures/perfdata, the
 * recorded ones) and, under "gen/", in $GEN_FIXTURES (default
 * build/fixtures): what tests/helpers/pmct_perfgen writes at build time.
 */
#include "sampler/sampler.h"
#include "tests/unit/cu.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char *
fixture(const char *rel)
{
	static char path[1024];
	const char *dir = getenv("FIXTURES");
	if (strncmp(rel, "gen/", 4) == 0) {
		dir = getenv("GEN_FIXTURES");
		rel += 4;
		snprintf(path, sizeof(path), "%s/%s", dir ? dir : "build/fixtures", rel);
	} else {
		snprintf(path, sizeof(path), "%s/%s", dir ? dir : "tests/fixtures/perfdata", rel);
	}
	return path;
}

struct tally {
	long type[128];
	long per_ev[16];
	long unknown, disorder, reads, chains, raws;
	uint64_t last;
};

static int
tally_cb(void *arg, const struct smp_record *r)
{
	struct tally *t = arg;
	t->type[r->type < 128 ? r->type : 127]++;
	if (r->type != PERF_RECORD_SAMPLE)
		return 0;
	if (r->evidx >= 0 && r->evidx < 16)
		t->per_ev[r->evidx]++;
	else
		t->unknown++;
	t->reads += r->read != NULL;
	t->chains += r->callchain != NULL;
	t->raws += r->raw != NULL;
	if (r->time < t->last)
		t->disorder++;
	t->last = r->time;
	return 0;
}

static struct smp_session *
replay(const char *rel, struct tally *t)
{
	int err = 0;
	struct smp_session *s = smp_open_file(fixture(rel), &err);
	CU_ASSERT_PTR_NOT_NULL(s);
	if (!s) {
		fprintf(stderr, "%s: %s\n", rel, smp_errmsg(NULL));
		return NULL;
	}
	memset(t, 0, sizeof(*t));
	int n;
	while ((n = smp_poll(s, 0, tally_cb, t)) > 0)
		;
	CU_ASSERT_EQUAL(n, 0);
	if (n < 0)
		fprintf(stderr, "%s: %s\n", rel, smp_errmsg(s));
	CU_ASSERT_EQUAL(smp_flush(s, tally_cb, t), 0);
	CU_ASSERT(smp_at_eof(s));
	CU_ASSERT_EQUAL(t->disorder, 0);
	CU_ASSERT_EQUAL(t->unknown, 0);
	return s;
}

static uint64_t
drops_total(struct smp_session *s)
{
	uint32_t cpu[256];
	uint64_t nd[256], sum = 0;
	int n = smp_drops(s, cpu, nd, 256);
	for (int i = 0; i < n; i++)
		sum += nd[i];
	return sum;
}

/* One row per fixture: what perf 6.1 counts in it. */
struct expect {
	const char *file;
	int pipe, nev;
	const char *names[6];
	long samples[6];
	long comm, mmap, mmap2, fork, exit;
	long throttle, lost_samples, switches;
	uint64_t drops;		/* LOST counts + LOST_SAMPLES counts + THROTTLEs (the
				 * sampler counts the THROTTLEs apart, not as drops) */
	long reads, chains, raws;
};

static const struct expect fixtures[] = {
	{ "quipper/perf.data.group_desc-4.14", 0, 2, { "cache-references", "branch-misses" },
	  { 7, 6 }, 3, 21, 10, 0, 1, 0, 0, 0, 0, 0, 0, 0 },
	{ "quipper/perf.data.lost_samples-4.4", 0, 3,
	  { "cycles:pp", "instructions:pp", "branch-instructions:pp" },
	  { 97, 80, 14 }, 3, 39, 6, 0, 1, 0, 2, 0, 2, 0, 0, 0 },
	{ "quipper/perf.data.piped.lost_samples-4.4", 1, 3,
	  { "cycles", "instructions", "branches" },
	  { 98, 79, 14 }, 3, 39, 6, 0, 1, 0, 2, 0, 2, 0, 0, 0 },
	{ "quipper/perf.data.hw_and_sw-3.4", 0, 3, { "cycles", "branch-misses", "cpu-clock" },
	  { 207, 0, 4734 }, 298, 2234, 0, 1, 6, 27, 0, 0, 27, 0, 0, 0 },
	{ "quipper/perf.data.busy.0-3.8", 0, 6, { "cycles", "instructions", "cache-references",
	  "cache-misses", "branches", "branch-misses" },
	  { 4, 0, 0, 0, 0, 0 }, 287, 2161, 0, 1, 4, 0, 0, 0, 0, 0, 0, 0 },
	{ "quipper/perf.data.callgraph-3.8", 0, 1, { "cycles" },
	  { 1768 }, 229, 1793, 0, 2, 6, 0, 0, 0, 0, 0, 1768, 0 },
	{ "quipper/perf.data.branch-4.14", 0, 1, { "cycles:ppp" },
	  { 13 }, 3, 21, 10, 0, 1, 0, 0, 0, 0, 0, 0, 0 },
	{ "quipper/perf.data.hybrid_topology", 0, 3,
	  { "cpu_core/cycles:ppp/", "cpu_atom/cycles:ppp/", "dummy:HG" },
	  { 7, 0, 0 }, 3, 100, 7, 0, 1, 0, 0, 0, 0, 0, 0, 0 },
	{ "quipper/perf.data.weight_struct", 0, 2,
	  { "MEM_TRANS_RETIRED.LOAD_LATENCY:ldlat=64:precise=2:mh:mg:pinned", "dummy:HG" },
	  { 14, 0 }, 2959, 15, 6930, 2955, 59, 0, 0, 0, 0, 0, 0, 0 },
	{ "quipper/perf.data.piped.header_feautres_group_desc-6.8", 1, 2,
	  { "cycles:u", "instructions:u" },
	  { 11, 10 }, 2, 0, 4, 0, 1, 0, 0, 0, 0, 0, 0, 0 },
	{ "quipper/perf.data.piped.header_features_aligned-6.12", 1, 1, { "cycles:u" },
	  { 9 }, 2, 0, 4, 0, 1, 0, 0, 0, 0, 0, 0, 0 },
	{ "quipper/perf.data.ctx_switch_namespaces-4.14", 0, 1, { "cycles" },
	  { 2 }, 3, 21, 10, 0, 1, 0, 0, 2, 0, 0, 0, 0 },
	{ "quipper/perf.data.armv7-3.4", 0, 6, { "cycles", "instructions", "cache-references",
	  "cache-misses", "branches", "branch-misses" },
	  { 669, 644, 633, 613, 640, 694 }, 200, 1454, 0, 1, 6, 0, 0, 0, 0, 0, 0, 0 },
	{ "quipper/perf.data.i686-3.4", 0, 6, { "cycles", "instructions", "cache-references",
	  "cache-misses", "branches", "branch-misses" },
	  { 147, 155, 116, 89, 95, 101 }, 204, 1584, 0, 2, 6, 0, 0, 0, 0, 0, 0, 0 },
	{ "quipper/perf.data.intel_pt-4.14", 0, 4,
	  { "intel_pt//", "cycles", "dummy:u", "dummy:u" },
	  { 0, 15, 0, 0 }, 3, 56, 10, 0, 1, 0, 0, 0, 0, 0, 0, 0 },
	/* pmct_perfgen's: attr 136 and its 128 copy, hybrid extended types,
	 * a {cycles,instructions}:S group read with LOST, a LOST record of 3 */
	{ "gen/hybrid-group-lost.data", 0, 3,
	  { "cpu_core/cycles/", "cpu_core/instructions/", "cpu_atom/cycles/" },
	  { 24, 0, 8 }, 1, 0, 1, 0, 1, 0, 0, 0, 3, 32, 32, 0 },
	{ "gen/hybrid-group-lost.attr128.data", 0, 3,
	  { "cpu_core/cycles/", "cpu_core/instructions/", "cpu_atom/cycles/" },
	  { 24, 0, 8 }, 1, 0, 1, 0, 1, 0, 0, 0, 3, 32, 32, 0 },
	/* the same records in zstd COMPRESSED records, pipe mode */
	{ "gen/pipe-zstd.data", 1, 3,
	  { "cpu_core/cycles/", "cpu_core/instructions/", "cpu_atom/cycles/" },
	  { 24, 0, 8 }, 1, 0, 1, 0, 1, 0, 0, 0, 3, 32, 32, 0 },
	{ "gen/pipe-zstd.attr128.data", 1, 3,
	  { "cpu_core/cycles/", "cpu_core/instructions/", "cpu_atom/cycles/" },
	  { 24, 0, 8 }, 1, 0, 1, 0, 1, 0, 0, 0, 3, 32, 32, 0 },
	/* zstd, file mode, REGS_USER and STACK_USER */
	{ "gen/zstd-regs-stack.data", 0, 1, { "cycles" },
	  { 40 }, 1, 0, 1, 0, 1, 0, 0, 0, 0, 0, 40, 0 },
	{ "gen/zstd-regs-stack.attr128.data", 0, 1, { "cycles" },
	  { 40 }, 1, 0, 1, 0, 1, 0, 0, 0, 0, 0, 40, 0 },
	{ "local/cpu-clock-g.data", 0, 1, { "cpu-clock" },
	  { 897 }, 2, 1, 4, 0, 1, 0, 0, 0, 0, 0, 897, 0 },
	{ "local/cpu-clock-g.pipe.data", 1, 1, { "cpu-clock" },
	  { 6 }, 2, 1, 4, 0, 1, 0, 0, 0, 0, 0, 6, 0 },
	{ "local/sched_switch-a.data", 0, 2, { "sched:sched_switch", "dummy:HG" },
	  { 172, 0 }, 112, 1, 281, 111, 28, 0, 0, 0, 0, 0, 0, 172 },
	{ "local/group-read-cpuclock-msrtsc.data", 0, 3, { "cpu-clock", "msr/tsc/", "dummy:HG" },
	  { 363, 0, 0 }, 110, 1, 305, 116, 34, 0, 0, 0, 0, 363, 0, 0 },
	{ "synthetic/hw-group-read-callchain.data", 0, 3,
	  { "cycles", "instructions", "branch-misses" },
	  { 10, 0, 0 }, 1, 0, 1, 0, 1, 0, 0, 0, 0, 10, 10, 0 },
	{ "synthetic/hw-group-read-callchain.nofeat.data", 0, 3,
	  { "cycles", "instructions", "branch-misses" },
	  { 10, 0, 0 }, 1, 0, 1, 0, 1, 0, 0, 0, 0, 10, 10, 0 },
	{ "synthetic/sw-callchain.data", 0, 1, { "cpu-clock" },
	  { 10 }, 1, 0, 1, 0, 1, 0, 0, 0, 0, 0, 10, 0 },
	{ NULL, 0, 0, { NULL }, { 0 }, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
};

static void
test_every_fixture(void)
{
	for (const struct expect *e = fixtures; e->file; e++) {
		struct tally t;
		struct smp_session *s = replay(e->file, &t);
		if (!s)
			continue;
		int bad = 0;
		bad |= smp_file_is_pipe(s) != e->pipe;
		bad |= smp_nevents(s) != e->nev;
		for (int i = 0; i < e->nev && i < smp_nevents(s); i++) {
			bad |= strcmp(smp_event(s, i)->name, e->names[i]) != 0;
			bad |= t.per_ev[i] != e->samples[i];
		}
		bad |= t.type[PERF_RECORD_COMM] != e->comm || t.type[PERF_RECORD_MMAP] != e->mmap;
		bad |= t.type[PERF_RECORD_MMAP2] != e->mmap2 || t.type[PERF_RECORD_FORK] != e->fork;
		bad |= t.type[PERF_RECORD_EXIT] != e->exit;
		bad |= t.type[PERF_RECORD_THROTTLE] != e->throttle;
		bad |= t.type[PERF_RECORD_LOST_SAMPLES] != e->lost_samples;
		bad |= t.type[PERF_RECORD_SWITCH] != e->switches;
		bad |= drops_total(s) != e->drops - (uint64_t)e->throttle;
		bad |= smp_throttled(s) != (uint64_t)e->throttle;
		bad |= t.reads != e->reads || t.chains != e->chains || t.raws != e->raws;
		if (bad)
			fprintf(stderr, "\nmismatch in %s\n", e->file);
		CU_ASSERT_EQUAL(bad, 0);
		smp_close(s);
	}
}

/* ---- specific contents ---- */

struct first_read {
	int seen;
	struct smp_read rd;
	int evidx;
	uint32_t cpu;
	uint64_t time;
};

static int
first_read_cb(void *arg, const struct smp_record *r)
{
	struct first_read *f = arg;
	if (r->type == PERF_RECORD_SAMPLE && r->read && f->seen++ < 3 && r->cpu == 0) {
		f->rd = *r->read;
		f->evidx = r->evidx;
		f->cpu = r->cpu;
		f->time = r->time;
	}
	return 0;
}

static void
test_group_read_msr(void)
{
	/* perf script -D: first sample on cpu 0 at 2260167591656 carries
	 * id 0xa4 = 0xf815c (cpu-clock), id 0xa9 = 0x27b2e8 (msr/tsc/); the
	 * next on cpu 0 (2260168606427) 0x1ef593 and 0x4fea98. */
	struct first_read f = { 0 };
	int err;
	struct smp_session *s = smp_open_file(fixture("local/group-read-cpuclock-msrtsc.data"), &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	while (smp_poll(s, 0, first_read_cb, &f) > 0)
		;
	CU_ASSERT_EQUAL(f.time, 2260168606427ULL);
	CU_ASSERT_EQUAL(f.rd.nr, 2);
	CU_ASSERT_EQUAL(f.rd.v[0].id, 0xa4);
	CU_ASSERT_EQUAL(f.rd.v[0].value, 0x1ef593);
	CU_ASSERT_EQUAL(f.rd.v[0].delta, 0x1ef593 - 0xf815c);
	CU_ASSERT_EQUAL(f.rd.v[0].evidx, 0);
	CU_ASSERT_EQUAL(f.rd.v[1].id, 0xa9);
	CU_ASSERT_EQUAL(f.rd.v[1].value, 0x4fea98);
	CU_ASSERT_EQUAL(f.rd.v[1].delta, 0x4fea98 - 0x27b2e8);
	CU_ASSERT_EQUAL(f.rd.v[1].evidx, 1);
	CU_ASSERT_EQUAL(smp_event(s, 1)->group_leader, 0);
	smp_close(s);
}

/* The fifth group read on CPU 0 (pmct_perfgen: the member's LOST grows by
 * one every four samples). */
static int
lost_read_cb(void *arg, const struct smp_record *r)
{
	struct first_read *f = arg;
	if (r->type == PERF_RECORD_SAMPLE && r->read && r->evidx == 0 && r->cpu == 0 &&
	    ++f->seen == 5) {
		f->rd = *r->read;
		f->time = r->time;
	}
	return 0;
}

static void
test_attr136_format_lost(void)
{
	/* Attr size 136 (perf 6.1 rejects it) with read_format
	 * ID|GROUP|LOST|TOTAL_TIME_*, group nr 2, hybrid types.  perf script -D
	 * on the .attr128 copy, sample at 1000009000: time enabled 0x4c4b40,
	 * running 0x44aa20; id 0x65 value 0x7a12f lost 0; id 0x66 value
	 * 0xb71d1 lost 1; instructions period 150008. */
	struct first_read f = { 0 };
	int err;
	struct smp_session *s = smp_open_file(fixture("gen/hybrid-group-lost.data"), &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT(smp_event(s, 0)->attr.read_format & PERF_FORMAT_LOST);
	CU_ASSERT_EQUAL(smp_event(s, 0)->attr.size, 136);
	CU_ASSERT_EQUAL(smp_event(s, 0)->attr.config, 0x400000000ULL);
	CU_ASSERT_EQUAL(smp_event(s, 2)->attr.config, 0xa00000000ULL);
	CU_ASSERT_EQUAL(smp_event(s, 1)->group_leader, 0);
	while (smp_poll(s, 0, lost_read_cb, &f) > 0)
		;
	CU_ASSERT_EQUAL(f.time, 1000009000ULL);
	CU_ASSERT_EQUAL(f.rd.time_enabled, 0x4c4b40);
	CU_ASSERT_EQUAL(f.rd.time_running, 0x44aa20);
	CU_ASSERT_EQUAL(f.rd.nr, 2);
	CU_ASSERT_EQUAL(f.rd.v[0].evidx, 0);
	CU_ASSERT_EQUAL(f.rd.v[1].evidx, 1);
	CU_ASSERT_EQUAL(f.rd.v[0].id, 0x65);
	CU_ASSERT_EQUAL(f.rd.v[0].value, 0x7a12f);
	CU_ASSERT_EQUAL(f.rd.v[0].lost, 0);
	CU_ASSERT_EQUAL(f.rd.v[1].id, 0x66);
	CU_ASSERT_EQUAL(f.rd.v[1].value, 0xb71d1);
	CU_ASSERT_EQUAL(f.rd.v[1].lost, 1);
	CU_ASSERT_EQUAL(f.rd.v[1].delta, 150008);
	CU_ASSERT_STRING_EQUAL(smp_file_str(s, SMP_FEAT_HOSTNAME), "pmct-gen");
	smp_close(s);
}

static void
test_features(void)
{
	struct tally t;
	struct smp_session *s = replay("local/sched_switch-a.data", &t);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	size_t len = 0;
	const char *td = smp_tracing_data(s, &len);
	CU_ASSERT_PTR_NOT_NULL(td);
	CU_ASSERT_EQUAL(len, 6317);	/* perf report --header-only: 6317 bytes */
	/* Tracing data starts with "\027\010\104tracing". */
	CU_ASSERT(td && len > 10 && memcmp(td + 3, "tracing", 7) == 0);
	CU_ASSERT_STRING_EQUAL(smp_file_str(s, SMP_FEAT_HOSTNAME), "vm");
	CU_ASSERT_STRING_EQUAL(smp_file_str(s, SMP_FEAT_OSRELEASE), "6.18.44-fc-v669");
	CU_ASSERT_STRING_EQUAL(smp_file_str(s, SMP_FEAT_ARCH), "x86_64");
	CU_ASSERT_PTR_NOT_NULL(smp_file_str(s, SMP_FEAT_CPUID));
	int avail = 0, online = 0;
	CU_ASSERT_EQUAL(smp_file_nrcpus(s, &avail, &online), 0);
	CU_ASSERT_EQUAL(online, 2);
	CU_ASSERT_EQUAL(smp_event(s, 0)->attr.type, PERF_TYPE_TRACEPOINT);
	smp_close(s);

	/* features carried by FEATURE records in pipe mode */
	s = replay("gen/pipe-zstd.data", &t);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_STRING_EQUAL(smp_file_str(s, SMP_FEAT_OSRELEASE), "6.8.0-pmct");
	CU_ASSERT_EQUAL(smp_file_nrcpus(s, &avail, &online), 0);
	CU_ASSERT_EQUAL(avail, 2);
	CU_ASSERT_EQUAL(smp_event(s, 1)->group_leader, 0);
	smp_close(s);

	s = replay("synthetic/hw-group-read-callchain.nofeat.data", &t);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_PTR_NULL(smp_file_str(s, SMP_FEAT_HOSTNAME));
	CU_ASSERT_PTR_NULL(smp_tracing_data(s, &len));
	CU_ASSERT_EQUAL(smp_file_nrcpus(s, &avail, &online), -ENOENT);
	smp_close(s);
}

struct rich {
	int n;
	struct smp_record first;	/* pointers are not kept */
	uint64_t br0_from, br0_to;
	long with_branches, with_regs, with_ustack;
	uint64_t ustack_max, dyn_max, reg_last;	/* reg_last: the first sample's */
};

static int
rich_cb(void *arg, const struct smp_record *r)
{
	struct rich *x = arg;
	if (r->type != PERF_RECORD_SAMPLE)
		return 0;
	if (!x->n++) {
		x->first = *r;
		if (r->nr_branches) {
			x->br0_from = r->branches[0].from;
			x->br0_to = r->branches[0].to;
		}
	}
	x->with_branches += r->nr_branches > 0;
	x->with_regs += r->regs_abi != 0 && r->nr_regs > 0;
	x->with_ustack += r->ustack_size > 0;
	if (r->ustack_size > x->ustack_max)
		x->ustack_max = r->ustack_size;
	if (r->ustack_dyn_size > x->dyn_max)
		x->dyn_max = r->ustack_dyn_size;
	if (x->n == 1 && r->nr_regs)
		x->reg_last = r->regs[r->nr_regs - 1];
	return 0;
}

static void
rich_replay(const char *rel, struct rich *x)
{
	int err;
	memset(x, 0, sizeof(*x));
	struct smp_session *s = smp_open_file(fixture(rel), &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	while (smp_poll(s, 0, rich_cb, x) > 0)
		;
	smp_close(s);
}

static void
test_rich_fields(void)
{
	/* Values from perf script -D (perf 6.1) on the first sample. */
	struct rich x;
	rich_replay("quipper/perf.data.branch-4.14", &x);
	CU_ASSERT_EQUAL(x.first.nr_branches, 32);
	CU_ASSERT_EQUAL(x.br0_from, 0xffffffffb4208e16ULL);
	CU_ASSERT_EQUAL(x.br0_to, 0xffffffffb42071e3ULL);
	CU_ASSERT_EQUAL(x.with_branches, 13);

	rich_replay("quipper/perf.data.weight_struct", &x);
	CU_ASSERT_EQUAL(x.first.pid, 20132);
	CU_ASSERT_EQUAL(x.first.tid, 20144);
	CU_ASSERT_EQUAL(x.first.cpu, 28);
	CU_ASSERT_EQUAL(x.first.ip, 0xffffffffa4470d46ULL);
	CU_ASSERT_EQUAL(x.first.addr, 0x55ffba5cda08ULL);
	CU_ASSERT_EQUAL(x.first.period, 10009);
	CU_ASSERT_EQUAL(x.first.weight & 0xffffffff, 225);
	CU_ASSERT_EQUAL(x.first.data_src, 0x11868100242ULL);
	CU_ASSERT_EQUAL(x.first.time, 13166196585610ULL);

	/* As --call-graph dwarf records: REGS_USER (mask 0xff0fff: 20
	 * registers) and STACK_USER, inside zstd COMPRESSED records.  perf
	 * script -D on the .attr128 copy: first sample R15 0x7ffd0013,
	 * "ustack: size 256"; the last "size 880" (the dynamic size). */
	rich_replay("gen/zstd-regs-stack.data", &x);
	CU_ASSERT_EQUAL(x.n, 40);
	CU_ASSERT_EQUAL(x.with_regs, 40);
	CU_ASSERT_EQUAL(x.first.nr_regs, 20);
	CU_ASSERT_EQUAL(x.first.regs_abi, PERF_SAMPLE_REGS_ABI_64);
	CU_ASSERT_EQUAL(x.reg_last, 0x7ffd0013);
	CU_ASSERT_EQUAL(x.with_ustack, 40);
	CU_ASSERT_EQUAL(x.first.ustack_size, 1024);
	CU_ASSERT_EQUAL(x.first.ustack_dyn_size, 256);
	CU_ASSERT_EQUAL(x.dyn_max, 880);
}

/* ---- malformed input ---- */

static unsigned char *
slurp(const char *rel, size_t *len)
{
	FILE *f = fopen(fixture(rel), "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	*len = (size_t)ftell(f);
	fseek(f, 0, SEEK_SET);
	unsigned char *b = malloc(*len);
	if (b && fread(b, 1, *len, f) != *len) {
		free(b);
		b = NULL;
	}
	fclose(f);
	return b;
}

/* Open and drain; returns 0 or the first error. */
static int
drain_buf(const unsigned char *b, size_t len)
{
	int err = 0;
	struct tally t;
	memset(&t, 0, sizeof(t));
	struct smp_session *s = smp_open_buf(b, len, &err);
	if (!s)
		return err ? err : -1;
	int n;
	while ((n = smp_poll(s, 0, tally_cb, &t)) > 0)
		;
	smp_flush(s, tally_cb, &t);
	smp_close(s);
	return n;
}

static void
test_truncated(void)
{
	static const char *files[] = {
		"local/cpu-clock-g.data", "local/cpu-clock-g.pipe.data",
		"gen/zstd-regs-stack.data", "gen/pipe-zstd.data",
		"quipper/perf.data.piped.lost_samples-4.4", NULL,
	};
	for (const char **f = files; *f; f++) {
		size_t len;
		unsigned char *b = slurp(*f, &len);
		CU_ASSERT_PTR_NOT_NULL_FATAL(b);
		int errors = 0;
		for (size_t cut = 0; cut < len; cut += 1 + cut / 7) {
			/* A fresh copy of exactly cut bytes, so ASan sees any overread. */
			unsigned char *c = malloc(cut ? cut : 1);
			memcpy(c, b, cut);
			errors += drain_buf(c, cut) < 0;
			free(c);
		}
		CU_ASSERT(errors > 0);
		free(b);
	}
	int err = 0;
	CU_ASSERT_PTR_NULL(smp_open_buf("PERFILE2", 8, &err));
	CU_ASSERT_EQUAL(err, -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(smp_errmsg(NULL), "not a perf.data file"));
	/* A file mode header whose data section runs past the end. */
	size_t len;
	unsigned char *b = slurp("local/cpu-clock-g.data", &len);
	CU_ASSERT_PTR_NULL(smp_open_buf(b, len / 2, &err));
	CU_ASSERT_PTR_NOT_NULL(strstr(smp_errmsg(NULL), "beyond the end"));
	free(b);
	CU_ASSERT_PTR_NULL(smp_open_file("/nonexistent/perf.data", &err));
	CU_ASSERT_EQUAL(err, -ENOENT);
	CU_ASSERT_PTR_NOT_NULL(strstr(smp_errmsg(NULL), "/nonexistent/perf.data"));
}

static void
test_record_errors_name_offset(void)
{
	size_t len;
	unsigned char *b = slurp("local/cpu-clock-g.pipe.data", &len);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	/* The first record (HEADER_ATTR at 0x10) claims a size of 4. */
	b[0x16] = 4;
	b[0x17] = 0;
	int err = 0;
	/* a pipe's attrs are read at open: that is where the error shows */
	CU_ASSERT_PTR_NULL(smp_open_buf(b, len, &err));
	CU_ASSERT_EQUAL(err, -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(smp_errmsg(NULL), "offset 0x10"));
	free(b);
}

/* A pipe's events (HEADER_ATTR records in the stream) are known as soon
 * as it is open, so providers can claim them before the first record. */
static void
test_pipe_events_at_open(void)
{
	for (const struct expect *e = fixtures; e->file; e++) {
		if (!e->pipe)
			continue;
		int err = 0;
		struct smp_session *s = smp_open_file(fixture(e->file), &err);
		CU_ASSERT_PTR_NOT_NULL_FATAL(s);
		CU_ASSERT_EQUAL(smp_nevents(s), e->nev);
		for (int i = 0; i < e->nev && i < smp_nevents(s); i++)
			CU_ASSERT_STRING_EQUAL(smp_event(s, i)->name, e->names[i]);
		struct tally t;
		memset(&t, 0, sizeof(t));
		while (smp_poll(s, 0, tally_cb, &t) > 0)
			;
		/* and read once: no event twice, no sample lost */
		CU_ASSERT_EQUAL(smp_nevents(s), e->nev);
		for (int i = 0; i < e->nev; i++)
			CU_ASSERT_EQUAL(t.per_ev[i], e->samples[i]);
		smp_close(s);
	}
}

static void
test_garbage(void)
{
	/* Random byte flips over real files: errors are fine, crashes (ASan)
	 * and hangs are not. */
	static const char *files[] = {
		"local/group-read-cpuclock-msrtsc.data", "quipper/perf.data.piped.header_feautres_group_desc-6.8",
		"gen/hybrid-group-lost.data", "gen/pipe-zstd.data", "local/sched_switch-a.data", NULL,
	};
	unsigned seed = 42;
	for (const char **f = files; *f; f++) {
		size_t len;
		unsigned char *b = slurp(*f, &len);
		CU_ASSERT_PTR_NOT_NULL_FATAL(b);
		unsigned char *c = malloc(len);
		for (int iter = 0; iter < 150; iter++) {
			memcpy(c, b, len);
			int flips = 1 + rand_r(&seed) % 8;
			for (int k = 0; k < flips; k++) {
				/* Bias toward the header and the first records. */
				size_t at = (rand_r(&seed) & 1) ? (size_t)rand_r(&seed) % (len < 4096 ? len : 4096)
								: (size_t)rand_r(&seed) % len;
				c[at] = (unsigned char)rand_r(&seed);
			}
			drain_buf(c, len);
		}
		for (size_t i = 0; i < 4096; i++)
			c[i % len] = (unsigned char)rand_r(&seed);
		CU_ASSERT(drain_buf(c, len < 4096 ? len : 4096) < 0);
		free(c);
		free(b);
	}
}

static const struct cu_test tests[] = {
	{ "every_fixture", test_every_fixture },
	{ "group_read_msr", test_group_read_msr },
	{ "attr136_format_lost", test_attr136_format_lost },
	{ "features", test_features },
	{ "rich_fields", test_rich_fields },
	{ "truncated", test_truncated },
	{ "record_errors_name_offset", test_record_errors_name_offset },
	{ "pipe_events_at_open", test_pipe_events_at_open },
	{ "garbage", test_garbage },
	{ NULL, NULL },
};

CU_MAIN("sampler_file", tests)

/*
 * test_providers.c — the probe registry and the providers' decoding,
 * driven without a live session: catalog matching, probe naming and
 * periods, callchain splitting, tracepoint formats, the sched
 * provider's counter deltas from synthetic group reads, and where the
 * in-kernel probe's kernel stacks start.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pmu/pmu.h"
#include "providers/pmcpair.h"
#include "providers/kbsrc.h"
#include "providers/tpbacked.h"
#include "symbolizer/symbolizer.h"
#include "tests/unit/cu.h"

struct collect {
	int n;
	uint32_t ids[64];
	char names[64][96];
};

static int
collect_cb(void *arg, const struct d_probe_info *pi)
{
	struct collect *c = arg;
	if (c->n < 64) {
		c->ids[c->n] = pi->dp_id;
		snprintf(c->names[c->n], sizeof(c->names[0]), "%s:%s:%s:%s", pi->dp_prov,
		    pi->dp_mod, pi->dp_func, pi->dp_name);
	}
	c->n++;
	return 0;
}

static struct prov_registry *
open_registry(struct pmu_ctx *pmu)
{
	struct prov_config cfg = { .pmu = pmu, .want_callchains = 1 };
	int err = 0;
	struct prov_registry *r = prov_open(&cfg, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	return r;
}

static int
match(struct prov_registry *r, const char *prov, const char *mod, const char *func,
    const char *name, struct collect *c)
{
	struct d_catalog cat = prov_catalog(r);
	struct d_probe_desc pd = { prov, mod, func, name };
	char err[512] = "";
	memset(c, 0, sizeof(*c));
	return cat.dc_match(cat.dc_ctx, &pd, collect_cb, c, err, sizeof(err));
}

static void
test_dtrace_ids(void)
{
	struct prov_registry *r = open_registry(NULL);
	struct collect c;
	CU_ASSERT_EQUAL(match(r, "", "", "", "BEGIN", &c), 1);
	CU_ASSERT_EQUAL(c.ids[0], 1);
	CU_ASSERT_EQUAL(match(r, "dtrace", "", "", "END", &c), 1);
	CU_ASSERT_EQUAL(c.ids[0], 2);
	CU_ASSERT_EQUAL(match(r, "dtrace", "", "", "ERROR", &c), 1);
	CU_ASSERT_EQUAL(c.ids[0], 3);
	CU_ASSERT_EQUAL(match(r, "dtrace", "", "", "*", &c), 3);
	prov_close(r);
}

static void
test_profile_names(void)
{
	struct prov_registry *r = open_registry(NULL);
	struct collect c;
	CU_ASSERT_EQUAL(match(r, "", "", "", "profile-97", &c), 1);
	struct prov_probe *p = prov_by_id(r, c.ids[0]);
	CU_ASSERT_EQUAL(p->pp_param[0], 1000000000ull / 97);
	CU_ASSERT_EQUAL(match(r, "profile", "", "", "tick-5ms", &c), 1);
	p = prov_by_id(r, c.ids[0]);
	CU_ASSERT_EQUAL(p->pp_param[0], 5000000ull);
	CU_ASSERT_EQUAL(p->pp_param[1], 1);
	CU_ASSERT_EQUAL(match(r, "", "", "", "tick-2s", &c), 1);
	CU_ASSERT_EQUAL(prov_by_id(r, c.ids[0])->pp_param[0], 2000000000ull);
	CU_ASSERT_EQUAL(match(r, "", "", "", "profile-1000hz", &c), 1);
	CU_ASSERT_EQUAL(prov_by_id(r, c.ids[0])->pp_param[0], 1000000ull);
	/* the same name twice is the same probe */
	uint32_t id = c.ids[0];
	CU_ASSERT_EQUAL(match(r, "", "", "", "profile-1000hz", &c), 1);
	CU_ASSERT_EQUAL(c.ids[0], id);
	CU_ASSERT_EQUAL(match(r, "", "", "", "profile-", &c), 0);
	CU_ASSERT_EQUAL(match(r, "", "", "", "profile-10furlongs", &c), 0);
	/* a rate out of range names no probe, as in DTrace */
	CU_ASSERT_EQUAL(match(r, "profile", "", "", "profile-1000000", &c), 0);
	CU_ASSERT_EQUAL(match(r, "profile", "", "", "profile-0", &c), 0);
	/* a glob matches the listed rates, like dtrace -l -P profile */
	CU_ASSERT(match(r, "profile", "", "", "tick-*", &c) >= 8);
	/* sample-N (the seeds' name) is profile-N itself */
	CU_ASSERT_EQUAL(match(r, "profile", "", "", "sample-1000hz", &c), 1);
	CU_ASSERT_EQUAL(c.ids[0], id);
	CU_ASSERT_EQUAL(match(r, "", "", "", "sample-5ms", &c), 1);
	CU_ASSERT_EQUAL(prov_by_id(r, c.ids[0])->pp_param[1], 0);	/* every CPU */
	CU_ASSERT_STRING_EQUAL(prov_by_id(r, c.ids[0])->pp_info.dp_name, "profile-5ms");
	CU_ASSERT_EQUAL(match(r, "profile", "", "", "sample-*", &c),
	    match(r, "profile", "", "", "profile-*", &c));
	CU_ASSERT_EQUAL(match(r, "profile", "", "", "sample-0", &c), 0);
	CU_ASSERT_EQUAL(match(r, "profile", "", "", "sample-", &c), 0);
	prov_close(r);
}

static void
test_pmc_software(void)
{
	int err = 0;
	struct pmu_ctx *pmu = pmu_open(NULL, NULL, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(pmu);
	struct prov_registry *r = open_registry(pmu);
	struct collect c;
	CU_ASSERT_EQUAL(match(r, "pmc", "", "", "page-faults-1", &c), 1);
	struct prov_probe *p = prov_by_id(r, c.ids[0]);
	CU_ASSERT_EQUAL(p->pp_param[0], 1);
	CU_ASSERT_EQUAL(match(r, "pmc", "", "", "cpu-clock-1000000", &c), 1);
	CU_ASSERT_EQUAL(prov_by_id(r, c.ids[0])->pp_param[0], 1000000);
	/* a bare name without "pmc" is not taken for a counter */
	CU_ASSERT_EQUAL(match(r, "", "", "", "cpu-clock-1000", &c), 0);
	/* unknown counters are compile errors, not silent misses */
	CU_ASSERT_EQUAL(match(r, "pmc", "", "", "no-such-counter-100", &c), -1);
	CU_ASSERT_EQUAL(match(r, "pmc", "", "", "sample-src", &c), 1);
	prov_close(r);
	pmu_close(pmu);
}

/* One counter group (sched's switch, pmcpair's handler): a name already in
 * the set is found again, not added; the cap is reported with its place. */
static void
test_counter_set_add(void)
{
	int err = 0;
	struct pmu_ctx *pmu = pmu_open(NULL, NULL, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(pmu);
	struct prov_registry *r = open_registry(pmu);
	struct pmu_counter set[2];
	int n = 0;
	CU_ASSERT_EQUAL(prov_counter_set_add(r, set, &n, 2, "cpu-clock", "here"), 0);
	CU_ASSERT_EQUAL(prov_counter_set_add(r, set, &n, 2, "task-clock", "here"), 1);
	CU_ASSERT_EQUAL(prov_counter_set_add(r, set, &n, 2, "cpu-clock", "here"), 0);
	CU_ASSERT_EQUAL(n, 2);
	CU_ASSERT_EQUAL(prov_counter_set_add(r, set, &n, 2, "page-faults", "at each test"), -1);
	CU_ASSERT_STRING_EQUAL(prov_errmsg(r), "at most 2 counters can be read at each test");
	CU_ASSERT_EQUAL(prov_counter_set_add(r, set, &n, 2, "no-such-counter", "here"), -1);
	CU_ASSERT_EQUAL(n, 2);
	prov_close(r);
	pmu_close(pmu);
}

static void
test_callchain_split(void)
{
	struct prov_registry *r = open_registry(NULL);
	uint64_t chain[] = { (uint64_t)PERF_CONTEXT_KERNEL, 0xffffffff81000010ull,
		0xffffffff81000020ull, (uint64_t)PERF_CONTEXT_USER, 0x401000, 0x401100, 0x401200 };
	struct smp_record rec;
	memset(&rec, 0, sizeof(rec));
	rec.type = PERF_RECORD_SAMPLE;
	rec.pid = 0;
	rec.tid = 0;
	rec.cpu = 1;
	rec.time = 12345;
	rec.callchain = chain;
	rec.nr_callchain = 7;
	uint64_t kb[8], ub[8];
	struct d_firing f;
	prov_firing_from_sample(r, &rec, &f, kb, ub, 8);
	CU_ASSERT_EQUAL(f.df_nkstack, 2);
	CU_ASSERT_EQUAL(f.df_nustack, 3);
	CU_ASSERT_EQUAL(f.df_kstack[1], 0xffffffff81000020ull);
	CU_ASSERT_EQUAL(f.df_ustack[2], 0x401200);
	CU_ASSERT_EQUAL(f.df_cpu, 1);
	CU_ASSERT_EQUAL(f.df_timestamp, 12345);
	CU_ASSERT_STRING_EQUAL(f.df_execname, "swapper");
	/* a short buffer truncates instead of overflowing */
	prov_firing_from_sample(r, &rec, &f, kb, ub, 1);
	CU_ASSERT_EQUAL(f.df_nkstack, 1);
	CU_ASSERT_EQUAL(f.df_nustack, 1);
	prov_close(r);
}

static void
test_tracepoint_format(void)
{
	struct prov_registry *r = open_registry(NULL);
	struct prov_tp tp;
	if (access("/sys/kernel/tracing/events/sched/sched_switch/format", R_OK) != 0) {
		prov_close(r);
		return;	/* covered by the e2e tests' skip reasons */
	}
	CU_ASSERT_EQUAL_FATAL(prov_tp_load(r, "sched", "sched_switch", &tp), 0);
	CU_ASSERT(tp.id > 0);
	const struct prov_tp_field *f = prov_tp_field(&tp, "prev_comm");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_EQUAL(f->size, 16);
	CU_ASSERT(f->is_string);
	f = prov_tp_field(&tp, "next_pid");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_EQUAL(f->size, 4);
	CU_ASSERT(f->is_signed);
	/* decode from a synthetic payload */
	unsigned char raw[128];
	memset(raw, 0, sizeof(raw));
	int32_t pid = -7;
	memcpy(raw + f->offset, &pid, 4);
	CU_ASSERT_EQUAL((int64_t)prov_tp_uint(f, raw, sizeof(raw)), -7);
	CU_ASSERT_EQUAL(prov_tp_uint(f, raw, f->offset + 2), 0);	/* truncated */
	/* "__data_loc char[] name": the name follows the brackets */
	CU_ASSERT_EQUAL_FATAL(prov_tp_load(r, "irq", "irq_handler_entry", &tp), 0);
	f = prov_tp_field(&tp, "name");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT(f->is_dataloc && f->is_string);
	CU_ASSERT_EQUAL(f->size, 4);
	CU_ASSERT_PTR_NULL(prov_tp_field(&tp, "char"));
	CU_ASSERT_EQUAL(prov_tp_load(r, "nosuch", "event", &tp), -1);
	CU_ASSERT(strstr(prov_errmsg(r), "tracefs") != NULL);
	prov_close(r);
}

static void
test_dataloc_string(void)
{
	struct prov_tp_field f = { "name", 12, 4, 0, 1, 1 };
	unsigned char raw[40];
	memset(raw, 0, sizeof(raw));
	uint32_t loc = (6u << 16) | 20u;
	memcpy(raw + 12, &loc, 4);
	memcpy(raw + 20, "timer", 6);
	char buf[32];
	CU_ASSERT_STRING_EQUAL(prov_tp_str(&f, raw, sizeof(raw), buf, sizeof(buf)), "timer");
	loc = (60u << 16) | 20u;	/* points past the payload */
	memcpy(raw + 12, &loc, 4);
	CU_ASSERT_STRING_EQUAL(prov_tp_str(&f, raw, sizeof(raw), buf, sizeof(buf)), "");
}

static void
test_isr_dpc_sched_listed(void)
{
	struct prov_registry *r = open_registry(NULL);
	struct collect c;
	CU_ASSERT_EQUAL(match(r, "isr", "", "", "isr", &c), 1);
	CU_ASSERT_EQUAL(match(r, "dpc", "", "", "*", &c), 3);
	CU_ASSERT_EQUAL(match(r, "sched", "", "", "*-cpu", &c), 2);
	CU_ASSERT_EQUAL(match(r, "", "", "", "wakeup", &c), 1);
	CU_ASSERT_STRING_EQUAL(c.names[0], "sched:::wakeup");
	prov_close(r);
}

/* A made-up kernel: the probe's stacks lose the program and the tracing
 * machinery (however many frames of it), a perf tracepoint's stack only
 * the machinery; without symbols only the program and its caller go. */
static void
test_kb_trim_stack(void)
{
	char ks[] = "/tmp/pmct_kallsymsXXXXXX";
	int fd = mkstemp(ks);
	CU_ASSERT_FATAL(fd >= 0);
	static const char text[] =
	    "ffffffff81000000 T _stext\n"
	    "ffffffff81000100 T __schedule\n"
	    "ffffffff81000200 T schedule\n"
	    "ffffffff81000300 T bpf_trace_run4\n"
	    "ffffffff81000400 T __traceiter_sched_switch\n"
	    "ffffffff81000500 T perf_trace_sched_switch\n"
	    "ffffffff81000600 T _etext\n"
	    "ffffffffc0001000 t bpf_prog_0123_kb_switch\t[bpf]\n";
	CU_ASSERT_EQUAL_FATAL(write(fd, text, sizeof(text) - 1), (ssize_t)sizeof(text) - 1);
	close(fd);
	struct sym_session *sym = sym_open(NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(sym);
	sym_setopt(sym, "kallsyms", ks);
	sym_setopt(sym, "modules", "/nonexistent");
	struct prov_config cfg = { .sym = sym, .want_callchains = 1 };
	int err = 0;
	struct prov_registry *r = prov_open(&cfg, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	struct smp_event_spec kb = { .name = PROV_KB_EVENT }, tp = { .name = "sched:sched_switch" };
	struct smp_record rec = { .spec = &kb, .ip = 0xffffffffc0001010 };
	uint64_t alone[] = { 0xffffffffc0001010, 0xffffffff81000310, 0xffffffff81000120, 0xffffffff81000210 };
	uint64_t shared[] = { 0xffffffffc0001010, 0xffffffff81000310, 0xffffffff81000410,
	    0xffffffff81000120, 0xffffffff81000210 };
	struct d_firing f = { .df_kstack = alone, .df_nkstack = 4 };
	prov_kb_trim_stack(r, &rec, &f);
	CU_ASSERT_EQUAL(f.df_nkstack, 2);
	CU_ASSERT_EQUAL(f.df_kstack[0], 0xffffffff81000120);
	f = (struct d_firing){ .df_kstack = shared, .df_nkstack = 5 };
	prov_kb_trim_stack(r, &rec, &f);
	CU_ASSERT_EQUAL(f.df_nkstack, 2);
	CU_ASSERT_EQUAL(f.df_kstack[0], 0xffffffff81000120);
	/* the perf path: its ip is the first frame, which stays unless machinery */
	rec = (struct smp_record){ .spec = &tp, .ip = 0xffffffff81000410 };
	f = (struct d_firing){ .df_kstack = shared + 2, .df_nkstack = 3 };
	prov_kb_trim_stack(r, &rec, &f);
	CU_ASSERT_EQUAL(f.df_nkstack, 2);
	rec.ip = 0xffffffff81000120;
	f = (struct d_firing){ .df_kstack = shared + 3, .df_nkstack = 2 };
	prov_kb_trim_stack(r, &rec, &f);
	CU_ASSERT_EQUAL(f.df_nkstack, 2);
	/* all machinery: left whole rather than emptied */
	rec = (struct smp_record){ .spec = &kb, .ip = 0xffffffffc0001010 };
	f = (struct d_firing){ .df_kstack = shared, .df_nkstack = 3 };
	prov_kb_trim_stack(r, &rec, &f);
	CU_ASSERT_EQUAL(f.df_nkstack, 3);
	prov_close(r);
	sym_close(sym);
	/* no kernel symbols (kallsyms unreadable) */
	cfg.sym = NULL;
	r = prov_open(&cfg, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	f = (struct d_firing){ .df_kstack = alone, .df_nkstack = 4 };
	prov_kb_trim_stack(r, &rec, &f);
	CU_ASSERT_EQUAL(f.df_nkstack, 2);
	CU_ASSERT_EQUAL(f.df_kstack[0], 0xffffffff81000120);
	prov_close(r);
	unlink(ks);
}

static const struct cu_test tests[] = {
	{ "dtrace probe ids", test_dtrace_ids },
	{ "profile names and periods", test_profile_names },
	{ "pmc software counters", test_pmc_software },
	{ "counter group sets", test_counter_set_add },
	{ "callchain split", test_callchain_split },
	{ "tracepoint format", test_tracepoint_format },
	{ "data_loc strings", test_dataloc_string },
	{ "isr, dpc and sched probes", test_isr_dpc_sched_listed },
	{ "in-kernel probe's stacks", test_kb_trim_stack },
	{ NULL, NULL },
};

CU_MAIN("providers", tests)

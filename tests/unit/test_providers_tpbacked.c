/*
 * test_providers_tpbacked.c — the plumbing tracepoint-backed providers
 * share (providers/tpbacked.c), seen through io, tcp, udp, sysinfo and
 * vminfo: which events the enabled probes add, the checks a record passes
 * before a provider decodes it, and a replay's claims by event name
 * (a session that is never started stands in for the file's event list).
 * Tests that need tracefs pass vacuously, saying so, when it is absent.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "providers/pmcpair.h"
#include "providers/tpbacked.h"
#include "tests/unit/cu.h"

static struct prov_registry *
open_registry(int replay)
{
	struct prov_config cfg = { .replay = replay };
	int err = 0;
	struct prov_registry *r = prov_open(&cfg, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	return r;
}

static int
count_cb(void *arg, const struct d_probe_info *pi)
{
	(void)pi;
	++*(int *)arg;
	return 0;
}

/* Probes of prov matching name, as the compiler asks for them. */
static int
match(struct prov_registry *r, const char *prov, const char *name)
{
	struct d_catalog cat = prov_catalog(r);
	struct d_probe_desc pd = { prov, "", "", name };
	char err[512] = "";
	int n = 0;
	return cat.dc_match(cat.dc_ctx, &pd, count_cb, &n, err, sizeof(err));
}

/* Probes of prov that -l shows. */
static int
listed(struct prov_registry *r, const char *prov)
{
	struct d_probe_desc pd = { prov, "", "", "" };
	int n = 0;
	CU_ASSERT(prov_list(r, &pd, count_cb, &n) >= 0);
	return n;
}

static int
have_tracepoint(const char *system_event)
{
	char path[160];
	snprintf(path, sizeof(path), "/sys/kernel/tracing/events/%s/format", system_event);
	if (access(path, R_OK) == 0)
		return 1;
	printf("(no readable %s: checks skipped) ", system_event);
	return 0;
}

/* Only the probe named "prov:::name" (arg) is enabled. */
static int
one_enabled(void *arg, uint32_t id)
{
	return id == *(const uint32_t *)arg;
}

static uint32_t
probe_id(struct prov_registry *r, const char *prov, const char *name)
{
	for (uint32_t id = 1; id < prov_nprobes(r); id++) {
		const struct d_probe_info *pi = prov_probe(r, id);
		if (!strcmp(pi->dp_prov, prov) && !strcmp(pi->dp_name, name))
			return id;
	}
	return 0;
}

static int
either_enabled(void *arg, uint32_t id)
{
	const uint32_t *ids = arg;
	return id == ids[0] || id == ids[1];
}

/* A live session holding the events that enabling prov:::name adds. */
static struct smp_session *
enable_one(struct prov_registry *r, const char *prov, const char *name, uint32_t *id)
{
	int err = 0;
	CU_ASSERT_EQUAL_FATAL(match(r, prov, name), 1);
	*id = probe_id(r, prov, name);
	struct smp_session *s = smp_open_live(NULL, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_EQUAL(prov_enable(r, s, one_enabled, id), 0);
	return s;
}

static int
has_event(struct smp_session *s, const char *name)
{
	for (int i = 0; i < smp_nevents(s); i++)
		if (smp_event(s, i)->name && !strcmp(smp_event(s, i)->name, name))
			return 1;
	return 0;
}

/* The events one enabled probe brings in, and only those. */
static void
expect_events(const char *prov, const char *name, const char *const *want, int nwant)
{
	struct prov_registry *r = open_registry(0);
	uint32_t id;
	struct smp_session *s = enable_one(r, prov, name, &id);
	CU_ASSERT_EQUAL(smp_nevents(s), nwant);
	for (int i = 0; i < nwant; i++)
		if (!has_event(s, want[i])) {
			printf("\n%s:::%s lacks %s\n", prov, name, want[i]);
			CU_FAIL("event missing");
		}
	smp_close(s);
	prov_close(r);
}

static void
test_tpb_events_for_enabled(void)
{
	if (!have_tracepoint("block/block_rq_complete"))
		return;
	expect_events("io", "done", (const char *[]){ "block:block_rq_complete" }, 1);
	if (have_tracepoint("sock/sock_send_length") && have_tracepoint("tcp/tcp_probe") &&
	    have_tracepoint("sock/inet_sock_set_state")) {
		/* receive needs the state changes too; only send adds sends */
		expect_events("tcp", "receive", (const char *[]){ "tcp:tcp_probe",
		    "sock:inet_sock_set_state" }, 2);
		expect_events("tcp", "send", (const char *[]){ "tcp:tcp_probe",
		    "sock:inet_sock_set_state", "sock:sock_send_length" }, 3);
		expect_events("udp", "receive", (const char *[]){ "sock:sock_recv_length" }, 1);
	}
	if (have_tracepoint("exceptions/page_fault_kernel"))
		expect_events("vminfo", "kernel_asflt",
		    (const char *[]){ "exceptions:page_fault_kernel" }, 1);
	/* not a tracepoint: the extra software event alone */
	expect_events("vminfo", "maj_fault", (const char *[]){ "page-faults-maj" }, 1);
}

/* sysinfo: the read family only, optional calls skipped if absent. */
static void
test_tpb_optional_events(void)
{
	if (!have_tracepoint("syscalls/sys_exit_read"))
		return;
	struct prov_registry *r = open_registry(0);
	uint32_t id;
	struct smp_session *s = enable_one(r, "sysinfo", "readch", &id);
	CU_ASSERT(has_event(s, "syscalls:sys_exit_read"));
	CU_ASSERT(!has_event(s, "syscalls:sys_exit_write"));
	CU_ASSERT(smp_nevents(s) >= 1 && smp_nevents(s) <= 5);
	smp_close(s);
	prov_close(r);
}

struct fired {
	int n;
	struct d_firing f[4];
};

static int
fire_cb(void *arg, const struct d_firing *f)
{
	struct fired *fd = arg;
	if (fd->n < 4)
		fd->f[fd->n] = *f;
	fd->n++;
	return 0;
}

static const struct d_firing *
firing_of(const struct fired *fd, uint32_t id)
{
	for (int i = 0; i < fd->n && i < 4; i++)
		if (fd->f[i].df_probe == id)
			return &fd->f[i];
	return NULL;
}

static int
dispatch(struct prov_registry *r, const struct smp_record *rec, struct fired *fd)
{
	memset(fd, 0, sizeof(*fd));
	return prov_dispatch(r, rec, fire_cb, fd);
}

static void
sample_of(struct smp_record *rec, const struct smp_event_spec *sp, const void *raw,
    uint32_t size)
{
	memset(rec, 0, sizeof(*rec));
	rec->type = PERF_RECORD_SAMPLE;
	rec->spec = sp;
	rec->pid = rec->tid = getpid();
	rec->raw = raw;
	rec->raw_size = size;
}

static void
put(unsigned char *raw, const struct prov_tp *tp, const char *name, uint64_t v)
{
	const struct prov_tp_field *f = prov_tp_field(tp, name);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	memcpy(raw + f->offset, &v, f->size < 8 ? f->size : 8);
}

/* A sock_send_length payload (raw must hold 128 bytes). */
static void
sock_payload(unsigned char *raw, uint64_t protocol, int64_t ret)
{
	struct prov_tp tp;
	struct prov_registry *r = open_registry(0);
	CU_ASSERT_EQUAL_FATAL(prov_tp_load(r, "sock", "sock_send_length", &tp), 0);
	prov_close(r);
	memset(raw, 0, 128);
	put(raw, &tp, "protocol", protocol);
	put(raw, &tp, "family", 2);
	put(raw, &tp, "ret", (uint64_t)ret);
}

/* A record reaches the provider only as a sample of its own events with a
 * payload; udp's own filter then keeps UDP transfers of data. */
static void
test_tpb_decode_checks(void)
{
	if (!have_tracepoint("sock/sock_send_length"))
		return;
	struct prov_registry *r = open_registry(0);
	uint32_t id;
	struct smp_session *s = enable_one(r, "udp", "send", &id);
	CU_ASSERT_EQUAL_FATAL(smp_nevents(s), 1);
	const struct smp_event_spec *sp = smp_event(s, 0);
	unsigned char raw[128];
	struct smp_record rec;
	struct fired fd;
	sock_payload(raw, 17, 100);
	sample_of(&rec, sp, raw, sizeof(raw));
	CU_ASSERT_EQUAL(dispatch(r, &rec, &fd), 0);
	CU_ASSERT_EQUAL_FATAL(fd.n, 1);
	CU_ASSERT_EQUAL(fd.f[0].df_probe, id);
	CU_ASSERT_EQUAL(fd.f[0].df_args[0], 100);
	CU_ASSERT_EQUAL(fd.f[0].df_args[1], 2);
	rec.raw = NULL;			/* a tracepoint's sample without payload */
	dispatch(r, &rec, &fd);
	CU_ASSERT_EQUAL(fd.n, 0);
	sample_of(&rec, sp, raw, sizeof(raw));
	rec.type = PERF_RECORD_COMM;	/* not a sample */
	dispatch(r, &rec, &fd);
	CU_ASSERT_EQUAL(fd.n, 0);
	struct smp_event_spec bad = *sp;
	bad.cookie = 99;		/* no event of udp's */
	sample_of(&rec, &bad, raw, sizeof(raw));
	dispatch(r, &rec, &fd);
	CU_ASSERT_EQUAL(fd.n, 0);
	sock_payload(raw, 6, 100);	/* TCP */
	sample_of(&rec, sp, raw, sizeof(raw));
	dispatch(r, &rec, &fd);
	CU_ASSERT_EQUAL(fd.n, 0);
	sock_payload(raw, 17, -11);	/* EAGAIN */
	dispatch(r, &rec, &fd);
	CU_ASSERT_EQUAL(fd.n, 0);
	smp_close(s);
	prov_close(r);
}

static int
add_recorded(struct smp_session *s, uint32_t type, uint64_t config, const char *name)
{
	struct smp_event_spec sp;
	int evidx = -1;
	memset(&sp, 0, sizeof(sp));
	sp.attr.size = sizeof(sp.attr);
	sp.attr.type = type;
	sp.attr.config = config;
	sp.scope = SMP_EACH_CPU;
	sp.group_leader = -1;
	sp.name = name;
	CU_ASSERT_EQUAL(smp_add_event(s, &sp, &evidx), 0);
	return evidx;
}

/* Replay: a provider exists once the file holds one of its events, by
 * tracepoint name or (vminfo) by its extra software event. */
static void
test_tpb_replay_claims(void)
{
	if (!have_tracepoint("sock/sock_recv_length"))
		return;
	struct prov_registry *r = open_registry(1);
	int err = 0;
	struct smp_session *s = smp_open_live(NULL, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_EQUAL(listed(r, "udp"), 0);
	int recv = add_recorded(s, PERF_TYPE_TRACEPOINT, 0, "sock:sock_recv_length");
	int maj = add_recorded(s, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ, "page-faults-maj");
	add_recorded(s, PERF_TYPE_TRACEPOINT, 0, "sched:sched_wakeup");	/* others' */
	CU_ASSERT_EQUAL_FATAL(prov_attach_file(r, s), 0);
	CU_ASSERT_EQUAL(listed(r, "udp"), 2);
	CU_ASSERT_EQUAL(listed(r, "vminfo"), 4);
	CU_ASSERT_EQUAL(listed(r, "tcp"), 0);
	CU_ASSERT_EQUAL(listed(r, "io"), 0);
	CU_ASSERT_EQUAL(match(r, "udp", "receive"), 1);
	CU_ASSERT_EQUAL(match(r, "vminfo", "maj_fault"), 1);
	uint32_t ids[2] = { probe_id(r, "udp", "receive"), probe_id(r, "vminfo", "maj_fault") };
	CU_ASSERT_EQUAL(prov_enable(r, s, either_enabled, ids), 0);
	unsigned char raw[128];
	struct smp_record rec;
	struct fired fd;
	sock_payload(raw, 17, 42);	/* recv_length has send_length's layout */
	sample_of(&rec, smp_event(s, recv), raw, sizeof(raw));
	dispatch(r, &rec, &fd);
	CU_ASSERT_EQUAL_FATAL(fd.n, 1);
	CU_ASSERT_EQUAL(fd.f[0].df_probe, ids[0]);
	CU_ASSERT_EQUAL(fd.f[0].df_args[0], 42);
	sample_of(&rec, smp_event(s, maj), NULL, 0);	/* no payload: not a tracepoint */
	rec.addr = 0x7000;
	rec.ip = 0x401000;
	dispatch(r, &rec, &fd);
	/* the pmc provider may fire for the same software event */
	const struct d_firing *f = firing_of(&fd, ids[1]);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_EQUAL(f->df_args[0], 1);
	CU_ASSERT_EQUAL(f->df_args[1], 0x7000);
	CU_ASSERT_EQUAL(f->df_args[2], 0x401000);
	smp_close(s);
	prov_close(r);
}

static const struct cu_test tests[] = {
	{ "events the enabled probes add", test_tpb_events_for_enabled },
	{ "optional events", test_tpb_optional_events },
	{ "records checked before decoding", test_tpb_decode_checks },
	{ "replay claims by name", test_tpb_replay_claims },
	{ NULL, NULL },
};

CU_MAIN("providers_tpbacked", tests)

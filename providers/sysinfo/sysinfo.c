/*
 * sysinfo.c — the sysinfo provider's I/O statistics probes, from the
 * return of the read and write families of system calls
 * (syscalls:sys_exit_<name>, one tracepoint each, so nothing else is
 * sampled):
 *   readch   bytes transferred by read, readv, pread64, preadv, preadv2
 *   writech  bytes transferred by write, writev, pwrite64, pwritev, pwritev2
 *   sysread  every read-family call, syswrite every write-family call
 * As in DTrace, arg0 is the amount the statistic grows by: the bytes for
 * readch/writech (calls returning 0 or an error do not fire them), 1 for
 * sysread/syswrite.  Linux extra: arg1 = the syscall's return value.
 * Sockets read with recv*(2)/send*(2) are not counted (they are not in
 * the families DTrace counts either).
 */
#include <stdlib.h>
#include <string.h>

#include "providers/prov_impl.h"

enum { SK_READCH, SK_WRITECH, SK_SYSREAD, SK_SYSWRITE, SK_N };
#define SI_NCALLS 10

static const struct {
	const char *event;
	int write;
} si_calls[SI_NCALLS] = {
	{ "sys_exit_read", 0 }, { "sys_exit_readv", 0 }, { "sys_exit_pread64", 0 },
	{ "sys_exit_preadv", 0 }, { "sys_exit_preadv2", 0 },
	{ "sys_exit_write", 1 }, { "sys_exit_writev", 1 }, { "sys_exit_pwrite64", 1 },
	{ "sys_exit_pwritev", 1 }, { "sys_exit_pwritev2", 1 },
};

struct si_state {
	struct prov_tp tp[SI_NCALLS];
	uint32_t probe[SK_N];
	int planned;
};

static const char *const si_names[SK_N] = { "readch", "writech", "sysread", "syswrite" };
static const char *const si_args[] = { "uint64_t", "int64_t" };

static int
si_emit(struct prov_registry *r, const struct d_probe_desc *pd, d_probe_cb cb, void *arg)
{
	int n = 0;
	for (int k = 0; k < SK_N; k++) {
		struct prov_probe *p = prov_add(r, &prov_sysinfo_ops, "", "", si_names[k]);
		if (!p)
			return prov_errf(r, "out of memory");
		p->pp_param[0] = (uint64_t)k;
		prov_set_args(p, 2, si_args);
		if (!prov_desc_match(pd, &p->pp_info))
			continue;
		if (cb && cb(arg, &p->pp_info) < 0)
			return -1;
		n++;
	}
	return n;
}

static struct si_state *
si_state_get(struct prov_registry *r)
{
	struct si_state *st = prov_state(r, &prov_sysinfo_ops);
	if (!st && (st = calloc(1, sizeof(*st))))
		prov_set_state(r, &prov_sysinfo_ops, st);
	if (!st)
		prov_errf(r, "out of memory");
	return st;
}

static int
si_match(struct prov_registry *r, const struct d_probe_desc *pd, d_probe_cb cb, void *arg)
{
	return si_state_get(r) ? si_emit(r, pd, cb, arg) : -1;
}

static int
si_list(struct prov_registry *r, const struct d_probe_desc *pd, d_probe_cb cb, void *arg)
{
	if (prov_cfg(r)->replay && !prov_state(r, &prov_sysinfo_ops))
		return 0;
	return si_emit(r, pd, cb, arg);
}

static void
si_plan(struct prov_registry *r, struct si_state *st)
{
	for (uint32_t id = 1; id < prov_nprobes(r); id++) {
		struct prov_probe *p = prov_by_id(r, id);
		if (p->pp_ops == &prov_sysinfo_ops && prov_is_enabled(r, id))
			st->probe[p->pp_param[0]] = id;
	}
	st->planned = 1;
}

static int
si_enable(struct prov_registry *r, struct smp_session *s)
{
	struct si_state *st = prov_state(r, &prov_sysinfo_ops);
	if (!st)
		return 0;
	si_plan(r, st);
	int want[2] = {
		st->probe[SK_READCH] || st->probe[SK_SYSREAD],
		st->probe[SK_WRITECH] || st->probe[SK_SYSWRITE],
	};
	for (int i = 0; i < SI_NCALLS; i++) {
		if (!want[si_calls[i].write])
			continue;
		if (prov_tp_load(r, "syscalls", si_calls[i].event, &st->tp[i]) < 0) {
			if (i == 0 || i == 5)
				return -1;	/* read/write themselves must exist */
			continue;	/* an older kernel without preadv2... */
		}
		if (prov_tp_add(r, s, &prov_sysinfo_ops, &st->tp[i], (uint64_t)i, -1, 0) < 0)
			return -1;
	}
	return 0;
}

static int
si_claim(struct prov_registry *r, struct smp_session *s, int evidx)
{
	const struct smp_event_spec *ev = smp_event(s, evidx);
	if (ev->attr.type != PERF_TYPE_TRACEPOINT || !ev->name || strncmp(ev->name, "syscalls:", 9))
		return 0;
	for (int i = 0; i < SI_NCALLS; i++) {
		if (strcmp(ev->name + 9, si_calls[i].event))
			continue;
		struct si_state *st = si_state_get(r);
		if (!st || si_emit(r, &(struct d_probe_desc){ 0 }, NULL, NULL) < 0)
			return -1;
		return prov_claim(r, evidx, &prov_sysinfo_ops, (uint64_t)i);
	}
	return 0;
}

static int
si_fire(uint32_t id, struct d_firing *f, uint64_t v, prov_fire_fn fire, void *arg)
{
	if (!id)
		return 0;
	f->df_probe = id;
	f->df_args[0] = v;
	return fire(arg, f);
}

static int
si_decode(struct prov_registry *r, const struct smp_record *rec, uint64_t cookie,
    prov_fire_fn fire, void *arg)
{
	struct si_state *st = prov_state(r, &prov_sysinfo_ops);
	if (!st || rec->type != PERF_RECORD_SAMPLE || !rec->raw || cookie >= SI_NCALLS ||
	    rec->raw_size < 24)
		return 0;
	if (!st->planned)
		si_plan(r, st);
	int64_t ret;
	/* sys_exit_<name>: __syscall_nr at 8, long ret at 16 */
	memcpy(&ret, (const char *)rec->raw + 16, 8);
	int w = si_calls[cookie].write;
	uint64_t kbuf[128], ubuf[128];
	struct d_firing f;
	prov_firing_from_sample(r, rec, &f, kbuf, ubuf, 128);
	f.df_args[1] = (uint64_t)ret;
	f.df_nargs = 2;
	int rc = si_fire(st->probe[w ? SK_SYSWRITE : SK_SYSREAD], &f, 1, fire, arg);
	if (rc || ret <= 0)
		return rc;
	return si_fire(st->probe[w ? SK_WRITECH : SK_READCH], &f, (uint64_t)ret, fire, arg);
}

const struct prov_ops prov_sysinfo_ops = {
	.po_name = "sysinfo",
	.po_list = si_list,
	.po_match = si_match,
	.po_enable = si_enable,
	.po_claim = si_claim,
	.po_decode = si_decode,
};

/*
 * registry.c — the table of providers and what the rest of pmctrace asks
 * of them (provider.h): the catalog the D compiler queries, -l, enabling,
 * replay claims, and the routing of every record of the merged stream.
 * The services the providers call are in kit.c.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "providers/kbsrc.h"
#include "providers/registry_impl.h"
#include "providers/vclock.h"
#include "providers/pid/pid_impl.h"
#include "symbolizer/symbolizer.h"

static const struct prov_ops *const prov_table[] = {
	&prov_dtrace_ops,
	&prov_profile_ops,
	&prov_pmc_ops,
	&prov_sched_ops,
	&prov_isr_ops,
	&prov_dpc_ops,
	&prov_syscall_ops,
	&prov_tracepoint_ops,
	&prov_proc_ops,
	&prov_io_ops,
	&prov_vminfo_ops,
	&prov_sysinfo_ops,
	&prov_pid_ops,
	&prov_tcp_ops,
	&prov_udp_ops,
	&prov_usdt_ops,
	&prov_diag_ops,
};
#define NPROV (sizeof(prov_table) / sizeof(prov_table[0]))

const char *
prov_notices(const struct prov_registry *r)
{
	return r->notices;
}

const char *
prov_errmsg(const struct prov_registry *r)
{
	return r->err;
}



const struct d_probe_info *
prov_probe(struct prov_registry *r, uint32_t id)
{
	struct prov_probe *p = prov_by_id(r, id);
	return p ? &p->pp_info : NULL;
}

void
prov_set_callchains(struct prov_registry *r, int want)
{
	r->cfg.want_callchains = want;
}












/* A description's provider names ops: by glob, or as the provider's name
 * followed by a process id (pid1234, the pid provider's instances), and
 * any name followed by a process id for usdt (python1234). */
static int
prov_names_ops(const char *pattern, const struct prov_ops *ops)
{
	size_t n = strlen(ops->po_name);
	if (prov_field_match(pattern, ops->po_name))
		return 1;
	/* USDT providers are named by the program: any name + pid */
	if (!strcmp(ops->po_name, "usdt") && pattern && *pattern && !prov_has_glob(pattern))
		return strchr("0123456789", pattern[strlen(pattern) - 1]) != NULL;
	if (!pattern || strncmp(pattern, ops->po_name, n) || !pattern[n])
		return 0;
	return strspn(pattern + n, "0123456789") == strlen(pattern + n);
}

/* Other names of a provider's probes: the seeds call tcp and udp tcpip
 * and udpip.  An alias is not a provider of its own: tcpip:::send is
 * tcp:::send, the same probe (one id), so a clause naming both fires once
 * per event, and -l lists it under its own name. */
static const char *const prov_aliases[][2] = {
	{ "tcpip", "tcp" }, { "udpip", "udp" },
};
/* The same for single probes under another provider's name:
 * { alias provider, alias name, provider, probe name }. */
static const char *const prov_probe_aliases[][4] = {
	{ "pf", "hardflt", "vminfo", "maj_fault" },
};

/* The descriptions to hand ops for pd (0, 1 or 2 of them in use[]): pd
 * itself when it names ops, or with the provider's own name when it
 * names an alias of it; and, for a probe alias pd names (pf:::hardflt),
 * the probe's own names, unless pd covers that probe already (so "*"
 * names each probe once). */
static int
prov_descs_for(const struct d_probe_desc *pd, const struct prov_ops *ops,
    struct d_probe_desc use[2])
{
	int n = 0, own = prov_names_ops(pd->dpd_prov, ops);
	if (own)
		use[n++] = *pd;
	for (size_t i = 0; !own && i < sizeof(prov_aliases) / sizeof(prov_aliases[0]); i++) {
		if (strcmp(prov_aliases[i][1], ops->po_name) ||
		    !prov_field_match(pd->dpd_prov, prov_aliases[i][0]))
			continue;
		use[n] = *pd;
		use[n++].dpd_prov = ops->po_name;
		break;
	}
	for (size_t i = 0; i < sizeof(prov_probe_aliases) / sizeof(prov_probe_aliases[0]); i++) {
		const char *const *a = prov_probe_aliases[i];
		if (strcmp(a[2], ops->po_name) || !prov_field_match(pd->dpd_prov, a[0]) ||
		    !prov_field_match(pd->dpd_name, a[1]) ||
		    (own && prov_field_match(pd->dpd_name, a[3])))
			continue;
		use[n] = *pd;
		use[n].dpd_prov = ops->po_name;
		use[n++].dpd_name = a[3];
		break;	/* (one alias a provider, so far) */
	}
	return n;
}

static int
prov_catalog_match(void *ctx, const struct d_probe_desc *pd0, d_probe_cb cb,
    void *arg, char *errbuf, size_t errlen)
{
	struct prov_registry *r = ctx;
	struct d_probe_desc use[2];
	int total = 0;
	r->err[0] = '\0';
	for (size_t i = 0; i < NPROV; i++) {
		int nd = prov_descs_for(pd0, prov_table[i], use);
		for (int d = 0; d < nd; d++) {
			int n = prov_table[i]->po_match(r, &use[d], cb, arg);
			if (n < 0) {
				snprintf(errbuf, errlen, "%s", r->err);
				return -1;
			}
			total += n;
		}
	}
	return total;
}

struct d_catalog
prov_catalog(struct prov_registry *r)
{
	struct d_catalog c = { .dc_ctx = r, .dc_match = prov_catalog_match };
	return c;
}

int
prov_list(struct prov_registry *r, const struct d_probe_desc *pd, d_probe_cb cb, void *arg)
{
	static const struct d_probe_desc any = { "", "", "", "" };
	struct d_probe_desc use[2];
	if (!pd)
		pd = &any;
	for (size_t i = 0; i < NPROV; i++) {
		int nd = prov_descs_for(pd, prov_table[i], use);
		for (int d = 0; d < nd; d++)
			if (prov_table[i]->po_list(r, &use[d], cb, arg) < 0)
				return -1;
	}
	return 0;
}

struct prov_registry *
prov_open(const struct prov_config *cfg, int *errp)
{
	struct prov_registry *r = calloc(1, sizeof(*r));
	if (!r) {
		*errp = -ENOMEM;
		return NULL;
	}
	r->cfg = *cfg;
	r->nprobes = 1;		/* id 0 is never a probe */
	if (prov_grow(r) < 0) {
		free(r);
		*errp = -ENOMEM;
		return NULL;
	}
	r->probes[0] = NULL;
	/* dtrace:::BEGIN/END/ERROR take ids 1..3 as dcore.h requires. */
	if (prov_dtrace_ops.po_list(r, NULL, NULL, NULL) < 0) {
		prov_close(r);
		*errp = -ENOMEM;
		return NULL;
	}
	return r;
}

void
prov_close(struct prov_registry *r)
{
	if (!r)
		return;
	for (int i = 0; i < r->nstate; i++)
		free(r->state[i].st);
	for (uint32_t i = 1; i < r->nprobes; i++)
		free(r->probes[i]);
	free(r->probes);
	free(r->claims);
	vclock_close(r->vclock);
	prov_kb_free(r->kb);
	free(r);
}

int
prov_use_vclock(struct prov_registry *r)
{
	if (!r->vclock && !(r->vclock = vclock_open()))
		return prov_errf(r, "out of memory for vtimestamp");
	return 0;
}

static void
prov_note_switch(struct prov_registry *r, const struct smp_record *rec)
{
	if (r->vclock)
		vclock_switch(r->vclock, rec->cpu, rec->tid, rec->time,
		    !(rec->misc & PERF_RECORD_MISC_SWITCH_OUT));
}


int
prov_enable(struct prov_registry *r, struct smp_session *s,
    prov_enabled_fn enabled, void *enabled_arg)
{
	r->enabled = enabled;
	r->enabled_arg = enabled_arg;
	r->smp = s;
	if (r->cfg.replay)
		return 0;
	for (size_t i = 0; i < NPROV; i++)
		if (prov_table[i]->po_enable && prov_table[i]->po_enable(r, s) < 0)
			return -1;
	return 0;
}





/* Replayed events route through here: the spec's cookie is its evidx and
 * every claim on it decodes the record in turn. */
static int
prov_multi_decode(struct prov_registry *r, const struct smp_record *rec,
    uint64_t cookie, prov_fire_fn fire, void *arg)
{
	for (size_t i = 0; i < r->nclaims; i++) {
		const struct prov_claim_ent *c = &r->claims[i];
		if (c->evidx != (int)cookie)
			continue;
		int rc = c->ops->po_decode(r, rec, c->cookie, fire, arg);
		if (rc)
			return rc;
	}
	return 0;
}

static const struct prov_ops prov_multi_ops = {
	.po_name = "",
	.po_decode = prov_multi_decode,
};

int
prov_attach_file(struct prov_registry *r, struct smp_session *s)
{
	int n = smp_nevents(s);
	for (int ev = 0; ev < n; ev++) {
		size_t before = r->nclaims;
		for (size_t i = 0; i < NPROV; i++)
			if (prov_table[i]->po_claim && prov_table[i]->po_claim(r, s, ev) < 0)
				return -1;
		if (r->nclaims > before)
			smp_claim(s, ev, (void *)&prov_multi_ops, (uint64_t)ev);
	}
	return 0;
}

static int
prov_each_hook(struct prov_registry *r, int end, prov_fire_fn fire, void *arg)
{
	for (size_t i = 0; i < NPROV; i++) {
		int (*hook)(struct prov_registry *, prov_fire_fn, void *) =
		    end ? prov_table[i]->po_end : prov_table[i]->po_start;
		int rc = hook ? hook(r, fire, arg) : 0;
		if (rc)
			return rc;
	}
	return 0;
}

int
prov_start(struct prov_registry *r, prov_fire_fn fire, void *arg)
{
	return prov_each_hook(r, 0, fire, arg);
}

int
prov_end(struct prov_registry *r, prov_fire_fn fire, void *arg)
{
	return prov_each_hook(r, 1, fire, arg);
}

/* Providers that fire on side-band mapping records, whichever event
 * carried them (proc:::module-load). */
static const struct prov_ops *const prov_mmap_table[] = {
	&prov_proc_ops,
};

static int
prov_fire_mmap(struct prov_registry *r, const struct smp_record *rec,
    prov_fire_fn fire, void *arg)
{
	for (size_t i = 0; i < sizeof(prov_mmap_table) / sizeof(prov_mmap_table[0]); i++) {
		int rc = prov_mmap_table[i]->po_decode(r, rec, 0, fire, arg);
		if (rc)
			return rc;
	}
	return 0;
}

/* Live, the symbolizer reads from /proc what no record told it: a
 * process that predates the run, met at its first sample (pid) or as a
 * fork's parent.  A recording writes down what was read, so the replay
 * knows it at the same point. */
static void
prov_learn_pid(struct prov_registry *r, int32_t pid, uint64_t time)
{
	struct sym_session *sym = r->cfg.sym;
	int32_t ppid;
	if (sym_note_pid(sym, pid))
		smp_record_process(r->smp, pid, sym_comm_ppid(sym, pid, &ppid), time);
	else if (r->cfg.recording && !sym_comm_known(sym, pid))
		/* the firing's execname will come from /proc/PID/comm: now */
		smp_record_comm(r->smp, pid, sym_comm_ppid(sym, pid, &ppid), time);
}

/* The symbolizer learns of processes and mappings from the side-band
 * records before anything fires on them (module-load's execname and
 * stacks see the mapping it announces). */
static void
prov_note_sideband(struct prov_registry *r, const struct smp_record *rec)
{
	struct sym_session *sym = r->cfg.sym;
	int32_t ppid, parent;
	if (!sym)
		return;
	if (!r->cfg.replay && (parent = sym_note_fork_parent(sym, rec->hdr)))
		smp_record_process(r->smp, parent, sym_comm_ppid(sym, parent, &ppid), rec->time);
	if (rec->hdr)
		sym_note_record(sym, rec->hdr);
}

/* A record of an event a provider added or claimed, to that provider. */
static int
prov_decode_owned(struct prov_registry *r, const struct smp_record *rec,
    prov_fire_fn fire, void *arg)
{
	if (!rec->spec || !rec->spec->owner)
		return 0;
	const struct prov_ops *ops = rec->spec->owner;
	return ops->po_decode ? ops->po_decode(r, rec, rec->spec->cookie, fire, arg) : 0;
}

int
prov_dispatch(struct prov_registry *r, const struct smp_record *rec,
    prov_fire_fn fire, void *arg)
{
	int rc;
	switch (rec->type) {
	case PERF_RECORD_SAMPLE:
		if (!r->cfg.replay && r->cfg.sym)
			prov_learn_pid(r, rec->pid, rec->time);
		rc = prov_diag_record(r, rec, fire, arg);
		return rc ? rc : prov_decode_owned(r, rec, fire, arg);
	case PERF_RECORD_LOST:
	case PERF_RECORD_LOST_SAMPLES:
	case PERF_RECORD_THROTTLE:
		return prov_diag_record(r, rec, fire, arg);
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		prov_note_sideband(r, rec);
		return prov_fire_mmap(r, rec, fire, arg);
	case PERF_RECORD_COMM:
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		prov_note_sideband(r, rec);
		return 0;
	case PERF_RECORD_SWITCH_CPU_WIDE:
		/* the side-band event's switches keep the virtual clock; those
		 * of a provider's own event are that provider's (sched) */
		if (!rec->spec || !rec->spec->owner)
			prov_note_switch(r, rec);
		return prov_decode_owned(r, rec, fire, arg);
	default:
		return 0;
	}
}

void
prov_set_sink(struct prov_registry *r, prov_fire_fn fire, void *arg)
{
	r->sink = fire;
	r->sink_arg = arg;
}

int
prov_route(void *reg, const struct smp_record *rec)
{
	struct prov_registry *r = reg;
	return prov_dispatch(r, rec, r->sink, r->sink_arg);
}




void
prov_remove_leftovers(int32_t owner)
{
	pid_remove_leftovers(owner);
}

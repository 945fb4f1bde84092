/*
 * registry.c — the probe registry and the catalog the D compiler queries.
 *
 * Probes live in an array indexed by id, each allocated once so that the
 * d_probe_info pointers handed to the compiler stay valid for the run.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "providers/prov_kit.h"
#include "providers/kbsrc.h"
#include "providers/vclock.h"
#include "providers/pid/pid_impl.h"

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
};
#define NPROV (sizeof(prov_table) / sizeof(prov_table[0]))

struct prov_tgid_ent {
	int32_t tid, tgid;
};

struct prov_claim_ent {
	int evidx;
	const struct prov_ops *ops;
	uint64_t cookie;
	int own;	/* the event's recorded name is this provider's probe */
};

struct prov_registry {
	struct prov_config cfg;
	struct prov_claim_ent *claims;	/* replay: who fires for which event */
	size_t nclaims, claims_cap;
	struct prov_probe **probes;	/* index = id; [0] unused */
	uint32_t nprobes, cap;
	void *state[NPROV];
	prov_enabled_fn enabled;
	void *enabled_arg;
	struct prov_tgid_ent tgid_cache[4096];
	char group_names[16][128];
	const char *group_ptrs[16];
	int ngroup;
	char err[1024];
	char notices[2048];
	struct vclock *vclock;		/* vtimestamp, when the program reads it */
	struct prov_kb *kb;		/* the in-kernel probe, once wanted (kbsrc.c) */
};

struct prov_kb **
prov_kb_slot(struct prov_registry *r)
{
	return &r->kb;
}

static int
prov_index(const struct prov_ops *ops)
{
	for (size_t i = 0; i < NPROV; i++)
		if (prov_table[i] == ops)
			return (int)i;
	return -1;
}

const struct prov_config *
prov_cfg(const struct prov_registry *r)
{
	return &r->cfg;
}

void *
prov_state(struct prov_registry *r, const struct prov_ops *ops)
{
	int i = prov_index(ops);
	return i < 0 ? NULL : r->state[i];
}

void *
prov_state_get(struct prov_registry *r, const struct prov_ops *ops, size_t size)
{
	int i = prov_index(ops);
	if (i < 0)
		return NULL;
	if (!r->state[i] && !(r->state[i] = calloc(1, size)))
		prov_errf(r, "out of memory");
	return r->state[i];
}

void *
prov_state_grow(struct prov_registry *r, const struct prov_ops *ops, size_t old, size_t size)
{
	int i = prov_index(ops);
	char *n = i < 0 ? NULL : realloc(r->state[i], size);
	if (!n) {
		prov_errf(r, "out of memory");
		return NULL;
	}
	if (size > old)
		memset(n + old, 0, size - old);
	return r->state[i] = n;
}

int
prov_errf(struct prov_registry *r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->err, sizeof(r->err), fmt, ap);
	va_end(ap);
	return -1;
}

void
prov_notice(struct prov_registry *r, const char *fmt, ...)
{
	size_t used = strlen(r->notices);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->notices + used, sizeof(r->notices) - used, fmt, ap);
	va_end(ap);
	used = strlen(r->notices);
	if (used + 1 < sizeof(r->notices))
		strcat(r->notices, "\n");
}

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

struct prov_probe *
prov_by_id(struct prov_registry *r, uint32_t id)
{
	return id < r->nprobes ? r->probes[id] : NULL;
}

uint32_t
prov_nprobes(const struct prov_registry *r)
{
	return r->nprobes;
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

int
prov_is_enabled(struct prov_registry *r, uint32_t id)
{
	return r->enabled ? r->enabled(r->enabled_arg, id) : 0;
}

struct prov_probe *
prov_find(struct prov_registry *r, const char *prov, const char *mod,
    const char *func, const char *name)
{
	for (uint32_t i = 1; i < r->nprobes; i++) {
		const struct d_probe_info *pi = &r->probes[i]->pp_info;
		if (!strcmp(pi->dp_prov, prov) && !strcmp(pi->dp_mod, mod) &&
		    !strcmp(pi->dp_func, func) && !strcmp(pi->dp_name, name))
			return r->probes[i];
	}
	return NULL;
}

static int
prov_grow(struct prov_registry *r)
{
	uint32_t ncap = r->cap ? r->cap * 2 : 64;
	struct prov_probe **np = realloc(r->probes, ncap * sizeof(*np));
	if (!np)
		return -ENOMEM;
	r->probes = np;
	r->cap = ncap;
	return 0;
}

/* Find or create provider:mod:func:name; NULL only when out of memory. */
struct prov_probe *
prov_add(struct prov_registry *r, const struct prov_ops *ops, const char *mod,
    const char *func, const char *name)
{
	struct prov_probe *p = prov_find(r, ops->po_name, mod, func, name);
	if (p)
		return p;
	if (r->nprobes == r->cap && prov_grow(r) < 0)
		return NULL;
	if (!(p = calloc(1, sizeof(*p))))
		return NULL;
	snprintf(p->pp_names[0], sizeof(p->pp_names[0]), "%s", ops->po_name);
	snprintf(p->pp_names[1], sizeof(p->pp_names[1]), "%s", mod);
	snprintf(p->pp_names[2], sizeof(p->pp_names[2]), "%s", func);
	snprintf(p->pp_names[3], sizeof(p->pp_names[3]), "%s", name);
	p->pp_info.dp_id = r->nprobes;
	p->pp_info.dp_prov = p->pp_names[0];
	p->pp_info.dp_mod = p->pp_names[1];
	p->pp_info.dp_func = p->pp_names[2];
	p->pp_info.dp_name = p->pp_names[3];
	p->pp_ops = ops;
	r->probes[r->nprobes++] = p;
	return p;
}

void
prov_set_args(struct prov_probe *p, int nargs, const char *const *types)
{
	p->pp_info.dp_nargs = nargs;
	for (int i = 0; i < nargs && i < D_MAX_ARGS; i++) {
		snprintf(p->pp_types[i], sizeof(p->pp_types[i]), "%s", types[i]);
		p->pp_info.dp_argtypes[i] = p->pp_types[i];
	}
}

struct prov_probe *
prov_next(struct prov_registry *r, const struct prov_ops *ops, const struct prov_probe *p,
    int enabled)
{
	for (uint32_t id = p ? p->pp_info.dp_id + 1 : 1; id < r->nprobes; id++)
		if (r->probes[id]->pp_ops == ops && (!enabled || prov_is_enabled(r, id)))
			return r->probes[id];
	return NULL;
}

int
prov_has_glob(const char *s)
{
	return s && strpbrk(s, "*?[") != NULL;
}

int
prov_field_match(const char *pattern, const char *s)
{
	if (!pattern || !*pattern)
		return 1;
	return fnmatch(pattern, s, 0) == 0;
}

int
prov_desc_match(const struct d_probe_desc *pd, const struct d_probe_info *pi)
{
	return prov_field_match(pd->dpd_prov, pi->dp_prov) &&
	    prov_field_match(pd->dpd_mod, pi->dp_mod) &&
	    prov_field_match(pd->dpd_func, pi->dp_func) &&
	    prov_field_match(pd->dpd_name, pi->dp_name);
}

int
prov_emit_one(struct prov_probe *p, const struct d_probe_desc *pd, d_probe_cb cb, void *arg)
{
	if (!prov_desc_match(pd, &p->pp_info))
		return 0;
	return cb && cb(arg, &p->pp_info) < 0 ? -1 : 1;
}

int
prov_emit_matching(struct prov_registry *r, const struct prov_ops *ops,
    const struct d_probe_desc *pd, d_probe_cb cb, void *arg)
{
	int n = 0;
	for (struct prov_probe *p = NULL; (p = prov_next(r, ops, p, 0)); ) {
		int rc = prov_emit_one(p, pd, cb, arg);
		if (rc < 0)
			return -1;
		n += rc;
	}
	return n;
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

static int
prov_catalog_match(void *ctx, const struct d_probe_desc *pd, d_probe_cb cb,
    void *arg, char *errbuf, size_t errlen)
{
	struct prov_registry *r = ctx;
	int total = 0;
	r->err[0] = '\0';
	for (size_t i = 0; i < NPROV; i++) {
		if (!prov_names_ops(pd->dpd_prov, prov_table[i]))
			continue;
		int n = prov_table[i]->po_match(r, pd, cb, arg);
		if (n < 0) {
			snprintf(errbuf, errlen, "%s", r->err);
			return -1;
		}
		total += n;
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
	if (!pd)
		pd = &any;
	for (size_t i = 0; i < NPROV; i++) {
		if (!prov_names_ops(pd->dpd_prov, prov_table[i]))
			continue;
		if (prov_table[i]->po_list(r, pd, cb, arg) < 0)
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
	for (size_t i = 0; i < NPROV; i++)
		if (r->state[i]) {
			free(r->state[i]);
			r->state[i] = NULL;
		}
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

void
prov_note_switch(struct prov_registry *r, const struct smp_record *rec)
{
	if (r->vclock)
		vclock_switch(r->vclock, rec->cpu, rec->tid, rec->time,
		    !(rec->misc & PERF_RECORD_MISC_SWITCH_OUT));
}

uint64_t
prov_vtimestamp(struct prov_registry *r, uint32_t cpu, int32_t tid, uint64_t ns)
{
	return r->vclock ? vclock_at(r->vclock, cpu, tid, ns) : 0;
}

int
prov_enable(struct prov_registry *r, struct smp_session *s,
    prov_enabled_fn enabled, void *enabled_arg)
{
	r->enabled = enabled;
	r->enabled_arg = enabled_arg;
	if (r->cfg.replay)
		return 0;
	for (size_t i = 0; i < NPROV; i++)
		if (prov_table[i]->po_enable && prov_table[i]->po_enable(r, s) < 0)
			return -1;
	return 0;
}

const struct prov_ops *
prov_claimed_own(const struct prov_registry *r, int evidx)
{
	for (size_t i = 0; i < r->nclaims; i++)
		if (r->claims[i].evidx == evidx && r->claims[i].own)
			return r->claims[i].ops;
	return NULL;
}

static int
prov_claim_add(struct prov_registry *r, int evidx, const struct prov_ops *ops,
    uint64_t cookie, int own)
{
	for (size_t i = 0; i < r->nclaims; i++)
		if (r->claims[i].evidx == evidx && r->claims[i].own && r->claims[i].ops != ops)
			return 0;
	if (r->nclaims == r->claims_cap) {
		size_t ncap = r->claims_cap ? r->claims_cap * 2 : 16;
		struct prov_claim_ent *n = realloc(r->claims, ncap * sizeof(*n));
		if (!n)
			return prov_errf(r, "out of memory");
		r->claims = n;
		r->claims_cap = ncap;
	}
	r->claims[r->nclaims++] = (struct prov_claim_ent){ evidx, ops, cookie, own };
	return 0;
}

int
prov_claim(struct prov_registry *r, int evidx, const struct prov_ops *ops, uint64_t cookie)
{
	return prov_claim_add(r, evidx, ops, cookie, 0);
}

int
prov_claim_own(struct prov_registry *r, int evidx, const struct prov_ops *ops, uint64_t cookie)
{
	return prov_claim_add(r, evidx, ops, cookie, 1);
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

int
prov_dispatch(struct prov_registry *r, const struct smp_record *rec,
    prov_fire_fn fire, void *arg)
{
	if (rec->type == PERF_RECORD_MMAP || rec->type == PERF_RECORD_MMAP2) {
		for (size_t i = 0; i < sizeof(prov_mmap_table) / sizeof(prov_mmap_table[0]); i++) {
			int rc = prov_mmap_table[i]->po_decode(r, rec, 0, fire, arg);
			if (rc)
				return rc;
		}
		return 0;
	}
	if (!rec->spec || !rec->spec->owner)
		return 0;
	const struct prov_ops *ops = rec->spec->owner;
	return ops->po_decode ? ops->po_decode(r, rec, rec->spec->cookie, fire, arg) : 0;
}

int32_t
prov_tgid(struct prov_registry *r, int32_t tid)
{
	struct prov_tgid_ent *e = &r->tgid_cache[(uint32_t)tid % 4096];
	if (tid <= 0)
		return tid;
	if (e->tid == tid)
		return e->tgid;
	char path[64], line[128];
	int32_t tgid = tid;
	snprintf(path, sizeof(path), "/proc/%d/status", tid);
	FILE *f = fopen(path, "r");
	if (f) {
		while (fgets(line, sizeof(line), f))
			if (!strncmp(line, "Tgid:", 5)) {
				tgid = (int32_t)strtol(line + 5, NULL, 10);
				break;
			}
		fclose(f);
	}
	e->tid = tid;
	e->tgid = tgid;
	return tgid;
}

int
prov_note_group_counter(struct prov_registry *r, const char *name)
{
	if (r->ngroup == 16)
		return prov_errf(r, "too many counters read at each switch");
	snprintf(r->group_names[r->ngroup], sizeof(r->group_names[0]), "%s", name);
	r->group_ptrs[r->ngroup] = r->group_names[r->ngroup];
	return r->ngroup++;
}

int
prov_group_counters(struct prov_registry *r, const char *const **names)
{
	*names = r->group_ptrs;
	return r->ngroup;
}

void
prov_remove_leftovers(int32_t owner)
{
	pid_remove_leftovers(owner);
}

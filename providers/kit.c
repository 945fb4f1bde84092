/*
 * kit.c — the registry services every provider is written against
 * (prov_kit.h): probes by id, per-provider state, description matching,
 * replay claims, errors and notices, and the small per-run caches
 * (thread groups, the ::pmc: group's counter names).
 *
 * Probes live in an array indexed by id, each allocated once so that the
 * d_probe_info pointers handed to the compiler stay valid for the run.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "providers/kbsrc.h"
#include "providers/registry_impl.h"
#include "providers/vclock.h"

struct prov_kb **
prov_kb_slot(struct prov_registry *r)
{
	return &r->kb;
}

const struct prov_config *
prov_cfg(const struct prov_registry *r)
{
	return &r->cfg;
}

static struct prov_state_ent *
prov_state_ent(struct prov_registry *r, const struct prov_ops *ops)
{
	for (int i = 0; i < r->nstate; i++)
		if (r->state[i].ops == ops)
			return &r->state[i];
	return NULL;
}

void *
prov_state(struct prov_registry *r, const struct prov_ops *ops)
{
	struct prov_state_ent *e = prov_state_ent(r, ops);
	return e ? e->st : NULL;
}

void *
prov_tp_state(struct prov_registry *r, const struct prov_ops *ops, const struct smp_record *rec)
{
	return rec->type == PERF_RECORD_SAMPLE && rec->raw ? prov_state(r, ops) : NULL;
}

int
prov_replay_unseen(struct prov_registry *r, const struct prov_ops *ops)
{
	return r->cfg.replay && !prov_state(r, ops);
}

void *
prov_state_get(struct prov_registry *r, const struct prov_ops *ops, size_t size)
{
	struct prov_state_ent *e = prov_state_ent(r, ops);
	if (e)
		return e->st;
	void *st = r->nstate < PROV_MAX_STATES ? calloc(1, size) : NULL;
	if (!st) {
		prov_errf(r, "out of memory");
		return NULL;
	}
	r->state[r->nstate++] = (struct prov_state_ent){ ops, st };
	return st;
}

void *
prov_state_grow(struct prov_registry *r, const struct prov_ops *ops, size_t old, size_t size)
{
	struct prov_state_ent *e = prov_state_ent(r, ops);
	char *n = e ? realloc(e->st, size) : NULL;
	if (!n) {
		prov_errf(r, "out of memory");
		return NULL;
	}
	if (size > old)
		memset(n + old, 0, size - old);
	return e->st = n;
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

int
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

uint64_t
prov_vtimestamp(struct prov_registry *r, uint32_t cpu, int32_t tid, uint64_t ns)
{
	return r->vclock ? vclock_at(r->vclock, cpu, tid, ns) : 0;
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

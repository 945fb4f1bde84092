/*
 * tpbacked.c — the plumbing every tracepoint-backed provider (io, tcp,
 * udp, sysinfo, vminfo) shares, driven by its struct prov_tpb table: the
 * contract is beside the table in tpbacked.h.
 */
#include <stdlib.h>
#include <string.h>

#include "providers/tpbacked.h"

/* Make every probe of the table (prov_add finds those made before) and
 * hand the ones pd matches to cb; returns how many matched. */
static int
prov_tpb_emit(const struct prov_tpb *tb, struct prov_registry *r,
    const struct d_probe_desc *pd, d_probe_cb cb, void *arg)
{
	for (int k = 0; k < tb->tb_nprobes; k++) {
		struct prov_probe *p = prov_add(r, tb->tb_ops, "", "", tb->tb_probes[k]);
		if (!p)
			return prov_errf(r, "out of memory");
		p->pp_param[0] = (uint64_t)k;
		prov_set_args(p, tb->tb_nargs, tb->tb_argtypes);
		if (tb->tb_decls)
			p->pp_info.dp_decls = tb->tb_decls;
	}
	return prov_emit_matching(r, tb->tb_ops, pd, cb, arg);
}

static struct prov_tpb_state *
prov_tpb_state_get(const struct prov_tpb *tb, struct prov_registry *r)
{
	size_t size = tb->tb_state_size ? tb->tb_state_size : sizeof(struct prov_tpb_state);
	return prov_state_get(r, tb->tb_ops, size);
}

/* The state exists once the provider is named by a script or a file. */
int
prov_tpb_match(const struct prov_tpb *tb, struct prov_registry *r,
    const struct d_probe_desc *pd, d_probe_cb cb, void *arg)
{
	return prov_tpb_state_get(tb, r) ? prov_tpb_emit(tb, r, pd, cb, arg) : -1;
}

/* A replay lists the provider only when the file recorded its events. */
int
prov_tpb_list(const struct prov_tpb *tb, struct prov_registry *r,
    const struct d_probe_desc *pd, d_probe_cb cb, void *arg)
{
	if (prov_replay_unseen(r, tb->tb_ops))
		return 0;
	return prov_tpb_emit(tb, r, pd, cb, arg);
}

/* The program is compiled by the time this runs: which probes it uses. */
static void
prov_tpb_plan(const struct prov_tpb *tb, struct prov_registry *r, struct prov_tpb_state *st)
{
	for (struct prov_probe *p = NULL; (p = prov_next(r, tb->tb_ops, p, 1)); )
		st->tbs_probe[p->pp_param[0]] = p->pp_info.dp_id;
	st->tbs_planned = 1;
}

static void
prov_tpb_want(const struct prov_tpb *tb, const struct prov_tpb_state *st, int *want)
{
	if (tb->tb_want) {
		tb->tb_want(st->tbs_probe, want);
		return;
	}
	for (int e = 0; e < tb->tb_nevents; e++)
		want[e] = st->tbs_probe[e] != 0;
}

/* Event e on every CPU; an optional one the kernel lacks is left out. */
static int
prov_tpb_add(const struct prov_tpb *tb, struct prov_registry *r, struct smp_session *s,
    struct prov_tpb_state *st, int e)
{
	const struct prov_tpb_event *ev = &tb->tb_events[e];
	if (prov_tp_load(r, ev->te_system, ev->te_event, &st->tbs_tp[e]) < 0)
		return ev->te_flags & PROV_TPB_OPTIONAL ? 0 : -1;
	return prov_tp_add(r, s, tb->tb_ops, &st->tbs_tp[e], (uint64_t)e, -1, 0) < 0 ? -1 : 0;
}

int
prov_tpb_enable(const struct prov_tpb *tb, struct prov_registry *r, struct smp_session *s)
{
	struct prov_tpb_state *st = prov_state(r, tb->tb_ops);
	int want[PROV_TPB_MAX_EVENTS] = { 0 };
	if (!st)
		return 0;
	prov_tpb_plan(tb, r, st);
	prov_tpb_want(tb, st, want);
	for (int e = 0; e < tb->tb_nevents; e++)
		if (want[e] && prov_tpb_add(tb, r, s, st, e) < 0)
			return -1;
	return tb->tb_enable_extra ? tb->tb_enable_extra(r, s, st) : 0;
}

/* Whether a perf event is named "system:event". */
static int
prov_tpb_named(const char *name, const struct prov_tpb_event *ev)
{
	size_t n = strlen(ev->te_system);
	return !strncmp(name, ev->te_system, n) && name[n] == ':' && !strcmp(name + n + 1, ev->te_event);
}

/* The cookie of a recorded event, -1 when it is not this provider's. */
static int
prov_tpb_recorded(const struct prov_tpb *tb, const struct smp_event_spec *ev)
{
	if (ev->attr.type != PERF_TYPE_TRACEPOINT)
		return tb->tb_claim_extra ? tb->tb_claim_extra(ev) : -1;
	for (int e = 0; ev->name && e < tb->tb_nevents; e++)
		if (prov_tpb_named(ev->name, &tb->tb_events[e]))
			return e;
	return -1;
}

/* A recorded event makes every probe exist (so globs and -l see them)
 * and needs its layout from tracefs unless decoded at fixed offsets. */
int
prov_tpb_claim(const struct prov_tpb *tb, struct prov_registry *r, struct smp_session *s,
    int evidx)
{
	int e = prov_tpb_recorded(tb, smp_event(s, evidx));
	if (e < 0)
		return 0;
	struct prov_tpb_state *st = prov_tpb_state_get(tb, r);
	if (!st)
		return -1;
	const struct prov_tpb_event *ev = e < tb->tb_nevents ? &tb->tb_events[e] : NULL;
	/* The file may hold a tracepoint twice (tcp and udp each record
	 * sock:sock_send_length; each copy has every firing): one is this
	 * provider's, or it fires twice per event. */
	if (ev && st->tbs_claimed[e])
		return 0;
	if (ev)
		st->tbs_claimed[e] = 1;
	if (ev && !(ev->te_flags & PROV_TPB_FIXED_LAYOUT) &&
	    prov_tp_load(r, ev->te_system, ev->te_event, &st->tbs_tp[e]) < 0)
		return -1;
	if (prov_tpb_emit(tb, r, &(struct d_probe_desc){ 0 }, NULL, NULL) < 0)
		return -1;
	return prov_claim(r, evidx, tb->tb_ops, (uint64_t)e);
}

int
prov_tpb_decode(const struct prov_tpb *tb, struct prov_registry *r,
    const struct smp_record *rec, uint64_t cookie, prov_fire_fn fire, void *arg)
{
	struct prov_tpb_state *st = prov_state(r, tb->tb_ops);
	if (!st || rec->type != PERF_RECORD_SAMPLE ||
	    cookie >= (uint64_t)(tb->tb_nevents + tb->tb_nextra) ||
	    (cookie < (uint64_t)tb->tb_nevents && !rec->raw))
		return 0;
	/* a replay never calls enable: plan at the first record */
	if (!st->tbs_planned)
		prov_tpb_plan(tb, r, st);
	return tb->tb_decode(r, st, rec, cookie, fire, arg);
}

int
prov_tpb_fire(uint32_t id, struct d_firing *f, prov_fire_fn fire, void *arg)
{
	if (!id)
		return 0;
	f->df_probe = id;
	return fire(arg, f);
}

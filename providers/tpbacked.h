/*
 * tpbacked.h — tracepoint-backed providers (tpbacked.c): io, tcp, udp,
 * sysinfo and vminfo are each a table — probe names (module and function
 * ""), one arg list and its D declarations, the kernel tracepoints they
 * read — and a decode function; tpbacked.c does the plumbing.  Probes are
 * made on match and on -l (in a replay only once the file holds one of
 * the events).  Live, the enabled probes' ids go to tbs_probe[] by probe
 * index, and each event they need is added with its index as cookie;
 * replayed, a recorded event is claimed by its "system:event" name.
 * A record reaches tb_decode only once it is a sample of one of these
 * events, with a raw payload if it is a tracepoint's.  The provider's own
 * state struct begins with struct prov_tpb_state (tb_state_size: its size;
 * 0 when it is that struct alone).
 * PROV_TPB_OPS() defines the provider's prov_ops from its table.
 */
#ifndef PMCTRACE_TPBACKED_H
#define PMCTRACE_TPBACKED_H

#include "providers/tracefs.h"

#define PROV_TPB_MAX_EVENTS 10
#define PROV_TPB_MAX_PROBES 8
enum {
	PROV_TPB_OPTIONAL = 1,		/* live: absent on older kernels, skipped */
	PROV_TPB_FIXED_LAYOUT = 2,	/* decoded at fixed offsets: replay needs no tracefs */
};
struct prov_tpb_event {
	const char *te_system, *te_event;
	int te_flags;			/* PROV_TPB_* */
};
struct prov_tpb_state {
	struct prov_tp tbs_tp[PROV_TPB_MAX_EVENTS];	/* by event index */
	uint32_t tbs_probe[PROV_TPB_MAX_PROBES];	/* enabled probe ids, else 0 */
	int tbs_planned;
	uint8_t tbs_claimed[PROV_TPB_MAX_EVENTS];	/* replay: an event of the file has it */
};
struct prov_tpb {
	const struct prov_ops *tb_ops;
	const char *const *tb_probes;	/* probe names; pp_param[0] = the index */
	int tb_nprobes;
	const char *const *tb_argtypes;
	int tb_nargs;
	const char *tb_decls;		/* D declarations the arg types need, or NULL */
	const struct prov_tpb_event *tb_events;
	int tb_nevents;
	size_t tb_state_size;		/* 0: sizeof(struct prov_tpb_state) */
	/* Which events the enabled probes need (want[e] = 1); NULL: probe k
	 * is fed by event k alone. */
	void (*tb_want)(const uint32_t *probe, int *want);
	/* Events that are not tracepoints (no raw payload), cookies from
	 * tb_nevents on: how many, adding them live, and the cookie of a
	 * recorded one (-1: not ours).  NULL/0 when there are none. */
	int tb_nextra;
	int (*tb_enable_extra)(struct prov_registry *r, struct smp_session *s,
	    const struct prov_tpb_state *st);
	int (*tb_claim_extra)(const struct smp_event_spec *ev);
	int (*tb_decode)(struct prov_registry *r, struct prov_tpb_state *st,
	    const struct smp_record *rec, uint64_t cookie, prov_fire_fn fire, void *arg);
};
int prov_tpb_list(const struct prov_tpb *tb, struct prov_registry *r,
    const struct d_probe_desc *pd, d_probe_cb cb, void *arg);
int prov_tpb_match(const struct prov_tpb *tb, struct prov_registry *r,
    const struct d_probe_desc *pd, d_probe_cb cb, void *arg);
int prov_tpb_enable(const struct prov_tpb *tb, struct prov_registry *r, struct smp_session *s);
int prov_tpb_claim(const struct prov_tpb *tb, struct prov_registry *r, struct smp_session *s,
    int evidx);
int prov_tpb_decode(const struct prov_tpb *tb, struct prov_registry *r,
    const struct smp_record *rec, uint64_t cookie, prov_fire_fn fire, void *arg);
/* Fire probe id with f, unless id is 0 (the probe is not enabled). */
int prov_tpb_fire(uint32_t id, struct d_firing *f, prov_fire_fn fire, void *arg);

/* const struct prov_ops ops = name's ops, each a call into tpbacked.c
 * with the table tb (the registry's ops carry no table pointer). */
#define PROV_TPB_OPS(ops, name, tb)							\
static int ops##_list(struct prov_registry *r, const struct d_probe_desc *pd,	\
    d_probe_cb cb, void *arg) { return prov_tpb_list(&(tb), r, pd, cb, arg); }	\
static int ops##_match(struct prov_registry *r, const struct d_probe_desc *pd,	\
    d_probe_cb cb, void *arg) { return prov_tpb_match(&(tb), r, pd, cb, arg); }	\
static int ops##_enable(struct prov_registry *r, struct smp_session *s)		\
    { return prov_tpb_enable(&(tb), r, s); }					\
static int ops##_claim(struct prov_registry *r, struct smp_session *s, int evidx)	\
    { return prov_tpb_claim(&(tb), r, s, evidx); }				\
static int ops##_decode(struct prov_registry *r, const struct smp_record *rec,	\
    uint64_t cookie, prov_fire_fn fire, void *arg)				\
    { return prov_tpb_decode(&(tb), r, rec, cookie, fire, arg); }		\
const struct prov_ops ops = {							\
	.po_name = (name), .po_list = ops##_list, .po_match = ops##_match,	\
	.po_enable = ops##_enable, .po_claim = ops##_claim,			\
	.po_decode = ops##_decode,						\
}

#endif

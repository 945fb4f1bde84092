/*
 * registry_impl.h — the registry's state, shared by the two files that
 * keep it: kit.c (the services providers call: probes, state, claims,
 * errors) and registry.c (the provider table and what the rest of
 * pmctrace calls: open, catalog, enable, dispatch).  kit.c knows no
 * provider, so providers and the table sit on either side of it.
 */
#ifndef PMCTRACE_REGISTRY_IMPL_H
#define PMCTRACE_REGISTRY_IMPL_H

#include "providers/prov_kit.h"

#define PROV_MAX_STATES 32

struct vclock;

struct prov_tgid_ent {
	int32_t tid, tgid;
};

struct prov_claim_ent {
	int evidx;
	const struct prov_ops *ops;
	uint64_t cookie;
	int own;	/* the event's recorded name is this provider's probe */
};

struct prov_state_ent {
	const struct prov_ops *ops;
	void *st;			/* prov_state_get()'s block, freed at close */
};

struct prov_registry {
	struct prov_config cfg;
	struct prov_claim_ent *claims;	/* replay: who fires for which event */
	size_t nclaims, claims_cap;
	struct prov_probe **probes;	/* index = id; [0] unused */
	uint32_t nprobes, cap;
	struct prov_state_ent state[PROV_MAX_STATES];
	int nstate;
	prov_enabled_fn enabled;
	void *enabled_arg;
	struct smp_session *smp;	/* live: where /proc facts are recorded */
	prov_fire_fn sink;		/* where prov_route's firings go */
	void *sink_arg;
	struct prov_tgid_ent tgid_cache[4096];
	char group_names[16][128];
	const char *group_ptrs[16];
	int ngroup;
	char err[1024];
	char notices[2048];
	struct vclock *vclock;		/* vtimestamp, when the program reads it */
	struct prov_kb *kb;		/* the in-kernel probe, once wanted (kbsrc.c) */
};

/* Room for one more probe pointer (0 or -ENOMEM). */
int prov_grow(struct prov_registry *r);

#endif

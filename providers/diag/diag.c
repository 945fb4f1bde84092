/*
 * diag.c — the diag provider (the seeds' names): what the run itself lost,
 * as probes a script can count.  Its probes fire on records the other
 * probes' events bring, so it opens no event of its own.
 *
 *   lostevent      a PERF_RECORD_LOST (the kernel's ring was full: the
 *                  perf path's and the in-kernel probe's records alike) or
 *                  PERF_RECORD_LOST_SAMPLES record; args[0] = how many
 *                  records were lost, cpu the CPU whose ring lost them.
 *                  The sum is the "drops on CPU" lines' sum, except a ring
 *                  found corrupt (counted as one drop, with no record).
 *   throttle       a PERF_RECORD_THROTTLE record: the kernel slowed an
 *                  event firing faster than kernel.perf_event_max_sample_rate
 *                  (not a loss); args[0] = the event's name.
 *   missed-stack   a sample whose kernel stack was asked for (the program
 *                  calls stack()) and came back empty though the sample
 *                  was taken in the kernel, or cut at the kernel's frame
 *                  limit; args[0] = the frames it holds.
 *   missed-ustack  the same for the user stack (ustack()): a user-mode
 *                  sample without user frames, or one cut at the limit.
 *
 * Firing context: the record's CPU, process and time where it has them.
 */
#include <stdio.h>
#include <string.h>

#include "providers/prov_kit.h"

enum { DK_LOST, DK_THROTTLE, DK_MSTACK, DK_MUSTACK, DK_N };

static const struct {
	const char *name, *type;
} diag_probes[DK_N] = {
	[DK_LOST] = { "lostevent", "uint64_t" },
	[DK_THROTTLE] = { "throttle", "string" },
	[DK_MSTACK] = { "missed-stack", "int" },
	[DK_MUSTACK] = { "missed-ustack", "int" },
};

struct diag_state {
	uint32_t probe[DK_N];	/* enabled probe ids */
	int planned;
	uint32_t max_stack;	/* kernel.perf_event_max_stack */
};

static int
diag_emit(struct prov_registry *r, const struct d_probe_desc *pd, d_probe_cb cb, void *arg)
{
	int n = 0;
	for (int k = 0; k < DK_N; k++) {
		struct prov_probe *p = prov_add(r, &prov_diag_ops, "", "", diag_probes[k].name);
		if (!p)
			return prov_errf(r, "out of memory");
		p->pp_param[0] = (uint64_t)k;
		prov_set_args(p, 1, &diag_probes[k].type);
		int rc = prov_emit_one(p, pd, cb, arg);
		if (rc < 0)
			return -1;
		n += rc;
	}
	return n;
}

static int
diag_match(struct prov_registry *r, const struct d_probe_desc *pd, d_probe_cb cb, void *arg)
{
	if (!prov_state_get(r, &prov_diag_ops, sizeof(struct diag_state)))
		return -1;
	return diag_emit(r, pd, cb, arg);
}

static uint32_t
diag_sysctl_max_stack(void)
{
	unsigned v = 127;	/* the kernel's default */
	FILE *f = fopen("/proc/sys/kernel/perf_event_max_stack", "r");
	if (f) {
		if (fscanf(f, "%u", &v) != 1)
			v = 127;
		fclose(f);
	}
	return v;
}

static void
diag_plan(struct prov_registry *r, struct diag_state *st)
{
	memset(st->probe, 0, sizeof(st->probe));
	for (struct prov_probe *p = NULL; (p = prov_next(r, &prov_diag_ops, p, 1)); )
		st->probe[p->pp_param[0]] = p->pp_info.dp_id;
	st->max_stack = diag_sysctl_max_stack();
	st->planned = 1;
}

static int
diag_fire(struct prov_registry *r, uint32_t id, const struct smp_record *rec, uint64_t a0,
    prov_fire_fn fire, void *arg)
{
	uint64_t kbuf[128], ubuf[128];
	struct d_firing f;
	prov_firing_from_sample(r, rec, &f, kbuf, ubuf, 128);
	f.df_probe = id;
	f.df_args[0] = a0;
	f.df_nargs = 1;
	return fire(arg, &f);
}

/* Kernel and user frames of a sample's callchain (markers excluded). */
static void
diag_frames(const struct smp_record *rec, uint32_t *kf, uint32_t *uf)
{
	int user = 0;
	*kf = *uf = 0;
	for (uint32_t i = 0; i < rec->nr_callchain; i++) {
		uint64_t pc = rec->callchain[i];
		if (pc >= (uint64_t)-4095) {	/* PERF_CONTEXT_* */
			user = pc == (uint64_t)PERF_CONTEXT_USER;
			continue;
		}
		if (user)
			++*uf;
		else
			++*kf;
	}
}

static int
diag_stacks(struct prov_registry *r, struct diag_state *st, const struct smp_record *rec,
    prov_fire_fn fire, void *arg)
{
	const struct perf_event_attr *a = rec->spec ? &rec->spec->attr : NULL;
	int want = prov_cfg(r)->want_callchains;
	if (!a || !(a->sample_type & PERF_SAMPLE_CALLCHAIN) ||
	    !(st->probe[DK_MSTACK] || st->probe[DK_MUSTACK]))
		return 0;
	uint32_t kf, uf, max = a->sample_max_stack ? a->sample_max_stack : st->max_stack;
	diag_frames(rec, &kf, &uf);
	uint16_t mode = rec->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	int cut = kf + uf >= max;
	int rc = 0;
	if ((want & 1) && st->probe[DK_MSTACK] &&
	    ((mode == PERF_RECORD_MISC_KERNEL && kf == 0) || (cut && uf == 0)))
		rc = diag_fire(r, st->probe[DK_MSTACK], rec, kf, fire, arg);
	if (!rc && (want & 2) && st->probe[DK_MUSTACK] &&
	    ((mode == PERF_RECORD_MISC_USER && uf == 0) || (cut && uf > 0)))
		rc = diag_fire(r, st->probe[DK_MUSTACK], rec, uf, fire, arg);
	return rc;
}

int
prov_diag_record(struct prov_registry *r, const struct smp_record *rec, prov_fire_fn fire,
    void *arg)
{
	struct diag_state *st = prov_state(r, &prov_diag_ops);
	if (!st)
		return 0;
	if (!st->planned)
		diag_plan(r, st);
	switch (rec->type) {
	case PERF_RECORD_SAMPLE:
		return diag_stacks(r, st, rec, fire, arg);
	case PERF_RECORD_LOST: case PERF_RECORD_LOST_SAMPLES:
		/* the decoder leaves the count in period */
		return st->probe[DK_LOST] && rec->period ?
		    diag_fire(r, st->probe[DK_LOST], rec, rec->period, fire, arg) : 0;
	case PERF_RECORD_THROTTLE: {
		const char *name = rec->spec && rec->spec->name ? rec->spec->name : "";
		return st->probe[DK_THROTTLE] ?
		    diag_fire(r, st->probe[DK_THROTTLE], rec, (uint64_t)(uintptr_t)name, fire, arg) : 0;
	}
	default:
		return 0;
	}
}

const struct prov_ops prov_diag_ops = {
	.po_name = "diag", .po_list = diag_emit, .po_match = diag_match,
};

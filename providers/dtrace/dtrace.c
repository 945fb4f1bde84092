/*
 * dtrace.c — the dtrace provider: BEGIN, END and ERROR.
 *
 * The engine fires them itself (d_go, d_stop, runtime faults); this
 * provider only makes them known to the catalog with ids 1, 2 and 3.
 */
#include "providers/prov_kit.h"

static const char *const dtrace_names[] = { "BEGIN", "END", "ERROR" };
static const char *const dtrace_error_args[] = {
	"uint64_t", "uint64_t", "uint64_t", "uint64_t", "uint64_t", "uint64_t",
};

static int
dtrace_emit(struct prov_registry *r, const struct d_probe_desc *pd,
    d_probe_cb cb, void *arg)
{
	for (int i = 0; i < 3; i++) {
		struct prov_probe *p = prov_add(r, &prov_dtrace_ops, "", "", dtrace_names[i]);
		if (!p)
			return prov_errf(r, "out of memory");
		if (i == 2)
			prov_set_args(p, 6, dtrace_error_args);
	}
	/* prov_open() makes them with no description, to fix their ids */
	return cb ? prov_emit_matching(r, &prov_dtrace_ops, pd, cb, arg) : 0;
}

const struct prov_ops prov_dtrace_ops = {
	.po_name = "dtrace", .po_list = dtrace_emit, .po_match = dtrace_emit,
};

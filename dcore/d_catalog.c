/*
 * d_catalog.c — the questions the compiler asks the probe catalog before
 * any probe is enabled: which probes a description matches when no
 * catalog is installed (only the dtrace provider's BEGIN, END and ERROR),
 * and whether a provider exists at all (#pragma D depends_on).  Calls no
 * compiler stage.
 */
#include <string.h>

#include "dcore/d_impl.h"

/* Without a catalog only the dtrace provider exists (unit tests). */
int
d_builtin_match(const struct d_probe_desc *pd, d_probe_cb cb, void *arg)
{
	static const char *const names[] = { NULL, "BEGIN", "END", "ERROR" };
	int n = 0;
	if (pd->dpd_prov[0] && strcmp(pd->dpd_prov, "dtrace") != 0)
		return 0;
	if (pd->dpd_mod[0] || pd->dpd_func[0])
		return 0;
	for (uint32_t id = 1; id <= 3; id++) {
		if (pd->dpd_name[0] && strcmp(pd->dpd_name, names[id]) != 0)
			continue;
		struct d_probe_info pi;
		memset(&pi, 0, sizeof(pi));
		pi.dp_id = id;
		pi.dp_prov = "dtrace";
		pi.dp_mod = pi.dp_func = "";
		pi.dp_name = names[id];
		cb(arg, &pi);
		n++;
	}
	return n;
}

static int
d_count_cb(void *arg, const struct d_probe_info *pi)
{
	(void)pi;
	++*(int *)arg;
	return 0;
}

/* Does any probe of provider prov exist (#pragma D depends_on provider)? */
bool
d_provider_exists(d_hdl_t *dh, const char *prov)
{
	struct d_probe_desc pd = { prov, "", "", "" };
	char err[256];
	int n = 0;
	if (dh->dh_cat)
		dh->dh_cat->dc_match(dh->dh_cat->dc_ctx, &pd, d_count_cb, &n, err, sizeof(err));
	else
		d_builtin_match(&pd, d_count_cb, &n);
	return n > 0;
}

/*
 * list.c — -l and -lv: probes in dtrace -l's columns.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli_impl.h"

struct cli_list_ctx {
	struct cli_ctx *cx;
	int count;
};

static void
cli_list_verbose(const struct d_probe_info *pi)
{
	printf("\n\tProbe Description Attributes\n"
	    "\t\tIdentifier Names: Private\n\t\tData Semantics:   Private\n"
	    "\t\tDependency Class: Unknown\n\n"
	    "\tArgument Attributes\n"
	    "\t\tIdentifier Names: Private\n\t\tData Semantics:   Private\n"
	    "\t\tDependency Class: ISA\n\n\tArgument Types\n");
	if (pi->dp_nargs == 0)
		printf("\t\tNone\n");
	for (int i = 0; i < pi->dp_nargs; i++)
		printf("\t\targs[%d]: %s\n", i, pi->dp_xargtypes[i] ? pi->dp_xargtypes[i] :
		    pi->dp_argtypes[i]);
	printf("\n");
}

static int
cli_list_one(void *arg, const struct d_probe_info *pi)
{
	struct cli_list_ctx *lc = arg;
	printf("%5u %10s %17s %33s %s\n", pi->dp_id, pi->dp_prov, pi->dp_mod,
	    pi->dp_func, pi->dp_name);
	if (lc->cx->opts->verbose)
		cli_list_verbose(pi);
	lc->count++;
	return 0;
}

/* Only -P, -m and -f: pure descriptions, listed without compiling (so
 * -l -P pmc shows every counter here, not just the probes a program made). */
int
cli_list_descriptions_only(const struct cli_opts *o)
{
	for (int i = 0; i < o->nprogs; i++)
		if (o->progs[i].kind == CLI_PROG_N || o->progs[i].kind == CLI_PROG_S)
			return 0;
	return o->nprogs > 0;
}

/* "-m prov:mod" / "-f prov:mod:func": fields from the right. */
static void
cli_desc_fields(const struct cli_prog *p, char *buf, size_t len, struct d_probe_desc *pd)
{
	const char **field[3] = { &pd->dpd_func, &pd->dpd_mod, &pd->dpd_prov };
	int first = p->kind == CLI_PROG_F ? 0 : p->kind == CLI_PROG_M ? 1 : 2;
	snprintf(buf, len, "%s", p->arg);
	pd->dpd_prov = pd->dpd_mod = pd->dpd_func = pd->dpd_name = "";
	for (int f = first; f < 3; f++) {
		char *colon = strrchr(buf, ':');
		*field[f] = colon ? colon + 1 : buf;
		if (!colon)
			break;
		*colon = '\0';
	}
}

int
cli_list(struct cli_ctx *cx)
{
	struct cli_list_ctx lc = { cx, 0 };
	printf("%5s %10s %17s %33s %s\n", "ID", "PROVIDER", "MODULE", "FUNCTION", "NAME");
	if (cli_list_descriptions_only(cx->opts)) {
		for (int i = 0; i < cx->opts->nprogs; i++) {
			char buf[256];
			struct d_probe_desc pd;
			cli_desc_fields(&cx->opts->progs[i], buf, sizeof(buf), &pd);
			if (prov_list(cx->reg, &pd, cli_list_one, &lc) < 0) {
				fprintf(stderr, "%s: %s\n", cx->opts->progname, prov_errmsg(cx->reg));
				return 1;
			}
		}
		return 0;
	}
	if (cx->opts->nprogs) {
		for (uint32_t id = 1; prov_probe(cx->reg, id); id++)
			if (d_probe_enabled(cx->dh, id))
				cli_list_one(&lc, prov_probe(cx->reg, id));
		return 0;
	}
	if (prov_list(cx->reg, NULL, cli_list_one, &lc) < 0) {
		fprintf(stderr, "%s: %s\n", cx->opts->progname, prov_errmsg(cx->reg));
		return 1;
	}
	return 0;
}

/*
 * d_act.c — actions: what OP_ACT does with a site and its arguments.
 *
 * Every action writes into vm->vm_out, which is the clause's buffer (or a
 * speculation's): a clause's records become visible only when the clause
 * completes without a fault, as DTrace commits an ECB's records.  Value
 * arguments are encoded with d_vm_encode() into the handle's encoding
 * buffer and handed to dfmt/dagg, which never see D types.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "dcore/d_impl.h"

void
d_vm_outstart(struct d_vm *vm)
{
	if (!vm->vm_outused) {
		vm->vm_outused = 1;
		fseeko(vm->vm_dh->dh_clbuf, 0, SEEK_SET);
	}
}

/* Non-quiet probe line ("CPU ID FUNCTION:NAME" header once, then the
 * "  0      1                           :BEGIN " prefix). */
void
d_vm_prolog(struct d_vm *vm)
{
	struct d_hdl *dh = vm->vm_dh;
	if (dh->dh_opt[O_QUIET])
		return;
	d_vm_outstart(vm);
	/* the column header belongs to the principal output, never to a
	 * speculation (it is printed before the first committed line) */
	if (!dh->dh_header_done && !vm->vm_header && !vm->vm_spec) {
		dfmt_header(vm->vm_out);
		vm->vm_header = 1;
	}
	dfmt_probe_prefix(vm->vm_out, vm->vm_f->df_cpu, vm->vm_probe->pr_id,
	    vm->vm_probe->pr_func, vm->vm_probe->pr_name);
	vm->vm_prolog = 1;
}

/* Encode the site's arguments; args[i] points at each encoding. */
static int
d_act_encode(struct d_vm *vm, const struct d_actsite *as, const uint64_t *r,
    const void **args)
{
	struct d_hdl *dh = vm->vm_dh;
	size_t off = 0;
	for (int i = 0; i < as->as_nargs; i++) {
		size_t need = dfmt_vsize(&as->as_vd[i]);
		if (off + need > dh->dh_encbuf_size)
			return DF_NOSCRATCH;
		if (as->as_vd[i].dv_kind == D_VK_RAW && r[i] &&
		    !d_vm_addr_rd(vm, (uintptr_t)r[i], as->as_vd[i].dv_size)) {
			vm->vm_faddr = r[i];
			return DF_BADADDR;
		}
		/* a NULL string (strchr() found nothing, stringof(0)) cannot
		 * be recorded: DTrace reads address 0 and faults */
		if (as->as_vd[i].dv_kind == D_VK_STRING && r[i] == 0) {
			vm->vm_faddr = 0;
			return DF_BADADDR;
		}
		args[i] = dh->dh_encbuf + off;
		off += d_vm_encode(vm, &as->as_vd[i], r[i], dh->dh_encbuf + off);
		off = (off + 7) & ~(size_t)7;
	}
	return DF_NONE;
}

static int
d_act_speculate(struct d_vm *vm, uint64_t id)
{
	struct d_hdl *dh = vm->vm_dh;
	int err = 0;
	FILE *fp = dspec_speculate(dh->dh_spec, (uint32_t)id, &err);
	if (!fp)
		return DF_ILLOP;
	vm->vm_out = fp;
	vm->vm_spec = 1;
	if (vm->vm_prolog) {
		vm->vm_prolog = 0;
		vm->vm_header = 0;
		d_vm_prolog(vm);
	}
	return DF_NONE;
}

/* system("fmt", args...): flush what is pending, then run the command. */
static int
d_act_system(struct d_vm *vm, const struct d_actsite *as, const void **args)
{
	struct d_hdl *dh = vm->vm_dh;
	char *cmd = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&cmd, &len);
	if (!m)
		return DF_NOSCRATCH;
	dfmt_printf(m, &dh->dh_fctx, as->as_fmt, args, as->as_nargs);
	fclose(m);
	fflush(vm->vm_out);
	fflush(dh->dh_out);
	int rc = system(cmd);
	(void)rc;
	free(cmd);
	return DF_NONE;
}

static int
d_act_freopen(struct d_vm *vm, const struct d_actsite *as, const void **args)
{
	struct d_hdl *dh = vm->vm_dh;
	char *name = NULL;
	size_t len = 0;
	if (as->as_fmt) {
		FILE *m = open_memstream(&name, &len);
		if (!m)
			return DF_NOSCRATCH;
		dfmt_printf(m, &dh->dh_fctx, as->as_fmt, args, as->as_nargs);
		fclose(m);
	}
	fflush(dh->dh_out);
	if (dh->dh_out != dh->dh_out0)
		fclose(dh->dh_out);
	dh->dh_out = dh->dh_out0;
	if (name && name[0]) {
		FILE *fp = fopen(name, "a");
		if (fp)
			dh->dh_out = fp;
		else
			fprintf(dh->dh_err, "%s: failed to freopen %s: %s\n", dh->dh_prog, name, strerror(errno));
	}
	free(name);
	return DF_NONE;
}

/* printa(), trunc(), clear(), normalize(), denormalize(). */
static void
d_act_agg(struct d_vm *vm, const struct d_actsite *as, uint64_t *r)
{
	struct d_hdl *dh = vm->vm_dh;

	switch (as->as_func) {
	case F_PRINTA:
		if (dh->dh_opt[O_OFORMAT] == DOUT_JSON) {
			struct dout_opts o;
			d_dout_opts(dh, &o);
			dout_printa(dh->dh_out, &o, &dh->dh_fctx, as->as_aggs, as->as_naggs);
		} else {
			dagg_printa(vm->vm_out, &dh->dh_fctx, as->as_fmt, as->as_aggs, as->as_naggs);
		}
		break;
	case F_TRUNC:
		dagg_trunc(as->as_aggs[0], as->as_nargs ? (int64_t)r[0] : DAGG_TRUNC_ALL);
		break;
	case F_CLEAR:
		dagg_clear(as->as_aggs[0]);
		break;
	case F_NORMALIZE:
		dagg_normalize(as->as_aggs[0], (int64_t)r[0]);
		break;
	case F_DENORMALIZE:
		dagg_denormalize(as->as_aggs[0]);
		break;
	}
}

/* The destructive actions (-w), and those not possible in user space. */
static int
d_act_destructive(struct d_vm *vm, const struct d_actsite *as, uint64_t *r,
    const void **args)
{
	struct d_hdl *dh = vm->vm_dh;

	switch (as->as_func) {
	case F_SYSTEM:
		return d_act_system(vm, as, args);
	case F_RAISE:
		kill(vm->vm_f->df_pid, (int)r[0]);
		break;
	case F_STOP:
		kill(vm->vm_f->df_pid, SIGSTOP);
		break;
	case F_CHILL: {
		struct timespec ts = { (time_t)(r[0] / 1000000000ULL), (long)(r[0] % 1000000000ULL) };
		if (r[0] > 500000000ULL)
			return DF_ILLOP;	/* DTrace refuses to chill that long */
		nanosleep(&ts, NULL);
		break;
	}
	case F_FREOPEN:
		return d_act_freopen(vm, as, args);
	case F_FTRUNCATE:
		fflush(dh->dh_out);
		if (ftruncate(fileno(dh->dh_out), 0) == 0)
			rewind(dh->dh_out);
		break;
	default:
		return DF_ILLOP;	/* breakpoint(), panic(): not in user space */
	}
	return DF_NONE;
}

int
d_act_exec(struct d_vm *vm, const struct d_actsite *as, uint64_t *r)
{
	struct d_hdl *dh = vm->vm_dh;
	const void *args[D_MAX_ACTARGS];
	int fault;

	if (as->as_func != F_TRACEMEM && as->as_func != F_SPECULATE &&
	    (fault = d_act_encode(vm, as, r, args)) != DF_NONE)
		return fault;
	d_vm_outstart(vm);
	switch (as->as_func) {
	case F_PRINTF:
		dfmt_printf(vm->vm_out, &dh->dh_fctx, as->as_fmt, args, as->as_nargs);
		break;
	case F_TRACE:
		dfmt_trace(vm->vm_out, &dh->dh_fctx, &as->as_vd[0], args[0]);
		break;
	case F_PRINT:
		dfmt_print(vm->vm_out, &dh->dh_fctx, as->as_str, &as->as_vd[0],
		    as->as_members, as->as_nmembers, args[0]);
		break;
	case F_STACK:
		dfmt_stack(vm->vm_out, &dh->dh_fctx, &as->as_vd[0], args[0], -1);
		break;
	case F_TRACEMEM: {
		size_t n = as->as_vd[0].dv_size;
		if (as->as_nargs > 2 && r[2] < n)
			n = r[2];
		if (!d_vm_addr_rd(vm, (uintptr_t)r[0], as->as_vd[0].dv_size)) {
			vm->vm_faddr = r[0];
			return DF_BADADDR;
		}
		dfmt_tracemem(vm->vm_out, &dh->dh_fctx, (const void *)(uintptr_t)r[0], n);
		break;
	}
	case F_EXIT:
		if (!dh->dh_exited) {
			dh->dh_exited = true;
			dh->dh_exitcode = (int)r[0];
		}
		break;
	case F_PRINTA: case F_TRUNC: case F_CLEAR: case F_NORMALIZE:
	case F_DENORMALIZE:
		d_act_agg(vm, as, r);
		break;
	case F_SETOPT:
		if (d_opt_set(dh, as->as_str, as->as_vd[0].dv_tname) != 0)
			fprintf(dh->dh_err, "%s: couldn't set option \"%s\"%s%s%s: %s\n", dh->dh_prog,
			    as->as_str, as->as_vd[0].dv_tname ? " to \"" : "",
			    as->as_vd[0].dv_tname ? as->as_vd[0].dv_tname : "",
			    as->as_vd[0].dv_tname ? "\"" : "", dh->dh_errmsg);
		else
			d_opt_apply_runtime(dh);
		break;
	case F_SPECULATE:
		return d_act_speculate(vm, r[0]);
	case F_COMMIT:
		if (r[0] > dh->dh_opt[O_NSPEC] + 0ULL)
			return DF_ILLOP;
		/* committed data follows the committing clause's own records */
		if (vm->vm_ncommits < (int)(sizeof(vm->vm_commits) / sizeof(vm->vm_commits[0])))
			vm->vm_commits[vm->vm_ncommits++] = (uint32_t)r[0];
		break;
	case F_DISCARD:
		if (r[0] > dh->dh_opt[O_NSPEC] + 0ULL)
			return DF_ILLOP;
		dspec_discard(dh->dh_spec, (uint32_t)r[0]);
		break;
	default:
		return d_act_destructive(vm, as, r, args);
	}
	return DF_NONE;
}

/* Options for dout: the first description that samples names the counter. */
void
d_dout_opts(d_hdl_t *dh, struct dout_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->do_fmt = (int)dh->dh_opt[O_OFORMAT];
	o->do_reverse = (int)dh->dh_opt[O_FLAMEREVERSE];
	o->do_title = dh->dh_optstr[O_FLAMETITLE];
	o->do_script = dh->dh_script;
	o->do_progname = dh->dh_prog;
	for (struct d_desc *d = dh->dh_descs; d; d = d->ds_next) {
		const char *t = d->ds_text, *name = strrchr(t, ':');
		name = name ? name + 1 : t;
		if (strcmp(name, "BEGIN") == 0 || strcmp(name, "END") == 0 ||
		    strcmp(name, "ERROR") == 0 || strncmp(name, "tick-", 5) == 0)
			continue;
		o->do_probe = t;
		break;
	}
}

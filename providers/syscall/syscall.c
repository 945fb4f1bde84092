/*
 * syscall.c — the syscall provider: syscall::<name>:entry and
 * syscall::<name>:return for every x86_64 system call, by Linux name.
 *
 * Names come from syscall_names.h (generated from the kernel headers by
 * gen_names.sh).  Linux has no open(2) on new architectures but x86_64
 * keeps it; glibc's open() calls openat, so syscall::open*:entry matches
 * open, openat, openat2, open_by_handle_at and open_tree, and for openat
 * the path is arg1 (arg0 is the directory fd), as on illumos.
 *
 * Sources, chosen at enable time so that unwanted syscalls cost nothing:
 *   - few syscalls enabled (at most SC_MAX_TP per direction) and each has a
 *     syscalls:sys_enter_<name> / sys_exit_<name> tracepoint: those, so the
 *     kernel only samples the syscalls asked for;
 *   - otherwise one raw_syscalls:sys_enter / sys_exit pair for all, and the
 *     syscall number is checked against a table of enabled probes before
 *     anything else is decoded.
 * args: entry: arg0..arg5 = the syscall's arguments;
 *       return: arg0 = arg1 = the return value (DTrace's convention; a
 *       failing call returns -errno on Linux), and errno is set for
 *       -4095..-1.
 * copyinstr(argN): when the program copies user memory in, entry events
 * carry SC_STACK_BYTES of the caller's stack, and the engine reads a
 * string there as it was at the call; anything else (heap, data) is read
 * from the process when the record is processed, so a buffer reused
 * since, or a process gone, gives other text or an invalid-address error
 * (kernel-side capture would need eprobes, absent from this kernel).
 */
#include <stdlib.h>
#include <string.h>

#include "providers/tracefs.h"
#include "providers/syscall/syscall_names.h"

#define SC_NR (int)(sizeof(sc_names) / sizeof(sc_names[0]))
#define SC_MAX_TP 8
enum { PP_NR, PP_RET };
/* cookies: raw events, or SC_COOKIE_TP + 2 * nr + ret for one syscall */
enum { SC_COOKIE_ENTER = 1, SC_COOKIE_EXIT = 2, SC_COOKIE_TP = 16 };

struct sc_tpslot {
	struct prov_tp tp;
	int nr, ret;
};

struct sc_state {
	uint32_t probe[2][SC_NR];	/* [ret][nr] -> enabled probe id or 0 */
	int planned;
	struct prov_tp raw[2];
	const struct prov_tp_field *f_id[2], *f_args, *f_ret;
	struct sc_tpslot slots[2 * SC_MAX_TP];
	int nslots;
};

static const char *const sc_entry_args[] = {
	"uint64_t", "uint64_t", "uint64_t", "uint64_t", "uint64_t", "uint64_t"
};
static const char *const sc_return_args[] = { "int64_t", "int64_t" };
static const char *const sc_probe_names[2] = { "entry", "return" };

/* The tracefs event name where it differs from the syscall's. */
static const char *
sc_tp_name(const char *name)
{
	static const char *const alias[][2] = {
		{ "fstat", "newfstat" }, { "lstat", "newlstat" }, { "stat", "newstat" },
		{ "uname", "newuname" }, { "sendfile", "sendfile64" }, { "umount2", "umount" },
	};
	for (size_t i = 0; i < sizeof(alias) / sizeof(alias[0]); i++)
		if (!strcmp(name, alias[i][0]))
			return alias[i][1];
	return name;
}

/* Create (on first match) and report every probe pd names. */
static int
sc_emit(struct prov_registry *r, const struct d_probe_desc *pd, d_probe_cb cb, void *arg)
{
	int n = 0;
	if (!prov_field_match(pd->dpd_mod, ""))
		return 0;
	for (int nr = 0; nr < SC_NR; nr++) {
		if (!sc_names[nr] || !prov_field_match(pd->dpd_func, sc_names[nr]))
			continue;
		for (int ret = 0; ret < 2; ret++) {
			if (!prov_field_match(pd->dpd_name, sc_probe_names[ret]))
				continue;
			struct prov_probe *p = prov_add(r, &prov_syscall_ops, "", sc_names[nr],
			    sc_probe_names[ret]);
			if (!p)
				return prov_errf(r, "out of memory");
			p->pp_param[PP_NR] = (uint64_t)nr;
			p->pp_param[PP_RET] = (uint64_t)ret;
			prov_set_args(p, ret ? 2 : 6, ret ? sc_return_args : sc_entry_args);
			if (prov_emit_one(p, pd, cb, arg) < 0)
				return -1;
			n++;
		}
	}
	return n;
}

/* Replayed, only the probes the file's events fire (made by sc_claim). */
static int
sc_list(struct prov_registry *r, const struct d_probe_desc *pd, d_probe_cb cb, void *arg)
{
	return prov_cfg(r)->replay ? prov_emit_matching(r, &prov_syscall_ops, pd, cb, arg) :
	    sc_emit(r, pd, cb, arg);
}

/* Which probes are enabled, by syscall number; returns how many syscalls
 * each direction needs. */
static void
sc_plan(struct prov_registry *r, struct sc_state *st, int count[2])
{
	memset(st->probe, 0, sizeof(st->probe));
	count[0] = count[1] = 0;
	for (struct prov_probe *p = NULL; (p = prov_next(r, &prov_syscall_ops, p, 1)); ) {
		int ret = (int)p->pp_param[PP_RET], nr = (int)p->pp_param[PP_NR];
		if (!st->probe[ret][nr])
			count[ret]++;
		st->probe[ret][nr] = p->pp_info.dp_id;
	}
	st->planned = 1;
}

static int
sc_load_raw(struct prov_registry *r, struct sc_state *st, int ret)
{
	if (st->raw[ret].id)
		return 0;
	if (prov_tp_load(r, "raw_syscalls", ret ? "sys_exit" : "sys_enter", &st->raw[ret]) < 0)
		return -1;
	st->f_id[ret] = prov_tp_field(&st->raw[ret], "id");
	if (ret)
		st->f_ret = prov_tp_field(&st->raw[ret], "ret");
	else
		st->f_args = prov_tp_field(&st->raw[ret], "args");
	if (!st->f_id[ret] || (ret ? !st->f_ret : !st->f_args))
		return prov_errf(r, "raw_syscalls:%s has an unexpected format",
		    ret ? "sys_exit" : "sys_enter");
	return 0;
}

/* One tracepoint per enabled syscall; fails (without an error) when one
 * of them has no tracepoint, and the caller falls back to raw_syscalls. */
static int
sc_load_each(struct prov_registry *r, struct sc_state *st, int ret)
{
	char ev[80];
	int first = st->nslots;
	for (int nr = 0; nr < SC_NR; nr++) {
		if (!st->probe[ret][nr])
			continue;
		struct sc_tpslot *sl = &st->slots[st->nslots];
		snprintf(ev, sizeof(ev), "sys_%s_%s", ret ? "exit" : "enter", sc_tp_name(sc_names[nr]));
		if (prov_tp_load(r, "syscalls", ev, &sl->tp) < 0) {
			st->nslots = first;
			return -1;
		}
		sl->nr = nr;
		sl->ret = ret;
		st->nslots++;
	}
	return 0;
}

/* Entry events carry the caller's stack when the program copies user
 * memory in, so copyinstr(arg1) of a buffer on the stack reads it as it
 * was at the call. */
#define SC_STACK_BYTES 8192

static int
sc_add(struct prov_registry *r, struct smp_session *s, const struct prov_tp *tp,
    uint64_t cookie, int ret)
{
	if (!ret && prov_wants_ustack(r))
		return prov_tp_add_ustack(r, s, &prov_syscall_ops, tp, cookie, SC_STACK_BYTES);
	return prov_tp_add(r, s, &prov_syscall_ops, tp, cookie, -1, 0);
}

static int
sc_enable_dir(struct prov_registry *r, struct smp_session *s, struct sc_state *st,
    int ret, int count)
{
	if (!count)
		return 0;
	int first = st->nslots;
	if (count <= SC_MAX_TP && sc_load_each(r, st, ret) == 0) {
		for (int i = first; i < st->nslots; i++) {
			const struct sc_tpslot *sl = &st->slots[i];
			if (sc_add(r, s, &sl->tp, SC_COOKIE_TP + 2 * (uint64_t)sl->nr + (uint64_t)ret, ret) < 0)
				return -1;
		}
		return 0;
	}
	if (sc_load_raw(r, st, ret) < 0)
		return -1;
	return sc_add(r, s, &st->raw[ret], ret ? SC_COOKIE_EXIT : SC_COOKIE_ENTER, ret) < 0 ? -1 : 0;
}

static int
sc_enable(struct prov_registry *r, struct smp_session *s)
{
	int count[2];
	struct sc_state *st = prov_state(r, &prov_syscall_ops);
	if (!st)
		return 0;	/* nothing matched */
	sc_plan(r, st, count);
	if (sc_enable_dir(r, s, st, 0, count[0]) < 0 || sc_enable_dir(r, s, st, 1, count[1]) < 0)
		return -1;
	return 0;
}

static int
sc_match(struct prov_registry *r, const struct d_probe_desc *pd, d_probe_cb cb, void *arg)
{
	if (prov_cfg(r)->replay)
		return prov_emit_matching(r, &prov_syscall_ops, pd, cb, arg);
	if (!prov_state_get(r, &prov_syscall_ops, sizeof(struct sc_state)))
		return -1;
	return sc_emit(r, pd, cb, arg);
}

/* Replay: a recorded raw_syscalls or syscalls:* event. */
static int
sc_claim(struct prov_registry *r, struct smp_session *s, int evidx)
{
	const struct smp_event_spec *ev = smp_event(s, evidx);
	if (ev->attr.type != PERF_TYPE_TRACEPOINT || !ev->name)
		return 0;
	struct sc_state *st;
	int ret;
	if (!strcmp(ev->name, "raw_syscalls:sys_enter") || !strcmp(ev->name, "raw_syscalls:sys_exit")) {
		ret = strstr(ev->name, "exit") != NULL;
		struct d_probe_desc all = { "", "", "", sc_probe_names[ret] };
		if (!(st = prov_state_get(r, &prov_syscall_ops, sizeof(*st))) || sc_load_raw(r, st, ret) < 0 ||
		    sc_emit(r, &all, NULL, NULL) < 0)
			return -1;
		return prov_claim(r, evidx, &prov_syscall_ops, ret ? SC_COOKIE_EXIT : SC_COOKIE_ENTER);
	}
	if (strncmp(ev->name, "syscalls:sys_", 13))
		return 0;
	const char *rest = ev->name + 13;
	ret = !strncmp(rest, "exit_", 5);
	if (!ret && strncmp(rest, "enter_", 6))
		return 0;
	rest += ret ? 5 : 6;
	for (int nr = 0; nr < SC_NR; nr++) {
		if (!sc_names[nr] || strcmp(sc_tp_name(sc_names[nr]), rest))
			continue;
		struct d_probe_desc one = { "", "", sc_names[nr], sc_probe_names[ret] };
		if (!(st = prov_state_get(r, &prov_syscall_ops, sizeof(*st))) || sc_emit(r, &one, NULL, NULL) < 0)
			return -1;
		return prov_claim(r, evidx, &prov_syscall_ops,
		    SC_COOKIE_TP + 2 * (uint64_t)nr + (uint64_t)ret);
	}
	return 0;
}

/* The syscall's arguments from a syscalls:sys_enter_<name> payload: every
 * field after __syscall_nr, each 8 bytes wide. */
static int
sc_tp_args(const struct smp_record *rec, uint64_t *args)
{
	int n = 0;
	for (uint32_t off = 16; off + 8 <= rec->raw_size && n < 6; off += 8)
		memcpy(&args[n++], (const char *)rec->raw + off, 8);
	return n;
}

static int
sc_decode(struct prov_registry *r, const struct smp_record *rec, uint64_t cookie,
    prov_fire_fn fire, void *arg)
{
	struct sc_state *st = prov_tp_state(r, &prov_syscall_ops, rec);
	if (!st)
		return 0;
	if (!st->planned) {
		int count[2];
		sc_plan(r, st, count);
	}
	int ret, nr;
	if (cookie >= SC_COOKIE_TP) {
		nr = (int)((cookie - SC_COOKIE_TP) / 2);
		ret = (int)((cookie - SC_COOKIE_TP) % 2);
	} else {
		ret = cookie == SC_COOKIE_EXIT;
		nr = (int)(int64_t)prov_tp_uint(st->f_id[ret], rec->raw, rec->raw_size);
	}
	/* the early filter: most raw events stop here */
	if (nr < 0 || nr >= SC_NR || !st->probe[ret][nr])
		return 0;
	uint64_t kbuf[128], ubuf[128];
	struct d_firing f;
	prov_firing_from_sample(r, rec, &f, kbuf, ubuf, 128);
	f.df_probe = st->probe[ret][nr];
	if (ret) {
		const struct prov_tp_field *fr = cookie >= SC_COOKIE_TP ? NULL : st->f_ret;
		uint64_t v = 0;
		if (fr)
			v = prov_tp_uint(fr, rec->raw, rec->raw_size);
		else if (rec->raw_size >= 24)
			memcpy(&v, (const char *)rec->raw + 16, 8);
		f.df_args[0] = f.df_args[1] = v;
		f.df_nargs = 2;
		if ((int64_t)v < 0 && (int64_t)v >= -4095)
			f.df_errno = -(int64_t)v;
	} else if (cookie >= SC_COOKIE_TP) {
		f.df_nargs = 6;
		sc_tp_args(rec, f.df_args);
		prov_firing_ustack(&f, rec, 1ull << PROV_REG_SP);
	} else {
		uint32_t off = st->f_args->offset;
		for (int i = 0; i < 6 && off + 8 * (uint32_t)(i + 1) <= rec->raw_size; i++)
			memcpy(&f.df_args[i], (const char *)rec->raw + off + 8 * i, 8);
		f.df_nargs = 6;
		prov_firing_ustack(&f, rec, 1ull << PROV_REG_SP);
	}
	return fire(arg, &f);
}

const struct prov_ops prov_syscall_ops = {
	.po_name = "syscall", .po_list = sc_list, .po_match = sc_match,
	.po_enable = sc_enable, .po_claim = sc_claim, .po_decode = sc_decode,
};

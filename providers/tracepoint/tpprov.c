/*
 * tpprov.c — the tracepoint provider: every kernel tracepoint in tracefs as
 * tracepoint:<group>::<event>, the Linux counterpart of the seed's etw
 * provider over any registered ETW provider.
 *
 * Naming: provider "tracepoint", module = the tracefs group, function
 * empty, name = the event.  The bpftrace-style three-part description
 * tracepoint:sched:sched_process_fork (which D's right-aligned fields read
 * as module "tracepoint") is accepted as the same probe.
 *
 * args: arg0..arg9 = the event's fields in format order (the common_*
 * header excluded): integers sign- or zero-extended by their format's
 * "signed", char arrays and __data_loc strings as strings; other arrays
 * (e.g. raw_syscalls' args[6]) read as 0.
 *
 * Typed: bare args is a struct tp_<group>_<event> with one member per
 * field, named as in the format (a D keyword gains a trailing _):
 * integers by size and signedness, char arrays and __data_loc strings as
 * char[] (strings; __data_loc ones up to TPP_STRLEN - 1 bytes), other
 * arrays as uint8_t[] of their bytes.  args->parent_comm works as written.
 *
 * Listing reads only directory names (thousands of events stay fast);
 * formats are read for the probes a script matches.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "providers/tracefs.h"

#define TPP_MAX_ARGS D_MAX_ARGS
#define TPP_STRLEN 256
#define TPP_STRUCT_MAX 8192	/* bytes of a decoded args struct */

struct tpp_slot {
	struct prov_tp tp;
	uint32_t probe;
};

/* One allocation (the registry frees provider state with free()): the
 * slot table grows by reallocating the whole state. */
struct tpp_state {
	int nslots, cap;
	int planned;
	struct tpp_slot slots[];
};

static const char *const tpp_roots[] = { "/sys/kernel/tracing/events", "/sys/kernel/debug/tracing/events" };

/* The description as provider/group/event, undoing the right-alignment
 * of a three-part tracepoint:<group>:<event>. */
struct tpp_desc {
	const char *group, *event;
	int ok;
};

static struct tpp_desc
tpp_desc(const struct d_probe_desc *pd)
{
	struct tpp_desc d = { pd->dpd_mod, pd->dpd_name, 1 };
	const char *prov = pd->dpd_prov ? pd->dpd_prov : "";
	if (!*prov && pd->dpd_mod && !strcmp(pd->dpd_mod, "tracepoint")) {
		d.group = pd->dpd_func;
		return d;
	}
	d.ok = prov_field_match(prov, "tracepoint") && prov_field_match(pd->dpd_func, "");
	return d;
}

static const char *
tpp_type(const struct prov_tp_field *f)
{
	static const char *const s[] = { "int8_t", "int16_t", "int32_t", "int64_t" };
	static const char *const u[] = { "uint8_t", "uint16_t", "uint32_t", "uint64_t" };
	if (f->is_string)
		return "string";
	switch (f->size) {
	case 1: return f->is_signed ? s[0] : u[0];
	case 2: return f->is_signed ? s[1] : u[1];
	case 4: return f->is_signed ? s[2] : u[2];
	default: return f->is_signed ? s[3] : u[3];
	}
}

/* Where each field lives in the decoded args struct (the layout D gives
 * the declaration tpp_decls() writes: natural alignment); returns the
 * struct's size, or 0 when it would not fit TPP_STRUCT_MAX. */
static uint32_t
tpp_layout(const struct prov_tp *tp, uint32_t *doff)
{
	uint32_t off = 0, align = 1;
	for (int i = 0; i < tp->nfields; i++) {
		const struct prov_tp_field *f = &tp->fields[i];
		int scalar = !f->is_string && (f->size == 1 || f->size == 2 || f->size == 4 || f->size == 8);
		uint32_t a = scalar ? f->size : 1;
		uint32_t sz = f->is_dataloc ? TPP_STRLEN : f->size;
		off = (off + a - 1) / a * a;
		doff[i] = off;
		off += sz;
		if (a > align)
			align = a;
	}
	off = (off + align - 1) / align * align;
	return off <= TPP_STRUCT_MAX ? off : 0;
}

static int
tpp_reserved(const char *name)
{
	static const char *const kw[] = {
		"auto", "break", "case", "char", "const", "continue", "counter", "default",
		"do", "double", "else", "enum", "extern", "float", "for", "goto", "if",
		"import", "in", "inline", "int", "long", "offsetof", "probe", "provider",
		"register", "restrict", "return", "self", "short", "signed", "sizeof",
		"static", "string", "stringof", "struct", "switch", "this", "translator",
		"typedef", "union", "unsigned", "userland", "void", "volatile", "while", "xlate",
	};
	for (size_t i = 0; i < sizeof(kw) / sizeof(kw[0]); i++)
		if (!strcmp(name, kw[i]))
			return 1;
	return 0;
}

/* "tp_<group>_<event>" with anything but [A-Za-z0-9_] made _. */
static void
tpp_struct_tag(const struct prov_tp *tp, char *buf, size_t len)
{
	snprintf(buf, len, "tp_%s_%s", tp->system, tp->event);
	for (char *p = buf; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || *p == '_'))
			*p = '_';
}

/* The D declaration of the args struct; 0, or -1 if it does not fit. */
static int
tpp_decls(const struct prov_tp *tp, char *buf, size_t len)
{
	char tag[120];
	uint32_t doff[sizeof(tp->fields) / sizeof(tp->fields[0])];
	if (!tpp_layout(tp, doff))
		return -1;
	tpp_struct_tag(tp, tag, sizeof(tag));
	size_t n = (size_t)snprintf(buf, len, "struct %s {", tag);
	for (int i = 0; i < tp->nfields && n < len; i++) {
		const struct prov_tp_field *f = &tp->fields[i];
		const char *us = tpp_reserved(f->name) ? "_" : "";
		if (f->is_string)
			n += (size_t)snprintf(buf + n, len - n, " char %s%s[%u];", f->name, us,
			    f->is_dataloc ? TPP_STRLEN : f->size);
		else if (f->size == 1 || f->size == 2 || f->size == 4 || f->size == 8)
			n += (size_t)snprintf(buf + n, len - n, " %s %s%s;", tpp_type(f), f->name, us);
		else
			n += (size_t)snprintf(buf + n, len - n, " uint8_t %s%s[%u];", f->name, us, f->size);
	}
	if (n < len)
		n += (size_t)snprintf(buf + n, len - n, " };");
	return n < len ? 0 : -1;
}

/* The args struct of one record, in buf (TPP_STRUCT_MAX bytes, aligned). */
static const void *
tpp_decode_struct(const struct prov_tp *tp, const struct smp_record *rec, uint64_t *buf)
{
	uint32_t doff[sizeof(tp->fields) / sizeof(tp->fields[0])];
	uint32_t size = tpp_layout(tp, doff);
	char *out = (char *)buf;
	if (!size)
		return NULL;
	memset(out, 0, size);
	for (int i = 0; i < tp->nfields; i++) {
		const struct prov_tp_field *f = &tp->fields[i];
		if (f->is_string) {
			/* NUL-terminated within the member (the last byte of a
			 * full fixed array gives way to the NUL) */
			prov_tp_str(f, rec->raw, rec->raw_size, out + doff[i],
			    f->is_dataloc ? TPP_STRLEN : f->size);
		} else if ((uint32_t)f->offset + f->size <= rec->raw_size) {
			memcpy(out + doff[i], (const char *)rec->raw + f->offset, f->size);
		}
	}
	return out;
}

/* The slot holding group:event's format, loaded on first use. */
static int
tpp_slot(struct prov_registry *r, const char *group, const char *event)
{
	struct tpp_state *st = prov_state_get(r, &prov_tracepoint_ops, sizeof(*st));
	if (!st)
		return -1;
	for (int i = 0; i < st->nslots; i++)
		if (!strcmp(st->slots[i].tp.system, group) && !strcmp(st->slots[i].tp.event, event))
			return i;
	if (st->nslots == st->cap) {
		int ncap = st->cap ? st->cap * 2 : 16;
		if (!(st = prov_state_grow(r, &prov_tracepoint_ops,
		    sizeof(*st) + (size_t)st->cap * sizeof(st->slots[0]),
		    sizeof(*st) + (size_t)ncap * sizeof(st->slots[0]))))
			return -1;
		st->cap = ncap;
	}
	struct tpp_slot *sl = &st->slots[st->nslots];
	memset(sl, 0, sizeof(*sl));
	if (prov_tp_load(r, group, event, &sl->tp) < 0)
		return -1;
	return st->nslots++;
}

/* Hand probe p to the engine with its args struct declared.  The
 * declaration is read during the callback only (the engine compiles it
 * then), so it need not outlive this call. */
static int
tpp_report(struct prov_registry *r, struct prov_probe *p, d_probe_cb cb, void *arg)
{
	char decls[4096], tag[128];
	struct tpp_state *st = prov_state(r, &prov_tracepoint_ops);
	if (st && p->pp_param[1] && tpp_decls(&st->slots[p->pp_param[0]].tp, decls, sizeof(decls)) == 0) {
		snprintf(tag, sizeof(tag), "struct ");
		tpp_struct_tag(&st->slots[p->pp_param[0]].tp, tag + 7, sizeof(tag) - 7);
		p->pp_info.dp_decls = decls;
		p->pp_info.dp_argstruct = tag;
	}
	int rc = cb(arg, &p->pp_info);
	p->pp_info.dp_decls = p->pp_info.dp_argstruct = NULL;
	return rc < 0 ? -1 : 1;
}

static int
tpp_make(struct prov_registry *r, const char *group, const char *event, int typed,
    d_probe_cb cb, void *arg)
{
	struct prov_probe *p = prov_add(r, &prov_tracepoint_ops, group, "", event);
	if (!p)
		return prov_errf(r, "out of memory");
	if (typed && !p->pp_param[1]) {
		int i = tpp_slot(r, group, event);
		if (i < 0)
			return -1;
		struct tpp_state *st = prov_state(r, &prov_tracepoint_ops);
		const char *types[TPP_MAX_ARGS];
		int n = st->slots[i].tp.nfields < TPP_MAX_ARGS ? st->slots[i].tp.nfields : TPP_MAX_ARGS;
		for (int k = 0; k < n; k++)
			types[k] = tpp_type(&st->slots[i].tp.fields[k]);
		prov_set_args(p, n, types);
		p->pp_param[0] = (uint64_t)i;
		p->pp_param[1] = 1;	/* format loaded */
	}
	return cb ? tpp_report(r, p, cb, arg) : 1;
}

static DIR *
tpp_opendir(const char *sub)
{
	char path[300];
	for (size_t i = 0; i < sizeof(tpp_roots) / sizeof(tpp_roots[0]); i++) {
		snprintf(path, sizeof(path), "%s%s%s", tpp_roots[i], sub ? "/" : "", sub ? sub : "");
		DIR *d = opendir(path);
		if (d)
			return d;
	}
	return NULL;
}

static int
tpp_skip_name(const char *name)
{
	return name[0] == '.' || !strcmp(name, "enable") || !strcmp(name, "filter") ||
	    !strcmp(name, "header_page") || !strcmp(name, "header_event");
}

/* Every event of one group that d names. */
static int
tpp_scan_group(struct prov_registry *r, const char *group, const struct tpp_desc *d,
    int typed, d_probe_cb cb, void *arg)
{
	DIR *dir = tpp_opendir(group);
	if (!dir)
		return 0;
	int n = 0;
	struct dirent *e;
	while ((e = readdir(dir))) {
		if (tpp_skip_name(e->d_name) || !prov_field_match(d->event, e->d_name))
			continue;
		int rc = tpp_make(r, group, e->d_name, typed, cb, arg);
		if (rc < 0) {
			closedir(dir);
			return -1;
		}
		n += rc;
	}
	closedir(dir);
	return n;
}

static int
tpp_scan(struct prov_registry *r, const struct d_probe_desc *pd, int typed,
    d_probe_cb cb, void *arg)
{
	struct tpp_desc d = tpp_desc(pd);
	if (!d.ok)
		return 0;
	/* ftrace's own events cannot be opened with perf_event_open */
	if (d.group && *d.group && !prov_has_glob(d.group))
		return strcmp(d.group, "ftrace") ? tpp_scan_group(r, d.group, &d, typed, cb, arg) : 0;
	DIR *dir = tpp_opendir(NULL);
	if (!dir)
		return 0;
	int n = 0;
	struct dirent *e;
	while ((e = readdir(dir))) {
		if (tpp_skip_name(e->d_name) || !strcmp(e->d_name, "ftrace") ||
		    !prov_field_match(d.group, e->d_name) || e->d_type == DT_REG)
			continue;
		int rc = tpp_scan_group(r, e->d_name, &d, typed, cb, arg);
		if (rc < 0) {
			closedir(dir);
			return -1;
		}
		n += rc;
	}
	closedir(dir);
	return n;
}

/* Replay: only the tracepoints the file recorded exist. */
static int
tpp_emit_claimed(struct prov_registry *r, const struct d_probe_desc *pd, d_probe_cb cb, void *arg)
{
	struct tpp_desc d = tpp_desc(pd);
	int n = 0;
	if (!d.ok)
		return 0;
	for (struct prov_probe *p = NULL; (p = prov_next(r, &prov_tracepoint_ops, p, 0)); ) {
		if (!prov_field_match(d.group, p->pp_info.dp_mod) ||
		    !prov_field_match(d.event, p->pp_info.dp_name))
			continue;
		if (cb && tpp_report(r, p, cb, arg) < 0)
			return -1;
		n++;
	}
	return n;
}

static int
tpp_list(struct prov_registry *r, const struct d_probe_desc *pd, d_probe_cb cb, void *arg)
{
	if (prov_cfg(r)->replay)
		return tpp_emit_claimed(r, pd, cb, arg);
	return tpp_scan(r, pd, 0, cb, arg);
}

static int
tpp_match(struct prov_registry *r, const struct d_probe_desc *pd, d_probe_cb cb, void *arg)
{
	if (prov_cfg(r)->replay)
		return tpp_emit_claimed(r, pd, cb, arg);
	return tpp_scan(r, pd, 1, cb, arg);
}

static int
tpp_enable(struct prov_registry *r, struct smp_session *s)
{
	struct tpp_state *st = prov_state(r, &prov_tracepoint_ops);
	if (!st)
		return 0;
	for (struct prov_probe *p = NULL; (p = prov_next(r, &prov_tracepoint_ops, p, 1)); ) {
		if (!p->pp_param[1])
			continue;
		struct tpp_slot *sl = &st->slots[p->pp_param[0]];
		sl->probe = p->pp_info.dp_id;
		if (prov_tp_add(r, s, &prov_tracepoint_ops, &sl->tp, p->pp_param[0], -1, 0) < 0)
			return -1;
	}
	st->planned = 1;
	return 0;
}

static int
tpp_claim(struct prov_registry *r, struct smp_session *s, int evidx)
{
	const struct smp_event_spec *ev = smp_event(s, evidx);
	const char *colon = ev->name ? strchr(ev->name, ':') : NULL;
	char group[64];
	if (ev->attr.type != PERF_TYPE_TRACEPOINT || !colon || colon - ev->name >= (long)sizeof(group))
		return 0;
	snprintf(group, sizeof(group), "%.*s", (int)(colon - ev->name), ev->name);
	/* a tracepoint this machine lacks (another kernel's, or a uprobe event
	 * of the recording run, gone with it) has no fields to offer here:
	 * not an error, another provider may still decode the event */
	struct prov_tp probe_tp;
	if (prov_tp_load(r, group, colon + 1, &probe_tp) < 0)
		return 0;
	if (tpp_make(r, group, colon + 1, 1, NULL, NULL) < 0)
		return -1;
	struct prov_probe *p = prov_find(r, "tracepoint", group, "", colon + 1);
	return prov_claim(r, evidx, &prov_tracepoint_ops, p->pp_param[0]);
}

/* Replay: which claimed tracepoints the program enabled. */
static void
tpp_plan(struct prov_registry *r, struct tpp_state *st)
{
	for (struct prov_probe *p = NULL; (p = prov_next(r, &prov_tracepoint_ops, p, 1)); )
		if (p->pp_param[1])
			st->slots[p->pp_param[0]].probe = p->pp_info.dp_id;
	st->planned = 1;
}

static int
tpp_decode(struct prov_registry *r, const struct smp_record *rec, uint64_t cookie,
    prov_fire_fn fire, void *arg)
{
	struct tpp_state *st = prov_tp_state(r, &prov_tracepoint_ops, rec);
	if (!st || cookie >= (uint64_t)st->nslots)
		return 0;
	if (!st->planned)
		tpp_plan(r, st);
	const struct tpp_slot *sl = &st->slots[cookie];
	if (!sl->probe)
		return 0;
	uint64_t kbuf[128], ubuf[128], sbuf[TPP_STRUCT_MAX / 8];
	char strs[TPP_MAX_ARGS][TPP_STRLEN];
	struct d_firing f;
	prov_firing_from_sample(r, rec, &f, kbuf, ubuf, 128);
	f.df_probe = sl->probe;
	if ((f.df_argstruct = tpp_decode_struct(&sl->tp, rec, sbuf))) {
		f.df_mem = sbuf;
		f.df_memlen = sizeof(sbuf);
	}
	f.df_nargs = sl->tp.nfields < TPP_MAX_ARGS ? sl->tp.nfields : TPP_MAX_ARGS;
	for (int i = 0; i < f.df_nargs; i++) {
		const struct prov_tp_field *fl = &sl->tp.fields[i];
		if (fl->is_string)
			f.df_args[i] = (uint64_t)(uintptr_t)prov_tp_str(fl, rec->raw, rec->raw_size,
			    strs[i], sizeof(strs[i]));
		else
			f.df_args[i] = prov_tp_uint(fl, rec->raw, rec->raw_size);
	}
	return fire(arg, &f);
}

const struct prov_ops prov_tracepoint_ops = {
	.po_name = "tracepoint", .po_list = tpp_list, .po_match = tpp_match,
	.po_enable = tpp_enable, .po_claim = tpp_claim, .po_decode = tpp_decode,
};

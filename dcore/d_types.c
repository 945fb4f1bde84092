/*
 * d_types.c — the D type universe.
 *
 * Types are immutable once complete, except struct/union/enum tags which
 * are created incomplete by a forward reference and completed by their
 * definition (so a pointer made earlier sees the members).  Scalar
 * typedefs get their own d_type carrying the typedef name, so messages
 * and printf checks say "uint64_t"; aggregate typedefs share the tag's
 * type.  The data model is LP64, as on every Linux target we support.
 */
#include <stdlib.h>
#include <string.h>

#include "dcore/d_impl.h"

static struct d_type *
d_type_new(struct d_hdl *dh, int kind, uint32_t size, const char *name)
{
	struct d_type *t = d_alloc(dh, sizeof(*t));
	t->dt_kind = (uint8_t)kind;
	t->dt_size = size;
	t->dt_align = size ? (size > 8 ? 8 : size) : 1;
	t->dt_name = name;
	t->dt_complete = 1;
	return t;
}

void
d_type_define(struct d_hdl *dh, const char *name, struct d_type *t)
{
	struct d_tname *tn = d_alloc(dh, sizeof(*tn));
	tn->tn_name = d_strdup(dh, name);
	tn->tn_type = t;
	tn->tn_next = dh->dh_tnames;
	dh->dh_tnames = tn;
}

/* "mod`name": D has one type namespace here (C, D and user types), so the
 * module part only scopes the lookup nominally. */
static const char *
d_type_unscope(const char *name)
{
	const char *bq = strrchr(name, '`');
	return bq ? bq + 1 : name;
}

struct d_type *
d_type_lookup(struct d_hdl *dh, const char *name)
{
	name = d_type_unscope(name);
	for (struct d_tname *tn = dh->dh_tnames; tn; tn = tn->tn_next)
		if (tn->tn_name[0] == name[0] && strcmp(tn->tn_name, name) == 0)
			return tn->tn_type;
	return NULL;
}

static struct d_type *
d_type_mkint(struct d_hdl *dh, const char *name, uint32_t size, bool sign)
{
	struct d_type *t = d_type_new(dh, DK_INT, size, name);
	t->dt_signed = sign;
	d_type_define(dh, name, t);
	return t;
}

/* A typedef of a scalar: same shape, its own name. */
static void
d_type_alias(struct d_hdl *dh, const char *name, struct d_type *base)
{
	struct d_type *t = d_alloc(dh, sizeof(*t));
	*t = *base;
	t->dt_name = d_strdup(dh, name);
	d_type_define(dh, name, t);
}

void
d_types_init(struct d_hdl *dh)
{
	dh->dh_t_void = d_type_new(dh, DK_VOID, 0, "void");
	dh->dh_t_char = d_type_mkint(dh, "char", 1, true);
	dh->dh_t_char->dt_char = 1;
	struct d_type *sc = d_type_mkint(dh, "signed char", 1, true);
	sc->dt_char = 1;
	dh->dh_t_uchar = d_type_mkint(dh, "unsigned char", 1, false);
	dh->dh_t_uchar->dt_char = 1;
	dh->dh_t_short = d_type_mkint(dh, "short", 2, true);
	dh->dh_t_ushort = d_type_mkint(dh, "unsigned short", 2, false);
	dh->dh_t_int = d_type_mkint(dh, "int", 4, true);
	dh->dh_t_uint = d_type_mkint(dh, "unsigned int", 4, false);
	dh->dh_t_long = d_type_mkint(dh, "long", 8, true);
	dh->dh_t_ulong = d_type_mkint(dh, "unsigned long", 8, false);
	dh->dh_t_llong = d_type_mkint(dh, "long long", 8, true);
	dh->dh_t_ullong = d_type_mkint(dh, "unsigned long long", 8, false);
	d_type_define(dh, "void", dh->dh_t_void);
	dh->dh_t_string = d_type_new(dh, DK_STRING, 256, "string");
	d_type_define(dh, "string", dh->dh_t_string);
	/* not a name a program can declare with */
	dh->dh_t_agg = d_type_new(dh, DK_AGG, 0, "aggregation");
	struct d_type *f = d_type_new(dh, DK_FLOAT, 4, "float");
	d_type_define(dh, "float", f);
	f = d_type_new(dh, DK_FLOAT, 8, "double");
	d_type_define(dh, "double", f);
	f = d_type_new(dh, DK_FLOAT, 16, "long double");
	d_type_define(dh, "long double", f);

	static const struct { const char *n; int size; bool sign; } ints[] = {
		{ "int8_t", 1, true }, { "int16_t", 2, true }, { "int32_t", 4, true },
		{ "int64_t", 8, true }, { "uint8_t", 1, false }, { "uint16_t", 2, false },
		{ "uint32_t", 4, false }, { "uint64_t", 8, false },
		{ "intptr_t", 8, true }, { "uintptr_t", 8, false },
		{ "size_t", 8, false }, { "ssize_t", 8, true }, { "off_t", 8, true },
		{ "off64_t", 8, true }, { "pid_t", 4, true }, { "id_t", 4, true },
		{ "uid_t", 4, false }, { "gid_t", 4, false }, { "time_t", 8, true },
		{ "hrtime_t", 8, true }, { "dev_t", 8, false }, { "ino_t", 8, false },
		{ "mode_t", 4, false }, { "nlink_t", 8, false }, { "clock_t", 8, true },
		{ "uchar_t", 1, false }, { "ushort_t", 2, false }, { "uint_t", 4, false },
		{ "ulong_t", 8, false }, { "longlong_t", 8, true },
		{ "u_longlong_t", 8, false }, { "int_t", 4, true }, { "processorid_t", 4, true },
		{ "psetid_t", 4, true }, { "projid_t", 4, true }, { "taskid_t", 4, true },
		{ "zoneid_t", 4, true }, { "major_t", 4, false }, { "minor_t", 4, false },
		{ "boolean_t", 4, true }, { "bool", 1, false }, { "_Bool", 1, false },
		{ "ptrdiff_t", 8, true }, { "u_int", 4, false }, { "u_long", 8, false },
		{ "blkcnt_t", 8, true }, { "socklen_t", 4, false }, { "sa_family_t", 2, false },
		{ "in_port_t", 2, false }, { "in_addr_t", 4, false }, { "ipaddr_t", 4, false },
		{ "lgrp_id_t", 4, true }, { "timer_t", 8, true }, { "key_t", 4, true },
		{ "caddr32_t", 4, false }, { "daddr_t", 8, true }, { "diskaddr_t", 8, false },
		{ "u_offset_t", 8, false }, { "len_t", 8, false }, { "klong_t", 8, true },
		{ "kulong_t", 8, false }, { "pri_t", 2, true }, { "wchar_t", 4, true },
	};
	for (size_t i = 0; i < sizeof(ints) / sizeof(ints[0]); i++) {
		struct d_type *b = d_type_int(dh, ints[i].size, ints[i].sign);
		d_type_alias(dh, ints[i].n, b);
	}
	dh->dh_t_int64 = d_type_lookup(dh, "int64_t");
	dh->dh_t_uint64 = d_type_lookup(dh, "uint64_t");
	dh->dh_t_voidp = d_type_ptr(dh, dh->dh_t_void);
	dh->dh_t_charp = d_type_ptr(dh, dh->dh_t_char);
	struct d_type *cp = d_alloc(dh, sizeof(*cp));
	*cp = *dh->dh_t_charp;
	cp->dt_name = "caddr_t";
	d_type_define(dh, "caddr_t", cp);
}

struct d_type *
d_type_int(struct d_hdl *dh, int size, bool sign)
{
	switch (size) {
	case 1: return sign ? dh->dh_t_char : dh->dh_t_uchar;
	case 2: return sign ? dh->dh_t_short : dh->dh_t_ushort;
	case 4: return sign ? dh->dh_t_int : dh->dh_t_uint;
	default: return sign ? dh->dh_t_long : dh->dh_t_ulong;
	}
}

struct d_type *
d_type_ptr(struct d_hdl *dh, struct d_type *t)
{
	struct d_type *p = d_type_new(dh, DK_PTR, 8, NULL);
	p->dt_ref = t;
	return p;
}

struct d_type *
d_type_array(struct d_hdl *dh, struct d_type *t, uint32_t n)
{
	struct d_type *a = d_type_new(dh, DK_ARRAY, t->dt_size * n, NULL);
	a->dt_ref = t;
	a->dt_nelems = n;
	a->dt_align = t->dt_align;
	a->dt_complete = t->dt_complete;
	return a;
}

/* struct/union/enum tags live in their own namespace. */
struct d_type *
d_type_tag(struct d_hdl *dh, int kind, const char *tag, bool create)
{
	const char *kw = kind == DK_STRUCT ? "struct" : kind == DK_UNION ? "union" : "enum";
	char name[512];
	if (tag)
		tag = d_type_unscope(tag);
	if (tag) {
		snprintf(name, sizeof(name), "%s %s", kw, tag);
		for (struct d_tname *tn = dh->dh_tags; tn; tn = tn->tn_next)
			if (strcmp(tn->tn_name, name) == 0)
				return tn->tn_type;
	}
	if (!create)
		return NULL;
	struct d_type *t = d_type_new(dh, kind, kind == DK_ENUM ? 4 : 0, NULL);
	t->dt_complete = 0;
	if (kind == DK_ENUM)
		t->dt_signed = 1;
	if (tag) {
		t->dt_name = d_strdup(dh, name);
		struct d_tname *tn = d_alloc(dh, sizeof(*tn));
		tn->tn_name = t->dt_name;
		tn->tn_type = t;
		tn->tn_next = dh->dh_tags;
		dh->dh_tags = tn;
	} else {
		t->dt_name = d_strdup(dh, kind == DK_STRUCT ? "struct <anon>" :
		    kind == DK_UNION ? "union <anon>" : "enum <anon>");
	}
	return t;
}

/* D's layout, which is CTF's (libctf's member append), not quite C's: each
 * member starts after the previous one (after its bits, for a bit-field),
 * rounded up to a byte and then to the member's alignment; a bit-field is
 * an integer of just enough bytes for its width and never shares a byte;
 * the size is the end of the last member, without trailing padding; a
 * union is as large as its largest member. */
void
d_type_layout(struct d_type *sou)
{
	uint32_t align = 1, size = 0;
	uint64_t end_bits = 0;		/* where the previous member ends */
	bool first = true;

	for (struct d_member *m = sou->dt_members; m; m = m->dm_next) {
		uint32_t ms = m->dm_bits ? (m->dm_bits + 7u) / 8u : m->dm_type->dt_size;
		uint32_t ma = m->dm_bits ? ms : m->dm_type->dt_align;
		if (ma == 0)
			ma = 1;
		if (ma > align && !m->dm_bits)
			align = ma;
		m->dm_bitoff = 0;
		if (sou->dt_kind == DK_UNION) {
			m->dm_off = 0;
			if (ms > size)
				size = ms;
			continue;
		}
		uint32_t off = 0;
		if (!first) {
			off = (uint32_t)((end_bits + 7) / 8);
			off = (off + ma - 1) / ma * ma;
		}
		first = false;
		m->dm_off = off;
		end_bits = (uint64_t)off * 8 + (m->dm_bits ? m->dm_bits : (uint64_t)ms * 8);
		if (off + ms > size)
			size = off + ms;
	}
	sou->dt_align = align;
	sou->dt_size = size;
	sou->dt_complete = 1;
}

struct d_member *
d_type_member(const struct d_type *t, const char *name)
{
	for (struct d_member *m = t->dt_members; m; m = m->dm_next) {
		if (m->dm_name && strcmp(m->dm_name, name) == 0)
			return m;
		/* anonymous struct/union members are searched through */
		if (!m->dm_name && (m->dm_type->dt_kind == DK_STRUCT || m->dm_type->dt_kind == DK_UNION)) {
			struct d_member *in = d_type_member(m->dm_type, name);
			if (in)
				return in;
		}
	}
	return NULL;
}

/* "int", "char *", "int [5]", "struct foo *" — C's spelling. */
const char *
d_type_name(struct d_hdl *dh, const struct d_type *t, char *buf, size_t len)
{
	(void)dh;
	if (!t) {
		snprintf(buf, len, "<untyped>");
		return buf;
	}
	if (t->dt_name) {
		snprintf(buf, len, "%s", t->dt_name);
		return buf;
	}
	char inner[256];
	switch (t->dt_kind) {
	case DK_PTR:
		d_type_name(dh, t->dt_ref, inner, sizeof(inner));
		snprintf(buf, len, "%s *", inner);
		break;
	case DK_ARRAY:
		d_type_name(dh, t->dt_ref, inner, sizeof(inner));
		snprintf(buf, len, "%s [%u]", inner, t->dt_nelems);
		break;
	case DK_FUNC:
		d_type_name(dh, t->dt_ref, inner, sizeof(inner));
		snprintf(buf, len, "%s ()", inner);
		break;
	default:
		snprintf(buf, len, "<anon>");
	}
	return buf;
}

bool
d_type_is_int(const struct d_type *t)
{
	return t && (t->dt_kind == DK_INT || t->dt_kind == DK_ENUM);
}

bool
d_type_is_arith(const struct d_type *t)
{
	return d_type_is_int(t) || (t && t->dt_kind == DK_FLOAT);
}

bool
d_type_is_scalar(const struct d_type *t)
{
	return d_type_is_arith(t) || (t && (t->dt_kind == DK_PTR || t->dt_kind == DK_ARRAY));
}

bool
d_type_is_ptrlike(const struct d_type *t)
{
	return t && (t->dt_kind == DK_PTR || t->dt_kind == DK_ARRAY);
}

bool
d_type_is_string(const struct d_type *t)
{
	return t && t->dt_kind == DK_STRING;
}

static bool
d_type_same(const struct d_type *a, const struct d_type *b)
{
	if (a == b)
		return true;
	if (!a || !b || a->dt_kind != b->dt_kind)
		return false;
	switch (a->dt_kind) {
	case DK_INT:
		return a->dt_size == b->dt_size && a->dt_signed == b->dt_signed;
	case DK_PTR:
		return d_type_same(a->dt_ref, b->dt_ref) ||
		    a->dt_ref->dt_kind == DK_VOID || b->dt_ref->dt_kind == DK_VOID;
	case DK_ARRAY:
		return a->dt_nelems == b->dt_nelems && d_type_same(a->dt_ref, b->dt_ref);
	case DK_STRUCT: case DK_UNION: case DK_ENUM:
		return a->dt_name && b->dt_name && strcmp(a->dt_name, b->dt_name) == 0;
	default:
		return true;
	}
}

/* May a value of type b be stored where type a is expected? (C's rules as
 * D applies them: integers with integers, pointers to compatible types
 * or void, identical aggregates, strings with strings.) */
bool
d_type_compat(const struct d_type *a, const struct d_type *b)
{
	if (d_type_is_int(a) && d_type_is_int(b))
		return true;
	if (a->dt_kind == DK_PTR && d_type_is_ptrlike(b))
		return d_type_same(a, b) || a->dt_ref->dt_kind == DK_VOID ||
		    b->dt_ref->dt_kind == DK_VOID || d_type_same(a->dt_ref, b->dt_ref);
	if (a->dt_kind == DK_STRING && b->dt_kind == DK_STRING)
		return true;
	return d_type_same(a, b);
}

/* The descriptor dfmt/dagg use for a value of type t. */
void
d_type_vdesc(struct d_hdl *dh, const struct d_type *t, struct d_vdesc *vd)
{
	memset(vd, 0, sizeof(*vd));
	if (t->dt_name) {
		vd->dv_tname = t->dt_name;
	} else {
		char buf[256];
		vd->dv_tname = d_strdup(dh, d_type_name(dh, t, buf, sizeof(buf)));
	}
	if (t->dt_vk) {
		vd->dv_kind = t->dt_vk;
		vd->dv_size = t->dt_vk == D_VK_KSYM || t->dt_vk == D_VK_KMOD ? 8 : 16;
		vd->dv_isize = 8;
		return;
	}
	switch (t->dt_kind) {
	case DK_INT:
	case DK_ENUM:
		vd->dv_kind = t->dt_signed ? D_VK_INT : D_VK_UINT;
		vd->dv_isize = (uint8_t)t->dt_size;
		vd->dv_size = 8;
		if (t->dt_char)
			vd->dv_flags |= D_VF_CHAR;
		break;
	case DK_PTR:
		vd->dv_kind = D_VK_PTR;
		vd->dv_isize = 8;
		vd->dv_size = 8;
		break;
	case DK_STRING:
		vd->dv_kind = D_VK_STRING;
		vd->dv_size = (uint32_t)dh->dh_opt[O_STRSIZE];
		break;
	case DK_ARRAY:
		vd->dv_kind = D_VK_RAW;
		vd->dv_size = t->dt_size;
		if (t->dt_ref->dt_char)
			vd->dv_flags |= D_VF_CHARARR;
		break;
	default:
		vd->dv_kind = D_VK_RAW;
		vd->dv_size = t->dt_size;
		break;
	}
}

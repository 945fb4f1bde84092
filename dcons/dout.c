/*
 * dout.c — the entry points of dout.h: the table of output formats (name,
 * writer), and the exit-time / printa drivers that feed aggregation entries
 * to the profile a writer draws (folded, SVG, pprof) or to JSON.  Labels
 * live in dout_label.c.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "dcons/dout_impl.h"

typedef int (*dout_write_f)(FILE *fp, const struct dout_prof *p,
    const struct dout_opts *o);

static int
folded_write(FILE *fp, const struct dout_prof *p, const struct dout_opts *o)
{
	(void)o;
	return dout_folded_write(fp, p);
}

/* The output formats, ORDER: enum dout_fmt.  A format with a writer is
 * drawn from the profile of every aggregation's entries; text and JSON
 * (NULL) print aggregation by aggregation. */
static const struct dout_format {
	const char *of_name;
	dout_write_f of_write;
} dout_formats[DOUT_NFMTS] = {
	{ "text", NULL },
	{ "folded", folded_write },
	{ "svg", dout_svg_write },
	{ "pprof", dout_pprof_write },
	{ "json", NULL },
};

int
dout_fmt_byname(const char *name)
{
	for (int i = 0; name != NULL && i < DOUT_NFMTS; i++)
		if (strcasecmp(name, dout_formats[i].of_name) == 0)
			return i;
	return -1;
}

const char *
dout_fmt_name(int fmt)
{
	return fmt >= 0 && fmt < DOUT_NFMTS ? dout_formats[fmt].of_name : NULL;
}

static int
has_suffix(const char *s, const char *suf)
{
	size_t n = strlen(s), m = strlen(suf);

	return n > m && strcasecmp(s + n - m, suf) == 0;
}

int
dout_fmt_bypath(const char *path)
{
	static const struct { const char *suf; int fmt; } tab[] = {
		{ ".svg", DOUT_SVG }, { ".folded", DOUT_FOLDED },
		{ ".pb.gz", DOUT_PPROF }, { ".pprof", DOUT_PPROF },
		{ ".pb", DOUT_PPROF }, { ".json", DOUT_JSON },
		{ ".jsonl", DOUT_JSON },
	};

	for (size_t i = 0; path != NULL && i < sizeof(tab) / sizeof(tab[0]); i++)
		if (has_suffix(path, tab[i].suf))
			return tab[i].fmt;
	return DOUT_TEXT;
}

/* ---- aggregation entries ------------------------------------------------------- */

static void
agg_label(const dagg_t *a, char *buf, size_t len)
{
	const char *n = dagg_name(a);

	snprintf(buf, len, "@%s", n && strcmp(n, "_") != 0 ? n : "");
}

struct prof_walk {
	struct dout_prof *pw_p;
	const dagg_t *pw_a;
};

static int
prof_entry(void *arg, const void *key, const struct d_vdesc *kd, int nkeys,
    const int64_t *vals, int nvals)
{
	struct prof_walk *w = arg;

	(void)nvals;
	return dout_prof_add(w->pw_p, key, kd, nkeys,
	    dagg_scalar(w->pw_a, vals, NULL));
}

/* Every non-empty aggregation into p; with several, each path starts
 * with the aggregation's name so they stay apart. */
static int
prof_from_set(struct dout_prof *p, dagg_set_t *set)
{
	int n = dagg_set_naggs(set), used = 0, r = 0;
	char name[256];

	for (int i = 0; i < n; i++)
		used += dagg_nentries(dagg_set_agg(set, i)) > 0;
	for (int i = 0; i < n && r == 0; i++) {
		struct prof_walk w = { p, dagg_set_agg(set, i) };

		if (dagg_nentries(w.pw_a) == 0)
			continue;
		if (dagg_func(w.pw_a) != DAGG_COUNT && dagg_func(w.pw_a) < DAGG_QUANTIZE)
			p->p_valued = 1;
		agg_label(w.pw_a, name, sizeof(name));
		p->p_aggname = used > 1 ?
		    dout_intern(&p->p_str, name, strlen(name)) : NULL;
		if (used > 1 && p->p_aggname == NULL)
			return -ENOMEM;
		r = dagg_walk(dagg_set_agg(set, i), p->p_cx, 0, prof_entry, &w);
	}
	return r ? r : p->p_err;
}

struct json_walk {
	FILE *jw_fp;
	const struct dfmt_ctx *jw_cx;
	const dagg_t *jw_a;
	char jw_name[256];
};

static int
json_entry(void *arg, const void *key, const struct d_vdesc *kd, int nkeys,
    const int64_t *vals, int nvals)
{
	struct json_walk *w = arg;
	int nb = dagg_nbuckets(w->jw_a);
	int64_t *b = NULL;
	struct dout_jagg ja = { w->jw_name, dagg_func(w->jw_a), 0, 0, nb,
	    NULL, NULL, NULL };
	int r;

	(void)nvals;
	ja.ja_value = dagg_scalar(w->jw_a, vals, &ja.ja_unsigned);
	if (nb > 0) {
		if ((b = malloc(3 * (size_t)nb * sizeof(*b))) == NULL)
			return -ENOMEM;
		for (int i = 0; i < nb; i++)
			dagg_bucket(w->jw_a, vals, i, &b[i], &b[nb + i],
			    &b[2 * nb + i]);
		ja.ja_lo = b;
		ja.ja_hi = b + nb;
		ja.ja_count = b + 2 * nb;
	}
	r = dout_json_agg(w->jw_fp, w->jw_cx, &ja, key, kd, nkeys);
	free(b);
	return r;
}

static int
json_agg(FILE *fp, const struct dfmt_ctx *cx, dagg_t *a)
{
	struct json_walk w = { fp, cx, a, { 0 } };

	agg_label(a, w.jw_name, sizeof(w.jw_name));
	return dagg_walk(a, cx, 1, json_entry, &w);
}

int
dout_print_all(FILE *fp, const struct dout_opts *o, const struct dfmt_ctx *cx,
    dagg_set_t *set)
{
	struct dout_prof p;
	int r = 0;

	if (fp == NULL || o == NULL || set == NULL || o->do_fmt <= DOUT_TEXT ||
	    o->do_fmt >= DOUT_NFMTS)
		return -EINVAL;
	if (o->do_fmt == DOUT_JSON) {
		for (int i = 0; i < dagg_set_naggs(set) && r == 0; i++) {
			dagg_t *a = dagg_set_agg(set, i);

			if (!dagg_printed(a) && dagg_nentries(a) > 0)
				r = json_agg(fp, cx, a);
		}
		return r;
	}
	dout_prof_init(&p, cx);
	r = prof_from_set(&p, set);
	if (r == 0)
		r = dout_formats[o->do_fmt].of_write(fp, &p, o);
	dout_prof_fini(&p);
	if (r == 0 && fflush(fp) != 0)
		r = -EIO;
	return r;
}

int
dout_printa(FILE *fp, const struct dout_opts *o, const struct dfmt_ctx *cx,
    dagg_t *const *aggs, int naggs)
{
	int r = 0;

	if (fp == NULL || aggs == NULL || naggs <= 0)
		return -EINVAL;
	(void)o;
	for (int i = 0; i < naggs && r == 0; i++) {
		if (aggs[i] == NULL)
			return -EINVAL;
		r = json_agg(fp, cx, aggs[i]);
		if (r == 0)
			dagg_mark_printed(aggs[i]);
	}
	return r;
}

/*
 * dout.c — the entry points of dout.h: format names, the counter and title
 * a picture is labelled with, and the exit-time / printa drivers that feed
 * aggregation entries to the profile (folded, SVG, pprof) or to JSON.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "dcons/dout_impl.h"

/* ORDER: enum dout_fmt. */
static const char *const dout_fmt_names[DOUT_NFMTS] = {
	"text", "folded", "svg", "pprof", "json",
};

int
dout_fmt_byname(const char *name)
{
	for (int i = 0; name != NULL && i < DOUT_NFMTS; i++)
		if (strcasecmp(name, dout_fmt_names[i]) == 0)
			return i;
	return -1;
}

const char *
dout_fmt_name(int fmt)
{
	return fmt >= 0 && fmt < DOUT_NFMTS ? dout_fmt_names[fmt] : NULL;
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

/* ---- labels ---------------------------------------------------------------- */

/* profile-N[unit]: N per second by default; the period in ns. */
static int64_t
profile_period_ns(const char *arg)
{
	static const struct { const char *u; double mul; } units[] = {
		{ "ns", 1 }, { "nsec", 1 }, { "us", 1e3 }, { "usec", 1e3 },
		{ "ms", 1e6 }, { "msec", 1e6 }, { "s", 1e9 }, { "sec", 1e9 },
	};
	char *end;
	double n = strtod(arg, &end);

	if (end == arg || n <= 0)
		return 0;
	if (*end == '\0' || strcasecmp(end, "hz") == 0)
		return (int64_t)(1e9 / n);
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (strcasecmp(end, units[i].u) == 0)
			return (int64_t)(n * units[i].mul);
	return 0;
}

static int
all_digits(const char *s)
{
	if (*s == '\0')
		return 0;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return 0;
	return 1;
}

void
dout_counter(const char *desc, char *buf, size_t len, int64_t *period,
    int *period_ns)
{
	char text[256];
	const char *name, *dash;
	int64_t per = 0;
	int ns = 0;
	size_t n;

	/* descriptions may come with the blank that ended them ("x-997 ") */
	snprintf(text, sizeof(text), "%s", desc ? desc : "");
	for (n = strlen(text); n > 0 && isspace((unsigned char)text[n - 1]); n--)
		text[n - 1] = '\0';
	name = strrchr(text, ':');
	name = name ? name + 1 : text;
	dash = strrchr(name, '-');
	/* globs and the dtrace provider's probes count nothing in particular */
	if (*name == '\0' || strpbrk(name, "*?[") != NULL ||
	    strcmp(name, "BEGIN") == 0 || strcmp(name, "END") == 0 ||
	    strcmp(name, "ERROR") == 0) {
		snprintf(buf, len, "samples");
	} else if (strncmp(name, "profile", 7) == 0 ||
	    strncmp(name, "tick", 4) == 0) {
		snprintf(buf, len, "samples");
		per = dash ? profile_period_ns(dash + 1) : 0;
		ns = 1;
	} else if (dash != NULL && dash != name && all_digits(dash + 1)) {
		snprintf(buf, len, "%.*s", (int)(dash - name), name);
		per = strtoll(dash + 1, NULL, 10);
	} else {
		snprintf(buf, len, "%s", name);
	}
	if (period)
		*period = per;
	if (period_ns)
		*period_ns = ns;
}

/* The script's name (its basename), or the -n text on one line. */
static void
script_label(const char *s, char *buf, size_t len)
{
	const char *slash = strrchr(s, '/');
	size_t o = 0;
	int space = 0;

	if (strpbrk(s, "{}\n") == NULL) {
		snprintf(buf, len, "%s", slash ? slash + 1 : s);
		return;
	}
	for (; *s && o + 4 < len && o < 72; s++) {
		if (isspace((unsigned char)*s)) {
			space = o > 0;
			continue;
		}
		if (space)
			buf[o++] = ' ';
		space = 0;
		buf[o++] = *s;
	}
	if (*s != '\0' && o + 4 <= len)
		memcpy(buf + o, "...", 3), o += 3;
	buf[o] = '\0';
}

void
dout_title(const struct dout_opts *o, char *buf, size_t len)
{
	char counter[128], script[128];

	if (o != NULL && o->do_title != NULL && *o->do_title != '\0') {
		snprintf(buf, len, "%s", o->do_title);
		return;
	}
	dout_counter(o ? o->do_probe : NULL, counter, sizeof(counter), NULL,
	    NULL);
	script_label(o && o->do_script ? o->do_script :
	    o && o->do_progname ? o->do_progname : "pmctrace", script,
	    sizeof(script));
	snprintf(buf, len, "%s \xe2\x80\x94 %s", script, counter);
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

static int
write_prof(FILE *fp, const struct dout_opts *o, const struct dout_prof *p)
{
	switch (o->do_fmt) {
	case DOUT_FOLDED:
		return dout_folded_write(fp, p);
	case DOUT_SVG:
		return dout_svg_write(fp, p, o);
	case DOUT_PPROF:
		return dout_pprof_write(fp, p, o);
	default:
		return -EINVAL;
	}
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
		r = write_prof(fp, o, &p);
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

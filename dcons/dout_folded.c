/*
 * dout_folded.c — Brendan Gregg's folded stacks: one line per distinct
 * path, "root;frame;...;leaf count", sorted by path, as stackcollapse-*.pl
 * print them and flamegraph.pl, speedscope and inferno read them.
 *
 * Paths that fold to the same text (offsets dropped, different pids with
 * the same user stack) are summed into one line.  A ';' inside a frame
 * would split it, so it is written as ':'; control characters as '?'.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "dcons/dout_impl.h"

struct fline {
	char *fl_text;
	int64_t fl_value;
};

static size_t
line_len(const struct dout_prof *p, const struct dout_sample *s)
{
	size_t n = 0;

	for (uint32_t i = 0; i < s->s_nframes; i++)
		n += p->p_frames[s->s_first + i].f_text->s_len + 1;
	return n;
}

static char *
line_text(const struct dout_prof *p, const struct dout_sample *s)
{
	char *t = malloc(line_len(p, s) + 1), *o = t;

	if (t == NULL)
		return NULL;
	for (uint32_t i = 0; i < s->s_nframes; i++) {
		const struct dout_str *f = p->p_frames[s->s_first + i].f_text;

		if (i > 0)
			*o++ = ';';
		for (uint32_t j = 0; j < f->s_len; j++) {
			unsigned char c = (unsigned char)f->s_text[j];

			*o++ = c == ';' ? ':' : c < 0x20 || c == 0x7f ? '?' :
			    (char)c;
		}
	}
	*o = '\0';
	return t;
}

static int
fline_cmp(const void *l, const void *r)
{
	return strcmp(((const struct fline *)l)->fl_text,
	    ((const struct fline *)r)->fl_text);
}

static int
write_lines(FILE *fp, struct fline *v, size_t n)
{
	for (size_t i = 0; i < n; ) {
		int64_t sum = v[i].fl_value;
		size_t j = i + 1;

		for (; j < n && strcmp(v[j].fl_text, v[i].fl_text) == 0; j++)
			sum += v[j].fl_value;
		if (fprintf(fp, "%s %" PRId64 "\n", v[i].fl_text, sum) < 0)
			return -EIO;
		i = j;
	}
	return 0;
}

int
dout_folded_write(FILE *fp, const struct dout_prof *p)
{
	struct fline *v;
	size_t n = 0;
	int r = 0;

	if (p->p_err)
		return p->p_err;
	if ((v = calloc(p->p_nsamples + 1, sizeof(*v))) == NULL)
		return -ENOMEM;
	for (; n < p->p_nsamples; n++) {
		v[n].fl_value = p->p_samples[n].s_value;
		if ((v[n].fl_text = line_text(p, &p->p_samples[n])) == NULL) {
			r = -ENOMEM;
			break;
		}
	}
	if (r == 0) {
		qsort(v, n, sizeof(*v), fline_cmp);
		r = write_lines(fp, v, n);
	}
	for (size_t i = 0; i < n; i++)
		free(v[i].fl_text);
	free(v);
	return r;
}

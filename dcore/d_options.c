/*
 * d_options.c — DTrace's options (-x name=value, #pragma D option, setopt).
 *
 * One row per option: its DTrace name, how its value is parsed (a size
 * with k/m/g/t, a rate such as "10hz" or "1s" kept in nanoseconds, a count,
 * a boolean, one of a few words), its default, and whether it may change
 * while the program runs (setopt()).  Unknown names and bad values fail with
 * DTrace's messages ("Invalid option name", "Invalid value for specified
 * option").
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "dcore/d_impl.h"

enum { OT_BOOL, OT_SIZE, OT_RATE, OT_COUNT, OT_POLICY, OT_STR, OT_OFORMAT };

static const struct d_optdef {
	const char *name;
	int opt;
	int type;
	int64_t dflt;
	bool runtime;		/* may change after d_go (setopt) */
} d_opts[] = {
	{ "aggrate", O_AGGRATE, OT_RATE, 1000000000LL, true },
	{ "aggsize", O_AGGSIZE, OT_SIZE, 4 << 20, false },
	{ "bufresize", O_BUFRESIZE, OT_POLICY, 0, false },
	{ "bufsize", O_BUFSIZE, OT_SIZE, 4 << 20, false },
	{ "bufpolicy", O_BUFPOLICY, OT_POLICY, 0, false },
	{ "cleanrate", O_CLEANRATE, OT_RATE, 9900990LL, true },
	{ "cpp", O_CPP, OT_BOOL, 0, false },
	{ "cpppath", O_CPPPATH, OT_STR, 0, false },
	{ "defaultargs", O_DEFAULTARGS, OT_BOOL, 0, false },
	{ "destructive", O_DESTRUCTIVE, OT_BOOL, 0, false },
	{ "dynvarsize", O_DYNVARSIZE, OT_SIZE, 1 << 20, false },
	{ "errtags", O_ERRTAGS, OT_BOOL, 0, false },
	{ "flowindent", O_FLOWINDENT, OT_BOOL, 0, true },
	{ "grabanon", O_GRABANON, OT_BOOL, 0, false },
	{ "jstackframes", O_JSTACKFRAMES, OT_COUNT, 50, false },
	{ "jstackstrsize", O_JSTACKSTRSIZE, OT_SIZE, 512, false },
	{ "nspec", O_NSPEC, OT_COUNT, 1, false },
	{ "quiet", O_QUIET, OT_BOOL, 0, true },
	{ "specsize", O_SPECSIZE, OT_SIZE, 32 << 10, false },
	{ "stackframes", O_STACKFRAMES, OT_COUNT, 20, false },
	{ "statusrate", O_STATUSRATE, OT_RATE, 1000000000LL, true },
	{ "strsize", O_STRSIZE, OT_SIZE, 256, false },
	{ "switchrate", O_SWITCHRATE, OT_RATE, 1000000000LL, true },
	{ "ustackframes", O_USTACKFRAMES, OT_COUNT, 100, false },
	{ "rawbytes", O_RAWBYTES, OT_BOOL, 0, true },
	{ "aggsortkey", O_AGGSORTKEY, OT_BOOL, 0, true },
	{ "aggsortkeypos", O_AGGSORTKEYPOS, OT_COUNT, -1, true },
	{ "aggsortpos", O_AGGSORTPOS, OT_COUNT, -1, true },
	{ "aggsortrev", O_AGGSORTREV, OT_BOOL, 0, true },
	{ "aggzoom", O_AGGZOOM, OT_BOOL, 0, true },
	{ "aggpercpu", O_AGGPERCPU, OT_BOOL, 0, true },
	{ "temporal", O_TEMPORAL, OT_BOOL, 0, false },
	{ "stackindent", O_STACKINDENT, OT_COUNT, 14, true },
	{ "zdefs", O_ZDEFS, OT_BOOL, 0, false },
	{ "version", O_VERSION, OT_STR, 0, false },
	{ "linkmode", O_LINKMODE, OT_STR, 0, false },
	{ "strip", O_STRIP, OT_BOOL, 0, false },
	{ "cpu", O_CPU, OT_COUNT, -1, false },
	{ "amin", O_AMIN, OT_STR, 0, false },
	{ "argref", O_ARGREF, OT_BOOL, 0, false },
	{ "cpphdrs", O_CPPHDRS, OT_BOOL, 0, false },
	{ "debug", O_DEBUG, OT_BOOL, 0, false },
	{ "difo", O_DIFO, OT_BOOL, 0, false },
	{ "disasm", O_DISASM, OT_BOOL, 0, false },
	{ "empty", O_EMPTY, OT_BOOL, 0, false },
	{ "evaltime", O_EVALTIME, OT_STR, 0, false },
	{ "lazyload", O_LAZYLOAD, OT_BOOL, 0, false },
	{ "libdir", O_LIBDIR, OT_STR, 0, false },
	{ "linktype", O_LINKTYPE, OT_STR, 0, false },
	{ "nolibs", O_NOLIBS, OT_BOOL, 0, false },
	{ "pgmax", O_PGMAX, OT_COUNT, 0, false },
	{ "pspec", O_PSPEC, OT_BOOL, 0, false },
	{ "scratchsize", O_SCRATCHSIZE, OT_SIZE, 1 << 20, false },
	{ "stdc", O_STDC, OT_STR, 0, false },
	{ "syncdest", O_SYNCDEST, OT_STR, 0, false },
	{ "syncrate", O_SYNCRATE, OT_RATE, 0, false },
	{ "tree", O_TREE, OT_COUNT, 0, false },
	{ "treedump", O_TREEDUMP, OT_BOOL, 0, false },
	{ "undef", O_UNDEF, OT_STR, 0, false },
	{ "verbose", O_VERBOSE, OT_BOOL, 0, false },
	{ "maxframes", O_MAXFRAMES, OT_COUNT, 127, false },
	{ "iregs", O_IREGS, OT_COUNT, 8, false },
	{ "dtypes", O_DTYPES, OT_BOOL, 0, false },
	{ "maxstrsize", O_MAXSTRSIZE, OT_SIZE, 8192, false },
	{ "outputformat", O_OUTPUTFMT, OT_STR, 0, false },
	{ "pmcmultiplex", O_PMCMULTIPLEX, OT_BOOL, 0, false },
	{ "oformat", O_OFORMAT, OT_OFORMAT, DOUT_TEXT, false },
	{ "flamereverse", O_FLAMEREVERSE, OT_BOOL, 0, false },
	{ "flametitle", O_FLAMETITLE, OT_STR, 0, false },
	{ NULL, 0, 0, 0, false }
};

static const struct d_optdef *
d_optdef(const char *name)
{
	for (int i = 0; d_opts[i].name; i++)
		if (strcmp(d_opts[i].name, name) == 0)
			return &d_opts[i];
	return NULL;
}

int
d_opt_lookup(const char *name)
{
	const struct d_optdef *o = d_optdef(name);
	return o ? o->opt : -1;
}

void
d_opt_defaults(struct d_hdl *dh)
{
	for (int i = 0; d_opts[i].name; i++)
		dh->dh_opt[d_opts[i].opt] = d_opts[i].dflt;
}

static int
d_opt_size(const char *v, int64_t *out)
{
	char *end;
	errno = 0;
	long long n = strtoll(v, &end, 0);
	if (end == v || errno || n < 0)
		return -1;
	int64_t mul = 1;
	switch (tolower((unsigned char)*end)) {
	case 't': mul <<= 10; /* FALLTHROUGH */
	case 'g': mul <<= 10; /* FALLTHROUGH */
	case 'm': mul <<= 10; /* FALLTHROUGH */
	case 'k': mul <<= 10; end++; break;
	case '\0': break;
	default: return -1;
	}
	if (*end)
		return -1;
	*out = (int64_t)n * mul;
	return 0;
}

/* Rates and times in nanoseconds; a bare number (or "hz") is a frequency. */
static int
d_opt_rate(const char *v, int64_t *out)
{
	static const struct { const char *s; int64_t mul; } sfx[] = {
		{ "ns", 1 }, { "nsec", 1 }, { "us", 1000 }, { "usec", 1000 },
		{ "ms", 1000000 }, { "msec", 1000000 }, { "s", 1000000000LL },
		{ "sec", 1000000000LL }, { "m", 60000000000LL }, { "min", 60000000000LL },
		{ "h", 3600000000000LL }, { "hour", 3600000000000LL },
		{ "d", 86400000000000LL }, { "day", 86400000000000LL }, { "hz", 0 },
		{ "", 0 }, { NULL, 0 }
	};
	char *end;
	errno = 0;
	long long n = strtoll(v, &end, 0);
	if (end == v || errno || n < 0)
		return -1;
	for (int i = 0; sfx[i].s; i++) {
		if (strcasecmp(sfx[i].s, end) != 0)
			continue;
		if (sfx[i].mul == 0)
			*out = n ? 1000000000LL / n : 0;
		else
			*out = (int64_t)n * sfx[i].mul;
		return 0;
	}
	return -1;
}

int
d_opt_parse_value(int opt, const char *value, int64_t *out)
{
	const struct d_optdef *o = NULL;
	for (int i = 0; d_opts[i].name; i++)
		if (d_opts[i].opt == opt)
			o = &d_opts[i];
	if (!o)
		return -1;
	switch (o->type) {
	case OT_BOOL:
		if (!value) {
			*out = 1;
			return 0;
		}
		if (strcmp(value, "0") == 0 || strcasecmp(value, "false") == 0 || strcasecmp(value, "no") == 0) {
			*out = 0;
			return 0;
		}
		*out = 1;
		return 0;
	case OT_SIZE:
		return value ? d_opt_size(value, out) : -1;
	case OT_RATE:
		return value ? d_opt_rate(value, out) : -1;
	case OT_COUNT: {
		if (!value)
			return -1;
		char *end;
		errno = 0;
		long long n = strtoll(value, &end, 0);
		if (end == value || *end || errno || n < 0)
			return -1;
		/* a frame count sizes per-firing buffers: beyond any stack
		 * perf can deliver (kernel.perf_event_max_stack), it only
		 * exhausts memory */
		if ((opt == O_STACKFRAMES || opt == O_USTACKFRAMES || opt == O_JSTACKFRAMES) &&
		    n > D_MAX_STACKFRAMES)
			return -1;
		*out = n;
		return 0;
	}
	case OT_POLICY:
		if (!value)
			return -1;
		if (opt == O_BUFPOLICY) {
			if (strcmp(value, "switch") == 0) *out = 0;
			else if (strcmp(value, "fill") == 0) *out = 1;
			else if (strcmp(value, "ring") == 0) *out = 2;
			else return -1;
		} else {
			if (strcmp(value, "auto") == 0) *out = 0;
			else if (strcmp(value, "manual") == 0) *out = 1;
			else return -1;
		}
		return 0;
	case OT_OFORMAT:
		if (!value || (*out = dout_fmt_byname(value)) < 0)
			return -1;
		return 0;
	default:
		*out = value ? 1 : 0;
		return 0;
	}
}

int
d_opt_set(struct d_hdl *dh, const char *name, const char *value)
{
	const struct d_optdef *o = d_optdef(name);
	int64_t v;
	if (!o) {
		snprintf(dh->dh_errmsg, sizeof(dh->dh_errmsg), "Invalid option name");
		return -1;
	}
	if (dh->dh_going && !o->runtime) {
		snprintf(dh->dh_errmsg, sizeof(dh->dh_errmsg), "Operation illegal when tracing is active");
		return -1;
	}
	if (o->opt == O_VERSION && value && strncmp(value, "1.", 2) != 0 && strncmp(value, "2.", 2) != 0) {
		snprintf(dh->dh_errmsg, sizeof(dh->dh_errmsg), "Invalid value for specified option");
		return -1;
	}
	if (d_opt_parse_value(o->opt, value, &v) != 0) {
		snprintf(dh->dh_errmsg, sizeof(dh->dh_errmsg), "Invalid value for specified option");
		return -1;
	}
	if (o->opt == O_STRSIZE && (v < 2 || v > 65536)) {
		snprintf(dh->dh_errmsg, sizeof(dh->dh_errmsg), "Invalid value for specified option");
		return -1;
	}
	dh->dh_opt[o->opt] = v;
	dh->dh_optset[o->opt] = true;
	if (o->type == OT_STR) {
		free((char *)dh->dh_optstr[o->opt]);
		dh->dh_optstr[o->opt] = value ? strdup(value) : NULL;
	}
	return 0;
}

int
d_opt_get(struct d_hdl *dh, const char *name, int64_t *val)
{
	const struct d_optdef *o = d_optdef(name);
	if (!o) {
		snprintf(dh->dh_errmsg, sizeof(dh->dh_errmsg), "Invalid option name");
		return -1;
	}
	*val = dh->dh_opt[o->opt];
	return 0;
}

/* Options the running program sees at once (setopt, d_setopt after go). */
void
d_opt_apply_runtime(struct d_hdl *dh)
{
	dh->dh_fctx.fc_quiet = (int)dh->dh_opt[O_QUIET];
	dh->dh_fctx.fc_rawbytes = (int)dh->dh_opt[O_RAWBYTES];
	dh->dh_fctx.fc_stackindent = (uint32_t)dh->dh_opt[O_STACKINDENT];
	if (dh->dh_aggset) {
		struct dagg_sortopts so = {
			(int)dh->dh_opt[O_AGGSORTKEY], (int)dh->dh_opt[O_AGGSORTKEYPOS],
			(int)dh->dh_opt[O_AGGSORTPOS], (int)dh->dh_opt[O_AGGSORTREV],
			(int)dh->dh_opt[O_AGGZOOM],
		};
		dagg_set_sortopts(dh->dh_aggset, &so);
	}
}

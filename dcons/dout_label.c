/*
 * dout_label.c — the words a picture or a profile is labelled with: the
 * counter a probe description counts ("samples", "cycles", "sched_switch")
 * with its period, and the title (the script's name, or the -n text on one
 * line, then the counter).  Every writer labels through here; nothing here
 * calls a writer.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "dcons/dout_impl.h"

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

/*
 * tracedata.c — the TRACING_DATA feature of a recording: the tracefs
 * format files of its tracepoint events, in the layout perf writes and
 * reads (perf report and perf script refuse a file with tracepoint events
 * and no such data: "broken or missing trace data").
 *
 * Layout (little-endian, as the recording machine):
 *   "\x17\x08\x44" "tracing" "0.6\0"    magic and version
 *   u8 big-endian?  u8 sizeof(long)  u32 page size
 *   "header_page\0"  u64 size  bytes    events/header_page
 *   "header_event\0" u64 size  bytes    events/header_event
 *   u32 0                               ftrace's own formats: none
 *   u32 nsystems, then per system: "name\0" u32 nevents,
 *       then per event: u64 size, the events/<sys>/<event>/format text
 *   u32 0                               kallsyms: none
 *   u32 0                               printk formats: none
 *   u64 0                               saved cmdlines: none
 * The format files are found by the events' tracepoint ids (attr.config),
 * so they must be read while the events exist (before their closed hooks
 * remove dynamic ones).
 */
#include "sampler/smp_impl.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct smp_tbuf {
	unsigned char *p;
	size_t len, cap;
	int err;
};

static void
smp_tput(struct smp_tbuf *b, const void *src, size_t n)
{
	if (b->err || !n)
		return;
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap : 16384;
		while (cap < b->len + n)
			cap *= 2;
		unsigned char *np = realloc(b->p, cap);
		if (!np) {
			b->err = -ENOMEM;
			return;
		}
		b->p = np;
		b->cap = cap;
	}
	memcpy(b->p + b->len, src, n);
	b->len += n;
}

static void
smp_tput_int(struct smp_tbuf *b, uint64_t v, size_t width)
{
	uint32_t v32 = (uint32_t)v;
	smp_tput(b, width == 4 ? (const void *)&v32 : (const void *)&v, width);
}

/* A whole (small) tracefs file; NULL if unreadable. */
static char *
smp_tslurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	size_t cap = 4096, n = 0;
	char *b = malloc(cap);
	while (b) {
		n += fread(b + n, 1, cap - n, f);
		if (n < cap)
			break;
		char *nb = realloc(b, cap * 2);
		if (!nb) {
			free(b);
			b = NULL;
			break;
		}
		b = nb;
		cap *= 2;
	}
	fclose(f);
	*len = n;
	return b;
}

/* "u64 size, contents" of one file; the name goes first when given. */
static int
smp_tput_file(struct smp_tbuf *b, const char *name, const char *path)
{
	size_t n;
	char *text = smp_tslurp(path, &n);
	if (!text)
		return -ENOENT;
	if (name)
		smp_tput(b, name, strlen(name) + 1);
	smp_tput_int(b, n, 8);
	smp_tput(b, text, n);
	free(text);
	return 0;
}

static const char *
smp_tracefs(void)
{
	static const char *const roots[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	for (size_t i = 0; i < sizeof(roots) / sizeof(roots[0]); i++) {
		char p[128];
		snprintf(p, sizeof(p), "%s/events/header_page", roots[i]);
		if (access(p, R_OK) == 0)
			return roots[i];
	}
	return NULL;
}

/* One tracepoint event of the recording, located in tracefs. */
struct smp_tpev {
	uint64_t id;
	char sys[256], ev[256];
};

static long
smp_read_id(const char *path)
{
	char buf[32];
	FILE *f = fopen(path, "r");
	long v = -1;
	if (!f)
		return -1;
	if (fgets(buf, sizeof(buf), f))
		v = strtol(buf, NULL, 10);
	fclose(f);
	return v;
}

/* Try "system:event" as named; the id must agree. */
static int
smp_tp_by_name(const char *root, const char *name, struct smp_tpev *t)
{
	const char *colon = name ? strchr(name, ':') : NULL;
	char path[1024];
	if (!colon || colon == name || strchr(colon + 1, ':') || strchr(name, '/'))
		return -1;
	snprintf(t->sys, sizeof(t->sys), "%.*s", (int)(colon - name), name);
	snprintf(t->ev, sizeof(t->ev), "%s", colon + 1);
	snprintf(path, sizeof(path), "%s/events/%s/%s/id", root, t->sys, t->ev);
	return smp_read_id(path) == (long)t->id ? 0 : -1;
}

/* Otherwise look through every event directory for the id. */
static int
smp_tp_by_id(const char *root, struct smp_tpev *t)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/events", root);
	DIR *d = opendir(path);
	int found = -1;
	for (struct dirent *s; d && found < 0 && (s = readdir(d));) {
		if (s->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/events/%s", root, s->d_name);
		DIR *e = opendir(path);
		for (struct dirent *v; e && found < 0 && (v = readdir(e));) {
			if (v->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/events/%s/%s/id", root, s->d_name, v->d_name);
			if (smp_read_id(path) != (long)t->id)
				continue;
			snprintf(t->sys, sizeof(t->sys), "%s", s->d_name);
			snprintf(t->ev, sizeof(t->ev), "%s", v->d_name);
			found = 0;
		}
		if (e)
			closedir(e);
	}
	if (d)
		closedir(d);
	return found;
}

/* The recording's distinct tracepoint events that tracefs still knows. */
static int
smp_tp_collect(const struct smp_session *s, const char *root, struct smp_tpev *t, int max)
{
	int n = 0;
	for (int i = 0; i < s->nev && n < max; i++) {
		const struct perf_event_attr *a = &s->ev[i].spec.attr;
		int dup = 0;
		if (a->type != PERF_TYPE_TRACEPOINT)
			continue;
		for (int k = 0; k < n; k++)
			dup |= t[k].id == a->config;
		if (dup)
			continue;
		t[n].id = a->config;
		if (smp_tp_by_name(root, s->ev[i].name, &t[n]) == 0 || smp_tp_by_id(root, &t[n]) == 0)
			n++;
	}
	return n;
}

static void
smp_tput_systems(struct smp_tbuf *b, const char *root, const struct smp_tpev *t, int n)
{
	char path[1024];
	int nsys = 0;
	for (int i = 0; i < n; i++) {
		int first = 1;
		for (int k = 0; k < i; k++)
			first &= strcmp(t[k].sys, t[i].sys) != 0;
		nsys += first;
	}
	smp_tput_int(b, (uint64_t)nsys, 4);
	for (int i = 0; i < n; i++) {
		int first = 1, count = 0;
		for (int k = 0; k < i; k++)
			first &= strcmp(t[k].sys, t[i].sys) != 0;
		if (!first)
			continue;
		for (int k = i; k < n; k++)
			count += !strcmp(t[k].sys, t[i].sys);
		smp_tput(b, t[i].sys, strlen(t[i].sys) + 1);
		smp_tput_int(b, (uint64_t)count, 4);
		for (int k = i; k < n; k++) {
			if (strcmp(t[k].sys, t[i].sys))
				continue;
			snprintf(path, sizeof(path), "%s/events/%s/%s/format", root, t[k].sys, t[k].ev);
			if (smp_tput_file(b, NULL, path) < 0)
				smp_tput_int(b, 0, 8);	/* gone since: an empty format */
		}
	}
}

#define SMP_MAX_TP 256

int
smp_tracing_data_build(const struct smp_session *s, unsigned char **out, size_t *len)
{
	static const unsigned char magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	struct smp_tbuf b = { 0 };
	const char *root = smp_tracefs();
	struct smp_tpev *t;
	char path[256];
	int n;
	*out = NULL;
	*len = 0;
	if (!root || !(t = calloc(SMP_MAX_TP, sizeof(*t))))
		return root ? -ENOMEM : -ENOENT;
	n = smp_tp_collect(s, root, t, SMP_MAX_TP);
	if (n == 0) {
		free(t);
		return -ENOENT;
	}
	smp_tput(&b, magic, sizeof(magic));
	smp_tput(&b, "0.6", 4);
	unsigned char endian = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__, lsize = sizeof(long);
	smp_tput(&b, &endian, 1);
	smp_tput(&b, &lsize, 1);
	smp_tput_int(&b, (uint64_t)sysconf(_SC_PAGESIZE), 4);
	snprintf(path, sizeof(path), "%s/events/header_page", root);
	int err = smp_tput_file(&b, "header_page", path);
	snprintf(path, sizeof(path), "%s/events/header_event", root);
	if (!err)
		err = smp_tput_file(&b, "header_event", path);
	smp_tput_int(&b, 0, 4);
	smp_tput_systems(&b, root, t, n);
	smp_tput_int(&b, 0, 4);
	smp_tput_int(&b, 0, 4);
	smp_tput_int(&b, 0, 8);
	free(t);
	if (err || b.err) {
		free(b.p);
		return err ? err : b.err;
	}
	*out = b.p;
	*len = b.len;
	return 0;
}

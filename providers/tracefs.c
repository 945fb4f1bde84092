/*
 * tracefs.c — kernel tracepoint ids and field layouts from tracefs.
 *
 * The format file lists each field as
 *   field:<type> <name>[<n>];	offset:<o>;	size:<s>;	signed:<0|1>;
 * We keep name, offset, size, signedness, and whether it is a char array
 * (a string such as prev_comm).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "providers/tracefs.h"

static const char *const prov_tracefs_roots[] = {
	"/sys/kernel/tracing",
	"/sys/kernel/debug/tracing",
};

static FILE *
prov_tp_fopen(const char *system, const char *event, const char *file)
{
	char path[256];
	int first_err = 0;
	for (size_t i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/events/%s/%s/%s",
		    prov_tracefs_roots[i], system, event, file);
		FILE *f = fopen(path, "r");
		if (f)
			return f;
		if (i == 0)
			first_err = errno;
	}
	/* The canonical mount's reason (EACCES) beats the old debugfs path's. */
	if (first_err != ENOENT)
		errno = first_err;
	return NULL;
}

static void
prov_tp_parse_field(struct prov_tp *tp, const char *line)
{
	const char *decl = strstr(line, "field:");
	const char *off = strstr(line, "offset:");
	const char *size = strstr(line, "size:");
	const char *sgn = strstr(line, "signed:");
	if (!decl || !off || !size || tp->nfields >= (int)(sizeof(tp->fields) / sizeof(tp->fields[0])))
		return;
	const char *end = strchr(decl, ';');
	if (!end)
		return;
	/* The name is the last word of the declaration, less any "[N]"
	 * ("char prev_comm[16]", but "__data_loc char[] name"). */
	const char *name = end;
	while (name > decl && name[-1] != ' ' && name[-1] != '\t' && name[-1] != '*')
		name--;
	const char *br = memchr(name, '[', (size_t)(end - name));
	const char *name_end = br ? br : end;
	struct prov_tp_field *f = &tp->fields[tp->nfields++];
	snprintf(f->name, sizeof(f->name), "%.*s", (int)(name_end - name), name);
	f->offset = (uint16_t)atoi(off + 7);
	f->size = (uint16_t)atoi(size + 5);
	f->is_signed = sgn ? (uint8_t)atoi(sgn + 7) : 0;
	f->is_dataloc = strstr(decl, "__data_loc") != NULL;
	f->is_string = (br && strstr(decl, "char ") != NULL) || f->is_dataloc;
}

int
prov_tp_load(struct prov_registry *r, const char *system, const char *event,
    struct prov_tp *tp)
{
	memset(tp, 0, sizeof(*tp));
	snprintf(tp->system, sizeof(tp->system), "%s", system);
	snprintf(tp->event, sizeof(tp->event), "%s", event);
	snprintf(tp->name, sizeof(tp->name), "%s:%s", system, event);
	FILE *f = prov_tp_fopen(system, event, "id");
	if (!f && (errno == EACCES || errno == EPERM))
		return prov_errf(r, "tracepoint %s:%s: permission denied reading tracefs; "
		    "run as root (or with CAP_PERFMON and read access to /sys/kernel/tracing)",
		    system, event);
	if (!f)
		return prov_errf(r, "tracepoint %s:%s is not available: tracefs is not "
		    "mounted at /sys/kernel/tracing or the kernel lacks it (try: mount -t tracefs "
		    "tracefs /sys/kernel/tracing)", system, event);
	if (fscanf(f, "%lu", &tp->id) != 1)
		tp->id = 0;
	fclose(f);
	if (!(f = prov_tp_fopen(system, event, "format")))
		return prov_errf(r, "cannot read the format of tracepoint %s:%s", system, event);
	char line[512];
	while (fgets(line, sizeof(line), f))
		if (strstr(line, "field:") && !strstr(line, "common_"))
			prov_tp_parse_field(tp, line);
	fclose(f);
	return 0;
}

const struct prov_tp_field *
prov_tp_field(const struct prov_tp *tp, const char *name)
{
	for (int i = 0; i < tp->nfields; i++)
		if (!strcmp(tp->fields[i].name, name))
			return &tp->fields[i];
	return NULL;
}

uint64_t
prov_tp_uint(const struct prov_tp_field *f, const void *raw, uint32_t rawsize)
{
	if (!f || (uint32_t)f->offset + f->size > rawsize)
		return 0;
	const unsigned char *p = (const unsigned char *)raw + f->offset;
	switch (f->size) {
	case 1: return f->is_signed ? (uint64_t)(int64_t)*(const int8_t *)p : *p;
	case 2: { int16_t s; uint16_t u; memcpy(&u, p, 2); memcpy(&s, p, 2);
		return f->is_signed ? (uint64_t)(int64_t)s : u; }
	case 4: { int32_t s; uint32_t u; memcpy(&u, p, 4); memcpy(&s, p, 4);
		return f->is_signed ? (uint64_t)(int64_t)s : u; }
	case 8: { uint64_t u; memcpy(&u, p, 8); return u; }
	default: return 0;
	}
}

void
prov_tp_attr(const struct prov_tp *tp, struct perf_event_attr *attr, int callchain)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = PERF_TYPE_TRACEPOINT;
	attr->config = tp->id;
	attr->sample_period = 1;
	attr->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
	    PERF_SAMPLE_CPU | PERF_SAMPLE_RAW | PERF_SAMPLE_IDENTIFIER |
	    (callchain ? PERF_SAMPLE_CALLCHAIN : 0);
	attr->sample_id_all = 1;
	attr->use_clockid = 1;
	attr->clockid = 1;	/* CLOCK_MONOTONIC */
	attr->disabled = 1;
}

const char *
prov_tp_str(const struct prov_tp_field *f, const void *raw, uint32_t rawsize,
    char *buf, size_t len)
{
	uint32_t off, n;
	buf[0] = '\0';
	if (!f || len == 0 || (uint32_t)f->offset + f->size > rawsize)
		return buf;
	if (f->is_dataloc) {
		uint32_t loc;
		memcpy(&loc, (const char *)raw + f->offset, 4);
		off = loc & 0xffff;
		n = loc >> 16;
	} else {
		off = f->offset;
		n = f->size;
	}
	if (off > rawsize || n > rawsize - off)
		return buf;
	if (n >= len)
		n = (uint32_t)len - 1;
	memcpy(buf, (const char *)raw + off, n);
	buf[n] = '\0';
	return buf;
}

/* The spec of tp's event on every CPU, owned by ops with the cookie. */
static void
prov_tp_spec(struct prov_registry *r, const struct prov_ops *ops, const struct prov_tp *tp,
    uint64_t cookie, struct smp_event_spec *sp)
{
	prov_spec_init(sp, tp->name, ops, cookie);
	prov_tp_attr(tp, &sp->attr, prov_cfg(r)->want_callchains & 3);
}

static int
prov_tp_submit(struct prov_registry *r, struct smp_session *s, const struct smp_event_spec *sp)
{
	int evidx;
	if (smp_add_event(s, sp, &evidx) < 0)
		return prov_errf(r, "%s", smp_errmsg(s));
	return evidx;
}

int
prov_tp_add(struct prov_registry *r, struct smp_session *s, const struct prov_ops *ops,
    const struct prov_tp *tp, uint64_t cookie, int leader, int with_read)
{
	struct smp_event_spec sp;
	prov_tp_spec(r, ops, tp, cookie, &sp);
	if (with_read) {
		sp.attr.sample_type |= PERF_SAMPLE_READ;
		sp.attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID |
		    PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	}
	sp.group_leader = leader;
	return prov_tp_submit(r, s, &sp);
}

int
prov_tp_add_ustack(struct prov_registry *r, struct smp_session *s, const struct prov_ops *ops,
    const struct prov_tp *tp, uint64_t cookie, uint32_t stack_bytes)
{
	struct smp_event_spec sp;
	prov_tp_spec(r, ops, tp, cookie, &sp);
	sp.attr.sample_type |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
	sp.attr.sample_regs_user = 1ull << PROV_REG_SP;
	sp.attr.sample_stack_user = stack_bytes;
	return prov_tp_submit(r, s, &sp);
}

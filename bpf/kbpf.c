/*
 * kbpf.c — loading, filling and attaching the embedded BPF objects through
 * libbpf (contract: bpf/kbpf.h).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpf/kbpf.h"

#define KB_MAX_LINKS 16

struct kb_obj {
	struct bpf_object *obj;
	struct bpf_link *links[KB_MAX_LINKS];
	int nlinks;
	char err[512];
};

/* libbpf's print callback carries no argument: its last warning is kept
 * per thread and copied into the object's message when a call fails. */
static __thread char kb_libbpf_msg[256];

static int
kb_libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (level == LIBBPF_DEBUG)
		return 0;
	char buf[256];
	vsnprintf(buf, sizeof(buf), fmt, ap);
	size_t n = strlen(buf);
	while (n && buf[n - 1] == '\n')
		buf[--n] = 0;
	if (n)
		memcpy(kb_libbpf_msg, buf, n + 1);
	return 0;
}

static int
kb_err(struct kb_obj *o, int err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(o->err, sizeof(o->err), fmt, ap);
	va_end(ap);
	size_t n = strlen(o->err);
	snprintf(o->err + n, sizeof(o->err) - n, ": %s%s%s", strerror(-err),
	    kb_libbpf_msg[0] ? " (libbpf: " : "", kb_libbpf_msg[0] ? kb_libbpf_msg : "");
	if (kb_libbpf_msg[0])
		strncat(o->err, ")", sizeof(o->err) - strlen(o->err) - 1);
	kb_libbpf_msg[0] = 0;
	return err;
}

struct kb_obj *
kb_open(const char *name, int *errp)
{
	size_t size;
	const void *buf = kb_object(name, &size);
	struct kb_obj *o;
	if (!buf) {
		*errp = -ENOENT;
		return NULL;
	}
	if (!(o = calloc(1, sizeof(*o)))) {
		*errp = -ENOMEM;
		return NULL;
	}
	libbpf_set_print(kb_libbpf_print);
	kb_libbpf_msg[0] = 0;
	LIBBPF_OPTS(bpf_object_open_opts, opts, .object_name = name);
	o->obj = bpf_object__open_mem(buf, size, &opts);
	if (!o->obj) {
		*errp = -errno;
		free(o);
		return NULL;
	}
	return o;
}

static struct bpf_map *
kb_map(struct kb_obj *o, const char *map)
{
	struct bpf_map *m = bpf_object__find_map_by_name(o->obj, map);
	if (!m)
		kb_err(o, -ENOENT, "BPF map %s", map);
	return m;
}

int
kb_map_resize(struct kb_obj *o, const char *map, __u32 entries)
{
	struct bpf_map *m = kb_map(o, map);
	if (!m)
		return -ENOENT;
	int err = bpf_map__set_max_entries(m, entries);
	return err ? kb_err(o, err, "BPF map %s: %u entries", map, entries) : 0;
}

int
kb_load(struct kb_obj *o)
{
	int err = bpf_object__load(o->obj);
	return err ? kb_err(o, err, "loading the BPF object %s", bpf_object__name(o->obj)) : 0;
}

int
kb_map_fd(struct kb_obj *o, const char *map)
{
	struct bpf_map *m = kb_map(o, map);
	if (!m)
		return -ENOENT;
	int fd = bpf_map__fd(m);
	return fd < 0 ? kb_err(o, fd, "BPF map %s is not loaded", map) : fd;
}

int
kb_map_update(struct kb_obj *o, const char *map, __u32 key, const void *val)
{
	int fd = kb_map_fd(o, map);
	if (fd < 0)
		return fd;
	if (bpf_map_update_elem(fd, &key, val, BPF_ANY) < 0)
		return kb_err(o, -errno, "BPF map %s[%u]", map, key);
	return 0;
}

int
kb_map_lookup(struct kb_obj *o, const char *map, __u32 key, void *val)
{
	int fd = kb_map_fd(o, map);
	if (fd < 0)
		return fd;
	if (bpf_map_lookup_elem(fd, &key, val) < 0)
		return kb_err(o, -errno, "BPF map %s[%u]", map, key);
	return 0;
}

__u64
kb_prog_misses(struct kb_obj *o, const char *prog)
{
	struct bpf_program *p = bpf_object__find_program_by_name(o->obj, prog);
	struct bpf_prog_info info;
	__u32 len = sizeof(info);
	memset(&info, 0, sizeof(info));
	if (!p || bpf_obj_get_info_by_fd(bpf_program__fd(p), &info, &len) < 0)
		return 0;
	return info.recursion_misses;
}

int
kb_attach(struct kb_obj *o, const char *prog)
{
	struct bpf_program *p = bpf_object__find_program_by_name(o->obj, prog);
	if (!p)
		return kb_err(o, -ENOENT, "BPF program %s", prog);
	if (o->nlinks == KB_MAX_LINKS)
		return kb_err(o, -ENOSPC, "BPF program %s", prog);
	struct bpf_link *l = bpf_program__attach(p);
	if (!l)
		return kb_err(o, -errno, "attaching BPF program %s (%s)", prog,
		    bpf_program__section_name(p));
	o->links[o->nlinks++] = l;
	return 0;
}

void
kb_close(struct kb_obj *o)
{
	if (!o)
		return;
	for (int i = 0; i < o->nlinks; i++)
		bpf_link__destroy(o->links[i]);
	bpf_object__close(o->obj);
	free(o);
}

const char *
kb_errmsg(const struct kb_obj *o)
{
	return o && o->err[0] ? o->err : "no error";
}

int
kb_possible_cpus(void)
{
	return libbpf_num_possible_cpus();
}

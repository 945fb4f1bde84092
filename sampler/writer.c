/*
 * writer.c — records a live session into a perf.data file (file mode)
 * that perf report and perf script read.
 *
 * Layout: header | data (records as read from the rings, a FINISHED_ROUND
 * after each drain round) | feature index | feature payloads (tracing data
 * of the tracepoint events, host, event names, groups...) | ids | attrs.  The header is written last, once every offset is known; until
 * then the file has a zero header, so a crash never leaves a file that
 * looks complete.  It is written under a temporary name (PATH.pmctrace-PID)
 * and renamed to PATH only once complete, after a session that started:
 * a failed run leaves nothing a later -E PATH would replay, and a killed
 * one's temporary file is removed by the next recording to PATH.
 */
#include "sampler/smp_impl.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#define SMP_WBUF (1 << 20)
#define SMP_HDR_SIZE 104
#define SMP_NAME_ALIGN 64

struct smp_writer {
	int fd;
	char *path;
	char *tmp;		/* written here, renamed to path when complete */
	unsigned char *buf;
	size_t used;
	uint64_t off;		/* file offset of buf[0] */
	uint64_t since_round;	/* records since the last FINISHED_ROUND */
	unsigned char *tracing;	/* the TRACING_DATA payload, NULL without tracepoints */
	size_t tracing_len;
	int err;
};

static int
smp_wflush(struct smp_writer *w)
{
	size_t done = 0;
	while (done < w->used) {
		ssize_t r = pwrite(w->fd, w->buf + done, w->used - done, (off_t)(w->off + done));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			w->err = r < 0 ? -errno : -EIO;
			return w->err;
		}
		done += (size_t)r;
	}
	w->off += w->used;
	w->used = 0;
	return 0;
}

static int
smp_wbytes(struct smp_writer *w, const void *p, size_t n)
{
	while (n) {
		if (w->used == SMP_WBUF && smp_wflush(w))
			return w->err;
		size_t k = SMP_WBUF - w->used < n ? SMP_WBUF - w->used : n;
		memcpy(w->buf + w->used, p, k);
		w->used += k;
		p = (const char *)p + k;
		n -= k;
	}
	return 0;
}

static uint64_t
smp_wpos(const struct smp_writer *w)
{
	return w->off + w->used;
}

/* Temporary files of recordings to path whose pmctrace was killed. */
static void
smp_writer_stale(const char *path)
{
	const char *slash = strrchr(path, '/');
	char dir[4096], prefix[512], full[4096 + 512];
	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - path) + 1 : 1, slash ? path : ".");
	int n = snprintf(prefix, sizeof(prefix), "%s.pmctrace-", slash ? slash + 1 : path);
	DIR *d = opendir(dir);
	if (!d || n <= 0 || (size_t)n >= sizeof(prefix)) {
		if (d)
			closedir(d);
		return;
	}
	for (struct dirent *e; (e = readdir(d)); ) {
		char *end;
		if (strncmp(e->d_name, prefix, (size_t)n))
			continue;
		long owner = strtol(e->d_name + n, &end, 10);
		if (owner <= 0 || *end || owner == getpid() || kill((pid_t)owner, 0) == 0 || errno != ESRCH)
			continue;
		snprintf(full, sizeof(full), "%s/%s", dir, e->d_name);
		unlink(full);
	}
	closedir(d);
}

int
smp_writer_open(struct smp_session *s, const char *path)
{
	struct smp_writer *w = calloc(1, sizeof(*w));
	if (!w || !(w->buf = malloc(SMP_WBUF)) || !(w->path = strdup(path)) ||
	    asprintf(&w->tmp, "%s.pmctrace-%d", path, (int)getpid()) < 0) {
		if (w) {
			free(w->buf);
			free(w->path);
		}
		free(w);
		return smp_err(s, -ENOMEM, "out of memory");
	}
	smp_writer_stale(path);
	w->fd = open(w->tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (w->fd < 0) {
		int err = -errno;
		free(w->tmp);
		free(w->path);
		free(w->buf);
		free(w);
		return smp_err(s, err, "cannot create %s: %s", path, strerror(-err));
	}
	unsigned char zero[SMP_HDR_SIZE] = { 0 };
	smp_wbytes(w, zero, sizeof(zero));
	s->w = w;
	return 0;
}

int
smp_record_to(struct smp_session *s, const char *path)
{
	if (!s || !s->live || !path)
		return -EINVAL;
	if (s->started || s->w)
		return smp_err(s, -EBUSY, "smp_record_to must come before smp_start, once");
	return smp_writer_open(s, path);
}

int
smp_writer_add(struct smp_session *s, const struct perf_event_header *h)
{
	s->w->since_round++;
	return smp_wbytes(s->w, h, h->size);
}

int
smp_writer_round(struct smp_session *s)
{
	struct perf_event_header h = { 68 /* FINISHED_ROUND */, 0, sizeof(h) };
	if (!s->w->since_round)
		return 0;
	s->w->since_round = 0;
	return smp_wbytes(s->w, &h, sizeof(h));
}

/* ---- what existed before we started: COMM and MMAP2 from /proc ----
 *
 * perf report and our own replay learn names and mappings only from
 * records; a process that was already running produced none, so, as perf
 * record does, we make them at the start.  Each carries the sample_id
 * trailer the session's attrs promise (time 0, the first event's id).
 * They are queued like the kernel's records, so the live consumer learns
 * exactly what a replay of the file will (a kworker's name as it was at
 * the start, not at its first sample), and are written as delivered. */

struct smp_synth {
	struct smp_session *s;
	int direct;		/* write now, rather than queue for delivery */
	uint64_t time;		/* in the sample_id trailer */
	unsigned char rec[8192] __attribute__((aligned(8)));
};

static size_t
smp_synth_trailer(struct smp_session *s, unsigned char *p, int32_t pid, int32_t tid, uint64_t time)
{
	const struct perf_event_attr *a = &s->ev[0].spec.attr;
	uint64_t st = a->sample_type, id = s->ev[0].nids ? s->ev[0].ids[0] : 0, zero = 0;
	size_t n = 0;
	if (!a->sample_id_all)
		return 0;
	if (st & PERF_SAMPLE_TID) {
		memcpy(p + n, &pid, 4);
		memcpy(p + n + 4, &tid, 4);
		n += 8;
	}
	if (st & PERF_SAMPLE_TIME)
		memcpy(p + n, &time, 8), n += 8;
	if (st & PERF_SAMPLE_ID)
		memcpy(p + n, &id, 8), n += 8;
	if (st & PERF_SAMPLE_STREAM_ID)
		memcpy(p + n, &id, 8), n += 8;
	if (st & PERF_SAMPLE_CPU)
		memcpy(p + n, &zero, 8), n += 8;
	if (st & PERF_SAMPLE_IDENTIFIER)
		memcpy(p + n, &id, 8), n += 8;
	return n;
}

/* Header + fixed part (len bytes at rec+8) + NUL-padded string + trailer. */
static void
smp_synth_emit(struct smp_synth *y, uint32_t type, uint16_t misc, size_t len, const char *str,
	       int32_t pid, int32_t tid)
{
	size_t sl = strlen(str) + 1, pad = (sl + 7) & ~(size_t)7;
	size_t at = sizeof(struct perf_event_header) + len;
	if (at + pad + 64 > sizeof(y->rec))
		return;
	memset(y->rec + at, 0, pad);
	memcpy(y->rec + at, str, sl);
	at += pad;
	at += smp_synth_trailer(y->s, y->rec + at, pid, tid, y->time);
	struct perf_event_header h = { type, misc, (uint16_t)at };
	memcpy(y->rec, &h, sizeof(h));
	if (y->direct)
		smp_writer_add(y->s, (const struct perf_event_header *)y->rec);
	else
		smp_queue(y->s, 0, (const struct perf_event_header *)y->rec);
}

static void
smp_synth_comm(struct smp_synth *y, int32_t pid, int32_t tid)
{
	char path[64], comm[64] = "";
	snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", pid, tid);
	FILE *f = fopen(path, "r");
	if (!f)
		return;
	if (fgets(comm, sizeof(comm), f))
		comm[strcspn(comm, "\n")] = 0;
	fclose(f);
	uint32_t ids[2] = { (uint32_t)pid, (uint32_t)tid };
	memcpy(y->rec + 8, ids, 8);
	smp_synth_emit(y, PERF_RECORD_COMM, 0, 8, comm, pid, tid);
}

/* One line of /proc/PID/maps; executable file mappings only. */
static void
smp_synth_map(struct smp_synth *y, int32_t pid, const char *line)
{
	unsigned long long start, end, pgoff, ino;
	unsigned maj, min;
	char perms[8];
	int off = 0;
	if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %n", &start, &end, perms, &pgoff,
		   &maj, &min, &ino, &off) < 7 || perms[2] != 'x')
		return;
	const char *name = line + off;
	if (name[0] != '/' && name[0] != '[')
		return;
	struct {
		uint32_t pid, tid;
		uint64_t start, len, pgoff;
		uint32_t maj, min;
		uint64_t ino, ino_gen;
		uint32_t prot, flags;
	} m = { (uint32_t)pid, (uint32_t)pid, start, end - start, pgoff, maj, min, ino, 0,
		(uint32_t)((perms[0] == 'r' ? 1 : 0) | (perms[1] == 'w' ? 2 : 0) | 4),
		(uint32_t)(perms[3] == 's' ? 1 : 2) };
	memcpy(y->rec + 8, &m, sizeof(m));
	smp_synth_emit(y, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER, sizeof(m), name, pid, pid);
}

static void
smp_synth_process(struct smp_synth *y, int32_t pid)
{
	char path[64], line[4096 + 256];
	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	DIR *d = opendir(path);
	if (!d)
		return;
	for (struct dirent *e; (e = readdir(d));)
		if (isdigit((unsigned char)e->d_name[0]))
			smp_synth_comm(y, pid, (int32_t)atoi(e->d_name));
	closedir(d);
	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		smp_synth_map(y, pid, line);
	}
	fclose(f);
}

/* The kernel's text as one MMAP of pid -1, named as perf names it. */
static void
smp_synth_kernel(struct smp_synth *y)
{
	char line[512];
	unsigned long long addr = 0, a;
	char type, name[256];
	FILE *f = fopen("/proc/kallsyms", "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx %c %255s", &a, &type, name) == 3 && !strcmp(name, "_text")) {
			addr = a;
			break;
		}
	fclose(f);
	if (!addr)
		return;	/* kptr_restrict hides it: perf falls back on its own */
	struct {
		uint32_t pid, tid;
		uint64_t start, len, pgoff;
	} m = { (uint32_t)-1, 0, addr, ~0ULL - addr, addr };
	memcpy(y->rec + 8, &m, sizeof(m));
	smp_synth_emit(y, PERF_RECORD_MMAP, PERF_RECORD_MISC_KERNEL, sizeof(m),
		       "[kernel.kallsyms]_text", -1, 0);
}

int
smp_writer_synthesize(struct smp_session *s)
{
	static struct smp_synth y;	/* 8 KiB scratch; the writer is single-threaded */
	memset(&y, 0, offsetof(struct smp_synth, rec));
	y.s = s;
	smp_synth_kernel(&y);
	DIR *d = opendir("/proc");
	if (!d)
		return 0;
	for (struct dirent *e; (e = readdir(d));)
		if (isdigit((unsigned char)e->d_name[0]))
			smp_synth_process(&y, (int32_t)atoi(e->d_name));
	closedir(d);
	return 0;
}

/* A COMM record of the name the consumer gives pid (what it read from
 * /proc/PID/comm, outside the record stream), written now. */
void
smp_record_comm(struct smp_session *s, int32_t pid, const char *comm, uint64_t time)
{
	static struct smp_synth y;
	if (!s || !s->w || pid <= 0 || !s->nev || !comm)
		return;
	memset(&y, 0, offsetof(struct smp_synth, rec));
	y.s = s;
	y.direct = 1;
	y.time = time ? time - 1 : 0;
	uint32_t ids[2] = { (uint32_t)pid, (uint32_t)pid };
	memcpy(y.rec + 8, ids, 8);
	smp_synth_emit(&y, PERF_RECORD_COMM, 0, 8, comm, pid, pid);
}

/* What the consumer learned of pid from /proc, outside the record stream
 * (a process that predates the run, met at its first sample): its name as
 * the consumer now has it and its mappings, into the file now, just before
 * the record being delivered, stamped a nanosecond before it, so a replay
 * knows the process from that point on too. */
void
smp_record_process(struct smp_session *s, int32_t pid, const char *comm, uint64_t time)
{
	static struct smp_synth y;
	char path[64], line[4096 + 256];
	if (!s || !s->w || pid <= 0 || !s->nev)
		return;
	smp_record_comm(s, pid, comm, time);
	memset(&y, 0, offsetof(struct smp_synth, rec));
	y.s = s;
	y.direct = 1;
	y.time = time ? time - 1 : 0;
	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		smp_synth_map(&y, pid, line);
	}
	fclose(f);
}

int
smp_note(struct smp_session *s, const char *line)
{
	size_t n = line ? strlen(line) : 0;
	if (!s || !s->live || !n)
		return 0;
	char *nb = realloc(s->notes, s->notes_len + n + 2);
	if (!nb)
		return -ENOMEM;
	memcpy(nb + s->notes_len, line, n);
	s->notes_len += n;
	if (nb[s->notes_len - 1] != '\n')
		nb[s->notes_len++] = '\n';
	nb[s->notes_len] = '\0';
	s->notes = nb;
	return 0;
}

/* ---- features ---- */

static void
smp_wstring(struct smp_writer *w, const char *str)
{
	uint32_t n = (uint32_t)strlen(str) + 1;
	uint32_t len = (n + SMP_NAME_ALIGN - 1) / SMP_NAME_ALIGN * SMP_NAME_ALIGN;
	char pad[SMP_NAME_ALIGN] = { 0 };
	smp_wbytes(w, &len, 4);
	smp_wbytes(w, str, n);
	smp_wbytes(w, pad, len - n);
}

static void
smp_wevent_desc(struct smp_session *s)
{
	struct smp_writer *w = s->w;
	uint32_t nre = (uint32_t)s->nev, sz = sizeof(struct perf_event_attr);
	smp_wbytes(w, &nre, 4);
	smp_wbytes(w, &sz, 4);
	for (int i = 0; i < s->nev; i++) {
		uint32_t nids = (uint32_t)s->ev[i].nids;
		smp_wbytes(w, &s->ev[i].spec.attr, sz);
		smp_wbytes(w, &nids, 4);
		smp_wstring(w, s->ev[i].name[0] ? s->ev[i].name : "event");
		smp_wbytes(w, s->ev[i].ids, 8 * (size_t)nids);
	}
}

static void
smp_wnrcpus(struct smp_session *s)
{
	long conf = sysconf(_SC_NPROCESSORS_CONF);
	uint32_t v[2] = { conf > 0 ? (uint32_t)conf : (uint32_t)s->ncpu, (uint32_t)s->ncpu };
	smp_wbytes(s->w, v, sizeof(v));
}

/* Groups whose members follow their leader, as perf's evlist has them:
 * u32 count, then per group a name, the leader's index, the group size. */
static int
smp_group_size(const struct smp_session *s, int leader)
{
	int n = 1;
	while (leader + n < s->nev && s->ev[leader + n].spec.group_leader == leader)
		n++;
	return n;
}

static void
smp_wgroup_desc(struct smp_session *s)
{
	uint32_t ngroups = 0;
	for (int i = 0; i < s->nev; i++)
		ngroups += smp_group_size(s, i) > 1;
	smp_wbytes(s->w, &ngroups, 4);
	for (int i = 0; i < s->nev; i++) {
		uint32_t v[2] = { (uint32_t)i, (uint32_t)smp_group_size(s, i) };
		if (v[1] < 2)
			continue;
		smp_wstring(s->w, "{anon_group}");
		smp_wbytes(s->w, v, sizeof(v));
	}
}

static void
smp_wfeature(struct smp_session *s, int feat, const struct utsname *u)
{
	char host[256];
	switch (feat) {
	case SMP_FEAT_TRACING_DATA:
		smp_wbytes(s->w, s->w->tracing, s->w->tracing_len);
		break;
	case SMP_FEAT_HOSTNAME:
		if (gethostname(host, sizeof(host)) != 0)
			snprintf(host, sizeof(host), "%s", u->nodename);
		host[sizeof(host) - 1] = 0;
		smp_wstring(s->w, host);
		break;
	case SMP_FEAT_OSRELEASE:
		smp_wstring(s->w, u->release);
		break;
	case SMP_FEAT_VERSION:
		smp_wstring(s->w, SMP_WRITER_VERSION);
		break;
	case SMP_FEAT_ARCH:
		smp_wstring(s->w, u->machine);
		break;
	case SMP_FEAT_NRCPUS:
		smp_wnrcpus(s);
		break;
	case SMP_FEAT_EVENT_DESC:
		smp_wevent_desc(s);
		break;
	case SMP_FEAT_GROUP_DESC:
		smp_wgroup_desc(s);
		break;
	case SMP_FEAT_NOTES:
		smp_wbytes(s->w, s->notes, s->notes_len + 1);	/* with its NUL */
		break;
	default:
		break;
	}
}

/* ORDER: by feature number, the order perf reads the index in. */
static const int smp_wfeats[] = {
	SMP_FEAT_TRACING_DATA, SMP_FEAT_HOSTNAME, SMP_FEAT_OSRELEASE, SMP_FEAT_VERSION,
	SMP_FEAT_ARCH, SMP_FEAT_NRCPUS, SMP_FEAT_EVENT_DESC, SMP_FEAT_GROUP_DESC,
	SMP_FEAT_NOTES,
};
#define SMP_NWFEATS ((int)(sizeof(smp_wfeats) / sizeof(smp_wfeats[0])))

/* Tracing data only with tracepoint events, group descriptions only with
 * groups; the rest always. */
static int
smp_wfeat_present(const struct smp_session *s, int feat)
{
	int groups = 0;
	switch (feat) {
	case SMP_FEAT_TRACING_DATA:
		return s->w->tracing != NULL;
	case SMP_FEAT_NOTES:
		return s->notes != NULL;
	case SMP_FEAT_GROUP_DESC:
		for (int i = 0; i < s->nev; i++)
			groups |= smp_group_size(s, i) > 1;
		return groups;
	default:
		return 1;
	}
}

/* Feature index right after the data, then each payload; the index is
 * patched once the payload sizes are known. */
static int
smp_wfeatures(struct smp_session *s, uint64_t bits[4])
{
	struct smp_writer *w = s->w;
	struct utsname u;
	uint64_t idx[SMP_NWFEATS][2];
	uint64_t index_off = smp_wpos(w);
	int nidx = 0;
	uname(&u);
	/* the format files are read now, while the events still exist */
	smp_tracing_data_build(s, &w->tracing, &w->tracing_len);
	for (int i = 0; i < SMP_NWFEATS; i++)
		nidx += smp_wfeat_present(s, smp_wfeats[i]);
	memset(idx, 0, sizeof(idx));
	smp_wbytes(w, idx, (size_t)nidx * sizeof(idx[0]));
	for (int i = 0, k = 0; i < SMP_NWFEATS; i++) {
		if (!smp_wfeat_present(s, smp_wfeats[i]))
			continue;
		idx[k][0] = smp_wpos(w);
		smp_wfeature(s, smp_wfeats[i], &u);
		idx[k][1] = smp_wpos(w) - idx[k][0];
		bits[smp_wfeats[i] / 64] |= 1ULL << (smp_wfeats[i] % 64);
		k++;
	}
	if (smp_wflush(w))
		return w->err;
	size_t isz = (size_t)nidx * sizeof(idx[0]);
	if (pwrite(w->fd, idx, isz, (off_t)index_off) != (ssize_t)isz)
		return -EIO;
	return 0;
}

static int
smp_wattrs(struct smp_session *s, uint64_t *attr_off, uint64_t *attr_len)
{
	struct smp_writer *w = s->w;
	uint64_t *ids_off = calloc((size_t)s->nev + 1, sizeof(*ids_off));
	if (!ids_off)
		return -ENOMEM;
	for (int i = 0; i < s->nev; i++) {
		ids_off[i] = smp_wpos(w);
		smp_wbytes(w, s->ev[i].ids, 8 * (size_t)s->ev[i].nids);
	}
	*attr_off = smp_wpos(w);
	for (int i = 0; i < s->nev; i++) {
		uint64_t sec[2] = { ids_off[i], 8 * (uint64_t)s->ev[i].nids };
		smp_wbytes(w, &s->ev[i].spec.attr, sizeof(struct perf_event_attr));
		smp_wbytes(w, sec, sizeof(sec));
	}
	*attr_len = smp_wpos(w) - *attr_off;
	free(ids_off);
	return w->err;
}

int
smp_writer_close(struct smp_session *s)
{
	struct smp_writer *w = s->w;
	uint64_t bits[4] = { 0 }, aoff = 0, alen = 0;
	int err = 0;
	if (!s->started) {
		/* nothing was recorded: no file at all */
		close(w->fd);
		unlink(w->tmp);
		goto out;
	}
	smp_writer_round(s);
	uint64_t data_end = smp_wpos(w);
	err = smp_wfeatures(s, bits);
	if (!err)
		err = smp_wattrs(s, &aoff, &alen);
	if (!err)
		err = smp_wflush(w);
	if (!err) {
		uint64_t h[SMP_HDR_SIZE / 8] = {
			0x32454c4946524550ULL, SMP_HDR_SIZE,
			sizeof(struct perf_event_attr) + 16, aoff, alen,
			SMP_HDR_SIZE, data_end - SMP_HDR_SIZE, 0, 0,
			bits[0], bits[1], bits[2], bits[3],
		};
		if (pwrite(w->fd, h, sizeof(h), 0) != (ssize_t)sizeof(h))
			err = -EIO;
	}
	if (close(w->fd) && !err)
		err = -errno;
	if (!err && rename(w->tmp, w->path) < 0)
		err = -errno;
	if (err) {
		unlink(w->tmp);
		smp_err(s, err, "writing %s: %s", w->path, strerror(-err));
	}
out:
	free(w->tmp);
	free(w->path);
	free(w->buf);
	free(w->tracing);
	free(w);
	s->w = NULL;
	return err;
}

/*
 * file.c — replay of a perf.data file, file mode or pipe mode.
 *
 * Everything below smp_open_buf works on a byte buffer and checks every
 * offset against its length before reading: malformed input gives an
 * error naming the offset, never a read out of bounds.  Records are
 * queued into the ordered merge and released at each FINISHED_ROUND up to
 * the newest time seen before the previous one (perf's ordered-events
 * rule), or by a memory bound when a file has no rounds.
 */
#include "sampler/smp_impl.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#define SMP_MAGIC2 0x32454c4946524550ULL	/* "PERFILE2" */
#define SMP_MAGIC1 0x454c494646524550ULL	/* "PERFFILE" */
#define SMP_FILE_HDR 104
#define SMP_PIPE_HDR 16
#define SMP_QUEUE_MAX_RECS 2000000	/* without rounds, keep at most this many */
#define SMP_POLL_BATCH 65536

enum {	/* perf's own record types (tools/lib/perf/include/perf/event.h) */
	SMP_HEADER_ATTR = 64, SMP_HEADER_EVENT_TYPE = 65, SMP_HEADER_TRACING_DATA = 66,
	SMP_HEADER_BUILD_ID = 67, SMP_FINISHED_ROUND = 68, SMP_ID_INDEX = 69,
	SMP_AUXTRACE_INFO = 70, SMP_AUXTRACE = 71, SMP_EVENT_UPDATE = 78,
	SMP_HEADER_FEATURE = 80, SMP_COMPRESSED = 81, SMP_FINISHED_INIT = 82,
	SMP_COMPRESSED2 = 83,
};

struct smp_file {
	const unsigned char *buf;
	size_t len;
	void *map;			/* smp_open_file's mapping or copy */
	size_t maplen;
	int mapped;
	int pipe;
	uint64_t pos, end;		/* data records still to read */
	char *str[SMP_FEAT_MAX];
	void *raw[SMP_FEAT_MAX];	/* PMU features, as written, for pmu/ */
	size_t raw_len[SMP_FEAT_MAX];
	const unsigned char *tracing;
	size_t tracing_len;
	char *notes;			/* SMP_FEAT_NOTES, NUL-terminated */
	int nr_avail, nr_online;
	ZSTD_DStream *zd;
	unsigned char *zbuf;		/* decompressed records not yet parsed */
	size_t zlen, zcap;
	uint64_t prev_round_max;
	int hint;
	unsigned char scratch[65536] __attribute__((aligned(8)));
};

static uint64_t
smp_get64(const unsigned char *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return v;
}

static uint32_t
smp_get32(const unsigned char *p)
{
	uint32_t v;
	memcpy(&v, p, 4);
	return v;
}

/* [off, off+size) lies inside [0, len). */
static int
smp_in(uint64_t off, uint64_t size, uint64_t len)
{
	return off <= len && size <= len - off;
}

/* ---- event names when the file has no EVENT_DESC ---- */

static const char *const smp_hw_names[] = {
	"cycles", "instructions", "cache-references", "cache-misses",
	"branches", "branch-misses", "bus-cycles",
	"stalled-cycles-frontend", "stalled-cycles-backend", "ref-cycles",
};
static const char *const smp_sw_names[] = {
	"cpu-clock", "task-clock", "page-faults", "context-switches",
	"cpu-migrations", "minor-faults", "major-faults", "alignment-faults",
	"emulation-faults", "dummy", "bpf-output", "cgroup-switches",
};

static void
smp_default_name(const struct perf_event_attr *a, char *buf, size_t len)
{
	uint64_t c = a->config & 0xffffffffULL;	/* hybrid PMUs keep their type above */
	if (a->type == PERF_TYPE_HARDWARE && c < sizeof(smp_hw_names) / sizeof(smp_hw_names[0]))
		snprintf(buf, len, "%s", smp_hw_names[c]);
	else if (a->type == PERF_TYPE_SOFTWARE && c < sizeof(smp_sw_names) / sizeof(smp_sw_names[0]))
		snprintf(buf, len, "%s", smp_sw_names[c]);
	else if (a->type == PERF_TYPE_TRACEPOINT)
		snprintf(buf, len, "tracepoint-%llu", (unsigned long long)a->config);
	else
		snprintf(buf, len, "raw-%u-%#llx", a->type, (unsigned long long)a->config);
}

/* An attr no kernel would have accepted cannot describe the records that
 * follow it: decoding them by it would only drop or misplace them. */
static int
smp_attr_possible(struct smp_session *s, const struct perf_event_attr *a, uint64_t off)
{
	uint64_t st = a->sample_type;
	if (st & ~(uint64_t)(PERF_SAMPLE_MAX - 1))
		return smp_err(s, -EINVAL, "perf.data: attr at offset %#llx: sample_type %#llx has "
			       "bits no kernel defines (%#llx)", (unsigned long long)off,
			       (unsigned long long)st, (unsigned long long)(st & ~(uint64_t)(PERF_SAMPLE_MAX - 1)));
	if ((st & PERF_SAMPLE_WEIGHT) && (st & PERF_SAMPLE_WEIGHT_STRUCT))
		return smp_err(s, -EINVAL, "perf.data: attr at offset %#llx: sample_type %#llx has "
			       "both WEIGHT and WEIGHT_STRUCT, which the kernel refuses together",
			       (unsigned long long)off, (unsigned long long)st);
	if (a->read_format & ~(uint64_t)(PERF_FORMAT_MAX - 1))
		return smp_err(s, -EINVAL, "perf.data: attr at offset %#llx: read_format %#llx has "
			       "bits no kernel defines", (unsigned long long)off,
			       (unsigned long long)a->read_format);
	return 0;
}

static int
smp_file_event(struct smp_session *s, const unsigned char *p, size_t avail, uint64_t off)
{
	struct smp_event_spec spec;
	char name[64];
	memset(&spec, 0, sizeof(spec));
	if (avail < PERF_ATTR_SIZE_VER0)
		return smp_err(s, -EINVAL, "perf.data: attr at offset %#llx is %zu bytes, "
			       "smaller than the first attr layout", (unsigned long long)off, avail);
	smp_attr_copy(&spec.attr, p, avail);
	int err = smp_attr_possible(s, &spec.attr, off);
	if (err)
		return err;
	spec.group_leader = -1;
	smp_default_name(&spec.attr, name, sizeof(name));
	int i = smp_event_new(s, &spec, name);
	return i < 0 ? smp_err(s, i, "out of memory") : i;
}

static int
smp_file_ids(struct smp_session *s, int evidx, const unsigned char *p, uint64_t n)
{
	for (uint64_t k = 0; k < n; k++)
		if (smp_evt_add_id(s, evidx, smp_get64(p + 8 * k)))
			return smp_err(s, -ENOMEM, "out of memory");
	return 0;
}

/* ---- feature sections (same payload in file sections and pipe records) ---- */

/* A perf string: u32 length (with padding), then NUL-padded bytes. */
static int
smp_feat_string(const unsigned char *p, size_t n, size_t *used, char **out)
{
	if (n < 4)
		return -EINVAL;
	uint32_t l = smp_get32(p);
	if (l > n - 4)
		return -EINVAL;
	*out = strndup((const char *)p + 4, l);
	*used = 4 + (size_t)l;
	return *out ? 0 : -ENOMEM;
}

static int
smp_feat_event_desc(struct smp_session *s, const unsigned char *p, size_t n)
{
	if (n < 8)
		return -EINVAL;
	uint32_t nre = smp_get32(p), sz = smp_get32(p + 4);
	size_t o = 8;
	for (uint32_t i = 0; i < nre; i++) {
		if (!smp_in(o, (uint64_t)sz + 4, n))
			return -EINVAL;
		uint32_t nids = smp_get32(p + o + sz);
		size_t used;
		char *name;
		o += (size_t)sz + 4;
		if (smp_feat_string(p + o, n - o, &used, &name))
			return -EINVAL;
		o += used;
		if (!smp_in(o, (uint64_t)nids * 8, n)) {
			free(name);
			return -EINVAL;
		}
		if ((int)i < s->nev && name[0]) {
			free(s->ev[i].name);
			s->ev[i].name = name;
			s->ev[i].spec.name = name;
		} else {
			free(name);
		}
		for (uint32_t k = 0; (int)i < s->nev && k < nids; k++)
			if (smp_idmap_get(&s->ids, smp_get64(p + o + 8 * k)) < 0)
				smp_evt_add_id(s, (int)i, smp_get64(p + o + 8 * k));
		o += (size_t)nids * 8;
	}
	return 0;
}

static int
smp_feat_group_desc(struct smp_session *s, const unsigned char *p, size_t n)
{
	if (n < 4)
		return -EINVAL;
	uint32_t ng = smp_get32(p);
	size_t o = 4;
	for (uint32_t g = 0; g < ng; g++) {
		size_t used;
		char *name;
		if (smp_feat_string(p + o, n - o, &used, &name))
			return -EINVAL;
		free(name);
		o += used;
		if (!smp_in(o, 8, n))
			return -EINVAL;
		uint32_t leader = smp_get32(p + o), nr = smp_get32(p + o + 4);
		o += 8;
		for (uint32_t m = 1; m < nr && (uint64_t)leader + m < (uint64_t)s->nev; m++)
			s->ev[leader + m].spec.group_leader = (int)leader;
	}
	return 0;
}

static int
smp_feature(struct smp_session *s, unsigned feat, const unsigned char *p, size_t n, uint64_t off)
{
	struct smp_file *f = s->f;
	int err = 0;
	size_t used;
	switch (feat) {
	case SMP_FEAT_TRACING_DATA:
		f->tracing = p;
		f->tracing_len = n;
		break;
	case SMP_FEAT_HOSTNAME: case SMP_FEAT_OSRELEASE: case SMP_FEAT_VERSION:
	case SMP_FEAT_ARCH: case SMP_FEAT_CPUDESC: case SMP_FEAT_CPUID:
		free(f->str[feat]);
		f->str[feat] = NULL;
		err = smp_feat_string(p, n, &used, &f->str[feat]);
		break;
	case SMP_FEAT_NRCPUS:
		if (n < 8)
			err = -EINVAL;
		else {
			f->nr_avail = (int)smp_get32(p);
			f->nr_online = (int)smp_get32(p + 4);
		}
		break;
	case SMP_FEAT_EVENT_DESC:
		err = smp_feat_event_desc(s, p, n);
		break;
	case SMP_FEAT_GROUP_DESC:
		err = smp_feat_group_desc(s, p, n);
		break;
	case SMP_FEAT_PMU_MAPPINGS: case SMP_FEAT_CPU_PMU_CAPS:
	case SMP_FEAT_HYBRID_TOPOLOGY: case SMP_FEAT_PMU_CAPS:
		free(f->raw[feat]);
		f->raw_len[feat] = 0;
		if ((f->raw[feat] = malloc(n ? n : 1)) == NULL)
			err = -ENOMEM;
		else {
			memcpy(f->raw[feat], p, n);
			f->raw_len[feat] = n;
		}
		break;
	default:
		break;
	}
	if (err == -EINVAL)
		return smp_err(s, err, "perf.data: malformed feature %u at offset %#llx (%zu bytes)",
			       feat, (unsigned long long)off, n);
	return err ? smp_err(s, err, "out of memory") : 0;
}

/* ---- file-mode header ---- */

static int
smp_file_attrs(struct smp_session *s, const unsigned char *b, uint64_t len)
{
	uint64_t asz = smp_get64(b + 16), aoff = smp_get64(b + 24), alen = smp_get64(b + 32);
	if (asz < PERF_ATTR_SIZE_VER0 + 16 || asz > 4096)
		return smp_err(s, -EINVAL, "perf.data: attr size %llu at offset 0x10 is out of range",
			       (unsigned long long)asz);
	if (!smp_in(aoff, alen, len))
		return smp_err(s, -EINVAL, "perf.data: attrs section [%#llx, +%#llx) is beyond "
			       "the end of the file (%#llx bytes): truncated?", (unsigned long long)aoff,
			       (unsigned long long)alen, (unsigned long long)len);
	for (uint64_t o = aoff; o + asz <= aoff + alen; o += asz) {
		int i = smp_file_event(s, b + o, asz - 16, o);
		if (i < 0)
			return i;
		uint64_t ioff = smp_get64(b + o + asz - 16), isz = smp_get64(b + o + asz - 8);
		if (!smp_in(ioff, isz, len))
			return smp_err(s, -EINVAL, "perf.data: ids of attr %d at [%#llx, +%#llx) are "
				       "beyond the end of the file", i, (unsigned long long)ioff,
				       (unsigned long long)isz);
		int err = smp_file_ids(s, i, b + ioff, isz / 8);
		if (err)
			return err;
	}
	if (!s->nev)
		return smp_err(s, -EINVAL, "perf.data: no events in the attrs section");
	return 0;
}

static int
smp_file_features(struct smp_session *s, const unsigned char *b, uint64_t len)
{
	uint64_t fo = s->f->end;	/* the feature index follows the data */
	for (unsigned feat = 0; feat < 256; feat++) {
		if (!((smp_get64(b + 72 + 8 * (feat / 64)) >> (feat % 64)) & 1))
			continue;
		if (!smp_in(fo, 16, len))
			return smp_err(s, -EINVAL, "perf.data: feature index entry for feature %u at "
				       "offset %#llx is beyond the end of the file", feat,
				       (unsigned long long)fo);
		uint64_t off = smp_get64(b + fo), sz = smp_get64(b + fo + 8);
		if (!smp_in(off, sz, len))
			return smp_err(s, -EINVAL, "perf.data: feature %u section [%#llx, +%#llx) is "
				       "beyond the end of the file", feat, (unsigned long long)off,
				       (unsigned long long)sz);
		if (feat < SMP_FEAT_MAX) {
			int err = smp_feature(s, feat, b + off, (size_t)sz, off);
			if (err)
				return err;
		} else if (feat == SMP_FEAT_NOTES && !s->f->notes &&
			   !(s->f->notes = strndup((const char *)b + off, (size_t)sz))) {
			return smp_err(s, -ENOMEM, "out of memory");
		}
		fo += 16;
	}
	return 0;
}

static int smp_pipe_prescan(struct smp_session *s);

static int
smp_file_header(struct smp_session *s)
{
	struct smp_file *f = s->f;
	const unsigned char *b = f->buf;
	if (f->len < SMP_PIPE_HDR)
		return smp_err(s, -EINVAL, "perf.data: only %zu bytes: not a perf.data file", f->len);
	uint64_t magic = smp_get64(b), hsz = smp_get64(b + 8);
	if (magic == __builtin_bswap64(SMP_MAGIC2) || magic == __builtin_bswap64(SMP_MAGIC1))
		return smp_err(s, -ENOTSUP, "perf.data: a big-endian file (offset 0): not supported");
	if (magic != SMP_MAGIC2 && magic != SMP_MAGIC1)
		return smp_err(s, -EINVAL, "perf.data: bad magic at offset 0: not a perf.data file");
	if (hsz == SMP_PIPE_HDR) {
		f->pipe = 1;
		f->pos = SMP_PIPE_HDR;
		f->end = f->len;
		return smp_pipe_prescan(s);
	}
	if (hsz < SMP_FILE_HDR || f->len < SMP_FILE_HDR)
		return smp_err(s, -EINVAL, "perf.data: header size %llu at offset 8 is neither a "
			       "file (%d) nor a pipe (%d) header, or the file is truncated",
			       (unsigned long long)hsz, SMP_FILE_HDR, SMP_PIPE_HDR);
	uint64_t doff = smp_get64(b + 40), dsz = smp_get64(b + 48);
	if (!smp_in(doff, dsz, f->len))
		return smp_err(s, -EINVAL, "perf.data: data section [%#llx, +%#llx) is beyond the "
			       "end of the file (%#zx bytes): truncated?", (unsigned long long)doff,
			       (unsigned long long)dsz, f->len);
	f->pos = doff;
	f->end = doff + dsz;
	int err = smp_file_attrs(s, b, f->len);
	if (!err)
		err = smp_file_features(s, b, f->len);
	smp_compute_idpos(s);
	/* pmctrace wrote it in the order it delivered: replay that order
	 * exactly (perf's time sort would move a record the live run took
	 * late, and the replay would answer differently) */
	s->fifo = f->str[SMP_FEAT_VERSION] && !strcmp(f->str[SMP_FEAT_VERSION], SMP_WRITER_VERSION);
	return err;
}

/* ---- records ---- */

static int smp_file_records(struct smp_session *s, const unsigned char *b, uint64_t *pos,
			    uint64_t end, int compressed, int max);

static int
smp_pipe_attr(struct smp_session *s, const unsigned char *p, size_t n, uint64_t off)
{
	struct perf_event_attr a;
	if (n < PERF_ATTR_SIZE_VER0)
		return smp_err(s, -EINVAL, "perf.data: HEADER_ATTR at offset %#llx too short",
			       (unsigned long long)off);
	size_t asz = smp_attr_copy(&a, p, n);
	if (asz > n)
		return smp_err(s, -EINVAL, "perf.data: HEADER_ATTR at offset %#llx: attr size %zu "
			       "exceeds the record", (unsigned long long)off, asz);
	int i = smp_file_event(s, p, asz, off);
	if (i < 0)
		return i;
	int err = smp_file_ids(s, i, p + asz, (n - asz) / 8);
	smp_compute_idpos(s);
	return err;
}

static int
smp_zstd_more(struct smp_session *s, size_t want)
{
	struct smp_file *f = s->f;
	if (f->zlen + want <= f->zcap)
		return 0;
	size_t cap = f->zcap ? f->zcap : 1 << 20;
	while (cap < f->zlen + want)
		cap *= 2;
	unsigned char *nb = realloc(f->zbuf, cap);
	if (!nb)
		return smp_err(s, -ENOMEM, "out of memory decompressing");
	f->zbuf = nb;
	f->zcap = cap;
	return 0;
}

/* A COMPRESSED record holds zstd output of whole or partial records; the
 * stream may continue in the next one, so a partial tail is kept. */
static int
smp_compressed(struct smp_session *s, const unsigned char *p, size_t n, uint64_t off)
{
	struct smp_file *f = s->f;
	if (!f->zd && !(f->zd = ZSTD_createDStream()))
		return smp_err(s, -ENOMEM, "out of memory (zstd)");
	ZSTD_inBuffer in = { p, n, 0 };
	while (in.pos < in.size) {
		if (smp_zstd_more(s, 1 << 16))
			return -ENOMEM;
		ZSTD_outBuffer out = { f->zbuf, f->zcap, f->zlen };
		size_t r = ZSTD_decompressStream(f->zd, &out, &in);
		if (ZSTD_isError(r))
			return smp_err(s, -EINVAL, "perf.data: COMPRESSED record at offset %#llx: "
				       "zstd: %s", (unsigned long long)off, ZSTD_getErrorName(r));
		if (out.pos == f->zlen && in.pos < in.size && out.pos < out.size)
			return smp_err(s, -EINVAL, "perf.data: COMPRESSED record at offset %#llx "
				       "makes no progress", (unsigned long long)off);
		f->zlen = out.pos;
	}
	/* perf writes FINISHED_ROUND outside the compressed stream; one inside
	 * is still a round: parse on past it, then report it (1) */
	uint64_t zpos = 0;
	int err, round = 0;
	while ((err = smp_file_records(s, f->zbuf, &zpos, f->zlen, 1, INT32_MAX)) == 1)
		round = 1;
	if (err)
		return err;
	/* an empty payload leaves zbuf NULL: memmove(NULL, NULL, 0) is UB */
	if (zpos)
		memmove(f->zbuf, f->zbuf + zpos, f->zlen - zpos);
	f->zlen -= zpos;
	return round;
}

static int
smp_event_update(struct smp_session *s, const unsigned char *p, size_t n)
{
	/* type 2 = NAME: u64 type, u64 id, char name[] */
	if (n < 17 || smp_get64(p) != 2)
		return 0;
	int i = smp_idmap_get(&s->ids, smp_get64(p + 8));
	if (i < 0)
		return 0;
	char *name = strndup((const char *)p + 16, n - 16);
	if (!name)
		return -ENOMEM;
	free(s->ev[i].name);
	s->ev[i].name = name;
	s->ev[i].spec.name = name;
	return 0;
}

static int
smp_id_index(struct smp_session *s, const unsigned char *p, size_t n)
{
	if (n < 8)
		return 0;
	uint64_t nr = smp_get64(p);
	for (uint64_t k = 0; k < nr && 8 + (k + 1) * 32 <= n; k++) {
		uint64_t id = smp_get64(p + 8 + k * 32), idx = smp_get64(p + 16 + k * 32);
		if (idx < (uint64_t)s->nev && smp_idmap_get(&s->ids, id) < 0)
			smp_evt_add_id(s, (int)idx, id);
	}
	return 0;
}

static void
smp_round(struct smp_session *s, smp_record_cb cb, void *arg, int64_t *delivered)
{
	struct smp_file *f = s->f;
	int64_t n = smp_emit(s, s->fifo ? UINT64_MAX : f->prev_round_max, cb, arg);
	f->prev_round_max = s->merge.max_time;
	*delivered += n > 0 ? n : 0;
}

/* Perf's own record types; *skip gets payload bytes that follow the
 * record outside its header.size. */
static int
smp_user_record(struct smp_session *s, const struct perf_event_header *h, const unsigned char *p,
		uint64_t off, uint64_t room, uint64_t *skip)
{
	size_t n = h->size - sizeof(*h);
	uint64_t extra;
	switch (h->type) {
	case SMP_HEADER_ATTR:
		return smp_pipe_attr(s, p, n, off);
	case SMP_HEADER_TRACING_DATA:
		if (n < 4)
			return smp_err(s, -EINVAL, "perf.data: TRACING_DATA at %#llx too short",
				       (unsigned long long)off);
		extra = smp_get32(p);
		if (extra > room)
			return smp_err(s, -EINVAL, "perf.data: TRACING_DATA at offset %#llx claims "
				       "%llu bytes past the end", (unsigned long long)off,
				       (unsigned long long)extra);
		s->f->tracing = p + n;
		s->f->tracing_len = (size_t)extra;
		*skip = extra;
		return 0;
	case SMP_AUXTRACE:
		/* The trace payload follows the record; we do not decode it. */
		if (n < 8)
			return smp_err(s, -EINVAL, "perf.data: AUXTRACE at %#llx too short",
				       (unsigned long long)off);
		extra = smp_get64(p);
		if (extra > room)
			return smp_err(s, -EINVAL, "perf.data: AUXTRACE at offset %#llx: payload of "
				       "%llu bytes runs past the end", (unsigned long long)off,
				       (unsigned long long)extra);
		*skip = extra;
		return 0;
	case SMP_HEADER_FEATURE:
		if (n < 8)
			return smp_err(s, -EINVAL, "perf.data: HEADER_FEATURE at %#llx too short",
				       (unsigned long long)off);
		return smp_get64(p) < SMP_FEAT_MAX ?
			smp_feature(s, (unsigned)smp_get64(p), p + 8, n - 8, off + 16) : 0;
	case SMP_COMPRESSED:
		return smp_compressed(s, p, n, off);
	case SMP_COMPRESSED2:
		if (n < 8 || smp_get64(p) > n - 8)
			return smp_err(s, -EINVAL, "perf.data: COMPRESSED2 at %#llx: bad size",
				       (unsigned long long)off);
		return smp_compressed(s, p + 8, (size_t)smp_get64(p), off);
	case SMP_EVENT_UPDATE:
		return smp_event_update(s, p, n);
	case SMP_ID_INDEX:
		return smp_id_index(s, p, n);
	default:
		return 0;	/* BUILD_ID, THREAD_MAP, CPU_MAP, TIME_CONV, STAT...: not needed */
	}
}

/* In a pipe the attrs, names, ids and tracing data are records of the
 * stream; the providers must see every event before the first record is
 * delivered, so these are read once at open, and skipped when polled. */
static int
smp_pipe_meta(uint32_t type)
{
	return type == SMP_HEADER_ATTR || type == SMP_HEADER_FEATURE ||
		type == SMP_EVENT_UPDATE || type == SMP_ID_INDEX ||
		type == SMP_HEADER_TRACING_DATA;
}

/* Walk the whole stream for its metadata records.  A malformed record
 * after the attrs ends the walk quietly: polling reaches it and names it
 * (what came before it still replays). */
static int
smp_pipe_prescan(struct smp_session *s)
{
	struct smp_file *f = s->f;
	const unsigned char *b = f->buf;
	uint64_t pos = f->pos;
	while (f->end - pos >= sizeof(struct perf_event_header)) {
		struct perf_event_header h;
		uint64_t skip = 0;
		memcpy(&h, b + pos, sizeof(h));
		if ((h.size < sizeof(h) || h.size > f->end - pos) && !s->nev)
			return smp_err(s, -EINVAL, "perf.data: record of size %u at offset %#llx "
				       "(type %u), before any HEADER_ATTR", h.size,
				       (unsigned long long)pos, h.type);
		if (h.size < sizeof(h) || h.size > f->end - pos)
			break;
		const unsigned char *rec = b + pos;
		if (((uintptr_t)rec & 7) != 0) {
			memcpy(f->scratch, rec, h.size);
			rec = f->scratch;
		}
		if (smp_pipe_meta(h.type) || h.type == SMP_AUXTRACE) {
			int err = smp_user_record(s, &h, rec + sizeof(h), pos,
						  f->end - pos - h.size, &skip);
			if (err)
				return err;
		}
		pos += h.size + skip;
	}
	if (!s->nev)
		return smp_err(s, -EINVAL, "perf.data: a pipe-mode stream with no HEADER_ATTR record");
	return 0;
}

static int
smp_file_queue(struct smp_session *s, const unsigned char *rec)
{
	struct smp_file *f = s->f;
	const struct perf_event_header *h = (const void *)rec;
	int evidx = smp_record_evidx(s, h, h->size);
	int cpu = s->nev ? smp_record_cpu(&s->ev[evidx >= 0 ? evidx : 0].spec.attr, h) : -1;
	if (cpu >= 0 && cpu < s->merge.nq)
		f->hint = cpu;
	int err = smp_queue(s, f->hint, h);
	return err ? smp_err(s, err, "out of memory") : 0;
}

/* Parse up to max records in b[*pos, end); 1 after a FINISHED_ROUND.  In
 * a decompressed buffer a partial record at the end is left for the next
 * chunk instead of being an error. */
static int
smp_file_records(struct smp_session *s, const unsigned char *b, uint64_t *pos, uint64_t end,
		 int compressed, int max)
{
	struct smp_file *f = s->f;
	for (int k = 0; k < max && end - *pos >= sizeof(struct perf_event_header); k++) {
		struct perf_event_header h;
		uint64_t off = *pos, skip = 0;
		memcpy(&h, b + off, sizeof(h));
		if (h.size < sizeof(h))
			return smp_err(s, -EINVAL, "perf.data: record of size %u at offset %#llx "
				       "(type %u)", h.size, (unsigned long long)off, h.type);
		if (h.size > end - off) {
			if (compressed)
				return 0;
			return smp_err(s, -EINVAL, "perf.data: truncated record at offset %#llx: "
				       "type %u, size %u, only %llu bytes left", (unsigned long long)off,
				       h.type, h.size, (unsigned long long)(end - off));
		}
		const unsigned char *rec = b + off;
		if (((uintptr_t)rec & 7) != 0) {	/* keep decoding aligned */
			memcpy(f->scratch, rec, h.size);
			rec = f->scratch;
		}
		int err;
		if (h.type == SMP_FINISHED_ROUND || h.type == SMP_FINISHED_INIT) {
			err = 0;
		} else if (compressed && (h.type == SMP_COMPRESSED || h.type == SMP_COMPRESSED2)) {
			/* b is zbuf, which decompressing again would move */
			return smp_err(s, -EINVAL, "perf.data: COMPRESSED record inside compressed "
				       "data (offset %#llx in the stream)", (unsigned long long)off);
		} else if (f->pipe && !compressed && smp_pipe_meta(h.type)) {
			/* read by smp_pipe_prescan; tracing data only says how
			 * much payload to step over */
			err = h.type != SMP_HEADER_TRACING_DATA ? 0 :
				smp_user_record(s, &h, rec + sizeof(h), off, end - off - h.size, &skip);
		} else if (h.type >= 64) {
			err = smp_user_record(s, &h, rec + sizeof(h), off, end - off - h.size, &skip);
		} else {
			err = smp_file_queue(s, rec);
		}
		if (err < 0)
			return err;
		*pos = off + h.size + skip;
		if (h.type == SMP_FINISHED_ROUND || err == 1)	/* err 1: a round in COMPRESSED */
			return 1;
	}
	if (!compressed && *pos != end && end - *pos < sizeof(struct perf_event_header))
		return smp_err(s, -EINVAL, "perf.data: truncated record header at offset %#llx",
			       (unsigned long long)*pos);
	return 0;
}

static void smp_file_close(struct smp_session *s);
static int
smp_file_poll(struct smp_session *s, int timeout_ms, smp_record_cb cb, void *arg)
{
	(void)timeout_ms;	/* a file never waits */
	struct smp_file *f = s->f;
	int64_t delivered = 0;
	while (!s->eof && delivered == 0) {
		int rc = smp_file_records(s, f->buf, &f->pos, f->end, 0, SMP_POLL_BATCH);
		if (rc < 0)
			return rc;
		if (rc == 1)
			smp_round(s, cb, arg, &delivered);
		/* A file without rounds: bound the window by count instead. */
		while (s->merge.nrec > SMP_QUEUE_MAX_RECS) {
			int r = smp_emit_oldest(s, cb, arg);
			if (r != 1)
				return r;
			delivered++;
		}
		if (f->pos >= f->end) {
			s->eof = 1;
			int64_t n = smp_emit(s, UINT64_MAX, cb, arg);
			if (n < 0)
				return (int)n;
			delivered += n;
		}
	}
	return delivered > INT32_MAX ? INT32_MAX : (int)delivered;
}

/* ---- opening and accessors ---- */

static const struct smp_backend smp_file_backend = {
	.sb_poll = smp_file_poll,
	.sb_close = smp_file_close,
	.sb_slot_by_cpu = 1,
};

struct smp_session *
smp_open_buf(const void *buf, size_t len, int *errp)
{
	struct smp_session *s = smp_session_new(&smp_file_backend);
	int err = -ENOMEM;
	if (!s || !(s->f = calloc(1, sizeof(*s->f))))
		goto fail;
	s->f->buf = buf;
	s->f->len = len;
	s->f->hint = 0;
	err = rb_merge_init(&s->merge, 64);
	if (!err)
		err = smp_file_header(s);
	if (!err)
		return s;
fail:
	if (errp)
		*errp = err;
	smp_open_failed(s, err);
	return NULL;
}

static void
smp_file_close(struct smp_session *s)
{
	struct smp_file *f = s->f;
	if (!f)
		return;
	free(f->notes);
	for (int i = 0; i < SMP_FEAT_MAX; i++) {
		free(f->str[i]);
		free(f->raw[i]);
	}
	if (f->zd)
		ZSTD_freeDStream(f->zd);
	free(f->zbuf);
	if (f->map && f->mapped)
		munmap(f->map, f->maplen);
	else
		free(f->map);
	free(f);
	s->f = NULL;
}

const void *
smp_file_feature(const struct smp_session *s, int feature, size_t *len)
{
	if (!s || !s->f || feature < 0 || feature >= SMP_FEAT_MAX || !s->f->raw[feature])
		return NULL;
	*len = s->f->raw_len[feature];
	return s->f->raw[feature];
}

const char *
smp_file_str(const struct smp_session *s, int feature)
{
	if (!s || !s->f || feature < 0 || feature >= SMP_FEAT_MAX)
		return NULL;
	return s->f->str[feature];
}

const char *
smp_file_notes(const struct smp_session *s)
{
	return s && s->f ? s->f->notes : NULL;
}

const void *
smp_tracing_data(const struct smp_session *s, size_t *len)
{
	if (!s || !s->f || !s->f->tracing)
		return NULL;
	if (len)
		*len = s->f->tracing_len;
	return s->f->tracing;
}

int
smp_file_nrcpus(const struct smp_session *s, int *avail, int *online)
{
	if (!s || !s->f || !s->f->nr_online)
		return -ENOENT;
	if (avail)
		*avail = s->f->nr_avail;
	if (online)
		*online = s->f->nr_online;
	return 0;
}

int
smp_file_is_pipe(const struct smp_session *s)
{
	return s && s->f && s->f->pipe;
}

static int
smp_magic_ok(uint64_t magic)
{
	return magic == SMP_MAGIC1 || magic == SMP_MAGIC2 ||
	    magic == __builtin_bswap64(SMP_MAGIC1) || magic == __builtin_bswap64(SMP_MAGIC2);
}

/* Map a regular file; read anything else (a pipe) into memory. */
static int
smp_slurp(int fd, void **out, size_t *len, int *mapped)
{
	struct stat st;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
		void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (m != MAP_FAILED) {
			*out = m;
			*len = (size_t)st.st_size;
			*mapped = 1;
			return 0;
		}
	}
	size_t cap = 1 << 20, n = 0;
	unsigned char *b = malloc(cap);
	for (;;) {
		if (!b)
			return -ENOMEM;
		ssize_t r = read(fd, b + n, cap - n);
		if (r < 0) {
			/* EINTR: ^C or SIGTERM while reading a slow or endless
			 * stream ends the read (the caller's handlers do not restart) */
			int e = -errno;
			free(b);
			return e;
		}
		if (r == 0)
			break;
		n += (size_t)r;
		/* a stream that does not start as perf.data (-E /dev/zero) is
		 * not read on; the header check then says why it is refused */
		if (n >= 8 && !smp_magic_ok(smp_get64(b)))
			break;
		if (n == cap) {
			unsigned char *nb = realloc(b, cap * 2);
			if (!nb)
				free(b);
			b = nb;
			cap *= 2;
		}
	}
	*out = b;
	*len = n;
	*mapped = 0;
	return 0;
}

struct smp_session *
smp_open_file(const char *path, int *errp)
{
	void *m = NULL;
	size_t len = 0;
	int mapped = 0, err;
	int fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC) : dup(0);
	if (fd < 0) {
		err = -errno;
		struct smp_session tmp;
		memset(&tmp, 0, sizeof(tmp));
		smp_err(&tmp, err, "cannot open %s: %s", path, strerror(-err));
		smp_open_failed_msg(tmp.err);
		if (errp)
			*errp = err;
		return NULL;
	}
	err = smp_slurp(fd, &m, &len, &mapped);
	close(fd);
	if (err) {
		if (errp)
			*errp = err;
		smp_open_failed(NULL, err);
		return NULL;
	}
	struct smp_session *s = smp_open_buf(m, len, errp);
	if (!s) {
		if (mapped)
			munmap(m, len);
		else
			free(m);
		return NULL;
	}
	s->f->map = m;
	s->f->maplen = len;
	s->f->mapped = mapped;
	return s;
}

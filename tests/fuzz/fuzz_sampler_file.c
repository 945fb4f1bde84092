/*
 * fuzz_sampler_file.c — libFuzzer target: the perf.data reader (file and
 * pipe layouts, features, compressed records) on arbitrary bytes, through
 * smp_open_buf.  Everything the reader hands out is read back byte by byte
 * (header strings, tracing data, every record field a pointer reaches), so
 * an out-of-bounds pointer in a record shows up under ASan here rather
 * than in a provider later.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sampler/sampler.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile uint64_t fz_sink;

static void
fz_touch(const void *p, size_t n)
{
	const unsigned char *b = p;
	uint64_t s = 0;
	for (size_t i = 0; p && i < n; i++)
		s += b[i];
	fz_sink += s;
}

static int
fz_record(void *arg, const struct smp_record *r)
{
	(void)arg;
	fz_touch(r->hdr, r->hdr ? r->hdr->size : 0);
	fz_touch(r->callchain, (size_t)r->nr_callchain * sizeof(uint64_t));
	fz_touch(r->raw, r->raw_size);
	if (r->read) {
		fz_touch(r->read, sizeof(*r->read));
		fz_sink += r->read->nr <= SMP_READ_MAX ? 0 : 1;
	}
	fz_touch(r->branches, (size_t)r->nr_branches * sizeof(*r->branches));
	fz_touch(r->regs, (size_t)r->nr_regs * sizeof(uint64_t));
	fz_touch(r->ustack, r->ustack_dyn_size < r->ustack_size ? r->ustack_dyn_size : r->ustack_size);
	if (r->spec)
		fz_touch(r->spec->name, r->spec->name ? strlen(r->spec->name) : 0);
	fz_sink += r->ip ^ r->addr ^ r->period ^ r->time ^ r->id ^ (uint64_t)r->evidx;
	return 0;
}

static void
fz_header(struct smp_session *s)
{
	size_t tlen = 0;
	int avail, online;
	for (int f = -1; f <= SMP_FEAT_MAX; f++) {
		const char *str = smp_file_str(s, f);
		fz_touch(str, str ? strlen(str) : 0);
	}
	fz_touch(smp_tracing_data(s, &tlen), tlen);
	if (smp_file_nrcpus(s, &avail, &online) == 0)
		fz_sink += (uint64_t)avail + (uint64_t)online;
	fz_sink += (uint64_t)smp_file_is_pipe(s);
	for (int i = 0; i < smp_nevents(s); i++) {
		const struct smp_event_spec *e = smp_event(s, i);
		if (e && e->name)
			fz_touch(e->name, strlen(e->name));
		smp_claim(s, i, s, (uint64_t)i);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int err = 0;
	uint32_t cpu[64];
	uint64_t drops[64];
	struct smp_session *s = smp_open_buf(data, size, &err);
	if (!s) {
		const char *m = smp_errmsg(NULL);
		fz_touch(m, m ? strlen(m) : 0);
		return 0;
	}
	fz_header(s);
	/* A poll that returns > 0 delivered something, so the loop ends within
	 * one pass over the input; the bound only guards against a reader that
	 * reports progress without making any. */
	for (int i = 0; i < 1000000 && !smp_at_eof(s); i++)
		if (smp_poll(s, 0, fz_record, NULL) <= 0)
			break;
	smp_flush(s, fz_record, NULL);
	smp_drops(s, cpu, drops, 64);
	fz_touch(smp_errmsg(s), strlen(smp_errmsg(s)));
	smp_close(s);
	return 0;
}

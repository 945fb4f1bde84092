/*
 * sysinfo.c — the sysinfo provider's I/O statistics probes, from the
 * return of the read and write families of system calls
 * (syscalls:sys_exit_<name>, one tracepoint each, so nothing else is
 * sampled):
 *   readch   bytes transferred by read, readv, pread64, preadv, preadv2
 *   writech  bytes transferred by write, writev, pwrite64, pwritev, pwritev2
 *   sysread  every read-family call, syswrite every write-family call
 * As in DTrace, arg0 is the amount the statistic grows by: the bytes for
 * readch/writech (calls returning 0 or an error do not fire them), 1 for
 * sysread/syswrite.  Linux extra: arg1 = the syscall's return value.
 * Sockets read with recv*(2)/send*(2) are not counted (they are not in
 * the families DTrace counts either).
 */
#include <string.h>

#include "providers/tpbacked.h"

enum { SK_READCH, SK_WRITECH, SK_SYSREAD, SK_SYSWRITE, SK_N };
#define SI_NCALLS 10
#define SI_FIRST_WRITE 5	/* si_calls[] lists the reads, then the writes */

/* read and write themselves must exist; an older kernel may lack the
 * others (preadv2...).  The payload is read at fixed offsets. */
#define SI_BASE PROV_TPB_FIXED_LAYOUT
#define SI_OPT (PROV_TPB_FIXED_LAYOUT | PROV_TPB_OPTIONAL)
static const struct prov_tpb_event si_calls[SI_NCALLS] = {
	{ "syscalls", "sys_exit_read", SI_BASE }, { "syscalls", "sys_exit_readv", SI_OPT },
	{ "syscalls", "sys_exit_pread64", SI_OPT }, { "syscalls", "sys_exit_preadv", SI_OPT },
	{ "syscalls", "sys_exit_preadv2", SI_OPT },
	{ "syscalls", "sys_exit_write", SI_BASE }, { "syscalls", "sys_exit_writev", SI_OPT },
	{ "syscalls", "sys_exit_pwrite64", SI_OPT }, { "syscalls", "sys_exit_pwritev", SI_OPT },
	{ "syscalls", "sys_exit_pwritev2", SI_OPT },
};

static const char *const si_names[SK_N] = { "readch", "writech", "sysread", "syswrite" };
static const char *const si_args[] = { "uint64_t", "int64_t" };

static void
si_want(const uint32_t *probe, int *want)
{
	int reads = probe[SK_READCH] || probe[SK_SYSREAD];
	int writes = probe[SK_WRITECH] || probe[SK_SYSWRITE];
	for (int i = 0; i < SI_NCALLS; i++)
		want[i] = i < SI_FIRST_WRITE ? reads : writes;
}

static int
si_fire(uint32_t id, struct d_firing *f, uint64_t v, prov_fire_fn fire, void *arg)
{
	f->df_args[0] = v;
	return prov_tpb_fire(id, f, fire, arg);
}

static int
si_decode(struct prov_registry *r, struct prov_tpb_state *st, const struct smp_record *rec,
    uint64_t cookie, prov_fire_fn fire, void *arg)
{
	if (rec->raw_size < 24)
		return 0;
	int64_t ret;
	/* sys_exit_<name>: __syscall_nr at 8, long ret at 16 */
	memcpy(&ret, (const char *)rec->raw + 16, 8);
	int w = cookie >= SI_FIRST_WRITE;
	uint64_t kbuf[128], ubuf[128];
	struct d_firing f;
	prov_firing_from_sample(r, rec, &f, kbuf, ubuf, 128);
	f.df_args[1] = (uint64_t)ret;
	f.df_nargs = 2;
	int rc = si_fire(st->tbs_probe[w ? SK_SYSWRITE : SK_SYSREAD], &f, 1, fire, arg);
	if (rc || ret <= 0)
		return rc;
	return si_fire(st->tbs_probe[w ? SK_WRITECH : SK_READCH], &f, (uint64_t)ret, fire, arg);
}

static const struct prov_tpb si_tpb = {
	.tb_ops = &prov_sysinfo_ops, .tb_probes = si_names, .tb_nprobes = SK_N,
	.tb_argtypes = si_args, .tb_nargs = 2, .tb_events = si_calls, .tb_nevents = SI_NCALLS,
	.tb_want = si_want, .tb_decode = si_decode,
};

PROV_TPB_OPS(prov_sysinfo_ops, "sysinfo", si_tpb);

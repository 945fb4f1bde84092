/*
 * udp.c — the udp provider: send and receive from sock:sock_send_length and
 * sock:sock_recv_length for UDP sockets, i.e. one firing per sendmsg() /
 * recvmsg() that moved data, in the calling thread's context.
 *
 * args: arg0 = the payload bytes, arg1 = the address family (AF_INET 2,
 * AF_INET6 10).  Linux's sock: tracepoints carry neither addresses nor
 * ports for UDP, so DTrace's ipinfo_t/udpinfo_t fields (addresses, ports)
 * are not available: that is the documented gap of this provider.
 */
#include <netinet/in.h>

#include "providers/tpbacked.h"

enum { UK_SEND, UK_RECEIVE, UK_N };

static const char *const udp_names[UK_N] = { "send", "receive" };
static const struct prov_tpb_event udp_events[UK_N] = {
	{ "sock", "sock_send_length", 0 }, { "sock", "sock_recv_length", 0 },
};
static const char *const udp_args[] = { "uint64_t", "int" };

/* The sock: tracepoints fire for every socket: UDP's that moved data. */
static int
udp_decode(struct prov_registry *r, struct prov_tpb_state *st, const struct smp_record *rec,
    uint64_t cookie, prov_fire_fn fire, void *arg)
{
	const struct prov_tp *tp = &st->tbs_tp[cookie];
	if (!st->tbs_probe[cookie] ||
	    prov_tp_uint(prov_tp_field(tp, "protocol"), rec->raw, rec->raw_size) != IPPROTO_UDP)
		return 0;
	int64_t ret = (int64_t)prov_tp_uint(prov_tp_field(tp, "ret"), rec->raw, rec->raw_size);
	if (ret <= 0)
		return 0;
	uint64_t kbuf[128], ubuf[128];
	struct d_firing f;
	prov_firing_from_sample(r, rec, &f, kbuf, ubuf, 128);
	f.df_args[0] = (uint64_t)ret;
	f.df_args[1] = prov_tp_uint(prov_tp_field(tp, "family"), rec->raw, rec->raw_size);
	f.df_nargs = 2;
	return prov_tpb_fire(st->tbs_probe[cookie], &f, fire, arg);
}

static const struct prov_tpb udp_tpb = {
	.tb_ops = &prov_udp_ops, .tb_probes = udp_names, .tb_nprobes = UK_N,
	.tb_argtypes = udp_args, .tb_nargs = 2, .tb_events = udp_events, .tb_nevents = UK_N,
	.tb_decode = udp_decode,
};

PROV_TPB_OPS(prov_udp_ops, "udp", udp_tpb);

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
#include <stdlib.h>
#include <string.h>

#include "providers/prov_impl.h"

enum { UK_SEND, UK_RECEIVE, UK_N };

struct udp_state {
	struct prov_tp tp[UK_N];
	uint32_t probe[UK_N];
	int planned;
};

static const char *const udp_names[UK_N] = { "send", "receive" };
static const char *const udp_events[UK_N] = { "sock_send_length", "sock_recv_length" };
static const char *const udp_args[] = { "uint64_t", "int" };

static int
udp_emit(struct prov_registry *r, const struct d_probe_desc *pd, d_probe_cb cb, void *arg)
{
	int n = 0;
	for (int k = 0; k < UK_N; k++) {
		struct prov_probe *p = prov_add(r, &prov_udp_ops, "", "", udp_names[k]);
		if (!p)
			return prov_errf(r, "out of memory");
		p->pp_param[0] = (uint64_t)k;
		prov_set_args(p, 2, udp_args);
		if (!prov_desc_match(pd, &p->pp_info))
			continue;
		if (cb && cb(arg, &p->pp_info) < 0)
			return -1;
		n++;
	}
	return n;
}

static struct udp_state *
udp_state_get(struct prov_registry *r)
{
	struct udp_state *st = prov_state(r, &prov_udp_ops);
	if (!st && (st = calloc(1, sizeof(*st))))
		prov_set_state(r, &prov_udp_ops, st);
	if (!st)
		prov_errf(r, "out of memory");
	return st;
}

static int
udp_match(struct prov_registry *r, const struct d_probe_desc *pd, d_probe_cb cb, void *arg)
{
	return udp_state_get(r) ? udp_emit(r, pd, cb, arg) : -1;
}

static int
udp_list(struct prov_registry *r, const struct d_probe_desc *pd, d_probe_cb cb, void *arg)
{
	if (prov_cfg(r)->replay && !prov_state(r, &prov_udp_ops))
		return 0;
	return udp_emit(r, pd, cb, arg);
}

static void
udp_plan(struct prov_registry *r, struct udp_state *st)
{
	for (uint32_t id = 1; id < prov_nprobes(r); id++) {
		struct prov_probe *p = prov_by_id(r, id);
		if (p->pp_ops == &prov_udp_ops && prov_is_enabled(r, id))
			st->probe[p->pp_param[0]] = id;
	}
	st->planned = 1;
}

static int
udp_enable(struct prov_registry *r, struct smp_session *s)
{
	struct udp_state *st = prov_state(r, &prov_udp_ops);
	if (!st)
		return 0;
	udp_plan(r, st);
	for (int k = 0; k < UK_N; k++) {
		if (!st->probe[k])
			continue;
		if (prov_tp_load(r, "sock", udp_events[k], &st->tp[k]) < 0 ||
		    prov_tp_add(r, s, &prov_udp_ops, &st->tp[k], (uint64_t)k, -1, 0) < 0)
			return -1;
	}
	return 0;
}

static int
udp_claim(struct prov_registry *r, struct smp_session *s, int evidx)
{
	const struct smp_event_spec *ev = smp_event(s, evidx);
	if (ev->attr.type != PERF_TYPE_TRACEPOINT || !ev->name || strncmp(ev->name, "sock:", 5))
		return 0;
	for (int k = 0; k < UK_N; k++) {
		if (strcmp(ev->name + 5, udp_events[k]))
			continue;
		struct udp_state *st = udp_state_get(r);
		if (!st || prov_tp_load(r, "sock", udp_events[k], &st->tp[k]) < 0 ||
		    udp_emit(r, &(struct d_probe_desc){ 0 }, NULL, NULL) < 0)
			return -1;
		return prov_claim(r, evidx, &prov_udp_ops, (uint64_t)k);
	}
	return 0;
}

static int
udp_decode(struct prov_registry *r, const struct smp_record *rec, uint64_t cookie,
    prov_fire_fn fire, void *arg)
{
	struct udp_state *st = prov_state(r, &prov_udp_ops);
	if (!st || rec->type != PERF_RECORD_SAMPLE || !rec->raw || cookie >= UK_N)
		return 0;
	if (!st->planned)
		udp_plan(r, st);
	const struct prov_tp *tp = &st->tp[cookie];
	if (!st->probe[cookie] ||
	    prov_tp_uint(prov_tp_field(tp, "protocol"), rec->raw, rec->raw_size) != IPPROTO_UDP)
		return 0;
	int64_t ret = (int64_t)prov_tp_uint(prov_tp_field(tp, "ret"), rec->raw, rec->raw_size);
	if (ret <= 0)
		return 0;
	uint64_t kbuf[128], ubuf[128];
	struct d_firing f;
	prov_firing_from_sample(r, rec, &f, kbuf, ubuf, 128);
	f.df_probe = st->probe[cookie];
	f.df_args[0] = (uint64_t)ret;
	f.df_args[1] = prov_tp_uint(prov_tp_field(tp, "family"), rec->raw, rec->raw_size);
	f.df_nargs = 2;
	return fire(arg, &f);
}

const struct prov_ops prov_udp_ops = {
	.po_name = "udp",
	.po_list = udp_list,
	.po_match = udp_match,
	.po_enable = udp_enable,
	.po_claim = udp_claim,
	.po_decode = udp_decode,
};

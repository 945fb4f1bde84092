/*
 * tcp.c — the tcp provider, as far as Linux's tcp: and sock: tracepoints go.
 *
 *   receive              tcp:tcp_probe — each segment processed on an
 *                        established connection (pure ACKs included)
 *   send                 sock:sock_send_length for TCP sockets — each
 *                        sendmsg() that queued bytes, not each segment
 *                        (Linux has no per-segment transmit tracepoint
 *                        with addresses)
 *   state-change         sock:inet_sock_set_state for TCP sockets
 *   connect-request      the same, CLOSE -> SYN_SENT
 *   connect-established  SYN_SENT -> ESTABLISHED
 *   connect-refused      SYN_SENT -> CLOSE (refused, or timed out)
 *   accept-established   SYN_RECV -> ESTABLISHED
 * The firing context is the current thread: for receive usually the
 * softirq's victim, as in DTrace.
 *
 * args (until the D engine takes provider-declared types, when args[0..5]
 * become pktinfo_t, csinfo_t, ipinfo_t, tcpsinfo_t, tcpinfo_t,
 * tcpnsinfo_t): arg0 = payload bytes (0 for state changes), arg1 = the
 * packet's source address, arg2 = its destination address (strings, as
 * ipinfo_t's ip_saddr/ip_daddr; so for receive the destination is the
 * local address), arg3 = source port, arg4 = destination port, arg5 =
 * the new state and arg6 = the previous state (Linux TCP_* numbers:
 * 1 ESTABLISHED, 2 SYN_SENT, 3 SYN_RECV, ..., 7 CLOSE, 10 LISTEN).
 * send learns a socket's addresses from the state changes and received
 * segments seen before it; a socket seen by neither has empty addresses.
 */
#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>

#include "providers/prov_impl.h"

enum { TK_SEND, TK_RECEIVE, TK_STATE, TK_CONNREQ, TK_CONNEST, TK_CONNREF, TK_ACCEST, TK_N };
enum { TE_PROBE, TE_STATE, TE_SEND, TE_N };
enum { TCPS_ESTABLISHED = 1, TCPS_SYN_SENT = 2, TCPS_SYN_RECV = 3, TCPS_CLOSE = 7 };
#define TCP_NSOCKS 1024

struct tcp_sock {
	uint64_t sk;
	char laddr[48], raddr[48];
	uint16_t lport, rport;
};

struct tcp_state {
	struct prov_tp tp[TE_N];
	uint32_t probe[TK_N];
	int planned;
	struct tcp_sock socks[TCP_NSOCKS];
};

static const char *const tcp_names[TK_N] = {
	"send", "receive", "state-change", "connect-request", "connect-established",
	"connect-refused", "accept-established",
};
static const char *const tcp_events[TE_N][2] = {
	{ "tcp", "tcp_probe" }, { "sock", "inet_sock_set_state" }, { "sock", "sock_send_length" },
};
static const char *const tcp_args[] = {
	"uint64_t", "string", "string", "uint16_t", "uint16_t", "int", "int"
};

static int
tcp_emit(struct prov_registry *r, const struct d_probe_desc *pd, d_probe_cb cb, void *arg)
{
	int n = 0;
	for (int k = 0; k < TK_N; k++) {
		struct prov_probe *p = prov_add(r, &prov_tcp_ops, "", "", tcp_names[k]);
		if (!p)
			return prov_errf(r, "out of memory");
		p->pp_param[0] = (uint64_t)k;
		prov_set_args(p, 7, tcp_args);
		if (!prov_desc_match(pd, &p->pp_info))
			continue;
		if (cb && cb(arg, &p->pp_info) < 0)
			return -1;
		n++;
	}
	return n;
}

static struct tcp_state *
tcp_state_get(struct prov_registry *r)
{
	struct tcp_state *st = prov_state(r, &prov_tcp_ops);
	if (!st && (st = calloc(1, sizeof(*st))))
		prov_set_state(r, &prov_tcp_ops, st);
	if (!st)
		prov_errf(r, "out of memory");
	return st;
}

static int
tcp_match(struct prov_registry *r, const struct d_probe_desc *pd, d_probe_cb cb, void *arg)
{
	return tcp_state_get(r) ? tcp_emit(r, pd, cb, arg) : -1;
}

static int
tcp_list(struct prov_registry *r, const struct d_probe_desc *pd, d_probe_cb cb, void *arg)
{
	if (prov_cfg(r)->replay && !prov_state(r, &prov_tcp_ops))
		return 0;
	return tcp_emit(r, pd, cb, arg);
}

static void
tcp_plan(struct prov_registry *r, struct tcp_state *st)
{
	for (uint32_t id = 1; id < prov_nprobes(r); id++) {
		struct prov_probe *p = prov_by_id(r, id);
		if (p->pp_ops == &prov_tcp_ops && prov_is_enabled(r, id))
			st->probe[p->pp_param[0]] = id;
	}
	st->planned = 1;
}

static int
tcp_enable(struct prov_registry *r, struct smp_session *s)
{
	struct tcp_state *st = prov_state(r, &prov_tcp_ops);
	if (!st)
		return 0;
	tcp_plan(r, st);
	int any = 0;
	for (int k = 0; k < TK_N; k++)
		any |= st->probe[k] != 0;
	if (!any)
		return 0;
	/* state changes and received segments also teach send the addresses */
	int want[TE_N] = { 1, 1, st->probe[TK_SEND] != 0 };
	for (int e = 0; e < TE_N; e++) {
		if (!want[e])
			continue;
		if (prov_tp_load(r, tcp_events[e][0], tcp_events[e][1], &st->tp[e]) < 0 ||
		    prov_tp_add(r, s, &prov_tcp_ops, &st->tp[e], (uint64_t)e, -1, 0) < 0)
			return -1;
	}
	return 0;
}

static int
tcp_claim(struct prov_registry *r, struct smp_session *s, int evidx)
{
	const struct smp_event_spec *ev = smp_event(s, evidx);
	if (ev->attr.type != PERF_TYPE_TRACEPOINT || !ev->name)
		return 0;
	for (int e = 0; e < TE_N; e++) {
		char name[100];
		snprintf(name, sizeof(name), "%s:%s", tcp_events[e][0], tcp_events[e][1]);
		if (strcmp(ev->name, name))
			continue;
		struct tcp_state *st = tcp_state_get(r);
		if (!st || prov_tp_load(r, tcp_events[e][0], tcp_events[e][1], &st->tp[e]) < 0 ||
		    tcp_emit(r, &(struct d_probe_desc){ 0 }, NULL, NULL) < 0)
			return -1;
		return prov_claim(r, evidx, &prov_tcp_ops, (uint64_t)e);
	}
	return 0;
}

static struct tcp_sock *
tcp_sock(struct tcp_state *st, uint64_t sk)
{
	return &st->socks[(sk >> 6) % TCP_NSOCKS];
}

/* A field's bytes as an address of the given family. */
static void
tcp_addr(const struct prov_tp *tp, const struct smp_record *rec, const char *name,
    int family, char *buf, size_t len)
{
	const struct prov_tp_field *f = prov_tp_field(tp, name);
	buf[0] = '\0';
	if (!f || (uint32_t)f->offset + f->size > rec->raw_size)
		return;
	const unsigned char *p = (const unsigned char *)rec->raw + f->offset;
	if (f->size == 28) {	/* struct sockaddr_in / sockaddr_in6 */
		uint16_t fam;
		memcpy(&fam, p, 2);
		if (fam == AF_INET)
			inet_ntop(AF_INET, p + 4, buf, (socklen_t)len);
		else if (fam == AF_INET6)
			inet_ntop(AF_INET6, p + 8, buf, (socklen_t)len);
		return;
	}
	if ((family == AF_INET && f->size >= 4) || (family == AF_INET6 && f->size >= 16))
		inet_ntop(family, p, buf, (socklen_t)len);
}

static int
tcp_fire(uint32_t id, struct d_firing *f, prov_fire_fn fire, void *arg)
{
	if (!id)
		return 0;
	f->df_probe = id;
	return fire(arg, f);
}

/* Fill args 1..4 from what is known of the socket; outgoing says whether
 * the packet goes from the local end. */
static void
tcp_args_from(struct d_firing *f, const struct tcp_sock *so, int outgoing)
{
	f->df_args[1] = (uint64_t)(uintptr_t)(outgoing ? so->laddr : so->raddr);
	f->df_args[2] = (uint64_t)(uintptr_t)(outgoing ? so->raddr : so->laddr);
	f->df_args[3] = outgoing ? so->lport : so->rport;
	f->df_args[4] = outgoing ? so->rport : so->lport;
}

static int
tcp_decode_probe(struct tcp_state *st, const struct smp_record *rec, struct d_firing *f,
    prov_fire_fn fire, void *arg)
{
	const struct prov_tp *tp = &st->tp[TE_PROBE];
	uint64_t sk = prov_tp_uint(prov_tp_field(tp, "skaddr"), rec->raw, rec->raw_size);
	struct tcp_sock *so = tcp_sock(st, sk);
	/* tcp_probe names the socket's ends: saddr is local */
	so->sk = sk;
	tcp_addr(tp, rec, "saddr", 0, so->laddr, sizeof(so->laddr));
	tcp_addr(tp, rec, "daddr", 0, so->raddr, sizeof(so->raddr));
	so->lport = (uint16_t)prov_tp_uint(prov_tp_field(tp, "sport"), rec->raw, rec->raw_size);
	so->rport = (uint16_t)prov_tp_uint(prov_tp_field(tp, "dport"), rec->raw, rec->raw_size);
	f->df_args[0] = prov_tp_uint(prov_tp_field(tp, "data_len"), rec->raw, rec->raw_size);
	tcp_args_from(f, so, 0);
	f->df_args[5] = f->df_args[6] = TCPS_ESTABLISHED;
	return tcp_fire(st->probe[TK_RECEIVE], f, fire, arg);
}

static int
tcp_decode_state(struct tcp_state *st, const struct smp_record *rec, struct d_firing *f,
    prov_fire_fn fire, void *arg)
{
	const struct prov_tp *tp = &st->tp[TE_STATE];
	if (prov_tp_uint(prov_tp_field(tp, "protocol"), rec->raw, rec->raw_size) != IPPROTO_TCP)
		return 0;
	uint64_t sk = prov_tp_uint(prov_tp_field(tp, "skaddr"), rec->raw, rec->raw_size);
	int family = (int)prov_tp_uint(prov_tp_field(tp, "family"), rec->raw, rec->raw_size);
	int64_t old = (int64_t)prov_tp_uint(prov_tp_field(tp, "oldstate"), rec->raw, rec->raw_size);
	int64_t nst = (int64_t)prov_tp_uint(prov_tp_field(tp, "newstate"), rec->raw, rec->raw_size);
	struct tcp_sock *so = tcp_sock(st, sk);
	so->sk = sk;
	tcp_addr(tp, rec, family == AF_INET6 ? "saddr_v6" : "saddr", family, so->laddr, sizeof(so->laddr));
	tcp_addr(tp, rec, family == AF_INET6 ? "daddr_v6" : "daddr", family, so->raddr, sizeof(so->raddr));
	so->lport = (uint16_t)prov_tp_uint(prov_tp_field(tp, "sport"), rec->raw, rec->raw_size);
	so->rport = (uint16_t)prov_tp_uint(prov_tp_field(tp, "dport"), rec->raw, rec->raw_size);
	tcp_args_from(f, so, 1);
	f->df_args[0] = 0;
	f->df_args[5] = (uint64_t)nst;
	f->df_args[6] = (uint64_t)old;
	int rc = tcp_fire(st->probe[TK_STATE], f, fire, arg);
	int k = old == TCPS_CLOSE && nst == TCPS_SYN_SENT ? TK_CONNREQ :
	    old == TCPS_SYN_SENT && nst == TCPS_ESTABLISHED ? TK_CONNEST :
	    old == TCPS_SYN_SENT && nst == TCPS_CLOSE ? TK_CONNREF :
	    old == TCPS_SYN_RECV && nst == TCPS_ESTABLISHED ? TK_ACCEST : -1;
	return rc || k < 0 ? rc : tcp_fire(st->probe[k], f, fire, arg);
}

static int
tcp_decode_send(struct tcp_state *st, const struct smp_record *rec, struct d_firing *f,
    prov_fire_fn fire, void *arg)
{
	const struct prov_tp *tp = &st->tp[TE_SEND];
	if (prov_tp_uint(prov_tp_field(tp, "protocol"), rec->raw, rec->raw_size) != IPPROTO_TCP)
		return 0;
	int64_t ret = (int64_t)prov_tp_uint(prov_tp_field(tp, "ret"), rec->raw, rec->raw_size);
	if (ret <= 0)
		return 0;
	uint64_t sk = prov_tp_uint(prov_tp_field(tp, "sk"), rec->raw, rec->raw_size);
	static const struct tcp_sock unknown;
	const struct tcp_sock *so = tcp_sock(st, sk);
	tcp_args_from(f, so->sk == sk ? so : &unknown, 1);
	f->df_args[0] = (uint64_t)ret;
	f->df_args[5] = f->df_args[6] = TCPS_ESTABLISHED;
	return tcp_fire(st->probe[TK_SEND], f, fire, arg);
}

static int
tcp_decode(struct prov_registry *r, const struct smp_record *rec, uint64_t cookie,
    prov_fire_fn fire, void *arg)
{
	struct tcp_state *st = prov_state(r, &prov_tcp_ops);
	if (!st || rec->type != PERF_RECORD_SAMPLE || !rec->raw || cookie >= TE_N)
		return 0;
	if (!st->planned)
		tcp_plan(r, st);
	uint64_t kbuf[128], ubuf[128];
	struct d_firing f;
	prov_firing_from_sample(r, rec, &f, kbuf, ubuf, 128);
	f.df_nargs = 7;
	switch (cookie) {
	case TE_PROBE: return tcp_decode_probe(st, rec, &f, fire, arg);
	case TE_STATE: return tcp_decode_state(st, rec, &f, fire, arg);
	default: return tcp_decode_send(st, rec, &f, fire, arg);
	}
}

const struct prov_ops prov_tcp_ops = {
	.po_name = "tcp",
	.po_list = tcp_list,
	.po_match = tcp_match,
	.po_enable = tcp_enable,
	.po_claim = tcp_claim,
	.po_decode = tcp_decode,
};

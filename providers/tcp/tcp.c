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
 * args, as DTrace's tcp provider (types declared by this provider):
 *   args[0] pktinfo_t *   pkt_addr = the skb (receive), else 0
 *   args[1] csinfo_t *    cs_addr = cs_cid = the socket, cs_pid = the pid
 *   args[2] ipinfo_t *    ip_ver, ip_plength (payload bytes), ip_saddr,
 *                         ip_daddr of the packet (receive: daddr is local)
 *   args[3] tcpsinfo_t *  the connection: tcps_laddr/raddr, lport/rport,
 *                         tcps_state (illumos TCPS_* numbering, as the
 *                         TCP_STATE_* constants), tcps_active, tcps_local;
 *                         snxt/suna/swnd/rwnd/cwnd/ssthresh/rtt from the
 *                         last received segment (0 until one is seen)
 *   args[4] tcpinfo_t *   tcp_sport, tcp_dport of the packet; the header
 *                         fields Linux's tracepoints lack (seq, ack, flags,
 *                         window...) are 0
 *   args[5] tcplsinfo_t * state-change: the previous state
 * send learns a socket's addresses from the state changes and received
 * segments seen before it; a socket seen by neither has empty addresses.
 */
#include <arpa/inet.h>
#include <string.h>

#include "providers/tpbacked.h"

enum { TK_SEND, TK_RECEIVE, TK_STATE, TK_CONNREQ, TK_CONNEST, TK_CONNREF, TK_ACCEST, TK_N };
enum { TE_PROBE, TE_STATE, TE_SEND, TE_N };
enum { TCPS_ESTABLISHED = 1, TCPS_SYN_SENT = 2, TCPS_SYN_RECV = 3, TCPS_CLOSE = 7 };
#define TCP_NSOCKS 1024

/* The D declarations of args[] and the C structs with the same layout. */
static const char tcp_decls[] =
    "typedef struct pktinfo { uintptr_t pkt_addr; } pktinfo_t;\n"
    "typedef struct csinfo { uintptr_t cs_addr; uint64_t cs_cid; pid_t cs_pid;\n"
    "    zoneid_t cs_zoneid; } csinfo_t;\n"
    "typedef struct ipinfo { uint8_t ip_ver; uint16_t ip_plength; char ip_saddr[64];\n"
    "    char ip_daddr[64]; } ipinfo_t;\n"
    "typedef struct tcpsinfo { uintptr_t tcps_addr; int tcps_local; int tcps_active;\n"
    "    uint16_t tcps_lport; uint16_t tcps_rport; char tcps_laddr[64]; char tcps_raddr[64];\n"
    "    int32_t tcps_state; uint32_t tcps_snxt; uint32_t tcps_suna; uint32_t tcps_swnd;\n"
    "    uint32_t tcps_rwnd; uint32_t tcps_cwnd; uint32_t tcps_cwnd_ssthresh;\n"
    "    uint32_t tcps_rtt; } tcpsinfo_t;\n"
    "typedef struct tcpinfo { uint16_t tcp_sport; uint16_t tcp_dport; uint32_t tcp_seq;\n"
    "    uint32_t tcp_ack; uint8_t tcp_offset; uint8_t tcp_flags; uint16_t tcp_window;\n"
    "    uint16_t tcp_checksum; uint16_t tcp_urgent; uintptr_t tcp_hdr; } tcpinfo_t;\n"
    "typedef struct tcplsinfo { int32_t tcps_state; } tcplsinfo_t;\n"
    "inline int32_t TCP_STATE_CLOSED = -6; inline int32_t TCP_STATE_IDLE = -5;\n"
    "inline int32_t TCP_STATE_BOUND = -4; inline int32_t TCP_STATE_LISTEN = -3;\n"
    "inline int32_t TCP_STATE_SYN_SENT = -2; inline int32_t TCP_STATE_SYN_RECEIVED = -1;\n"
    "inline int32_t TCP_STATE_ESTABLISHED = 0; inline int32_t TCP_STATE_CLOSE_WAIT = 1;\n"
    "inline int32_t TCP_STATE_FIN_WAIT_1 = 2; inline int32_t TCP_STATE_CLOSING = 3;\n"
    "inline int32_t TCP_STATE_LAST_ACK = 4; inline int32_t TCP_STATE_FIN_WAIT_2 = 5;\n"
    "inline int32_t TCP_STATE_TIME_WAIT = 6;\n";

struct tcp_pktinfo { uint64_t pkt_addr; };
struct tcp_csinfo { uint64_t cs_addr, cs_cid; int32_t cs_pid, cs_zoneid; };
struct tcp_ipinfo { uint8_t ip_ver; uint16_t ip_plength; char ip_saddr[64], ip_daddr[64]; };
struct tcp_tcpsinfo {
	uint64_t tcps_addr;
	int32_t tcps_local, tcps_active;
	uint16_t tcps_lport, tcps_rport;
	char tcps_laddr[64], tcps_raddr[64];
	int32_t tcps_state;
	uint32_t tcps_snxt, tcps_suna, tcps_swnd, tcps_rwnd, tcps_cwnd, tcps_cwnd_ssthresh, tcps_rtt;
};
struct tcp_tcpinfo {
	uint16_t tcp_sport, tcp_dport;
	uint32_t tcp_seq, tcp_ack;
	uint8_t tcp_offset, tcp_flags;
	uint16_t tcp_window, tcp_checksum, tcp_urgent;
	uint64_t tcp_hdr;
};
struct tcp_lsinfo { int32_t tcps_state; };
struct tcp_args {
	struct tcp_pktinfo pkt;
	struct tcp_csinfo cs;
	struct tcp_ipinfo ip;
	struct tcp_tcpsinfo tcps;
	struct tcp_tcpinfo tcp;
	struct tcp_lsinfo ls;
};

struct tcp_sock {
	uint64_t sk;
	char laddr[48], raddr[48];
	uint16_t lport, rport;
	uint8_t ver, active;
	int32_t state;			/* Linux TCP_* */
	uint32_t snxt, suna, swnd, rwnd, cwnd, ssthresh, rtt;
};

struct tcp_state {
	struct prov_tpb_state tb;	/* first: the state tpbacked.c keeps */
	struct tcp_sock socks[TCP_NSOCKS];
};

static const char *const tcp_names[TK_N] = {
	"send", "receive", "state-change", "connect-request", "connect-established",
	"connect-refused", "accept-established",
};
static const struct prov_tpb_event tcp_events[TE_N] = {
	{ "tcp", "tcp_probe", 0 }, { "sock", "inet_sock_set_state", 0 },
	{ "sock", "sock_send_length", 0 },
};
static const char *const tcp_argtypes[] = {
	"pktinfo_t *", "csinfo_t *", "ipinfo_t *", "tcpsinfo_t *", "tcpinfo_t *", "tcplsinfo_t *"
};

/* Any probe needs the state changes and received segments: besides
 * firing their own probes they teach send the sockets' addresses. */
static void
tcp_want(const uint32_t *probe, int *want)
{
	int any = 0;
	for (int k = 0; k < TK_N; k++)
		any |= probe[k] != 0;
	want[TE_PROBE] = want[TE_STATE] = any;
	want[TE_SEND] = probe[TK_SEND] != 0;
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

/* Linux TCP_* to the illumos TCPS_* numbers DTrace scripts compare with. */
static int32_t
tcp_dstate(int32_t linux_state)
{
	static const int32_t map[] = { -6, 0, -2, -1, 2, 5, 6, -6, 1, 4, -3, 3, -1 };
	return linux_state >= 0 && linux_state < (int32_t)(sizeof(map) / sizeof(map[0])) ?
	    map[linux_state] : -5;
}

/* args[] for a packet of socket so; outgoing: from the local end. */
static void
tcp_fill(const struct tcp_sock *so, int outgoing, uint64_t bytes, int32_t pid,
    struct d_firing *f, struct tcp_args *a)
{
	memset(a, 0, sizeof(*a));
	a->cs.cs_addr = a->cs.cs_cid = so->sk;
	a->cs.cs_pid = pid;
	a->ip.ip_ver = so->ver;
	a->ip.ip_plength = (uint16_t)(bytes > 0xffff ? 0xffff : bytes);
	snprintf(a->ip.ip_saddr, sizeof(a->ip.ip_saddr), "%s", outgoing ? so->laddr : so->raddr);
	snprintf(a->ip.ip_daddr, sizeof(a->ip.ip_daddr), "%s", outgoing ? so->raddr : so->laddr);
	a->tcps.tcps_addr = so->sk;
	a->tcps.tcps_local = so->laddr[0] && !strcmp(so->laddr, so->raddr);
	a->tcps.tcps_active = so->active;
	a->tcps.tcps_lport = so->lport;
	a->tcps.tcps_rport = so->rport;
	snprintf(a->tcps.tcps_laddr, sizeof(a->tcps.tcps_laddr), "%s", so->laddr);
	snprintf(a->tcps.tcps_raddr, sizeof(a->tcps.tcps_raddr), "%s", so->raddr);
	a->tcps.tcps_state = tcp_dstate(so->state);
	a->tcps.tcps_snxt = so->snxt;
	a->tcps.tcps_suna = so->suna;
	a->tcps.tcps_swnd = so->swnd;
	a->tcps.tcps_rwnd = so->rwnd;
	a->tcps.tcps_cwnd = so->cwnd;
	a->tcps.tcps_cwnd_ssthresh = so->ssthresh;
	a->tcps.tcps_rtt = so->rtt;
	a->tcp.tcp_sport = outgoing ? so->lport : so->rport;
	a->tcp.tcp_dport = outgoing ? so->rport : so->lport;
	a->ls.tcps_state = a->tcps.tcps_state;
	f->df_mem = a;
	f->df_memlen = sizeof(*a);
	f->df_args[0] = (uint64_t)(uintptr_t)&a->pkt;
	f->df_args[1] = (uint64_t)(uintptr_t)&a->cs;
	f->df_args[2] = (uint64_t)(uintptr_t)&a->ip;
	f->df_args[3] = (uint64_t)(uintptr_t)&a->tcps;
	f->df_args[4] = (uint64_t)(uintptr_t)&a->tcp;
	f->df_args[5] = (uint64_t)(uintptr_t)&a->ls;
	f->df_nargs = 6;
}

static uint32_t
tcp_u32(const struct prov_tp *tp, const struct smp_record *rec, const char *name)
{
	return (uint32_t)prov_tp_uint(prov_tp_field(tp, name), rec->raw, rec->raw_size);
}

static int
tcp_decode_probe(struct tcp_state *st, const struct smp_record *rec, struct d_firing *f,
    prov_fire_fn fire, void *arg)
{
	const struct prov_tp *tp = &st->tb.tbs_tp[TE_PROBE];
	uint64_t sk = prov_tp_uint(prov_tp_field(tp, "skaddr"), rec->raw, rec->raw_size);
	struct tcp_sock *so = tcp_sock(st, sk);
	if (so->sk != sk) {
		memset(so, 0, sizeof(*so));
		so->sk = sk;
	}
	/* tcp_probe names the socket's ends: saddr is local */
	tcp_addr(tp, rec, "saddr", 0, so->laddr, sizeof(so->laddr));
	tcp_addr(tp, rec, "daddr", 0, so->raddr, sizeof(so->raddr));
	so->ver = tcp_u32(tp, rec, "family") == AF_INET6 ? 6 : 4;
	so->lport = (uint16_t)tcp_u32(tp, rec, "sport");
	so->rport = (uint16_t)tcp_u32(tp, rec, "dport");
	so->state = TCPS_ESTABLISHED;
	so->snxt = tcp_u32(tp, rec, "snd_nxt");
	so->suna = tcp_u32(tp, rec, "snd_una");
	so->swnd = tcp_u32(tp, rec, "snd_wnd");
	so->rwnd = tcp_u32(tp, rec, "rcv_wnd");
	so->cwnd = tcp_u32(tp, rec, "snd_cwnd");
	so->ssthresh = tcp_u32(tp, rec, "ssthresh");
	so->rtt = tcp_u32(tp, rec, "srtt");
	struct tcp_args a;
	tcp_fill(so, 0, tcp_u32(tp, rec, "data_len"), f->df_pid, f, &a);
	a.pkt.pkt_addr = prov_tp_uint(prov_tp_field(tp, "skbaddr"), rec->raw, rec->raw_size);
	return prov_tpb_fire(st->tb.tbs_probe[TK_RECEIVE], f, fire, arg);
}

static int
tcp_decode_state(struct tcp_state *st, const struct smp_record *rec, struct d_firing *f,
    prov_fire_fn fire, void *arg)
{
	const struct prov_tp *tp = &st->tb.tbs_tp[TE_STATE];
	if (tcp_u32(tp, rec, "protocol") != IPPROTO_TCP)
		return 0;
	uint64_t sk = prov_tp_uint(prov_tp_field(tp, "skaddr"), rec->raw, rec->raw_size);
	int family = (int)tcp_u32(tp, rec, "family");
	int32_t old = (int32_t)tcp_u32(tp, rec, "oldstate");
	int32_t nst = (int32_t)tcp_u32(tp, rec, "newstate");
	struct tcp_sock *so = tcp_sock(st, sk);
	if (so->sk != sk) {
		memset(so, 0, sizeof(*so));
		so->sk = sk;
	}
	tcp_addr(tp, rec, family == AF_INET6 ? "saddr_v6" : "saddr", family, so->laddr, sizeof(so->laddr));
	tcp_addr(tp, rec, family == AF_INET6 ? "daddr_v6" : "daddr", family, so->raddr, sizeof(so->raddr));
	so->ver = family == AF_INET6 ? 6 : 4;
	so->lport = (uint16_t)tcp_u32(tp, rec, "sport");
	so->rport = (uint16_t)tcp_u32(tp, rec, "dport");
	so->state = nst;
	if (nst == TCPS_SYN_SENT || old == TCPS_SYN_SENT)
		so->active = 1;	/* this end connected */
	struct tcp_args a;
	tcp_fill(so, 1, 0, f->df_pid, f, &a);
	a.ls.tcps_state = tcp_dstate(old);
	int rc = prov_tpb_fire(st->tb.tbs_probe[TK_STATE], f, fire, arg);
	int k = old == TCPS_CLOSE && nst == TCPS_SYN_SENT ? TK_CONNREQ :
	    old == TCPS_SYN_SENT && nst == TCPS_ESTABLISHED ? TK_CONNEST :
	    old == TCPS_SYN_SENT && nst == TCPS_CLOSE ? TK_CONNREF :
	    old == TCPS_SYN_RECV && nst == TCPS_ESTABLISHED ? TK_ACCEST : -1;
	return rc || k < 0 ? rc : prov_tpb_fire(st->tb.tbs_probe[k], f, fire, arg);
}

static int
tcp_decode_send(struct tcp_state *st, const struct smp_record *rec, struct d_firing *f,
    prov_fire_fn fire, void *arg)
{
	const struct prov_tp *tp = &st->tb.tbs_tp[TE_SEND];
	if (tcp_u32(tp, rec, "protocol") != IPPROTO_TCP)
		return 0;
	int64_t ret = (int64_t)prov_tp_uint(prov_tp_field(tp, "ret"), rec->raw, rec->raw_size);
	if (ret <= 0)
		return 0;
	uint64_t sk = prov_tp_uint(prov_tp_field(tp, "sk"), rec->raw, rec->raw_size);
	struct tcp_sock unknown;
	const struct tcp_sock *so = tcp_sock(st, sk);
	if (so->sk != sk) {
		memset(&unknown, 0, sizeof(unknown));
		unknown.sk = sk;
		unknown.state = TCPS_ESTABLISHED;
		so = &unknown;
	}
	struct tcp_args a;
	tcp_fill(so, 1, (uint64_t)ret, f->df_pid, f, &a);
	return prov_tpb_fire(st->tb.tbs_probe[TK_SEND], f, fire, arg);
}

static int
tcp_decode(struct prov_registry *r, struct prov_tpb_state *tbs, const struct smp_record *rec,
    uint64_t cookie, prov_fire_fn fire, void *arg)
{
	struct tcp_state *st = (struct tcp_state *)tbs;
	uint64_t kbuf[128], ubuf[128];
	struct d_firing f;
	prov_firing_from_sample(r, rec, &f, kbuf, ubuf, 128);
	switch (cookie) {
	case TE_PROBE: return tcp_decode_probe(st, rec, &f, fire, arg);
	case TE_STATE: return tcp_decode_state(st, rec, &f, fire, arg);
	default: return tcp_decode_send(st, rec, &f, fire, arg);
	}
}

static const struct prov_tpb tcp_tpb = {
	.tb_ops = &prov_tcp_ops, .tb_probes = tcp_names, .tb_nprobes = TK_N,
	.tb_argtypes = tcp_argtypes, .tb_nargs = 6, .tb_decls = tcp_decls,
	.tb_events = tcp_events, .tb_nevents = TE_N, .tb_state_size = sizeof(struct tcp_state),
	.tb_want = tcp_want, .tb_decode = tcp_decode,
};

PROV_TPB_OPS(prov_tcp_ops, "tcp", tcp_tpb);

/*
 * test_dcons_out_pprof.c — the protobuf wire encoder against hand-computed
 * bytes, and the pprof profile decoded by a small independent reader
 * (written here from the protobuf encoding guide and profile.proto, sharing
 * no code with the encoder): tables are consistent, stacks come back as
 * the folded fixture, the gzip file inflates to the same bytes.
 */
#include <zlib.h>

#include "cu.h"
#include "test_dcons_out_common.h"

/* ---- the encoder ------------------------------------------------------------------ */

static int
pb_is(const struct dout_pb *b, const uint8_t *want, size_t n)
{
	return b->pb_err == 0 && b->pb_n == n && memcmp(b->pb_b, want, n) == 0;
}

static void
test_pb_varints(void)
{
	struct dout_pb b = { 0 };
	static const uint8_t v0[] = { 0x00 }, v1[] = { 0x01 }, v300[] = { 0xac, 0x02 };
	static const uint8_t vmax[] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	    0xff, 0xff, 0x01 };

	dout_pb_varint(&b, 0);
	CU_ASSERT(pb_is(&b, v0, 1));
	dout_pb_reset(&b);
	dout_pb_varint(&b, 1);
	CU_ASSERT(pb_is(&b, v1, 1));
	dout_pb_reset(&b);
	dout_pb_varint(&b, 300);
	CU_ASSERT(pb_is(&b, v300, 2));
	dout_pb_reset(&b);
	dout_pb_varint(&b, (uint64_t)(int64_t)-1);	/* int64 -1: 10 bytes */
	CU_ASSERT(pb_is(&b, vmax, 10));
	dout_pb_free(&b);
}

static void
test_pb_fields(void)
{
	struct dout_pb b = { 0 }, sub = { 0 };
	const uint64_t pk[] = { 3, 270, 86942 };
	/* the encoding guide's examples: field 1 = 150, field 2 = "testing",
	 * field 4 packed [3, 270, 86942] */
	static const uint8_t want[] = { 0x08, 0x96, 0x01,
	    0x12, 0x07, 't', 'e', 's', 't', 'i', 'n', 'g',
	    0x22, 0x06, 0x03, 0x8e, 0x02, 0x9e, 0xa7, 0x05,
	    0x1a, 0x03, 0x08, 0x96, 0x01 };

	dout_pb_uint(&b, 1, 150);
	dout_pb_bytes(&b, 2, "testing", 7);
	dout_pb_packed(&b, 4, pk, 3);
	dout_pb_packed(&b, 5, pk, 0);		/* nothing */
	dout_pb_uint(&sub, 1, 150);
	dout_pb_msg(&b, 3, &sub);
	CU_ASSERT(pb_is(&b, want, sizeof(want)));
	/* a failed sub-message poisons the parent */
	sub.pb_err = -ENOMEM;
	dout_pb_msg(&b, 3, &sub);
	CU_ASSERT_EQUAL(b.pb_err, -ENOMEM);
	dout_pb_free(&b);
	dout_pb_free(&sub);
}

/* ---- an independent reader ------------------------------------------------------------ */

struct rd {
	const uint8_t *p, *end;
	int bad;
};

static uint64_t
rd_varint(struct rd *r)
{
	uint64_t v = 0;

	for (int shift = 0; shift < 64; shift += 7) {
		if (r->p >= r->end) {
			r->bad = 1;
			return 0;
		}
		uint8_t c = *r->p++;
		v |= (uint64_t)(c & 0x7f) << shift;
		if (!(c & 0x80))
			return v;
	}
	r->bad = 1;
	return 0;
}

/* Next field: its number, wire type, and (LEN) a sub-reader or (VARINT) value. */
static int
rd_field(struct rd *r, int *wt, uint64_t *val, struct rd *sub)
{
	uint64_t tag;

	if (r->p >= r->end || r->bad)
		return 0;
	tag = rd_varint(r);
	*wt = (int)(tag & 7);
	if (*wt == 0) {
		*val = rd_varint(r);
	} else if (*wt == 2) {
		uint64_t n = rd_varint(r);

		if (n > (uint64_t)(r->end - r->p)) {
			r->bad = 1;
			return 0;
		}
		sub->p = r->p;
		sub->end = r->p + n;
		sub->bad = 0;
		r->p += n;
	} else {
		r->bad = 1;	/* profile.proto uses no other wire types */
		return 0;
	}
	return r->bad ? 0 : (int)(tag >> 3);
}

/* A repeated varint field, packed (LEN) or not. */
static int
rd_repeated(int wt, uint64_t val, struct rd *sub, uint64_t *out, int max)
{
	int n = 0;

	if (wt == 0) {
		out[0] = val;
		return 1;
	}
	while (sub->p < sub->end && n < max)
		out[n++] = rd_varint(sub);
	return sub->bad ? -1 : n;
}

#define RMAX 64

struct rprof {
	char *str[RMAX];
	int nstr;
	uint64_t st_type, st_unit, period, ptype;
	int nsamples;
	uint64_t s_loc[RMAX][8];
	int s_nloc[RMAX];
	int64_t s_val[RMAX];
	uint64_t l_id[RMAX], l_map[RMAX], l_addr[RMAX], l_func[RMAX];
	int nloc;
	uint64_t f_id[RMAX], f_name[RMAX], f_sys[RMAX], f_file[RMAX];
	int nfunc;
	uint64_t m_id[RMAX], m_file[RMAX], m_lo[RMAX], m_hi[RMAX], m_hasf[RMAX];
	int nmap;
	int bad;
};

static void
rd_valuetype(struct rd *r, uint64_t *type, uint64_t *unit)
{
	struct rd sub;
	uint64_t v;
	int wt, f;

	while ((f = rd_field(r, &wt, &v, &sub)) != 0) {
		if (f == 1)
			*type = v;
		else if (f == 2)
			*unit = v;
	}
}

static void
rd_sample(struct rprof *pr, struct rd *r)
{
	struct rd sub;
	uint64_t v, vals[8];
	int wt, f, i = pr->nsamples++;

	while ((f = rd_field(r, &wt, &v, &sub)) != 0) {
		if (f == 1)
			pr->s_nloc[i] = rd_repeated(wt, v, &sub, pr->s_loc[i], 8);
		else if (f == 2 && rd_repeated(wt, v, &sub, vals, 8) == 1)
			pr->s_val[i] = (int64_t)vals[0];
		else
			pr->bad = 1;
	}
}

static void
rd_location(struct rprof *pr, struct rd *r)
{
	struct rd sub, line;
	uint64_t v, lv;
	int wt, lwt, f, i = pr->nloc++;

	while ((f = rd_field(r, &wt, &v, &sub)) != 0) {
		if (f == 1)
			pr->l_id[i] = v;
		else if (f == 2)
			pr->l_map[i] = v;
		else if (f == 3)
			pr->l_addr[i] = v;
		else if (f == 4)
			while (rd_field(&sub, &lwt, &lv, &line) != 0)
				pr->l_func[i] = lv;	/* Line.function_id */
	}
}

static void
rd_function(struct rprof *pr, struct rd *r)
{
	struct rd sub;
	uint64_t v;
	int wt, f, i = pr->nfunc++;

	while ((f = rd_field(r, &wt, &v, &sub)) != 0) {
		uint64_t *dst[] = { NULL, &pr->f_id[i], &pr->f_name[i],
		    &pr->f_sys[i], &pr->f_file[i] };
		if (f >= 1 && f <= 4)
			*dst[f] = v;
	}
}

static void
rd_mapping(struct rprof *pr, struct rd *r)
{
	struct rd sub;
	uint64_t v;
	int wt, f, i = pr->nmap++;

	while ((f = rd_field(r, &wt, &v, &sub)) != 0) {
		if (f == 1) pr->m_id[i] = v;
		if (f == 2) pr->m_lo[i] = v;
		if (f == 3) pr->m_hi[i] = v;
		if (f == 5) pr->m_file[i] = v;
		if (f == 7) pr->m_hasf[i] = v;
	}
}

static void
rd_profile(struct rprof *pr, const uint8_t *b, size_t n)
{
	struct rd r = { b, b + n, 0 }, sub;
	uint64_t v;
	int wt, f;

	memset(pr, 0, sizeof(*pr));
	while ((f = rd_field(&r, &wt, &v, &sub)) != 0) {
		if (f == 1) rd_valuetype(&sub, &pr->st_type, &pr->st_unit);
		else if (f == 2) rd_sample(pr, &sub);
		else if (f == 3) rd_mapping(pr, &sub);
		else if (f == 4) rd_location(pr, &sub);
		else if (f == 5) rd_function(pr, &sub);
		else if (f == 6) pr->str[pr->nstr++] = strndup((const char *)sub.p,
		    (size_t)(sub.end - sub.p));
		else if (f == 11) rd_valuetype(&sub, &pr->ptype, &v);
		else if (f == 12) pr->period = v;
		if (pr->nsamples >= RMAX || pr->nloc >= RMAX || pr->nfunc >= RMAX ||
		    pr->nstr >= RMAX || pr->nmap >= RMAX)
			break;
	}
	pr->bad |= r.bad || r.p != r.end;
}

static void
rprof_free(struct rprof *pr)
{
	for (int i = 0; i < pr->nstr; i++)
		free(pr->str[i]);
}

static const char *
rstr(const struct rprof *pr, uint64_t i)
{
	return i < (uint64_t)pr->nstr ? pr->str[i] : "<bad string index>";
}

static const char *
loc_name(const struct rprof *pr, uint64_t id)
{
	for (int i = 0; i < pr->nloc; i++) {
		if (pr->l_id[i] != id)
			continue;
		for (int j = 0; j < pr->nfunc; j++)
			if (pr->f_id[j] == pr->l_func[i])
				return rstr(pr, pr->f_name[j]);
	}
	return "<no location>";
}

struct rline {
	char *text;
	int64_t value;
};

static int
rline_cmp(const void *l, const void *r)
{
	return strcmp(((const struct rline *)l)->text,
	    ((const struct rline *)r)->text);
}

/* Samples as sorted folded lines (root first), equal paths summed. */
static char *
rprof_folded(const struct rprof *pr)
{
	struct rline lines[RMAX];
	char *out = NULL;
	size_t len = 0;
	FILE *fp;

	for (int i = 0; i < pr->nsamples; i++) {
		char buf[1024] = "";

		for (int j = pr->s_nloc[i] - 1; j >= 0; j--) {
			strcat(buf, loc_name(pr, pr->s_loc[i][j]));
			strcat(buf, j ? ";" : "");
		}
		lines[i].text = strdup(buf);
		lines[i].value = pr->s_val[i];
	}
	qsort(lines, (size_t)pr->nsamples, sizeof(lines[0]), rline_cmp);
	fp = open_memstream(&out, &len);
	for (int i = 0; i < pr->nsamples; ) {
		int64_t sum = 0;
		int j = i;

		for (; j < pr->nsamples && strcmp(lines[j].text, lines[i].text) == 0; j++)
			sum += lines[j].value;
		fprintf(fp, "%s %lld\n", lines[i].text, (long long)sum);
		i = j;
	}
	fclose(fp);
	for (int i = 0; i < pr->nsamples; i++)
		free(lines[i].text);
	return out;
}

/* ---- the profile ------------------------------------------------------------------------ */

static void
add_fixture(struct dout_prof *p)
{
	const uint64_t k1[] = { KPC(3, 0x10), KPC(2, 0x20), KPC(1, 0x30), 0 };
	const uint64_t k1b[] = { KPC(3, 0x18), KPC(2, 0x24), KPC(1, 0x30), 0 };
	const uint64_t u1[] = { UPC(2, 0x4), UPC(1, 0x8), 0 };
	const uint64_t u2[] = { JPC(7, 0x1), UPC(1, 0x8), 0 };
	const uint64_t u3[] = { 0xdead0000ull, UPC(1, 0x10), 0 };
	struct tkey key;

	key = tkey_make("app", k1, u1);
	CU_ASSERT_EQUAL(dout_prof_add(p, &key, tkey_vd, 3, 30), 0);
	key = tkey_make("app", k1b, u1);
	CU_ASSERT_EQUAL(dout_prof_add(p, &key, tkey_vd, 3, 12), 0);
	key = tkey_make("app", NULL, u2);
	CU_ASSERT_EQUAL(dout_prof_add(p, &key, tkey_vd, 3, 50), 0);
	key = tkey_make("sh;x", NULL, u3);
	CU_ASSERT_EQUAL(dout_prof_add(p, &key, tkey_vd, 3, 8), 0);
}

static const struct dout_opts popts = { DOUT_PPROF, 0, NULL, "flame.d",
	"pmc:::branchmispredictions-100000", "pmctrace" };

static void
test_pprof_decode(void)
{
	struct dout_prof p;
	struct rprof pr;
	uint8_t *buf;
	size_t len;
	char *folded;

	dout_prof_init(&p, &fake_cx);
	add_fixture(&p);
	CU_ASSERT_EQUAL_FATAL(dout_pprof_encode(&p, &popts, &buf, &len), 0);
	rd_profile(&pr, buf, len);
	CU_ASSERT_FALSE(pr.bad);
	CU_ASSERT_STRING_EQUAL(rstr(&pr, 0), "");
	CU_ASSERT_STRING_EQUAL(rstr(&pr, pr.st_type), "branchmispredictions");
	CU_ASSERT_STRING_EQUAL(rstr(&pr, pr.st_unit), "count");
	CU_ASSERT_STRING_EQUAL(rstr(&pr, pr.ptype), "branchmispredictions");
	CU_ASSERT_EQUAL(pr.period, 100000);
	CU_ASSERT_EQUAL(pr.nsamples, 4);
	/* strings are unique, ids are 1..n */
	for (int i = 0; i < pr.nstr; i++)
		for (int j = i + 1; j < pr.nstr; j++)
			CU_ASSERT(strcmp(pr.str[i], pr.str[j]) != 0);
	for (int i = 0; i < pr.nloc; i++)
		CU_ASSERT_EQUAL(pr.l_id[i], (uint64_t)i + 1);
	for (int i = 0; i < pr.nfunc; i++)
		CU_ASSERT_EQUAL(pr.f_id[i], (uint64_t)i + 1);
	/* app, u1@8, u2, k1, k2, k3@10, k3@18, k2@24, j7, sh;x, u1@10, dead */
	CU_ASSERT_EQUAL(pr.nloc, 12);
	CU_ASSERT_EQUAL(pr.nfunc, 9);
	CU_ASSERT_EQUAL(pr.nmap, 3);	/* app, vmlinux, perf-42.map */
	folded = rprof_folded(&pr);
	CU_ASSERT_STRING_EQUAL(folded,
	    "app;app`u1;app`u2;vmlinux`k1;vmlinux`k2;vmlinux`k3 42\n"
	    "app;app`u1;perf-42.map`j7 50\n"
	    "sh;x;app`u1;0xdead0000 8\n");
	free(folded);
	/* each mapped location's address lies in its mapping; functions of
	 * a module name it as their file */
	for (int i = 0; i < pr.nloc; i++) {
		if (pr.l_map[i] == 0)
			continue;
		int m = (int)pr.l_map[i] - 1;
		CU_ASSERT_FATAL(m >= 0 && m < pr.nmap);
		CU_ASSERT(pr.l_addr[i] >= pr.m_lo[m] && pr.l_addr[i] < pr.m_hi[m]);
		CU_ASSERT_EQUAL(pr.m_hasf[m], 1);
		CU_ASSERT_STRING_EQUAL(rstr(&pr, pr.f_file[pr.l_func[i] - 1]),
		    rstr(&pr, pr.m_file[m]));
	}
	for (int i = 0; i < pr.nfunc; i++) {
		if (strcmp(rstr(&pr, pr.f_name[i]), "vmlinux`k2") == 0)
			CU_ASSERT_STRING_EQUAL(rstr(&pr, pr.f_sys[i]), "k2");
		if (strcmp(rstr(&pr, pr.f_name[i]), "app") == 0)	/* a key */
			CU_ASSERT_EQUAL(pr.f_file[i], 0);
	}
	rprof_free(&pr);
	free(buf);
	dout_prof_fini(&p);
}

static void
test_pprof_gzip(void)
{
	struct dout_prof p;
	uint8_t *raw, out[65536];
	size_t rawlen;
	FILE *fp = tmem_open();
	z_stream zs;

	dout_prof_init(&p, &fake_cx);
	add_fixture(&p);
	CU_ASSERT_EQUAL_FATAL(dout_pprof_encode(&p, &popts, &raw, &rawlen), 0);
	CU_ASSERT_EQUAL(dout_pprof_write(fp, &p, &popts), 0);
	tmem_close(fp);
	CU_ASSERT_FATAL(tmem_len > 18);
	CU_ASSERT_EQUAL((uint8_t)tmem_buf[0], 0x1f);	/* gzip magic */
	CU_ASSERT_EQUAL((uint8_t)tmem_buf[1], 0x8b);
	memset(&zs, 0, sizeof(zs));
	CU_ASSERT_EQUAL_FATAL(inflateInit2(&zs, 15 + 16), Z_OK);
	zs.next_in = (unsigned char *)tmem_buf;
	zs.avail_in = (uInt)tmem_len;
	zs.next_out = out;
	zs.avail_out = sizeof(out);
	CU_ASSERT_EQUAL(inflate(&zs, Z_FINISH), Z_STREAM_END);
	CU_ASSERT_EQUAL(zs.total_out, rawlen);
	CU_ASSERT(memcmp(out, raw, rawlen) == 0);
	inflateEnd(&zs);
	free(raw);
	dout_prof_fini(&p);
}

/* An empty profile is still a valid, loadable profile. */
static void
test_pprof_empty(void)
{
	struct dout_prof p;
	struct rprof pr;
	uint8_t *buf;
	size_t len;

	dout_prof_init(&p, NULL);
	CU_ASSERT_EQUAL_FATAL(dout_pprof_encode(&p, NULL, &buf, &len), 0);
	rd_profile(&pr, buf, len);
	CU_ASSERT_FALSE(pr.bad);
	CU_ASSERT_EQUAL(pr.nsamples, 0);
	CU_ASSERT_STRING_EQUAL(rstr(&pr, pr.st_type), "samples");
	rprof_free(&pr);
	free(buf);
	dout_prof_fini(&p);
}

static const struct cu_test tests[] = {
	{ "pb_varints", test_pb_varints },
	{ "pb_fields", test_pb_fields },
	{ "pprof_decode", test_pprof_decode },
	{ "pprof_gzip", test_pprof_gzip },
	{ "pprof_empty", test_pprof_empty },
	{ NULL, NULL },
};

CU_MAIN("dcons_out_pprof", tests)

/*
 * test_dcons_agg.c — aggregations built directly through dagg.h, updated,
 * and printed into memory; the expected text follows DTrace's documented
 * layouts (printa rows, histograms, joined printa, exit-time order).
 */
#include <stdlib.h>
#include <string.h>

#include "cu.h"
#include "dcons/dagg.h"

/* ---- helpers ---------------------------------------------------------------- */

#include "memout.h"

static const struct dfmt_ctx noctx = { NULL, 0, 0, 14, 0 };

static struct d_vdesc
vd_int(int isize)
{
	struct d_vdesc v = { D_VK_INT, (uint8_t)isize, 0, 8, 0, 0, NULL };
	return v;
}

static struct d_vdesc
vd_str(uint32_t size)
{
	struct d_vdesc v = { D_VK_STRING, 0, 0, size, 0, 0, NULL };
	return v;
}

static void
skey(char *buf, size_t n, const char *s)
{
	memset(buf, 0, n);
	strncpy(buf, s, n - 1);
}

static void
ikey(void *buf, int64_t v)
{
	memcpy(buf, &v, 8);
}

/* A default-layout row: string key, then one 16-wide value. */
static void
strrow(char *o, size_t n, const char *k, long long v)
{
	snprintf(o, n, "  %-50s %16lld\n", k, v);
}

/* One histogram row: label, bar of `at` @s (one sign only), count. */
static size_t
qrow(char *o, const char *label, int at, long long count)
{
	char bar[41];

	memset(bar, ' ', 40);
	memset(bar, '@', (size_t)at);
	bar[40] = '\0';
	return (size_t)sprintf(o, "%16s |%s %-9lld\n", label, bar, count);
}

static size_t
qhdr(char *o)
{
	return (size_t)sprintf(o, "\n%16s %41s %-9s\n", "value",
	    "------------- Distribution -------------", "count");
}

/* ---- tests ------------------------------------------------------------------- */

/* printa(a) prints exp; the set is destroyed after. */
static void
expect_printa(dagg_set_t *set, dagg_t *a, const char *exp)
{
	FILE *fp = mem_open();
	dagg_printa(fp, &noctx, NULL, &a, 1);
	CU_ASSERT_STRING_EQUAL(mem_close(fp), exp);
	dagg_set_destroy(set);
}

static void
test_count_nokey(void)
{
	dagg_set_t *set = dagg_set_create(1 << 20, "pmctrace", NULL);
	dagg_t *a = dagg_create(set, "", DAGG_COUNT, NULL, NULL, 0, NULL);
	FILE *fp;

	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	for (int i = 0; i < 3; i++)
		CU_ASSERT_EQUAL(dagg_update(a, 0, NULL, 0, 1), 0);
	fp = mem_open();
	CU_ASSERT_EQUAL(dagg_printa(fp, &noctx, NULL, &a, 1), 0);
	CU_ASSERT_STRING_EQUAL(mem_close(fp), "\n                3\n");
	dagg_set_destroy(set);
}

static void
test_string_keys_sorted(void)
{
	dagg_set_t *set = dagg_set_create(1 << 20, "pmctrace", NULL);
	struct d_vdesc k = vd_str(32);
	dagg_t *a = dagg_create(set, "", DAGG_COUNT, NULL, &k, 1, NULL);
	const char *names[] = { "sshd", "bash", "sshd", "a", "sshd", "bash",
		"sshd", "sshd", "a", "" };
	char key[32], exp[512], *o = exp;

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		skey(key, sizeof(key), names[i]);
		dagg_update(a, 0, key, 0, 1);
	}
	*o++ = '\n';
	strrow(o, 200, "", 1);
	o += strlen(o);
	strrow(o, 200, "a", 2);
	o += strlen(o);
	strrow(o, 200, "bash", 2);
	o += strlen(o);
	strrow(o, 200, "sshd", 5);
	expect_printa(set, a, exp);
}

/* Integer keys print by size: 1- and 2-byte ones unsigned, 4- and 8-byte
 * ones signed; they sort as unsigned quantities (DTrace's tst.signedkeys). */
static void
test_signed_keys(void)
{
	dagg_set_t *set = dagg_set_create(1 << 20, "pmctrace", NULL);
	struct dagg_sortopts so = { 1, -1, -1, 0, 0 };
	int sizes[] = { 1, 2, 4, 8 };
	FILE *fp;

	dagg_set_sortopts(set, &so);
	for (int s = 0; s < 4; s++) {
		struct d_vdesc k = vd_int(sizes[s]);
		dagg_t *a = dagg_create(set, "i", DAGG_SUM, NULL, &k, 1, NULL);

		for (int v = -2; v <= 2; v++) {
			char key[8];
			ikey(key, v);
			dagg_update(a, 0, key, v, 1);
		}
	}
	fp = mem_open();
	CU_ASSERT_EQUAL(dagg_print_all(set, fp, &noctx), 0);
	CU_ASSERT_STRING_EQUAL(mem_close(fp),
	    "   0                0\n"
	    "   1                1\n"
	    "   2                2\n"
	    " 254               -2\n"
	    " 255               -1\n"
	    "     0                0\n"
	    "     1                1\n"
	    "     2                2\n"
	    " 65534               -2\n"
	    " 65535               -1\n"
	    "        0                0\n"
	    "        1                1\n"
	    "        2                2\n"
	    "       -2               -2\n"
	    "       -1               -1\n"
	    "                0                0\n"
	    "                1                1\n"
	    "                2                2\n"
	    "               -2               -2\n"
	    "               -1               -1\n");
	dagg_set_destroy(set);
}

static void
test_quantize(void)
{
	dagg_set_t *set = dagg_set_create(1 << 20, "pmctrace", NULL);
	dagg_t *a = dagg_create(set, "", DAGG_QUANTIZE, NULL, NULL, 0, NULL);
	int64_t vals[] = { 1, 2, 2, 3, 8, 9, 15, 12 };
	char exp[2048], *o = exp;

	for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++)
		dagg_update(a, 0, NULL, vals[i], 1);
	/* buckets 1:1, 2:3, 4:0, 8:4 — total 8 → 5 @ per count */
	*o++ = '\n';
	o += qhdr(o);
	o += qrow(o, "0", 0, 0);
	o += qrow(o, "1", 5, 1);
	o += qrow(o, "2", 15, 3);
	o += qrow(o, "4", 0, 0);
	o += qrow(o, "8", 20, 4);
	o += qrow(o, "16", 0, 0);
	sprintf(o, "\n");
	expect_printa(set, a, exp);
}

static void
test_quantize_weight_and_empty(void)
{
	dagg_set_t *set = dagg_set_create(1 << 20, "pmctrace", NULL);
	dagg_t *a = dagg_create(set, "", DAGG_QUANTIZE, NULL, NULL, 0, NULL);
	char exp[1024], *o = exp;
	FILE *fp;

	/* weight 7 on value 0, then cleared: the rows around 0 remain */
	dagg_update(a, 0, NULL, 0, 7);
	fp = mem_open();
	dagg_printa(fp, &noctx, NULL, &a, 1);
	*o++ = '\n';
	o += qhdr(o);
	o += qrow(o, "-1", 0, 0);
	o += qrow(o, "0", 40, 7);
	o += qrow(o, "1", 0, 0);
	sprintf(o, "\n");
	CU_ASSERT_STRING_EQUAL(mem_close(fp), exp);
	dagg_clear(a);
	o = exp;
	*o++ = '\n';
	o += qhdr(o);
	o += qrow(o, "-1", 0, 0);
	o += qrow(o, "0", 0, 0);
	o += qrow(o, "1", 0, 0);
	sprintf(o, "\n");
	expect_printa(set, a, exp);
}

/* Negative and positive values: two half bars around the centre line. */
static void
test_quantize_both_signs(void)
{
	dagg_set_t *set = dagg_set_create(1 << 20, "pmctrace", NULL);
	dagg_t *a = dagg_create(set, "", DAGG_QUANTIZE, NULL, NULL, 0, NULL);
	char exp[2048], *o = exp;
	const char *s20 = "                    ", *a10 = "@@@@@@@@@@";

	/* counts of both signs come from negative weights */
	dagg_update(a, 0, NULL, -1, -1);
	dagg_update(a, 0, NULL, -1, -1);
	dagg_update(a, 0, NULL, 1, 2);
	*o++ = '\n';
	o += qhdr(o);
	o += sprintf(o, "%16s %s|%s %-9d\n", "-2", s20, s20, 0);
	o += sprintf(o, "%16s %.10s%s|%s %-9d\n", "-1", s20, a10, s20, -2);
	o += sprintf(o, "%16s %s|%s %-9d\n", "0", s20, s20, 0);
	o += sprintf(o, "%16s %s|%s%.10s %-9d\n", "1", s20, a10, s20, 2);
	o += sprintf(o, "%16s %s|%s %-9d\n", "2", s20, s20, 0);
	sprintf(o, "\n");
	expect_printa(set, a, exp);
}

static void
test_quantize_negative_only(void)
{
	dagg_set_t *set = dagg_set_create(1 << 20, "pmctrace", NULL);
	dagg_t *a = dagg_create(set, "", DAGG_QUANTIZE, NULL, NULL, 0, NULL);
	char exp[2048], *o = exp, bar[41];
	FILE *fp;

	/* a negative value lands in bucket -4 and prints a normal bar... */
	dagg_update(a, 0, NULL, -5, 1);
	*o++ = '\n';
	o += qhdr(o);
	o += qrow(o, "-8", 0, 0);
	o += qrow(o, "-4", 40, 1);
	o += qrow(o, "-2", 0, 0);
	sprintf(o, "\n");
	fp = mem_open();
	dagg_printa(fp, &noctx, NULL, &a, 1);
	CU_ASSERT_STRING_EQUAL(mem_close(fp), exp);
	/* ...a negative count (weight) draws the bar to the left */
	dagg_update(a, 0, NULL, -5, -3);
	o = exp;
	*o++ = '\n';
	o += qhdr(o);
	o += sprintf(o, "%16s %40s| %-9d\n", "-8", "", 0);
	memset(bar, '@', 40);
	bar[40] = '\0';
	o += sprintf(o, "%16s %s| %-9d\n", "-4", bar, -2);
	o += sprintf(o, "%16s %40s| %-9d\n", "-2", "", 0);
	sprintf(o, "\n");
	expect_printa(set, a, exp);
}

static void
test_lquantize(void)
{
	dagg_set_t *set = dagg_set_create(1 << 20, "pmctrace", NULL);
	struct dagg_params p = { .ap_lq_base = 0, .ap_lq_limit = 10,
		.ap_lq_step = 2 };
	dagg_t *a = dagg_create(set, "", DAGG_LQUANTIZE, &p, NULL, 0, NULL);
	char exp[2048], *o = exp;

	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	dagg_update(a, 0, NULL, -5, 1);
	dagg_update(a, 0, NULL, 3, 1);
	dagg_update(a, 0, NULL, 2, 1);
	dagg_update(a, 0, NULL, 100, 1);
	dagg_update(a, 0, NULL, 10, 0);	/* zero weight: nothing counted */
	*o++ = '\n';
	o += qhdr(o);
	o += qrow(o, "< 0", 10, 1);
	o += qrow(o, "0", 0, 0);
	o += qrow(o, "2", 20, 2);
	o += qrow(o, "4", 0, 0);
	o += qrow(o, "6", 0, 0);
	o += qrow(o, "8", 0, 0);
	o += qrow(o, ">= 10", 10, 1);
	sprintf(o, "\n");
	expect_printa(set, a, exp);
}

static void
test_lquantize_trim(void)
{
	dagg_set_t *set = dagg_set_create(1 << 20, "pmctrace", NULL);
	struct dagg_params p = { .ap_lq_base = -100, .ap_lq_limit = 100,
		.ap_lq_step = 10 };
	dagg_t *a = dagg_create(set, "", DAGG_LQUANTIZE, &p, NULL, 0, NULL);
	char exp[2048], *o = exp;

	dagg_update(a, 0, NULL, 5, 3);
	dagg_update(a, 0, NULL, -15, 1);
	*o++ = '\n';
	o += qhdr(o);
	o += qrow(o, "-30", 0, 0);
	o += qrow(o, "-20", 10, 1);
	o += qrow(o, "-10", 0, 0);
	o += qrow(o, "0", 30, 3);
	o += qrow(o, "10", 0, 0);
	sprintf(o, "\n");
	expect_printa(set, a, exp);
}

static void
test_llquantize(void)
{
	dagg_set_t *set = dagg_set_create(1 << 20, "pmctrace", NULL);
	struct dagg_params p = { .ap_llq_factor = 10, .ap_llq_low = 0,
		.ap_llq_high = 2, .ap_llq_nsteps = 10 };
	dagg_t *a = dagg_create(set, "", DAGG_LLQUANTIZE, &p, NULL, 0, NULL);
	char exp[8192], *o = exp, lab[32];
	int counts[28] = { 0 };

	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	dagg_update(a, 0, NULL, 0, 1);		/* < 1 */
	dagg_update(a, 0, NULL, 5, 1);		/* 5 */
	dagg_update(a, 0, NULL, 55, 1);		/* 50 */
	dagg_update(a, 0, NULL, 5000, 1);	/* >= 1000 */
	counts[5] = 1;
	counts[14] = 1;
	*o++ = '\n';
	o += qhdr(o);
	o += qrow(o, "< 1", 10, 1);
	/* bins 1..9 are 1..9, 10..18 are 10..90, 19..27 are 100..900 */
	for (int b = 1; b <= 27; b++) {
		long long v = b <= 9 ? b : b <= 18 ? (b - 9) * 10 :
		    (b - 18) * 100;
		snprintf(lab, sizeof(lab), "%lld", v);
		o += qrow(o, lab, counts[b] * 10, counts[b]);
	}
	o += qrow(o, ">= 1000", 10, 1);
	sprintf(o, "\n");
	expect_printa(set, a, exp);
}

static void
test_llquantize_trim(void)
{
	dagg_set_t *set = dagg_set_create(1 << 20, "pmctrace", NULL);
	struct dagg_params p = { .ap_llq_factor = 2, .ap_llq_low = 2,
		.ap_llq_high = 4, .ap_llq_nsteps = 4 };
	dagg_t *a = dagg_create(set, "", DAGG_LLQUANTIZE, &p, NULL, 0, NULL);
	char exp[2048], *o = exp;

	/* factor 2, 2^2..2^4, 4 steps per power of the factor: the steps
	 * of [0, 8) are 0 2 4 6, so the buckets are <4, 4 6, 8 12, 16 24,
	 * >=32 */
	dagg_update(a, 0, NULL, 11, 1);		/* 8 */
	dagg_update(a, 0, NULL, 21, 3);		/* 16 */
	*o++ = '\n';
	o += qhdr(o);
	o += qrow(o, "6", 0, 0);
	o += qrow(o, "8", 10, 1);
	o += qrow(o, "12", 0, 0);
	o += qrow(o, "16", 30, 3);
	o += qrow(o, "24", 0, 0);
	sprintf(o, "\n");
	expect_printa(set, a, exp);
}

static void
test_param_errors(void)
{
	struct dagg_params p = { .ap_lq_base = 10, .ap_lq_limit = 0,
		.ap_lq_step = 1 };
	const char *tag;
	char err[256];

	CU_ASSERT_EQUAL(dagg_check_params(DAGG_LQUANTIZE, &p, err, sizeof(err),
	    &tag), -EINVAL);
	CU_ASSERT_STRING_EQUAL(tag, "D_LQUANT_MISMATCH");
	p.ap_lq_limit = 100;
	p.ap_lq_step = 1000;
	dagg_check_params(DAGG_LQUANTIZE, &p, err, sizeof(err), &tag);
	CU_ASSERT_STRING_EQUAL(tag, "D_LQUANT_STEPLARGE");
	CU_ASSERT_STRING_EQUAL(err, "lquantize( ) step (argument #3) too "
	    "large: must have at least one quantization level");
	p.ap_lq_base = (int64_t)INT32_MAX + 1;
	dagg_check_params(DAGG_LQUANTIZE, &p, err, sizeof(err), &tag);
	CU_ASSERT_STRING_EQUAL(tag, "D_LQUANT_BASEVAL");

	struct dagg_params q = { .ap_llq_factor = 10, .ap_llq_low = 0,
		.ap_llq_high = 2, .ap_llq_nsteps = 15 };
	dagg_check_params(DAGG_LLQUANTIZE, &q, err, sizeof(err), &tag);
	CU_ASSERT_STRING_EQUAL(tag, "D_LLQUANT_STEPVAL");
	q.ap_llq_factor = 1;
	dagg_check_params(DAGG_LLQUANTIZE, &q, err, sizeof(err), &tag);
	CU_ASSERT_STRING_EQUAL(tag, "D_LLQUANT_FACTORVAL");
	q.ap_llq_factor = 10;
	q.ap_llq_low = 3;
	dagg_check_params(DAGG_LLQUANTIZE, &q, err, sizeof(err), &tag);
	CU_ASSERT_STRING_EQUAL(tag, "D_LLQUANT_HMAGVAL");
	q.ap_llq_low = 0;
	q.ap_llq_high = 30;
	q.ap_llq_nsteps = 10;
	dagg_check_params(DAGG_LLQUANTIZE, &q, err, sizeof(err), &tag);
	CU_ASSERT_STRING_EQUAL(tag, "D_LLQUANT_HMAGVAL");
	q.ap_llq_high = 2;
	CU_ASSERT_EQUAL(dagg_check_params(DAGG_LLQUANTIZE, &q, err, sizeof(err),
	    &tag), 0);
}

static void
test_avg_min_max_stddev(void)
{
	dagg_set_t *set = dagg_set_create(1 << 20, "pmctrace", NULL);
	dagg_t *av = dagg_create(set, "a", DAGG_AVG, NULL, NULL, 0, NULL);
	dagg_t *mn = dagg_create(set, "b", DAGG_MIN, NULL, NULL, 0, NULL);
	dagg_t *mx = dagg_create(set, "c", DAGG_MAX, NULL, NULL, 0, NULL);
	dagg_t *sd = dagg_create(set, "d", DAGG_STDDEV, NULL, NULL, 0, NULL);
	int64_t v[] = { 1, 2, 3, 4, -7, 100 };
	FILE *fp;

	for (size_t i = 0; i < 6; i++) {
		dagg_update(av, 0, NULL, v[i], 1);
		dagg_update(mn, 0, NULL, v[i], 1);
		dagg_update(mx, 0, NULL, v[i], 1);
		dagg_update(sd, 0, NULL, v[i], 1);
	}
	/* avg 103/6 = 17; stddev: avg(x^2) = 10079/6 = 1679, 1679 - 17^2 =
	 * 1390, sqrt = 37 */
	fp = mem_open();
	dagg_print_all(set, fp, &noctx);
	CU_ASSERT_STRING_EQUAL(mem_close(fp),
	    "               17\n"
	    "               -7\n"
	    "              100\n"
	    "               37\n");
	dagg_set_destroy(set);
}

static void
test_printa_format(void)
{
	dagg_set_t *set = dagg_set_create(1 << 20, "pmctrace", NULL);
	struct d_vdesc k[2] = { vd_str(16), vd_int(4) };
	dagg_t *a = dagg_create(set, "a", DAGG_COUNT, NULL, k, 2, NULL);
	char key[24];
	dfmt_t *f;
	FILE *fp;
	int err;

	memset(key, 0, sizeof(key));
	strcpy(key, "cat");
	ikey(key + 16, 42);
	dagg_update(a, 0, key, 0, 1);
	dagg_update(a, 0, key, 0, 1);
	memset(key, 0, sizeof(key));
	strcpy(key, "dog");
	ikey(key + 16, -1);
	dagg_update(a, 0, key, 0, 1);
	f = dfmt_parse("printa", "%-8s|%5d|%@3d|\n", DFMT_PRINTA | DFMT_AGGCOUNT,
	    k, 2, NULL, 0, NULL, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fp = mem_open();
	CU_ASSERT_EQUAL(dagg_printa(fp, &noctx, f, &a, 1), 0);
	CU_ASSERT_STRING_EQUAL(mem_close(fp),
	    "dog     |   -1|  1|\n"
	    "cat     |   42|  2|\n");
	dfmt_free(f);
	dagg_set_destroy(set);
}

/* Two aggregations keyed alike: rows for the union of keys, zero where
 * one has no entry, sorted by the first aggregation's values. */
static void
test_printa_joined(void)
{
	dagg_set_t *set = dagg_set_create(1 << 20, "pmctrace", NULL);
	struct d_vdesc k = vd_int(8);
	dagg_t *ab[2];
	char key[8];
	dfmt_t *f;
	FILE *fp;

	ab[0] = dagg_create(set, "a", DAGG_COUNT, NULL, &k, 1, NULL);
	ab[1] = dagg_create(set, "b", DAGG_SUM, NULL, &k, 1, NULL);
	ikey(key, 1);
	dagg_update(ab[0], 0, key, 0, 1);
	dagg_update(ab[0], 0, key, 0, 1);
	dagg_update(ab[1], 0, key, 50, 1);
	ikey(key, 2);
	dagg_update(ab[1], 0, key, 7, 1);
	ikey(key, 3);
	dagg_update(ab[0], 0, key, 0, 1);
	fp = mem_open();
	dagg_printa(fp, &noctx, NULL, ab, 2);
	CU_ASSERT_STRING_EQUAL(mem_close(fp), "\n"
	    "                2                0                7\n"
	    "                3                1                0\n"
	    "                1                2               50\n");
	f = dfmt_parse("printa", "%d: %@d %@d\n", DFMT_PRINTA, &k, 1, NULL, 0,
	    NULL, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	{
		struct dagg_sortopts so = { 0, -1, 1, 0, 0 };	/* aggsortpos=1 */
		dagg_set_sortopts(set, &so);
	}
	fp = mem_open();
	dagg_printa(fp, &noctx, f, ab, 2);
	CU_ASSERT_STRING_EQUAL(mem_close(fp), "3: 1 0\n2: 0 7\n1: 2 50\n");
	dfmt_free(f);
	dagg_set_destroy(set);
}

static void
test_sort_options(void)
{
	dagg_set_t *set = dagg_set_create(1 << 20, "pmctrace", NULL);
	struct d_vdesc k[2] = { vd_int(8), vd_int(8) };
	dagg_t *a = dagg_create(set, "a", DAGG_SUM, NULL, k, 2, NULL);
	int64_t rows[][3] = { { 1, 30, 5 }, { 2, 10, 9 }, { 3, 20, 1 } };
	struct dagg_sortopts so = { 0, -1, -1, 1, 0 };
	char key[16];
	FILE *fp;

	for (int i = 0; i < 3; i++) {
		ikey(key, rows[i][0]);
		ikey(key + 8, rows[i][1]);
		dagg_update(a, 0, key, rows[i][2], 1);
	}
	dagg_set_sortopts(set, &so);	/* aggsortrev */
	fp = mem_open();
	dagg_printa(fp, &noctx, NULL, &a, 1);
	CU_ASSERT_STRING_EQUAL(mem_close(fp), "\n"
	    "                2               10                9\n"
	    "                1               30                5\n"
	    "                3               20                1\n");
	so.so_sortrev = 0;
	so.so_sortkey = 1;
	so.so_sortkeypos = 1;		/* by the second key */
	dagg_set_sortopts(set, &so);
	fp = mem_open();
	dagg_printa(fp, &noctx, NULL, &a, 1);
	CU_ASSERT_STRING_EQUAL(mem_close(fp), "\n"
	    "                2               10                9\n"
	    "                3               20                1\n"
	    "                1               30                5\n");
	dagg_set_destroy(set);
}

static void
test_trunc(void)
{
	dagg_set_t *set = dagg_set_create(1 << 20, "pmctrace", NULL);
	struct d_vdesc k = vd_int(8);
	dagg_t *a = dagg_create(set, "a", DAGG_SUM, NULL, &k, 1, NULL);
	char key[8];
	FILE *fp;

	for (int i = 1; i <= 5; i++) {
		ikey(key, i);
		dagg_update(a, 0, key, i * 10, 1);
	}
	dagg_trunc(a, 2);
	CU_ASSERT_EQUAL(dagg_nentries(a), 2);
	fp = mem_open();
	dagg_printa(fp, &noctx, NULL, &a, 1);
	CU_ASSERT_STRING_EQUAL(mem_close(fp), "\n"
	    "                4               40\n"
	    "                5               50\n");
	dagg_trunc(a, -1);
	fp = mem_open();
	dagg_printa(fp, &noctx, NULL, &a, 1);
	CU_ASSERT_STRING_EQUAL(mem_close(fp), "\n"
	    "                4               40\n");
	/* the freed entry is reused */
	ikey(key, 9);
	dagg_update(a, 0, key, 1, 1);
	CU_ASSERT_EQUAL(dagg_nentries(a), 2);
	dagg_trunc(a, DAGG_TRUNC_ALL);
	CU_ASSERT_EQUAL(dagg_nentries(a), 0);
	fp = mem_open();
	dagg_print_all(set, fp, &noctx);
	CU_ASSERT_STRING_EQUAL(mem_close(fp), "");
	dagg_set_destroy(set);
}

static void
test_clear_normalize(void)
{
	dagg_set_t *set = dagg_set_create(1 << 20, "pmctrace", NULL);
	struct d_vdesc k = vd_int(8);
	dagg_t *a = dagg_create(set, "a", DAGG_SUM, NULL, &k, 1, NULL);
	char key[8];
	FILE *fp;

	ikey(key, 1);
	dagg_update(a, 0, key, 1000, 1);
	ikey(key, 2);
	dagg_update(a, 0, key, 25, 1);
	dagg_normalize(a, 10);
	fp = mem_open();
	dagg_printa(fp, &noctx, NULL, &a, 1);
	CU_ASSERT_STRING_EQUAL(mem_close(fp), "\n"
	    "                2                2\n"
	    "                1              100\n");
	dagg_denormalize(a);
	dagg_clear(a);
	CU_ASSERT_EQUAL(dagg_nentries(a), 2);
	fp = mem_open();
	dagg_printa(fp, &noctx, NULL, &a, 1);
	CU_ASSERT_STRING_EQUAL(mem_close(fp), "\n"
	    "                1                0\n"
	    "                2                0\n");
	dagg_set_destroy(set);
}

/* Exit-time printing: creation order, printa()'d ones skipped, nothing
 * between aggregations. */
static void
test_print_all_order(void)
{
	dagg_set_t *set = dagg_set_create(1 << 20, "pmctrace", NULL);
	dagg_t *a = dagg_create(set, "a", DAGG_COUNT, NULL, NULL, 0, NULL);
	dagg_t *b = dagg_create(set, "b", DAGG_SUM, NULL, NULL, 0, NULL);
	dagg_t *c = dagg_create(set, "c", DAGG_MAX, NULL, NULL, 0, NULL);
	dagg_t *e = dagg_create(set, "empty", DAGG_MAX, NULL, NULL, 0, NULL);
	FILE *fp;

	CU_ASSERT_PTR_NOT_NULL(e);
	dagg_update(c, 0, NULL, 3, 1);
	dagg_update(b, 0, NULL, 2, 1);
	dagg_update(a, 0, NULL, 0, 1);
	fp = mem_open();
	dagg_printa(fp, &noctx, NULL, &b, 1);
	mem_close(fp);
	fp = mem_open();
	dagg_print_all(set, fp, &noctx);
	CU_ASSERT_STRING_EQUAL(mem_close(fp),
	    "                1\n"
	    "                3\n");
	CU_ASSERT_PTR_EQUAL(dagg_lookup(set, "c"), c);
	CU_ASSERT_STRING_EQUAL(dagg_name(c), "c");
	dagg_set_destroy(set);
}

static int
fake_ksym(void *ctx, uint64_t addr, int flags, char *buf, size_t len)
{
	(void)ctx;
	if (addr < 0x1000 || addr >= 0x3000)
		return -1;
	if (flags == D_SYM_MOD)
		return snprintf(buf, len, "vmlinux");
	if (flags == D_SYM_FUNC)
		return snprintf(buf, len, "vmlinux`%s", addr < 0x2000 ? "foo" :
		    "bar");
	return snprintf(buf, len, "vmlinux`%s+0x%llx", addr < 0x2000 ? "foo" :
	    "bar", (unsigned long long)(addr & 0xfff));
}

static const struct d_symbolizer fake_sym = { NULL, fake_ksym, NULL };

static void
test_stack_keys(void)
{
	dagg_set_t *set = dagg_set_create(1 << 20, "pmctrace", NULL);
	struct d_vdesc k = { D_VK_KSTACK, 0, 0, 0, 3, 0, NULL };
	dagg_t *a = dagg_create(set, "", DAGG_COUNT, NULL, &k, 1, NULL);
	struct dfmt_ctx cx = { &fake_sym, 0, 0, 14, 0 };
	uint64_t st[3] = { 0x1010, 0x2020, 0x9999 };
	FILE *fp;

	CU_ASSERT_EQUAL(dagg_keysize(a), 24);
	dagg_update(a, 0, st, 0, 1);
	st[2] = 0;
	dagg_update(a, 0, st, 0, 1);
	dagg_update(a, 0, st, 0, 1);
	fp = mem_open();
	dagg_printa(fp, &cx, NULL, &a, 1);
	CU_ASSERT_STRING_EQUAL(mem_close(fp), "\n"
	    "\n"
	    "              vmlinux`foo+0x10\n"
	    "              vmlinux`bar+0x20\n"
	    "              0x9999\n"
	    "                1\n"
	    "\n"
	    "              vmlinux`foo+0x10\n"
	    "              vmlinux`bar+0x20\n"
	    "                2\n");
	dagg_set_destroy(set);
}

/* func()/mod() keys aggregate on the symbol: two addresses in one
 * function are one row. */
static void
test_sym_keys_merge(void)
{
	dagg_set_t *set = dagg_set_create(1 << 20, "pmctrace", NULL);
	struct d_vdesc k = { D_VK_KSYM, 0, 0, 8, 0, 0, NULL };
	dagg_t *a = dagg_create(set, "", DAGG_COUNT, NULL, &k, 1, NULL);
	struct dfmt_ctx cx = { &fake_sym, 0, 0, 14, 0 };
	uint64_t pcs[] = { 0x1010, 0x1020, 0x2000, 0x1030, 0x5000 };
	char exp[512], *o = exp;
	FILE *fp;

	for (int i = 0; i < 5; i++)
		dagg_update(a, 0, &pcs[i], 0, 1);
	CU_ASSERT_EQUAL(dagg_nentries(a), 5);
	/* ties sort by the representative (lowest) address */
	*o++ = '\n';
	o += sprintf(o, "  %-50s %16d\n", "vmlinux`bar", 1);
	o += sprintf(o, "  %-50s %16d\n", "0x5000", 1);
	sprintf(o, "  %-50s %16d\n", "vmlinux`foo", 3);
	fp = mem_open();
	dagg_printa(fp, &cx, NULL, &a, 1);
	CU_ASSERT_STRING_EQUAL(mem_close(fp), exp);
	CU_ASSERT_EQUAL(dagg_nentries(a), 5);
	dagg_set_destroy(set);
}

static int
many_ksym(void *ctx, uint64_t addr, int flags, char *buf, size_t len)
{
	(void)ctx;
	(void)flags;
	return snprintf(buf, len, "mod`f%llu", (unsigned long long)(addr >> 4));
}

/* Many functions, three addresses each: one row per function. */
static void
test_sym_keys_many(void)
{
	static const struct d_symbolizer ms = { NULL, many_ksym, NULL };
	struct dfmt_ctx cx = { &ms, 0, 0, 14, 0 };
	dagg_set_t *set = dagg_set_create(64 << 20, "pmctrace", NULL);
	struct d_vdesc k[2] = { { D_VK_KSYM, 0, 0, 8, 0, 0, NULL }, vd_int(4) };
	dagg_t *a = dagg_create(set, "", DAGG_COUNT, NULL, k, 2, NULL);
	char key[16], *line;
	int rows = 0, bad = 0;
	FILE *fp;

	for (uint64_t f = 0; f < 1000; f++) {
		for (uint64_t off = 1; off <= 3; off++) {
			uint64_t pc = f * 16 + off;

			memcpy(key, &pc, 8);
			ikey(key + 8, 7);
			dagg_update(a, 0, key, 0, 1);
		}
	}
	CU_ASSERT_EQUAL(dagg_nentries(a), 3000);
	fp = mem_open();
	dagg_printa(fp, &cx, NULL, &a, 1);
	mem_close(fp);
	for (line = strtok(membuf, "\n"); line; line = strtok(NULL, "\n")) {
		rows++;
		bad += strstr(line, " 3") == NULL || strstr(line, "mod`f") == NULL;
	}
	CU_ASSERT_EQUAL(rows, 1000);
	CU_ASSERT_EQUAL(bad, 0);
	dagg_set_destroy(set);
}

/* Many keys: every update lands, through the incremental rehash. */
static void
test_rehash_many(void)
{
	dagg_set_t *set = dagg_set_create(64 << 20, "pmctrace", NULL);
	struct d_vdesc k = vd_int(8);
	dagg_t *a = dagg_create(set, "", DAGG_COUNT, NULL, &k, 1, NULL);
	dagg_t *tot = dagg_create(set, "t", DAGG_SUM, NULL, NULL, 0, NULL);
	const int n = 200000;
	char key[8], exp[64];
	FILE *fp;

	for (int round = 0; round < 2; round++) {
		for (int i = 0; i < n; i++) {
			ikey(key, (int64_t)i * 7919);
			CU_ASSERT_EQUAL_FATAL(dagg_update(a, 0, key, 0, 1), 0);
		}
	}
	CU_ASSERT_EQUAL(dagg_nentries(a), (uint64_t)n);
	dagg_trunc(a, 1);
	CU_ASSERT_EQUAL(dagg_nentries(a), 1);
	fp = mem_open();
	dagg_printa(fp, &noctx, NULL, &a, 1);
	/* all values are 2: the largest key wins the tie */
	snprintf(exp, sizeof(exp), "\n %16lld %16d\n", (long long)(n - 1) * 7919,
	    2);
	CU_ASSERT_STRING_EQUAL(mem_close(fp), exp);
	dagg_update(tot, 0, NULL, 5, 1);
	dagg_set_destroy(set);
}

static void
test_drops(void)
{
	dagg_set_t *set = dagg_set_create(4096, "dtrace", NULL);
	struct d_vdesc k = vd_int(8);
	dagg_t *a = dagg_create(set, "", DAGG_COUNT, NULL, &k, 1, NULL);
	int ndrop = 0;
	char key[8];
	FILE *fp;

	for (int i = 0; i < 1000; i++) {
		ikey(key, i);
		if (dagg_update(a, 1, key, 0, 1) == -ENOSPC)
			ndrop++;
	}
	CU_ASSERT(ndrop > 800);
	CU_ASSERT(dagg_nentries(a) > 10);
	CU_ASSERT_EQUAL(dagg_drops(set), (uint64_t)ndrop);
	/* existing keys still count */
	ikey(key, 0);
	CU_ASSERT_EQUAL(dagg_update(a, 1, key, 0, 1), 0);
	ikey(key, 5000);
	dagg_update(a, 3, key, 0, 1);
	fp = mem_open();
	dagg_report_drops(set, fp);
	{
		char exp[200];
		snprintf(exp, sizeof(exp), "dtrace: %d aggregation drops on CPU "
		    "1\ndtrace: 1 aggregation drop on CPU 3\n", ndrop);
		CU_ASSERT_STRING_EQUAL(mem_close(fp), exp);
	}
	fp = mem_open();
	dagg_report_drops(set, fp);
	CU_ASSERT_STRING_EQUAL(mem_close(fp), "");
	dagg_set_destroy(set);
}

/* When the budget cannot pay for a larger table, the table stays and its
 * chains grow: every stored key is still found. */
static void
test_budget_no_expand(void)
{
	/* 16 buckets (128 bytes) + 16 entries of 32 bytes, + 100 spare:
	 * enough for 3 more entries, not for 32 buckets (256 bytes) */
	dagg_set_t *set = dagg_set_create(128 + 16 * 32 + 100, "p", NULL);
	struct d_vdesc k = vd_int(8);
	dagg_t *a = dagg_create(set, "", DAGG_COUNT, NULL, &k, 1, NULL);
	char key[8];
	int ok = 0;

	for (int i = 0; i < 40; i++) {
		ikey(key, i);
		ok += dagg_update(a, 0, key, 0, 1) == 0;
	}
	CU_ASSERT_EQUAL(ok, 19);
	CU_ASSERT_EQUAL(dagg_nentries(a), 19);
	for (int i = 0; i < 19; i++) {
		ikey(key, i);
		CU_ASSERT_EQUAL(dagg_update(a, 0, key, 0, 1), 0);
	}
	CU_ASSERT_EQUAL(dagg_nentries(a), 19);
	CU_ASSERT_EQUAL(dagg_drops(set), 21);
	dagg_set_destroy(set);
}

static void
test_bad_args(void)
{
	dagg_set_t *set = dagg_set_create(1 << 20, "pmctrace", NULL);
	struct d_vdesc bad = { 99, 0, 0, 8, 0, 0, NULL };
	struct dagg_params p = { .ap_lq_base = 5, .ap_lq_limit = 1,
		.ap_lq_step = 1 };
	int err = 0;

	CU_ASSERT_PTR_NULL(dagg_create(set, "x", DAGG_COUNT, NULL, &bad, 1,
	    &err));
	CU_ASSERT_EQUAL(err, -EINVAL);
	CU_ASSERT_PTR_NULL(dagg_create(set, "x", DAGG_LQUANTIZE, &p, NULL, 0,
	    &err));
	CU_ASSERT_PTR_NULL(dagg_create(set, "x", (enum dagg_func)77, NULL,
	    NULL, 0, &err));
	CU_ASSERT_PTR_NULL(dagg_create(NULL, "x", DAGG_COUNT, NULL, NULL, 0,
	    &err));
	CU_ASSERT_EQUAL(dagg_printa(stdout, &noctx, NULL, NULL, 1), -EINVAL);
	dagg_set_destroy(set);
	dagg_set_destroy(NULL);
}

struct walkacc {
	int n;
	int64_t keys[8];
	int64_t vals[8];
};

static int
walk_cb(void *arg, const void *key, const struct d_vdesc *kd, int nkeys,
    const int64_t *vals, int nvals)
{
	struct walkacc *w = arg;

	CU_ASSERT_EQUAL(nkeys, 1);
	CU_ASSERT_EQUAL(kd[0].dv_kind, D_VK_INT);
	CU_ASSERT_EQUAL(nvals, 1);
	if (w->n < 8) {
		memcpy(&w->keys[w->n], key, 8);
		w->vals[w->n] = vals[0];
	}
	return ++w->n == 3 ? 42 : 0;
}

/* The reading interface other output formats use. */
static void
test_walk_and_buckets(void)
{
	dagg_set_t *set = dagg_set_create(1 << 20, "pmctrace", NULL);
	struct d_vdesc k = vd_int(8);
	dagg_t *a = dagg_create(set, "a", DAGG_SUM, NULL, &k, 1, NULL);
	struct dagg_params lp = { .ap_lq_base = 0, .ap_lq_limit = 10,
		.ap_lq_step = 5 };
	struct dagg_params llp = { .ap_llq_factor = 10, .ap_llq_low = 1,
		.ap_llq_high = 2, .ap_llq_nsteps = 10 };
	dagg_t *q = dagg_create(set, "q", DAGG_QUANTIZE, NULL, NULL, 0, NULL);
	dagg_t *l = dagg_create(set, "l", DAGG_LQUANTIZE, &lp, NULL, 0, NULL);
	dagg_t *ll = dagg_create(set, "ll", DAGG_LLQUANTIZE, &llp, NULL, 0,
	    NULL);
	struct walkacc w = { 0, { 0 }, { 0 } };
	int64_t lo, hi, cnt, vals[1] = { -7 };
	char key[8];
	int nk, uns;

	for (int i = 1; i <= 4; i++) {
		ikey(key, i);
		dagg_update(a, 0, key, 10 * (5 - i), 1);
	}
	CU_ASSERT_EQUAL(dagg_walk(a, &noctx, 1, walk_cb, &w), 42);
	CU_ASSERT_EQUAL(w.n, 3);
	CU_ASSERT_EQUAL(w.keys[0], 4);
	CU_ASSERT_EQUAL(w.vals[0], 10);
	CU_ASSERT_EQUAL(w.keys[2], 2);
	CU_ASSERT_EQUAL(dagg_set_naggs(set), 4);
	CU_ASSERT_PTR_EQUAL(dagg_set_agg(set, 1), q);
	CU_ASSERT_PTR_NULL(dagg_set_agg(set, 4));
	CU_ASSERT_EQUAL(dagg_keydesc(a, &nk)[0].dv_isize, 8);
	CU_ASSERT_EQUAL(nk, 1);
	CU_ASSERT_EQUAL(dagg_printed(a), 0);
	dagg_mark_printed(a);
	CU_ASSERT_EQUAL(dagg_printed(a), 1);
	CU_ASSERT_EQUAL(dagg_scalar(a, vals, &uns), -7);
	CU_ASSERT_EQUAL(uns, 0);

	CU_ASSERT_EQUAL(dagg_nbuckets(a), 0);
	CU_ASSERT_EQUAL(dagg_nbuckets(q), 127);
	{
		int64_t qv[127] = { 0 };
		qv[63 + 3] = 5;	/* the [4, 7] bucket */
		dagg_bucket(q, qv, 66, &lo, &hi, &cnt);
		CU_ASSERT(lo == 4 && hi == 7 && cnt == 5);
		dagg_bucket(q, qv, 61, &lo, &hi, &cnt);
		CU_ASSERT(lo == -3 && hi == -2 && cnt == 0);
		dagg_bucket(q, qv, 0, &lo, &hi, &cnt);
		CU_ASSERT(lo == INT64_MIN && hi == -(1LL << 62));
		dagg_bucket(q, qv, 126, &lo, &hi, &cnt);
		CU_ASSERT(lo == 1LL << 62 && hi == INT64_MAX);
		CU_ASSERT_EQUAL(dagg_scalar(q, qv, NULL), 5);
		CU_ASSERT_EQUAL(dagg_bucket(q, qv, 127, &lo, &hi, &cnt),
		    -EINVAL);
	}
	{
		int64_t lv[4] = { 1, 2, 3, 4 };
		CU_ASSERT_EQUAL(dagg_nbuckets(l), 4);
		dagg_bucket(l, lv, 0, &lo, &hi, &cnt);
		CU_ASSERT(lo == INT64_MIN && hi == -1 && cnt == 1);
		dagg_bucket(l, lv, 2, &lo, &hi, &cnt);
		CU_ASSERT(lo == 5 && hi == 9 && cnt == 3);
		dagg_bucket(l, lv, 3, &lo, &hi, &cnt);
		CU_ASSERT(lo == 10 && hi == INT64_MAX);
	}
	{
		/* factor 10, 10^1..10^2, 10 steps: <10, 10..90, 100..900,
		 * >=1000 */
		int64_t llv[20] = { 0 };
		CU_ASSERT_EQUAL(dagg_nbuckets(ll), 20);
		dagg_bucket(ll, llv, 0, &lo, &hi, NULL);
		CU_ASSERT(lo == INT64_MIN && hi == 9);
		dagg_bucket(ll, llv, 1, &lo, &hi, NULL);
		CU_ASSERT(lo == 10 && hi == 19);
		dagg_bucket(ll, llv, 9, &lo, &hi, NULL);
		CU_ASSERT(lo == 90 && hi == 99);
		dagg_bucket(ll, llv, 10, &lo, &hi, NULL);
		CU_ASSERT(lo == 100 && hi == 199);
		dagg_bucket(ll, llv, 19, &lo, &hi, NULL);
		CU_ASSERT(lo == 1000 && hi == INT64_MAX);
	}
	dagg_set_destroy(set);
}

static const struct cu_test tests[] = {
	{ "count without keys", test_count_nokey },
	{ "string keys sorted by value", test_string_keys_sorted },
	{ "signed keys by size", test_signed_keys },
	{ "quantize", test_quantize },
	{ "quantize weight and empty", test_quantize_weight_and_empty },
	{ "quantize both signs", test_quantize_both_signs },
	{ "quantize negative only", test_quantize_negative_only },
	{ "lquantize", test_lquantize },
	{ "lquantize trim", test_lquantize_trim },
	{ "llquantize", test_llquantize },
	{ "llquantize trim", test_llquantize_trim },
	{ "parameter errors", test_param_errors },
	{ "avg min max stddev", test_avg_min_max_stddev },
	{ "printa format", test_printa_format },
	{ "printa joined", test_printa_joined },
	{ "sort options", test_sort_options },
	{ "trunc", test_trunc },
	{ "clear normalize", test_clear_normalize },
	{ "exit-time order", test_print_all_order },
	{ "stack keys", test_stack_keys },
	{ "sym keys merge", test_sym_keys_merge },
	{ "many sym keys merge", test_sym_keys_many },
	{ "rehash many keys", test_rehash_many },
	{ "drops", test_drops },
	{ "walk and buckets", test_walk_and_buckets },
	{ "budget without expansion", test_budget_no_expand },
	{ "bad arguments", test_bad_args },
	{ NULL, NULL }
};

CU_MAIN("dcons_agg", tests)

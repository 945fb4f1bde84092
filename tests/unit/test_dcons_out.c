/*
 * test_dcons_out.c — dout: frame paths from keys, folded stacks compared
 * exactly, the merged tree's layout, JSON records, names and labels, and
 * the exit-time driver over real aggregations (dagg.h).
 */
#include "cu.h"
#include "test_dcons_out_common.h"

/* ---- profile and folded ---------------------------------------------------------- */

static void
test_intern(void)
{
	struct dout_strtab t;
	const struct dout_str *a, *b, *c;
	char name[32];

	dout_strtab_init(&t);
	a = dout_intern(&t, "vmlinux`k1", 10);
	b = dout_intern(&t, "vmlinux`k1xx", 10);
	c = dout_intern(&t, "vmlinux`k2", 10);
	CU_ASSERT_PTR_EQUAL(a, b);
	CU_ASSERT_PTR_NOT_EQUAL(a, c);
	CU_ASSERT_EQUAL(a->s_id, 0);
	CU_ASSERT_EQUAL(c->s_id, 1);
	for (int i = 0; i < 5000; i++) {	/* through several rehashes */
		snprintf(name, sizeof(name), "f%d", i);
		CU_ASSERT_EQUAL_FATAL(dout_intern(&t, name, strlen(name))->s_id,
		    (uint32_t)i + 2);
	}
	CU_ASSERT_PTR_EQUAL(dout_intern(&t, "vmlinux`k2", 10), c);
	CU_ASSERT_STRING_EQUAL(t.st_byid[4000]->s_text, "f3998");
	dout_strtab_fini(&t);
}

/* The fixture behind the folded, SVG and pprof tests. */
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
	key = tkey_make("app", k1b, u1);	/* other offsets: same path */
	CU_ASSERT_EQUAL(dout_prof_add(p, &key, tkey_vd, 3, 12), 0);
	key = tkey_make("app", NULL, u2);
	CU_ASSERT_EQUAL(dout_prof_add(p, &key, tkey_vd, 3, 50), 0);
	key = tkey_make("sh;x", NULL, u3);
	CU_ASSERT_EQUAL(dout_prof_add(p, &key, tkey_vd, 3, 8), 0);
	key = tkey_make("idle", k1, NULL);
	CU_ASSERT_EQUAL(dout_prof_add(p, &key, tkey_vd, 3, 0), 0);	/* dropped */
}

static const char fixture_folded[] =
    "app;app`u1;app`u2;vmlinux`k1;vmlinux`k2;vmlinux`k3 42\n"
    "app;app`u1;perf-42.map`j7 50\n"
    "sh:x;app`u1;0xdead0000 8\n";

static void
test_prof_paths(void)
{
	struct dout_prof p;

	dout_prof_init(&p, &fake_cx);
	add_fixture(&p);
	CU_ASSERT_EQUAL(p.p_nsamples, 4);
	CU_ASSERT_EQUAL(dout_prof_total(&p), 100);
	/* root first: key, user root .. leaf, kernel root .. leaf */
	CU_ASSERT_EQUAL(p.p_samples[0].s_nframes, 6);
	CU_ASSERT_STRING_EQUAL(p.p_frames[0].f_text->s_text, "app");
	CU_ASSERT_EQUAL(p.p_frames[0].f_kind, DOUT_FK_KEY);
	CU_ASSERT_EQUAL(p.p_frames[1].f_kind, DOUT_FK_USER);
	CU_ASSERT_EQUAL(p.p_frames[1].f_pc, UPC(1, 0x8));
	CU_ASSERT_EQUAL(p.p_frames[5].f_kind, DOUT_FK_KERNEL);
	CU_ASSERT_EQUAL(p.p_frames[5].f_pc, KPC(3, 0x10));
	CU_ASSERT_PTR_EQUAL(p.p_frames[5].f_text, p.p_frames[11].f_text);
	CU_ASSERT_EQUAL(p.p_frames[p.p_samples[2].s_first + 2].f_kind, DOUT_FK_JIT);
	dout_prof_fini(&p);
}

static void
test_folded_exact(void)
{
	struct dout_prof p;
	FILE *fp = tmem_open();

	dout_prof_init(&p, &fake_cx);
	add_fixture(&p);
	CU_ASSERT_EQUAL(dout_folded_write(fp, &p), 0);
	CU_ASSERT_STRING_EQUAL(tmem_close(fp), fixture_folded);
	dout_prof_fini(&p);
}

static void
test_folded_keyless(void)
{
	struct dout_prof p;
	FILE *fp = tmem_open();
	int64_t pid = 7;
	struct tkey key;

	dout_prof_init(&p, &fake_cx);
	CU_ASSERT_EQUAL(dout_prof_add(&p, "", NULL, 0, 5), 0);
	CU_ASSERT_EQUAL(dout_prof_add(&p, &pid, &vd_i64, 1, 3), 0);
	key = tkey_make("", NULL, NULL);	/* unknown execname */
	CU_ASSERT_EQUAL(dout_prof_add(&p, &key, tkey_vd, 3, 2), 0);
	CU_ASSERT_EQUAL(dout_folded_write(fp, &p), 0);
	CU_ASSERT_STRING_EQUAL(tmem_close(fp), "- 7\n7 3\n");
	dout_prof_fini(&p);
}

/* ---- the tree -------------------------------------------------------------------- */

static const struct dout_node *
child_named(const struct dout_tree *t, uint32_t parent, const char *name)
{
	for (uint32_t c = t->t_nodes[parent].n_child; c; c = t->t_nodes[c].n_sibling)
		if (strcmp(t->t_nodes[c].n_text->s_text, name) == 0)
			return &t->t_nodes[c];
	return NULL;
}

static void
test_tree_layout(void)
{
	struct dout_prof p;
	struct dout_tree t;
	const struct dout_node *app, *sh, *u1, *j7, *u2;

	dout_prof_init(&p, &fake_cx);
	add_fixture(&p);
	CU_ASSERT_EQUAL_FATAL(dout_tree_build(&t, &p), 0);
	CU_ASSERT_EQUAL(t.t_nodes[0].n_total, 100);
	CU_ASSERT_EQUAL(t.t_maxdepth, 6);
	/* 1 root + app, u1, u2, k1, k2, k3, j7 + sh:x, u1, dead = 11 */
	CU_ASSERT_EQUAL(t.t_n, 11);
	app = child_named(&t, 0, "app");
	sh = child_named(&t, 0, "sh;x");
	CU_ASSERT_FATAL(app && sh);
	CU_ASSERT_EQUAL(app->n_total, 92);
	CU_ASSERT_EQUAL(app->n_start, 0);	/* "app" sorts before "sh;x" */
	CU_ASSERT_EQUAL(sh->n_start, 92);
	u1 = child_named(&t, (uint32_t)(app - t.t_nodes), "app`u1");
	CU_ASSERT_FATAL(u1 != NULL);
	u2 = child_named(&t, (uint32_t)(u1 - t.t_nodes), "app`u2");
	j7 = child_named(&t, (uint32_t)(u1 - t.t_nodes), "perf-42.map`j7");
	CU_ASSERT_FATAL(u2 && j7);
	CU_ASSERT_EQUAL(u2->n_start, 0);
	CU_ASSERT_EQUAL(u2->n_total, 42);
	CU_ASSERT_EQUAL(j7->n_start, 42);
	CU_ASSERT_EQUAL(j7->n_depth, 3);
	CU_ASSERT_EQUAL(j7->n_kind, DOUT_FK_JIT);
	dout_tree_fini(&t);
	dout_prof_fini(&p);
}

/* Many distinct paths: the child table rehashes while merging. */
static void
test_tree_wide(void)
{
	struct dout_prof p;
	struct dout_tree t;
	char name[32];
	int64_t sum = 0;

	dout_prof_init(&p, NULL);
	for (int i = 0; i < 3000; i++) {
		snprintf(name, sizeof(name), "f%04d", 2999 - i);
		CU_ASSERT_EQUAL(dout_prof_frame(&p, "root", 0, DOUT_FK_KEY), 0);
		CU_ASSERT_EQUAL(dout_prof_frame(&p, name, 0, DOUT_FK_USER), 0);
		CU_ASSERT_EQUAL(dout_prof_end(&p, i + 1), 0);
	}
	CU_ASSERT_EQUAL_FATAL(dout_tree_build(&t, &p), 0);
	CU_ASSERT_EQUAL(t.t_n, 3002);
	uint32_t c = t.t_nodes[1].n_child;
	for (int i = 0; c != 0; i++, c = t.t_nodes[c].n_sibling) {
		snprintf(name, sizeof(name), "f%04d", i);
		CU_ASSERT_STRING_EQUAL(t.t_nodes[c].n_text->s_text, name);
		CU_ASSERT_EQUAL(t.t_nodes[c].n_start, sum);
		sum += t.t_nodes[c].n_total;
	}
	CU_ASSERT_EQUAL(sum, 3000 * 3001 / 2);
	dout_tree_fini(&t);
	dout_prof_fini(&p);
}

/* ---- names and labels ------------------------------------------------------------ */

static void
test_fmt_names(void)
{
	CU_ASSERT_EQUAL(dout_fmt_byname("folded"), DOUT_FOLDED);
	CU_ASSERT_EQUAL(dout_fmt_byname("SVG"), DOUT_SVG);
	CU_ASSERT_EQUAL(dout_fmt_byname("pprof"), DOUT_PPROF);
	CU_ASSERT_EQUAL(dout_fmt_byname("json"), DOUT_JSON);
	CU_ASSERT_EQUAL(dout_fmt_byname("text"), DOUT_TEXT);
	CU_ASSERT_EQUAL(dout_fmt_byname("xml"), -1);
	CU_ASSERT_EQUAL(dout_fmt_byname(NULL), -1);
	CU_ASSERT_STRING_EQUAL(dout_fmt_name(DOUT_PPROF), "pprof");
	CU_ASSERT_PTR_NULL(dout_fmt_name(DOUT_NFMTS));
	CU_ASSERT_EQUAL(dout_fmt_bypath("cpu.svg"), DOUT_SVG);
	CU_ASSERT_EQUAL(dout_fmt_bypath("/tmp/x.folded"), DOUT_FOLDED);
	CU_ASSERT_EQUAL(dout_fmt_bypath("cpu.pb.gz"), DOUT_PPROF);
	CU_ASSERT_EQUAL(dout_fmt_bypath("cpu.pprof"), DOUT_PPROF);
	CU_ASSERT_EQUAL(dout_fmt_bypath("a.JSON"), DOUT_JSON);
	CU_ASSERT_EQUAL(dout_fmt_bypath("out.stacks"), DOUT_TEXT);
	CU_ASSERT_EQUAL(dout_fmt_bypath("svg"), DOUT_TEXT);
	CU_ASSERT_EQUAL(dout_fmt_bypath(NULL), DOUT_TEXT);
}

static void
test_counter(void)
{
	char b[64];
	int64_t per;
	int ns;

	dout_counter("pmc:::branchmispredictions-100000", b, sizeof(b), &per, &ns);
	CU_ASSERT_STRING_EQUAL(b, "branchmispredictions");
	CU_ASSERT_EQUAL(per, 100000);
	CU_ASSERT_EQUAL(ns, 0);
	dout_counter("profile-997", b, sizeof(b), &per, &ns);
	CU_ASSERT_STRING_EQUAL(b, "samples");
	CU_ASSERT_EQUAL(per, 1003009);
	CU_ASSERT_EQUAL(ns, 1);
	dout_counter("profile:::profile-5ms", b, sizeof(b), &per, &ns);
	CU_ASSERT_EQUAL(per, 5000000);
	dout_counter("sched::pmc:off-cpu-instructionretired", b, sizeof(b), &per, &ns);
	CU_ASSERT_STRING_EQUAL(b, "off-cpu-instructionretired");
	CU_ASSERT_EQUAL(per, 0);
	dout_counter("pmc:::llcmisses-5000 ", b, sizeof(b), &per, &ns);
	CU_ASSERT_STRING_EQUAL(b, "llcmisses");
	CU_ASSERT_EQUAL(per, 5000);
	dout_counter("profile-997\n", b, sizeof(b), &per, &ns);
	CU_ASSERT_EQUAL(per, 1003009);
	dout_counter("pmc:::cpu-clock", b, sizeof(b), NULL, NULL);
	CU_ASSERT_STRING_EQUAL(b, "cpu-clock");
	dout_counter("pmc:::*", b, sizeof(b), &per, NULL);
	CU_ASSERT_STRING_EQUAL(b, "samples");
	dout_counter("BEGIN ", b, sizeof(b), &per, NULL);
	CU_ASSERT_STRING_EQUAL(b, "samples");
	dout_counter(NULL, b, sizeof(b), &per, NULL);
	CU_ASSERT_STRING_EQUAL(b, "samples");
	CU_ASSERT_EQUAL(per, 0);
}

static void
test_title(void)
{
	struct dout_opts o = { DOUT_SVG, 0, NULL, "dscripts/flame.d",
	    "profile-997", "pmctrace" };
	char b[128];

	dout_title(&o, b, sizeof(b));
	CU_ASSERT_STRING_EQUAL(b, "flame.d \xe2\x80\x94 samples");
	o.do_script = "profile-997\n{ @[ustack()] =   count(); }";
	o.do_probe = "pmc:::llcmisses-1000";
	dout_title(&o, b, sizeof(b));
	CU_ASSERT_STRING_EQUAL(b, "profile-997 { @[ustack()] = count(); } \xe2\x80\x94 llcmisses");
	o.do_title = "My <title>";
	dout_title(&o, b, sizeof(b));
	CU_ASSERT_STRING_EQUAL(b, "My <title>");
	dout_title(NULL, b, sizeof(b));
	CU_ASSERT_STRING_EQUAL(b, "pmctrace \xe2\x80\x94 samples");
}

/* ---- JSON ---------------------------------------------------------------------------- */

static void
test_json_escape(void)
{
	static const char in[] = "a\"b\\c\n\t\x01\x7f" "\xc3\xa9" "\xff" "\xe2\x80\xa8" "\xc3";
	FILE *fp = tmem_open();

	CU_ASSERT_EQUAL(dout_json_str(fp, in, sizeof(in) - 1), 0);
	CU_ASSERT_STRING_EQUAL(tmem_close(fp),
	    "\"a\\\"b\\\\c\\n\\t\\u0001\\u007f\xc3\xa9\\ufffd\\u2028\\ufffd\"");
	fp = tmem_open();
	/* overlong '/' and a surrogate are not UTF-8 */
	CU_ASSERT_EQUAL(dout_json_str(fp, "\xc0\xaf\xed\xa0\x80", 5), 0);
	CU_ASSERT_STRING_EQUAL(tmem_close(fp),
	    "\"\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\"");
}

static void
test_json_agg_line(void)
{
	const uint64_t k1[] = { KPC(3, 0x10), KPC(1, 0), 0 };
	const uint64_t u1[] = { UPC(2, 0x4), 0 };
	struct tkey key = tkey_make("a\"b", k1, u1);
	const int64_t lo[] = { 0, 1, 2 }, hi[] = { 0, 1, 3 }, cnt[] = { 0, 4, 1 };
	struct dout_jagg ja = { "@lat", DAGG_QUANTIZE, 5, 0, 3, lo, hi, cnt };
	FILE *fp = tmem_open();

	CU_ASSERT_EQUAL(dout_json_agg(fp, &fake_cx, &ja, &key, tkey_vd, 3), 0);
	CU_ASSERT_STRING_EQUAL(tmem_close(fp),
	    "{\"record\":\"aggregation\",\"name\":\"@lat\",\"function\":\"quantize\","
	    "\"keys\":[\"a\\\"b\",[\"vmlinux`k3+0x10\",\"vmlinux`k1\"],[\"app`u2+0x4\"]],"
	    "\"value\":5,\"buckets\":[{\"min\":1,\"max\":1,\"count\":4},"
	    "{\"min\":2,\"max\":3,\"count\":1}]}\n");
}

static void
test_json_record(void)
{
	struct dout_rec r = { 1, 10, 123456789, "profile", "", "", "profile-997",
	    "x=1\n", 4 };
	FILE *fp = tmem_open();

	CU_ASSERT_EQUAL(dout_json_record(fp, &r), 0);
	CU_ASSERT_STRING_EQUAL(tmem_close(fp),
	    "{\"record\":\"probe\",\"cpu\":1,\"id\":10,\"timestamp\":123456789,"
	    "\"probe\":\"profile:::profile-997\",\"output\":\"x=1\\n\"}\n");
	CU_ASSERT_EQUAL(dout_json_record(NULL, &r), -EINVAL);
}

/* ---- over real aggregations ------------------------------------------------------------ */

static dagg_set_t *
make_set(dagg_t **ap, dagg_t **bp)
{
	const uint64_t k1[] = { KPC(3, 0x10), KPC(1, 0x30), 0 };
	const uint64_t u1[] = { UPC(2, 0x4), UPC(1, 0x8), 0 };
	int err;
	dagg_set_t *set = dagg_set_create(1 << 20, "pmctrace", &err);
	struct tkey key;

	CU_ASSERT_PTR_NOT_NULL_FATAL(set);
	*ap = dagg_create(set, "", DAGG_COUNT, NULL, tkey_vd, 3, &err);
	*bp = dagg_create(set, "lat", DAGG_QUANTIZE, NULL, &vd_i64, 1, &err);
	CU_ASSERT_FATAL(*ap && *bp);
	key = tkey_make("app", k1, u1);
	for (int i = 0; i < 3; i++)
		CU_ASSERT_EQUAL(dagg_update(*ap, 0, &key, 0, 1), 0);
	key = tkey_make("app", NULL, u1);
	CU_ASSERT_EQUAL(dagg_update(*ap, 1, &key, 0, 1), 0);
	for (int64_t v = 1; v <= 5; v++) {
		int64_t k = v % 2;

		CU_ASSERT_EQUAL(dagg_update(*bp, 0, &k, v, 1), 0);
	}
	return set;
}

static void
test_print_all_folded(void)
{
	struct dout_opts o = { DOUT_FOLDED, 0, NULL, NULL, NULL, "pmctrace" };
	dagg_t *a, *b;
	dagg_set_t *set = make_set(&a, &b);
	FILE *fp = tmem_open();

	CU_ASSERT_EQUAL(dout_print_all(fp, &o, &fake_cx, set), 0);
	CU_ASSERT_STRING_EQUAL(tmem_close(fp),
	    "@;app;app`u1;app`u2 1\n"
	    "@;app;app`u1;app`u2;vmlinux`k1;vmlinux`k3 3\n"
	    "@lat;0 2\n"
	    "@lat;1 3\n");
	o.do_fmt = DOUT_TEXT;
	CU_ASSERT_EQUAL(dout_print_all(stdout, &o, &fake_cx, set), -EINVAL);
	dagg_set_destroy(set);
}

static void
test_print_all_json(void)
{
	struct dout_opts o = { DOUT_JSON, 0, NULL, NULL, NULL, "pmctrace" };
	dagg_t *a, *b;
	dagg_set_t *set = make_set(&a, &b);
	FILE *fp = tmem_open();
	const char *out;

	/* printa(@) as JSON marks @ printed: exit time writes only @lat */
	CU_ASSERT_EQUAL(dout_printa(fp, &o, &fake_cx, &a, 1), 0);
	CU_ASSERT_EQUAL(dout_print_all(fp, &o, &fake_cx, set), 0);
	out = tmem_close(fp);
	CU_ASSERT_EQUAL(tcount(out, "\n"), 4);
	CU_ASSERT_EQUAL(tcount(out, "\"name\":\"@\""), 2);
	/* printa order: by value, so the 1-count entry first */
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\"keys\":[\"app\",[],[\"app`u2+0x4\","
	    "\"app`u1+0x8\"]],\"value\":1}\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out,
	    "{\"record\":\"aggregation\",\"name\":\"@lat\",\"function\":\"quantize\","
	    "\"keys\":[0],\"value\":2,\"buckets\":[{\"min\":2,\"max\":3,\"count\":1},"
	    "{\"min\":4,\"max\":7,\"count\":1}]}\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out,
	    "\"keys\":[1],\"value\":3,\"buckets\":[{\"min\":1,\"max\":1,\"count\":1},"
	    "{\"min\":2,\"max\":3,\"count\":1},{\"min\":4,\"max\":7,\"count\":1}]}\n"));
	CU_ASSERT(strstr(out, "@lat") > strstr(out, "\"value\":3}"));
	dagg_set_destroy(set);
}

/* lquantize/llquantize bucket ranges as DTrace labels them. */
static void
test_bucket_ranges(void)
{
	struct dagg_params lp = { 0, 10, 5, 0, 0, 0, 0 };
	struct dagg_params llp = { 0, 0, 0, 10, 0, 2, 10 };
	int err;
	dagg_set_t *set = dagg_set_create(1 << 20, "pmctrace", &err);
	dagg_t *l = dagg_create(set, "l", DAGG_LQUANTIZE, &lp, NULL, 0, &err);
	dagg_t *ll = dagg_create(set, "ll", DAGG_LLQUANTIZE, &llp, NULL, 0, &err);
	int64_t v[64] = { 0 }, lo, hi, c;

	CU_ASSERT_FATAL(l && ll);
	CU_ASSERT_EQUAL(dagg_nbuckets(l), 4);	/* <0, 0-4, 5-9, >=10 */
	dagg_bucket(l, v, 0, &lo, &hi, &c);
	CU_ASSERT(lo == INT64_MIN && hi == -1);
	dagg_bucket(l, v, 2, &lo, &hi, &c);
	CU_ASSERT(lo == 5 && hi == 9);
	dagg_bucket(l, v, 3, &lo, &hi, &c);
	CU_ASSERT(lo == 10 && hi == INT64_MAX);
	/* llquantize(x, 10, 0, 2, 10): <1, 1..9, 10..90 by 10, 100..900 by 100, >=1000 */
	CU_ASSERT_EQUAL(dagg_nbuckets(ll), 1 + 9 + 9 + 9 + 1);
	dagg_bucket(ll, v, 1, &lo, &hi, &c);
	CU_ASSERT(lo == 1 && hi == 1);
	dagg_bucket(ll, v, 10, &lo, &hi, &c);
	CU_ASSERT(lo == 10 && hi == 19);
	dagg_bucket(ll, v, 27, &lo, &hi, &c);
	CU_ASSERT(lo == 900 && hi == 999);
	dagg_bucket(ll, v, 28, &lo, &hi, &c);
	CU_ASSERT(lo == 1000 && hi == INT64_MAX);
	CU_ASSERT_EQUAL(dagg_bucket(ll, v, 29, &lo, &hi, &c), -EINVAL);
	/* values land in the bucket whose range holds them */
	CU_ASSERT_EQUAL(dagg_update(ll, 0, NULL, 950, 1), 0);
	CU_ASSERT_EQUAL(dagg_update(l, 0, NULL, 7, 1), 0);
	struct dout_opts o = { DOUT_JSON, 0, NULL, NULL, NULL, NULL };
	FILE *fp = tmem_open();
	CU_ASSERT_EQUAL(dout_print_all(fp, &o, &fake_cx, set), 0);
	const char *out = tmem_close(fp);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "{\"min\":5,\"max\":9,\"count\":1}"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "{\"min\":900,\"max\":999,\"count\":1}"));
	dagg_set_destroy(set);
}

/* A full disk is an error, not a silently truncated picture. */
static void
test_write_errors(void)
{
	struct dout_opts o = { DOUT_SVG, 0, NULL, NULL, NULL, NULL };
	struct dout_prof p;
	FILE *full = fopen("/dev/full", "w");

	if (full == NULL)
		return;		/* no /dev/full in this sandbox */
	setvbuf(full, NULL, _IONBF, 0);
	dout_prof_init(&p, &fake_cx);
	add_fixture(&p);
	CU_ASSERT_EQUAL(dout_folded_write(full, &p), -EIO);
	CU_ASSERT_EQUAL(dout_svg_write(full, &p, &o), -EIO);
	CU_ASSERT_EQUAL(dout_pprof_write(full, &p, &o), -EIO);
	CU_ASSERT_EQUAL(dout_json_str(full, "x", 1), -EIO);
	dout_prof_fini(&p);
	fclose(full);
}

static const struct cu_test tests[] = {
	{ "intern", test_intern },
	{ "prof_paths", test_prof_paths },
	{ "folded_exact", test_folded_exact },
	{ "folded_keyless", test_folded_keyless },
	{ "tree_layout", test_tree_layout },
	{ "tree_wide", test_tree_wide },
	{ "fmt_names", test_fmt_names },
	{ "counter", test_counter },
	{ "title", test_title },
	{ "json_escape", test_json_escape },
	{ "json_agg_line", test_json_agg_line },
	{ "json_record", test_json_record },
	{ "print_all_folded", test_print_all_folded },
	{ "print_all_json", test_print_all_json },
	{ "bucket_ranges", test_bucket_ranges },
	{ "write_errors", test_write_errors },
	{ NULL, NULL },
};

CU_MAIN("dcore_out", tests)

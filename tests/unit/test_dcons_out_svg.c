/*
 * test_dcons_out_svg.c — the flame graph SVG: one <g class="f"> per tree
 * node, tooltips with name, count and percentage, widths proportional to
 * counts, positions by weight to the left, flame and icicle rows, XML
 * escaping, elided slivers, and the script/search/zoom elements.
 */
#include "cu.h"
#include "test_dcons_out_common.h"

static void
add_fixture(struct dout_prof *p)
{
	const uint64_t k1[] = { KPC(3, 0x10), KPC(1, 0x30), 0 };
	const uint64_t u1[] = { UPC(2, 0x4), UPC(1, 0x8), 0 };
	const uint64_t u2[] = { JPC(7, 0x1), UPC(1, 0x8), 0 };
	struct tkey key;

	key = tkey_make("app", k1, u1);
	CU_ASSERT_EQUAL(dout_prof_add(p, &key, tkey_vd, 3, 40), 0);
	key = tkey_make("app", NULL, u2);
	CU_ASSERT_EQUAL(dout_prof_add(p, &key, tkey_vd, 3, 35), 0);
	key = tkey_make("a<b&\"c", NULL, u1);
	CU_ASSERT_EQUAL(dout_prof_add(p, &key, tkey_vd, 3, 25), 0);
}

static char *
svg_of(const struct dout_prof *p, const struct dout_opts *o)
{
	FILE *fp = tmem_open();

	CU_ASSERT_EQUAL(dout_svg_write(fp, p, o), 0);
	tmem_close(fp);
	return tmem_buf;
}

/* The <rect> attribute of the frame whose tooltip starts with title. */
static double
frame_attr(const char *svg, const char *title, const char *attr)
{
	char pat[256], key[32];
	const char *t, *r;

	snprintf(pat, sizeof(pat), "<title>%s (", title);
	if ((t = strstr(svg, pat)) == NULL || (r = strstr(t, "<rect ")) == NULL)
		return -1;
	snprintf(key, sizeof(key), " %s=\"", attr);
	if ((r = strstr(r, key)) == NULL)
		return -1;
	return strtod(r + strlen(key), NULL);
}

static const struct dout_opts sopts = { DOUT_SVG, 0, NULL, "dscripts/flame.d",
	"profile-997", "pmctrace" };

static void
test_svg_frames(void)
{
	struct dout_prof p;
	const char *svg;

	dout_prof_init(&p, &fake_cx);
	add_fixture(&p);
	svg = svg_of(&p, &sopts);
	/* all, app, u1, u2, k1, k3, j7, a<b&"c, u1, u2 */
	CU_ASSERT_EQUAL(tcount(svg, "<g class=\"f\">"), 10);
	CU_ASSERT_EQUAL(tcount(svg, "<rect x="), 10 + 1);	/* + background */
	CU_ASSERT_PTR_NOT_NULL(strstr(svg,
	    "<title>all (100 samples, 100.00%)</title>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(svg,
	    "<title>vmlinux`k3 (40 samples, 40.00%)</title>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(svg,
	    "<title>perf-42.map`j7 (35 samples, 35.00%)</title>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(svg,
	    "<title>a&lt;b&amp;&quot;c (25 samples, 25.00%)</title>"));
	/* widths: 1180 pixels for 100 samples */
	CU_ASSERT_DOUBLE_EQUAL(frame_attr(svg, "all", "width"), 1180, 0.01);
	CU_ASSERT_DOUBLE_EQUAL(frame_attr(svg, "vmlinux`k3", "width"), 472, 0.01);
	CU_ASSERT_DOUBLE_EQUAL(frame_attr(svg, "perf-42.map`j7", "width"), 413, 0.01);
	/* x: names in order ("a<b.." < "app"), then by weight to the left */
	CU_ASSERT_DOUBLE_EQUAL(frame_attr(svg, "a&lt;b&amp;&quot;c", "x"), 10, 0.01);
	CU_ASSERT_DOUBLE_EQUAL(frame_attr(svg, "app", "x"), 10 + 295, 0.01);
	CU_ASSERT_DOUBLE_EQUAL(frame_attr(svg, "perf-42.map`j7", "x"),
	    10 + 295 + 472, 0.01);
	/* flame: deeper is higher up; rows 16 pixels apart */
	CU_ASSERT_DOUBLE_EQUAL(frame_attr(svg, "app", "y") -
	    frame_attr(svg, "vmlinux`k3", "y"), 4 * 16, 0.01);
	CU_ASSERT(frame_attr(svg, "all", "y") > frame_attr(svg, "app", "y"));
	/* colours by kind: the JIT frame is green (g dominant) */
	CU_ASSERT_PTR_NOT_NULL(strstr(svg, "<title>perf-42.map`j7 (35 samples, "
	    "35.00%)</title><rect x=\"777.00\" y=\""));
	dout_prof_fini(&p);
}

static void
test_svg_document(void)
{
	struct dout_prof p;
	const char *svg;

	dout_prof_init(&p, &fake_cx);
	add_fixture(&p);
	svg = svg_of(&p, &sopts);
	CU_ASSERT(strncmp(svg, "<?xml version=\"1.0\"", 19) == 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(svg, "xmlns=\"http://www.w3.org/2000/svg\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(svg, "<text id=\"title\" x=\"600\" y=\"24\">"
	    "flame.d \xe2\x80\x94 samples</text>"));
	CU_ASSERT_EQUAL(tcount(svg, "<script"), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(svg, "<input xmlns=\"http://www.w3.org/1999/xhtml\" "
	    "id=\"search\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(svg, "id=\"reset\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(svg, "id=\"matched\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(svg, "id=\"details\""));
	/* no network: nothing is fetched */
	CU_ASSERT_PTR_NULL(strstr(svg, "href"));
	CU_ASSERT_PTR_NULL(strstr(svg, "http://www.w3.org/2000/svg\" href"));
	CU_ASSERT_EQUAL(tcount(svg, "http"), 2);	/* the two namespaces */
	CU_ASSERT(strcmp(svg + strlen(svg) - 7, "</svg>\n") == 0);
	dout_prof_fini(&p);
}

static void
test_svg_icicle(void)
{
	struct dout_opts o = sopts;
	struct dout_prof p;
	const char *svg;

	o.do_reverse = 1;
	o.do_title = "off-CPU & more";
	dout_prof_init(&p, &fake_cx);
	add_fixture(&p);
	svg = svg_of(&p, &o);
	CU_ASSERT_DOUBLE_EQUAL(frame_attr(svg, "all", "y"), 70, 0.01);
	CU_ASSERT_DOUBLE_EQUAL(frame_attr(svg, "vmlinux`k3", "y") -
	    frame_attr(svg, "app", "y"), 4 * 16, 0.01);
	CU_ASSERT_PTR_NOT_NULL(strstr(svg, "data-rev=\"1\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(svg, ">off-CPU &amp; more</text>"));
	dout_prof_fini(&p);
}

/* Slivers under 0.1 pixel are left out, with everything above them. */
static void
test_svg_elide(void)
{
	struct dout_prof p;
	const char *svg;

	dout_prof_init(&p, NULL);
	CU_ASSERT_EQUAL(dout_prof_frame(&p, "big", 0, DOUT_FK_USER), 0);
	CU_ASSERT_EQUAL(dout_prof_end(&p, 1000000), 0);
	CU_ASSERT_EQUAL(dout_prof_frame(&p, "tiny", 0, DOUT_FK_USER), 0);
	CU_ASSERT_EQUAL(dout_prof_frame(&p, "tinychild", 0, DOUT_FK_USER), 0);
	CU_ASSERT_EQUAL(dout_prof_end(&p, 50), 0);
	CU_ASSERT_EQUAL(dout_prof_frame(&p, "<\x01\xff>", 0, DOUT_FK_KERNEL), 0);
	CU_ASSERT_EQUAL(dout_prof_end(&p, 100000), 0);
	svg = svg_of(&p, NULL);
	CU_ASSERT_EQUAL(tcount(svg, "<g class=\"f\">"), 3);
	CU_ASSERT_PTR_NULL(strstr(svg, "tiny"));
	/* control bytes and invalid UTF-8 cannot appear in XML */
	CU_ASSERT_PTR_NOT_NULL(strstr(svg, "<title>&lt;??&gt; (100000 samples"));
	dout_prof_fini(&p);
}

static void
test_svg_empty(void)
{
	struct dout_prof p;
	const char *svg;

	dout_prof_init(&p, NULL);
	svg = svg_of(&p, &sopts);
	CU_ASSERT_EQUAL(tcount(svg, "<g class=\"f\">"), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(svg, ">0 samples</text>"));
	CU_ASSERT(strcmp(svg + strlen(svg) - 7, "</svg>\n") == 0);
	dout_prof_fini(&p);
}

static const struct cu_test tests[] = {
	{ "svg_frames", test_svg_frames },
	{ "svg_document", test_svg_document },
	{ "svg_icicle", test_svg_icicle },
	{ "svg_elide", test_svg_elide },
	{ "svg_empty", test_svg_empty },
	{ NULL, NULL },
};

CU_MAIN("dcons_out_svg", tests)

/*
 * ASSERTION: translator declarations and xlate: each member is computed from the input expression.
 * SECTION: Translators
 */
#pragma D option quiet

struct in_t {
	int lo;
	int hi;
};

struct out_t {
	int64_t total;
	int64_t span;
	string tag;
};

translator struct out_t < struct in_t *p > {
	total = p->lo + p->hi;
	span = p->hi - p->lo;
	tag = "xl";
};

struct in_t g;

BEGIN
{
	g.lo = 3;
	g.hi = 10;
	printf("%d %d %s\n", xlate <struct out_t *> (&g)->total,
	    xlate <struct out_t *> (&g)->span, xlate <struct out_t *> (&g)->tag);
	exit(0);
}

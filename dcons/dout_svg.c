/*
 * dout_svg.c — a self-contained interactive flame graph: plain SVG with
 * inline CSS and JavaScript, no network, readable by any browser.
 *
 * Layout: the merged tree (dout_tree.c), root "all" at the bottom (or on
 * top for the icicle, flamereverse), one 16-pixel row per depth; a frame's
 * x and width are its weight to the left and its weight, scaled to the
 * 1200-pixel canvas.  Frames narrower than 0.1 pixel are left out (with
 * their children), as FlameGraph does, so huge profiles stay small.
 * Each frame is one <g class="f"> holding a <title> (name, count,
 * percentage: the browser's tooltip), a <rect> and a <text> label; the
 * script reads x/width back from the rects, so the numbers are written
 * once.  Colours: kernel orange, user red or yellow, JIT green, key frames
 * (execname...) blue, aggregation names grey; the shade within a palette
 * comes from a hash of the name so a function keeps its colour.
 * The script: hover shows the frame in the details line, click zooms
 * (ancestors stretch and fade), "Reset Zoom" or Escape unzooms, the search
 * box (Ctrl-F focuses it; a regular expression, or plain text when it is
 * not one) highlights matches and prints the share of all samples they
 * cover, counting nested matches once.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "dcons/dout_impl.h"

#define SVG_W		1200
#define SVG_PAD		10
#define SVG_FH		16	/* row height */
#define SVG_TOP		70	/* title, search box, legend */
#define SVG_BOTTOM	34	/* details line */
#define SVG_MINW	0.1	/* narrower frames are elided */
#define SVG_CHARW	7.0	/* average glyph width at 12px */

#define SCHK(x)	do { if ((x) < 0) return -EIO; } while (0)

struct svg_ctx {
	FILE *sv_fp;
	const struct dout_tree *sv_t;
	double sv_scale;	/* pixels per unit of weight */
	int sv_reverse;
	int sv_height;
	const char *sv_unit;	/* "samples" */
};

/* ---- text ------------------------------------------------------------------- */

/* Bytes of the valid UTF-8 character at s, 0 when invalid. */
static size_t
svg_u8len(const unsigned char *s, size_t n)
{
	size_t len = s[0] < 0x80 ? 1 : s[0] >= 0xc2 && s[0] <= 0xdf ? 2 :
	    s[0] >= 0xe0 && s[0] <= 0xef ? 3 : s[0] >= 0xf0 && s[0] <= 0xf4 ?
	    4 : 0;

	if (len == 0 || len > n)
		return 0;
	for (size_t i = 1; i < len; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return len;
}

/* XML-escaped text; characters XML 1.0 cannot hold become '?'. */
static int
svg_text(FILE *fp, const char *s, size_t len)
{
	const unsigned char *u = (const unsigned char *)s;

	for (size_t i = 0; i < len; ) {
		size_t n = svg_u8len(u + i, len - i);

		if (n > 1) {
			SCHK(fwrite(u + i, 1, n, fp) == n ? 0 : -1);
			i += n;
			continue;
		}
		switch (u[i]) {
		case '&': SCHK(fputs("&amp;", fp)); break;
		case '<': SCHK(fputs("&lt;", fp)); break;
		case '>': SCHK(fputs("&gt;", fp)); break;
		case '"': SCHK(fputs("&quot;", fp)); break;
		case '\'': SCHK(fputs("&apos;", fp)); break;
		default:
			SCHK(fputc(n == 0 || u[i] < 0x20 || u[i] == 0x7f ? '?' :
			    u[i], fp));
		}
		i++;
	}
	return 0;
}

static int
svg_cstr(FILE *fp, const char *s)
{
	return svg_text(fp, s, strlen(s));
}

/* The label that fits in w pixels: the name, or its start and "..". */
static int
svg_label(FILE *fp, const char *text, size_t len, double w)
{
	int max = (int)((w - 6) / SVG_CHARW);
	size_t n;

	if (max < 3)
		return 0;
	if (len <= (size_t)max)
		return svg_text(fp, text, len);
	n = (size_t)max - 2;
	while (n > 0 && ((unsigned char)text[n] & 0xc0) == 0x80)
		n--;	/* do not cut a UTF-8 character */
	SCHK(svg_text(fp, text, n));
	return fputs("..", fp) < 0 ? -EIO : 0;
}

/* ---- colours --------------------------------------------------------------------- */

static double
svg_hash(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return (double)(h % 1000) / 1000.0;
}

/* Base and span of r, g, b per kind; ORDER: enum dout_fkind.  The user
 * palette skips its orange middle (split) so user and kernel frames
 * never share a colour. */
static const struct svg_pal {
	int r, dr, g, dg, b, db, split;
} svg_palette[DOUT_FK_NKINDS] = {
	{ 80, 40, 150, 50, 210, 40, 0 },	/* key: blue */
	{ 235, 20, 120, 40, 0, 30, 0 },		/* kernel: orange */
	{ 205, 50, 0, 230, 0, 55, 1 },		/* user: red or yellow */
	{ 50, 50, 180, 60, 50, 40, 0 },		/* JIT: green */
	{ 160, 30, 160, 30, 160, 30, 0 },	/* aggregation: grey */
};

static int
svg_fill(FILE *fp, const struct dout_node *n, int root)
{
	const char *name = n->n_text ? n->n_text->s_text : "all";
	double v = svg_hash(name), vg = v;
	int k = root ? DOUT_FK_AGG : n->n_kind < DOUT_FK_NKINDS ? n->n_kind : 0;
	const struct svg_pal *pl = &svg_palette[k];

	if (pl->split)
		vg = v < 0.5 ? v * 0.5 : 0.75 + (v - 0.5) * 0.5;
	return fprintf(fp, "rgb(%d,%d,%d)", pl->r + (int)(pl->dr * v),
	    pl->g + (int)(pl->dg * vg), pl->b + (int)(pl->db * (1 - v)));
}

/* ---- frames ----------------------------------------------------------------------- */

static int
svg_y(const struct svg_ctx *c, uint32_t depth)
{
	if (c->sv_reverse)
		return SVG_TOP + (int)depth * SVG_FH;
	return c->sv_height - SVG_BOTTOM - ((int)depth + 1) * SVG_FH;
}

static int
svg_frame(const struct svg_ctx *c, uint32_t idx)
{
	const struct dout_node *n = &c->sv_t->t_nodes[idx];
	const struct dout_node *root = &c->sv_t->t_nodes[0];
	const char *name = n->n_text ? n->n_text->s_text : "all";
	size_t len = n->n_text ? n->n_text->s_len : 3;
	double x = SVG_PAD + (double)n->n_start * c->sv_scale;
	double w = (double)n->n_total * c->sv_scale;
	int y = svg_y(c, n->n_depth);
	FILE *fp = c->sv_fp;

	SCHK(fputs("<g class=\"f\"><title>", fp));
	SCHK(svg_text(fp, name, len));
	SCHK(fprintf(fp, " (%" PRId64 " %s, %.2f%%)</title><rect x=\"%.2f\" "
	    "y=\"%d\" width=\"%.2f\" height=\"%d\" fill=\"", n->n_total,
	    c->sv_unit, 100.0 * (double)n->n_total / (double)root->n_total, x,
	    y, w, SVG_FH - 1));
	SCHK(svg_fill(fp, n, idx == 0));
	SCHK(fprintf(fp, "\" rx=\"2\" ry=\"2\"/><text x=\"%.2f\" y=\"%.1f\">",
	    x + 3, y + 11.5));
	SCHK(svg_label(fp, name, len, w));
	SCHK(fputs("</text></g>\n", fp));
	return 0;
}

/* Depth first, children in name order; narrow subtrees are skipped. */
static int
svg_frames(const struct svg_ctx *c)
{
	const struct dout_tree *t = c->sv_t;
	uint32_t idx = 0;

	for (;;) {
		const struct dout_node *n = &t->t_nodes[idx];
		int show = (double)n->n_total * c->sv_scale >= SVG_MINW;

		if (show)
			SCHK(svg_frame(c, idx));
		if (show && n->n_child != 0) {
			idx = n->n_child;
			continue;
		}
		while (idx != 0 && t->t_nodes[idx].n_sibling == 0)
			idx = t->t_nodes[idx].n_parent;
		if (idx == 0)
			return 0;
		idx = t->t_nodes[idx].n_sibling;
	}
}

/* ---- the document ----------------------------------------------------------------- */

static const char svg_css[] =
"<style type=\"text/css\"><![CDATA[\n"
"text { font-family: Verdana, 'DejaVu Sans', sans-serif; font-size: 12px; fill: #000; }\n"
"#title { font-size: 17px; text-anchor: middle; }\n"
"#subtitle { font-size: 12px; text-anchor: middle; fill: #555; }\n"
"#reset { cursor: pointer; opacity: 0.3; }\n"
"#matched { text-anchor: end; }\n"
"g.f { cursor: pointer; }\n"
"g.f:hover rect { stroke: #000; stroke-width: 0.6; }\n"
"g.f text { pointer-events: none; }\n"
"g.anc { opacity: 0.55; }\n"
"]]></style>\n";

/* The script; reads PAD/FH/REV/BASE from the <svg> element's data. */
static const char svg_js[] =
"<script type=\"text/javascript\"><![CDATA[\n"
"'use strict';\n"
"var root = document.documentElement, frames = [], details, matched, reset, input;\n"
"var W = +root.getAttribute('width'), PAD = +root.getAttribute('data-pad');\n"
"var FH = +root.getAttribute('data-fh'), REV = root.getAttribute('data-rev') === '1';\n"
"var BASE = +root.getAttribute('data-base');\n"
"function label(f, w) {\n"
"  var n = Math.floor((w - 6) / 7);\n"
"  if (n < 3) return '';\n"
"  return f.name.length <= n ? f.name : f.name.substring(0, n - 2) + '..';\n"
"}\n"
"function place(f, x, w) {\n"
"  f.r.setAttribute('x', x.toFixed(2)); f.r.setAttribute('width', w.toFixed(2));\n"
"  f.t.setAttribute('x', (x + 3).toFixed(2)); f.t.textContent = label(f, w);\n"
"  f.g.style.display = '';\n"
"}\n"
"function zoom(z) {\n"
"  var s = (W - 2 * PAD) / z.w, e = 1e-6;\n"
"  frames.forEach(function (f) {\n"
"    if (f.d >= z.d && f.x >= z.x - e && f.x + f.w <= z.x + z.w + e) {\n"
"      place(f, PAD + (f.x - z.x) * s, f.w * s); f.g.classList.remove('anc');\n"
"    } else if (f.d < z.d && f.x <= z.x + e && f.x + f.w >= z.x + z.w - e) {\n"
"      place(f, PAD, W - 2 * PAD); f.g.classList.add('anc');\n"
"    } else {\n"
"      f.g.style.display = 'none';\n"
"    }\n"
"  });\n"
"  reset.style.opacity = '1';\n"
"}\n"
"function unzoom() {\n"
"  frames.forEach(function (f) { place(f, f.x, f.w); f.g.classList.remove('anc'); });\n"
"  reset.style.opacity = '0.3';\n"
"}\n"
"function search(q) {\n"
"  var re = null, hits = [], sum = 0, end = -1;\n"
"  if (q) { try { re = new RegExp(q); } catch (err) { re = null; } }\n"
"  frames.forEach(function (f) {\n"
"    var m = !!q && (re ? re.test(f.name) : f.name.indexOf(q) >= 0);\n"
"    f.r.setAttribute('fill', m ? 'rgb(230,0,230)' : f.fill);\n"
"    if (m && f.d > 0) hits.push(f);\n"
"  });\n"
"  hits.sort(function (a, b) { return a.x - b.x || b.w - a.w; });\n"
"  /* nested matches end inside the last counted one (x, w are rounded\n"
"   * to 0.01 px; every frame is at least 0.1 px wide) */\n"
"  hits.forEach(function (h) { if (h.x + h.w > end + 0.05) { sum += h.w; end = h.x + h.w; } });\n"
"  matched.textContent = q ? 'Matched: ' + (100 * sum / (W - 2 * PAD)).toFixed(1) + '%' : '';\n"
"}\n"
"function init() {\n"
"  details = document.getElementById('details'); matched = document.getElementById('matched');\n"
"  reset = document.getElementById('reset'); input = document.getElementById('search');\n"
"  Array.prototype.forEach.call(document.querySelectorAll('g.f'), function (g) {\n"
"    var r = g.querySelector('rect'), info = g.querySelector('title').textContent;\n"
"    var f = { g: g, r: r, t: g.querySelector('text'), info: info,\n"
"      name: info.substring(0, info.lastIndexOf(' (')),\n"
"      x: +r.getAttribute('x'), w: +r.getAttribute('width'), fill: r.getAttribute('fill') };\n"
"    var y = +r.getAttribute('y');\n"
"    f.d = Math.round(REV ? (y - BASE) / FH : (BASE - y) / FH);\n"
"    frames.push(f);\n"
"    g.addEventListener('click', function () { zoom(f); });\n"
"    g.addEventListener('mouseover', function () { details.textContent = f.info; });\n"
"    g.addEventListener('mouseout', function () { details.textContent = ' '; });\n"
"  });\n"
"  reset.addEventListener('click', unzoom);\n"
"  if (input) input.addEventListener('input', function () { search(input.value); });\n"
"  document.addEventListener('keydown', function (e) {\n"
"    if ((e.ctrlKey || e.metaKey) && (e.key === 'f' || e.key === 'F') && input) {\n"
"      e.preventDefault(); input.focus(); input.select();\n"
"    } else if (e.key === 'Escape') {\n"
"      if (input) input.value = '';\n"
"      search(''); unzoom();\n"
"    }\n"
"  });\n"
"}\n"
"window.addEventListener('load', init);\n"
"]]></script>\n";

static int
svg_head(const struct svg_ctx *c, const struct dout_opts *o, int64_t total)
{
	FILE *fp = c->sv_fp;
	char title[512];
	int base = c->sv_reverse ? SVG_TOP : c->sv_height - SVG_BOTTOM - SVG_FH;

	dout_title(o, title, sizeof(title));
	SCHK(fprintf(fp, "<?xml version=\"1.0\" standalone=\"no\"?>\n"
	    "<svg version=\"1.1\" xmlns=\"http://www.w3.org/2000/svg\" "
	    "width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" data-pad=\"%d\" "
	    "data-fh=\"%d\" data-rev=\"%d\" data-base=\"%d\">\n", SVG_W,
	    c->sv_height, SVG_W, c->sv_height, SVG_PAD, SVG_FH, c->sv_reverse,
	    base));
	SCHK(fputs(svg_css, fp));
	SCHK(fputs(svg_js, fp));
	SCHK(fprintf(fp, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" "
	    "fill=\"#f8f8f0\"/>\n<text id=\"title\" x=\"%d\" y=\"24\">",
	    SVG_W, c->sv_height, SVG_W / 2));
	SCHK(svg_cstr(fp, title));
	SCHK(fprintf(fp, "</text>\n<text id=\"subtitle\" x=\"%d\" y=\"42\">"
	    "%" PRId64 " %s%s</text>\n", SVG_W / 2, total, c->sv_unit,
	    c->sv_reverse ? ", icicle (root on top)" : ""));
	return 0;
}

static int
svg_controls(const struct svg_ctx *c, const struct dout_opts *o)
{
	static const char *const names[] = { "key", "kernel", "user", "JIT" };
	FILE *fp = c->sv_fp;

	SCHK(fprintf(fp, "<text id=\"reset\" x=\"%d\" y=\"24\">Reset Zoom</text>\n",
	    SVG_PAD));
	for (int k = 0; k < 4; k++) {
		SCHK(fprintf(fp, "<rect class=\"legend\" x=\"%d\" y=\"48\" "
		    "width=\"10\" height=\"10\" fill=\"", SVG_PAD + k * 70));
		SCHK(svg_fill(fp, &(struct dout_node){ .n_kind = (uint8_t)k,
		    .n_text = NULL }, 0));
		SCHK(fprintf(fp, "\"/><text x=\"%d\" y=\"57\">%s</text>\n",
		    SVG_PAD + k * 70 + 14, names[k]));
	}
	SCHK(fprintf(fp, "<foreignObject x=\"%d\" y=\"36\" width=\"300\" "
	    "height=\"26\"><input xmlns=\"http://www.w3.org/1999/xhtml\" "
	    "id=\"search\" type=\"search\" placeholder=\"Search (regex), "
	    "Ctrl-F\" style=\"width:290px;font:12px Verdana,sans-serif\"/>"
	    "</foreignObject>\n", SVG_W - SVG_PAD - 300));
	SCHK(fprintf(fp, "<text id=\"details\" x=\"%d\" y=\"%d\"> </text>\n"
	    "<text id=\"matched\" x=\"%d\" y=\"%d\"></text>\n", SVG_PAD,
	    c->sv_height - 12, SVG_W - SVG_PAD, c->sv_height - 12));
	SCHK(fprintf(fp, "<text x=\"%d\" y=\"%d\" style=\"fill:#999;"
	    "font-size:10px\">%s</text>\n", SVG_W - SVG_PAD - 60,
	    c->sv_height - 26, o && o->do_progname ? o->do_progname : ""));
	return 0;
}

int
dout_svg_write(FILE *fp, const struct dout_prof *p, const struct dout_opts *o)
{
	struct dout_tree t;
	struct svg_ctx c;
	char unit[128];
	int r;

	if ((r = dout_tree_build(&t, p)) < 0)
		return r;
	dout_counter(o ? o->do_probe : NULL, unit, sizeof(unit), NULL, NULL);
	memset(&c, 0, sizeof(c));
	c.sv_fp = fp;
	c.sv_t = &t;
	c.sv_reverse = o ? o->do_reverse : 0;
	c.sv_unit = unit;
	c.sv_height = SVG_TOP + ((int)t.t_maxdepth + 1) * SVG_FH + SVG_BOTTOM;
	c.sv_scale = t.t_nodes[0].n_total > 0 ?
	    (double)(SVG_W - 2 * SVG_PAD) / (double)t.t_nodes[0].n_total : 0;
	r = svg_head(&c, o, t.t_nodes[0].n_total);
	if (r == 0)
		r = svg_controls(&c, o);
	if (r == 0 && t.t_nodes[0].n_total > 0)
		r = svg_frames(&c);
	if (r == 0 && fputs("</svg>\n", fp) < 0)
		r = -EIO;
	dout_tree_fini(&t);
	return r;
}

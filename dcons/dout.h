/*
 * dout.h — machine-readable outputs of aggregations: Brendan Gregg's folded
 * stacks, a self-contained interactive flame graph SVG, pprof (profile.proto,
 * gzip) and JSON Lines, chosen with -x oformat=... or the -o file's suffix.
 *
 * The engine calls dout_print_all() at exit instead of the DTrace text
 * printer when oformat is not text; with JSON it also calls dout_printa()
 * for printa() and dout_json_record() for each firing's printf/trace text.
 * Each entry's key becomes a path of frames: non-stack keys first (execname,
 * pid...), then user stacks, then kernel stacks, each root first; the value
 * is what printa prints (for histograms, the total count).  Symbols are
 * resolved through the dfmt_ctx's symbolizer while writing.  Single-threaded;
 * functions return 0 or -errno (-EIO for a failed write).
 */
#ifndef PMCTRACE_DOUT_H
#define PMCTRACE_DOUT_H

#include <stdint.h>
#include <stdio.h>
#include "dcons/dagg.h"
#include "dcons/dfmt.h"

/* ORDER: dout_fmt_names[] in dout.c. */
enum dout_fmt {
	DOUT_TEXT = 0,	/* DTrace's own text (dagg_print_all) */
	DOUT_FOLDED,	/* "frame;frame;frame count" lines, root first */
	DOUT_SVG,	/* interactive flame graph */
	DOUT_PPROF,	/* gzip-compressed profile.proto */
	DOUT_JSON,	/* one JSON object per line */
	DOUT_NFMTS
};

/* "text", "folded", "svg", "pprof", "json" → enum dout_fmt; -1 if unknown. */
int dout_fmt_byname(const char *name);
const char *dout_fmt_name(int fmt);
/* By the output file's name: *.svg, *.folded, *.pb.gz / *.pprof / *.pb,
 * *.json / *.jsonl; DOUT_TEXT for anything else (out.stacks stays DTrace
 * text, which folded-stack collapsers written for DTrace parse). */
int dout_fmt_bypath(const char *path);

struct dout_opts {
	int do_fmt;			/* enum dout_fmt */
	int do_reverse;			/* flamereverse: icicle (root on top) */
	const char *do_title;		/* flametitle; NULL: "<script> — <counter>" */
	const char *do_script;		/* script file or -n text; may be NULL */
	const char *do_probe;		/* first sampling probe description
					 * ("pmc:::branchmispredictions-100000"),
					 * names the counter; may be NULL */
	const char *do_progname;	/* "pmctrace", for the SVG's footer */
};

/* Exit time: every non-empty aggregation (for JSON only those printa did
 * not print, as DTrace does) written to fp in o->do_fmt. */
int dout_print_all(FILE *fp, const struct dout_opts *o,
    const struct dfmt_ctx *cx, dagg_set_t *set);
/* printa(@a, @b...) as JSON records (one per aggregation entry). */
int dout_printa(FILE *fp, const struct dout_opts *o,
    const struct dfmt_ctx *cx, dagg_t *const *aggs, int naggs);

/* One firing's printf()/trace() output as a JSON record. */
struct dout_rec {
	uint32_t dr_cpu;
	uint32_t dr_id;			/* probe id */
	uint64_t dr_timestamp;		/* ns */
	const char *dr_prov, *dr_mod, *dr_func, *dr_name;
	const char *dr_text;		/* what the actions printed */
	size_t dr_len;
};
int dout_json_record(FILE *fp, const struct dout_rec *r);

/* The counter a probe description samples, for titles and pprof's sample
 * type: "pmc:::branchmispredictions-100000" → "branchmispredictions",
 * "profile-997" → "samples"; *period gets the sampling period (events, or
 * ns for profile-N) or 0.  NULL desc → "samples". */
void dout_counter(const char *desc, char *buf, size_t len, int64_t *period,
    int *period_ns);

#endif

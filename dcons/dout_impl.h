/*
 * dout_impl.h — internals of the machine-readable outputs (dout_*.c).
 *
 * Pipeline:  aggregation entries ──dout_prof_add()──► struct dout_prof
 *            (interned frame text, one sample = a root-first frame path and
 *            a value) ──► dout_folded / dout_svg (through dout_tree) /
 *            dout_pprof (through dout_pb).  JSON (dout_json.c) writes entries
 *            directly, it needs no profile.
 * Frame text is interned once (struct dout_strtab), so frames compare by
 * pointer and the tree and pprof tables key on the pointer.  Allocation
 * failures are sticky (p_err) and reported by the writer.
 */
#ifndef PMCTRACE_DOUT_IMPL_H
#define PMCTRACE_DOUT_IMPL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "dcons/dout.h"

/* What a frame is, for colours and pprof functions. ORDER: svg palette. */
enum dout_fkind {
	DOUT_FK_KEY = 0,	/* a non-stack key: execname, pid ... */
	DOUT_FK_KERNEL,		/* stack() */
	DOUT_FK_USER,		/* ustack() */
	DOUT_FK_JIT,		/* ustack() frame from a perf-PID.map */
	DOUT_FK_AGG,		/* the aggregation's name, with several */
	DOUT_FK_NKINDS
};

/* ---- interned strings -------------------------------------------------- */

struct dout_str {
	struct dout_str *s_next;	/* hash chain */
	uint32_t s_id;			/* order of interning, from 0 */
	uint32_t s_len;
	char s_text[];
};

struct dout_strtab {
	struct dout_str **st_b;
	uint32_t st_nb;			/* power of two */
	uint32_t st_n;
	struct dout_str **st_byid;	/* st_n entries */
	uint32_t st_cap;
};

void dout_strtab_init(struct dout_strtab *t);
void dout_strtab_fini(struct dout_strtab *t);
/* The interned copy of text[0..len), NULL on ENOMEM. */
const struct dout_str *dout_intern(struct dout_strtab *t, const char *text,
    size_t len);

/* ---- the profile --------------------------------------------------------- */

struct dout_frame {
	const struct dout_str *f_text;	/* module`function, or key text */
	uint64_t f_pc;			/* 0 for key frames */
	uint8_t f_kind;			/* enum dout_fkind */
};

struct dout_sample {
	size_t s_first;			/* index into p_frames */
	uint32_t s_nframes;
	int64_t s_value;
};

struct dout_prof {
	struct dout_strtab p_str;
	struct dout_frame *p_frames;
	size_t p_nframes, p_fcap;
	struct dout_sample *p_samples;
	size_t p_nsamples, p_scap;
	int p_err;			/* first allocation failure */
	const struct dfmt_ctx *p_cx;	/* symbolizer for frame text */
	const struct dout_str *p_aggname; /* leading frame when set */
	int p_valued;			/* weights are sums of values (sum, avg, min,
					 * max, stddev), not counts of firings */
};

void dout_prof_init(struct dout_prof *p, const struct dfmt_ctx *cx);
void dout_prof_fini(struct dout_prof *p);
/* Add one aggregation entry: the key (dfmt.h encoding) becomes the frame
 * path, value its weight.  Entries with value <= 0 add nothing. */
int dout_prof_add(struct dout_prof *p, const void *key,
    const struct d_vdesc *kd, int nkeys, int64_t value);
/* Lower level, for tests and the entry adapter: append a frame to the
 * sample being built, then close it. */
int dout_prof_frame(struct dout_prof *p, const char *text, uint64_t pc,
    int kind);
int dout_prof_end(struct dout_prof *p, int64_t value);
int64_t dout_prof_total(const struct dout_prof *p);

/* Text of one key element as a frame (strings as is, integers in decimal,
 * sym()/usym() as module`function). Returns the length. */
int dout_keytext(const struct dfmt_ctx *cx, const struct d_vdesc *vd,
    const void *val, char *buf, size_t len);

/* ---- the merged tree (flame graph) ------------------------------------------ */

struct dout_node {
	const struct dout_str *n_text;
	uint8_t n_kind;
	uint32_t n_parent;		/* index; the root is 0, its own parent */
	uint32_t n_child, n_sibling;	/* first child, next sibling; 0 = none */
	uint32_t n_depth;		/* root 0 */
	int64_t n_total;		/* weight of the subtree */
	int64_t n_start;		/* weight left of it (after layout) */
};

struct dout_tree {
	struct dout_node *t_nodes;	/* t_nodes[0] is the root ("all") */
	uint32_t t_n, t_cap;
	uint32_t *t_hash;		/* (parent, text) → node index + 1 */
	uint32_t t_hsize;
	uint32_t t_maxdepth;
};

/* Merge every sample into a tree; children ordered by name, offsets set. */
int dout_tree_build(struct dout_tree *t, const struct dout_prof *p);
void dout_tree_fini(struct dout_tree *t);

/* ---- writers -------------------------------------------------------------------- */

int dout_folded_write(FILE *fp, const struct dout_prof *p);
int dout_svg_write(FILE *fp, const struct dout_prof *p,
    const struct dout_opts *o);
int dout_pprof_write(FILE *fp, const struct dout_prof *p,
    const struct dout_opts *o);
/* The uncompressed profile.proto bytes (tests decode them). */
int dout_pprof_encode(const struct dout_prof *p, const struct dout_opts *o,
    uint8_t **out, size_t *outlen);

/* JSON: a string literal with escapes; invalid UTF-8 becomes U+FFFD. */
int dout_json_str(FILE *fp, const char *s, size_t len);
/* One aggregation entry as a JSON record. */
struct dout_jagg {
	const char *ja_name;		/* "@name" */
	int ja_func;			/* enum dagg_func */
	int64_t ja_value;
	int ja_unsigned;
	int ja_nbuckets;
	const int64_t *ja_lo, *ja_hi, *ja_count;	/* ja_nbuckets each */
};
int dout_json_agg(FILE *fp, const struct dfmt_ctx *cx,
    const struct dout_jagg *ja, const void *key, const struct d_vdesc *kd,
    int nkeys);

/* The title "<script> — <counter>" or the user's. */
void dout_title(const struct dout_opts *o, char *buf, size_t len);

/* ---- protobuf wire encoding (dout_pb.c) -------------------------------------------- */

struct dout_pb {
	uint8_t *pb_b;
	size_t pb_n, pb_cap;
	int pb_err;			/* -ENOMEM, sticky */
};

#define DOUT_PB_VARINT	0
#define DOUT_PB_LEN	2

void dout_pb_varint(struct dout_pb *b, uint64_t v);
void dout_pb_tag(struct dout_pb *b, uint32_t field, int wiretype);
/* field = v as a varint (int64 values are sent as their two's complement). */
void dout_pb_uint(struct dout_pb *b, uint32_t field, uint64_t v);
void dout_pb_bytes(struct dout_pb *b, uint32_t field, const void *p,
    size_t len);
/* A packed repeated varint field (nothing when n == 0). */
void dout_pb_packed(struct dout_pb *b, uint32_t field, const uint64_t *v,
    size_t n);
/* A nested message: the bytes of sub as field. */
void dout_pb_msg(struct dout_pb *b, uint32_t field, const struct dout_pb *sub);
void dout_pb_reset(struct dout_pb *b);
void dout_pb_free(struct dout_pb *b);

#endif

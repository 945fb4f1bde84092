/*
 * dout_tree.c — samples merged into a call tree for the flame graph: one
 * node per distinct root-first path prefix, weights summed up the path.
 *
 * Children are found through an open-addressing table keyed by (parent,
 * interned text pointer), so a merge costs one probe per frame.  After the
 * merge, each node's children are put in name order (as FlameGraph does,
 * so the picture does not depend on sample order) and every node gets its
 * start: the weight to its left, which becomes x in the layout.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dcons/dout_impl.h"

static uint32_t
node_hash(uint32_t parent, const struct dout_str *s, uint8_t kind)
{
	uint64_t h = ((uint64_t)parent << 32 | s->s_id) * 0x9e3779b97f4a7c15ull;

	return (uint32_t)(h >> 32) ^ kind;
}

static int
tree_rehash(struct dout_tree *t, uint32_t size)
{
	uint32_t *h = calloc(size, sizeof(*h));

	if (h == NULL)
		return -ENOMEM;
	for (uint32_t i = 1; i < t->t_n; i++) {
		const struct dout_node *n = &t->t_nodes[i];
		uint32_t j = node_hash(n->n_parent, n->n_text, n->n_kind);

		while (h[j & (size - 1)] != 0)
			j++;
		h[j & (size - 1)] = i + 1;
	}
	free(t->t_hash);
	t->t_hash = h;
	t->t_hsize = size;
	return 0;
}

static int
tree_reserve(struct dout_tree *t)
{
	if (t->t_n == t->t_cap) {
		uint32_t cap = t->t_cap ? t->t_cap * 2 : 1024;
		struct dout_node *v;

		if (cap <= t->t_cap)
			return -ENOMEM;
		if ((v = realloc(t->t_nodes, cap * sizeof(*v))) == NULL)
			return -ENOMEM;
		t->t_nodes = v;
		t->t_cap = cap;
	}
	if ((uint64_t)t->t_n * 2 >= t->t_hsize)
		return tree_rehash(t, t->t_hsize ? t->t_hsize * 2 : 2048);
	return 0;
}

/* The child of parent for frame f, created when absent; 0 on ENOMEM. */
static uint32_t
tree_child(struct dout_tree *t, uint32_t parent, const struct dout_frame *f)
{
	uint32_t j = node_hash(parent, f->f_text, f->f_kind), idx;
	struct dout_node *n;

	for (;; j++) {
		idx = t->t_hash[j & (t->t_hsize - 1)];
		if (idx == 0)
			break;
		n = &t->t_nodes[idx - 1];
		if (n->n_parent == parent && n->n_text == f->f_text &&
		    n->n_kind == f->f_kind)
			return idx - 1;
	}
	if (tree_reserve(t) < 0)
		return 0;
	idx = t->t_n++;
	n = &t->t_nodes[idx];
	memset(n, 0, sizeof(*n));
	n->n_text = f->f_text;
	n->n_kind = f->f_kind;
	n->n_parent = parent;
	n->n_depth = t->t_nodes[parent].n_depth + 1;
	n->n_sibling = t->t_nodes[parent].n_child;
	t->t_nodes[parent].n_child = idx;
	if (n->n_depth > t->t_maxdepth)
		t->t_maxdepth = n->n_depth;
	/* tree_reserve may have rehashed: insert at a fresh probe. */
	j = node_hash(parent, f->f_text, f->f_kind);
	while (t->t_hash[j & (t->t_hsize - 1)] != 0)
		j++;
	t->t_hash[j & (t->t_hsize - 1)] = idx + 1;
	return idx;
}

static int
tree_merge(struct dout_tree *t, const struct dout_prof *p,
    const struct dout_sample *s)
{
	uint32_t cur = 0;

	t->t_nodes[0].n_total += s->s_value;
	for (uint32_t i = 0; i < s->s_nframes; i++) {
		cur = tree_child(t, cur, &p->p_frames[s->s_first + i]);
		if (cur == 0)
			return -ENOMEM;
		t->t_nodes[cur].n_total += s->s_value;
	}
	return 0;
}

static int
node_namecmp(const void *l, const void *r, void *arg)
{
	const struct dout_node *nodes = arg;
	const struct dout_node *a = &nodes[*(const uint32_t *)l];
	const struct dout_node *b = &nodes[*(const uint32_t *)r];
	int c = strcmp(a->n_text->s_text, b->n_text->s_text);

	return c ? c : (int)a->n_kind - (int)b->n_kind;
}

/* Sort one node's children by name and give each its start. */
static int
tree_order(struct dout_tree *t, uint32_t idx, uint32_t *scratch)
{
	struct dout_node *n = &t->t_nodes[idx];
	int64_t at = n->n_start;
	uint32_t k = 0;

	for (uint32_t c = n->n_child; c != 0; c = t->t_nodes[c].n_sibling)
		scratch[k++] = c;
	if (k == 0)
		return 0;
	qsort_r(scratch, k, sizeof(*scratch), node_namecmp, t->t_nodes);
	n->n_child = scratch[0];
	for (uint32_t i = 0; i < k; i++) {
		struct dout_node *c = &t->t_nodes[scratch[i]];

		c->n_sibling = i + 1 < k ? scratch[i + 1] : 0;
		c->n_start = at;
		at += c->n_total;
	}
	return 0;
}

void
dout_tree_fini(struct dout_tree *t)
{
	free(t->t_nodes);
	free(t->t_hash);
	memset(t, 0, sizeof(*t));
}

int
dout_tree_build(struct dout_tree *t, const struct dout_prof *p)
{
	uint32_t *scratch = NULL;
	int r = 0;

	memset(t, 0, sizeof(*t));
	if (p->p_err)
		return p->p_err;
	if (tree_reserve(t) < 0)
		return -ENOMEM;
	memset(&t->t_nodes[0], 0, sizeof(t->t_nodes[0]));
	t->t_n = 1;
	for (size_t i = 0; i < p->p_nsamples && r == 0; i++)
		r = tree_merge(t, p, &p->p_samples[i]);
	if (r == 0 && (scratch = malloc(t->t_n * sizeof(*scratch))) == NULL)
		r = -ENOMEM;
	/* Parents precede children in index order, so one pass suffices. */
	for (uint32_t i = 0; r == 0 && i < t->t_n; i++)
		r = tree_order(t, i, scratch);
	free(scratch);
	if (r < 0)
		dout_tree_fini(t);
	return r;
}

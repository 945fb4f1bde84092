/*
 * dspec.c — speculation buffers.  Each of nspec buffers holds formatted
 * output up to specsize bytes; a speculating clause writes into a staging
 * stream which dspec_clause_end() appends to its buffer whole or drops
 * whole (a speculative drop), as DTrace drops a firing's records whole.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dcons/dspec.h"

enum { SPEC_FREE = 0, SPEC_ACTIVE = 1 };

struct dspec_buf {
	int sb_state;
	char *sb_data;
	size_t sb_len;
};

struct dspec {
	char *sp_progname;
	uint32_t sp_nspec;
	uint64_t sp_size;
	struct dspec_buf *sp_bufs;
	FILE *sp_stage;			/* open while a clause speculates */
	char *sp_stage_buf;
	size_t sp_stage_len;
	uint32_t sp_stage_id;
	uint64_t sp_drops, sp_unavail;	/* since the last report */
};

dspec_t *
dspec_create(uint32_t nspec, uint64_t specsize, const char *progname,
    int *errp)
{
	dspec_t *sp = calloc(1, sizeof(*sp));
	int dummy;

	if (errp == NULL)
		errp = &dummy;
	if (sp == NULL || (sp->sp_progname = strdup(progname ? progname :
	    "pmctrace")) == NULL || (nspec && (sp->sp_bufs =
	    calloc(nspec, sizeof(*sp->sp_bufs))) == NULL)) {
		if (sp)
			free(sp->sp_progname);
		free(sp);
		*errp = -ENOMEM;
		return NULL;
	}
	sp->sp_nspec = nspec;
	sp->sp_size = specsize;
	*errp = 0;
	return sp;
}

static void
stage_close(dspec_t *sp)
{
	if (sp->sp_stage) {
		fclose(sp->sp_stage);
		sp->sp_stage = NULL;
	}
}

void
dspec_destroy(dspec_t *sp)
{
	if (sp == NULL)
		return;
	stage_close(sp);
	free(sp->sp_stage_buf);
	for (uint32_t i = 0; i < sp->sp_nspec; i++)
		free(sp->sp_bufs[i].sb_data);
	free(sp->sp_bufs);
	free(sp->sp_progname);
	free(sp);
}

uint32_t
dspec_speculation(dspec_t *sp)
{
	if (sp == NULL)
		return 0;
	for (uint32_t i = 0; i < sp->sp_nspec; i++) {
		if (sp->sp_bufs[i].sb_state == SPEC_FREE) {
			sp->sp_bufs[i].sb_state = SPEC_ACTIVE;
			sp->sp_bufs[i].sb_len = 0;
			return i + 1;
		}
	}
	sp->sp_unavail++;
	return 0;
}

FILE *
dspec_speculate(dspec_t *sp, uint32_t id, int *errp)
{
	int dummy;

	if (errp == NULL)
		errp = &dummy;
	if (sp == NULL || id > sp->sp_nspec) {
		*errp = -EINVAL;
		return NULL;
	}
	if (sp->sp_stage)
		(void)dspec_clause_end(sp);
	free(sp->sp_stage_buf);
	sp->sp_stage_buf = NULL;
	sp->sp_stage_len = 0;
	if ((sp->sp_stage = open_memstream(&sp->sp_stage_buf,
	    &sp->sp_stage_len)) == NULL) {
		*errp = -ENOMEM;
		return NULL;
	}
	sp->sp_stage_id = id;
	*errp = 0;
	return sp->sp_stage;
}

int
dspec_clause_end(dspec_t *sp)
{
	struct dspec_buf *b;
	char *n;

	if (sp == NULL || sp->sp_stage == NULL)
		return 0;
	stage_close(sp);
	if (sp->sp_stage_id == 0 || sp->sp_stage_len == 0)
		return 0;
	b = &sp->sp_bufs[sp->sp_stage_id - 1];
	if (b->sb_state != SPEC_ACTIVE)
		return 0;
	if (b->sb_len + sp->sp_stage_len > sp->sp_size) {
		sp->sp_drops++;
		return -ENOSPC;
	}
	if ((n = realloc(b->sb_data, b->sb_len + sp->sp_stage_len)) == NULL)
		return -ENOMEM;
	memcpy(n + b->sb_len, sp->sp_stage_buf, sp->sp_stage_len);
	b->sb_data = n;
	b->sb_len += sp->sp_stage_len;
	return 0;
}

static struct dspec_buf *
active_buf(dspec_t *sp, uint32_t id)
{
	if (sp == NULL || id == 0 || id > sp->sp_nspec)
		return NULL;
	return &sp->sp_bufs[id - 1];
}

int
dspec_commit(dspec_t *sp, uint32_t id, FILE *out)
{
	struct dspec_buf *b = active_buf(sp, id);

	if (sp && id > sp->sp_nspec)
		return -EINVAL;
	if (b == NULL || b->sb_state != SPEC_ACTIVE)
		return 0;
	if (b->sb_len && out && fwrite(b->sb_data, 1, b->sb_len, out) !=
	    b->sb_len)
		return -EIO;
	b->sb_len = 0;
	b->sb_state = SPEC_FREE;
	return 0;
}

int
dspec_discard(dspec_t *sp, uint32_t id)
{
	struct dspec_buf *b = active_buf(sp, id);

	if (sp && id > sp->sp_nspec)
		return -EINVAL;
	if (b == NULL)
		return 0;
	b->sb_len = 0;
	b->sb_state = SPEC_FREE;
	return 0;
}

int
dspec_report_drops(dspec_t *sp, FILE *fp)
{
	if (sp == NULL || fp == NULL)
		return -EINVAL;
	if (sp->sp_drops && fprintf(fp, "%s: %llu speculative drop%s\n",
	    sp->sp_progname, (unsigned long long)sp->sp_drops,
	    sp->sp_drops > 1 ? "s" : "") < 0)
		return -EIO;
	if (sp->sp_unavail && fprintf(fp, "%s: %llu failed speculation%s "
	    "(no speculative buffer available)\n", sp->sp_progname,
	    (unsigned long long)sp->sp_unavail,
	    sp->sp_unavail > 1 ? "s" : "") < 0)
		return -EIO;
	sp->sp_drops = sp->sp_unavail = 0;
	return 0;
}

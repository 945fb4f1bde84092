/*
 * dspec.h — speculative tracing: speculation(), speculate(), commit(),
 * discard(), bounded by the nspec and specsize options.
 *
 * A speculation is a buffer of formatted output.  When a clause calls
 * speculate(id) the VM sends the rest of that clause's output (probe
 * prefix included) to the FILE* dspec_speculate() returns, and calls
 * dspec_clause_end() when the clause finishes: the staged text is appended
 * to the speculation if it still fits in specsize, else it is dropped and
 * counted.  commit(id) writes the buffer to the output in firing order;
 * discard(id) forgets it; either makes the buffer available again.
 * Drops are reported with DTrace's messages by dspec_report_drops().
 * Single-threaded. Functions return 0 or -errno.
 */
#ifndef PMCTRACE_DSPEC_H
#define PMCTRACE_DSPEC_H

#include <stdint.h>
#include <stdio.h>

typedef struct dspec dspec_t;

/* nspec buffers (DTrace default 1) of specsize bytes (default 32k). */
dspec_t *dspec_create(uint32_t nspec, uint64_t specsize, const char *progname,
    int *errp);
void dspec_destroy(dspec_t *sp);

/* speculation(): a free id in 1..nspec, or 0 when none is free (counted as
 * a failed speculation). */
uint32_t dspec_speculation(dspec_t *sp);

/* speculate(id): returns the FILE* the clause's remaining output goes to.
 * id 0 or an inactive id: output is staged and thrown away (DTrace drops
 * it); id > nspec: NULL with *errp = -EINVAL (the VM faults: illegal op). */
FILE *dspec_speculate(dspec_t *sp, uint32_t id, int *errp);
/* End of the speculating clause: keep or drop (speculative drop) its text. */
int dspec_clause_end(dspec_t *sp);

/* commit(id): write the speculation's text to out; discard(id): drop it. */
int dspec_commit(dspec_t *sp, uint32_t id, FILE *out);
int dspec_discard(dspec_t *sp, uint32_t id);

/* "<prog>: N speculative drops", "<prog>: N failed speculations (no
 * speculative buffer available)" for the counts since the last report. */
int dspec_report_drops(dspec_t *sp, FILE *fp);

#endif

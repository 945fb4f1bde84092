/*
 * memout.h — output captured in memory, for tests of printers.
 *
 * mem_open() gives a FILE * that writes into a buffer; mem_close() closes
 * it and returns the text, valid until the next mem_open().
 */
#ifndef PMCTRACE_TESTS_MEMOUT_H
#define PMCTRACE_TESTS_MEMOUT_H

#include <stdio.h>
#include <stdlib.h>

static char *membuf;
static size_t memlen;

static inline FILE *
mem_open(void)
{
	free(membuf);
	membuf = NULL;
	memlen = 0;
	return open_memstream(&membuf, &memlen);
}

static inline const char *
mem_close(FILE *fp)
{
	fclose(fp);
	return membuf;
}

#endif

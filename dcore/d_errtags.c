/*
 * d_errtags.c — tag names for d_errtags.h, from the same X-macro list.
 */
#include <string.h>

#include "dcore/d_errtags.h"

#define D_ERRTAG_NAME(t) #t,
static const char *const d_errtag_names[] = { D_ERRTAG_LIST(D_ERRTAG_NAME) };
#undef D_ERRTAG_NAME

const char *
d_errtag_name(int tag)
{
	if (tag < 0 || tag >= D_NERRTAGS)
		return "D_UNKNOWN";
	return d_errtag_names[tag];
}

int
d_errtag_byname(const char *name)
{
	for (int i = 0; i < D_NERRTAGS; i++)
		if (strcmp(d_errtag_names[i], name) == 0)
			return i;
	return D_UNKNOWN;
}

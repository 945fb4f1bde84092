/*
 * kb_objs.c — the BPF objects built with the tree, embedded in the binary
 * so that nothing is compiled at run time.  One row per bpf/NAME.bpf.c;
 * KB_OBJDIR (set by the Makefile) is where the build put NAME.bpf.o.
 */
#include <string.h>

#include "bpf/kbpf.h"

#define KB_EMBED(sym, file)						\
	__asm__(".pushsection .rodata\n"				\
	    ".balign 8\n"						\
	    ".globl " #sym "_start\n" #sym "_start:\n"			\
	    ".incbin \"" KB_OBJDIR "/" file "\"\n"			\
	    ".globl " #sym "_end\n" #sym "_end:\n"			\
	    ".popsection\n");						\
	extern const char sym##_start[], sym##_end[]

KB_EMBED(kb_sched_obj, "sched.bpf.o");

static const struct {
	const char *name;
	const char *start, *end;
} kb_objs[] = {
	{ "sched", kb_sched_obj_start, kb_sched_obj_end },
};

const void *
kb_object(const char *name, size_t *size)
{
	for (size_t i = 0; i < sizeof(kb_objs) / sizeof(kb_objs[0]); i++)
		if (!strcmp(kb_objs[i].name, name)) {
			*size = (size_t)(kb_objs[i].end - kb_objs[i].start);
			return kb_objs[i].start;
		}
	return NULL;
}

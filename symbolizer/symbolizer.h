/*
 * symbolizer.h — kernel and user addresses to DTrace's module`function+0xoff.
 *
 * A sym_session learns processes from perf side-band records (COMM, MMAP,
 * MMAP2, FORK, EXIT, fed in stream order through sym_note_record) and falls
 * back to /proc/PID/maps for processes it has not seen.  Lookups are lazy
 * and cached per binary (by build id when present), so print time pays once
 * per distinct address.  Single-threaded.  Lookup functions return the
 * length written, or -1 when the address is unknown (callers print it raw).
 */
#ifndef PMCTRACE_SYMBOLIZER_H
#define PMCTRACE_SYMBOLIZER_H

#include <linux/perf_event.h>
#include <stddef.h>
#include <stdint.h>

struct sym_session;

#define SYM_FULL	0	/* module`function+0xoff */
#define SYM_FUNC	1	/* module`function */
#define SYM_MOD		2	/* module */

struct sym_session *sym_open(int *errp);
void sym_close(struct sym_session *s);

void sym_note_record(struct sym_session *s, const struct perf_event_header *hdr);

int sym_kernel(struct sym_session *s, uint64_t addr, int flags, char *buf, size_t len);
int sym_user(struct sym_session *s, int32_t pid, uint64_t addr, int flags, char *buf, size_t len);

/* comm of a pid as last seen (records or /proc), or NULL. */
const char *sym_comm(struct sym_session *s, int32_t pid);

#endif

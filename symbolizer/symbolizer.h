/*
 * symbolizer.h — kernel and user addresses to DTrace's module`function+0xoff.
 *
 * A sym_session learns processes from perf side-band records (COMM, MMAP,
 * MMAP2, FORK, EXIT, fed in stream order through sym_note_record) and falls
 * back to /proc/PID/maps for processes it has not seen.  Exited processes
 * that were pinned (sym_pin_pid) keep their maps until sym_close, so they
 * still symbolize; others are freed a while after they exit.  Lookups are
 * lazy: binaries are read on first use and cached per binary (by build id
 * when present, else by dev+inode+path) across processes, and every answer
 * is kept in an address cache, so print time pays once per distinct address.
 * Single-threaded.  Lookup functions return the length written (the text is
 * always NUL-terminated, truncated to len-1), or -1 when nothing is known
 * (callers print the bare address).  Nothing here crashes on stripped,
 * missing or corrupt files: they just yield fewer symbols.
 */
#ifndef PMCTRACE_SYMBOLIZER_H
#define PMCTRACE_SYMBOLIZER_H

#include <linux/perf_event.h>
#include <stddef.h>
#include <stdint.h>

struct sym_session;

/*
 * Output forms (same values as dcore's D_SYM_*).  An address inside a known
 * module but outside every symbol gives "module`0xaddr" for FULL and FUNC.
 * DTrace omits "+0x0" when the address is the symbol's start.
 */
#define SYM_FULL	0	/* module`function+0xoff */
#define SYM_FUNC	1	/* module`function */
#define SYM_MOD		2	/* module */
#define SYM_FORM_MASK	3
/*
 * Flag (user addresses only): with DWARF at hand, write the inlined frames
 * too, innermost first, one frame per line ("a.out`sq\na.out`main+0x1d"):
 * inlined frames carry no offset, the last line is the real function.
 * For a return address pass addr - 1 so the call itself is looked up.
 */
#define SYM_INLINE	4

struct sym_session *sym_open(int *errp);
void sym_close(struct sym_session *s);

/*
 * Settings, before the first lookup (0, or -EINVAL for an unknown name):
 *   "kallsyms"  path of the kernel symbol list   (/proc/kallsyms)
 *   "modules"   path of the module list          (/proc/modules)
 *   "debugdir"  root of separate debug files     (/usr/lib/debug)
 *   "proc"      mount point of procfs            (/proc)
 */
int sym_setopt(struct sym_session *s, const char *name, const char *value);

/* One raw side-band record (hdr->type COMM, MMAP, MMAP2, FORK or EXIT;
 * others are ignored), in stream order. */
void sym_note_record(struct sym_session *s, const struct perf_event_header *hdr);

/*
 * Live runs only: a sample of pid was seen.  If no record described the
 * process (it was running before the run began), read /proc/PID/maps and
 * comm now, while it is alive, so it still symbolizes at print time after
 * it exits.  One hash probe for a pid already known.  Never call it while
 * replaying a file: /proc describes this machine, not the recording.
 * Returns 1 when /proc was read now (a recording writes the same down),
 * else 0.
 */
int sym_note_pid(struct sym_session *s, int32_t pid);

/* Live runs only, before handing a FORK record to sym_note_record(): the
 * parent is noted as by sym_note_pid(), so that a child of a process that
 * predates the run inherits its comm and maps.  Returns the parent's pid
 * when it was read from /proc now, else 0. */
int32_t sym_note_fork_parent(struct sym_session *s, const struct perf_event_header *hdr);

/* Whether pid's name is known without asking /proc (which sym_comm_ppid
 * does, live, for a process no record named). */
int sym_comm_known(struct sym_session *s, int32_t pid);

/* pid fired a probe whose output may need its user symbols after it
 * exits (ustack, usym... in an aggregation): keep its maps until
 * sym_close.  Exited processes not pinned are freed after a grace. */
void sym_pin_pid(struct sym_session *s, int32_t pid);

int sym_kernel(struct sym_session *s, uint64_t addr, int flags, char *buf, size_t len);
int sym_user(struct sym_session *s, int32_t pid, uint64_t addr, int flags, char *buf, size_t len);

/* Source "file:line" of a user address from DWARF (the file as the
 * compiler recorded it), or -1. */
int sym_srcline(struct sym_session *s, int32_t pid, uint64_t addr, char *buf, size_t len);

/*
 * Functions for probes (pid provider, uprobes): every STT_FUNC symbol of
 * the binaries pid maps now whose module (basename, as frames print it)
 * and name match the shell globs (NULL matches all), one call per address
 * (the first matching name in the tie-break order).  GNU ifuncs are left
 * out: their symbol is the resolver.  cb returning nonzero stops the walk
 * and is returned; else the number of functions, or -ESRCH.
 */
struct sym_func {
	const char *sf_module;	/* "libc.so.6" */
	const char *sf_name;
	const char *sf_path;	/* the file, openable by us (uprobe path) */
	uint64_t sf_offset;	/* file offset of the first instruction */
	uint64_t sf_size;
	uint64_t sf_addr;	/* where it is in the process, 0 if unmapped */
};
int sym_user_funcs(struct sym_session *s, int32_t pid, const char *modglob,
    const char *funcglob, int (*cb)(void *arg, const struct sym_func *f), void *arg);

/* comm of a pid as last seen (records or /proc), or NULL. */
const char *sym_comm(struct sym_session *s, int32_t pid);
/* The same, and in *ppid the parent its FORK record named (0 if no record
 * did): for ppid after a short-lived process is gone from /proc. */
const char *sym_comm_ppid(struct sym_session *s, int32_t pid, int32_t *ppid);

/* Why kernel lookups fail (kptr_restrict, unreadable kallsyms), in words a
 * user can act on, or NULL while nothing went wrong. */
const char *sym_errmsg(const struct sym_session *s);

#endif

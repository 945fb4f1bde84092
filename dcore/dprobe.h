/*
 * dprobe.h — the probe interface between the D engine and its providers.
 *
 * The engine never sees perf records: a provider describes its probes with
 * struct d_probe_info at compile time (through the catalog callbacks the
 * consumer installs) and, at run time, hands each firing to d_fire() as a
 * struct d_firing.  Everything a firing points to need only stay valid for
 * the duration of the d_fire() call; the engine copies what it keeps.
 * Providers include this header only, never dcore.h.
 */
#ifndef PMCTRACE_DPROBE_H
#define PMCTRACE_DPROBE_H

#include <stddef.h>
#include <stdint.h>

#define D_MAX_ARGS 10

/* A probe description as written in a clause: provider:module:function:name.
 * Empty fields match anything; fields may contain the globs * ? [...]. */
struct d_probe_desc {
	const char *dpd_prov;
	const char *dpd_mod;
	const char *dpd_func;
	const char *dpd_name;
};

/* One concrete probe.  Argument types are D type names ("uint64_t",
 * "string", "lwpsinfo_t *"...); dp_xargs are the translated types seen
 * through args[] (NULL = same as the native one). */
struct d_probe_info {
	uint32_t dp_id;
	const char *dp_prov, *dp_mod, *dp_func, *dp_name;
	int dp_nargs;
	const char *dp_argtypes[D_MAX_ARGS];
	const char *dp_xargtypes[D_MAX_ARGS];
	/* Optional D declarations (structs, typedefs, inlines, translators)
	 * the argument types need; compiled once per distinct text, before
	 * dp_argtypes are resolved.  NULL if none. */
	const char *dp_decls;
	/* Optional: type of bare `args` ("struct tp_x"): args->field reads
	 * the struct at d_firing.df_argstruct.  NULL if none. */
	const char *dp_argstruct;
};

typedef int (*d_probe_cb)(void *arg, const struct d_probe_info *pi);

/* The catalog the consumer installs: match() calls cb once per probe that
 * matches pd, creating probes on demand (profile-97, pmc:::cycles-10000).
 * It returns the number matched (0 = none), or -1 with errbuf filled when
 * the description is well formed but invalid (bad counter name, budget). */
struct d_catalog {
	void *dc_ctx;
	int (*dc_match)(void *ctx, const struct d_probe_desc *pd, d_probe_cb cb,
	    void *arg, char *errbuf, size_t errlen);
};

/* Per-process facts the engine asks for lazily (curpsinfo, execname...). */
struct d_procinfo {
	int32_t pi_pid, pi_ppid, pi_uid, pi_gid;
	char pi_fname[16];	/* comm */
	char pi_psargs[80];	/* command line, spaces for NULs */
};

/* One firing of one probe. Stacks are raw addresses, innermost first. */
struct d_firing {
	uint32_t df_probe;		/* d_probe_info.dp_id */
	uint32_t df_cpu;
	int32_t df_pid, df_tid;
	uint64_t df_timestamp;		/* ns, CLOCK_MONOTONIC-like, ordered */
	uint64_t df_walltimestamp;	/* ns since the epoch */
	uint64_t df_vtimestamp;		/* ns df_tid has been on CPU */
	const char *df_execname;	/* comm of df_tid, may be NULL */
	int32_t df_ppid;		/* parent as the records saw it (0 = unknown):
					 * ppid when df_procinfo finds no process */
	uint64_t df_args[D_MAX_ARGS];	/* strings: pointer to NUL-terminated text */
	int df_nargs;
	const uint64_t *df_kstack;
	uint32_t df_nkstack;
	const uint64_t *df_ustack;
	uint32_t df_nustack;
	uint64_t df_uregs_ip;		/* user PC if known (ucaller, uaddr) */
	/* Optional: facts about any pid (NULL if unavailable). */
	int (*df_procinfo)(void *ctx, int32_t pid, struct d_procinfo *out);
	void *df_procinfo_ctx;
	/* Optional read-only memory the program may load from during this
	 * firing (structs that typed args point into); stores into it fault. */
	const void *df_mem;
	size_t df_memlen;
	const void *df_argstruct;	/* value of bare `args` (inside df_mem) */
	int64_t df_errno;		/* the errno builtin (0 = none) */
	/* Optional snapshot of the user stack taken with the sample: copyin()
	 * and copyinstr() of addresses inside [base, base+len) read it instead
	 * of the (possibly changed) live process. */
	const void *df_ustackmem;
	uint64_t df_ustackbase;
	size_t df_ustacklen;
};

#endif

/*
 * cli_impl.h — state shared by the cli's files during one run.
 */
#ifndef PMCTRACE_CLI_IMPL_H
#define PMCTRACE_CLI_IMPL_H

#include <signal.h>
#include <stdio.h>
#include <sys/types.h>

#include "cli/cli.h"
#include "dcore/dcore.h"
#include "pmu/pmu.h"
#include "providers/provider.h"
#include "sampler/sampler.h"
#include "symbolizer/symbolizer.h"

struct cli_ctx {
	struct cli_opts *opts;
	d_hdl_t *dh;
	FILE *out;
	struct pmu_ctx *pmu;
	struct sym_session *sym;
	struct prov_registry *reg;
	struct smp_session *smp;
	struct d_catalog catalog;	/* the engine keeps pointers to these */
	struct d_symbolizer symbolizer;
	int replay;
	int pmc_multiplex;
	struct pmu_target pmu_target;	/* -x pmumodel, -x pmusmt */
	int pmc_plan;			/* -x pmcplan */
	int nobpf;			/* -x nobpf */
	pid_t child;			/* -c */
	int child_fd;			/* write end that releases the child */
	pid_t child_pgid;		/* the -c command's process group */
	pid_t guard;			/* cleans up should pmctrace be killed */
	int guard_fd;
	int done;
	int idle;			/* no events to read: only dtrace::: probes */
	int exit_code;
	int out_failed;			/* a write error was reported */
	int pin_pids;			/* keys need the maps of exited processes */
};

extern volatile sig_atomic_t cli_interrupted;

int cli_compile_all(struct cli_ctx *cx);
int cli_pmu_option(const char *x, struct pmu_target *t, int *plan);
int cli_open_pmu(const struct cli_opts *o, struct pmu_target *t, struct pmu_ctx **out);
int cli_open_pmu_replay(const struct cli_opts *o, struct pmu_target *t,
    const struct smp_session *smp, struct pmu_ctx **out);
char *cli_replace_all(const char *s, const char *from, const char *to);
int cli_list(struct cli_ctx *cx);
int cli_list_descriptions_only(const struct cli_opts *o);
int cli_trace(struct cli_ctx *cx);
int cli_spawn(struct cli_ctx *cx);
void cli_release_child(struct cli_ctx *cx);
int cli_plain_command(const char *cmd);
void cli_guard_start(struct cli_ctx *cx);
void cli_target_teardown(struct cli_ctx *cx);
void cli_kill_target_now(void);	/* async-signal-safe */
/* A write stream over fd whose failed writes keep their errno for
 * cli_out_errno() (EIO when none was seen). */
FILE *cli_out_stream(int fd);
int cli_out_errno(void);

#endif

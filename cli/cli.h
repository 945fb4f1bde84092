/*
 * cli.h — the pmctrace command: dtrace(1)-style options, the wiring of
 * engine, providers, sampler and symbolizer, signals and exit codes.
 *
 * cli_parse() fills a cli_opts from argv (GNU-style: options may follow
 * -s file; operands become $1..); cli_run() executes it.  Exit codes are
 * DTrace's: 0 success (or the value given to exit()), 1 a failed compile
 * or run, 2 a usage error.  Messages go to stderr prefixed with the
 * program's own name (basename of argv[0]).
 */
#ifndef PMCTRACE_CLI_H
#define PMCTRACE_CLI_H

#include <stdint.h>

enum cli_prog_kind { CLI_PROG_N, CLI_PROG_S, CLI_PROG_P, CLI_PROG_M, CLI_PROG_F };

struct cli_prog {
	enum cli_prog_kind kind;
	const char *arg;		/* -n text, -s path, -P/-m/-f name */
};

struct cli_opts {
	const char *progname;
	struct cli_prog progs[64];
	int nprogs;
	const char *xopts[128];		/* "name=value" or "name" in order */
	int nxopts;
	const char *cpp_args[64];	/* -D -U -I as cpp arguments */
	int ncpp_args;
	int cpp, list, verbose, quiet, compile_only, version, hw, zero_ok;
	const char *cmd;		/* -c */
	int32_t pids[16];		/* -p */
	int npids;
	const char *output;		/* -o */
	const char *efile;		/* -E */
	int nmacro;
	char **macro;			/* operands: $1.. */
};

int cli_parse(int argc, char **argv, struct cli_opts *o);
int cli_run(struct cli_opts *o);
void cli_usage(const char *progname);

#endif

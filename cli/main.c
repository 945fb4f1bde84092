/*
 * main.c — pmctrace's entry point: parse, wire the modules, run, clean up.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli_impl.h"


static void
cli_on_signal(int sig)
{
	(void)sig;
	/* A second ^C ends at once, as in DTrace, without printing; the -c
	 * command's group goes too (the guard removes the uprobes). */
	if (cli_interrupted) {
		cli_kill_target_now();
		_exit(1);
	}
	cli_interrupted = 1;
}

static void
cli_signals(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = cli_on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

static void
cli_pmu_log(void *arg, const char *msg)
{
	const struct cli_opts *o = arg;
	fprintf(stderr, "%s: %s\n", o->progname, msg);
}

/* --hw -x pmumodel=NAME with a script: -e and the plan on that machine. */
static int
cli_hw_plan(struct cli_opts *o)
{
	if (o->nxopts == (int)(sizeof(o->xopts) / sizeof(o->xopts[0]))) {
		fprintf(stderr, "%s: too many -x options\n", o->progname);
		return 2;
	}
	o->xopts[o->nxopts++] = "pmcplan";
	o->compile_only = 1;
	return cli_run(o);
}

static int
cli_hw_report(struct cli_opts *o)
{
	int err = 0, json = 0, plan = 0;
	struct pmu_target t = { NULL, -1 };
	for (int i = 0; i < o->nxopts; i++) {
		if (!strcmp(o->xopts[i], "json") || !strcmp(o->xopts[i], "oformat=json"))
			json = 1;
		cli_pmu_option(o->xopts[i], &t, &plan);
	}
	int list = t.model && !strcmp(t.model, "list");
	if (t.model && !list && o->nprogs)
		return cli_hw_plan(o);
	struct pmu_ctx *p = NULL;
	if (t.model && !list) {
		if (cli_open_pmu(o, &t, &p) < 0)
			return 1;
	} else {
		/* pmu/'s log is detail: only -v wants it next to the report. */
		p = pmu_open(o->verbose ? cli_pmu_log : NULL, o, &err);
	}
	if (!p) {
		fprintf(stderr, "%s: cannot initialise the PMU layer: %s\n", o->progname, strerror(-err));
		return 1;
	}
	int rc = list ? pmu_models_report(p, stdout) : pmu_hw_report(p, stdout, json);
	pmu_close(p);
	return rc < 0 ? 1 : 0;
}

/* cli_run checks its own output; the reports here, only stdout. */
static int
cli_stdout_ok(const struct cli_opts *o)
{
	int e = fflush(stdout) == EOF || ferror(stdout) ? cli_out_errno() : 0;
	if (e)
		fprintf(stderr, "%s: failed to write to standard output: %s\n", o->progname, strerror(e));
	return !e;
}

int
main(int argc, char **argv)
{
	struct cli_opts o;
	memset(&o, 0, sizeof(o));
	FILE *out = cli_out_stream(1);
	if (out)
		stdout = out;
	int rc = cli_parse(argc, argv, &o);
	if (rc) {
		free(o.macro);
		return rc;
	}
	if (o.version) {
		printf("%s: Sun D 1.13\n", o.progname);
		rc = cli_stdout_ok(&o) ? 0 : 1;
	} else if (o.hw) {
		rc = cli_hw_report(&o);
		if (!cli_stdout_ok(&o) && !rc)
			rc = 1;
	} else if (o.nprogs == 0 && !o.list) {
		cli_usage(o.progname);
		rc = 2;
	} else {
		cli_signals();
		rc = cli_run(&o);
	}
	free(o.macro);
	return rc;
}

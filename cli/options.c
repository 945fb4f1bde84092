/*
 * options.c — dtrace(1)'s command line.
 *
 * getopt_long permutes, so options may come after "-s file" and operands
 * anywhere become the macro arguments $1, $2, ... (everything after "--"
 * too).  Long options exist only for what DTrace has no letter for.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

enum { OPT_HW = 256, OPT_HELP };

static const struct option cli_long[] = {
	{ "hw", no_argument, NULL, OPT_HW },
	{ "help", no_argument, NULL, OPT_HELP },
	{ NULL, 0, NULL, 0 },
};

void
cli_usage(const char *p)
{
	fprintf(stderr,
	    "Usage: %s [-CeFhlqvVwZ] [-b bufsz] [-c cmd] [-D name[=def]] [-E file]\n"
	    "\t[-I path] [-o output] [-p pid] [-s script] [-U name] [-x opt[=val]]\n"
	    "\t[-P provider [[ predicate ] action ]]\n"
	    "\t[-m [ provider: ] module [[ predicate ] action ]]\n"
	    "\t[-f [[ provider: ] module: ] func [[ predicate ] action ]]\n"
	    "\t[-n [[[ provider: ] module: ] func: ] name [[ predicate ] action ]]\n"
	    "\t[-s script [ args ... ]] [--hw]\n\n"
	    "\tpredicate -> '/' D-expression '/'\n"
	    "\t   action -> '{' D-statements '}'\n\n"
	    "\t-b  set trace buffer size\n"
	    "\t-c  run specified command and exit upon its completion\n"
	    "\t-C  run cpp(1) preprocessor on script files\n"
	    "\t-D  define symbol when invoking preprocessor\n"
	    "\t-e  exit after compiling request but prior to enabling probes\n"
	    "\t-E  replay a perf.data file if it exists, else record into it\n"
	    "\t-f  enable or list probes matching the specified function name\n"
	    "\t-F  coalesce trace output by function\n"
	    "\t-I  add include directory to preprocessor search path\n"
	    "\t-l  list probes matching specified criteria\n"
	    "\t-m  enable or list probes matching the specified module name\n"
	    "\t-n  enable or list probes matching the specified probe name\n"
	    "\t-o  set output file\n"
	    "\t-p  grab specified process-ID and cache its symbol tables\n"
	    "\t-P  enable or list probes matching the specified provider name\n"
	    "\t-q  set quiet mode (only output explicitly traced data)\n"
	    "\t-s  enable or list probes according to the specified D script\n"
	    "\t-U  undefine symbol when invoking preprocessor\n"
	    "\t-v  set verbose mode (report stability attributes, arguments)\n"
	    "\t-V  report DTrace API version\n"
	    "\t-w  permit destructive actions\n"
	    "\t-x  enable or modify compiler and tracing options\n"
	    "\t-Z  permit probe descriptions that match zero probes\n"
	    "\t--hw  report what this machine's hardware and kernel can count\n", p);
}

static int
cli_add_prog(struct cli_opts *o, enum cli_prog_kind kind, const char *arg)
{
	if (o->nprogs == (int)(sizeof(o->progs) / sizeof(o->progs[0]))) {
		fprintf(stderr, "%s: too many programs\n", o->progname);
		return -1;
	}
	o->progs[o->nprogs].kind = kind;
	o->progs[o->nprogs++].arg = arg;
	return 0;
}

static int
cli_add_x(struct cli_opts *o, const char *x)
{
	if (o->nxopts == (int)(sizeof(o->xopts) / sizeof(o->xopts[0]))) {
		fprintf(stderr, "%s: too many -x options\n", o->progname);
		return -1;
	}
	o->xopts[o->nxopts++] = x;
	return 0;
}

static int
cli_add_cpp(struct cli_opts *o, int c, const char *arg)
{
	static const char flag[][3] = { "-D", "-U", "-I" };
	int i = c == 'D' ? 0 : c == 'U' ? 1 : 2;
	if (o->ncpp_args + 2 > (int)(sizeof(o->cpp_args) / sizeof(o->cpp_args[0])))
		return -1;
	o->cpp_args[o->ncpp_args++] = flag[i];
	o->cpp_args[o->ncpp_args++] = arg;
	return 0;
}

static int
cli_add_pid(struct cli_opts *o, const char *arg)
{
	char *end;
	long v = strtol(arg, &end, 10);
	if (*end || v <= 0 || o->npids == 16) {
		fprintf(stderr, "%s: invalid process ID: %s\n", o->progname, arg);
		return -1;
	}
	o->pids[o->npids++] = (int32_t)v;
	return 0;
}

/* One option letter; returns 0, or 2 for a usage error. */
static int
cli_option(struct cli_opts *o, int c, const char *arg)
{
	static char bufsize[64];
	int rc = 0;
	switch (c) {
	case 'n': rc = cli_add_prog(o, CLI_PROG_N, arg); break;
	case 's': rc = cli_add_prog(o, CLI_PROG_S, arg); break;
	case 'P': rc = cli_add_prog(o, CLI_PROG_P, arg); break;
	case 'm': rc = cli_add_prog(o, CLI_PROG_M, arg); break;
	case 'f': rc = cli_add_prog(o, CLI_PROG_F, arg); break;
	case 'x': rc = cli_add_x(o, arg); break;
	case 'b':
		snprintf(bufsize, sizeof(bufsize), "bufsize=%s", arg);
		rc = cli_add_x(o, bufsize);
		break;
	case 'q': o->quiet = 1; break;
	case 'F': rc = cli_add_x(o, "flowindent"); break;
	case 'w': rc = cli_add_x(o, "destructive"); break;
	case 'C': o->cpp = 1; break;
	case 'D': case 'U': case 'I': rc = cli_add_cpp(o, c, arg); break;
	case 'e': o->compile_only = 1; break;
	case 'l': o->list = 1; break;
	case 'v': o->verbose = 1; break;
	case 'V': o->version = 1; break;
	case 'Z': o->zero_ok = 1; break;
	case 'c': o->cmd = arg; break;
	case 'p': rc = cli_add_pid(o, arg); break;
	case 'o': o->output = arg; break;
	case 'E': o->efile = arg; break;
	case OPT_HW: o->hw = 1; break;
	case OPT_HELP: cli_usage(o->progname); exit(0);
	default: return 2;
	}
	return rc < 0 ? 2 : 0;
}

/* getopt's "-" mode hands operands back in order (as option 1), so
 * options may follow "-s file" and operands anywhere become $1..; "--"
 * ends options and everything after it is an operand too. */
int
cli_parse(int argc, char **argv, struct cli_opts *o)
{
	const char *slash = strrchr(argv[0], '/');
	o->progname = slash ? slash + 1 : argv[0];
	o->macro = calloc((size_t)argc + 1, sizeof(char *));
	if (!o->macro)
		return 2;
	opterr = 0;
	int c;
	while ((c = getopt_long(argc, argv, "-:b:c:CD:eE:f:FhI:lm:n:o:p:P:qs:U:vVwx:Z",
	    cli_long, NULL)) != -1) {
		if (c == 1) {
			o->macro[o->nmacro++] = optarg;
			continue;
		}
		if (c == '?' || c == ':') {
			if (c == ':')
				fprintf(stderr, "%s: option requires an argument -- '%c'\n",
				    o->progname, optopt);
			else
				fprintf(stderr, "%s: illegal option -- %c\n", o->progname, optopt);
			cli_usage(o->progname);
			return 2;
		}
		if (c == 'h')
			continue;	/* DTrace's -h (header generation) has no meaning here */
		if (cli_option(o, c, optarg))
			return 2;
	}
	while (optind < argc)
		o->macro[o->nmacro++] = argv[optind++];
	return 0;
}

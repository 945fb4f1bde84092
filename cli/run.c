/*
 * run.c — one pmctrace run: open the engine and its collaborators, compile,
 * enable, loop over the merged record stream until exit(), ^C, the end of
 * the replayed file or the -c/-p target's exit, then END and clean up.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli_impl.h"

/* Options the cli consumes itself; everything else goes to the engine. */
static int
cli_own_option(struct cli_ctx *cx, const char *x)
{
	if (!strcmp(x, "pmcmultiplex")) {
		cx->pmc_multiplex = 1;
		return 1;
	}
	if (!strcmp(x, "nobpf")) {
		cx->nobpf = 1;
		return 1;
	}
	return cli_pmu_option(x, &cx->pmu_target, &cx->pmc_plan);
}

/* The -o file's suffix picks a machine-readable format, as -x oformat does. */
static const struct { const char *suffix, *oformat; } cli_suffixes[] = {
	{ ".svg", "svg" }, { ".folded", "folded" }, { ".pb.gz", "pprof" },
	{ ".pprof", "pprof" }, { ".json", "json" },
};

static const char *
cli_oformat_of(const char *path)
{
	size_t n = path ? strlen(path) : 0;
	for (size_t i = 0; i < sizeof(cli_suffixes) / sizeof(cli_suffixes[0]); i++) {
		size_t k = strlen(cli_suffixes[i].suffix);
		if (n > k && !strcmp(path + n - k, cli_suffixes[i].suffix))
			return cli_suffixes[i].oformat;
	}
	return NULL;
}

static int
cli_apply_options(struct cli_ctx *cx)
{
	const struct cli_opts *o = cx->opts;
	const char *of = cli_oformat_of(o->output);
	if (o->quiet && d_setopt(cx->dh, "quiet", NULL) < 0)
		goto bad;
	if (of && d_setopt(cx->dh, "oformat", of) < 0)
		goto bad;
	if (o->zero_ok && d_setopt(cx->dh, "zdefs", NULL) < 0)
		goto bad;
	for (int i = 0; i < o->nxopts; i++) {
		if (cli_own_option(cx, o->xopts[i]))
			continue;
		if (!strcmp(o->xopts[i], "oformat=json"))
			of = "json";
		char name[128];
		const char *eq = strchr(o->xopts[i], '=');
		snprintf(name, sizeof(name), "%.*s",
		    (int)(eq ? (size_t)(eq - o->xopts[i]) : strlen(o->xopts[i])), o->xopts[i]);
		if (d_setopt(cx->dh, name, eq ? eq + 1 : NULL) < 0) {
			fprintf(stderr, "%s: failed to set -x %s: %s\n", o->progname, name,
			    d_errmsg(cx->dh));
			return -1;
		}
	}
	/* JSON Lines carry their own probe and CPU fields: DTrace's
	 * CPU/ID/FUNCTION:NAME prefixes would only corrupt them. */
	if (of && !strcmp(of, "json") && !o->quiet && d_setopt(cx->dh, "quiet", NULL) < 0)
		goto bad;
	return 0;
bad:
	fprintf(stderr, "%s: %s\n", o->progname, d_errmsg(cx->dh));
	return -1;
}

static int
cli_sym_kernel(void *ctx, uint64_t addr, int flags, char *buf, size_t len)
{
	return sym_kernel(ctx, addr, flags, buf, len);
}

static int
cli_sym_user(void *ctx, int32_t pid, uint64_t addr, int flags, char *buf, size_t len)
{
	return sym_user(ctx, pid, addr, flags, buf, len);
}

static int
cli_enabled(void *arg, uint32_t id)
{
	return d_probe_enabled(arg, id);
}

static int
cli_fire(void *arg, const struct d_firing *f)
{
	struct cli_ctx *cx = arg;
	if (cx->pin_pids && f->df_pid > 0)
		sym_pin_pid(cx->sym, f->df_pid);
	if (d_fire(cx->dh, f) == D_STATUS_EXIT)
		cx->done = 1;
	return cx->done;
}

/* The end probes (pmc:::sample-src...) fire even after exit(), as END does. */
static int
cli_fire_end(void *arg, const struct d_firing *f)
{
	struct cli_ctx *cx = arg;
	d_fire(cx->dh, f);
	return 0;
}

/* Comm, mmap and task records for every CPU, so execname and user stacks
 * resolve for processes that come and go during the run. */
static int
cli_add_sideband(struct cli_ctx *cx)
{
	struct smp_event_spec sp;
	memset(&sp, 0, sizeof(sp));
	sp.attr.size = sizeof(sp.attr);
	sp.attr.type = PERF_TYPE_SOFTWARE;
	sp.attr.config = PERF_COUNT_SW_DUMMY;
	sp.attr.comm = 1;
	sp.attr.comm_exec = 1;
	sp.attr.mmap = 1;
	sp.attr.mmap2 = 1;
	sp.attr.task = 1;
	sp.attr.context_switch = d_uses_vtimestamp(cx->dh) != 0;
	sp.attr.sample_id_all = 1;
	sp.attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
	    PERF_SAMPLE_IDENTIFIER;
	sp.attr.use_clockid = 1;
	sp.attr.clockid = CLOCK_MONOTONIC;
	sp.attr.disabled = 1;
	sp.scope = SMP_EACH_CPU;
	sp.group_leader = -1;
	sp.name = "dummy:sideband";
	int evidx;
	return smp_add_event(cx->smp, &sp, &evidx);
}

/* Was option name given with -x (or -b), rather than left at D's default? */
static int
cli_user_set(const struct cli_opts *o, const char *name)
{
	size_t n = strlen(name);
	for (int i = 0; i < o->nxopts; i++)
		if (!strncmp(o->xopts[i], name, n) && (o->xopts[i][n] == '=' || !o->xopts[i][n]))
			return 1;
	return 0;
}

static int
cli_open_sampler(struct cli_ctx *cx)
{
	const struct cli_opts *o = cx->opts;
	int err = 0;
	if (cx->replay) {
		cx->smp = smp_open_file(o->efile, &err);
		if (!cx->smp) {
			/* the reader's message names the offset of what is wrong */
			const char *why = smp_errmsg(NULL);
			fprintf(stderr, "%s: failed to open %s: %s\n", o->progname, o->efile,
			    why && *why ? why : strerror(-err));
			return -1;
		}
		return 0;
	}
	struct smp_opts so;
	memset(&so, 0, sizeof(so));
	int64_t v;
	/* The sampler sizes rings from the expected event rate; D's 4m
	 * default would override that, so only an explicit size counts. */
	if (cli_user_set(o, "bufsize") && d_getopt(cx->dh, "bufsize", &v) == 0 && v > 0)
		so.bufsize = (size_t)v;
	if (d_getopt(cx->dh, "bufpolicy", &v) == 0)
		so.bufpolicy = (int)v;
	if (d_getopt(cx->dh, "switchrate", &v) == 0 && v > 0)
		so.switchrate_ns = (uint64_t)v;
	cx->smp = smp_open_live(&so, &err);
	if (!cx->smp) {
		fprintf(stderr, "%s: could not enable tracing: %s\n", o->progname, strerror(-err));
		return -1;
	}
	return 0;
}

static int
cli_setup(struct cli_ctx *cx)
{
	struct cli_opts *o = cx->opts;
	int err = 0;
	struct stat st;
	cx->replay = o->efile && stat(o->efile, &st) == 0;
	cx->out = stdout;
	/* DTrace appends to -o files; a picture or profile replaces them. */
	int fd = o->output ? open(o->output, O_WRONLY | O_CREAT | O_CLOEXEC |
	    (cli_oformat_of(o->output) ? O_TRUNC : O_APPEND), 0666) : -1;
	if (fd >= 0 && !(cx->out = cli_out_stream(fd)))
		close(fd);
	if (o->output && (fd < 0 || !cx->out)) {
		fprintf(stderr, "%s: failed to open output file '%s': %s\n", o->progname,
		    o->output, strerror(errno));
		return -1;
	}
	if (!(cx->dh = d_open(o->progname, cx->out, &err))) {
		fprintf(stderr, "%s: failed to initialize the D engine: %s\n", o->progname, strerror(-err));
		return -1;
	}
	if (cli_apply_options(cx) < 0)
		return -1;
	/* a replay's counters are named and planned for the recording machine */
	if (cx->replay && cli_open_sampler(cx) < 0)
		return -1;
	if ((cx->replay ? cli_open_pmu_replay(o, &cx->pmu_target, cx->smp, &cx->pmu) :
	    cli_open_pmu(o, &cx->pmu_target, &cx->pmu)) < 0)
		return -1;
	cx->sym = sym_open(&err);
	struct prov_config pc = {
		.pmu = cx->pmu, .sym = cx->sym, .replay = cx->replay,
		.pmc_multiplex = cx->pmc_multiplex, .nobpf = cx->nobpf, .want_callchains = 1,
		.check_only = o->compile_only || o->list, .recording = o->efile && !cx->replay,
		.target_via_shell = o->cmd && !cli_plain_command(o->cmd),
	};
	if (!(cx->reg = prov_open(&pc, &err))) {
		fprintf(stderr, "%s: %s\n", o->progname, strerror(-err));
		return -1;
	}
	cx->catalog = prov_catalog(cx->reg);
	prov_set_sink(cx->reg, cli_fire, cx);
	cx->symbolizer = (struct d_symbolizer){ cx->sym, cli_sym_kernel, cli_sym_user };
	d_set_catalog(cx->dh, &cx->catalog);
	if (cx->sym)
		d_set_symbolizer(cx->dh, &cx->symbolizer);
	char *margv[64];
	int margc = 0;
	margv[margc++] = (char *)(o->nprogs && o->progs[0].kind == CLI_PROG_S ?
	    o->progs[0].arg : o->progname);
	for (int i = 0; i < o->nmacro && margc < 64; i++)
		margv[margc++] = o->macro[i];
	d_set_macro_args(cx->dh, margc, margv);
	if (cx->replay && prov_attach_file(cx->reg, cx->smp) < 0) {
		fprintf(stderr, "%s: %s\n", o->progname, prov_errmsg(cx->reg));
		return -1;
	}
	return 0;
}

/* Whether what was written to f reached it; the first failure is reported
 * (as DTrace does, a full disk or closed pipe is an error, exit status 1). */
static int
cli_output_ok(struct cli_ctx *cx, FILE *f)
{
	int e = fflush(f) == EOF || ferror(f) ? cli_out_errno() : 0;
	if (!e)
		return 1;
	if (!cx->out_failed)
		fprintf(stderr, "%s: failed to write to %s: %s\n", cx->opts->progname,
		    f == stdout ? "standard output" : cx->opts->output, strerror(e));
	cx->out_failed = 1;
	return 0;
}

static void
cli_teardown(struct cli_ctx *cx)
{
	smp_close(cx->smp);
	prov_close(cx->reg);
	d_close(cx->dh);
	sym_close(cx->sym);
	pmu_close(cx->pmu);
	if (cx->out && cx->out != stdout)
		fclose(cx->out);
	cli_target_teardown(cx);
}

int
cli_run(struct cli_opts *o)
{
	struct cli_ctx cx;
	memset(&cx, 0, sizeof(cx));
	cx.opts = o;
	cx.child_fd = -1;
	cx.guard_fd = -1;
	cx.pmu_target.smt = -1;
	int rc = 1;
	if (cli_setup(&cx) < 0)
		goto out;
	if (o->cmd && cli_spawn(&cx) < 0)
		goto out;
	for (int i = 0; i < o->npids; i++)
		if (kill(o->pids[i], 0) < 0 && errno == ESRCH) {
			fprintf(stderr, "%s: failed to grab pid %d: %s\n", o->progname,
			    (int)o->pids[i], strerror(ESRCH));
			goto out;
		}
	if (o->npids)
		d_set_target(cx.dh, o->pids[0]);
	if (o->nprogs && !(o->list && cli_list_descriptions_only(o)) && cli_compile_all(&cx) < 0)
		goto out;
	if (cx.pmc_plan && cx.pmu && pmu_plan_report(cx.pmu, stdout) < 0)
		goto out;
	if (o->list) {
		rc = cli_list(&cx);
		goto out;
	}
	if (o->compile_only) {
		rc = 0;
		goto out;
	}
	rc = cli_trace(&cx);
out:
	if (!cli_output_ok(&cx, stdout) && !rc)
		rc = 1;
	if (cx.out && cx.out != stdout && !cli_output_ok(&cx, cx.out) && !rc)
		rc = 1;
	cli_teardown(&cx);
	return rc;
}

static int
cli_enable(struct cli_ctx *cx)
{
	const char *p = cx->opts->progname;
	if (d_enable_check(cx->dh) < 0) {
		fprintf(stderr, "%s: could not enable tracing: %s\n", p, d_errmsg(cx->dh));
		return -1;
	}
	if (!cx->replay && cli_open_sampler(cx) < 0)
		return -1;
	prov_set_callchains(cx->reg, d_uses_stacks(cx->dh));
	if (d_uses_vtimestamp(cx->dh) && prov_use_vclock(cx->reg) < 0) {
		fprintf(stderr, "%s: %s\n", p, prov_errmsg(cx->reg));
		return -1;
	}
	if (prov_enable(cx->reg, cx->smp, cli_enabled, cx->dh) < 0) {
		fprintf(stderr, "%s: could not enable tracing: %s\n", p, prov_errmsg(cx->reg));
		return -1;
	}
	if (cx->replay)
		return 0;
	if (cx->opts->efile && smp_record_to(cx->smp, cx->opts->efile) < 0) {
		fprintf(stderr, "%s: cannot record to %s: %s\n", p, cx->opts->efile,
		    smp_errmsg(cx->smp));
		return -1;
	}
	if (smp_nevents(cx->smp) == 0) {
		cx->idle = 1;	/* only dtrace::: probes: nothing to open */
		return 0;
	}
	if (cli_add_sideband(cx) < 0 || smp_start(cx->smp) < 0) {
		fprintf(stderr, "%s: could not enable tracing: %s\n", p, smp_errmsg(cx->smp));
		return -1;
	}
	/* The -c child, not yet exec'd, is known by the name it has now (as
	 * the recording's records and perf script name it): learned at its
	 * first sample, /proc would give the post-exec name to samples taken
	 * before the exec. */
	if (cx->child > 0 && cx->sym)
		sym_note_pid(cx->sym, cx->child);
	return 0;
}

static uint64_t
cli_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void
cli_report_drops(struct cli_ctx *cx)
{
	uint32_t cpus[256];
	uint64_t drops[256];
	int n = smp_drops(cx->smp, cpus, drops, 256);
	for (int i = 0; i < n; i++)
		if (drops[i])
			d_report_drops(cx->dh, cpus[i], drops[i]);
}

/* Throttling is not a loss: once, at the end, as perf report --stats. */
static void
cli_report_throttled(struct cli_ctx *cx)
{
	uint64_t n = smp_throttled(cx->smp);
	if (n)
		fprintf(stderr, "%s: sampling was throttled %llu time%s (the kernel slowed "
		    "events that fired faster than kernel.perf_event_max_sample_rate)\n",
		    cx->opts->progname, (unsigned long long)n, n == 1 ? "" : "s");
}

/* Has the -c child or the -p process gone?  DTrace then says so, in
 * its words, and ends. */
static void
cli_report_child(struct cli_ctx *cx, int st)
{
	const char *p = cx->opts->progname;
	if (WIFSIGNALED(st)) {
		const char *abbrev = sigabbrev_np(WTERMSIG(st));
		fprintf(stderr, "%s: pid %d terminated by SIG%s\n", p, (int)cx->child,
		    abbrev ? abbrev : "UNKNOWN");
	} else if (WIFEXITED(st) && WEXITSTATUS(st) != 0) {
		fprintf(stderr, "%s: pid %d exited with status %d\n", p, (int)cx->child,
		    WEXITSTATUS(st));
	} else {
		fprintf(stderr, "%s: pid %d has exited\n", p, (int)cx->child);
	}
}

static int
cli_target_gone(struct cli_ctx *cx)
{
	if (cx->child > 0) {
		int st;
		if (waitpid(cx->child, &st, WNOHANG) != cx->child)
			return 0;
		cli_report_child(cx, st);
		cx->child = 0;
		return 1;
	}
	for (int i = 0; i < cx->opts->npids; i++)
		if (kill(cx->opts->pids[i], 0) < 0 && errno == ESRCH) {
			fprintf(stderr, "%s: pid %d has exited\n", cx->opts->progname,
			    (int)cx->opts->pids[i]);
			return 1;
		}
	return 0;
}

/* What the kernel rings still hold when the run ends is part of the run. */
static void
cli_drain(struct cli_ctx *cx)
{
	for (int i = 0; i < 64 && !cx->done; i++)
		if (smp_poll(cx->smp, 0, prov_route, cx->reg) <= 0)
			break;
}

static void
cli_loop(struct cli_ctx *cx)
{
	while (!cx->done && !cli_interrupted) {
		if (cx->idle) {
			poll(NULL, 0, 100);
			d_tick(cx->dh, cli_now());
			if (!cli_output_ok(cx, cx->out))
				break;
			if (cli_target_gone(cx))
				break;
			continue;
		}
		int n = smp_poll(cx->smp, 100, prov_route, cx->reg);
		if (n < 0 && n != -EINTR) {
			fprintf(stderr, "%s: %s\n", cx->opts->progname, smp_errmsg(cx->smp));
			cx->exit_code = 1;
			break;
		}
		if (cx->replay && smp_at_eof(cx->smp))
			break;
		if (!cx->replay)	/* a replay's drops are one summary, at the end */
			cli_report_drops(cx);
		d_tick(cx->dh, cli_now());
		/* as dtrace(1): what was traced reaches a file or pipe promptly;
		 * output that can no longer be written ends the run */
		if (!cli_output_ok(cx, cx->out))
			break;
		if (cli_target_gone(cx)) {
			/* the parent hears of the exit before the dying task's last
			 * switch reaches the ring: give it a moment, then drain */
			poll(NULL, 0, 50);
			cli_drain(cx);
			break;
		}
	}
	if (cx->idle)
		return;
	if (cli_interrupted && !cx->done)
		cli_drain(cx);
	if (!cx->done)
		smp_flush(cx->smp, prov_route, cx->reg);
	cli_report_drops(cx);
	cli_report_throttled(cx);
}

static void
cli_print_notices(struct cli_ctx *cx)
{
	const char *n = prov_notices(cx->reg);
	while (*n) {
		size_t len = strcspn(n, "\n");
		fprintf(stderr, "%s: %.*s\n", cx->opts->progname, (int)len, n);
		n += len + (n[len] == '\n');
	}
}

/* As dtrace_go: every probe is enabled before BEGIN fires, so a failed
 * enable prints nothing from the script. */
int
cli_trace(struct cli_ctx *cx)
{
	if (!cx->replay) {
		/* uprobes a killed pmctrace left behind go at the next start */
		prov_remove_leftovers(0);
		cli_guard_start(cx);
	}
	cx->pin_pids = d_keys_need_usyms(cx->dh);
	if (cli_enable(cx) < 0)
		return 1;
	if (d_go(cx->dh) == D_STATUS_EXIT)
		cx->done = 1;
	if (!cx->done && cli_output_ok(cx, cx->out)) {
		cli_release_child(cx);
		if (prov_start(cx->reg, cli_fire, cx) == 0)
			cli_loop(cx);
	}
	prov_end(cx->reg, cli_fire_end, cx);
	if (d_stop(cx->dh) < 0) {
		fprintf(stderr, "%s: %s\n", cx->opts->progname, d_errmsg(cx->dh));
		return 1;
	}
	cli_print_notices(cx);
	return cx->exit_code ? cx->exit_code : (cx->done ? d_exit_code(cx->dh) : 0);
}

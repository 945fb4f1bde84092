/*
 * test_symbolizer.c — symbolizer against real binaries and real processes.
 *
 * The subject is tests/helpers/symtarget (built by the Makefile next to
 * this program: BUILD/helpers/symtarget, or $HELPERS/symtarget), which
 * prints the run-time addresses of its functions.  Each test starts it,
 * resolves those addresses, and checks the text against the names, nm's
 * view of the file, and DTrace's frame shapes.  Stripped copies and
 * separate debug files are made at run time with objcopy/strip in a
 * temporary directory.
 */
#include <dirent.h>
#include <elfutils/libdwelf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "symbolizer/sym_impl.h"
#include "symbolizer/symbolizer.h"
#include "tests/unit/cu.h"

#define FAKEPID		0x7ffffff0	/* above any pid_max: never a live process */

/* ---- helpers ---------------------------------------------------------- */

struct target {
	pid_t pid;
	int in;			/* its stdin: closing it ends the process */
	char names[16][64];
	unsigned long long vals[16];
	int n;
};

static const char *
symtarget_path(void)
{
	static char path[PATH_MAX + 32];
	char self[PATH_MAX];
	const char *h = getenv("HELPERS");
	ssize_t n;

	if (h) {
		snprintf(path, sizeof(path), "%s/symtarget", h);
		return path;
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return "symtarget";
	self[n] = '\0';
	*strrchr(self, '/') = '\0';
	snprintf(path, sizeof(path), "%s/../helpers/symtarget", self);
	return path;
}

static unsigned long long
tgt_val(const struct target *t, const char *name)
{
	for (int i = 0; i < t->n; i++)
		if (strcmp(t->names[i], name) == 0)
			return t->vals[i];
	CU_FAIL_FATAL("symtarget did not print a value");
	return 0;
}

/* Start argv[0] and read its "name value" lines up to "ready". */
static int
tgt_start_argv(struct target *t, char *const argv[])
{
	int in[2], out[2];
	char line[256];
	FILE *f;

	memset(t, 0, sizeof(*t));
	if (access(argv[0], X_OK) != 0) {
		fprintf(stderr, "%s: not built\n", argv[0]);
		return -1;
	}
	if (pipe(in) < 0 || pipe(out) < 0)
		return -1;
	if ((t->pid = fork()) == 0) {
		dup2(in[0], 0);
		dup2(out[1], 1);
		close(in[1]);
		close(out[0]);
		execv(argv[0], argv);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	t->in = in[1];
	f = fdopen(out[0], "r");
	while (f && fgets(line, sizeof(line), f) && strncmp(line, "ready", 5) != 0)
		if (t->n < 16 && sscanf(line, "%63s %lli", t->names[t->n], &t->vals[t->n]) == 2)
			t->n++;
	if (f)
		fclose(f);
	return t->n >= 6 ? 0 : -1;
}

static int
tgt_start(struct target *t, const char *prog)
{
	char *argv[] = { (char *)prog, NULL };

	return tgt_start_argv(t, argv);
}

static void
tgt_stop(struct target *t)
{
	int st;

	close(t->in);
	waitpid(t->pid, &st, 0);
}

static int
run(const char *cmd)
{
	int rc = system(cmd);

	return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

static char *
tmpdir(void)
{
	static char dir[64];

	snprintf(dir, sizeof(dir), "/tmp/symtest.XXXXXX");
	return mkdtemp(dir);
}

static void
rmtree(const char *dir)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	run(cmd);
}

/* Expect sym_user(pid, addr, flags) to print exactly want. */
static void
expect_user(struct sym_session *s, pid_t pid, uint64_t addr, int flags,
    const char *want)
{
	char buf[512];
	int n = sym_user(s, pid, addr, flags, buf, sizeof(buf));

	if (n < 0 || strcmp(buf, want) != 0)
		fprintf(stderr, "\n  pid %d 0x%llx: got \"%s\" (%d), want \"%s\"\n",
		    (int)pid, (unsigned long long)addr, n < 0 ? "" : buf, n, want);
	CU_ASSERT_EQUAL(n, (int)strlen(want));
	CU_ASSERT_STRING_EQUAL(n < 0 ? "" : buf, want);
}

/* The three functions symtarget exports by address, resolved exactly. */
static void
expect_target_funcs(struct sym_session *s, const struct target *t, const char *mod)
{
	static const char *fns[] = { "st_static_work", "st_global_fn", "st_outer" };
	char want[128];

	for (int i = 0; i < 3; i++) {
		uint64_t a = tgt_val(t, fns[i]);
		snprintf(want, sizeof(want), "%s`%s", mod, fns[i]);
		expect_user(s, t->pid, a, SYM_FULL, want);	/* no +0x0 */
		expect_user(s, t->pid, a, SYM_FUNC, want);
		snprintf(want, sizeof(want), "%s`%s+0x3", mod, fns[i]);
		expect_user(s, t->pid, a + 3, SYM_FULL, want);
		expect_user(s, t->pid, a + 3, SYM_MOD, mod);
	}
}

/* ---- symbol table tie-breaks ------------------------------------------ */

static void
test_tab_tiebreaks(void)
{
	struct sym_tab t = { 0 };
	const struct sym_ent *e;

	sym_tab_add(&t, 0x1000, 0, SE_TYPED, 0, "unsized", 7);
	sym_tab_add(&t, 0x1000, 0x10, SE_TYPED | SE_WEAK, 0, "weak", 4);
	sym_tab_add(&t, 0x1000, 0x10, SE_TYPED, 0, "zeta", 4);
	sym_tab_add(&t, 0x1000, 0x10, SE_TYPED, 0, "alpha", 5);
	sym_tab_add(&t, 0x1000, 0x10, 0, 0, "notype", 6);
	sym_tab_add(&t, 0x2000, 0, SE_TYPED, 0, "label", 5);
	sym_tab_sort(&t);
	e = sym_tab_lookup(&t, 0x100f);
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_STRING_EQUAL(sym_tab_name(&t, e), "alpha");
	CU_ASSERT_PTR_NULL(sym_tab_lookup(&t, 0x1010));	/* past the size */
	CU_ASSERT_PTR_NULL(sym_tab_lookup(&t, 0xfff));
	e = sym_tab_lookup(&t, 0x2000);			/* size 0 hits its address */
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_STRING_EQUAL(sym_tab_name(&t, e), "label");
	CU_ASSERT_PTR_NULL(sym_tab_lookup(&t, 0x2001));
	sym_tab_free(&t);
}

/* The page index must answer exactly what a plain scan answers: random
 * tables with gaps, shared addresses and unsized symbols. */
static const struct sym_ent *
scan_lookup(const struct sym_tab *t, uint64_t addr)
{
	const struct sym_ent *best = NULL;

	for (size_t i = 0; i < t->st_n; i++)
		if (t->st_ents[i].se_addr <= addr &&
		    (best == NULL || t->st_ents[i].se_addr > best->se_addr))
			best = &t->st_ents[i];
	while (best && best > t->st_ents && best[-1].se_addr == best->se_addr)
		best--;
	if (best && addr - best->se_addr < (best->se_size ? best->se_size : 1))
		return best;
	return NULL;
}

static void
test_tab_index(void)
{
	uint64_t st = 12345;

	for (int round = 0; round < 20; round++) {
		struct sym_tab t = { 0 };
		uint64_t a = 0x7f0000001000ull + (uint64_t)round * 77;
		char name[16];

		for (int i = 0; i < 500; i++) {
			st ^= st << 13, st ^= st >> 7, st ^= st << 17;
			a += (st % 4 == 0) ? 0 : st % (round % 2 ? 300 : 20000);
			snprintf(name, sizeof(name), "f%d", i);
			sym_tab_add(&t, a, st % 3 ? (st >> 20) % 400 : 0, SE_TYPED, 0, name, strlen(name));
		}
		sym_tab_sort(&t);
		CU_ASSERT_TRUE(round % 2 || t.st_npages > 0);
		for (int k = 0; k < 3000; k++) {
			uint64_t x;
			st ^= st << 13, st ^= st >> 7, st ^= st << 17;
			x = t.st_ents[0].se_addr - 5000 + st % (a - t.st_ents[0].se_addr + 10000);
			CU_ASSERT_PTR_EQUAL(sym_tab_lookup(&t, x), scan_lookup(&t, x));
		}
		sym_tab_free(&t);
	}
}

/* ---- this very process -------------------------------------------------- */

__attribute__((noinline)) int test_sym_marker(int x);
__attribute__((noinline)) int
test_sym_marker(int x)
{
	return x * 7 + 1;
}

static __attribute__((noinline)) int
test_sym_static_marker(int x)
{
	return x * 5 + 2;
}

static void
test_self(void)
{
	struct sym_session *s = sym_open(NULL);
	uint64_t a = (uint64_t)(uintptr_t)test_sym_marker;
	uint64_t b = (uint64_t)(uintptr_t)test_sym_static_marker;

	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_EQUAL(test_sym_marker(1) + test_sym_static_marker(1), 15);
	expect_user(s, getpid(), a, SYM_FULL, "test_symbolizer`test_sym_marker");
	expect_user(s, getpid(), a + 1, SYM_FULL, "test_symbolizer`test_sym_marker+0x1");
	expect_user(s, getpid(), b, SYM_FUNC, "test_symbolizer`test_sym_static_marker");
	CU_ASSERT_STRING_EQUAL(sym_comm(s, getpid()), "test_symbolizer");
	sym_close(s);
}

/* libc through its separate debug file or .dynsym, checked against dladdr:
 * same module, and a name at exactly the address dladdr reports. */
static void
test_libc(void)
{
	struct sym_session *s = sym_open(NULL);
	uint64_t a = (uint64_t)(uintptr_t)&getppid;
	char buf[256], want[300];
	const char *base;
	int n;

	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	n = sym_user(s, getpid(), a, SYM_MOD, buf, sizeof(buf));
	CU_ASSERT_TRUE(n > 0);
	base = strrchr(buf, '/');
	CU_ASSERT_PTR_NULL(base);
	CU_ASSERT_STRING_EQUAL(buf, "libc.so.6");
	n = sym_user(s, getpid(), a, SYM_FULL, buf, sizeof(buf));
	CU_ASSERT_TRUE(n > 0 && strstr(buf, "getppid") != NULL && !strchr(buf, '+'));
	snprintf(want, sizeof(want), "%s+0x2", buf);
	n = sym_user(s, getpid(), a + 2, SYM_FULL, buf, sizeof(buf));
	CU_ASSERT_STRING_EQUAL(n > 0 ? buf : "", want);
	sym_close(s);
}

/* ---- symtarget ---------------------------------------------------------- */

/* nm's value of a symbol in prog, and its type letter in *type. */
static unsigned long long
nm_value_type(const char *prog, const char *name, char *type)
{
	char cmd[PATH_MAX + 64], line[256], nm[128];
	unsigned long long v = 0, x;
	char c;
	FILE *f;

	snprintf(cmd, sizeof(cmd), "nm '%s'", prog);
	if ((f = popen(cmd, "r")) == NULL)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx %c %127s", &x, &c, nm) == 3 && strcmp(nm, name) == 0) {
			v = x;
			*type = c;
		}
	pclose(f);
	return v;
}

static unsigned long long
nm_value(const char *prog, const char *name)
{
	char type;

	return nm_value_type(prog, name, &type);
}

/* nm's view: st_static_work is a local text symbol whose address plus the
 * PIE load base is what the process printed. */
static void
check_nm(const char *prog, const struct target *t)
{
	char line[256], maps[64], type = 0;
	unsigned long long v = nm_value_type(prog, "st_static_work", &type);
	unsigned long long base = 0, start, pgoff;
	FILE *f;

	CU_ASSERT_EQUAL(type, 't');
	snprintf(maps, sizeof(maps), "/proc/%d/maps", (int)t->pid);
	f = fopen(maps, "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	while (fgets(line, sizeof(line), f))
		if (strstr(line, "symtarget") && sscanf(line, "%llx-%*x %*s %llx", &start, &pgoff) == 2 &&
		    pgoff == 0 && base == 0)
			base = start;
	fclose(f);
	CU_ASSERT_EQUAL(base + v, tgt_val(t, "st_static_work"));
}

/* A call stub: "read@plt", where objdump says it is. */
static void
check_plt(struct sym_session *s, const struct target *t)
{
	char cmd[PATH_MAX + 64], line[256];
	unsigned long long v = 0;
	uint64_t base = tgt_val(t, "st_outer") - nm_value(symtarget_path(), "st_outer");
	FILE *f;

	snprintf(cmd, sizeof(cmd), "objdump -d '%s'", symtarget_path());
	f = popen(cmd, "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	while (fgets(line, sizeof(line), f))
		if (strstr(line, " <read@plt>:"))
			sscanf(line, "%llx", &v);
	pclose(f);
	CU_ASSERT_TRUE_FATAL(v != 0);
	expect_user(s, t->pid, base + v, SYM_FULL, "symtarget`read@plt");
	expect_user(s, t->pid, base + v + 4, SYM_FULL, "symtarget`read@plt+0x4");
}

static void
test_symtarget(void)
{
	struct sym_session *s = sym_open(NULL);
	struct target t;
	char buf[512];
	int line;

	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_EQUAL_FATAL(tgt_start(&t, symtarget_path()), 0);
	check_nm(symtarget_path(), &t);
	expect_target_funcs(s, &t, "symtarget");
	CU_ASSERT_STRING_EQUAL(sym_comm(s, t.pid), "symtarget");
	check_plt(s, &t);
	/* source line of the static function: its file, a line in its body */
	CU_ASSERT_TRUE(sym_srcline(s, t.pid, tgt_val(&t, "st_static_work"), buf, sizeof(buf)) > 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "symtarget.c:"));
	line = strstr(buf, ".c:") ? atoi(strstr(buf, ".c:") + 3) : 0;
	CU_ASSERT_TRUE(line >= (int)tgt_val(&t, "st_static_line") &&
	    line <= (int)tgt_val(&t, "st_static_line") + 8);
	tgt_stop(&t);
	sym_close(s);
}

/* The call inside the always-inlined st_inline_sq: one real frame, plus
 * the inlined one on request. */
static void
test_inline(void)
{
	struct sym_session *s = sym_open(NULL);
	struct target t;
	uint64_t ra;

	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_EQUAL_FATAL(tgt_start(&t, symtarget_path()), 0);
	ra = tgt_val(&t, "inline_ra") - 1;
	expect_user(s, t.pid, ra, SYM_FUNC, "symtarget`st_outer");
	expect_user(s, t.pid, ra, SYM_FUNC | SYM_INLINE,
	    "symtarget`st_inline_sq\nsymtarget`st_outer");
	/* outside any inlined scope the flag changes nothing */
	expect_user(s, t.pid, tgt_val(&t, "st_leaf"), SYM_FULL | SYM_INLINE,
	    "symtarget`st_leaf");
	tgt_stop(&t);
	sym_close(s);
}

/* ---- stripped copies with separate debug files -------------------------- */

static int
make_stripped(const char *dir, const char *bin, int debuglink)
{
	char cmd[2 * PATH_MAX + 512];

	snprintf(cmd, sizeof(cmd),
	    "objcopy --only-keep-debug '%s' '%s/symtarget.debug' && "
	    "strip --strip-all -o '%s/symtarget' '%s' && "
	    "( %s cd '%s' && objcopy --add-gnu-debuglink=symtarget.debug symtarget )",
	    symtarget_path(), dir, dir, symtarget_path(),
	    debuglink ? "" : "exit 0;", dir);
	(void)bin;
	return run(cmd);
}

/* The stripped copy has no .symtab: a static function is only found
 * through the debug file. */
static void
resolve_stripped(const char *prog, const char *debugdir, int want_found)
{
	struct sym_session *s = sym_open(NULL);
	struct target t;
	char buf[256];
	int n;

	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	if (debugdir)
		CU_ASSERT_EQUAL(sym_setopt(s, "debugdir", debugdir), 0);
	CU_ASSERT_EQUAL_FATAL(tgt_start(&t, prog), 0);
	if (want_found) {
		expect_target_funcs(s, &t, "symtarget");
	} else {
		n = sym_user(s, t.pid, tgt_val(&t, "st_static_work"), SYM_FUNC, buf, sizeof(buf));
		CU_ASSERT_TRUE(n > 0 && strstr(buf, "st_static_work") == NULL);
	}
	tgt_stop(&t);
	sym_close(s);
}

static void
test_debuglink(void)
{
	char *dir = tmpdir(), prog[PATH_MAX], dbg[PATH_MAX];

	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
	CU_ASSERT_EQUAL_FATAL(make_stripped(dir, symtarget_path(), 1), 0);
	CU_ASSERT_EQUAL(run("true"), 0);
	snprintf(prog, sizeof(prog), "%s/symtarget", dir);
	snprintf(dbg, sizeof(dbg), "%s/nodebug", dir);
	resolve_stripped(prog, dbg, 1);
	/* without the debug file the static function must be gone */
	snprintf(dbg, sizeof(dbg), "%s/symtarget.debug", dir);
	CU_ASSERT_EQUAL(unlink(dbg), 0);
	snprintf(dbg, sizeof(dbg), "%s/nodebug", dir);
	resolve_stripped(prog, dbg, 0);
	rmtree(dir);
}

static int
build_id_hex(const char *path, char *hex, size_t len)
{
	int fd = open(path, O_RDONLY);
	Elf *e;
	const uint8_t *id;
	ssize_t n = 0;

	elf_version(EV_CURRENT);
	if (fd < 0)
		return -1;
	if ((e = elf_begin(fd, ELF_C_READ, NULL)) != NULL) {
		n = dwelf_elf_gnu_build_id(e, (const void **)&id);
		for (ssize_t i = 0; i < n && (size_t)(2 * i + 2) < len; i++)
			sprintf(hex + 2 * i, "%02x", id[i]);
		elf_end(e);
	}
	close(fd);
	return n > 1 ? 0 : -1;
}

static void
test_buildid_dir(void)
{
	char *dir = tmpdir(), prog[PATH_MAX], hex[129], cmd[3 * PATH_MAX];
	char dbgdir[PATH_MAX];

	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
	CU_ASSERT_EQUAL_FATAL(make_stripped(dir, symtarget_path(), 0), 0);
	snprintf(prog, sizeof(prog), "%s/symtarget", dir);
	CU_ASSERT_EQUAL_FATAL(build_id_hex(prog, hex, sizeof(hex)), 0);
	snprintf(dbgdir, sizeof(dbgdir), "%s/dbg", dir);
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s/.build-id/%.2s' && mv '%s/symtarget.debug' "
	    "'%s/.build-id/%.2s/%s.debug'", dbgdir, hex, dir, dbgdir, hex, hex + 2);
	CU_ASSERT_EQUAL_FATAL(run(cmd), 0);
	resolve_stripped(prog, dbgdir, 1);
	resolve_stripped(prog, dir, 0);		/* wrong debug dir: not found */
	rmtree(dir);
}

/* A binary deleted while it runs: maps say "(deleted)"; the mapping
 * itself (map_files) still has the bytes. */
static void
test_deleted(void)
{
	struct sym_session *s = sym_open(NULL);
	char *dir = tmpdir(), prog[PATH_MAX], cmd[2 * PATH_MAX + 16];
	struct target t;

	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
	snprintf(prog, sizeof(prog), "%s/symtarget", dir);
	snprintf(cmd, sizeof(cmd), "cp '%s' '%s'", symtarget_path(), prog);
	CU_ASSERT_EQUAL_FATAL(run(cmd), 0);
	CU_ASSERT_EQUAL_FATAL(tgt_start(&t, prog), 0);
	CU_ASSERT_EQUAL(unlink(prog), 0);
	expect_target_funcs(s, &t, "symtarget");
	tgt_stop(&t);
	sym_close(s);
	rmtree(dir);
}

/* A binary that exists only in the process's own mount namespace, as in
 * a container: we must read it through the process, not our own view. */
static void
test_container(void)
{
	struct sym_session *s = sym_open(NULL);
	char *dir = tmpdir(), script[3 * PATH_MAX], prog[PATH_MAX];
	char *argv[] = { "/usr/bin/unshare", "-m", "sh", "-c", script, NULL };
	struct target t;

	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
	snprintf(prog, sizeof(prog), "%s/symtarget", dir);
	snprintf(script, sizeof(script), "mount -t tmpfs none '%s' && cp '%s' '%s' && exec '%s'",
	    dir, symtarget_path(), prog, prog);
	if (getuid() != 0 || run("/usr/bin/unshare -m true 2>/dev/null") != 0) {
		fprintf(stderr, "(no mount namespaces here: container case not run) ");
		sym_close(s);
		rmtree(dir);
		return;
	}
	CU_ASSERT_EQUAL_FATAL(tgt_start_argv(&t, argv), 0);
	CU_ASSERT_NOT_EQUAL(access(prog, F_OK), 0);	/* invisible to us */
	expect_target_funcs(s, &t, "symtarget");
	tgt_stop(&t);
	sym_close(s);
	rmtree(dir);
}

/* ---- records: a process that is gone ------------------------------------ */

static void
put_comm(struct sym_session *s, uint32_t pid, const char *comm, int exec)
{
	union { struct perf_event_header h; char b[64]; } r = { 0 };
	uint32_t ids[2] = { pid, pid };

	r.h.type = PERF_RECORD_COMM;
	r.h.misc = exec ? PERF_RECORD_MISC_COMM_EXEC : 0;
	r.h.size = (uint16_t)(sizeof(r.h) + sizeof(ids) + ((strlen(comm) + 8) & ~7u));
	memcpy(r.b + sizeof(r.h), ids, sizeof(ids));
	strcpy(r.b + sizeof(r.h) + sizeof(ids), comm);
	sym_note_record(s, &r.h);
}

static void
put_task(struct sym_session *s, uint32_t type, uint32_t pid, uint32_t ppid)
{
	struct { struct perf_event_header h; uint32_t pid, ppid, tid, ptid; uint64_t time; } r;

	memset(&r, 0, sizeof(r));
	r.h.type = type;
	r.h.size = sizeof(r);
	r.pid = r.tid = pid;
	r.ppid = r.ptid = ppid;
	sym_note_record(s, &r.h);
}

struct mmap2_rec {
	struct perf_event_header h;
	uint32_t pid, tid;
	uint64_t addr, len, pgoff;
	uint32_t maj, min;
	uint64_t ino, ino_gen;
	uint32_t prot, flags;
	char filename[PATH_MAX];
};

static void
put_mmap2_ino(struct sym_session *s, uint32_t pid, uint64_t start, uint64_t end,
    uint64_t pgoff, const char *path, uint64_t ino, const uint8_t *buildid)
{
	struct mmap2_rec r;
	size_t fl = (strlen(path) + 8) & ~(size_t)7;

	memset(&r, 0, sizeof(r));
	r.h.type = PERF_RECORD_MMAP2;
	r.h.size = (uint16_t)(offsetof(struct mmap2_rec, filename) + fl);
	r.pid = r.tid = pid;
	r.addr = start;
	r.len = end - start;
	r.pgoff = pgoff;
	r.ino = ino;
	if (buildid) {		/* the build-id form of the union */
		r.h.misc |= PERF_RECORD_MISC_MMAP_BUILD_ID;
		r.maj = 20;
		memcpy((char *)&r.maj + 4, buildid, 20);
	}
	r.prot = 5;
	snprintf(r.filename, sizeof(r.filename), "%s", path);
	sym_note_record(s, &r.h);
}

static void
put_mmap2(struct sym_session *s, uint32_t pid, uint64_t start, uint64_t end,
    uint64_t pgoff, const char *path)
{
	put_mmap2_ino(s, pid, start, end, pgoff, path, 0, NULL);
}

/* Feed every file mapping of a live process as MMAP2 records. */
static int
feed_maps(struct sym_session *s, pid_t pid)
{
	char path[64], line[PATH_MAX + 128], file[PATH_MAX];
	unsigned long long start, end, pgoff, ino;
	int n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	if ((f = fopen(path, "r")) == NULL)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx-%llx %*s %llx %*s %llu %4095s", &start, &end, &pgoff,
		    &ino, file) == 5 && file[0] == '/') {
			put_mmap2_ino(s, (uint32_t)pid, start, end, pgoff, file, ino, NULL);
			n++;
		}
	fclose(f);
	return n;
}

static void
test_exited(void)
{
	struct sym_session *s = sym_open(NULL);
	struct target t;
	char buf[256];
	uint64_t a;

	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_EQUAL_FATAL(tgt_start(&t, symtarget_path()), 0);
	put_comm(s, (uint32_t)t.pid, "symtarget", 1);
	CU_ASSERT_TRUE(feed_maps(s, t.pid) > 0);
	put_task(s, PERF_RECORD_EXIT, (uint32_t)t.pid, 1);
	tgt_stop(&t);		/* reaped: /proc/PID is gone */
	CU_ASSERT_EQUAL(kill(t.pid, 0), -1);
	expect_target_funcs(s, &t, "symtarget");
	CU_ASSERT_STRING_EQUAL(sym_comm(s, t.pid), "symtarget");
	/* a child forked before the exit shares the maps; its exec drops them */
	a = tgt_val(&t, "st_outer");
	put_task(s, PERF_RECORD_FORK, FAKEPID, (uint32_t)t.pid);
	expect_user(s, FAKEPID, a, SYM_FUNC, "symtarget`st_outer");
	CU_ASSERT_STRING_EQUAL(sym_comm(s, FAKEPID), "symtarget");
	put_comm(s, FAKEPID, "other", 1);
	CU_ASSERT_EQUAL(sym_user(s, FAKEPID, a, SYM_FUNC, buf, sizeof(buf)), -1);
	expect_user(s, t.pid, a, SYM_FUNC, "symtarget`st_outer");
	sym_close(s);
}

/* A process running before the run began: noted at its first sample,
 * it symbolizes after it is gone. */
static void
test_note_pid(void)
{
	struct sym_session *s = sym_open(NULL);
	struct target t;

	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_EQUAL_FATAL(tgt_start(&t, symtarget_path()), 0);
	sym_note_pid(s, t.pid);
	sym_note_pid(s, t.pid);
	tgt_stop(&t);
	CU_ASSERT_EQUAL(kill(t.pid, 0), -1);
	expect_target_funcs(s, &t, "symtarget");
	CU_ASSERT_STRING_EQUAL(sym_comm(s, t.pid), "symtarget");
	sym_close(s);
}

/* Records naming a file that is not the one at that path any more (other
 * inode, other build id): module only, never another binary's symbols. */
static void
test_stale_file(void)
{
	struct sym_session *s = sym_open(NULL);
	struct target t;
	struct stat st;
	uint8_t id[20], bad[20];
	char hex[64];
	uint64_t a;

	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_EQUAL_FATAL(tgt_start(&t, symtarget_path()), 0);
	tgt_stop(&t);
	CU_ASSERT_EQUAL_FATAL(stat(symtarget_path(), &st), 0);
	CU_ASSERT_EQUAL_FATAL(build_id_hex(symtarget_path(), hex, sizeof(hex)), 0);
	for (int i = 0; i < 20; i++) {
		unsigned v;
		sscanf(hex + 2 * i, "%2x", &v);
		id[i] = (uint8_t)v;
		bad[i] = (uint8_t)(v ^ 1);
	}
	/* the whole file mapped at a made-up base, as if from a recording;
	 * symtarget is an ordinary PIE: file offsets of text are its vaddrs */
	a = 0x400000 + nm_value(symtarget_path(), "st_outer");
	put_mmap2_ino(s, FAKEPID + 6, 0x400000, 0x500000, 0, symtarget_path(), st.st_ino, NULL);
	put_mmap2_ino(s, FAKEPID + 7, 0x400000, 0x500000, 0, symtarget_path(), st.st_ino + 1, NULL);
	put_mmap2_ino(s, FAKEPID + 8, 0x400000, 0x500000, 0, symtarget_path(), 0, id);
	put_mmap2_ino(s, FAKEPID + 9, 0x400000, 0x500000, 0, symtarget_path(), 0, bad);
	expect_user(s, FAKEPID + 6, a, SYM_FUNC, "symtarget`st_outer");
	expect_user(s, FAKEPID + 8, a, SYM_FUNC, "symtarget`st_outer");
	snprintf(hex, sizeof(hex), "symtarget`0x%llx", (unsigned long long)a);
	expect_user(s, FAKEPID + 7, a, SYM_FUNC, hex);
	expect_user(s, FAKEPID + 9, a, SYM_FUNC, hex);
	sym_close(s);
}

/* ---- functions for probes ---------------------------------------------- */

struct funcs_seen {
	pid_t pid;
	int n, bad;
	char names[32][64];
	uint64_t addrs[32];
};

/* Each function's bytes at its file offset must be the process's bytes at
 * its address: that is what a uprobe at (path, offset) would patch. */
static int
funcs_cb(void *arg, const struct sym_func *f)
{
	struct funcs_seen *fs = arg;
	unsigned char a[16], b[16];
	char mem[64];
	int fd;

	snprintf(mem, sizeof(mem), "/proc/%d/mem", (int)fs->pid);
	if ((fd = open(f->sf_path, O_RDONLY)) < 0 || pread(fd, a, 16, (off_t)f->sf_offset) != 16)
		fs->bad++;
	if (fd >= 0)
		close(fd);
	if ((fd = open(mem, O_RDONLY)) < 0 || pread(fd, b, 16, (off_t)f->sf_addr) != 16 ||
	    memcmp(a, b, 16) != 0)
		fs->bad++;
	if (fd >= 0)
		close(fd);
	if (fs->n < 32) {
		snprintf(fs->names[fs->n], sizeof(fs->names[0]), "%s`%s", f->sf_module, f->sf_name);
		fs->addrs[fs->n++] = f->sf_addr;
	}
	return 0;
}

static int
versioned_cb(void *arg, const struct sym_func *f)
{
	int *n = arg;

	*n += strchr(f->sf_name, '@') != NULL;
	return 0;
}

static void
test_user_funcs(void)
{
	struct sym_session *s = sym_open(NULL);
	struct funcs_seen fs = { 0 };
	struct target t;
	int n, found = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_EQUAL_FATAL(tgt_start(&t, symtarget_path()), 0);
	fs.pid = t.pid;
	n = sym_user_funcs(s, t.pid, "symtarget", "st_*", funcs_cb, &fs);
	CU_ASSERT_EQUAL(n, 4);		/* st_leaf, st_outer, st_static_work, st_global_fn */
	CU_ASSERT_EQUAL(fs.bad, 0);
	for (int i = 0; i < fs.n; i++) {
		const char *fn = strchr(fs.names[i], '`') + 1;
		CU_ASSERT_STRING_NOT_EQUAL(fn, "st_inline_sq");	/* inlined: no symbol */
		if (strcmp(fn, "st_inline_sq") != 0 && fs.addrs[i] == tgt_val(&t, fn))
			found++;
	}
	CU_ASSERT_EQUAL(found, 4);
	memset(&fs, 0, sizeof(fs));
	fs.pid = t.pid;
	n = sym_user_funcs(s, t.pid, "libc.so*", "getppid", funcs_cb, &fs);
	CU_ASSERT_EQUAL(n, 1);
	CU_ASSERT_EQUAL(fs.bad, 0);
	CU_ASSERT_STRING_EQUAL(fs.names[0], "libc.so.6`getppid");
	CU_ASSERT_EQUAL(sym_user_funcs(s, t.pid, "nomodule", NULL, funcs_cb, &fs), 0);
	/* no "name@@GLIBC_x" version suffixes in names */
	n = 0;
	CU_ASSERT_TRUE(sym_user_funcs(s, t.pid, "libc.so*", NULL, versioned_cb, &n) > 1000);
	CU_ASSERT_EQUAL(n, 0);
	CU_ASSERT_EQUAL(sym_user_funcs(s, FAKEPID + 5, NULL, NULL, funcs_cb, &fs), -ESRCH);
	tgt_stop(&t);
	sym_close(s);
}

/* ---- JIT maps, vdso ----------------------------------------------------- */

static void
test_perf_map(void)
{
	struct sym_session *s = sym_open(NULL);
	char path[64];
	FILE *f;

	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	snprintf(path, sizeof(path), "/tmp/perf-%d.map", FAKEPID + 1);
	f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fprintf(f, "7f0000001000 40 LazyCompile:~hot app.js:10\n7f0000001040 20 stub\n");
	fclose(f);
	put_mmap2(s, FAKEPID + 1, 0x7f0000000000, 0x7f0000010000, 0, "//anon");
	expect_user(s, FAKEPID + 1, 0x7f0000001010, SYM_FULL,
	    "perf-2147483633.map`LazyCompile:~hot app.js:10+0x10");
	expect_user(s, FAKEPID + 1, 0x7f0000001040, SYM_FULL, "perf-2147483633.map`stub");
	expect_user(s, FAKEPID + 1, 0x7f0000001041, SYM_FUNC, "perf-2147483633.map`stub");
	unlink(path);
	sym_close(s);
}

/* __vdso_clock_gettime's address from the vdso's own .dynsym. */
static uint64_t
vdso_sym(const char *name)
{
	uintptr_t base = (uintptr_t)getauxval(AT_SYSINFO_EHDR);
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)base;
	const Elf64_Shdr *sh;
	uint64_t lo = UINT64_MAX;

	if (base == 0)
		return 0;
	sh = (const Elf64_Shdr *)(base + eh->e_shoff);
	for (int i = 0; i < eh->e_phnum; i++) {
		const Elf64_Phdr *ph = (const Elf64_Phdr *)(base + eh->e_phoff) + i;
		if (ph->p_type == PT_LOAD && ph->p_vaddr < lo)
			lo = ph->p_vaddr - ph->p_offset;
	}
	for (int i = 0; i < eh->e_shnum; i++) {
		const Elf64_Sym *sy = (const Elf64_Sym *)(base + sh[i].sh_offset);
		const char *str = (const char *)(base + sh[sh[i].sh_link].sh_offset);
		if (sh[i].sh_type != SHT_DYNSYM)
			continue;
		for (size_t j = 0; j < sh[i].sh_size / sizeof(*sy); j++)
			if (strcmp(str + sy[j].st_name, name) == 0)
				return base + sy[j].st_value - lo;
	}
	return 0;
}

static void
test_vdso(void)
{
	struct sym_session *s = sym_open(NULL);
	uint64_t a = vdso_sym("__vdso_clock_gettime");

	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_TRUE_FATAL(a != 0);
	expect_user(s, getpid(), a, SYM_FUNC, "[vdso]`__vdso_clock_gettime");
	expect_user(s, getpid(), a + 4, SYM_FULL, "[vdso]`__vdso_clock_gettime+0x4");
	sym_close(s);
}

/* ---- kernel ------------------------------------------------------------- */

static void
test_kernel_live(void)
{
	struct sym_session *s = sym_open(NULL);
	FILE *f = fopen("/proc/kallsyms", "r");
	unsigned long long addr, prev = 0, next;
	char line[512], type, name[256], pname[256] = "", want[300], buf[300];
	int checked = 0, eligible = 0, n;

	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	/* the core kernel's text symbols whose neighbours are at other
	 * addresses: every 3000th such is checked exactly */
	while (fgets(line, sizeof(line), f) && checked < 40) {
		if (sscanf(line, "%llx %c %255s", &addr, &type, name) != 3)
			continue;
		next = addr;
		if (prev && prev < next && strchr(line, '[') == NULL &&
		    (type == 'T' || type == 't') && pname[0] && eligible++ % 3000 == 0) {
			snprintf(want, sizeof(want), "vmlinux`%s", pname);
			n = sym_kernel(s, prev, SYM_FULL, buf, sizeof(buf));
			if (n < 0 && sym_errmsg(s))
				fprintf(stderr, "\n  %s\n", sym_errmsg(s));
			CU_ASSERT_STRING_EQUAL(n > 0 ? buf : "", want);
			snprintf(want, sizeof(want), "vmlinux`%s+0x1", pname);
			if (next - prev > 1) {
				n = sym_kernel(s, prev + 1, SYM_FULL, buf, sizeof(buf));
				CU_ASSERT_STRING_EQUAL(n > 0 ? buf : "", want);
			}
			checked++;
		}
		/* remember this line only if no other symbol shares its address */
		if (addr == prev)
			pname[0] = '\0';
		else if (type == 'T' || type == 't')
			snprintf(pname, sizeof(pname), "%s", name), prev = addr;
		else
			pname[0] = '\0', prev = addr;
	}
	fclose(f);
	fprintf(stderr, "(%d kernel symbols checked) ", checked);
	if (checked == 0) {
		CU_ASSERT_EQUAL(sym_kernel(s, 0xffffffff81000000ull, SYM_FULL, buf, sizeof(buf)), -1);
		CU_ASSERT_PTR_NOT_NULL(sym_errmsg(s));
	}
	CU_ASSERT_EQUAL(sym_kernel(s, 0x1000, SYM_FULL, buf, sizeof(buf)), -1);
	n = sym_kernel(s, 0xffffffff81000000ull, SYM_MOD, buf, sizeof(buf));
	CU_ASSERT_TRUE(checked == 0 || (n > 0 && strcmp(buf, "vmlinux") == 0));
	sym_close(s);
}

static char *
write_tmp(const char *dir, const char *name, const char *text)
{
	static char path[2][PATH_MAX];
	static int k;
	FILE *f;

	k ^= 1;
	snprintf(path[k], sizeof(path[k]), "%s/%s", dir, name);
	if ((f = fopen(path[k], "w")) == NULL)
		return NULL;
	fputs(text, f);
	fclose(f);
	return path[k];
}

static void
expect_kernel(struct sym_session *s, uint64_t addr, int flags, const char *want)
{
	char buf[256];
	int n = sym_kernel(s, addr, flags, buf, sizeof(buf));

	if (want == NULL) {
		CU_ASSERT_EQUAL(n, -1);
		return;
	}
	if (n < 0 || strcmp(buf, want))
		fprintf(stderr, "\n  0x%llx: got \"%s\", want \"%s\"\n",
		    (unsigned long long)addr, n < 0 ? "" : buf, want);
	CU_ASSERT_STRING_EQUAL(n >= 0 ? buf : "", want);
}

/* A made-up kallsyms with a module: tie-breaks, module ranges, sizes. */
static void
test_kernel_synthetic(void)
{
	struct sym_session *s = sym_open(NULL);
	char *dir = tmpdir();

	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
	sym_setopt(s, "kallsyms", write_tmp(dir, "kallsyms",
	    "ffffffff81000000 T _text\n"
	    "ffffffff81000000 T _stext\n"
	    "ffffffff81000100 W alpha_weak\n"
	    "ffffffff81000100 T alpha\n"
	    "ffffffff81000200 t beta\n"
	    "0000000000000000 A fixed_percpu_data\n"
	    "ffffffff81000300 T _etext\n"
	    "ffffffffc0001000 t ext4_file_read_iter\t[ext4]\n"
	    "ffffffffc0001100 T ext4_other\t[ext4]\n"
	    "ffffffffc0100000 t bpf_prog_1234_x\t[bpf]\n"));
	sym_setopt(s, "modules", write_tmp(dir, "modules",
	    "ext4 8192 1 - Live 0xffffffffc0000000\n"));
	expect_kernel(s, 0xffffffff81000000, SYM_FULL, "vmlinux`_stext");
	expect_kernel(s, 0xffffffff81000104, SYM_FULL, "vmlinux`alpha+0x4");
	expect_kernel(s, 0xffffffff810001ff, SYM_FUNC, "vmlinux`alpha");
	expect_kernel(s, 0xffffffff81000210, SYM_FULL, "vmlinux`beta+0x10");
	expect_kernel(s, 0xffffffff81000210, SYM_MOD, "vmlinux");
	expect_kernel(s, 0xffffffffc0001010, SYM_FULL, "ext4`ext4_file_read_iter+0x10");
	expect_kernel(s, 0xffffffffc0001150, SYM_FULL, "ext4`ext4_other+0x50");
	expect_kernel(s, 0xffffffffc0001fff, SYM_FUNC, "ext4`ext4_other");
	expect_kernel(s, 0xffffffffc0000010, SYM_FULL, "ext4`0xffffffffc0000010");
	expect_kernel(s, 0xffffffffc0000010, SYM_MOD, "ext4");
	expect_kernel(s, 0xffffffffc0002000, SYM_FULL, NULL);	/* past ext4 */
	expect_kernel(s, 0xffffffffc0100000, SYM_FULL, "bpf`bpf_prog_1234_x");
	expect_kernel(s, 0x10, SYM_FULL, NULL);
	CU_ASSERT_PTR_NULL(sym_errmsg(s));
	sym_close(s);
	rmtree(dir);
}

/* A module loaded after kallsyms was read is found by one re-read. */
static void
test_kernel_reload(void)
{
	struct sym_session *s = sym_open(NULL);
	char *dir = tmpdir(), *ks;

	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	ks = write_tmp(dir, "kallsyms", "ffffffff81000000 T _stext\nffffffff81000100 T _etext\n");
	sym_setopt(s, "kallsyms", ks);
	sym_setopt(s, "modules", "/nonexistent");
	expect_kernel(s, 0xffffffff81000010, SYM_FULL, "vmlinux`_stext+0x10");
	write_tmp(dir, "kallsyms", "ffffffff81000000 T _stext\nffffffff81000100 T _etext\n"
	    "ffffffffc0200000 t late_fn\t[late]\n");
	expect_kernel(s, 0xffffffffc0200000, SYM_FULL, "late`late_fn");
	expect_kernel(s, 0xffffffff81000010, SYM_FULL, "vmlinux`_stext+0x10");
	expect_kernel(s, 0xffffffffc0300000, SYM_FULL, NULL);
	sym_close(s);
	rmtree(dir);
}

/* A replay recorded under another KASLR offset: the recorded
 * "[kernel.kallsyms]_text" map says where _text was. */
static void
test_kernel_kaslr(void)
{
	struct sym_session *s = sym_open(NULL);
	char *dir = tmpdir();
	struct { struct perf_event_header h; uint32_t pid, tid; uint64_t addr, len, pgoff;
		char name[32]; } r = { { PERF_RECORD_MMAP, PERF_RECORD_MISC_KERNEL, sizeof(r) },
		UINT32_MAX, 0, 0xffffffff90000000ull, 0x1000000, 0xffffffff90000000ull,
		"[kernel.kallsyms]_text" };

	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	sym_setopt(s, "kallsyms", write_tmp(dir, "kallsyms",
	    "ffffffff81000000 T _text\n"
	    "ffffffff81000100 T alpha\n"
	    "ffffffff81000200 T _etext\n"
	    "ffffffffc0001000 t modfn\t[m]\n"));
	sym_setopt(s, "modules", "/nonexistent");
	sym_note_record(s, &r.h);
	expect_kernel(s, 0xffffffff90000104, SYM_FULL, "vmlinux`alpha+0x4");
	expect_kernel(s, 0xffffffffc0001000, SYM_FULL, "m`modfn");	/* not moved */
	sym_close(s);
	rmtree(dir);
}

static void
test_kptr_restrict(void)
{
	struct sym_session *s = sym_open(NULL);
	char *dir = tmpdir(), buf[64];

	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	sym_setopt(s, "kallsyms", write_tmp(dir, "kallsyms",
	    "0000000000000000 T _text\n0000000000000000 T schedule\n"));
	CU_ASSERT_EQUAL(sym_kernel(s, 0xffffffff81000000, SYM_FULL, buf, sizeof(buf)), -1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(sym_errmsg(s));
	CU_ASSERT_PTR_NOT_NULL(strstr(sym_errmsg(s), "kptr_restrict"));
	sym_close(s);
	s = sym_open(NULL);
	sym_setopt(s, "kallsyms", "/nonexistent/kallsyms");
	CU_ASSERT_EQUAL(sym_kernel(s, 0xffffffff81000000, SYM_FULL, buf, sizeof(buf)), -1);
	CU_ASSERT_PTR_NOT_NULL(sym_errmsg(s));
	sym_close(s);
	rmtree(dir);
}

/* ---- bad input ---------------------------------------------------------- */

static void
test_garbage(void)
{
	struct sym_session *s = sym_open(NULL);
	char *dir = tmpdir(), buf[256], cmd[2 * PATH_MAX];
	struct perf_event_header h = { PERF_RECORD_MMAP2, 0, 12 };
	char *junk, *trunc, *empty;

	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_EQUAL(sym_user(s, getpid(), 0x10, SYM_FULL, buf, sizeof(buf)), -1);
	CU_ASSERT_EQUAL(sym_user(s, getpid(), ~0ull, SYM_FULL, buf, sizeof(buf)), -1);
	CU_ASSERT_EQUAL(sym_user(s, FAKEPID + 3, 0x400000, SYM_FULL, buf, sizeof(buf)), -1);
	CU_ASSERT_EQUAL(sym_user(s, 0, 0x400000, SYM_FULL, buf, sizeof(buf)), -1);
	CU_ASSERT_EQUAL(sym_user(s, -1, 0x400000, SYM_FULL, buf, sizeof(buf)), -1);
	sym_note_record(s, &h);		/* too short to be an MMAP2 */
	/* corrupt, truncated and empty files behind mappings: module only */
	junk = write_tmp(dir, "junk.so", "\177ELF this is not an ELF file at all");
	put_mmap2(s, FAKEPID + 2, 0x10000, 0x20000, 0, junk);
	snprintf(cmd, sizeof(cmd), "head -c 3000 '%s' > '%s/trunc.so'", symtarget_path(), dir);
	CU_ASSERT_EQUAL(run(cmd), 0);
	trunc = write_tmp(dir, "x", "");
	strcpy(strrchr(trunc, '/') + 1, "trunc.so");
	put_mmap2(s, FAKEPID + 2, 0x20000, 0x30000, 0, trunc);
	empty = write_tmp(dir, "empty.so", "");
	put_mmap2(s, FAKEPID + 2, 0x30000, 0x40000, 0, empty);
	put_mmap2(s, FAKEPID + 2, 0x40000, 0x50000, 0, dir);	/* a directory */
	expect_user(s, FAKEPID + 2, 0x10010, SYM_FULL, "junk.so`0x10010");
	expect_user(s, FAKEPID + 2, 0x21000, SYM_FULL, "trunc.so`0x21000");
	expect_user(s, FAKEPID + 2, 0x30000, SYM_FUNC, "empty.so`0x30000");
	CU_ASSERT_TRUE(sym_user(s, FAKEPID + 2, 0x40000, SYM_MOD, buf, sizeof(buf)) > 0);
	CU_ASSERT_EQUAL(sym_user(s, FAKEPID + 2, 0x50000, SYM_FULL, buf, sizeof(buf)), -1);
	/* a tiny buffer truncates, never overflows */
	CU_ASSERT_EQUAL(sym_user(s, FAKEPID + 2, 0x10010, SYM_FULL, buf, 4), 3);
	CU_ASSERT_STRING_EQUAL(buf, "jun");
	sym_close(s);
	rmtree(dir);
}

/* Copies of symtarget with random bytes overwritten (headers, section
 * table, symbols, DWARF): every lookup must come back, right or wrong. */
static void
test_corrupt_copies(void)
{
	char *dir = tmpdir(), path[PATH_MAX], buf[512];
	uint64_t st = 0x9e3779b97f4a7c15ull, so = nm_value(symtarget_path(), "st_outer");
	unsigned char *img;
	long size;
	FILE *f;

	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
	f = fopen(symtarget_path(), "rb");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	rewind(f);
	img = malloc((size_t)size);
	CU_ASSERT_EQUAL_FATAL(fread(img, 1, (size_t)size, f), (size_t)size);
	fclose(f);
	for (int c = 0; c < 150; c++) {
		struct sym_session *s = sym_open(NULL);
		unsigned char *m = malloc((size_t)size);
		memcpy(m, img, (size_t)size);
		for (int k = 0; k < 1 + c % 16; k++) {
			st ^= st << 13, st ^= st >> 7, st ^= st << 17;
			/* half the hits in the first 4 KB (ELF and program headers) */
			size_t at = (size_t)(st >> 8) % (size_t)((st & 1) ? 4096 : size);
			m[at] = (unsigned char)(st >> 40);
		}
		snprintf(path, sizeof(path), "%s/c%d.so", dir, c);
		f = fopen(path, "wb");
		fwrite(m, 1, (size_t)(c % 7 == 6 ? size / 2 : size), f);	/* some truncated */
		fclose(f);
		put_mmap2(s, FAKEPID + 10, 0x400000, 0x400000 + (uint64_t)size, 0, path);
		for (uint64_t a = 0x400000; a < 0x400000 + (uint64_t)size; a += 97)
			(void)sym_user(s, FAKEPID + 10, a, SYM_FULL | (c & 1 ? SYM_INLINE : 0),
			    buf, sizeof(buf));
		(void)sym_srcline(s, FAKEPID + 10, 0x400000 + so, buf, sizeof(buf));
		CU_ASSERT_TRUE(sym_user(s, FAKEPID + 10, 0x400000 + so, SYM_MOD, buf, sizeof(buf)) > 0);
		sym_close(s);
		free(m);
	}
	free(img);
	rmtree(dir);
}

/* A later mmap over part of an earlier one replaces that part only. */
static void
test_map_overlap(void)
{
	struct sym_session *s = sym_open(NULL);
	char buf[64];

	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	put_mmap2(s, FAKEPID + 4, 0x10000, 0x40000, 0, "/nonexistent/a.so");
	put_mmap2(s, FAKEPID + 4, 0x20000, 0x30000, 0, "/nonexistent/b.so");
	expect_user(s, FAKEPID + 4, 0x1f000, SYM_MOD, "a.so");
	expect_user(s, FAKEPID + 4, 0x20000, SYM_MOD, "b.so");
	expect_user(s, FAKEPID + 4, 0x30000, SYM_MOD, "a.so");
	put_mmap2(s, FAKEPID + 4, 0x08000, 0x18000, 0, "/nonexistent/c.so (deleted)");
	expect_user(s, FAKEPID + 4, 0x17fff, SYM_FULL, "c.so`0x17fff");
	expect_user(s, FAKEPID + 4, 0x18000, SYM_MOD, "a.so");
	CU_ASSERT_EQUAL(sym_user(s, FAKEPID + 4, 0x40000, SYM_MOD, buf, sizeof(buf)), -1);
	sym_close(s);
}

/* The second resolution of a set answers the same from the cache. */
static void
test_cache(void)
{
	struct sym_session *s = sym_open(NULL);
	uint64_t base = (uint64_t)(uintptr_t)test_sym_marker;
	char a[64][128], b[128];

	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	for (int i = 0; i < 64; i++)
		CU_ASSERT_TRUE(sym_user(s, getpid(), base + (uint64_t)i * 7, SYM_FULL, a[i], sizeof(a[i])) > 0);
	for (int i = 0; i < 64; i++) {
		CU_ASSERT_TRUE(sym_user(s, getpid(), base + (uint64_t)i * 7, SYM_FULL, b, sizeof(b)) > 0);
		CU_ASSERT_STRING_EQUAL(a[i], b);
	}
	sym_close(s);
}

/* Exited processes no one pinned are freed once 1024 more have exited:
 * memory stays flat over any number of forks, the table stays sound
 * (every live or recent pid is still found after thousands of removals),
 * and a pinned process is kept. */
static void
test_exited_freed(void)
{
	int err = 0;
	struct sym_session *s = sym_open(&err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	put_comm(s, 100, "parent", 0);
	for (uint32_t i = 1; i <= 5000; i++) {
		put_task(s, PERF_RECORD_FORK, 1000 + i, 100);
		put_comm(s, 1000 + i, "child", 0);
		if (i == 7)
			sym_pin_pid(s, 1007);
		if (i % 2 == 0)	/* every other child lives on */
			continue;
		put_task(s, PERF_RECORD_EXIT, 1000 + i, 100);
	}
	int lost = 0, kept = 0, freed = 0;
	for (uint32_t i = 1; i <= 5000; i++) {
		int known = sym_comm_known(s, (int32_t)(1000 + i));
		if (i % 2 == 0 || i > 5000 - 2 * 1024)
			lost += !known;		/* alive, or exited within the grace */
		else if (i == 7)
			kept += known;
		else
			freed += !known;
	}
	CU_ASSERT_EQUAL(lost, 0);
	CU_ASSERT_EQUAL(kept, 1);
	CU_ASSERT_EQUAL(freed, (5000 - 2 * 1024) / 2 - 1);
	CU_ASSERT(sym_comm_known(s, 100));
	sym_close(s);
}

static const struct cu_test tests[] = {
	{ "exited processes are freed unless pinned", test_exited_freed },
	{ "symbol table tie-breaks", test_tab_tiebreaks },
	{ "symbol table page index", test_tab_index },
	{ "this process", test_self },
	{ "libc", test_libc },
	{ "symtarget", test_symtarget },
	{ "inlined frame", test_inline },
	{ "stripped + debuglink", test_debuglink },
	{ "stripped + build-id dir", test_buildid_dir },
	{ "deleted binary", test_deleted },
	{ "binary in another mount namespace", test_container },
	{ "exited process from records", test_exited },
	{ "process noted at its first sample", test_note_pid },
	{ "records naming a replaced file", test_stale_file },
	{ "functions for probes", test_user_funcs },
	{ "perf JIT map", test_perf_map },
	{ "vdso", test_vdso },
	{ "kernel: /proc/kallsyms", test_kernel_live },
	{ "kernel: modules and tie-breaks", test_kernel_synthetic },
	{ "kernel: kptr_restrict", test_kptr_restrict },
	{ "kernel: module loaded later", test_kernel_reload },
	{ "kernel: KASLR offset of a recording", test_kernel_kaslr },
	{ "garbage", test_garbage },
	{ "corrupt copies", test_corrupt_copies },
	{ "overlapping maps", test_map_overlap },
	{ "address cache", test_cache },
	{ NULL, NULL },
};

CU_MAIN("symbolizer", tests)

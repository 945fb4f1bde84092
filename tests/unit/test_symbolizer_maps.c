/*
 * test_symbolizer_maps.c — process address maps built from MMAP2 records:
 * overlapping mappings split the old ones, later mappings append, and the
 * map table never outgrows its allocation (a regression: after a split the
 * table claimed more room than it had, and appends corrupted the heap).
 */
#include <stdlib.h>
#include <string.h>

#include "symbolizer/symbolizer.h"
#include "tests/unit/cu.h"

struct mmap2_rec {
	struct perf_event_header h;
	uint32_t pid, tid;
	uint64_t addr, len, pgoff;
	uint32_t maj, min;
	uint64_t ino, ino_generation;
	uint32_t prot, flags;
	char filename[64];
};

static void
note_mmap(struct sym_session *s, int32_t pid, uint64_t addr, uint64_t len, const char *path)
{
	struct mmap2_rec r;
	memset(&r, 0, sizeof(r));
	r.h.type = PERF_RECORD_MMAP2;
	r.h.size = sizeof(r);
	r.pid = r.tid = (uint32_t)pid;
	r.addr = addr;
	r.len = len;
	r.prot = 5;	/* r-x */
	snprintf(r.filename, sizeof(r.filename), "%s", path);
	sym_note_record(s, &r.h);
}

static void
test_split_then_append(void)
{
	int err = 0;
	struct sym_session *s = sym_open(&err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	const int32_t pid = 999991;	/* records only: no such process */
	note_mmap(s, pid, 0x10000, 0x40000, "/nonexistent/liba.so");
	/* splits liba in two around libb */
	note_mmap(s, pid, 0x20000, 0x10000, "/nonexistent/libb.so");
	for (int i = 0; i < 40; i++)
		note_mmap(s, pid, 0x100000 + (uint64_t)i * 0x10000, 0x8000, "/nonexistent/libc.so");
	char buf[256];
	/* the mappings are known even though the files are not */
	CU_ASSERT(sym_user(s, pid, 0x10010, SYM_MOD, buf, sizeof(buf)) > 0);
	CU_ASSERT_STRING_EQUAL(buf, "liba.so");
	CU_ASSERT(sym_user(s, pid, 0x20010, SYM_MOD, buf, sizeof(buf)) > 0);
	CU_ASSERT_STRING_EQUAL(buf, "libb.so");
	CU_ASSERT(sym_user(s, pid, 0x30010, SYM_MOD, buf, sizeof(buf)) > 0);
	CU_ASSERT_STRING_EQUAL(buf, "liba.so");
	CU_ASSERT(sym_user(s, pid, 0x100000 + 39 * 0x10000 + 8, SYM_MOD, buf, sizeof(buf)) > 0);
	CU_ASSERT_STRING_EQUAL(buf, "libc.so");
	CU_ASSERT_EQUAL(sym_user(s, pid, 0x100000 + 0x9000, SYM_MOD, buf, sizeof(buf)), -1);
	sym_close(s);
}

static const struct cu_test tests[] = {
	{ "split then append", test_split_then_append },
	{ NULL, NULL },
};

CU_MAIN("symbolizer_maps", tests)

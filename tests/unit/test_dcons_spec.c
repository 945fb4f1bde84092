/*
 * test_dcons_spec.c — speculation buffers: speculate, commit, discard,
 * the specsize limit and DTrace's drop messages.
 */
#include <stdlib.h>
#include <string.h>

#include "cu.h"
#include "dcons/dspec.h"

#include "memout.h"

static void
clause(dspec_t *sp, uint32_t id, const char *text)
{
	int err = 0;
	FILE *fp = dspec_speculate(sp, id, &err);

	CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
	fputs(text, fp);
	dspec_clause_end(sp);
}

static void
test_commit_discard(void)
{
	dspec_t *sp = dspec_create(2, 1024, "pmctrace", NULL);
	uint32_t a = dspec_speculation(sp), b = dspec_speculation(sp);
	FILE *out;

	CU_ASSERT_EQUAL(a, 1);
	CU_ASSERT_EQUAL(b, 2);
	clause(sp, a, "one ");
	clause(sp, b, "two ");
	clause(sp, a, "three\n");
	out = mem_open();
	CU_ASSERT_EQUAL(dspec_discard(sp, b), 0);
	CU_ASSERT_EQUAL(dspec_commit(sp, a, out), 0);
	/* committed and discarded ids are free again */
	CU_ASSERT_EQUAL(dspec_speculation(sp), 1);
	CU_ASSERT_STRING_EQUAL(mem_close(out), "one three\n");
	/* speculating on an inactive id or 0 drops the text silently */
	clause(sp, 2, "lost");
	clause(sp, 0, "lost");
	out = mem_open();
	dspec_commit(sp, 2, out);
	dspec_commit(sp, 1, out);
	CU_ASSERT_STRING_EQUAL(mem_close(out), "");
	dspec_destroy(sp);
}

static void
test_limits_and_messages(void)
{
	dspec_t *sp = dspec_create(1, 10, "dtrace", NULL);
	uint32_t a = dspec_speculation(sp);
	int err = 0;
	FILE *out;

	CU_ASSERT_EQUAL(dspec_speculation(sp), 0);
	CU_ASSERT_EQUAL(dspec_speculation(sp), 0);
	clause(sp, a, "12345");
	clause(sp, a, "123456");	/* would exceed 10 bytes: dropped */
	clause(sp, a, "6789");
	out = mem_open();
	dspec_commit(sp, a, out);
	CU_ASSERT_STRING_EQUAL(mem_close(out), "123456789");
	CU_ASSERT_PTR_NULL(dspec_speculate(sp, 5, &err));
	CU_ASSERT_EQUAL(err, -EINVAL);
	out = mem_open();
	dspec_report_drops(sp, out);
	CU_ASSERT_STRING_EQUAL(mem_close(out), "dtrace: 1 speculative drop\n"
	    "dtrace: 2 failed speculations (no speculative buffer "
	    "available)\n");
	out = mem_open();
	dspec_report_drops(sp, out);
	CU_ASSERT_STRING_EQUAL(mem_close(out), "");
	dspec_destroy(sp);
}

static const struct cu_test tests[] = {
	{ "commit and discard", test_commit_discard },
	{ "limits and messages", test_limits_and_messages },
	{ NULL, NULL }
};

CU_MAIN("dcons_spec", tests)

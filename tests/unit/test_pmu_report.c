/*
 * test_pmu_report.c — hardware probing, the no-PMU statement, and the
 * --hw report in text and JSON.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pmu/pmu_impl.h"
#include "tests/unit/cu.h"

#define SW_HINT "software counters work: cpu-clock, task-clock, page-faults, context-switches"

static char *
report(struct pmu_ctx *p, int json)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_EQUAL(pmu_hw_report(p, f, json), 0);
	fclose(f);
	return buf;
}

/*
 * A structural JSON check: strings with escapes, numbers, literals,
 * objects with "key": value pairs, arrays; nothing after the top value.
 */
static const char *json_value(const char *s);

static const char *
json_ws(const char *s)
{
	while (*s && isspace((unsigned char)*s))
		s++;
	return s;
}

static const char *
json_string(const char *s)
{
	if (*s != '"')
		return NULL;
	for (s++; *s && *s != '"'; s++) {
		if ((unsigned char)*s < 0x20)
			return NULL;
		if (*s == '\\' && !*++s)
			return NULL;
	}
	return *s == '"' ? s + 1 : NULL;
}

static const char *
json_seq(const char *s, char close, int keyed)
{
	s = json_ws(s + 1);
	if (*s == close)
		return s + 1;
	for (;;) {
		if (keyed) {
			s = json_string(json_ws(s));
			if (!s || *(s = json_ws(s)) != ':')
				return NULL;
			s++;
		}
		s = json_value(s);
		if (!s)
			return NULL;
		s = json_ws(s);
		if (*s == close)
			return s + 1;
		if (*s++ != ',')
			return NULL;
	}
}

static const char *
json_value(const char *s)
{
	s = json_ws(s);
	if (*s == '{')
		return json_seq(s, '}', 1);
	if (*s == '[')
		return json_seq(s, ']', 0);
	if (*s == '"')
		return json_string(s);
	if (strncmp(s, "true", 4) == 0 || strncmp(s, "null", 4) == 0)
		return s + 4;
	if (strncmp(s, "false", 5) == 0)
		return s + 5;
	if (*s == '-' || isdigit((unsigned char)*s)) {
		s += *s == '-';
		while (isdigit((unsigned char)*s))
			s++;
		return s;
	}
	return NULL;
}

static int
json_valid(const char *s)
{
	const char *end = json_value(s);
	return end && *json_ws(end) == '\0';
}

static void
test_json_checker_can_fail(void)
{
	CU_ASSERT_TRUE(json_valid("{\"a\": [1, true, \"x\\\"\"], \"b\": {}}"));
	CU_ASSERT_FALSE(json_valid("{\"a\": 1,}"));
	CU_ASSERT_FALSE(json_valid("{\"a\" 1}"));
	CU_ASSERT_FALSE(json_valid("{\"a\": 1} x"));
}

static void
test_hw_available_is_cached(void)
{
	int e;
	struct pmu_ctx *p = pmu_open(NULL, NULL, &e);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	int a = pmu_hw_available(p);
	CU_ASSERT_TRUE(a == 0 || a == 1);
	CU_ASSERT_EQUAL(pmu_hw_available(p), a);
	CU_ASSERT_EQUAL(pmu_hw_available(NULL), 0);
	pmu_close(p);
}

static void
test_explain_unavailable(void)
{
	int e;
	char buf[1024], tiny[16];
	struct pmu_ctx *p = pmu_open(NULL, NULL, &e);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	int n = pmu_explain_unavailable(p, "branchmispredictions", buf, sizeof(buf));
	CU_ASSERT_EQUAL((size_t)n, strlen(buf));
	CU_ASSERT_EQUAL(strncmp(buf, "branchmispredictions needs a hardware PMU", 41), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, SW_HINT));
	char kpmu[64];
	if (!pmu_kernel_core_pmu(kpmu, sizeof(kpmu)))
		CU_ASSERT_PTR_NOT_NULL(strstr(buf, "and none is exposed here ("));
	/* truncation is safe and reports the full length */
	int m = pmu_explain_unavailable(p, "branchmispredictions", tiny, sizeof(tiny));
	CU_ASSERT_EQUAL(m, n);
	CU_ASSERT_EQUAL(strlen(tiny), sizeof(tiny) - 1);
	CU_ASSERT_EQUAL(pmu_explain_unavailable(p, "x", NULL, 0), 0);
	pmu_close(p);
}

static void
test_report_text(void)
{
	int e;
	struct pmu_ctx *p = pmu_open(NULL, NULL, &e);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	char *t = report(p, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(t, "\nHardware counters\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(t, "perf_event_paranoid: "));
	CU_ASSERT_PTR_NOT_NULL(strstr(t, "CAP_PERFMON: "));
	CU_ASSERT_PTR_NOT_NULL(strstr(t, "tracefs_mounted: "));
	CU_ASSERT_PTR_NOT_NULL(strstr(t, "tracepoint_groups: "));
	CU_ASSERT_PTR_NOT_NULL(strstr(t, "uprobes: "));
	CU_ASSERT_PTR_NOT_NULL(strstr(t, "bpf: "));
	CU_ASSERT_PTR_NOT_NULL(strstr(t, "general_purpose_source: "));
	CU_ASSERT_PTR_NOT_NULL(strstr(t, "  cpu-clock  opens=yes"));
	CU_ASSERT_PTR_NOT_NULL(strstr(t, "\nWhat you can do\n"));
	if (!pmu_hw_available(p)) {
		CU_ASSERT_PTR_NOT_NULL(strstr(t, "available: no"));
		CU_ASSERT_PTR_NOT_NULL(strstr(t, SW_HINT));
		CU_ASSERT_PTR_NOT_NULL(strstr(t, "  - meanwhile use the software counters"));
	}
	/* every friendly alias has a line saying whether it resolves */
	for (int i = 0; i < hwdb_naliases; i++) {
		char needle[96];
		snprintf(needle, sizeof(needle), "\n  %s  resolves=", hwdb_aliases[i].ha_name);
		CU_ASSERT_PTR_NOT_NULL(strstr(t, needle));
	}
	free(t);
	pmu_close(p);
}

static void
test_report_json(void)
{
	int e;
	struct pmu_ctx *p = pmu_open(NULL, NULL, &e);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	char *j = report(p, 1);
	CU_ASSERT_TRUE(json_valid(j));
	static const char *const keys[] = {
		"\"hardware_counters\": {", "\"cpu\": {", "\"kernel_pmus\": [", "\"libpfm4\": {",
		"\"budget\": {", "\"permissions\": {", "\"tracing\": {",
		"\"software_events\": [", "\"aliases\": [", "\"statement\": \"", "\"advice\": [",
	};
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		CU_ASSERT_PTR_NOT_NULL(strstr(j, keys[i]));
	CU_ASSERT_PTR_NOT_NULL(strstr(j, pmu_hw_available(p) ? "\"available\": true" :
	    "\"available\": false"));
	free(j);
	pmu_close(p);
}

/* A simulated model's budget shows in the report, with its source. */
static void
test_report_forced(void)
{
	int e;
	setenv("LIBPFM_FORCE_PMU", "amd64_fam19h_zen3", 1);
	struct pmu_ctx *p = pmu_open(NULL, NULL, &e);
	unsetenv("LIBPFM_FORCE_PMU");
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	char *j = report(p, 1);
	CU_ASSERT_TRUE(json_valid(j));
	CU_ASSERT_PTR_NOT_NULL(strstr(j, "\"model\": \"AMD Zen 3\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(j, "\"simulated\": true"));
	CU_ASSERT_PTR_NOT_NULL(strstr(j, "\"general_purpose\": 6"));
	/* a named model's report: its tables, nothing of this machine's */
	CU_ASSERT_PTR_NOT_NULL(strstr(j, "\"libpfm4_pmu\": \"amd64_fam19h_zen3\""));
	CU_ASSERT_PTR_NULL(strstr(j, "\"kernel_pmus\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(j, "AMD PPR for Family 19h Model 01h"));
	free(j);
	CU_ASSERT_EQUAL(pmu_hw_report(p, NULL, 0), -EINVAL);
	CU_ASSERT_EQUAL(pmu_hw_report(NULL, stdout, 0), -EINVAL);
	pmu_close(p);
}

static const struct cu_test tests[] = {
	{ "json_checker_can_fail", test_json_checker_can_fail },
	{ "hw_available_is_cached", test_hw_available_is_cached },
	{ "explain_unavailable", test_explain_unavailable },
	{ "report_text", test_report_text },
	{ "report_json", test_report_json },
	{ "report_forced", test_report_forced },
	{ NULL, NULL }
};

CU_MAIN("pmu_report", tests)

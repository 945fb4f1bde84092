/*
 * hwdb.h — the tables pmu/hwdb_gen.sh generates from the hwdb/ text files (private to
 * pmu/).  Read-only data; every row carries the source its comment named
 * and the file:line it came from, so a report can cite it.
 */
#ifndef PMCTRACE_PMU_HWDB_H
#define PMCTRACE_PMU_HWDB_H

struct hwdb_budget {
	const char *hb_id;		/* short name, used as alias scope */
	const char *hb_match;		/* "pfm=skl caps=skylake dev=... arm=0xd0c" */
	const char *hb_vendor;		/* intel, amd, arm */
	int hb_gp;			/* general-purpose counters, SMT off */
	int hb_gp_smt;			/* the same with SMT on */
	int hb_fixed;			/* fixed counters */
	const char *hb_fixed_events;	/* "0x00c0/instructions 0x003c/cycles" or "" */
	const char *hb_name;		/* "Intel Skylake" */
	const char *hb_source;		/* the entry's comment */
	const char *hb_where;		/* "hwdb/budgets.txt:30" */
};

struct hwdb_alias {
	const char *ha_scope;		/* "*", vendor or budget id */
	const char *ha_name;		/* lower case */
	const char *ha_target;		/* generic, libpfm4, rHEX or "none" */
	int ha_fixed;			/* must sit on a fixed counter */
	const char *ha_source;
	const char *ha_where;
};

/* An event the vendor allows only on some general-purpose counters. */
struct hwdb_constraint {
	const char *hc_budget;		/* budget id */
	unsigned long long hc_config;	/* raw config bits that name the event */
	unsigned long long hc_mask;	/* which bits of the config to compare */
	unsigned long long hc_counters;	/* allowed counters, bit i = counter i */
	const char *hc_source;
	const char *hc_where;
};

extern const struct hwdb_budget hwdb_budgets[];
extern const int hwdb_nbudgets;
extern const struct hwdb_alias hwdb_aliases[];
extern const int hwdb_naliases;
extern const struct hwdb_constraint hwdb_constraints[];
extern const int hwdb_nconstraints;

#endif

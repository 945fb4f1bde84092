/*
 * tracefs.h — kernel tracepoints for the providers: an event's id and
 * field layout read from tracefs (tracefs.c), a field read out of a
 * sample's raw payload, and the perf event that samples a tracepoint on
 * every CPU.  int functions return 0 (or an evidx) or -1 with the
 * registry's error set.
 */
#ifndef PMCTRACE_TRACEFS_H
#define PMCTRACE_TRACEFS_H

#include "providers/prov_kit.h"

struct prov_tp_field {
	char name[48];
	uint16_t offset, size;
	uint8_t is_signed, is_string;	/* char name[N] arrays are strings */
	uint8_t is_dataloc;		/* __data_loc: u32 = len << 16 | offset */
};
struct prov_tp {
	char system[32], event[64];
	char name[100];			/* "system:event"; lives as long as tp */
	uint64_t id;
	int nfields;
	struct prov_tp_field fields[40];
};
int prov_tp_load(struct prov_registry *r, const char *system, const char *event,
    struct prov_tp *tp);
const struct prov_tp_field *prov_tp_field(const struct prov_tp *tp, const char *name);
uint64_t prov_tp_uint(const struct prov_tp_field *f, const void *raw, uint32_t rawsize);
/* A string field (fixed array or __data_loc) copied NUL-terminated. */
const char *prov_tp_str(const struct prov_tp_field *f, const void *raw,
    uint32_t rawsize, char *buf, size_t len);
/* Tracepoint event attr with the sample_type every tracepoint probe uses. */
void prov_tp_attr(const struct prov_tp *tp, struct perf_event_attr *attr, int callchain);

/* Add a tracepoint event on every CPU owned by ops with the given cookie;
 * returns its evidx or -1 with the error set. */
int prov_tp_add(struct prov_registry *r, struct smp_session *s, const struct prov_ops *ops,
    const struct prov_tp *tp, uint64_t cookie, int leader, int with_read);
/* As prov_tp_add, with the user stack pointer and stack_bytes of the user
 * stack from it in every sample (copyin/copyinstr read them: the traced
 * memory as it was when the event fired). */
int prov_tp_add_ustack(struct prov_registry *r, struct smp_session *s, const struct prov_ops *ops,
    const struct prov_tp *tp, uint64_t cookie, uint32_t stack_bytes);

#endif

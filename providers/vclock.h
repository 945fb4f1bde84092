/*
 * vclock.h — D's vtimestamp: each thread's time on CPU, kept from the
 * kernel's context-switch records (PERF_RECORD_SWITCH_CPU_WIDE).
 *
 * The records arrive in time order (the ordered merge); vclock_switch()
 * takes each one, vclock_at() answers "how long had this thread been on
 * CPU at this instant" for a firing on that CPU.  A thread is counted
 * from the first switch (or firing) seen for it, so values start near
 * zero for threads that ran before tracing began: differences between two
 * firings of one thread, the way vtimestamp is used, are exact to the
 * records' precision.  Internal to providers/; single-threaded.
 */
#ifndef PMCTRACE_VCLOCK_H
#define PMCTRACE_VCLOCK_H

#include <stdint.h>

struct vclock;

struct vclock *vclock_open(void);
void vclock_close(struct vclock *vc);

/* A switch on cpu at time ns: tid arrives (in != 0) or leaves. */
void vclock_switch(struct vclock *vc, uint32_t cpu, int32_t tid, uint64_t ns, int in);

/* tid's time on CPU at ns, for a firing on cpu. */
uint64_t vclock_at(struct vclock *vc, uint32_t cpu, int32_t tid, uint64_t ns);

#endif

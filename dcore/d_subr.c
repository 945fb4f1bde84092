/*
 * d_subr.c — subroutines: strings, copyin, byte order, addresses.
 *
 * Each subroutine takes its arguments from r[0..n-1] and leaves its value
 * in *out.  String results are built in the firing's scratch space, never
 * longer than strsize - 1 characters (DTrace truncates; it does not fault).
 * Reads of the traced process (copyin, copyinstr, copyinto) use
 * process_vm_readv; a failed read is an "invalid address" fault naming the
 * address, as DTrace reports a user fault.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include "dcore/d_impl.h"

static size_t
strsz(struct d_vm *vm)
{
	return (size_t)vm->vm_dh->dh_opt[O_STRSIZE];
}

static const char *
sarg(uint64_t v)
{
	const char *s = (const char *)(uintptr_t)v;
	return s ? s : "";
}

static char *
snew(struct d_vm *vm, int *fault)
{
	char *p = d_vm_scratch(vm, strsz(vm));
	if (!p)
		*fault = DF_NOSCRATCH;
	else
		p[0] = '\0';
	return p;
}

/* substr(s, index[, length]) with DTrace's negative index and length. */
static void
s_substr(struct d_vm *vm, const char *s, int64_t index, int64_t remaining, bool haslen, char *d)
{
	int64_t size = (int64_t)strsz(vm);
	int64_t len = (int64_t)strnlen(s, (size_t)size - 1);
	if (!haslen)
		remaining = size;
	if (index < 0) {
		index += len;
		if (index < 0 && index + remaining > 0) {
			remaining += index;
			index = 0;
		}
	}
	if (index >= len || index < 0)
		remaining = 0;
	else if (remaining < 0)
		remaining += len - index;
	else if (index + remaining > size)
		remaining = size - index;
	if (remaining > len - index)
		remaining = len - index;
	if (remaining < 0)
		remaining = 0;
	memcpy(d, s + index, (size_t)remaining);
	d[remaining] = '\0';
}

/* index()/rindex() with perl's rules for the start position, as DTrace's
 * tests check them: index clamps it to [0, len], rindex to [.., len]. */
static int64_t
s_index(const char *s, const char *t, int64_t start, bool hasstart, bool rev, size_t max)
{
	int64_t len = (int64_t)strnlen(s, max - 1), tl = (int64_t)strnlen(t, max - 1);
	if (!rev) {
		if (!hasstart || start < 0)
			start = 0;
		if (start > len)
			start = len;
		for (int64_t i = start; i + tl <= len; i++)
			if (strncmp(s + i, t, (size_t)tl) == 0)
				return i;
		return -1;
	}
	if (!hasstart || start > len)
		start = len;
	if (start < 0)
		return tl == 0 ? 0 : -1;
	if (start > len - tl)
		start = len - tl;
	for (int64_t i = start; i >= 0; i--)
		if (strncmp(s + i, t, (size_t)tl) == 0)
			return i;
	return -1;
}

static void
s_basename(const char *s, char *d, size_t max, bool dir)
{
	size_t len = strnlen(s, max - 1);
	while (len > 1 && s[len - 1] == '/')
		len--;
	if (len == 0) {
		strcpy(d, ".");
		return;
	}
	size_t start = len;
	while (start > 0 && s[start - 1] != '/')
		start--;
	if (!dir) {
		if (len == 1 && s[0] == '/') {
			strcpy(d, "/");
			return;
		}
		memcpy(d, s + start, len - start);
		d[len - start] = '\0';
		return;
	}
	if (start == 0) {
		strcpy(d, ".");
		return;
	}
	size_t end = start;
	while (end > 1 && s[end - 1] == '/')
		end--;
	memcpy(d, s, end);
	d[end] = '\0';
}

/* cleanpath: DTrace's scan, quirks included: "//" and "/./" are dropped,
 * "/.." backs up to the previous '/' ("/../a" is "/a", "a/.." is "a"),
 * and the result stops short when fewer than 5 bytes of room are left. */
static void
s_cleanpath(const char *s, char *d, size_t max)
{
	size_t len = strnlen(s, max - 1), i = 0, j = 0;
	char c;
#define CP_LOAD() (i < len ? s[i++] : (i++, '\0'))
	do {
		c = CP_LOAD();
next:
		if (j + 5 >= max)
			break;
		if (c != '/') {
			d[j++] = c;
			continue;
		}
		c = CP_LOAD();
		if (c == '/')
			goto next;
		if (c != '.') {
			d[j++] = '/';
			d[j++] = c;
			continue;
		}
		c = CP_LOAD();
		if (c == '/')
			goto next;
		if (c != '.') {
			d[j++] = '/';
			d[j++] = '.';
			d[j++] = c;
			continue;
		}
		c = CP_LOAD();
		if (c != '/' && c != '\0') {
			d[j++] = '/';
			d[j++] = '.';
			d[j++] = '.';
			d[j++] = c;
			continue;
		}
		i--;	/* "/../" or "/..\0": back up to the last '/' */
		while (j != 0 && d[--j] != '/')
			continue;
		if (c == '\0')
			d[++j] = '/';
	} while (c != '\0');
#undef CP_LOAD
	d[j] = '\0';
}

/* strtoll(s[, base]): DTrace's own scan — blanks, a sign, "0x" only in
 * base 16, then digits of the base; no base prefix otherwise (base 10). */
static int64_t
s_strtoll(const char *s, int base, size_t max)
{
	size_t i = 0, len = strnlen(s, max);
	bool neg = false;
	int64_t v = 0;
	while (i < len && (s[i] == ' ' || s[i] == '\t'))
		i++;
	if (i < len && (s[i] == '-' || s[i] == '+'))
		neg = s[i++] == '-';
	if (base == 16 && i + 2 < len && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X') &&
	    isxdigit((unsigned char)s[i + 2]))
		i += 2;
	for (; i < len && isalnum((unsigned char)s[i]); i++) {
		int c = tolower((unsigned char)s[i]);
		int x = isdigit(c) ? c - '0' : c - 'a' + 10;
		if (x >= base)
			break;
		v = (int64_t)((uint64_t)v * (uint64_t)base + (uint64_t)x);
	}
	return neg ? (int64_t)(0 - (uint64_t)v) : v;
}

/* lltostr(v[, base]): base 2..36; hexadecimal gets "0x", octal and zero
 * a leading "0", and only base 10 is signed — DTrace's rules. */
static void
s_lltostr(int64_t v, int base, char *d)
{
	char tmp[80];
	int n = 0;
	bool neg = v < 0 && base == 10;
	uint64_t u = neg ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
	for (; u; u /= (uint64_t)base) {
		int dig = (int)(u % (uint64_t)base);
		tmp[n++] = (char)(dig < 10 ? '0' + dig : 'a' + dig - 10);
	}
	if (v == 0 && base == 16)
		tmp[n++] = '0';
	if (base == 16)
		tmp[n++] = 'x';
	if (v == 0 || base == 8 || base == 16)
		tmp[n++] = '0';
	if (neg)
		tmp[n++] = '-';
	int j = 0;
	while (n > 0)
		d[j++] = tmp[--n];
	d[j] = '\0';
}

/* Bytes of [addr, addr+len) in the firing's user-stack snapshot, or 0. */
static size_t
s_snapshot(struct d_vm *vm, uint64_t addr, size_t len, const char **src)
{
	const struct d_firing *f = vm->vm_f;
	if (!f->df_ustackmem || addr < f->df_ustackbase || addr - f->df_ustackbase >= f->df_ustacklen)
		return 0;
	size_t off = (size_t)(addr - f->df_ustackbase);
	*src = (const char *)f->df_ustackmem + off;
	return len < f->df_ustacklen - off ? len : f->df_ustacklen - off;
}

/* Read the traced process's memory (the firing's pid): from the stack
 * snapshot taken with the sample when it covers the range, else live. */
static int
s_uread(struct d_vm *vm, uint64_t addr, void *dst, size_t len)
{
	const char *snap;
	if (len == 0)
		return 0;
	if (s_snapshot(vm, addr, len, &snap) == len) {
		memcpy(dst, snap, len);
		return 0;
	}
	struct iovec local = { dst, len };
	struct iovec remote = { (void *)(uintptr_t)addr, len };
	ssize_t n = process_vm_readv(vm->vm_f->df_pid, &local, 1, &remote, 1, 0);
	if (n != (ssize_t)len) {
		vm->vm_faddr = addr;
		return DF_BADADDR;
	}
	return 0;
}

/* copyinstr: page by page, so a string near the end of a mapping works. */
static int
s_ureadstr(struct d_vm *vm, uint64_t addr, char *dst, size_t max)
{
	size_t got = 0;
	const char *snap;
	size_t sn = s_snapshot(vm, addr, max - 1, &snap);
	if (sn) {
		const char *nul = memchr(snap, '\0', sn);
		size_t l = nul ? (size_t)(nul - snap) : sn;
		memcpy(dst, snap, l);
		dst[l] = '\0';
		if (nul || l == max - 1)
			return 0;
		got = l;	/* the rest lies beyond the snapshot */
	}
	while (got < max - 1) {
		uint64_t a = addr + got;
		size_t chunk = 4096 - (size_t)(a & 4095);
		if (chunk > max - 1 - got)
			chunk = max - 1 - got;
		struct iovec local = { dst + got, chunk };
		struct iovec remote = { (void *)(uintptr_t)a, chunk };
		ssize_t n = process_vm_readv(vm->vm_f->df_pid, &local, 1, &remote, 1, 0);
		if (n <= 0) {
			if (got == 0) {
				vm->vm_faddr = a;
				return DF_BADADDR;
			}
			break;
		}
		if (memchr(dst + got, '\0', (size_t)n))
			return 0;
		got += (size_t)n;
	}
	dst[got] = '\0';
	return 0;
}

static int
s_progenyof(struct d_vm *vm, int32_t anc)
{
	const struct d_firing *f = vm->vm_f;
	int32_t pid = f->df_pid;
	for (int depth = 0; depth < 256 && pid > 0; depth++) {
		if (pid == anc)
			return 1;
		struct d_procinfo pi;
		memset(&pi, 0, sizeof(pi));
		int (*get)(void *, int32_t, struct d_procinfo *) = f->df_procinfo ? f->df_procinfo : d_proc_read;
		if (get(f->df_procinfo_ctx, pid, &pi) != 0)
			return 0;
		if (pi.pi_ppid == pid)
			return 0;
		pid = pi.pi_ppid;
	}
	return 0;
}

/* stringof(pointer): the text at a D address, checked byte by byte. */
static int
s_stringof(struct d_vm *vm, uint64_t a, uint64_t *out)
{
	int fault = 0;
	if (a == 0) {
		*out = 0;
		return 0;
	}
	if (!d_vm_addr_rd(vm, (uintptr_t)a, 1)) {
		vm->vm_faddr = a;
		return DF_BADADDR;
	}
	char *d = snew(vm, &fault);
	if (!d)
		return fault;
	size_t max = strsz(vm), i = 0;
	const char *s = (const char *)(uintptr_t)a;
	for (; i + 1 < max && d_vm_addr_rd(vm, (uintptr_t)(s + i), 1) && s[i]; i++)
		d[i] = s[i];
	d[i] = '\0';
	*out = (uint64_t)(uintptr_t)d;
	return 0;
}

static uint64_t
s_rand(struct d_vm *vm)
{
	uint64_t x = vm->vm_dh->dh_rand;
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	vm->vm_dh->dh_rand = x;
	return (uint64_t)(int64_t)(int32_t)(x >> 16);
}

static int
s_inet(struct d_vm *vm, int af, uint64_t addr, uint64_t *out)
{
	int fault = 0;
	size_t n = af == AF_INET6 ? 16 : 4;
	if (af != AF_INET && af != AF_INET6)
		return DF_ILLOP;
	if (!d_vm_addr_rd(vm, (uintptr_t)addr, n)) {
		vm->vm_faddr = addr;
		return DF_BADADDR;
	}
	char *d = snew(vm, &fault);
	if (!d)
		return fault;
	uint8_t buf[16];
	memcpy(buf, (const void *)(uintptr_t)addr, n);
	if (!inet_ntop(af, buf, d, (socklen_t)strsz(vm)))
		d[0] = '\0';
	*out = (uint64_t)(uintptr_t)d;
	return 0;
}

static int
s_string(struct d_vm *vm, int func, uint64_t *r, int nargs, uint64_t *out)
{
	int fault = 0;
	size_t max = strsz(vm);
	char *d = snew(vm, &fault);
	if (!d)
		return fault;
	const char *s = sarg(r[0]);
	switch (func) {
	case F_STRJOIN: {
		size_t a = strnlen(s, max - 1);
		size_t b = strnlen(sarg(r[1]), max - 1 - a);
		memcpy(d, s, a);
		memcpy(d + a, sarg(r[1]), b);
		d[a + b] = '\0';
		break;
	}
	case F_SUBSTR:
		s_substr(vm, s, (int64_t)r[1], nargs > 2 ? (int64_t)r[2] : 0, nargs > 2, d);
		break;
	case F_LLTOSTR: {
		int64_t base = nargs > 1 ? (int64_t)r[1] : 10;
		if (base <= 1 || base > 36)
			return DF_ILLOP;
		s_lltostr((int64_t)r[0], (int)base, d);
		break;
	}
	case F_BASENAME:
	case F_DIRNAME:
		s_basename(s, d, max, func == F_DIRNAME);
		break;
	case F_CLEANPATH:
		s_cleanpath(s, d, max);
		break;
	case F_TOUPPER:
	case F_TOLOWER: {
		size_t i = 0;
		for (; i + 1 < max && s[i]; i++)
			d[i] = (char)(func == F_TOUPPER ? toupper((unsigned char)s[i]) : tolower((unsigned char)s[i]));
		d[i] = '\0';
		break;
	}
	case F_COPYINSTR: {
		size_t lim = max;
		if (nargs > 1 && r[1] + 1 < lim)
			lim = (size_t)r[1] + 1;
		fault = s_ureadstr(vm, r[0], d, lim);
		break;
	}
	default:
		return DF_ILLOP;
	}
	*out = (uint64_t)(uintptr_t)d;
	return fault;
}

/* strtok(s, delims): s == NULL continues the previous string. */
static int
s_strtok(struct d_vm *vm, uint64_t *r, uint64_t *out)
{
	int fault = 0;
	const char *s = (const char *)(uintptr_t)r[0];
	const char *delim = sarg(r[1]);
	if (!s)
		s = vm->vm_strtok;
	if (!s) {
		*out = 0;
		return 0;
	}
	s += strspn(s, delim);
	if (!*s) {
		vm->vm_strtok = NULL;
		*out = 0;
		return 0;
	}
	size_t n = strcspn(s, delim);
	char *d = snew(vm, &fault);
	if (!d)
		return fault;
	if (n > strsz(vm) - 1)
		n = strsz(vm) - 1;
	memcpy(d, s, n);
	d[n] = '\0';
	vm->vm_strtok = s[n] ? s + n + 1 : NULL;
	*out = (uint64_t)(uintptr_t)d;
	return 0;
}

/* The string subroutines: s is the first argument as a string. */
static int
s_strsubr(struct d_vm *vm, int func, uint64_t *r, int nargs, uint64_t *out)
{
	size_t max = strsz(vm);
	const char *s = sarg(r[0]);
	switch (func) {
	case D_SUBR_STRINGOF:
		return s_stringof(vm, r[0], out);
	case D_SUBR_STRCHAR:	/* past the end reads the NUL, as a string ends */
		*out = r[1] < strnlen(s, max - 1) ? (uint64_t)(int64_t)s[r[1]] : 0;
		return 0;
	case F_STRLEN:
		*out = strnlen(s, max - 1);
		return 0;
	case F_INDEX:
	case F_RINDEX:
		*out = (uint64_t)s_index(s, sarg(r[1]), nargs > 2 ? (int64_t)r[2] : 0, nargs > 2, func == F_RINDEX, max);
		return 0;
	case F_STRCHR:
	case F_STRRCHR: {
		size_t len = strnlen(s, max - 1);
		const char *p = NULL;
		for (size_t i = 0; i < len; i++)
			if (s[i] == (char)r[1]) {
				p = s + i;
				if (func == F_STRCHR)
					break;
			}
		*out = (uint64_t)(uintptr_t)p;
		return 0;
	}
	case F_STRSTR: {
		int64_t i = s_index(s, sarg(r[1]), 0, false, false, max);
		*out = i < 0 ? 0 : (uint64_t)(uintptr_t)(s + i);
		return 0;
	}
	case F_STRTOK:
		return s_strtok(vm, r, out);
	case F_STRJOIN: case F_SUBSTR: case F_LLTOSTR: case F_BASENAME:
	case F_DIRNAME: case F_CLEANPATH: case F_TOUPPER: case F_TOLOWER:
	case F_COPYINSTR:
		return s_string(vm, func, r, nargs, out);
	case F_STRTOLL:
		if (nargs > 1 && ((int64_t)r[1] <= 1 || (int64_t)r[1] > 36))
			return DF_ILLOP;
		*out = (uint64_t)s_strtoll(s, nargs > 1 ? (int)r[1] : 10, max);
		return 0;
	default:
		return DF_ILLOP;
	}
}

/* The subroutines that copy or hand out memory. */
static int
s_memsubr(struct d_vm *vm, int func, uint64_t *r, uint64_t *out)
{
	int fault = 0;
	switch (func) {
	case F_COPYIN: {
		char *d = d_vm_scratch(vm, (size_t)r[1] ? (size_t)r[1] : 1);
		if (!d || r[1] > (uint64_t)vm->vm_scratch_size)
			return DF_NOSCRATCH;
		fault = s_uread(vm, r[0], d, (size_t)r[1]);
		*out = (uint64_t)(uintptr_t)d;
		return fault;
	}
	case F_COPYINTO:
		if (!d_vm_addr_ok(vm, (uintptr_t)r[2], (size_t)r[1])) {
			vm->vm_faddr = r[2];
			return DF_BADADDR;
		}
		return s_uread(vm, r[0], (void *)(uintptr_t)r[2], (size_t)r[1]);
	case F_ALLOCA: {
		if (r[0] > (uint64_t)vm->vm_scratch_size)
			return DF_NOSCRATCH;
		char *d = d_vm_scratch(vm, (size_t)r[0] ? (size_t)r[0] : 1);
		if (!d)
			return DF_NOSCRATCH;
		memset(d, 0, (size_t)r[0]);
		*out = (uint64_t)(uintptr_t)d;
		return 0;
	}
	case F_BCOPY:
		if (!d_vm_addr_rd(vm, (uintptr_t)r[0], (size_t)r[2])) {
			vm->vm_faddr = r[0];
			return DF_BADADDR;
		}
		if (!d_vm_addr_ok(vm, (uintptr_t)r[1], (size_t)r[2])) {
			vm->vm_faddr = r[1];
			return DF_BADADDR;
		}
		memmove((void *)(uintptr_t)r[1], (const void *)(uintptr_t)r[0], (size_t)r[2]);
		return 0;
	default:
		return DF_ILLOP;
	}
}

int
d_subr_call(struct d_vm *vm, int func, uint64_t *r, int nargs, uint64_t *out)
{
	switch (func) {
	case D_SUBR_STRINGOF: case D_SUBR_STRCHAR: case F_STRLEN: case F_INDEX: case F_RINDEX:
	case F_STRCHR: case F_STRRCHR: case F_STRSTR: case F_STRTOK:
	case F_STRJOIN: case F_SUBSTR: case F_LLTOSTR: case F_BASENAME:
	case F_DIRNAME: case F_CLEANPATH: case F_TOUPPER: case F_TOLOWER:
	case F_COPYINSTR: case F_STRTOLL:
		return s_strsubr(vm, func, r, nargs, out);
	case F_COPYIN: case F_COPYINTO: case F_ALLOCA: case F_BCOPY:
		return s_memsubr(vm, func, r, out);
	case F_RAND:
		*out = s_rand(vm);
		return 0;
	case F_PROGENYOF:
		*out = (uint64_t)s_progenyof(vm, (int32_t)r[0]);
		return 0;
	case F_HTONS: case F_NTOHS:
		*out = htons((uint16_t)r[0]);
		return 0;
	case F_HTONL: case F_NTOHL:
		*out = htonl((uint32_t)r[0]);
		return 0;
	case F_HTONLL: case F_NTOHLL:
		*out = __builtin_bswap64(r[0]);
		return 0;
	case F_INET_NTOA:
		return s_inet(vm, AF_INET, r[0], out);
	case F_INET_NTOA6:
		return s_inet(vm, AF_INET6, r[0], out);
	case F_INET_NTOP:
		return s_inet(vm, (int)r[0] == 26 ? AF_INET6 : (int)r[0], r[1], out);
	case F_SPECULATION:
		*out = dspec_speculation(vm->vm_dh->dh_spec);
		return 0;
	case F_SYM: case F_FUNC: case F_MOD: case F_USYM: case F_UFUNC:
	case F_UMOD: case F_UADDR:
		*out = r[0];
		return 0;
	case F_STACK: case F_USTACK: case F_JSTACK:
		*out = 0;	/* the frames are read from the firing when recorded */
		return 0;
	default:
		return DF_ILLOP;
	}
}

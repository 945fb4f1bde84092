/*
 * dout_json.c — JSON Lines: one object per aggregation entry and per
 * firing that printed something (docs/output-formats.md has the schema).
 *
 * Keys keep their types: integers are numbers, strings are strings,
 * pointers and raw bytes are hex strings (JSON numbers lose precision past
 * 2^53), stacks are arrays of frames innermost first exactly as stack()
 * prints them.  Strings are escaped per RFC 8259; bytes that are not valid
 * UTF-8 become U+FFFD so every line parses.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "dcons/dout_impl.h"

#define JCHK(x)	do { if ((x) < 0) return -EIO; } while (0)

/* Length of the valid UTF-8 sequence at s (n bytes left), 0 if invalid. */
static size_t
utf8_len(const unsigned char *s, size_t n)
{
	size_t len;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* overlong, surrogates, beyond U+10FFFF */
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return len;
}

static int
json_char(FILE *fp, unsigned char c)
{
	static const char esc[] = "\"\"\\\\\bb\ff\nn\rr\tt";

	for (const char *e = esc; *e; e += 2)
		if ((unsigned char)e[0] == c)
			return fprintf(fp, "\\%c", e[1]);
	if (c < 0x20 || c == 0x7f)
		return fprintf(fp, "\\u%04x", c);
	return fputc(c, fp);
}

int
dout_json_str(FILE *fp, const char *s, size_t len)
{
	const unsigned char *u = (const unsigned char *)s;

	JCHK(fputc('"', fp));
	for (size_t i = 0; i < len; ) {
		size_t n = utf8_len(u + i, len - i);

		if (n == 0) {
			JCHK(fputs("\\ufffd", fp));
			i++;
		} else if (n == 1) {
			JCHK(json_char(fp, u[i++]));
		} else if (n == 3 && u[i] == 0xe2 && u[i + 1] == 0x80 &&
		    (u[i + 2] == 0xa8 || u[i + 2] == 0xa9)) {
			/* U+2028/2029: valid JSON, but not in JavaScript */
			JCHK(fprintf(fp, "\\u202%c", u[i + 2] == 0xa8 ? '8' : '9'));
			i += 3;
		} else {
			JCHK(fwrite(u + i, 1, n, fp) == n ? 0 : -1);
			i += n;
		}
	}
	JCHK(fputc('"', fp));
	return 0;
}

static int
json_cstr(FILE *fp, const char *s)
{
	return dout_json_str(fp, s, strlen(s));
}

/* One frame as stack() prints it: module`function+0xoff or the address. */
static void
full_frame(const struct dfmt_ctx *cx, int user, int32_t pid, uint64_t pc,
    char *buf, size_t len)
{
	const struct d_symbolizer *s = cx ? cx->fc_sym : NULL;
	int n = -1;

	if (s != NULL && user && s->ds_user != NULL)
		n = s->ds_user(s->ds_ctx, pid, pc, D_SYM_FULL, buf, len);
	else if (s != NULL && !user && s->ds_kernel != NULL)
		n = s->ds_kernel(s->ds_ctx, pc, D_SYM_FULL, buf, len);
	if (n < 0)
		snprintf(buf, len, "0x%" PRIx64, pc);
}

static int
json_stack(FILE *fp, const struct dfmt_ctx *cx, const struct d_vdesc *vd,
    const uint8_t *b)
{
	int user = vd->dv_kind == D_VK_USTACK;
	uint64_t pid = 0, pc;
	char text[512];

	if (user) {
		memcpy(&pid, b, 8);
		b += 8;
	}
	JCHK(fputc('[', fp));
	for (uint32_t i = 0; i < vd->dv_nframes; i++) {
		memcpy(&pc, b + 8 * i, 8);
		if (pc == 0)
			break;
		full_frame(cx, user, (int32_t)pid, pc, text, sizeof(text));
		JCHK(i ? fputc(',', fp) : 0);
		JCHK(json_cstr(fp, text));
	}
	JCHK(fputc(']', fp));
	return 0;
}

static int
json_float(FILE *fp, const struct d_vdesc *vd, const void *val)
{
	double d;
	float f;

	if (vd->dv_isize == 4) {
		memcpy(&f, val, 4);
		d = f;
	} else {
		memcpy(&d, val, 8);
	}
	if (!isfinite(d))
		return fputs("null", fp);
	return fprintf(fp, "%.17g", d);
}

static int
json_key(FILE *fp, const struct dfmt_ctx *cx, const struct d_vdesc *vd,
    const void *val)
{
	char text[1024];
	int64_t i;

	switch (vd->dv_kind) {
	case D_VK_INT:
		memcpy(&i, val, 8);
		return fprintf(fp, "%" PRId64, i);
	case D_VK_UINT:
		memcpy(&i, val, 8);
		return fprintf(fp, "%" PRIu64, (uint64_t)i);
	case D_VK_KSTACK:
	case D_VK_USTACK:
		return json_stack(fp, cx, vd, val);
	case D_VK_FLOAT:
		return json_float(fp, vd, val);
	default:
		dout_keytext(cx, vd, val, text, sizeof(text));
		return json_cstr(fp, text);
	}
}

/* ORDER: enum dagg_func. */
static const char *const json_funcs[DAGG_NFUNCS] = {
	"count", "sum", "avg", "min", "max", "stddev", "quantize",
	"lquantize", "llquantize",
};

static int
json_buckets(FILE *fp, const struct dout_jagg *ja)
{
	int first = 1;

	JCHK(fputs(",\"buckets\":[", fp));
	for (int i = 0; i < ja->ja_nbuckets; i++) {
		if (ja->ja_count[i] == 0)
			continue;
		JCHK(fprintf(fp, "%s{\"min\":%" PRId64 ",\"max\":%" PRId64
		    ",\"count\":%" PRId64 "}", first ? "" : ",", ja->ja_lo[i],
		    ja->ja_hi[i], ja->ja_count[i]));
		first = 0;
	}
	JCHK(fputc(']', fp));
	return 0;
}

int
dout_json_agg(FILE *fp, const struct dfmt_ctx *cx, const struct dout_jagg *ja,
    const void *key, const struct d_vdesc *kd, int nkeys)
{
	const uint8_t *k = key;
	int f = ja->ja_func;

	JCHK(fputs("{\"record\":\"aggregation\",\"name\":", fp));
	JCHK(json_cstr(fp, ja->ja_name));
	JCHK(fprintf(fp, ",\"function\":\"%s\",\"keys\":[",
	    f >= 0 && f < DAGG_NFUNCS ? json_funcs[f] : "unknown"));
	for (int i = 0; i < nkeys; k += kd[i].dv_size, i++) {
		JCHK(i ? fputc(',', fp) : 0);
		JCHK(json_key(fp, cx, &kd[i], k));
	}
	JCHK(fputs("],\"value\":", fp));
	JCHK(ja->ja_unsigned ? fprintf(fp, "%" PRIu64, (uint64_t)ja->ja_value) :
	    fprintf(fp, "%" PRId64, ja->ja_value));
	if (ja->ja_nbuckets > 0)
		JCHK(json_buckets(fp, ja));
	JCHK(fputs("}\n", fp));
	return 0;
}

int
dout_json_record(FILE *fp, const struct dout_rec *r)
{
	char probe[1024];
	int n;

	if (fp == NULL || r == NULL)
		return -EINVAL;
	n = snprintf(probe, sizeof(probe), "%s:%s:%s:%s",
	    r->dr_prov ? r->dr_prov : "", r->dr_mod ? r->dr_mod : "",
	    r->dr_func ? r->dr_func : "", r->dr_name ? r->dr_name : "");
	if (n < 0)
		return -EINVAL;
	JCHK(fprintf(fp, "{\"record\":\"probe\",\"cpu\":%" PRIu32 ",\"id\":%"
	    PRIu32 ",\"timestamp\":%" PRIu64 ",\"probe\":", r->dr_cpu,
	    r->dr_id, r->dr_timestamp));
	JCHK(dout_json_str(fp, probe, (size_t)n < sizeof(probe) ? (size_t)n :
	    sizeof(probe) - 1));
	JCHK(fputs(",\"output\":", fp));
	JCHK(dout_json_str(fp, r->dr_text ? r->dr_text : "",
	    r->dr_text ? r->dr_len : 0));
	JCHK(fputs("}\n", fp));
	return 0;
}

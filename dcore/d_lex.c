/*
 * d_lex.c — the D lexer: text → tokens.
 *
 * A hand-written scanner whose whole state is struct d_lex.  D has three
 * lexical contexts (enum d_lexctx) the parser switches between:
 *   OUTER  program scope: a run of probe-specifier characters
 *          [-$:a-zA-Z_.?*\\[]!][-$:a-zA-Z_.0-9?*\\[]!]* is a probe
 *          specifier (T_PSPEC) unless it is a keyword or a type name, in
 *          which case a declaration starts;
 *   BODY   clause bodies and expressions: C tokens plus @agg, $macros;
 *   PRED   a predicate: like BODY, except that "/" outside parentheses
 *          followed by ";", "{", "/" or the end closes it (T_EPRED).
 * Control lines (#pragma, #line, "# N file" from cpp, a first-line #!)
 * are handled here, as they come, because #pragma D option can change
 * how the rest of the program compiles.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dcore/d_impl.h"

/* ORDER d_tok */
static const char *const d_toknames[] = {
	"end of input", "identifier", "integer", "string", "character",
	"probe specifier", "aggregation", "macro", "/", "type name",
	"->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "^^",
	"+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", "...",
	"auto", "break", "case", "char", "const", "continue", "counter",
	"default", "do", "double", "else", "enum", "extern", "float", "for",
	"goto", "if", "import", "inline", "int", "long", "offsetof",
	"probe", "provider", "register", "restrict", "return", "self",
	"short", "signed", "sizeof", "static", "string", "stringof",
	"struct", "switch", "this", "translator", "typedef", "union",
	"unsigned", "userland", "void", "volatile", "while", "xlate",
};

const char *
d_lex_tokname(int tok)
{
	static char one[2][2];
	static int which;

	if (tok >= T_EOF && tok < T_NTOKENS)
		return d_toknames[tok - T_EOF];
	which ^= 1;
	one[which][0] = (char)tok;
	one[which][1] = '\0';
	return one[which];
}

static int
d_lex_keyword(const char *s, size_t n)
{
	if (n < 2 || n > 10 || !islower((unsigned char)s[0]))
		return 0;	/* every keyword is 2..10 lower-case letters */
	for (int t = T_AUTO; t < T_NTOKENS; t++) {
		const char *k = d_toknames[t - T_EOF];
		if (k[0] == s[0] && strncmp(k, s, n) == 0 && k[n] == '\0')
			return t;
	}
	return 0;
}

void
d_lex_init(struct d_lex *lx, struct d_hdl *dh, const char *text, const char *file)
{
	memset(lx, 0, sizeof(*lx));
	lx->lx_dh = dh;
	lx->lx_src = lx->lx_p = text;
	lx->lx_end = text + strlen(text);
	lx->lx_file = file;
	lx->lx_line = 1;
	lx->lx_ctx = D_LX_OUTER;
	lx->lx_bol = true;
}

/* ---- whitespace, comments, control lines ---------------------------------- */

static void
d_lex_skip_line(struct d_lex *lx)
{
	while (lx->lx_p < lx->lx_end && *lx->lx_p != '\n')
		lx->lx_p++;
}

/* "#line N" / "# N \"file\"": the next line is line N. */
static void
d_lex_linemark(struct d_lex *lx, const char *p, const char *e)
{
	while (p < e && isspace((unsigned char)*p))
		p++;
	if (p >= e || !isdigit((unsigned char)*p))
		d_error_at(lx, D_PRAGCTL_INVAL, "invalid control directive: #line");
	long n = strtol(p, NULL, 10);
	lx->lx_line = (int)n - 1;	/* the newline ending this line adds one */
}

static void
d_lex_control(struct d_lex *lx)
{
	const char *start = lx->lx_p;	/* at '#' */
	d_lex_skip_line(lx);
	const char *e = lx->lx_p;
	const char *p = start + 1;

	if (lx->lx_line == 1 && start == lx->lx_src && *p == '!')
		return;
	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	if (p < e && isdigit((unsigned char)*p)) {
		d_lex_linemark(lx, p, e);
		return;
	}
	if (e - p >= 4 && strncmp(p, "line", 4) == 0 && (p + 4 == e || isspace((unsigned char)p[4]))) {
		d_lex_linemark(lx, p + 4, e);
		return;
	}
	if (e - p >= 6 && strncmp(p, "pragma", 6) == 0 && (p + 6 == e || isspace((unsigned char)p[6]))) {
		d_parse_pragma(lx, p + 6, (size_t)(e - p - 6));
		return;
	}
	if (p == e || lx->lx_prescan)
		return;		/* a lone "#" is a null directive */
	const char *w = p;
	while (w < e && isalnum((unsigned char)*w))
		w++;
	if ((w - p == 5 && strncmp(p, "ident", 5) == 0))
		return;
	d_error_at(lx, D_PRAGCTL_INVAL, "invalid control directive: #%.*s", (int)(w - p), p);
}

/* Skip blanks and comments; handle control lines at the start of lines. */
static void
d_lex_skip(struct d_lex *lx)
{
	for (;;) {
		if (lx->lx_p >= lx->lx_end)
			return;
		char c = *lx->lx_p;
		if (c == '\n') {
			lx->lx_line++;
			lx->lx_p++;
			lx->lx_bol = true;
		} else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
			lx->lx_p++;
		} else if (c == '#' && lx->lx_bol) {
			d_lex_control(lx);
		} else if (c == '/' && lx->lx_p + 1 < lx->lx_end && lx->lx_p[1] == '*') {
			int line = lx->lx_line;
			lx->lx_p += 2;
			while (lx->lx_p + 1 < lx->lx_end && !(lx->lx_p[0] == '*' && lx->lx_p[1] == '/')) {
				if (*lx->lx_p == '\n')
					lx->lx_line++;
				lx->lx_p++;
			}
			if (lx->lx_p + 1 >= lx->lx_end) {
				lx->lx_line = line;
				d_error_at(lx, D_SYNTAX, "end-of-file encountered before matching */");
			}
			lx->lx_p += 2;
		} else if (c == '/' && lx->lx_p + 1 < lx->lx_end && lx->lx_p[1] == '/') {
			d_lex_skip_line(lx);
		} else {
			return;
		}
	}
}

/* DTrace parses the whole program before it cooks any clause, so a
 * "#pragma D option" anywhere applies to every clause; dcore compiles each
 * clause as it is parsed, so the options are applied first by this pass,
 * which skips comments and literals and sees only the control lines (other
 * directives and their errors are left to the real pass). */
void
d_lex_prescan(struct d_lex *lx)
{
	lx->lx_prescan = true;
	for (;;) {
		d_lex_skip(lx);
		if (lx->lx_p >= lx->lx_end)
			break;
		char c = *lx->lx_p++;
		lx->lx_bol = false;
		if (c != '"' && c != '\'')
			continue;
		while (lx->lx_p < lx->lx_end && *lx->lx_p != c && *lx->lx_p != '\n') {
			if (*lx->lx_p == '\\' && lx->lx_p + 1 < lx->lx_end && lx->lx_p[1] != '\n')
				lx->lx_p++;
			lx->lx_p++;
		}
		if (lx->lx_p < lx->lx_end && *lx->lx_p == c)
			lx->lx_p++;
	}
	lx->lx_prescan = false;
}

/* ---- literals ----------------------------------------------------------------- */

static int
d_lex_hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* One character of a string or char literal, escapes decoded. */
static int
d_lex_char(struct d_lex *lx)
{
	char c = *lx->lx_p++;
	if (c != '\\')
		return (unsigned char)c;
	if (lx->lx_p >= lx->lx_end)
		return '\\';
	c = *lx->lx_p++;
	switch (c) {
	case 'n': return '\n';
	case 't': return '\t';
	case 'r': return '\r';
	case 'a': return '\a';
	case 'b': return '\b';
	case 'f': return '\f';
	case 'v': return '\v';
	case 'e': return 033;
	case 'x': {
		int v = 0, d, n = 0;
		while (lx->lx_p < lx->lx_end && (d = d_lex_hexval(*lx->lx_p)) >= 0 && n < 2) {
			v = v * 16 + d;
			lx->lx_p++;
			n++;
		}
		return v;
	}
	case '0': case '1': case '2': case '3':
	case '4': case '5': case '6': case '7': {
		int v = c - '0', n = 1;
		while (n < 3 && lx->lx_p < lx->lx_end && *lx->lx_p >= '0' && *lx->lx_p <= '7') {
			v = v * 8 + (*lx->lx_p++ - '0');
			n++;
		}
		return v & 0xff;
	}
	case '\n':
		lx->lx_line++;
		return -1;	/* line continuation */
	default:
		return (unsigned char)c;
	}
}

static void
d_lex_string(struct d_lex *lx, struct d_token *t)
{
	size_t cap = 64, n = 0;
	char *buf = malloc(cap);
	if (!buf)
		d_error_at(lx, D_UNKNOWN, "out of memory");
	lx->lx_p++;	/* opening quote */
	for (;;) {
		if (lx->lx_p >= lx->lx_end || *lx->lx_p == '\n') {
			free(buf);
			d_error_at(lx, D_STR_NL, "newline encountered in string literal");
		}
		if (*lx->lx_p == '"')
			break;
		int c = d_lex_char(lx);
		if (c < 0)
			continue;
		if (n + 1 >= cap) {
			char *nb = realloc(buf, cap *= 2);
			if (!nb) {
				free(buf);
				d_error_at(lx, D_UNKNOWN, "out of memory");
			}
			buf = nb;
		}
		buf[n++] = (char)c;
	}
	lx->lx_p++;
	t->t_tok = T_STRING;
	t->t_sval = d_strndup(lx->lx_dh, buf, n);
	t->t_slen = n;
	free(buf);
}

static void
d_lex_charconst(struct d_lex *lx, struct d_token *t)
{
	uint64_t v = 0;
	int n = 0;
	lx->lx_p++;
	while (lx->lx_p < lx->lx_end && *lx->lx_p != '\'') {
		if (*lx->lx_p == '\n')
			d_error_at(lx, D_CHR_NL, "newline encountered in character constant");
		int c = d_lex_char(lx);
		if (c < 0)
			continue;
		v = (v << 8) | (uint64_t)c;
		n++;
	}
	if (lx->lx_p >= lx->lx_end)
		d_error_at(lx, D_CHR_NL, "newline encountered in character constant");
	lx->lx_p++;
	if (n == 0)
		d_error_at(lx, D_CHR_NULL, "empty character constant");
	if (n > 8)
		d_error_at(lx, D_CHR_OFLOW, "character constant is too long");
	t->t_tok = T_CHAR;
	/* a one-character constant is a signed char promoted to int */
	t->t_ival = n == 1 ? (uint64_t)(int64_t)(int8_t)v : v;
}

/* Integer constants: decimal, octal (0...), hex (0x...), suffixes u/l. */
static void
d_lex_number(struct d_lex *lx, struct d_token *t)
{
	const char *p = lx->lx_p;
	int base = 10;
	uint64_t v = 0;
	bool oflow = false;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		base = 16;
		p += 2;
	} else if (p[0] == '0') {
		base = 8;
	}
	const char *digits = p;
	for (; p < lx->lx_end && isalnum((unsigned char)*p); p++) {
		int d = d_lex_hexval(*p);
		if (d < 0 || d >= base) {
			if (strchr("uUlL", *p))
				break;
			lx->lx_p = p;
			d_error_at(lx, D_INT_DIGIT, "'%c' is not a valid digit in %s integer constant",
			    *p, base == 16 ? "hexadecimal" : base == 8 ? "octal" : "decimal");
		}
		if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
			oflow = true;
		v = v * (uint64_t)base + (uint64_t)d;
	}
	if (base == 16 && p == digits)
		d_error_at(lx, D_INT_DIGIT, "invalid hexadecimal constant");
	t->t_isuns = t->t_islong = 0;
	t->t_tyidx = 0;
	t->t_tystep = (base == 10 || *p == 'u') ? 2 : 1;
	while (p < lx->lx_end && strchr("uUlL", *p)) {
		if (*p == 'u' || *p == 'U') {
			t->t_isuns = 1;
			t->t_tyidx += 1;
		} else {
			t->t_islong++;
			t->t_tyidx += 2;
		}
		p++;
	}
	if (p < lx->lx_end && (isalnum((unsigned char)*p) || *p == '_')) {
		lx->lx_p = p;
		d_error_at(lx, D_INT_DIGIT, "'%c' is not a valid digit in integer constant", *p);
	}
	if (oflow)
		d_error_at(lx, D_INT_OFLOW, "constant %.*s results in integer overflow",
		    (int)(p - lx->lx_p), lx->lx_p);
	lx->lx_p = p;
	t->t_tok = T_INT;
	t->t_ival = v;
	/* octal and hex constants may be unsigned to fit, as in C */
	if (base != 10 && v > INT64_MAX)
		t->t_isuns = 1;
}

/* ---- macro arguments ---------------------------------------------------- */

static const char *
d_lex_macro_value(struct d_lex *lx, const char *name, size_t n, bool *isnum, bool asstr)
{
	struct d_hdl *dh = lx->lx_dh;
	static char num[32];

	*isnum = false;
	if (isdigit((unsigned char)name[0])) {
		long i = strtol(name, NULL, 10);
		if (i < dh->dh_macro.dm_argc) {
			if (dh->dh_macro_used)
				dh->dh_macro_used[i] = true;
			return dh->dh_macro.dm_argv[i];
		}
		if (dh->dh_opt[O_DEFAULTARGS]) {
			*isnum = !asstr;
			return asstr ? "" : "0";	/* $N is 0, $$N is "" */
		}
		d_error_at(lx, D_MACRO_UNDEF, "macro argument $%.*s is not defined", (int)n, name);
	}
	int64_t v = -1;
	if (n == 6 && strncmp(name, "target", 6) == 0) {
		if (!dh->dh_target_set && !dh->dh_opt[O_DEFAULTARGS])
			d_error_at(lx, D_MACRO_UNDEF, "macro argument $target is not defined");
		v = dh->dh_target_set ? dh->dh_target : 0;
	} else if (n == 3 && strncmp(name, "pid", 3) == 0) {
		v = getpid();
	} else if (n == 4 && strncmp(name, "ppid", 4) == 0) {
		v = getppid();
	} else if (n == 3 && strncmp(name, "uid", 3) == 0) {
		v = getuid();
	} else if (n == 3 && strncmp(name, "gid", 3) == 0) {
		v = getgid();
	} else if (n == 4 && strncmp(name, "pgid", 4) == 0) {
		v = getpgid(0);
	} else if (n == 3 && strncmp(name, "sid", 3) == 0) {
		v = getsid(0);
	} else if ((n == 6 && strncmp(name, "projid", 6) == 0) ||
	    (n == 6 && strncmp(name, "taskid", 6) == 0)) {
		v = 0;
	} else {
		d_error_at(lx, D_MACRO_UNDEF, "macro variable $%.*s is not defined", (int)n, name);
	}
	snprintf(num, sizeof(num), "%lld", (long long)v);
	*isnum = true;
	return num;
}

static bool
d_lex_isnumber(const char *s, uint64_t *v)
{
	char *end;
	if (!*s)
		return false;
	errno = 0;
	if (s[0] == '-')
		*v = (uint64_t)strtoll(s, &end, 0);
	else
		*v = strtoull(s, &end, 0);
	return *end == '\0' && errno == 0;
}

static bool
d_lex_isident(const char *s)
{
	if (!isalpha((unsigned char)*s) && *s != '_')
		return false;
	for (s++; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return false;
	return true;
}

/* $1 (integer, or identifier if not a number), $$1 (string), $target... */
static void
d_lex_macro(struct d_lex *lx, struct d_token *t)
{
	bool asstr = false, isnum;
	const char *p = ++lx->lx_p;
	if (*p == '$') {
		asstr = true;
		p = ++lx->lx_p;
	}
	const char *name = p;
	if (isdigit((unsigned char)*p))
		while (p < lx->lx_end && isdigit((unsigned char)*p))
			p++;
	else
		while (p < lx->lx_end && (isalnum((unsigned char)*p) || *p == '_'))
			p++;
	if (p == name)
		d_error_at(lx, D_SYNTAX, "syntax error near \"$\"");
	lx->lx_p = p;
	const char *val = d_lex_macro_value(lx, name, (size_t)(p - name), &isnum, asstr);
	uint64_t v;
	if (asstr) {
		t->t_tok = T_STRING;
		t->t_sval = d_strdup(lx->lx_dh, val);
		t->t_slen = strlen(val);
	} else if (d_lex_isnumber(val, &v)) {
		t->t_tok = T_INT;
		t->t_ival = v;
		t->t_isuns = t->t_islong = 0;
		t->t_tyidx = 0;
		t->t_neg = val[0] == '-';
		t->t_tystep = val[t->t_neg] == '0' && val[t->t_neg + 1] ? 1 : 2;
	} else if (d_lex_isident(val)) {
		t->t_tok = T_IDENT;
		t->t_sval = d_strdup(lx->lx_dh, val);
		int kw = d_lex_keyword(val, strlen(val));
		if (kw)
			t->t_tok = kw;
	} else {
		d_error_at(lx, D_MACRO_UNDEF, "macro argument $%.*s is not a valid integer or identifier",
		    (int)(p - name), name);
	}
}

/* ---- probe specifiers (OUTER context) ------------------------------------- */

static bool
d_lex_pspec_char(int c, bool first)
{
	if (isalpha(c) || c == '_' || strchr("-$:.?*\\[]!", c))
		return c != 0;
	return !first && isdigit(c);
}

/* Scan a probe specifier, substituting $macros as text. */
static void
d_lex_pspec(struct d_lex *lx, struct d_token *t)
{
	char buf[1024];
	size_t n = 0;
	const char *p = lx->lx_p;

	while (p < lx->lx_end && d_lex_pspec_char((unsigned char)*p, false)) {
		if (*p == '$' && p + 1 < lx->lx_end &&
		    (isalnum((unsigned char)p[1]) || p[1] == '_')) {
			const char *q = p + 1;
			bool isnum;
			if (isdigit((unsigned char)*q))
				while (q < lx->lx_end && isdigit((unsigned char)*q))
					q++;
			else
				while (q < lx->lx_end && (isalnum((unsigned char)*q) || *q == '_'))
					q++;
			const char *v = d_lex_macro_value(lx, p + 1, (size_t)(q - p - 1), &isnum, false);
			size_t vl = strlen(v);
			if (n + vl >= sizeof(buf))
				d_error_at(lx, D_PDESC_INVAL, "probe description is too long");
			memcpy(buf + n, v, vl);
			n += vl;
			p = q;
			continue;
		}
		if (n + 1 >= sizeof(buf))
			d_error_at(lx, D_PDESC_INVAL, "probe description is too long");
		buf[n++] = *p++;
	}
	lx->lx_p = p;
	t->t_tok = T_PSPEC;
	t->t_sval = d_strndup(lx->lx_dh, buf, n);
}

static void d_lex_ident(struct d_lex *lx, struct d_token *t);

/* In OUTER context: a probe specifier unless the word is a keyword or a
 * known type name (then a declaration follows). */
static bool
d_lex_outer_word(struct d_lex *lx, struct d_token *t)
{
	const char *p = lx->lx_p, *q = p;
	if (!d_lex_pspec_char((unsigned char)*p, true))
		return false;
	while (q < lx->lx_end && d_lex_pspec_char((unsigned char)*q, false))
		q++;
	const char *w = p;
	while (w < q && (isalnum((unsigned char)*w) || *w == '_'))
		w++;
	if (w == q && q < lx->lx_end && *q == '`' && (isalpha((unsigned char)*p) || *p == '_')) {
		d_lex_ident(lx, t);	/* mod`type: a declaration starts */
		if (t->t_tok == T_IDENT && d_type_lookup(lx->lx_dh, t->t_sval))
			t->t_tok = T_TYPENAME;
		return true;
	}
	if (w == q && (isalpha((unsigned char)*p) || *p == '_')) {
		int kw = d_lex_keyword(p, (size_t)(q - p));
		char name[256];
		if (kw) {
			lx->lx_p = q;
			t->t_tok = kw;
			return true;
		}
		if ((size_t)(q - p) < sizeof(name)) {
			memcpy(name, p, (size_t)(q - p));
			name[q - p] = '\0';
			if (d_type_lookup(lx->lx_dh, name)) {
				lx->lx_p = q;
				t->t_tok = T_TYPENAME;
				t->t_sval = d_strdup(lx->lx_dh, name);
				return true;
			}
		}
	}
	d_lex_pspec(lx, t);
	return true;
}

/* ---- the scanner ----------------------------------------------------------------- */

/* After a "/" in a predicate: does it close the predicate? */
static bool
d_lex_closes_pred(struct d_lex *lx)
{
	const char *p = lx->lx_p + 1;
	for (;;) {
		while (p < lx->lx_end && isspace((unsigned char)*p))
			p++;
		if (p + 1 < lx->lx_end && p[0] == '/' && p[1] == '*') {
			const char *e = strstr(p + 2, "*/");
			if (!e)
				return true;
			p = e + 2;
			continue;
		}
		if (p + 1 < lx->lx_end && p[0] == '/' && p[1] == '/') {
			while (p < lx->lx_end && *p != '\n')
				p++;
			continue;
		}
		break;
	}
	return p >= lx->lx_end || *p == ';' || *p == '{' || *p == '/';
}

struct d_opspell {
	const char *s;
	int tok;
};
/* Longest first. */
static const struct d_opspell d_ops[] = {
	{ "<<=", T_SHLEQ }, { ">>=", T_SHREQ }, { "...", T_ELLIPSIS },
	{ "->", T_ARROW }, { "++", T_INC }, { "--", T_DEC }, { "<<", T_SHL },
	{ ">>", T_SHR }, { "<=", T_LE }, { ">=", T_GE }, { "==", T_EQ },
	{ "!=", T_NE }, { "&&", T_LAND }, { "||", T_LOR }, { "^^", T_LXOR },
	{ "+=", T_ADDEQ }, { "-=", T_SUBEQ }, { "*=", T_MULEQ }, { "/=", T_DIVEQ },
	{ "%=", T_MODEQ }, { "&=", T_ANDEQ }, { "|=", T_OREQ }, { "^=", T_XOREQ },
	{ NULL, 0 }
};

/* An identifier; "module`name" (a type scoped to a module, as in
 * struct foo`bar or D`uint64_t) is one identifier, as in dt_lex.l. */
static void
d_lex_ident(struct d_lex *lx, struct d_token *t)
{
	const char *p = lx->lx_p;
	while (p < lx->lx_end && (isalnum((unsigned char)*p) || *p == '_'))
		p++;
	if (p + 1 < lx->lx_end && *p == '`' && (isalpha((unsigned char)p[1]) || p[1] == '_')) {
		p++;
		while (p < lx->lx_end && (isalnum((unsigned char)*p) || *p == '_'))
			p++;
	}
	size_t n = (size_t)(p - lx->lx_p);
	int kw = d_lex_keyword(lx->lx_p, n);
	if (kw) {
		t->t_tok = kw;
	} else {
		t->t_tok = T_IDENT;
		t->t_sval = d_strndup(lx->lx_dh, lx->lx_p, n);
	}
	lx->lx_p = p;
}

static void
d_lex_scan(struct d_lex *lx, struct d_token *t)
{
	d_lex_skip(lx);
	memset(t, 0, sizeof(*t));
	t->t_line = lx->lx_line;
	lx->lx_tokstart = lx->lx_p;
	if (lx->lx_p >= lx->lx_end) {
		t->t_tok = T_EOF;
		lx->lx_toklen = 0;
		return;
	}
	lx->lx_bol = false;
	char c = *lx->lx_p;

	if (lx->lx_ctx == D_LX_OUTER && c != '/' && d_lex_outer_word(lx, t))
		goto done;
	if (isalpha((unsigned char)c) || c == '_') {
		d_lex_ident(lx, t);
	} else if (isdigit((unsigned char)c)) {
		d_lex_number(lx, t);
	} else if (c == '"') {
		d_lex_string(lx, t);
	} else if (c == '\'') {
		d_lex_charconst(lx, t);
	} else if (c == '$') {
		d_lex_macro(lx, t);
	} else if (c == '@') {
		const char *p = ++lx->lx_p;
		while (p < lx->lx_end && (isalnum((unsigned char)*p) || *p == '_'))
			p++;
		t->t_tok = T_AGG;
		t->t_sval = d_strndup(lx->lx_dh, lx->lx_p, (size_t)(p - lx->lx_p));
		lx->lx_p = p;
	} else if (c == '/' && lx->lx_ctx == D_LX_PRED && lx->lx_parens == 0 &&
	    lx->lx_p[1] != '=' && d_lex_closes_pred(lx)) {
		lx->lx_p++;
		t->t_tok = T_EPRED;
	} else {
		for (const struct d_opspell *o = d_ops; o->s; o++) {
			if (o->s[0] != c)
				continue;
			size_t l = strlen(o->s);
			if ((size_t)(lx->lx_end - lx->lx_p) >= l && memcmp(lx->lx_p, o->s, l) == 0) {
				lx->lx_p += l;
				t->t_tok = o->tok;
				goto done;
			}
		}
		if (!strchr("{}[]()<>;:,.?=+-*/%&|^!~`", c)) {
			lx->lx_toklen = 1;
			d_error_at(lx, D_SYNTAX, "invalid character '%c'", c);
		}
		lx->lx_p++;
		t->t_tok = (unsigned char)c;
		if (lx->lx_ctx == D_LX_PRED) {
			if (c == '(' || c == '[')
				lx->lx_parens++;
			else if ((c == ')' || c == ']') && lx->lx_parens > 0)
				lx->lx_parens--;
		}
	}
done:
	lx->lx_toklen = (int)(lx->lx_p - lx->lx_tokstart);
}

void
d_lex_next(struct d_lex *lx)
{
	if (lx->lx_hasahead) {
		lx->lx_tok = lx->lx_ahead;
		lx->lx_hasahead = false;
		return;
	}
	d_lex_scan(lx, &lx->lx_tok);
}

/* One token of lookahead, scanned in the current context. */
int
d_lex_peek(struct d_lex *lx)
{
	if (!lx->lx_hasahead) {
		const char *ts = lx->lx_tokstart;
		int tl = lx->lx_toklen;
		d_lex_scan(lx, &lx->lx_ahead);
		lx->lx_hasahead = true;
		lx->lx_tokstart = ts;
		lx->lx_toklen = tl;
	}
	return lx->lx_ahead.t_tok;
}

/* The text DTrace quotes in 'syntax error near "..."'. */
const char *
d_lex_neartext(struct d_lex *lx, char *buf, size_t len)
{
	const struct d_token *t = &lx->lx_tok;
	if (t->t_tok == T_EOF)
		return NULL;
	size_t n = (size_t)lx->lx_toklen;
	if (n >= len)
		n = len - 1;
	if (t->t_tok == T_STRING) {
		snprintf(buf, len, "\"%s\"", t->t_sval ? t->t_sval : "");
		return buf;
	}
	memcpy(buf, lx->lx_tokstart, n);
	buf[n] = '\0';
	return buf;
}

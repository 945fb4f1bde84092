/*
 * fuzz_dcore_gen.c — libFuzzer target: structure-aware D programs.  The
 * input is not text but choices: each byte picks a production (a clause,
 * a declaration, an expression form) and two-byte counts size what repeats,
 * so that a few bytes reach what random text almost never does: nesting
 * thousands deep (parentheses, casts, ?:, assignments, declarators,
 * struct definitions, blocks), chains of 60,000 operators, huge literals,
 * enums of thousands of enumerators, long printf formats.  The program is
 * then compiled and, when it compiles, run exactly as fuzz_dcore_compile
 * runs its text (same fake catalog), whose code this file includes.
 */
#define LLVMFuzzerTestOneInput fz_compile_text
#include "fuzz_dcore_compile.c"
#undef LLVMFuzzerTestOneInput

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define GEN_MAX (4u << 20)	/* program text bound: keeps each run short */

struct gen {
	const uint8_t *p, *end;
	char *buf;
	size_t len, cap;
	int full;
};

static unsigned
gen_byte(struct gen *g)
{
	return g->p < g->end ? *g->p++ : 0;
}

/* A repeat count: mostly small (so most runs are quick), one time in 40
 * tens of thousands. */
static unsigned
gen_count(struct gen *g)
{
	unsigned k = gen_byte(g);
	if (k < 250)
		return k % 8;
	return (k | gen_byte(g) << 8) % 70000;
}

static void
gen_put(struct gen *g, const char *s)
{
	size_t n = strlen(s);
	if (g->full || g->len + n + 1 > GEN_MAX) {
		g->full = 1;
		return;
	}
	if (g->len + n + 1 > g->cap) {
		size_t cap = g->cap ? g->cap : 4096;
		while (cap < g->len + n + 1)
			cap *= 2;
		char *b = realloc(g->buf, cap);
		if (!b) {
			g->full = 1;
			return;
		}
		g->buf = b;
		g->cap = cap;
	}
	memcpy(g->buf + g->len, s, n + 1);
	g->len += n;
}

static void
gen_rep(struct gen *g, const char *s, unsigned n)
{
	for (unsigned i = 0; i < n && !g->full; i++)
		gen_put(g, s);
}

static const char *const gen_vars[] = { "x", "y", "self->t", "this->l", "a[1]", "arg0", "pid" };
static const char *const gen_ops[] = { "+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^", "&&",
	"||", "^^", "==", "!=", "<", ">=", "," };
static const char *const gen_casts[] = { "(int)", "(char)", "(uint64_t)", "(string)", "(void *)",
	"(struct s *)", "(long)" };
#define GEN_N(a) (sizeof(a) / sizeof(a[0]))

static void gen_expr(struct gen *g, int depth);

static void
gen_leaf(struct gen *g)
{
	char num[32];
	unsigned n;
	switch (gen_byte(g) % 6) {
	case 0:
		n = gen_byte(g);
		snprintf(num, sizeof(num), "%u", n | gen_byte(g) << 8);
		gen_put(g, num);
		break;
	case 1:	/* a huge integer literal */
		gen_rep(g, "9", 1 + gen_count(g));
		break;
	case 2:	/* a long string literal */
		gen_put(g, "\"");
		gen_rep(g, "ab\\n", gen_count(g));
		gen_put(g, "\"");
		break;
	case 3:
		gen_put(g, "E1");
		break;
	case 4:
		gen_put(g, "@c");
		break;
	default:
		gen_put(g, gen_vars[gen_byte(g) % GEN_N(gen_vars)]);
		break;
	}
}

/* One expression; depth bounds the generator's own recursion only: the
 * deep nesting comes from the counted repetitions. */
static void
gen_expr(struct gen *g, int depth)
{
	unsigned n;
	const char *s;	/* choices are read in sequence: argument order is unspecified */
	if (depth > 6 || g->full) {
		gen_leaf(g);
		return;
	}
	switch (gen_byte(g) % 10) {
	case 0:	/* parentheses */
		n = gen_count(g);
		gen_rep(g, "(", n);
		gen_expr(g, depth + 1);
		gen_rep(g, ")", n);
		break;
	case 1:	/* a cast chain */
		s = gen_casts[gen_byte(g) % GEN_N(gen_casts)];
		gen_rep(g, s, gen_count(g));
		gen_expr(g, depth + 1);
		break;
	case 2:	/* a long left-associative chain */
		gen_expr(g, depth + 1);
		n = gen_count(g);
		for (unsigned i = 0; i < n && !g->full; i++) {
			gen_put(g, gen_ops[gen_byte(g) % GEN_N(gen_ops)]);
			gen_expr(g, 7);
		}
		break;
	case 3:	/* ?: nested to the right */
		n = gen_count(g);
		for (unsigned i = 0; i < n && !g->full; i++) {
			gen_expr(g, 7);
			gen_put(g, " ? ");
		}
		gen_expr(g, depth + 1);
		gen_rep(g, " : 0", n);
		break;
	case 4:	/* assignments nested to the right */
		gen_rep(g, "x = ", gen_count(g));
		gen_expr(g, depth + 1);
		break;
	case 5:	/* unary chains */
		s = (const char *const[]){ "-", "!", "~", "*", "&", "sizeof ", "++" }[gen_byte(g) % 7];
		gen_rep(g, s, gen_count(g));
		gen_expr(g, depth + 1);
		break;
	case 6:	/* subroutine calls nested in their arguments */
		n = gen_count(g);
		gen_rep(g, "strlen(lltostr(", n);
		gen_expr(g, depth + 1);
		gen_rep(g, "))", n);
		break;
	case 7:	/* postfix chains */
		gen_leaf(g);
		s = (const char *const[]){ "[1]", "->m", ".m", "++" }[gen_byte(g) % 4];
		gen_rep(g, s, gen_count(g));
		break;
	case 8:	/* nested keys */
		n = gen_count(g);
		gen_rep(g, "a[", n);
		gen_expr(g, depth + 1);
		gen_rep(g, "]", n);
		break;
	default:
		gen_leaf(g);
		break;
	}
}

static void
gen_stmt(struct gen *g, int depth)
{
	unsigned n;
	const char *s;
	switch (depth > 4 ? 9 : gen_byte(g) % 10) {
	case 0:	/* nested blocks */
		n = gen_count(g);
		gen_rep(g, "{ ", n);
		gen_stmt(g, depth + 1);
		gen_rep(g, "} ", n);
		break;
	case 1:	/* if nested, or else-if chained */
		n = gen_count(g);
		s = gen_byte(g) & 1 ? "if (x) " : "if (x) {} else ";
		gen_rep(g, s, n);
		gen_stmt(g, depth + 1);
		break;
	case 2:	/* printf with a long format */
		gen_put(g, "printf(\"");
		s = (const char *const[]){ "%d ", "a%%", "%s", "%-*.*d", "%@d" }[gen_byte(g) % 5];
		gen_rep(g, s, gen_count(g));
		gen_put(g, "\\n\", ");
		gen_expr(g, depth + 1);
		gen_put(g, ");");
		break;
	case 3:
		gen_put(g, "@c[");
		gen_expr(g, depth + 1);
		gen_put(g, "] = count();");
		break;
	case 4:
		gen_put(g, "trace(");
		gen_expr(g, depth + 1);
		gen_put(g, ");");
		break;
	default:
		gen_put(g, "x = ");
		gen_expr(g, depth + 1);
		gen_put(g, ";");
		break;
	}
}

static void
gen_decl(struct gen *g)
{
	unsigned n, k;
	char num[32];
	switch (gen_byte(g) % 6) {
	case 0:	/* nested struct definitions */
		n = gen_count(g);
		gen_put(g, "struct s { ");
		gen_rep(g, "struct { ", n);
		gen_put(g, "int m; ");
		gen_rep(g, "} m; ", n);
		gen_put(g, "};\n");
		break;
	case 1:	/* parenthesised and pointer declarators */
		n = gen_count(g);
		gen_put(g, "int ");
		k = gen_byte(g) & 1;
		gen_rep(g, k ? "*" : "(", n);
		gen_put(g, "d");
		gen_rep(g, k ? "[2]" : ")", n);
		gen_put(g, ";\n");
		break;
	case 2:	/* a large enum */
		n = 1 + gen_count(g);
		gen_put(g, "enum e { E0");
		for (unsigned i = 1; i < n && !g->full; i++) {
			snprintf(num, sizeof(num), ", E%u", i);
			gen_put(g, num);
		}
		gen_put(g, " };\n");
		break;
	case 3:	/* inlines, self-referring or chained */
		gen_put(g, gen_byte(g) & 1 ? "inline int i = i + 1;\n" : "inline int j = 2;\n");
		break;
	case 4:
		gen_put(g, "typedef int t_t;\n");
		break;
	default:
		break;
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const probes[] = { "BEGIN", "END", "profile-997", "tick-1s", "test:mod:fn:fire",
		"ERROR" };
	struct gen g = { data, data + size, NULL, 0, 0, 0 };
	unsigned ndecl = gen_byte(&g) % 4;
	for (unsigned i = 0; i < ndecl; i++)
		gen_decl(&g);
	unsigned nclause = 1 + gen_byte(&g) % 3;
	for (unsigned c = 0; c < nclause && !g.full; c++) {
		gen_put(&g, probes[gen_byte(&g) % GEN_N(probes)]);
		if (gen_byte(&g) & 1) {
			gen_put(&g, " /");
			gen_expr(&g, 3);
			gen_put(&g, "/");
		}
		gen_put(&g, " { ");
		unsigned ns = 1 + gen_byte(&g) % 4;
		for (unsigned s = 0; s < ns; s++)
			gen_stmt(&g, 0);
		gen_put(&g, " }\n");
	}
	if (g.buf)
		fz_compile_text((const uint8_t *)g.buf, g.len);
	free(g.buf);
	return 0;
}

/*
 * d_pragma.c — control lines the lexer hands over as it meets them:
 * "#pragma D option name[=value]" (also during d_lex_prescan, so options
 * apply to every clause), "#pragma D depends_on", "#pragma error",
 * "#pragma line" and the pragmas D accepts and ignores.  Below the lexer
 * and the parser: it sets options (d_options.c), asks the catalog whether
 * a provider exists (d_catalog.c), and raises its errors through d_mem.c.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "dcore/d_impl.h"

/* ---- #pragma ---------------------------------------------------------------- */

static const char *
pragma_word(const char **pp, const char *e, char *buf, size_t len)
{
	const char *p = *pp;
	while (p < e && isspace((unsigned char)*p))
		p++;
	size_t n = 0;
	while (p < e && !isspace((unsigned char)*p) && n + 1 < len)
		buf[n++] = *p++;
	buf[n] = '\0';
	*pp = p;
	return n ? buf : NULL;
}

/* #pragma D option name[=value] | D depends_on ... | D attributes ...
 * | D binding ... | error ... | line N | ident ... */
void
d_parse_pragma(struct d_lex *lx, const char *line, size_t len)
{
	const char *p = line, *e = line + len;
	char w1[64], w2[64], opt[512];
	if (!pragma_word(&p, e, w1, sizeof(w1)))
		return;
	if (lx->lx_prescan && strcmp(w1, "line") != 0) {	/* d_lex_prescan: options only */
		if (strcmp(w1, "D") != 0 || !pragma_word(&p, e, w2, sizeof(w2)) ||
		    strcmp(w2, "option") != 0)
			return;
	} else if (strcmp(w1, "error") == 0) {
		while (p < e && isspace((unsigned char)*p))
			p++;
		d_error_at(lx, D_PRAGERR, "#pragma error: %.*s", (int)(e - p), p);
	}
	if (strcmp(w1, "line") == 0) {
		if (!pragma_word(&p, e, w2, sizeof(w2)) || !isdigit((unsigned char)w2[0]))
			d_error_at(lx, D_PRAGMA_MALFORM, "malformed #pragma line");
		lx->lx_line = atoi(w2) - 1;
		return;
	}
	if (lx->lx_prescan) {
		/* w2 is "option" */
	} else if (strcmp(w1, "D") != 0) {
		return;		/* other pragmas (ident, ...) are not ours */
	} else if (!pragma_word(&p, e, w2, sizeof(w2))) {
		d_error_at(lx, D_PRAGMA_MALFORM, "malformed #pragma D directive");
	}
	if (strcmp(w2, "option") == 0) {
		int n = 0;
		while (pragma_word(&p, e, opt, sizeof(opt))) {
			n++;
			char *eq = strchr(opt, '=');
			const char *val = NULL;
			if (eq) {
				*eq = '\0';
				val = eq + 1;
			}
			if (!lx->lx_optsdone && d_opt_set(lx->lx_dh, opt, val) != 0) {
				if (val)
					d_error_at(lx, D_PRAGMA_OPTSET, "failed to set option '%s' to '%s': %s",
					    opt, val, lx->lx_dh->dh_errmsg);
				d_error_at(lx, D_PRAGMA_OPTSET, "failed to set option '%s': %s",
				    opt, lx->lx_dh->dh_errmsg);
			}
		}
		if (n == 0)
			d_error_at(lx, D_PRAGMA_MALFORM, "malformed #pragma D option");
		return;
	}
	if (strcmp(w2, "depends_on") == 0) {
		char cls[64], name[256];
		if (!pragma_word(&p, e, cls, sizeof(cls)) || !pragma_word(&p, e, name, sizeof(name)))
			d_error_at(lx, D_PRAGMA_MALFORM, "malformed #pragma depends_on <class> <name>");
		if (strcmp(cls, "provider") == 0) {
			if (!d_provider_exists(lx->lx_dh, name))
				d_error_at(lx, D_PRAGMA_DEPEND, "program requires provider %s", name);
		} else if (strcmp(cls, "module") != 0 && strcmp(cls, "library") != 0) {
			d_error_at(lx, D_PRAGMA_INVAL, "invalid class %s specified by #pragma depends_on", cls);
		}
		return;
	}
	if (strcmp(w2, "attributes") == 0 ||
	    strcmp(w2, "binding") == 0 || strcmp(w2, "ident") == 0 || strcmp(w2, "version") == 0)
		return;
	d_error_at(lx, D_PRAGMA_INVAL, "invalid control directive: #pragma D %s", w2);
}

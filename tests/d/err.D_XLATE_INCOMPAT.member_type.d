/*
 * ASSERTION: a translator member of the wrong type is an error where the
 *   translator is defined, even if it is never used.
 * SECTION: Translators/Translator Declarations
 */
struct in_t { int a; };
struct out_t { int n; };

translator struct out_t < struct in_t *p > {
	n = "not an int";
};

BEGIN
{
	exit(0);
}

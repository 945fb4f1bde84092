/*
 * ASSERTION: typedef, enum (values, continuation), inline constants and inline string expressions.
 * SECTION: Type and Constant Definitions
 */
#pragma D option quiet

typedef unsigned char byte_t;
typedef struct pt { int x, y; } pt_t;

enum color { RED, GREEN = 10, BLUE };

inline int LIMIT = GREEN * 2 + 1;
inline string NAME = "pmc";

pt_t pt;

BEGIN
{
	b = (byte_t)257;
	pt.y = LIMIT;
	printf("%d %d %d %d\n", RED, GREEN, BLUE, b);
	printf("%d %s %d\n", pt.y, NAME, sizeof (pt_t));
	exit(0);
}

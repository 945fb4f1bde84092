/*
 * ASSERTION: long qualifies integers and floating-point types only, not an
 * enum.
 * SECTION: Errors
 */
long enum colour { RED, GREEN };

BEGIN
{
	exit(0);
}

/*
 * ASSERTION: llquantize() buckets are linear within each power of the
 * factor, with "< factor^low" and ">= factor^(high+1)" at the ends.
 * SECTION: Aggregations/llquantize
 */
#pragma D option quiet

BEGIN
{
	@a = llquantize(0, 10, 0, 3, 10);
	@a = llquantize(7, 10, 0, 3, 10);
	@a = llquantize(55, 10, 0, 3, 10);
	@a = llquantize(430, 10, 0, 3, 10);
	@a = llquantize(99999, 10, 0, 3, 10);
	@b = llquantize(1500, 2, 8, 12, 4);
	@b = llquantize(300, 2, 8, 12, 4);
	exit(0);
}

/*
 * ASSERTION: quantize() prints power-of-two buckets with one empty bucket
 * on each side of the data, the 40-column bar, and the counts; negative
 * and zero values have their own buckets.
 * SECTION: Aggregations/quantize
 */
#pragma D option quiet

BEGIN
{
	@q = quantize(0);
	@q = quantize(1);
	@q = quantize(2);
	@q = quantize(3);
	@q = quantize(1000);
	@q = quantize(-5);
	@q = quantize(-1);
	@big = quantize(9223372036854775807);
	@big = quantize(1LL << 61);
	exit(0);
}

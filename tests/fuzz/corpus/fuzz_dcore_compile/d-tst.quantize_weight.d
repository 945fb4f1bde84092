/*
 * ASSERTION: quantize() and lquantize() take an increment; negative
 * totals draw their bars to the left of the centre line.
 * SECTION: Aggregations/quantize
 */
#pragma D option quiet

BEGIN
{
	@w = quantize(4, 10);
	@w = quantize(8, 5);
	@n = quantize(16, -3);
	@n = quantize(64, 2);
	@l = lquantize(3, 0, 10, 2, -4);
	exit(0);
}

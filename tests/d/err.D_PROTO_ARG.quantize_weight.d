/*
 * ASSERTION: the weight of quantize() must be a scalar
 * SECTION: Aggregations/quantize
 */
BEGIN
{
	@a = quantize(3, "heavy");
}

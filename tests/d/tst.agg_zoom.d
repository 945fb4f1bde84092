/*
 * ASSERTION: with aggzoom, a histogram's tallest bar is scaled to about 95%
 *   of the full width (the others in proportion); without it, bars are a
 *   share of the total.  setopt() changes it at run time.
 * SECTION: Options and Tunables/aggzoom; Aggregations/quantize, lquantize
 */
#pragma D option quiet
#pragma D option aggzoom

BEGIN
{
	@q = quantize(1);
	@q = quantize(1);
	@q = quantize(100);
	@l = lquantize(5, 0, 10, 1, 3);
	@l = lquantize(7, 0, 10, 1);
	@ll = llquantize(50, 10, 0, 2, 10, 4);
	@ll = llquantize(500, 10, 0, 2, 10);
	printa(@q);
	printa(@l);
	printa(@ll);
	setopt("aggzoom", "false");
	printa(@q);
	exit(0);
}

/*
 * ASSERTION: without -q, each firing starts with CPU, ID and FUNCTION:NAME;
 * trace() pads integers to 3/5/8/16 columns by size and strings to 33,
 * and the firing's output ends with a newline.
 * SECTION: Output Formatting/trace
 */
BEGIN
{
	trace((char)1);
	trace((short)2);
	trace(3);
	trace(4LL);
	trace("five");
}

BEGIN
{
	printf("six");
}

BEGIN
{
	exit(0);
}

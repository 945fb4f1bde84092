/*
 * ASSERTION: without -q, each firing starts with CPU, ID and FUNCTION:NAME;
 * trace() pads integers to the digits of their type's largest value
 * (3/5/10, and 19 signed or 20 unsigned for 64 bits), signed or unsigned as
 * the type is, and strings to 33,
 * and the firing's output ends with a newline.
 * SECTION: Output Formatting/trace
 */
BEGIN
{
	trace((char)1);
	trace((short)2);
	trace(3);
	trace(4LL);
	trace((char)-1);
	trace((unsigned char)255);
	trace((uint64_t)-1);
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

/*
 * ASSERTION: a named bit-field needs a positive width
 * SECTION: Structs and Unions/Bit-Fields
 */
struct flags {
	int on : 1;
	int off : 0;
};

BEGIN
{
	exit(0);
}

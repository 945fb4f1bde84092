/*
 * ASSERTION: an associative array's keys keep the types of its first use
 * SECTION: Variables/Associative Arrays
 */
BEGIN
{
	a[1, "x"] = 1;
	a["x", 1] = 2;
}

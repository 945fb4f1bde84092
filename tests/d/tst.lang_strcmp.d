/*
 * ASSERTION: strings compare by value with the relational operators.
 * SECTION: Strings/String Comparison
 */
#pragma D option quiet

BEGIN
{
	a = "apple";
	b = "banana";
	printf("%d %d %d %d\n", a < b, a > b, a == "apple", a != "apple");
	printf("%d %d\n", "abc" < "abd", "ab" < "abc");
	c = strjoin("app", "le");
	printf("%d\n", a == c);
	exit(0);
}

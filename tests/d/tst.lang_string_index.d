/*
 * ASSERTION: s[i] is the i-th char of a string, whatever holds the string
 * (a variable of each kind, a constant, a built-in); past the string's end
 * it reads the terminating NUL.
 * SECTION: Strings
 */
#pragma D option quiet

BEGIN
{
	s = "ABCDEFG";
	this->t = "xyz";
	self->u = "PQ";
	a["k"] = "hello";
	i = 3;
	printf("%d %c %c %c %c %c\n", s[1], this->t[0], self->u[1], a["k"][4],
	    "lit"[2], s[i]);
	printf("%c%c %d %d %d\n", probename[0], probename[4], s[7], s[300],
	    s[1] + s[2]);
	exit(0);
}

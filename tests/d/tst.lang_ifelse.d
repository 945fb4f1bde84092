/*
 * ASSERTION: if/else statements, nested, with and without braces.
 * SECTION: Program Structure/if-else
 */
#pragma D option quiet

BEGIN
{
	i = 3;
	if (i > 2)
		printf("big ");
	else
		printf("small ");
	if (i == 0) {
		printf("zero ");
	} else if (i == 3) {
		printf("three ");
	} else {
		printf("other ");
	}
	if (0)
		printf("never ");
	printf("\n");
	exit(0);
}

/*
 * ASSERTION: %s takes width and precision, %S escapes unprintable
 * characters, %c prints a character, %% a percent sign.
 * SECTION: Output Formatting/printf
 */
#pragma D option quiet

BEGIN
{
	s = "hello";
	printf("[%s][%10s][%-10s][%.2s][%8.3s]\n", s, s, s, s, s);
	printf("[%S]\n", "tab\there\nquote\"back\\");
	printf("[%c%c%c]\n", 'D', 0x54, 'r');
	printf("100%% [%5s]\n", "");
	exit(0);
}

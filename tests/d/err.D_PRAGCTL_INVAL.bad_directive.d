/*
 * ASSERTION: unknown control lines are errors
 * SECTION: Errors
 */
#nosuchdirective

BEGIN
{
}

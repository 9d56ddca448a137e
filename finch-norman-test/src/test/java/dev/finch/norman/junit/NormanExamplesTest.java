package dev.finch.norman.junit;

/**
 * Selecting this class (Surefire selects every *Test class) makes {@link NormanTestEngine} run the µNorman files
 * under {@code examples/} and {@code docs/} on the test class path — the project's own example of the engine, and
 * the doc examples of {@code docs/norman.md}. Each unit test is one test in the Surefire report.
 */
@NormanSuite({"examples", "docs"})
class NormanExamplesTest { }

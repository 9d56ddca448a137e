package com.example;

import dev.finch.norman.junit.NormanSuite;

/** Surefire selects classes: this one hands the µNorman files under src/test/resources/agents to Finch's engine. */
@NormanSuite({"agents"})
class AgentsTest { }

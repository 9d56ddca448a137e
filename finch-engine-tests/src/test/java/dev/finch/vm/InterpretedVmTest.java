package dev.finch.vm;

import dev.finch.vm.compile.ModuleCompiler;
import dev.finch.vm.engine.Vm;
import org.junit.jupiter.api.BeforeAll;

/** The VM tests again with every function interpreted: both tiers must agree (reliability row 4). */
class InterpretedVmTest extends VmTest {
    @BeforeAll static void interpretEverything() {
        VM.close();
        VM = new Vm(ModuleCompiler.Tiering.INTERPRET_ALL);
    }
}

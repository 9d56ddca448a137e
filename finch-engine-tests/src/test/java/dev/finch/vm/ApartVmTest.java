package dev.finch.vm;

import dev.finch.vm.compile.ModuleCompiler;
import dev.finch.vm.engine.Vm;
import org.junit.jupiter.api.BeforeAll;

/** The VM tests again with each word compiled in a class of its own: every call between words crosses classes. */
class ApartVmTest extends VmTest {
    @BeforeAll static void compileApart() {
        VM.close();
        VM = new Vm(ModuleCompiler.Tiering.COMPILE_APART);
    }
}

package dev.finch.capabilities;

import dev.finch.ir.cap.Capability;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class PathTemplateTest {

    private static PathPattern pat(String s) { return PathPattern.parse(s).value(); }

    private static ConcretePath ws(String rel) { return ConcretePath.of(Root.WORKSPACE, rel).value(); }

    private final PathTemplate reports = PathTemplate.of(CapabilityKind.FS_WRITE, Root.WORKSPACE, List.of("reports"), List.of(),
            pat("${workspace}/reports/**")).value();

    @Test
    void boundIsTheStaticPreview() {
        assertThat(reports.bound()).isEqualTo(Capability.parse("fs.write(${workspace}/reports/**)").orElseThrow());
        assertThat(reports.boundCoversEveryArgument()).isTrue();
        assertThat(reports.shape().toString()).isEqualTo("${workspace}/reports/**");
        assertThat(reports.toString()).isEqualTo("fs.write(${workspace}/reports/<path>) within fs.write(${workspace}/reports/**)");
    }

    @Test
    void instantiationBuildsTheConcreteRequirementFromParts() {
        assertThat(reports.instantiate(ws("q3/summary.csv")).value())
                .isEqualTo(Capability.parse("fs.write(${workspace}/reports/q3/summary.csv)").orElseThrow());
        // A name that looks like a separator or a parent stays one literal name under the prefix.
        assertThat(reports.instantiate(ws("..\\..\\x")).value().toString()).isEqualTo("fs.write(${workspace}/reports/..\\..\\x)");
    }

    @Test
    void argumentUnderAnotherRootIsRefused() {
        ConcretePath host = ConcretePath.of(Root.HOST_MACHINE, "etc/passwd").value();
        assertThat(reports.instantiate(host).refusal().orElseThrow().code()).isEqualTo("E-CAP-017");
        assertThat(reports.instantiate(pat("${project}/**")).refusal().orElseThrow().code()).isEqualTo("E-CAP-017");
    }

    @Test
    void aNarrowBoundRefusesArgumentsOutsideIt() {
        PathTemplate read = PathTemplate.of(CapabilityKind.FS_READ, Root.WORKSPACE, List.of(), List.of(),
                pat("${workspace}/notes/**")).value();
        assertThat(read.boundCoversEveryArgument()).isFalse();
        assertThat(read.instantiate(ws("notes/n.txt")).value().toString()).isEqualTo("fs.read(${workspace}/notes/n.txt)");
        assertThat(read.instantiate(ws("secrets/key")).refusal().orElseThrow().code()).isEqualTo("E-CAP-016");
        // Arguments known only by selector: inside is accepted, unprovable is refused.
        assertThat(read.instantiate(pat("${workspace}/notes/*.md")).value().toString()).isEqualTo("fs.read(${workspace}/notes/*.md)");
        assertThat(read.instantiate(pat("${workspace}/**")).refusal().orElseThrow().code()).isEqualTo("E-CAP-016");
    }

    @Test
    void suffixIsAppendedAfterTheHole() {
        PathTemplate meta = PathTemplate.of(CapabilityKind.FS_READ, Root.PROJECT, List.of("data"), List.of("meta.json"),
                pat("${project}/data/**/meta.json")).value();
        assertThat(meta.boundCoversEveryArgument()).isTrue();
        assertThat(meta.instantiate(ConcretePath.of(Root.PROJECT, "set1").value()).value().toString())
                .isEqualTo("fs.read(${project}/data/set1/meta.json)");
        assertThat(meta.instantiate(pat("${project}/*")).value().toString()).isEqualTo("fs.read(${project}/data/*/meta.json)");
    }

    @Test
    void malformedTemplatesAreRefused() {
        assertThat(PathTemplate.of(CapabilityKind.PROCESS_RUN, Root.WORKSPACE, List.of(), List.of(), pat("${workspace}/**"))
                .refusal().orElseThrow().code()).isEqualTo("E-CAP-003");
        assertThat(PathTemplate.of(CapabilityKind.FS_READ, Root.WORKSPACE, List.of(".."), List.of(), pat("${workspace}/**"))
                .refusal().orElseThrow().code()).isEqualTo("E-CAP-005");
        assertThat(PathTemplate.of(CapabilityKind.FS_READ, Root.WORKSPACE, List.of("*"), List.of(), pat("${workspace}/**"))
                .refusal().orElseThrow().code()).isEqualTo("E-CAP-010");
        assertThat(PathTemplate.of(CapabilityKind.FS_READ, Root.WORKSPACE, List.of(), List.of(), pat("${project}/**"))
                .refusal().orElseThrow().code()).isEqualTo("E-CAP-017");
    }

    @Test
    void tooLongInstantiationIsRefused() {
        ConcretePath deep = ws(String.join("/", java.util.Collections.nCopies(1023, "abc")));
        assertThat(reports.instantiate(deep).refusal().orElseThrow().code()).isEqualTo("E-CAP-011");
    }
}

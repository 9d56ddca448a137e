package dev.finch.persist;

import dev.finch.FinchJson;
import dev.finch.Outcome;
import dev.finch.Session;
import dev.finch.capabilities.Scope;
import java.nio.file.Files;
import java.nio.file.Path;

/** Run in a separate JVM by {@link DurableContinuationTest}: restores a saved session, approves, prints the outcome. */
public final class ResumeFixture {
    private ResumeFixture() { }

    public static void main(String[] args) throws Exception {
        String image = Files.readString(Path.of(args[0]));
        String executionId = args[1];
        Session s = Images.keyed().restore(image, dev.finch.SessionOptions.DEFAULT.withWorkspace(Path.of(args[2])));
        Outcome o = s.approve(executionId, Scope.ONCE);
        System.out.println(FinchJson.write(o));
        System.exit(0);
    }
}

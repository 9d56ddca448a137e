package dev.finch.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.store.FinchStore;
import dev.finch.store.StoreCode;
import dev.finch.store.StoreLimits;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The store contract on the embedded store (SQLite in a state directory), and what only an embedded store does. */
class EmbeddedStoreTest extends StoreContract {
    @TempDir static Path stateDir;

    @Override protected FinchStore open(StoreLimits limits) { return FinchStores.embedded(stateDir, limits); }

    @Override protected void wipe() throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + stateDir.resolve(FinchStores.DATABASE_FILE));
             Statement s = c.createStatement()) {
            for (String table : List.of("finch_images", "finch_claims", "finch_effects", "finch_grants", "finch_memory", "finch_schedules")) {
                s.executeUpdate("DELETE FROM " + table);
            }
        }
    }

    @Test void theStateDirectoryIsCreatedWithTheDatabaseAndItsSchemaHistory() throws Exception {
        Path nested = stateDir.resolve("a/b/state");
        try (FinchStore s = FinchStores.embedded(nested)) {
            assertThat(s.description()).isEqualTo("sqlite " + nested.resolve("finch.db"));
            s.images().put("x", "y");
        }
        try (FinchStore s = FinchStores.embedded(nested)) {
            assertThat(s.images().get("x")).isPresent();
        }
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + nested.resolve("finch.db"));
             Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT version, description, success FROM finch_schema_history WHERE version IS NOT NULL ORDER BY installed_rank")) {
            List<String> applied = new ArrayList<>();
            while (rs.next()) applied.add(rs.getString(1) + " " + rs.getString(2) + " " + rs.getBoolean(3));
            assertThat(applied).as("each version applied once, however often the store opens").containsExactlyElementsOf(Schema.VERSIONS.stream()
                    .map(v -> v.substring(1).replace("__", " ") + " true").toList());
        }
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + nested.resolve("finch.db"));
             Statement st = c.createStatement(); ResultSet rs = st.executeQuery("PRAGMA journal_mode")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).isEqualToIgnoringCase("wal");
        }
    }

    @Test void aStateDirectoryThatIsAFileIsUnavailable() throws Exception {
        Path file = Files.writeString(stateDir.resolve("plain-file"), "x");
        var e = assertCode(() -> FinchStores.embedded(file), StoreCode.UNAVAILABLE);
        assertThat(e.getCause()).isNotNull();
    }

    @Test void aFileThatIsNotADatabaseIsUnavailableAndKeptAsItIs() throws Exception {
        Path dir = Files.createDirectories(stateDir.resolve("junk"));
        byte[] junk = "this is not a database, it is a note\n".repeat(200).getBytes(StandardCharsets.UTF_8);
        Files.write(dir.resolve(FinchStores.DATABASE_FILE), junk);
        var e = assertCode(() -> FinchStores.embedded(dir), StoreCode.UNAVAILABLE);
        assertThat(e.getCause()).as("the driver's failure goes to the host").isNotNull();
        assertThat(Files.readAllBytes(dir.resolve(FinchStores.DATABASE_FILE))).isEqualTo(junk);
    }

    @Test void aDatabaseOfANewerFinchIsRefused() throws Exception {
        Path dir = stateDir.resolve("newer");
        FinchStores.embedded(dir).close();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve(FinchStores.DATABASE_FILE)); Statement st = c.createStatement()) {
            st.executeUpdate("INSERT INTO finch_schema_history (installed_rank, version, description, type, script, checksum, installed_by, "
                    + "execution_time, success) VALUES (99, '" + (Schema.latest() + 1) + "', 'from the future', 'SQL', 'V2__future.sql', 0, 'test', 0, 1)");
        }
        var e = assertCode(() -> FinchStores.embedded(dir), StoreCode.SCHEMA);
        assertThat(e.getMessage()).contains("newer build of Finch");
    }

    @Test void aVersionOneDatabaseIsBroughtUpToDateAndKeepsItsClaims() throws Exception {
        Path dir = stateDir.resolve("v1");
        FinchStores.embedded(dir).close();
        // Back to version 1, as a first build of the store left it, with a claim of its own.
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve(FinchStores.DATABASE_FILE)); Statement st = c.createStatement()) {
            st.executeUpdate("DELETE FROM finch_schema_history WHERE version IN ('2', '3', '4')");
            st.executeUpdate("DROP TABLE finch_schedules");
            st.executeUpdate("ALTER TABLE finch_claims DROP COLUMN claimant");
            st.executeUpdate("INSERT INTO finch_claims (execution_id, pause, claimed_at) VALUES ('old', 1, 0)");
        }
        try (FinchStore store = FinchStores.embedded(dir)) {
            assertThat(store.claims().isClaimed("old", 1)).isTrue();
            assertThat(store.claims().claim("old", 1, "anyone")).as("a version-1 claim has no claimant").isFalse();
            assertThat(store.claims().claim("new", 1, "step-a")).isTrue();
            assertThat(store.claims().claim("new", 1, "step-a")).isTrue();
        }
    }

    @Test void aVersionThreeDatabaseKeepsItsSchedulesWhoseLanguageIsThenInferred() throws Exception {
        Path dir = stateDir.resolve("v3");
        FinchStores.embedded(dir).close();
        // Back to version 3, with a schedule kept then (no language, no word).
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve(FinchStores.DATABASE_FILE)); Statement st = c.createStatement()) {
            st.executeUpdate("DELETE FROM finch_schema_history WHERE version = '4'");
            st.executeUpdate("ALTER TABLE finch_schedules DROP COLUMN language");
            st.executeUpdate("ALTER TABLE finch_schedules DROP COLUMN word");
            st.executeUpdate("INSERT INTO finch_schedules (schedule_id, policy, when_spec, program, created_at, runs) "
                    + "VALUES ('sch-old', 'report', 'PT1M', '(say 1)', 1000, 0)");
        }
        try (FinchStore store = FinchStores.embedded(dir)) {
            assertThat(store.schedules().find("sch-old")).hasValueSatisfying(s -> {
                assertThat(s.program()).isEqualTo("(say 1)");
                assertThat(s.language()).isEmpty();
                assertThat(s.word()).isEmpty();
            });
        }
    }

    @Test void storesOpenedTogetherOnOneNewDirectoryMigrateItOnce() throws Exception {
        Path dir = stateDir.resolve("together");
        List<FinchStore> opened = java.util.Collections.synchronizedList(new ArrayList<>());
        race(4, t -> opened.add(FinchStores.embedded(dir)));
        try {
            assertThat(opened).hasSize(4);
            assertThat(opened.get(0).claims().claim("e", 1)).isTrue();
            assertThat(opened.get(3).claims().claim("e", 1)).isFalse();
        } finally {
            opened.forEach(FinchStore::close);
        }
    }

    @Test void migrationStatementsAreCutAtLineEndSemicolons() {
        assertThat(Schema.statements("-- comment\nCREATE TABLE a (x INT);\n\nCREATE TABLE b (\n  y TEXT -- why\n);\n"))
                .containsExactly("CREATE TABLE a (x INT)", "CREATE TABLE b (\n  y TEXT -- why\n)");
    }
}

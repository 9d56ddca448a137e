package dev.finch.store.jdbc;

import dev.finch.store.StoreCode;
import dev.finch.store.StoreException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.MigrationVersion;
import org.flywaydb.core.api.migration.Context;
import org.flywaydb.core.api.migration.JavaMigration;

/**
 * The store's schema, brought up to date by Flyway when a store opens. The migrations are SQL files, one per version
 * and database, under {@code dev/finch/store/jdbc/schema/<database>/V<n>__<name>.sql}; they are listed here
 * ({@link #VERSIONS}) and handed to Flyway as Java migrations, so nothing depends on scanning a class path (a shaded
 * jar, the module path). History goes to table {@code finch_schema_history}. A database whose history has a version
 * this build does not know was written by a newer Finch: it is refused ({@code E-STORE-007}), never used.
 */
final class Schema {
    /** Every version of the schema, oldest first: add a line and a file per database for each change, never edit one. */
    static final List<String> VERSIONS = List.of("V1__store", "V2__claimants", "V3__schedules", "V4__schedule_work");

    static final String HISTORY = "finch_schema_history";

    private Schema() { }

    /** The newest version this build knows. */
    static int latest() { return VERSIONS.size(); }

    /** Brings the schema of {@code dataSource} up to date; {@code E-STORE-007} when it cannot. */
    static void migrate(DataSource dataSource, Dialect dialect) {
        List<JavaMigration> migrations = new ArrayList<>();
        for (String name : VERSIONS) migrations.add(new SqlFile(dialect, name));
        Flyway flyway = Flyway.configure(Schema.class.getClassLoader())
                .dataSource(dataSource)
                .table(HISTORY)
                .locations(new String[0])
                .javaMigrations(migrations.toArray(JavaMigration[]::new))
                .loggers("slf4j")
                .cleanDisabled(true)
                .load();
        try {
            MigrationVersion newest = MigrationVersion.fromVersion(Integer.toString(latest()));
            for (MigrationInfo applied : flyway.info().applied()) {
                if (applied.getVersion() != null && applied.getVersion().isNewerThan(newest.getVersion())) {
                    throw new StoreException(StoreCode.SCHEMA, "the store was written by a newer build of Finch (its schema is at version "
                            + applied.getVersion() + "; this build knows up to " + newest + ")");
                }
            }
            flyway.migrate();
        } catch (FlywayException e) {
            // A database that cannot be reached or is busy says so; anything else is the schema's doing.
            StoreException f = Failures.of(dialect, "bring the store's schema up to date", e);
            if (f.code() == StoreCode.UNAVAILABLE || f.code() == StoreCode.BUSY) throw f;
            throw new StoreException(StoreCode.SCHEMA, "could not bring the store's schema up to date (the host has the cause)", e);
        }
    }

    /** One migration: a SQL file of this database, whose statements end with a semicolon at the end of a line. */
    private static final class SqlFile implements JavaMigration {
        private final String name;
        private final String text;

        SqlFile(Dialect dialect, String name) {
            this.name = name;
            String resource = "schema/" + dialect.schemaFolder() + "/" + name + ".sql";
            try (InputStream in = Schema.class.getResourceAsStream(resource)) {
                if (in == null) throw new IllegalStateException("missing migration " + resource);
                this.text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new IllegalStateException("unreadable migration " + resource, e);
            }
        }

        @Override public MigrationVersion getVersion() { return MigrationVersion.fromVersion(name.substring(1, name.indexOf("__"))); }

        @Override public String getDescription() { return name.substring(name.indexOf("__") + 2); }

        @Override public Integer getChecksum() {
            CRC32 crc = new CRC32();
            crc.update(text.getBytes(StandardCharsets.UTF_8));
            return (int) crc.getValue();
        }

        @Override public boolean canExecuteInTransaction() { return true; }

        @Override public void migrate(Context context) throws Exception {
            try (Statement s = context.getConnection().createStatement()) {
                for (String statement : statements(text)) s.execute(statement);
            }
        }
    }

    /** The statements of a migration: its lines without comments, cut after each line that ends with a semicolon. */
    static List<String> statements(String text) {
        List<String> out = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : text.split("\n")) {
            String l = line.strip();
            if (l.isEmpty() || l.startsWith("--")) continue;
            current.append(line).append('\n');
            if (l.endsWith(";")) {
                String st = current.toString().strip();
                out.add(st.substring(0, st.length() - 1));
                current.setLength(0);
            }
        }
        if (!current.toString().isBlank()) out.add(current.toString().strip());
        return out;
    }
}

package dev.finch.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.finch.store.FinchStore;
import dev.finch.store.StoreCode;
import dev.finch.store.StoreLimits;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The store contract on a real PostgreSQL server ({@link PostgresServer}), and what only PostgreSQL does. */
class PostgresStoreTest extends StoreContract {
    @RegisterExtension static final PostgresServer.Extension PG = new PostgresServer.Extension();

    private PostgresServer server;
    private String url;

    /**
     * The class's database, made the first time a test needs it; without a server every test is skipped, one by one,
     * with the reason (an abort in {@code @BeforeAll} would show as no tests at all).
     */
    private void database() {
        if (url != null) return;
        server = PG.server();
        try {
            url = server.createDatabase("contract");
        } catch (java.sql.SQLException e) {
            throw new AssertionError("the server runs but made no database", e);
        }
    }

    @Override protected FinchStore open(StoreLimits limits) {
        database();
        return FinchStores.postgres(PostgresOptions.of(url, server.user(), null).withLimits(limits).withMaxConnections(10));
    }

    @Override protected void wipe() throws Exception {
        database();
        try (Connection c = DriverManager.getConnection(url, server.user(), null); Statement s = c.createStatement()) {
            s.executeUpdate("TRUNCATE finch_images, finch_claims, finch_effects, finch_grants, finch_memory, finch_schedules");
        }
    }

    @Test void aServerThatIsNotThereIsUnavailableInFinchsWords() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = s.getLocalPort();
        }
        var options = new PostgresOptions("jdbc:postgresql://127.0.0.1:" + closedPort + "/finch?password=secret", "finch", "secret", 2,
                Duration.ofMillis(500), StoreLimits.DEFAULTS);
        var e = assertCode(() -> FinchStores.postgres(options), StoreCode.UNAVAILABLE);
        assertThat(e.getMessage()).doesNotContain("secret", "refused", "Connection");
        assertThat(e.getCause()).as("the driver's failure goes to the host").isNotNull();
        assertThat(options.toString()).doesNotContain("secret");
    }

    @Test void aDatabaseThatDoesNotExistIsUnavailable() {
        assertCode(() -> FinchStores.postgres(server.url("no_such_database"), server.user(), null), StoreCode.UNAVAILABLE);
        assertCode(() -> FinchStores.postgres("jdbc:sqlite:/tmp/x.db", "u", null), StoreCode.UNAVAILABLE);
    }

    @Test void theStoreCanLiveInASchemaOfItsOwnBesideAnApplication() throws Exception {
        try (Connection c = DriverManager.getConnection(url, server.user(), null); Statement s = c.createStatement()) {
            s.execute("CREATE SCHEMA IF NOT EXISTS finch_apart");
        }
        try (FinchStore apart = FinchStores.postgres(url + "?currentSchema=finch_apart", server.user(), null)) {
            apart.images().put("only-here", "x");
            assertThat(apart.images().get("only-here")).isPresent();
            assertThat(store.images().get("only-here")).isEmpty();
        }
    }

    @Test void aDatabaseOfANewerFinchIsRefused() throws Exception {
        String newer = server.createDatabase("newer");
        FinchStores.postgres(newer, server.user(), null).close();
        try (Connection c = DriverManager.getConnection(newer, server.user(), null); Statement st = c.createStatement()) {
            st.executeUpdate("INSERT INTO finch_schema_history (installed_rank, version, description, type, script, checksum, installed_by, "
                    + "execution_time, success) VALUES (99, '" + (Schema.latest() + 1) + "', 'from the future', 'SQL', 'V2__future.sql', 0, 'test', 0, true)");
        }
        assertCode(() -> FinchStores.postgres(newer, server.user(), null), StoreCode.SCHEMA);
        assertThat(Schema.VERSIONS).containsExactly("V1__store", "V2__claimants", "V3__schedules", "V4__schedule_work");
    }
}

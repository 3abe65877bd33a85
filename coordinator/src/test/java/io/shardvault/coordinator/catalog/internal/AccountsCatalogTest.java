package io.shardvault.coordinator.catalog.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.shardvault.common.ErrorCode;
import io.shardvault.common.config.Settings;
import io.shardvault.common.testing.FreePorts;
import io.shardvault.coordinator.catalog.AccessKey;
import io.shardvault.coordinator.catalog.Account;
import io.shardvault.coordinator.catalog.AccountListing;
import io.shardvault.coordinator.catalog.CatalogConfig;
import io.shardvault.coordinator.catalog.CatalogException;
import io.shardvault.coordinator.catalog.CatalogServer;
import io.shardvault.coordinator.testing.ClusterKeyFile;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Accounts and restricted keys through a real one-peer Ratis group (issue #21): ids that are not names,
 * unique names, keys only for existing accounts, restrictions stored, the upgrade rule (owners of keys and
 * buckets made before accounts are legacy accounts that keep their buckets), all kept across a restart
 * from a snapshot and its log.
 */
@Timeout(120)
class AccountsCatalogTest {
    @TempDir
    Path dir;

    private static CatalogConfig config(Path dir, int port) {
        return CatalogConfig.from(Settings.of(Map.of(
                "catalog.peerId", "c1", "catalog.peers", "c1=127.0.0.1:" + port,
                "catalog.dataDir", dir.toString(),
                "catalog.secrets.keyFile", ClusterKeyFile.in(dir.toAbsolutePath().getParent()).toString(),
                "catalog.election.timeoutMin", "300ms", "catalog.election.timeoutMax", "600ms")));
    }

    private static CatalogException failure(CompletableFuture<?> f) {
        try {
            f.join();
        } catch (CompletionException e) {
            assertThat(e.getCause()).isInstanceOf(CatalogException.class);
            return (CatalogException) e.getCause();
        }
        throw new AssertionError("expected a CatalogException");
    }

    @Test
    void accountsOwnKeysAndBucketsByIdKeepRestrictionsAndSurviveARestart() throws Exception {
        CatalogConfig config = config(dir, FreePorts.loopback());
        Account acme;
        Account team;
        AccessKey scoped;
        try (CatalogServer server = RatisCatalogServer.start(config, new SimpleMeterRegistry())) {
            RatisCatalog catalog = (RatisCatalog) server.catalog();
            acme = catalog.createAccount("acme").join();
            assertThat(acme.id()).startsWith("SVA").isNotEqualTo("acme");
            assertThat(acme.legacy()).isFalse();

            // Names may repeat; the ids differ, and a shared name must then be given as an id.
            Account acme2 = catalog.createAccount("acme").join();
            assertThat(acme2.id()).isNotEqualTo(acme.id());
            CatalogException ambiguous = failure(catalog.createAccessKey("acme", false));
            assertThat(ambiguous.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
            assertThat(ambiguous.getMessage()).contains(acme.id()).contains(acme2.id());
            assertThat(failure(catalog.createAccount("no spaces")).code()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
            CatalogException unknown = failure(catalog.createAccessKey("nobody", false));
            assertThat(unknown.code()).isEqualTo(ErrorCode.NOT_FOUND);
            assertThat(unknown.getMessage()).contains("no account named nobody")
                    .contains("shardvault admin accounts create nobody");

            AccessKey full = catalog.createAccessKey(acme.id(), true).join();
            assertThat(full.accountId()).isEqualTo(acme.id());
            assertThat(full.bucket()).isEmpty();
            assertThat(full.readOnly()).isFalse();
            assertThat(full.bypassGovernanceAllowed()).isTrue();
            scoped = catalog.createAccessKey(acme.id(), false, Optional.of("veeam-repo"), true).join();
            assertThat(scoped.bucket()).contains("veeam-repo");
            assertThat(failure(catalog.createAccessKey(acme.id(), false, Optional.of("Not_A_Bucket"), false)).code())
                    .isEqualTo(ErrorCode.INVALID_ARGUMENT);
            assertThat(scoped.readOnly()).isTrue();
            assertThat(catalog.lookupAccessKey(scoped.accessKeyId()).join()).isEqualTo(scoped);
            assertThat(catalog.disableAccessKey(scoped.accessKeyId()).join())
                    .isEqualTo(scoped.disabled());
            catalog.createBucket("acme-data", acme.id(), false).join();

            // The upgrade rule: a key and a bucket of an older build name a free-text owner.
            AccessKey old = catalog.createLegacyAccessKey("backup-team", false).join();
            assertThat(old.accountId()).isEqualTo("backup-team");
            catalog.createBucket("legacy-bucket", "backup-team", false).join();
            AccessKey newer = catalog.createAccessKey("backup-team", false).join();
            assertThat(newer.accountId()).isEqualTo("backup-team");
            // A new account of the same name is another account; the legacy one keeps the name as its id.
            team = catalog.createAccount("backup-team").join();
            assertThat(catalog.createAccessKey("backup-team", false).join().accountId()).isEqualTo("backup-team");
            assertThat(catalog.createAccessKey(team.id(), false).join().accountId()).isEqualTo(team.id());
            // The bootstrap key's account takes keys before it owns anything.
            assertThat(catalog.createAccessKey(Account.BOOTSTRAP_ID, false).join().accountId())
                    .isEqualTo(Account.BOOTSTRAP_ID);
            assertThat(server.takeSnapshot().join()).isGreaterThan(0L);
            // Written after the snapshot: replayed from the log at restart.
            catalog.createAccount("zeta").join();
        }
        try (CatalogServer server = RatisCatalogServer.start(config, new SimpleMeterRegistry())) {
            RatisCatalog catalog = (RatisCatalog) server.catalog();
            List<AccountListing> accounts = awaitAccounts(catalog);
            // By name, then id: the two acme accounts, admin, the legacy and the new backup-team, zeta.
            assertThat(accounts).extracting(l -> l.account().name())
                    .containsExactly("acme", "acme", Account.BOOTSTRAP_ID, "backup-team", "backup-team", "zeta");
            AccountListing a = accounts.stream().filter(l -> l.account().id().equals(acme.id())).findFirst()
                    .orElseThrow();
            assertThat(a.account()).isEqualTo(acme);
            assertThat(a.keys()).isEqualTo(2);
            assertThat(a.buckets()).isEqualTo(1);
            AccountListing legacy = accounts.stream().filter(l -> l.account().id().equals("backup-team"))
                    .findFirst().orElseThrow();
            assertThat(legacy.account().legacy()).isTrue();
            assertThat(legacy.keys()).isEqualTo(3);
            assertThat(legacy.buckets()).isEqualTo(1);
            AccountListing newTeam = accounts.stream().filter(l -> l.account().id().equals(team.id()))
                    .findFirst().orElseThrow();
            assertThat(newTeam.account().legacy()).isFalse();
            assertThat(newTeam.keys()).isEqualTo(1);
            assertThat(newTeam.buckets()).isZero();
            assertThat(accounts.get(2).account().legacy()).isTrue();
            assertThat(accounts.get(5).keys()).isZero();
            assertThat(catalog.lookupAccessKey(scoped.accessKeyId()).join()).isEqualTo(scoped.disabled());
        }
    }

    /** The restarted peer elects itself; reads before that wait (bounded). */
    private static List<AccountListing> awaitAccounts(RatisCatalog catalog) throws InterruptedException {
        for (int attempt = 0; attempt < 100; attempt++) {
            try {
                return catalog.listAccounts().join();
            } catch (CompletionException e) {
                Thread.sleep(200);
            }
        }
        throw new AssertionError("the restarted catalog did not answer");
    }
}

package io.shardvault.coordinator.admin.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code admin init --map FILE} (also {@code shardvault init}): registers the cluster map in the catalog once,
 * through the Catalog MXBean's {@code initMap}; the coordinator parses and checks the file's text.
 */
@Command(name = "init", mixinStandardHelpOptions = true,
        description = "Registers the cluster map (a file like conf/cluster-map.conf) in the catalog, once: every"
                + " coordinator, pod and stash server then follows the catalog's. Again with the same map: nothing"
                + " changes. A map that disagrees with the catalog's is refused, naming each difference. Also"
                + " says whether the map's catalog.peers match the catalog group.")
final class InitCommand implements Callable<Integer> {
    @ParentCommand
    private AdminCli root;

    @Option(names = "--map", paramLabel = "FILE", required = true, description = "The cluster map file (HOCON).")
    private Path map;

    @Override
    public Integer call() throws AdminException {
        String text;
        try {
            text = Files.readString(map, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new AdminException(ExitCodes.USAGE, "cannot read --map " + map + ": " + e.getMessage());
        }
        return root.execute((session, out) -> {
            String[] done = (String[]) session.invoke(CatalogCommand.CATALOG, "initMap", new Object[] {text},
                    new String[] {String.class.getName()});
            if (root.json) {
                out.println(Json.of(done));
                return;
            }
            for (String line : done) {
                out.println(line);
            }
        });
    }
}

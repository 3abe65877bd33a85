package io.shardvault.coordinator.admin.cli;

import java.io.PrintWriter;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code admin catalog peers|add-peer|remove-peer}: the catalog's Raft group as its leader sees it, and
 * changes to its membership (Ratis {@code setConfiguration}, through whichever coordinator {@code --jmx} names).
 */
@Command(name = "catalog", mixinStandardHelpOptions = true,
        description = "Shows the catalog's peers; adds and removes one.")
final class CatalogCommand extends CommandGroup {
    static final ObjectName CATALOG = io.shardvault.common.jmx.MBeanRegistrations.name("Catalog", "catalog");

    @Command(name = "peers", mixinStandardHelpOptions = true,
            description = "Every catalog peer: address, role, the last log index the leader knows it committed, and"
                    + " how long since the leader heard from it.")
    int peers() throws AdminException {
        return root.execute((session, out) -> print(out, (CompositeData[]) session.get(CATALOG, "Members")));
    }

    @Command(name = "add-peer", mixinStandardHelpOptions = true,
            description = "Adds a catalog peer. Start its coordinator first, with the group's peers and itself in"
                    + " catalog.peers; the leader catches it up, then commits the new membership.")
    int addPeer(@Parameters(paramLabel = "ID=HOST:PORT", description = "The new peer, as catalog.peers names it.")
                String peer) throws AdminException {
        return root.execute((session, out) -> print(out, (CompositeData[]) session.invoke(CATALOG, "addPeer",
                new Object[] {peer}, new String[] {String.class.getName()})));
    }

    @Command(name = "remove-peer", mixinStandardHelpOptions = true,
            description = "Removes a catalog peer; its coordinator may be stopped afterwards. Refuses the last peer,"
                    + " and a removal that leaves fewer answering peers than a majority of the group.")
    int removePeer(@Parameters(paramLabel = "ID", description = "The peer id.") String peerId)
            throws AdminException {
        return root.execute((session, out) -> print(out, (CompositeData[]) session.invoke(CATALOG, "removePeer",
                new Object[] {peerId}, new String[] {String.class.getName()})));
    }

    private void print(PrintWriter out, CompositeData[] members) {
        if (root.json) {
            out.println(Json.of(members));
            return;
        }
        Table t = new Table("PEER", "ADDRESS", "ROLE", "COMMIT INDEX", "LAST CONTACT");
        for (CompositeData m : members) {
            long commit = (Long) m.get("commitIndex");
            t.row(m.get("id"), m.get("address"), m.get("role"), commit < 0 ? "?" : commit,
                    Table.age((Long) m.get("lastContactMillis")));
        }
        out.print(t.render());
    }
}

package eu.vpki.common.replication;

import java.util.ArrayList;
import java.util.List;

/**
 * State-transfer pages for tests, without a group: every page of a state machine as its provider serves them
 * ({@link RedisStateMachine#readSnapshotPage}), and their installation in another one, whole or broken off.
 */
public final class SnapshotPages {
    private SnapshotPages() {
    }

    /** Every page of {@code source}'s state, of about {@code pageBytes} each, as a provider would serve them. */
    public static List<SnapshotPage> read(RedisStateMachine source, long pageBytes) {
        List<SnapshotPage> pages = new ArrayList<>();
        SnapshotPage.Position position = SnapshotPage.Position.START;
        while (true) {
            SnapshotPage page = source.readSnapshotPage(position, pageBytes);
            pages.add(page);
            if (page.last()) {
                return pages;
            }
            position = page.next();
        }
    }

    /**
     * Replaces {@code target}'s state with the first {@code installed} of {@code pages}, completing the transfer (the first
     * page's applied table) only when that is all of them.
     */
    public static void install(RedisStateMachine target, List<SnapshotPage> pages, int installed) {
        target.beginReplacing("a test transfer is replacing this state");
        for (int i = 0; i < installed; i++) {
            target.installPage(pages.get(i));
        }
        if (installed == pages.size()) {
            target.completeReplacing(pages.get(0).applied());
        }
    }

    /** Replaces {@code target}'s state with {@code source}'s. */
    public static void copy(RedisStateMachine source, RedisStateMachine target) {
        List<SnapshotPage> pages = read(source, StateTransfer.PAGE_BYTES);
        install(target, pages, pages.size());
    }
}

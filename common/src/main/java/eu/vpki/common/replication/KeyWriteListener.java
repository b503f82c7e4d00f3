package eu.vpki.common.replication;

import java.util.Collection;

/**
 * Told by a replica's {@link RedisStateMachine} of every write it makes to the managed keys, the only
 * writes that reach them: {@link #writing} (or {@link #replacing}) before the write is sent to Redis,
 * {@link #written} once it returned, whether it succeeded or not (a write may be announced in two
 * {@code writing} calls, see there). Calls never overlap (the state
 * machine writes one batch at a time) and come before the applier raises its watermarks, so a read
 * that waited for a command ({@link Replica#awaitApplied}) is made after {@code writing} of every key
 * that command wrote. For caches of what Redis holds that must never answer older than what this
 * replica applied (the EA's {@code EcStationCache}); implementations are quick and never throw.
 */
public interface KeyWriteListener {

    /**
     * Before {@code keys} (managed keys, maybe repeated) are written. A second call may come, before
     * {@link #written}, once Redis answered: the records a pointer rule superseded that no operation of the batch
     * names (the record a replaced pointer named, {@link Operation.PutPointerIfNewer}), known only from what the apply
     * script found. Still before the watermarks rise, so a read that waited for the command sees it; a read that did
     * not wait may meanwhile find what it read before, as if it had been made just before the command.
     */
    void writing(Collection<String> keys);

    /** Before every managed key is replaced (state transfer). */
    void replacing();

    /** After the write announced last returned (or failed: then any part of it may have been written). */
    void written();
}

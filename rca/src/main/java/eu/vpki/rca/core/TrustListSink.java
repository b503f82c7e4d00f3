package eu.vpki.rca.core;

/** Receives the lists after every change or renewal, once they are persisted (e.g. {@link DcPublisher}). Must not block. */
@FunctionalInterface
public interface TrustListSink {
    void publish(PublishedLists lists);
}

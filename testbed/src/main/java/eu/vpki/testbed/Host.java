package eu.vpki.testbed;

import java.util.List;

/**
 * One machine of the local cluster as its processes see it: the address they listen on and are
 * reached at, and the words that start a command on it ({@code ip netns exec NS} for a network
 * namespace, nothing on loopback). The launch prefix must exec the command, so that the started
 * process is the command itself (its pid is the one to signal).
 *
 * @param name         the service it carries, e.g. {@code ea-1}
 * @param address      IPv4 address, e.g. {@code 127.0.0.1} or {@code 10.217.0.12}
 * @param launchPrefix words put before the command
 */
public record Host(String name, String address, List<String> launchPrefix) {
    public Host {
        launchPrefix = List.copyOf(launchPrefix);
    }
}

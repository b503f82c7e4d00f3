package eu.vpki.common.process;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

class ChildProcessTest {

    private static ChildProcess sleeper(Duration exitGrace) throws Exception {
        return ChildProcess.start(new ProcessBuilder("sleep", "60"), "sleep 60", Duration.ofSeconds(10), exitGrace);
    }

    @Test
    void stop_terminatesTheChild_andForgetsIt() throws Exception {
        ChildProcess child = sleeper(Duration.ZERO);
        assertThat(child.isAlive()).isTrue();
        assertThat(child.registered()).isTrue();
        child.stop();
        assertThat(child.isAlive()).isFalse();
        assertThat(child.exitValue()).isEqualTo(143); // 128 + SIGTERM
        assertThat(child.registered()).isFalse();
    }

    @Test
    void kill_endsTheChildWithSigkill() throws Exception {
        ChildProcess child = sleeper(Duration.ZERO);
        child.kill();
        assertThat(child.exitValue()).isEqualTo(137); // 128 + SIGKILL
        assertThat(child.registered()).isFalse();
    }

    @Test
    void terminate_sendsSigtermWithoutWaiting_andWaitForSeesTheExit() throws Exception {
        ChildProcess child = sleeper(Duration.ofSeconds(5));
        child.terminate();
        assertThat(child.waitFor(Duration.ofSeconds(10))).isTrue();
        child.awaitExit();
        assertThat(child.registered()).isFalse();
    }

    @Test
    void theShutdownReaper_endsEveryChildStillRunning() throws Exception {
        ChildProcess killedAtOnce = sleeper(Duration.ZERO);
        ChildProcess terminated = sleeper(Duration.ofSeconds(5));
        ChildProcess.reapRunning();
        assertThat(killedAtOnce.waitFor(Duration.ofSeconds(10))).isTrue();
        assertThat(terminated.waitFor(Duration.ofSeconds(10))).isTrue();
        assertThat(killedAtOnce.exitValue()).isEqualTo(137);
        assertThat(terminated.exitValue()).isEqualTo(143);
        killedAtOnce.awaitExit();
        terminated.awaitExit();
    }
}

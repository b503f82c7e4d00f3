package eu.vpki.dc;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** Spring Boot shell of the Distribution Centre service: reads configuration and wires the plain-Java core. */
@SpringBootApplication
public class DcApplication {
    public static void main(String[] args) {
        SpringApplication.run(DcApplication.class, args);
    }
}

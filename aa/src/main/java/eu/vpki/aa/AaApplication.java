package eu.vpki.aa;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** Spring Boot shell of the Authorization Authority service: reads configuration and wires the plain-Java core. */
@SpringBootApplication
public class AaApplication {
    public static void main(String[] args) {
        SpringApplication.run(AaApplication.class, args);
    }
}

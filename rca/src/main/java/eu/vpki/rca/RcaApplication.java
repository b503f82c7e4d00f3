package eu.vpki.rca;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** Spring Boot shell of the Root CA service: reads configuration and wires the plain-Java core. */
@SpringBootApplication
public class RcaApplication {
    public static void main(String[] args) {
        SpringApplication.run(RcaApplication.class, args);
    }
}

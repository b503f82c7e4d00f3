package eu.vpki.ea;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** Spring Boot shell of the Enrolment Authority service: reads configuration and wires the plain-Java core ({@code eu.vpki.ea.config}). */
@SpringBootApplication
public class EaApplication {
    public static void main(String[] args) {
        SpringApplication.run(EaApplication.class, args);
    }
}
